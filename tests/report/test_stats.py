"""The report's numbers, from hand-made records (and one real game for the length count)."""

from __future__ import annotations

from typing import Any

import pytest

import tlatelolco
from tlatelolco.bots.evaluate import wilson_interval
from tlatelolco.match import play_match
from tlatelolco.report.stats import (
    compute_stats,
    decided_by_tie_break,
    game_length,
    quantile,
    shared_victory,
    summarise,
)

ALONE = {n: [[seat] for seat in range(n)] for n in range(1, 8)}
PARTNERS = [[0, 2], [1, 3]]


def record(game: str, returns: list[float], scores: list[float], history: list[int] | None = None,
           **options: Any) -> dict[str, Any]:
    """A finished-looking record; its history is only replayed to measure the game's length."""
    n = len(returns)
    options.setdefault("num_players", n)
    full = dict(tlatelolco.load(game, **options).options)
    return {"game": game, "options": full, "players": ["random"] * n,
            "history": history or [], "result": {"returns": returns, "scores": scores}}


def test_win_rate_by_seat_counts_shared_wins_as_their_share() -> None:
    records = [record("grand_bazaar", r, [0.0, 0.0]) for r in
               ([1.0, 0.0], [0.0, 1.0], [0.5, 0.5], [1.0, 0.0])]
    stats = compute_stats(records)
    assert stats.games == 4
    assert stats.even_share == 0.5
    assert [w.share for w in stats.win_rate] == [0.625, 0.375]
    assert [w.total for w in stats.win_rate] == [2.5, 1.5]
    assert (stats.win_rate[0].low, stats.win_rate[0].high) == wilson_interval(0.625, 4)
    assert stats.bot == "random"


def test_team_games_give_each_partner_the_sides_return() -> None:
    records = [record("aztec_market", [1.0, 0.0, 1.0, 0.0], [90.0, 80.0, 90.0, 80.0]),
               record("aztec_market", [0.0, 1.0, 0.0, 1.0], [70.0, 80.0, 70.0, 80.0])]
    stats = compute_stats(records, bot="greedy")
    assert stats.sides == PARTNERS
    assert stats.even_share == 0.5
    assert [w.share for w in stats.win_rate] == [0.5, 0.5, 0.5, 0.5]
    assert stats.bot == "greedy"


def test_score_distributions_per_seat() -> None:
    scores = [[10.0, 4.0], [20.0, 5.0], [30.0, 6.0], [40.0, 7.0], [50.0, 8.0]]
    stats = compute_stats([record("grand_bazaar", [1.0, 0.0], s) for s in scores])
    assert stats.scores == [[10.0, 20.0, 30.0, 40.0, 50.0], [4.0, 5.0, 6.0, 7.0, 8.0]]
    first = stats.score_summary[0]
    assert (first.minimum, first.q1, first.median, first.q3, first.maximum) == (
        10.0, 20.0, 30.0, 40.0, 50.0)
    assert first.mean == 30.0
    assert stats.score_summary[1].median == 6.0


def test_summaries_interpolate_like_numpy() -> None:
    assert quantile([1.0, 2.0, 3.0, 4.0], 0.25) == 1.75
    assert quantile([5.0], 0.75) == 5.0
    one = summarise([3])
    assert (one.mean, one.minimum, one.median, one.maximum) == (3.0, 3.0, 3.0, 3.0)
    with pytest.raises(ValueError):
        summarise([])


def test_game_length_tells_decisions_from_chance_steps() -> None:
    counts = {"chance": 0, "decisions": 0}

    def count(state: Any, action: int, actor: int) -> None:
        counts["chance" if actor < 0 else "decisions"] += 1

    game = tlatelolco.load("grand_bazaar", num_players=2)
    played = play_match(game, ["random", "random"], seed=3, on_action=count)
    length = game_length(played)
    assert length.steps == len(played["history"]) == counts["chance"] + counts["decisions"]
    assert length.decisions == counts["decisions"]
    assert counts["chance"] > 0
    stats = compute_stats([played, played])
    assert stats.decisions == [length.decisions] * 2
    assert stats.steps == [length.steps] * 2
    assert stats.decisions_summary.median == length.decisions


def test_game_length_of_a_hand_made_history() -> None:
    state = tlatelolco.load("grand_bazaar", num_players=2).new_initial_state()
    assert state.is_chance_node()
    chance = state.chance_outcomes()[0][0]
    state.apply_action(chance)
    decision = state.legal_actions()[0]
    length = game_length(record("grand_bazaar", [1.0, 0.0], [1.0, 0.0], [chance, decision]))
    assert (length.decisions, length.steps) == (1, 2)


