"""`tlatelolco review`: the terminal's summary and flagged moves agree with the review, --seat
filters, the cache beside the record is written and read back, bad input fails in one line."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import pytest
from tests.clean_exit import one_line_error
from typer.testing import CliRunner

from tlatelolco import load, play_match
from tlatelolco.cli.app import app
from tlatelolco.records import make_record, save_record
from tlatelolco.review import ReviewCache, Settings, review_key, review_record
from tlatelolco.review.html import review_html
from tlatelolco.review.text import percent

runner = CliRunner()
FAST = ["--iterations", "20", "--workers", "1"]
WIDE = {"COLUMNS": "220"}  # no table cell is wrapped, so a row is one line


def invoke(*args: str) -> Any:
    return runner.invoke(app, ["review", *args], env=WIDE)


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    """Greedy against random: flagged moves on both sides at this budget."""
    return play_match(load("grand_bazaar", num_players=2), ["greedy", "random"], seed=1)


@pytest.fixture(scope="module")
def review(record: dict[str, Any]) -> dict[str, Any]:
    found = review_record(record, Settings(iterations=20), workers=1)
    flagged = {d["seat"] for d in found["decisions"] if d["label"]}
    assert flagged == {0, 1}, "the fixture must flag moves of both seats to test --seat"
    return found


@pytest.fixture
def saved(tmp_path: Path, record: dict[str, Any]) -> Path:
    path = tmp_path / "games" / "bazaar.json"
    path.parent.mkdir()
    save_record(record, path)
    return path


def without_time(review: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in review.items() if k != "seconds"}


def cells(line: str) -> list[str]:
    return re.split(r"\s{2,}", line.strip())


def summary_line(output: str, seat: int) -> list[str]:
    """The summary table's row of `seat` (its first cell is the seat, maybe marked)."""
    rows = [cells(line) for line in output.splitlines() if line.strip()]
    found = [row for row in rows if len(row) == 8 and row[0].lstrip("► ") == str(seat)]
    assert len(found) == 1, output
    return found[0]


def flagged_lines(output: str) -> list[list[str]]:
    rows = [cells(line) for line in output.splitlines()]
    return [row for row in rows if len(row) == 9 and row[3] in ("mistake", "blunder")]


def expected_flagged(review: dict[str, Any], seat: int | None = None) -> list[list[str]]:
    return [[str(d["step"]), str(d["seat"]), review["players"][d["seat"]], d["label"],
             d["played_text"], percent(d["after"][d["seat"]]), d["best_text"],
             percent(d["before"][d["seat"]]), percent(d["loss"])]
            for d in review["decisions"] if d["label"] and seat in (None, d["seat"])]


def test_the_tables_agree_with_the_review(saved: Path, review: dict[str, Any],
                                          tmp_path: Path) -> None:
    data = tmp_path / "review.json"
    result = invoke(str(saved), *FAST, "--no-cache", "--json", str(data))
    assert result.exit_code == 0, result.output
    assert without_time(json.loads(data.read_text())) == without_time(review)
    out = result.stdout
    assert "Grand Bazaar (grand_bazaar)" in out
    assert "seat 0 (greedy) won" in out and "20 iterations per decision, seed 0" in out
    for row in review["summary"]:
        count = row["decisions"]
        assert summary_line(out, row["seat"]) == [
            str(row["seat"]), review["players"][row["seat"]], str(count), str(row["mistakes"]),
            str(row["blunders"]), percent(row["lost"]), percent(row["luck"], signed=True),
            percent(row["lost"] / count)]
    assert "lost: the share of victory" in out and "luck: what the draws did" in out
    assert flagged_lines(out) == expected_flagged(review)
    assert "decisions" in result.stderr  # the progress bar is on stderr, not in the tables


def test_seat_limits_the_flagged_moves_and_marks_its_row(saved: Path,
                                                         review: dict[str, Any]) -> None:
    result = invoke(str(saved), *FAST, "--no-cache", "--seat", "1")
    assert result.exit_code == 0, result.output
    assert flagged_lines(result.stdout) == expected_flagged(review, 1)
    assert summary_line(result.stdout, 1)[0] == "► 1"
    assert summary_line(result.stdout, 0)[0] == "0"  # every seat is still summed up


def test_the_cache_is_written_beside_the_record_and_read_back(saved: Path,
                                                              record: dict[str, Any]) -> None:
    started = time.perf_counter()
    first = invoke(str(saved), *FAST)
    computing = time.perf_counter() - started
    assert first.exit_code == 0, first.output
    cache = ReviewCache(saved.parent / "reviews")
    path = cache.path(review_key(record, Settings(iterations=20)))
    assert f"Review cached in {path}" in first.stdout
    kept = json.loads(path.read_text())
    kept["summary"][0]["lost"] = 0.4321  # what a second run shows proves where it came from
    path.write_text(json.dumps(kept))
    renamed = {**record, "players": ["Ana", "Beto"]}  # the same game: the same review
    save_record(renamed, saved)
    started = time.perf_counter()
    second = invoke(str(saved), *FAST)
    reading = time.perf_counter() - started
    assert second.exit_code == 0, second.output
    assert f"Review read back from the cache: {path}" in second.stdout
    row = summary_line(second.stdout, 0)
    assert (row[1], row[5]) == ("Ana", "43.2%")
    assert "decisions" not in second.stderr  # nothing searched, no progress bar
    assert reading < computing
    other = invoke(str(saved), "--iterations", "21", "--workers", "1")  # other settings
    assert "Review cached in" in other.stdout
    assert len(list(cache.folder.glob("*.json"))) == 2


