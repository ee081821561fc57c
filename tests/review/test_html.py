"""The review's HTML page: self-contained, a chart line per seat through every decision's
share, flagged moves and draws marked with tooltips, every string from the record escaped."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from tlatelolco import load, play_match
from tlatelolco.review import Settings, review_record
from tlatelolco.review.html import MARGIN, review_html, share_chart_svg
from tlatelolco.review.text import percent

HOSTILE = "<script>alert(1)</script>"
WIDTH, HEIGHT = 600, 240


@pytest.fixture(scope="module")
def review() -> dict[str, Any]:
    record = play_match(load("grand_bazaar", num_players=2), ["greedy", "random"], seed=1)
    record["players"][1] = HOSTILE  # names are typed by people: the page must not run them
    found = review_record(record, Settings(iterations=20), workers=1)
    assert any(d["label"] for d in found["decisions"]) and found["luck"]
    return found


@pytest.fixture(scope="module")
def chart(review: dict[str, Any]) -> ET.Element:
    return ET.fromstring(share_chart_svg(review, width=WIDTH, height=HEIGHT))  # well formed


def share_at(y: float) -> float:
    """The share a y coordinate of the chart stands for."""
    _, _, top, bottom = MARGIN
    return 1 - (y - top) / (HEIGHT - top - bottom)


def test_the_page_is_self_contained(review: dict[str, Any]) -> None:
    page = review_html(review)
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    for outside in ("http", "src=", "href=", "url(", "@import", "<link", "<script"):
        assert outside not in page.lower()
    assert "<style>" in page and "<svg" in page


def test_one_line_per_seat_through_every_decision_to_the_result(
        review: dict[str, Any], chart: ET.Element) -> None:
    lines = chart.findall("polyline")
    assert [line.get("data-seat") for line in lines] == ["0", "1"]
    decisions = review["decisions"]
    for seat, line in enumerate(lines):
        points = [tuple(map(float, p.split(","))) for p in line.get("points", "").split()]
        assert len(points) == len(decisions) + 1
        xs = [x for x, _ in points]
        assert xs == sorted(xs) and xs[-1] == WIDTH - MARGIN[1]
        wanted = [d["before"][seat] for d in decisions] + [review["returns"][seat]]
        assert [share_at(y) for _, y in points] == pytest.approx(wanted, abs=0.005)
    assert len({line.get("stroke") for line in lines}) == 2


def test_flagged_moves_and_draws_are_marked_with_tooltips(review: dict[str, Any],
                                                          chart: ET.Element) -> None:
    flagged = [d for d in review["decisions"] if d["label"]]
    marks = [c for c in chart.findall("circle") if "flag" in c.get("class", "")]
    assert len(marks) == len(flagged)
    for mark, d in zip(marks, flagged, strict=True):
        assert d["label"] in mark.get("class", "")
        assert share_at(float(mark.get("cy", "0"))) == pytest.approx(
            d["before"][d["seat"]], abs=0.005)
        tip = mark.findtext("title") or ""
        assert d["played_text"] in tip and d["best_text"] in tip
        assert percent(d["loss"]) in tip
    bands = chart.findall("rect")
    assert len(bands) == len(review["luck"])
    for band, event in zip(bands, review["luck"], strict=True):
        assert event["texts"][0] in (band.findtext("title") or "")


def test_the_flagged_moves_table_lists_each_labelled_decision(review: dict[str, Any]) -> None:
    page = review_html(review)
    table = page[page.index('id="flagged"'):]
    rows = re.findall(r"<tr><td>(\d+)</td>", table)
    assert rows == [str(d["step"]) for d in review["decisions"] if d["label"]]
    only = review_html(review, seat=0)
    table = only[only.index('id="flagged"'):]
    assert re.findall(r"<tr><td>(\d+)</td>", table) == [
        str(d["step"]) for d in review["decisions"] if d["label"] and d["seat"] == 0]
    assert '<tr class="marked"><td>0</td>' in only


def test_every_string_from_the_record_is_escaped(review: dict[str, Any]) -> None:
    page = review_html(review)
    assert HOSTILE not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "<script" not in page
