"""The hint study: positions with a choice, pairs of hints compared fairly, and a table whose
shares are shares."""

from __future__ import annotations

import math

import pytest

from tlatelolco import list_games, load
from tlatelolco.bots.hint_study import Budget, add, main, row, sample_positions
from tlatelolco.web.workers.bots import HINT_NOISE, HINT_TIME, HINT_TIMES, hint, hint_time


def _hint(moves: list[tuple[int, int, float]], why: str = "searched") -> dict[str, object]:
    """A hint as `web.bots.hint` returns it, from (action, visits, value), most visited first."""
    return {"why": why, "iterations": sum(v for _, v, _ in moves), "seconds": 0.1,
            "moves": [{"action": a, "text": str(a), "visits": v, "value": x}
                      for a, v, x in moves]}


def test_positions_are_choices_of_the_seat_to_move_spread_over_seeded_games() -> None:
    positions = sample_positions("axio", 6, seed=3, players=2)
    assert len(positions) == 6
    assert positions == sample_positions("axio", 6, seed=3, players=2)
    game = load("axio", num_players=2)
    lengths = []
    for position in positions:
        state = game.replay(position.history)
        assert state.current_player() == position.seat
        assert len(state.legal_actions()) >= 2
        lengths.append(len(position.history))
    first_game, second_game = lengths[:4], lengths[4:]  # four positions a game
    assert first_game == sorted(first_game) and len(set(first_game)) == 4
    assert second_game == sorted(second_game) and len(set(second_game)) == 2


def test_two_hints_are_compared_move_by_move() -> None:
    result = Budget(1.0)
    # the same most-searched move, but sorted by value the page's first moves differ
    add(result, _hint([(1, 50, 0.60), (2, 30, 0.62), (3, 5, 0.20)]),
        _hint([(1, 60, 0.58), (2, 20, 0.55), (4, 3, 0.90)]))
    # different first moves, each searched by one run only
    add(result, _hint([(7, 40, 0.50), (8, 40, 0.40)]), _hint([(8, 45, 0.44), (9, 30, 0.47)]))
    # different first moves that each run values about alike
    add(result, _hint([(1, 40, 0.50), (2, 38, 0.49)]), _hint([(2, 40, 0.51), (1, 39, 0.50)]))
    add(result, _hint([(5, 0, 0.5)], why="settled"), _hint([(5, 0, 0.5)], why="settled"))
    assert result.skipped == 1
    assert result.agree == [True, False, False] and result.top_agree == [False] * 3
    assert sorted(result.diffs) == pytest.approx([0.0, 0.02, 0.02, 0.04, 0.07])
    assert result.gaps == pytest.approx([0.02, 0.32, 0.10, 0.03, 0.01, 0.01])
    assert result.spreads == pytest.approx([0.42, 0.35, 0.10, 0.03, 0.01, 0.01])
    assert result.losses == pytest.approx([0.35, math.inf, math.inf, math.inf, 0.01, 0.01])
    (budget, count, iterations, spent, agree, top, close, noise, noise90, gap,
     equal) = row(result)
    assert (budget, count, top) == (1.0, 3, 0.0) and agree == pytest.approx(1 / 3)
    assert noise == pytest.approx(0.02) and noise90 == pytest.approx(0.07)
    assert close == pytest.approx(1 / 3)  # the third pair's picks, within 0.07 of each other
    assert gap == pytest.approx(0.03)
    assert equal == 0.5  # spreads of 0.03, 0.01 and 0.01 lie within the noise p90 of 0.07
    assert iterations == 80 and spent == 0.1


def test_no_searched_position_gives_no_numbers_rather_than_made_up_ones() -> None:
    numbers = row(Budget(0.5))
    assert numbers[:2] == [0.5, 0]
    assert all(math.isnan(x) for x in numbers[2:])


@pytest.mark.parametrize("game", ["axio", "aztec_market"])
def test_the_study_prints_a_row_per_budget_with_shares_in_range(game, capsys) -> None:
    main(["--game", game, "--budgets", "0.5,1", "--positions", "3", "--seed", "2",
          "--iterations", "12"])
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[0].startswith(f"{game}, 2 players, ")
    header, rule, *rows = lines[1:]
    assert header.split(" | ")[1:4] == ["positions", "iterations", "seconds"]
    assert len(rows) == 2 and rule.count("---:") == 11
    for line, budget in zip(rows, ("0.5", "1"), strict=True):
        cells = line.strip("| ").split(" | ")
        assert cells[0] == budget and 1 <= int(cells[1]) <= 3
        assert 1 <= int(cells[2]) <= 12  # the iteration cap holds
        agree, top, close, noise, noise90, gap, equal = map(float, cells[4:])
        assert all(0.0 <= share <= 1.0 for share in (agree, top, close, equal))
        assert 0.0 <= noise <= noise90 <= 1.0 and 0.0 <= gap <= 1.0


def test_bad_budgets_are_refused(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["--game", "axio", "--budgets", "1,0"])
    assert "above 0" in capsys.readouterr().err


def test_every_game_has_a_measured_hint_budget_a_person_will_wait_for() -> None:
    assert set(HINT_TIMES) == set(HINT_NOISE) == set(list_games())
    assert all(0 < t <= 4.0 for t in HINT_TIMES.values())
    assert all(0 < noise < 0.5 for noise in HINT_NOISE.values())
    assert hint_time("mexica") == HINT_TIMES["mexica"] < HINT_TIME  # the study's choice
    assert hint_time("a game not measured") == HINT_TIME == max(HINT_TIMES.values())


def test_a_hint_says_below_what_difference_its_values_are_noise() -> None:
    position = sample_positions("axio", 1, seed=5, players=2)[0]
    found = hint({"game_id": "noise", "game": "axio", "options": {"num_players": 2},
                  "history": position.history, "seat": position.seat,
                  "spec": "ismcts:iterations=20", "seed": 1})
    assert found["noise"] == HINT_NOISE["axio"] and found["why"] == "searched"
