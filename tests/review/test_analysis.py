"""The review's analysis: what a decision's figures mean, luck, labels, determinism, no peeking."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tlatelolco import load, play_match
from tlatelolco.records import replay_record
from tlatelolco.review.analysis import (
    MAX_ITERATIONS,
    Settings,
    analyse_decision,
    analyse_steps,
    assemble,
    decision_steps,
    review_key,
)
from tlatelolco.review.thresholds import labels_for

GAMES = ("grand_bazaar", "aztec_market", "axio", "mexica")
FAST = Settings(iterations=24)


def record_of(game: str, seed: int = 1, bots: tuple[str, str] = ("greedy", "random")
              ) -> dict[str, Any]:
    return play_match(load(game, num_players=2), list(bots), seed=seed)


def some_decisions(record: dict[str, Any], count: int = 6) -> list[int]:
    steps = decision_steps(record)
    return steps[:: max(1, len(steps) // count)][:count]


@pytest.mark.parametrize("game", GAMES)
def test_decision_steps_are_exactly_the_seats_moves(game: str) -> None:
    record = record_of(game)
    state = load(game, num_players=2).new_initial_state()
    expected = []
    for step, action in enumerate(record["history"]):
        if state.current_player() >= 0:
            expected.append(step)
        state.apply_action(action)
    assert decision_steps(record) == expected


@pytest.mark.parametrize("game", GAMES)
def test_a_decision_compares_the_move_played_with_the_best_on_enough_play(game: str) -> None:
    record = record_of(game)
    for d in analyse_steps(record, some_decisions(record), FAST):
        assert d["played"] == record["history"][d["step"]]
        assert d["iterations"] >= 0 and d["legal"] >= 1
        assert all(0.0 <= share <= 1.0 for share in d["before"] + d["after"])
        assert sum(d["before"]) == pytest.approx(1.0, abs=0.01)  # a whole victory shared out
        assert d["loss"] == pytest.approx(max(0.0, d["before"][d["seat"]]
                                              - d["after"][d["seat"]]))
        if d["played"] == d["best"]:
            assert d["loss"] == 0.0 and d["before"] == d["after"]
        if d["legal"] == 1:
            assert d["best"] == d["played"]


def test_the_played_and_best_moves_get_their_visits_even_when_the_search_left_them() -> None:
    """The move played is valued on at least a quarter of the budget, however bad it looked."""
    record = record_of("axio", bots=("random", "random"))
    state = replay_record({**record, "history": record["history"][:0], "result": None})
    step = decision_steps(record)[3]
    for action in record["history"][:step]:
        state.apply_action(action)
    from tlatelolco.bots import make_bot

    bot = make_bot("ismcts:iterations=40,reuse=0", state.get_game(), state.current_player(), 1)
    played = state.legal_actions()[-1]
    _, root = bot.analyse(state, (played,), 10)
    assert root.children[played].visits >= 10
    assert root.children[bot.last_search.action].visits >= 10


@pytest.mark.parametrize("game", GAMES)
def test_luck_is_what_the_draws_did_between_decisions(game: str) -> None:
    record = record_of(game, seed=2)
    steps = decision_steps(record)
    review = assemble(record, analyse_steps(record, steps, Settings(iterations=8)),
                      Settings(iterations=8))
    decisions = review["decisions"]
    chance = set(range(len(record["history"]))) - set(steps)
    covered = {s for event in review["luck"] for s in range(event["from"], event["to"])}
    assert covered == chance
    by_step = {d["step"]: d for d in decisions}
    for event in review["luck"]:
        after = by_step[event["from"] - 1]["after"] if event["from"] - 1 in by_step else None
        before = by_step[event["to"]]["before"] if event["to"] in by_step else review["returns"]
        if after is None:  # the set-up, measured from an even split
            after = [1.0 / len(review["returns"])] * len(review["returns"])
        assert event["change"] == pytest.approx([b - a for a, b in zip(after, before,
                                                                       strict=True)], abs=1e-3)
    for row in review["summary"]:
        seat = row["seat"]
        assert row["luck"] == pytest.approx(sum(e["change"][seat] for e in review["luck"]),
                                            abs=1e-3)


def test_labels_follow_the_games_thresholds_and_the_summary_counts_them() -> None:
    record = record_of("axio", seed=3, bots=("random", "random"))
    review = assemble(record, analyse_steps(record, decision_steps(record), FAST), FAST)
    mistake, blunder = labels_for("axio")
    assert review["labels"] == {"mistake": mistake, "blunder": blunder}
    for d in review["decisions"]:
        expected = ("blunder" if d["loss"] > blunder else "mistake" if d["loss"] > mistake
                    else None)
        assert d["label"] == expected
    for row in review["summary"]:
        mine = [d for d in review["decisions"] if d["seat"] == row["seat"]]
        assert row["decisions"] == len(mine)
        assert row["mistakes"] == sum(d["label"] == "mistake" for d in mine)
        assert row["blunders"] == sum(d["label"] == "blunder" for d in mine)
        assert row["lost"] == pytest.approx(sum(d["loss"] for d in mine), abs=1e-3)


@pytest.mark.parametrize("game", GAMES)
def test_the_same_seed_and_budget_give_the_same_analysis(game: str) -> None:
    record = record_of(game, seed=4)
    steps = some_decisions(record, 4)
    assert analyse_steps(record, steps, FAST) == analyse_steps(record, steps, FAST)


def test_an_axio_analysis_uses_only_what_the_mover_could_see() -> None:
    """ISMCTS from the mover's information: the other seat's hand, dealt otherwise, changes
    nothing of the mover's analysis (AX-6: a hand tile is seen only by its owner)."""
    record = record_of("axio", seed=5)
    state = load("axio", num_players=2).new_initial_state()
    compared = 0
    for step, action in enumerate(record["history"]):
        if state.current_player() >= 0 and step % 3 == 0:
            mover = state.current_player()
            other = state.resample_from_infostate(mover, random.Random(step))
            assert analyse_decision(state, action, FAST) == analyse_decision(other, action,
                                                                              FAST)
            compared += 1
        state.apply_action(action)
    assert compared >= 4


def test_the_key_names_the_game_history_and_settings_not_the_names() -> None:
    record = record_of("grand_bazaar")
    key = review_key(record, FAST)
    assert key == review_key({**record, "players": ["ana", "bo"], "meta": {"x": 1}}, FAST)
    assert key != review_key(record, Settings(iterations=25))
    assert key != review_key(record, Settings(iterations=24, seed=1))
    assert key != review_key({**record, "history": record["history"][:-1]}, FAST)
    assert review_key(record, Settings()) == review_key(record, Settings().for_game(
        "grand_bazaar"))


@pytest.mark.parametrize(("options", "message"), [
    ({"iterations": 0}, "iterations must be a whole number from 1"),
    ({"iterations": MAX_ITERATIONS + 1}, "iterations must be a whole number from 1"),
    ({"iterations": 2.5}, "iterations must be a whole number"),
    ({"time": 0}, "time must be a number of seconds above 0"),
    ({"time": 1e9}, "at most"),
    ({"time": "1"}, "time must be a number"),
    ({"seed": "x"}, "seed must be a whole number"),
])
def test_bad_settings_say_what_is_allowed(options: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Settings(**options)
