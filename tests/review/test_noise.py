"""The search's noise and the labels above it: the noise measurement itself, the thresholds it
set, and greedy-vs-greedy games in which no label may come from noise alone.

A position whose outcome is already certain is found exactly, without the search: every result
reachable from it (every choice of every seat; draws only where nothing is left to chance) is
the same.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tlatelolco import list_games, load, play_match
from tlatelolco.contract import State
from tlatelolco.review.analysis import Settings, analyse_decision, assemble, decision_steps
from tlatelolco.review.noise import main, measure_noise
from tlatelolco.review.runner import analyse_all
from tlatelolco.review.thresholds import BLUNDER, MISTAKE, THRESHOLDS, labels_for

LIMIT = 5000  # positions an exact enumeration may visit


class TooMany(Exception):
    """The enumeration would visit more than `LIMIT` positions, or meets a real draw."""


def reachable_results(state: State, limit: int = LIMIT) -> set[tuple[float, ...]]:
    """Every result reachable from `state` (each seat's returns), over every choice of every
    seat; a chance node may only have one outcome (nothing left to chance). Raises `TooMany`
    when that cannot be answered within `limit` positions."""
    found: set[tuple[float, ...]] = set()
    left = [limit]

    def walk(position: State) -> None:
        if position.is_terminal():
            found.add(tuple(position.returns()))
            return
        left[0] -= 1
        if left[0] < 0:
            raise TooMany(f"more than {limit} positions")
        if position.is_chance_node():
            outcomes = position.chance_outcomes()
            if len(outcomes) > 1:
                raise TooMany("a draw is still to come")
            moves = [outcomes[0][0]]
        else:
            moves = position.legal_actions()
        for move in moves:
            child = position.clone()
            child.apply_action(move)
            walk(child)

    walk(state)
    return found


def is_certain(state: State) -> bool:
    """Whether every way the game can go from `state` ends in the same result (known
    exactly; False when that cannot be shown within `LIMIT`)."""
    try:
        return len(reachable_results(state)) == 1
    except TooMany:
        return False


# --- the measurement ------------------------------------------------------------------------

def test_noise_is_measured_as_two_seeds_disagreeing_on_spread_positions() -> None:
    fast = Settings(iterations=20)
    result = measure_noise("grand_bazaar", positions=2, settings=fast, sample_seeds=(0, 1))
    assert result["positions"] == len(result["cases"]) == 4
    assert result["settings"]["iterations"] == 20 and result["seeds"] == [1, 2]
    for case in result["cases"]:
        assert case["legal"] >= 2  # each one a choice
        assert case["other_text"] != case["played_text"]
    assert len({case["step"] for case in result["cases"]}) >= 3  # spread over the games
    for key in ("best", "played", "other"):
        spread = result[key]
        assert 0 <= spread["median"] <= spread["p90"] <= spread["p99"] <= spread["max"] <= 1
    assert result["played"]["max"] == max(abs(a - b) for a, b in
                                          (case["loss"] for case in result["cases"]))
    assert result["best"]["max"] == max(max(case["crossed"]) for case in result["cases"])
    assert result["noise"] == max(result[key]["p99"] for key in ("best", "played"))
    for case in result["cases"]:  # agreeing seeds give their own best move no loss
        if case["best_text"][0] == case["best_text"][1]:
            assert case["crossed"] == [0.0, 0.0]
    # a sample seed's positions and figures are the same alone as merged: seeds, not luck
    alone = measure_noise("grand_bazaar", positions=2, settings=fast, sample_seeds=(1,))
    assert alone["cases"] == result["cases"][2:]


@pytest.mark.parametrize(("kwargs", "words"), [
    ({"positions": 0}, "positions must be at least 1"),
    ({"seeds": (3, 3)}, "two different"),
    ({"sample_seeds": ()}, "sample seeds must be one or more"),
])
def test_a_bad_measurement_is_refused_with_what_is_allowed(kwargs: dict, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        measure_noise("axio", **kwargs)


def test_the_command_prints_the_table_or_json(capsys: pytest.CaptureFixture[str]) -> None:
    main(["grand_bazaar", "--positions", "1", "--iterations", "10"])
    out = capsys.readouterr().out
    assert "| disagreement | median | p90 | p99 | max |" in out and "noise" in out
    main(["grand_bazaar", "--positions", "1", "--iterations", "10", "--json"])
    assert json.loads(capsys.readouterr().out)["positions"] == 1
    with pytest.raises(SystemExit):
        main(["chess"])
    assert "chess" in capsys.readouterr().err


def test_every_game_has_thresholds_above_the_usual_floors() -> None:
    assert set(THRESHOLDS) == set(list_games())
    for game in list_games():
        mistake, blunder = labels_for(game)
        assert MISTAKE <= mistake < blunder and BLUNDER <= blunder < 1


def test_the_documented_thresholds_are_the_code_s_and_stand_above_the_measured_noise() -> None:
    text = (Path(__file__).resolve().parents[2] / "docs" / "review.md").read_text("utf-8")
    rows = re.findall(r"^\| ([A-Z][a-z]+(?: [A-Z][a-z]+)?) \| ([0-9.]+) \| ([0-9.]+) \| "
                      r"([0-9.]+) \|$", text, re.MULTILINE)
    documented = {name.lower().replace(" ", "_"): (float(noise), float(mistake), float(blunder))
                  for name, noise, mistake, blunder in rows}
    assert set(documented) == set(list_games())
    for game, (noise, mistake, blunder) in documented.items():
        assert labels_for(game) == (mistake, blunder)
        assert noise < mistake


# --- greedy against greedy: no flag from noise alone ----------------------------------------

# game -> (seed of a greedy-vs-greedy game, decisions with a choice analysed at its end). The
# ending is where a game is decided: the seeds were chosen (by a scan of seeded games) so that
# it holds positions of certain outcome and a move the review flags, for (b) and (c) to bite.
GREEDY = {"axio": (2, 12), "grand_bazaar": (16, 24), "aztec_market": (2, 16), "mexica": (42, 24)}
SINGLES = 8  # decisions with one legal move analysed, spread over the game
ENDING = 8  # decisions with a choice at the end of the game checked for a certain outcome


def spread(items: list[int], count: int) -> list[int]:
    if len(items) <= count:
        return items
    return [items[int((k + 0.5) * len(items) / count)] for k in range(count)]


@pytest.mark.parametrize("game", sorted(GREEDY))
def test_greedy_against_greedy_no_certain_move_is_flagged_by_noise(game: str) -> None:
    """(a) a move that was the only legal one is never flagged; (b) nor is any move where the
    outcome was already certain (checked exactly); (c) a move flagged under seed 1 is not
    judged fine (below half the mistake threshold) under seed 2: that flag would be noise."""
    seed, count = GREEDY[game]
    rules = load(game, num_players=2)
    record = play_match(rules, ["greedy", "greedy"], seed=seed)
    history = record["history"]
    singles, choices = [], []
    for step in decision_steps(record):
        legal = rules.replay(history[:step]).legal_actions()
        (singles if len(legal) == 1 else choices).append(step)
    certain = [step for step in choices[-ENDING:] if is_certain(rules.replay(history[:step]))]
    assert certain, "this game's ending should have certain positions to check"
    chosen = sorted(set(spread(singles, SINGLES) + choices[-count:] + certain))
    settings = Settings(seed=1)
    decisions = analyse_all(record, chosen, settings, workers=2)
    review = assemble(record, decisions, settings)
    by_step = {d["step"]: d for d in review["decisions"]}
    mistake, _ = labels_for(game)
    for step in spread(singles, SINGLES):  # (a)
        assert by_step[step]["label"] is None and by_step[step]["loss"] == 0, by_step[step]
    for step in certain:  # (b)
        assert by_step[step]["label"] is None, by_step[step]
    flagged = [d for d in review["decisions"] if d["label"] is not None]
    assert flagged, "this game's ending should have a flagged move to check (c) on"
    for d in flagged:  # (c)
        state = rules.replay(history[:d["step"]])
        again = analyse_decision(state, d["played"], Settings(seed=2).for_game(game))
        assert again["loss"] >= mistake / 2, (d, again)
