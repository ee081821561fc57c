"""Small real reports: the page is self-contained, has every section and shows the numbers."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tlatelolco.registry import list_games, load
from tlatelolco.report import build_report, default_bots
from tlatelolco.report.build import check_bots
from tlatelolco.report.html import interval, render_page
from tlatelolco.report.play import game_seeds, play_kinds
from tlatelolco.report.stats import compute_stats

BOTS = ("random", "greedy")
SECTIONS = ("win_rate", "scores", "length", "ties")


def without_images(page: str) -> str:
    return re.sub(r"data:image/png;base64,[A-Za-z0-9+/=]+", "data:", page)


def check_page(path: Path, title: str) -> tuple[str, dict]:
    page = path.read_text(encoding="utf-8")
    numbers = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
    assert page.count('<img src="data:image/png;base64,') == len(SECTIONS)
    text = without_images(page)
    assert "http" not in text  # no external asset, link or script
    assert "<script" not in text and "<link" not in text
    assert title in text
    for name in SECTIONS:
        assert f'<section id="{name}">' in text
    for stats in numbers["stats"]:
        assert f"<th>{stats['bot']}</th>" in text
        for seat in stats["win_rate"]:
            share = f"{seat['share']:.3f} ({seat['low']:.3f}–{seat['high']:.3f})"
            assert share in text
        tie = stats["tie_break"]
        assert f"{tie['share']:.3f} ({tie['low']:.3f}–{tie['high']:.3f})" in text
        assert f"<td>{stats['score_summary'][0]['median']:g}</td>" in text
    return text, numbers


def test_axio_two_players(tmp_path: Path) -> None:
    seen: list[tuple[str, int, int]] = []
    out = tmp_path / "axio.html"
    path = build_report("axio", 6, players=2, bots=BOTS, seed=4, workers=1, out=out,
                        progress=lambda spec, done, total: seen.append((spec, done, total)))
    assert path == out
    text, numbers = check_page(path, "Balance report: Axio, 2 players")
    assert numbers["meta"]["games"] == 6 and numbers["meta"]["bots"] == list(BOTS)
    assert [s["games"] for s in numbers["stats"]] == [6, 6]
    assert seen[-1] == ("greedy", 6, 6) and ("random", 6, 6) in seen
    assert "build_report(&#x27;axio&#x27;, games=6" in text  # how it was made, escaped
    assert "seat 0 vs seat 1" in text


def test_grand_bazaar_default_players_and_path(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    path = build_report("grand_bazaar", 3, bots=BOTS, workers=1)
    assert path == Path("reports/grand_bazaar-3p.html")
    _, numbers = check_page(path, "Balance report: Grand Bazaar, 3 players")
    assert numbers["stats"][0]["num_players"] == 3
    assert numbers["stats"][0]["tie_break"]["total"] == 0  # no tie-break in Grand Bazaar


def test_same_seed_same_games_and_kinds_share_seeds() -> None:
    first = play_kinds("axio", 2, {}, BOTS, 3, seed=9, workers=1)
    again = play_kinds("axio", 2, {}, BOTS, 3, seed=9, workers=1)
    assert [[r["history"] for r in kind] for kind in first] == [
        [r["history"] for r in kind] for kind in again]
    for spec, records in zip(BOTS, first, strict=True):
        assert [r["meta"]["seed"] for r in records] == game_seeds(9, 3)
        assert all(r["meta"]["bots"] == [spec, spec] for r in records)
    assert compute_stats(first[0]).as_dict() == compute_stats(again[0]).as_dict()


def test_every_kind_in_one_pool_gives_the_same_games() -> None:
    """All kinds go to one pool of workers; each kind's records and progress stay its own."""
    seen: list[tuple[str, int, int]] = []
    pooled = play_kinds("axio", 2, {}, BOTS, 5, seed=3, workers=2,
                        progress=lambda spec, done, total: seen.append((spec, done, total)))
    here = play_kinds("axio", 2, {}, BOTS, 5, seed=3, workers=1)
    assert [[r["history"] for r in kind] for kind in pooled] == [
        [r["history"] for r in kind] for kind in here]
    assert seen[0] == ("random", 0, 5)
    for spec in BOTS:
        counts = [done for kind, done, total in seen if kind == spec and total == 5]
        assert counts == sorted(counts) and counts[-1] == 5


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"game": "chess"}, "unknown game"),
    ({"games": 0}, "at least 1"),
    ({"bots": ("random", "nobody")}, "unknown bot 'nobody'"),
    ({"bots": ("random", "random")}, "twice"),
    ({"bots": ()}, "at least one bot"),
    ({"players": 9}, "num_players=9"),
])
def test_bad_arguments_fail_before_any_game(tmp_path: Path, kwargs: dict, message: str) -> None:
    given = {"game": "axio", "games": 2, "bots": BOTS, "out": tmp_path / "r.html", **kwargs}
    with pytest.raises(ValueError, match=message):
        build_report(**given)
    assert not (tmp_path / "r.html").exists()


def test_the_default_bots_include_a_search_bot_every_game_accepts() -> None:
    for name in list_games():
        game = load(name)
        bots = default_bots(game)
        assert bots[:2] == ("random", "greedy")
        check_bots(game, bots)
    # a hidden hand is searched fairly: ISMCTS where seats hide things, plain MCTS elsewhere
    assert default_bots(load("axio"))[2] == "ismcts:iterations=50"
    assert default_bots(load("grand_bazaar"))[2] == "mcts:iterations=50"


def test_a_report_without_bots_plays_the_default_kinds(tmp_path: Path) -> None:
    path = build_report("axio", 1, players=2, out=tmp_path / "r.html", workers=1)
    numbers = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
    assert numbers["meta"]["bots"] == ["random", "greedy", "ismcts:iterations=50"]
    assert [s["bot"] for s in numbers["stats"]] == numbers["meta"]["bots"]


def test_page_escapes_what_it_shows() -> None:
    [records] = play_kinds("axio", 2, {}, ["random"], 2, seed=1, workers=1)
    stats = [compute_stats(records, bot="<b>random</b>")]
    meta = {"title": "Axio", "game": "axio", "num_players": 2, "options": {"tiles": "<x>"},
            "sides": [[0], [1]], "games": 2, "bots": ["<b>random</b>"], "seed": 1,
            "command": "tlatelolco report axio --out '<a&b>.html'", "date": "today"}
    pngs = dict.fromkeys(SECTIONS, b"\x89PNG")
    page = render_page(meta, stats, pngs)
    assert "<b>" not in page and "<x>" not in page and "<a&b>" not in page
    assert "&lt;b&gt;random&lt;/b&gt;" in page and "&lt;a&amp;b&gt;" in page
    assert interval(stats[0].win_rate[0]) in page