def test_no_cache_writes_nothing(saved: Path) -> None:
    result = invoke(str(saved), *FAST, "--no-cache")
    assert result.exit_code == 0, result.output
    assert not (saved.parent / "reviews").exists()
    assert "cache" not in result.stdout


def test_html_and_json_are_written(saved: Path, tmp_path: Path, review: dict[str, Any]) -> None:
    page, data = tmp_path / "review.html", tmp_path / "review.json"
    result = invoke(str(saved), *FAST, "--no-cache", "--seat", "0", "--html", str(page),
                    "--json", str(data))
    assert result.exit_code == 0, result.output
    written = json.loads(data.read_text())
    assert page.read_text() == review_html(written, 0)
    assert f"HTML page written to {page}" in result.stdout
    assert without_time(written) == without_time(review)


def unfinished(folder: Path) -> Path:
    game = load("axio", num_players=2)
    history = play_match(game, ["random", "random"], seed=3)["history"]
    path = folder / "unfinished.json"
    save_record(make_record(game.replay(history[:12]), ["random", "random"]), path)
    return path


def corrupt(folder: Path) -> Path:
    path = folder / "corrupt.json"
    path.write_text('{"game": "axio", "options": {', encoding="utf-8")
    return path


@pytest.mark.parametrize(("make", "options", "code", "words"), [
    (lambda d, s: d / "nowhere.json", [], 1, ["cannot read record", "nowhere.json"]),
    (lambda d, s: corrupt(d), [], 1, ["corrupt.json", "not valid JSON"]),
    (lambda d, s: unfinished(d), [], 1, ["unfinished", "only a finished game"]),
    (lambda d, s: d, [], 1, ["records.jsonl", "record file"]),
    (lambda d, s: s, ["--seat", "9"], 2, ["--seat 9", "seats 0 to 1"]),
    (lambda d, s: s, ["--seat", "-1"], 2, ["--seat -1", "seats 0 to 1"]),
    (lambda d, s: s, ["--time", "0"], 2, ["--time 0", "above 0"]),
    (lambda d, s: s, ["--time", "nan"], 2, ["--time nan", "above 0"]),
    (lambda d, s: s, ["--iterations", "0"], 2, ["--iterations 0", "from 1"]),
    (lambda d, s: s, ["--workers", "0"], 2, ["--workers 0", "at least 1"]),
    (lambda d, s: s, ["--ray", " "], 2, ["--ray", "local, auto"]),
    (lambda d, s: s, ["--html", "/nonexistent/x.html"], 2, ["--html", "does not exist"]),
    (lambda d, s: s, ["--json", "."], 2, ["--json", "is a directory"]),
])
def test_bad_input_fails_in_one_clear_line(tmp_path: Path, saved: Path, make: Any,
                                           options: list[str], code: int,
                                           words: list[str]) -> None:
    one_line_error(invoke(str(make(tmp_path, saved)), *options), code, *words)
    assert not (saved.parent / "reviews").exists()  # refused before any search


def test_an_arena_run_folder_is_reviewed_as_a_whole(tmp_path: Path) -> None:
    run = tmp_path / "run"
    played = runner.invoke(app, ["arena", "axio", "--bots", "greedy,random", "--games", "2",
                                 "--workers", "1", "--out", str(run)])
    assert played.exit_code == 0, played.output
    page = tmp_path / "run.html"
    result = invoke(str(run), "--iterations", "10", "--workers", "1", "--html", str(page))
    assert result.exit_code == 0, result.output
    assert "Review of an arena run: axio, 2 players, 2 games" in result.stdout
    assert f"Reviews cached in {run / 'reviews'}" in result.stdout
    assert len(list((run / "reviews").glob("*.json"))) == 2
    assert "<table>" in page.read_text()
    for options, words in ((["--seat", "0"], "--seat"), (["--no-cache"], "--no-cache")):
        refused = invoke(str(run), *options)
        assert refused.exit_code == 2 and words in refused.output


def test_a_cache_that_cannot_be_written_costs_only_the_cache(saved: Path,
                                                              review: dict[str, Any]) -> None:
    (saved.parent / "reviews").write_text("a file where the cache folder would go")
    result = invoke(str(saved), *FAST)
    assert result.exit_code == 0, result.output
    assert "warning: the review could not be cached" in result.stderr
    assert flagged_lines(result.stdout) == expected_flagged(review)


def test_serve_takes_the_review_settings_and_refuses_bad_ones() -> None:
    """`serve --reviews` sets the web app's review queue; a bad setting stops it before it
    starts, saying what is allowed."""
    from tlatelolco.cli.app import parse_reviews

    assert parse_reviews("workers=2, queue=4,per_client=1,iterations=50") == {
        "review_workers": 2, "review_queue": 4, "review_per_client": 1,
        "review_iterations": 50}
    assert parse_reviews("") == {}
    for bad, message in (("speed=3", "no setting 'speed'; settings: workers=0..16"),
                         ("queue=0", "queue must be a whole number from 1 to 1000"),
                         ("iterations=-5", "iterations must be a whole number from 1"),
                         ("workers=x" * 50, "workers must be a whole number")):
        result = CliRunner().invoke(app, ["serve", "--reviews", bad])
        assert result.exit_code != 0
        assert message in result.output
        assert "Traceback" not in result.output