def test_grand_bazaar_has_no_tie_break_its_ties_are_shared() -> None:
    teams = ALONE[3]
    assert not decided_by_tie_break([30.0, 30.0, 20.0], [0.5, 0.5, 0.0], teams)
    assert shared_victory([0.5, 0.5, 0.0], teams)
    assert not decided_by_tie_break([31.0, 30.0, 20.0], [1.0, 0.0, 0.0], teams)
    assert not shared_victory([1.0, 0.0, 0.0], teams)


def test_aztec_market_totals_tied_and_coins_or_goods_decide() -> None:
    assert decided_by_tie_break([80.0, 80.0, 80.0, 80.0], [1.0, 0.0, 1.0, 0.0], PARTNERS)
    assert not shared_victory([1.0, 0.0, 1.0, 0.0], PARTNERS)  # partners are one side
    assert not decided_by_tie_break([80.0, 70.0, 80.0, 70.0], [1.0, 0.0, 1.0, 0.0], PARTNERS)
    assert decided_by_tie_break([50.0, 50.0, 40.0], [0.0, 1.0, 0.0], ALONE[3])
    assert not decided_by_tie_break([50.0, 50.0, 50.0], [1 / 3] * 3, ALONE[3])
    assert shared_victory([1 / 3] * 3, ALONE[3])


def test_axio_lowest_colour_tied_and_the_next_colours_decide() -> None:
    assert decided_by_tie_break([3.0, 3.0], [0.0, 1.0], ALONE[2])
    assert not decided_by_tie_break([3.0, 3.0], [0.5, 0.5], ALONE[2])  # all colours equal
    assert not decided_by_tie_break([4.0, 3.0], [1.0, 0.0], ALONE[2])
    assert not decided_by_tie_break([5.0], [1.0], ALONE[1])  # solo: nobody to tie with
    assert not shared_victory([1.0], ALONE[1])
    assert decided_by_tie_break([2.0, 6.0, 6.0, 6.0], [0.0, 0.0, 0.5, 0.5], ALONE[4])


def test_mexica_points_tied_and_tokens_decide() -> None:
    assert decided_by_tie_break([40.0, 40.0, 30.0], [0.0, 1.0, 0.0], ALONE[3])
    # three tied on points, tokens leave two sharing: both a tie-break and a shared victory
    three = ([40.0, 40.0, 40.0, 10.0], [0.5, 0.5, 0.0, 0.0])
    assert decided_by_tie_break(*three, ALONE[4])
    assert shared_victory(three[1], ALONE[4])


def test_shares_of_tie_breaks_and_shared_victories() -> None:
    records = [record("mexica", [0.0, 1.0], [40.0, 40.0]),  # tie-break
               record("mexica", [0.5, 0.5], [40.0, 40.0]),  # shared
               record("mexica", [1.0, 0.0], [41.0, 40.0]),
               record("mexica", [1.0, 0.0], [45.0, 40.0])]
    stats = compute_stats(records)
    assert (stats.tie_break.total, stats.tie_break.share) == (1, 0.25)
    assert (stats.shared.total, stats.shared.share) == (1, 0.25)
    assert (stats.tie_break.low, stats.tie_break.high) == wilson_interval(0.25, 4)
    assert stats.as_dict()["tie_break"]["share"] == 0.25


def test_refuses_mixed_unfinished_or_no_records() -> None:
    two = record("axio", [1.0, 0.0], [2.0, 1.0])
    three = record("axio", [1.0, 0.0, 0.0], [2.0, 1.0, 0.0])
    with pytest.raises(ValueError, match="different games or options"):
        compute_stats([two, three])
    with pytest.raises(ValueError, match="finished"):
        compute_stats([{**two, "result": None}])
    with pytest.raises(ValueError, match="no records"):
        compute_stats([])


def test_axio_tie_breaks_agree_with_the_real_games_colour_boards() -> None:
    """Real random games: a tie-break is exactly a tied lowest colour that the sorted colour
    boards (the AX-5 ranking) split."""
    game = tlatelolco.load("axio", num_players=2)
    seen = 0
    for seed in range(12):
        played = play_match(game, ["random", "random"], seed=seed)
        boards = game.replay(played["history"]).observation(0)["scores"]
        keys = [sorted(board.values()) for board in boards]
        expected = keys[0][0] == keys[1][0] and keys[0] != keys[1]
        result = played["result"]
        assert decided_by_tie_break(result["scores"], result["returns"], ALONE[2]) == expected
        seen += expected
    assert seen  # random Axio games often tie on the lowest colour


def test_a_share_of_nothing_or_everything_has_its_own_bound_exactly() -> None:
    # Regression: the lower bound of a zero share came out as ~3e-17, printed as "0.000" but
    # not equal to 0 in the JSON summaries.
    assert wilson_interval(0.0, 100)[0] == 0.0
    assert wilson_interval(1.0, 100)[1] == 1.0
    assert 0.0 < wilson_interval(0.0, 100)[1] < 0.05
