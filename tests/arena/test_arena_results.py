"""Arena results from hand-made records: shared wins, partnerships, several seats of one bot,
intervals, and ratings that follow who wins."""

from __future__ import annotations

from typing import Any

import pytest

from tlatelolco.arena.results import summarize
from tlatelolco.arena.schedule import Match
from tlatelolco.bots.evaluate import wilson_interval

AZTEC = (("luck", True), ("removed", 4), ("setup", "build"))


def game(index: int, bots: tuple[str, ...], returns: list[float], scores: list[float] | None = None,
         name: str = "grand_bazaar", options: tuple = (), length: int = 10
         ) -> tuple[Match, dict[str, Any]]:
    match = Match(index, name, options, len(bots), bots, seed=index)
    record = {"game": name, "options": {"num_players": len(bots), **dict(options)},
              "players": list(bots), "history": list(range(length)),
              "result": {"returns": returns, "scores": scores or [float(10 * r) for r in returns]},
              "meta": {"seed": index, "match": index, "bots": list(bots)}}
    return match, record


def run(*games: tuple[Match, dict[str, Any]], bots: list[str] | None = None) -> Any:
    return summarize([m for m, _ in games], [r for _, r in games], bots)


def test_a_shared_win_counts_as_its_share() -> None:
    summary = run(game(0, ("A", "B"), [0.5, 0.5]), game(1, ("B", "A"), [0.0, 1.0]))
    a, b = summary.bot("A"), summary.bot("B")
    assert a.games == b.games == 2
    assert a.win_share == pytest.approx(0.75)
    assert b.win_share == pytest.approx(0.25)
    assert a.even_share == b.even_share == 0.5
    assert [(s.seat, s.games, s.win_share) for s in a.by_seat] == [(0, 1, 0.5), (1, 1, 1.0)]
    assert a.ci95 == pytest.approx(wilson_interval(0.75, 2))
    assert 0.0 <= a.ci95[0] < 0.75 < a.ci95[1] <= 1.0


def test_a_partnership_counts_once() -> None:
    summary = run(game(0, ("A", "B", "A", "B"), [1.0, 0.0, 1.0, 0.0], [90, 20, 90, 20],
                       name="aztec_market", options=AZTEC),
                  game(1, ("B", "A", "B", "A"), [1.0, 0.0, 1.0, 0.0], [80, 70, 80, 70],
                       name="aztec_market", options=AZTEC))
    a = summary.bot("A")
    assert a.games == 2
    assert a.win_share == pytest.approx(0.5)
    assert a.even_share == 0.5  # two sides, not four seats
    assert a.mean_score == pytest.approx(80.0)
    assert [(s.seat, s.games) for s in a.by_seat] == [(0, 1), (1, 1), (2, 1), (3, 1)]


def test_a_bot_in_several_seats_scores_the_mean_of_its_seats() -> None:
    summary = run(game(0, ("A", "B", "A"), [1.0, 0.0, 0.0]),
                  game(1, ("A", "B", "A"), [0.0, 1.0, 0.0]))
    a, b = summary.bot("A"), summary.bot("B")
    assert a.win_share == pytest.approx(0.25)  # 0.5 (one of its two seats won), then 0
    assert b.win_share == pytest.approx(0.5)
    assert a.even_share == b.even_share == pytest.approx(1 / 3)
    assert a.rated_games == b.rated_games == 2


def test_a_bot_that_always_wins_rates_above_and_self_play_is_not_rated() -> None:
    games = [game(i, ("A", "B", "C") if i % 2 else ("C", "B", "A"),
                  [1.0, 0.0, 0.0] if i % 2 else [0.0, 0.0, 1.0], length=20 + i)
             for i in range(12)]
    games.append(game(12, ("A", "A", "A"), [1.0, 0.0, 0.0]))
    summary = run(*games, bots=["B", "A", "C", "D"])
    a, b, c, d = (summary.bot(x) for x in "ABCD")
    assert a.win_share == pytest.approx((12 + 1 / 3) / 13)  # self-play: a third of 1
    assert a.mu > b.mu and a.mu > c.mu and a.ordinal > max(b.ordinal, c.ordinal)
    assert a.ordinal == pytest.approx(a.mu - 3 * a.sigma)
    assert a.rated_games == 12 and a.games == 13
    assert b.mu == pytest.approx(c.mu)  # B and C always share the last place
    assert d.games == 0 and d.win_share is None and d.ci95 is None and d.rated_games == 0
    assert d.mu == 25.0
    assert [r.bot for r in summary.bots] == ["B", "A", "C", "D"]
    assert summary.ranked()[0].bot == "A"
    assert summary.games == 13
    assert summary.as_dict()["bots"][1]["bot"] == "A"


def test_the_same_records_give_the_same_summary_whatever_their_order() -> None:
    games = [game(i, ("A", "B") if i % 2 else ("B", "A"), [1.0, 0.0] if i % 3 else [0.0, 1.0])
             for i in range(9)]
    forward = run(*games, bots=["A", "B"])
    backward = run(*reversed(games), bots=["A", "B"])
    assert forward == backward


def test_records_that_do_not_match_their_matches_are_refused() -> None:
    match, record = game(0, ("A", "B"), [1.0, 0.0])
    with pytest.raises(ValueError, match="players"):
        summarize([match], [{**record, "players": ["B", "A"]}])
    with pytest.raises(ValueError, match="1 matches but 0 records"):
        summarize([match], [])
    with pytest.raises(ValueError, match="unfinished"):
        summarize([match], [{**record, "result": None}])
    with pytest.raises(ValueError, match="not one of the bots"):
        summarize([match], [record], bots=["A"])
    other = game(1, ("A", "B", "A"), [1.0, 0.0, 0.0])
    with pytest.raises(ValueError, match="one game with one player count"):
        summarize([match, other[0]], [record, other[1]])
