"""Reviewing an arena run folder: per bot kind figures that agree with the games' own reviews,
the run's chance share, the cache, and clear errors for a missing or damaged run."""

from __future__ import annotations

import json
import logging
import shutil
from pathlib import Path
from statistics import fmean, stdev
from typing import Any

import pytest

from tlatelolco.arena.results import summarize
from tlatelolco.arena.runner import play_all
from tlatelolco.arena.schedule import schedule
from tlatelolco.arena.storage import RECORDS, save_run
from tlatelolco.records import RecordError
from tlatelolco.review import ReviewCache, Settings, review_key, review_record
from tlatelolco.review.runs import REVIEWS, format_run, review_run, run_html
from tlatelolco.review.thresholds import THRESHOLDS

FAST = Settings(iterations=20)
GAMES = 3


@pytest.fixture(scope="module")
def run_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny arena run, made as `tlatelolco arena` makes one; never reviewed in place."""
    folder = tmp_path_factory.mktemp("run")
    matches = schedule("axio", ["greedy", "random"], games=GAMES, players=2, seed=3)
    records = play_all(matches, workers=1)
    save_run(folder, records, summarize(matches, records).as_dict())
    return folder


@pytest.fixture
def run(run_folder: Path, tmp_path: Path) -> Path:
    """A fresh copy of the run, without reviews."""
    return Path(shutil.copytree(run_folder, tmp_path / "run"))


@pytest.fixture(scope="module")
def records(run_folder: Path) -> list[dict[str, Any]]:
    lines = (run_folder / RECORDS).read_text().splitlines()
    return [json.loads(line) for line in lines]


@pytest.fixture(scope="module")
def alone(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each game reviewed by itself, without any cache."""
    return [review_record(r, FAST, workers=1) for r in records]


@pytest.fixture(scope="module")
def result(run_folder: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    folder = shutil.copytree(run_folder, tmp_path_factory.mktemp("reviewed") / "run")
    return review_run(folder, FAST, workers=1)


def test_per_bot_figures_agree_with_the_games_own_reviews(
        records: list[dict[str, Any]], alone: list[dict[str, Any]],
        result: dict[str, Any]) -> None:
    assert result["game"] == "axio" and result["games"] == GAMES
    assert result["reviewed"] == GAMES and result["cached"] == 0
    bots = {b["bot"]: b for b in result["bots"]}
    assert set(bots) == {"greedy", "random"}
    for bot, row in bots.items():
        seats = [(review, review["players"].index(bot)) for review in alone]
        decisions = sum(r["summary"][s]["decisions"] for r, s in seats)
        lost = sum(d["loss"] for r, s in seats for d in r["decisions"] if d["seat"] == s)
        mistakes = sum(d["label"] == "mistake" for r, s in seats for d in r["decisions"]
                       if d["seat"] == s)
        blunders = sum(d["label"] == "blunder" for r, s in seats for d in r["decisions"]
                       if d["seat"] == s)
        assert row["games"] == GAMES
        assert row["decisions"] == decisions > 0
        assert row["lost_per_decision"] == pytest.approx(lost / decisions, abs=1e-4)
        assert row["mistakes_per_100"] == pytest.approx(100 * mistakes / decisions, abs=0.01)
        assert row["blunders_per_100"] == pytest.approx(100 * blunders / decisions, abs=0.01)
        lucks = [sum(e["change"][s] for e in r["luck"]) for r, s in seats]
        assert row["luck_per_game"] == pytest.approx(fmean(lucks), abs=1e-3)
        half = 4.303 * stdev(lucks) / GAMES ** 0.5  # Student's t, 2 degrees of freedom
        assert (row["luck_low"], row["luck_high"]) == pytest.approx(
            (fmean(lucks) - half, fmean(lucks) + half), abs=1e-3)
        assert row["win_share"] == pytest.approx(fmean(r["returns"][s] for r, s in seats))
    # the greedy bot gives away less than the random one
    assert bots["greedy"]["lost_per_decision"] < bots["random"]["lost_per_decision"]


def test_the_chance_share_is_the_mean_of_the_games_with_its_interval(
        alone: list[dict[str, Any]], result: dict[str, Any]) -> None:
    shares, lucks, losts = [], [], []
    for review in alone:
        luck = sum(abs(row["luck"]) for row in review["summary"]) / 2  # two sides of one seat
        lost = sum(d["loss"] for d in review["decisions"])
        lucks.append(luck)
        losts.append(lost)
        shares.append(luck / (luck + lost))
    chance = result["chance"]
    assert chance["games"] == GAMES
    assert chance["mean"] == pytest.approx(fmean(shares), abs=1e-3)
    half = 4.303 * stdev(shares) / GAMES ** 0.5  # Student's t, 2 degrees of freedom
    assert chance["low"] == pytest.approx(fmean(shares) - half, abs=1e-3)
    assert chance["high"] == pytest.approx(fmean(shares) + half, abs=1e-3)
    assert result["luck_per_game"] == pytest.approx(fmean(lucks), abs=1e-3)
    assert result["lost_per_game"] == pytest.approx(fmean(losts), abs=1e-3)
    assert [g["chance"] for g in result["per_game"]] == pytest.approx(shares, abs=1e-3)


def test_a_pool_gives_the_same_figures_and_caches_every_game(
        run: Path, result: dict[str, Any], records: list[dict[str, Any]]) -> None:
    seen: list[tuple[int, int]] = []
    pooled = review_run(run, FAST, workers=2, progress=lambda *p: seen.append(p))
    timeless = ("folder", "seconds", "review_seconds")
    assert {k: v for k, v in pooled.items() if k not in timeless} == \
        {k: v for k, v in result.items() if k not in timeless}
    assert seen[0] == (0, GAMES) and seen[-1] == (GAMES, GAMES)
    assert [done for done, _ in seen] == sorted(done for done, _ in seen)
    cache = ReviewCache(run / REVIEWS)
    assert all(cache.get(review_key(r, FAST)) is not None for r in records)


def test_the_second_call_reads_every_review_from_the_cache(
        run: Path, records: list[dict[str, Any]]) -> None:
    first = review_run(run, FAST, workers=1)
    stored = sorted((run / REVIEWS).glob("*.json"))
    assert len(stored) == GAMES
    stamps = [p.stat().st_mtime_ns for p in stored]
    # a cached review changed on disk shows up in the figures: it was read, not computed
    cache = ReviewCache(run / REVIEWS)
    key = review_key(records[0], FAST)
    planted = cache.get(key)
    assert planted is not None
    seat = planted["players"].index("random")
    planted["summary"][seat]["lost"] += 5.0
    cache.put(planted)
    stamps[[p.name for p in stored].index(f"{key}.json")] = cache.path(key).stat().st_mtime_ns
    seen: list[tuple[int, int]] = []
    again = review_run(run, FAST, workers=1, progress=lambda *p: seen.append(p))
    assert again["reviewed"] == 0 and again["cached"] == GAMES
    assert seen == [(GAMES, GAMES)]
    assert [p.stat().st_mtime_ns for p in stored] == stamps
    before = {b["bot"]: b for b in first["bots"]}["random"]
    after = {b["bot"]: b for b in again["bots"]}["random"]
    assert after["lost_per_decision"] == pytest.approx(
        before["lost_per_decision"] + 5.0 / before["decisions"], abs=1e-4)


def test_labels_follow_todays_thresholds_not_the_cached_ones(
        run: Path, records: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch) -> None:
    review_run(run, FAST, workers=1)
    cache = ReviewCache(run / REVIEWS)
    reviews = [cache.get(review_key(r, FAST)) for r in records]
    assert all(r is not None for r in reviews)
    for review in reviews:  # as if labelled by thresholds nobody uses any more
        for d in review["decisions"]:
            d["label"] = None
        cache.put(review)
    monkeypatch.setitem(THRESHOLDS, "axio", (0.0, 0.05))
    again = review_run(run, FAST, workers=1)
    assert again["labels"] == {"mistake": 0.0, "blunder": 0.05}
    for row in again["bots"]:
        losses = [d["loss"] for r in reviews for d in r["decisions"]
                  if d["seat"] == r["players"].index(row["bot"])]
        assert row["mistakes_per_100"] == pytest.approx(
            100 * sum(0.05 >= x > 0.0 for x in losses) / len(losses), abs=0.01)
        assert row["blunders_per_100"] == pytest.approx(
            100 * sum(x > 0.05 for x in losses) / len(losses), abs=0.01)
    assert any(row["mistakes_per_100"] + row["blunders_per_100"] > 0 for row in again["bots"])


def test_a_folder_without_records_is_refused_clearly(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match=r"holds no records\.jsonl, so it is not an arena run"):
        review_run(tmp_path, FAST)
    with pytest.raises(RecordError, match="is not a folder"):
        review_run(tmp_path / "nowhere", FAST)
    (tmp_path / RECORDS).write_text("\n")
    with pytest.raises(RecordError, match=r"records\.jsonl holds no records"):
        review_run(tmp_path, FAST)


def test_a_corrupt_line_is_named(run: Path) -> None:
    lines = (run / RECORDS).read_text().splitlines()
    (run / RECORDS).write_text("\n".join([lines[0], "{half a record", *lines[2:]]) + "\n")
    with pytest.raises(RecordError, match=r"records\.jsonl:2: "):
        review_run(run, FAST)
    record = json.loads(lines[0])
    record["history"][3] = 10**9
    (run / RECORDS).write_text("\n".join([*lines[:2], json.dumps(record)]) + "\n")
    with pytest.raises(RecordError, match=r"records\.jsonl:3: .*not legal"):
        review_run(run, FAST)
    assert not (run / REVIEWS).exists()  # refused before any search


def test_bad_workers_are_refused(run: Path) -> None:
    with pytest.raises(ValueError, match="workers must be a whole number of at least 1"):
        review_run(run, FAST, workers=0)


def test_text_and_page_show_the_tables_and_escape_names(result: dict[str, Any]) -> None:
    text = format_run(result)
    lines = text.splitlines()
    assert "axio, 2 players, 3 games" in lines[0]
    for bot in result["bots"]:
        row = next(line for line in lines if line.startswith(bot["bot"] + " "))
        assert f"{bot['lost_per_decision']:.4f}" in row
        assert f"{bot['mistakes_per_100']:.1f}" in row
    assert f"{result['chance']['mean']:.3f}" in text
    hostile = {**result, "bots": [{**result["bots"][0], "bot": "<script>x</script>"}],
               "folder": "a&b"}
    page = run_html(hostile)
    assert page.startswith("<!DOCTYPE html>") and "<style>" in page
    assert "<script>" not in page and "&lt;script&gt;x&lt;/script&gt;" in page
    assert "a&amp;b" in page and "http" not in page  # self-contained: no outside asset
    assert page.count("<tr>") >= 1 + len(result["bots"]) + 1 + GAMES


def test_ray_gives_the_same_figures(run: Path, result: dict[str, Any]) -> None:
    ray = pytest.importorskip("ray")  # the cluster extra: installed by the README's commands
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False,
             logging_level=logging.WARNING)
    try:
        on_ray = review_run(run, FAST, ray_address="local")
    finally:
        ray.shutdown()
    timeless = ("folder", "seconds", "review_seconds")
    assert {k: v for k, v in on_ray.items() if k not in timeless} == \
        {k: v for k, v in result.items() if k not in timeless}


def test_a_cache_that_cannot_be_written_costs_only_the_cache(
        run: Path, result: dict[str, Any]) -> None:
    (run / REVIEWS).write_text("a file where the cache folder should be")
    reviewed = review_run(run, FAST, workers=1)
    assert "could not be cached" in reviewed["cache_error"]
    assert reviewed["bots"] == result["bots"] and reviewed["chance"] == result["chance"]
    assert "warning:" in format_run(reviewed)
    assert result["cache_error"] is None
