"""Aztec Market in the terminal: the board drawn from observations, and `tlatelolco play`."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

import tlatelolco
from tlatelolco.cli.app import app
from tlatelolco.cli.boards import chance_label, render_board
from tlatelolco.contract import State
from tlatelolco.match import play_match
from tlatelolco.records import load_record

runner = CliRunner()
SIDE_LETTERS = "SWNE"
SEATED = {2: "SW", 3: "SWN", 4: "SWNE"}
COLOURS = ("black", "blue", "red", "green")


def invoke(*args: str, input: str | None = None) -> Any:
    return runner.invoke(app, list(args), input=input)


def draw(state: State, seat: int, width: int = 80) -> str:
    """The board as plain text, drawn from a JSON round trip of the observation (plain data)."""
    obs = json.loads(json.dumps(state.observation(seat)))
    console = Console(record=True, width=width, color_system=None, file=io.StringIO())
    console.print(render_board("aztec_market", obs, seat))
    return console.export_text()


def history(num_players: int, setup: str = "random", seed: int = 2) -> list[int]:
    game = tlatelolco.load("aztec_market", num_players=num_players, setup=setup)
    return list(play_match(game, ["random"] * num_players, seed=seed)["history"])


def replay(num_players: int, actions: list[int], setup: str = "random") -> State:
    return tlatelolco.load("aztec_market", num_players=num_players, setup=setup).replay(actions)


def first(num_players: int, actions: list[int], test: Any, setup: str = "random") -> State:
    """The first position along `actions` whose observation passes `test`."""
    game = tlatelolco.load("aztec_market", num_players=num_players, setup=setup)
    state = game.new_initial_state()
    for action in actions:
        if test(state.observation(0)):
            return state
        state.apply_action(action)
    assert test(state.observation(0)), "no such position in this game"
    return state


def check_common(out: str, num_players: int) -> None:
    """Fits in 80 columns, the grid is whole, and only the seated sides' buyers are drawn."""
    lines = out.splitlines()
    assert all(len(line) <= 80 for line in lines), out
    assert sum("┌" in line and "┐" in line for line in lines) == 1, out
    assert sum("└" in line and "┘" in line for line in lines) == 1, out
    grid_rows = [line for line in lines if line.count("│") >= 5]
    for row in "1234":
        assert any(re.search(rf"\b{row} │", line) for line in grid_rows), (row, out)
    for column in "ABCD":
        assert re.search(rf"\b{column}\b", out)
    for letter in SIDE_LETTERS:
        for k in range(1, 5):
            assert (f"{letter}{k}" in out) == (letter in SEATED[num_players]), (letter, out)


def king_row(out: str) -> list[int]:
    line = next(line for line in out.splitlines() if re.search(r"\bking\s+\d", line))
    return [int(n) for n in re.findall(r"\d+", line.split("king", 1)[1])[:4]]


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_start_of_a_built_game_shows_an_empty_market(num_players: int) -> None:
    state = tlatelolco.load("aztec_market", num_players=num_players).new_initial_state()
    out = draw(state, 0)
    check_common(out, num_players)
    assert "HOLE" not in out  # no hole until the market is built
    assert "KING" not in out
    assert "0 of 15 tiles placed" in out
    assert "South (seat 0, you) to move" in out
    assert "bag: 76 goods left" in out
    assert king_row(out) == [0, 0, 0, 0]


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_random_set_up_shows_every_tile_and_the_hole(num_players: int) -> None:
    actions = history(num_players)
    state = first(num_players, actions, lambda obs: obs["phase"] == "start coin")
    obs = state.observation(1)
    out = draw(state, 1)
    check_common(out, num_players)
    assert out.count("HOLE") == 1
    assert obs["hole"] is not None
    hole_line = next(line for line in out.splitlines() if "HOLE" in line)
    assert re.search(rf"\b{obs['hole'][1]} │", hole_line)  # on the hole's row
    for label in ("KING", "CROWD", "porter", "governor", "ambassador", "errand boy",
                  "BLACK 0", "BLUE 0", "RED 0", "GREEN 0"):
        assert label in out, label
    assert out.count("CROWD") == 4
    assert "(seat 0)" in out  # seat 0 places the first coin; the viewer is seat 1
    assert "West 1 you" in out


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_mid_game_and_terminal_positions(num_players: int) -> None:
    actions = history(num_players, seed=num_players)
    for moves in (len(actions) // 2, len(actions) * 3 // 4):
        state = replay(num_players, actions[:moves])
        for seat in range(num_players):
            out = draw(state, seat)
            check_common(out, num_players)
            obs = state.observation(seat)
            assert king_row(out) == [obs["king"][c] for c in COLOURS]
            total = sum(obs["king"].values())
            assert (f"{total} goods" if total != 1 else "1 good") in out
            assert "HOLE" in out
            assert f"bag: {obs['bag']} good" in out
            assert " you" in out
    end = replay(num_players, actions)
    assert end.is_terminal()
    out = draw(end, 0)
    check_common(out, num_players)
    assert "Game over" in out
    assert "won" in out or "shared" in out
    assert ("vs" in out) == (num_players == 4)  # the teams line
    if num_players == 4:
        assert "South+North vs West+East" in out


def test_buyers_show_coin_and_goods() -> None:
    actions = history(4, seed=4)
    state = replay(4, actions)
    obs = state.observation(0)
    out = draw(state, 0)
    for player in obs["players"]:
        for buyer in player["buyers"]:
            mark = "●" if buyer["coin"] else "○"
            assert f"{buyer['name']} {mark}" in out
            if buyer["goods"]:
                assert f"{buyer['goods']} {buyer['colour']}" in out


@pytest.mark.parametrize(("phase", "words"), [
    ("choose", ["choose PASS or PLAY"]),
    ("restock", ["bag:", "still to draw"]),
    ("pass moves", ["market move", "owed"]),
    ("pass coin", ["PASS: taking a coin"]),
    ("pass king", ["the king may buy"]),
    ("play", ["PLAY", "this turn:"]),
])
def test_turn_state_is_spelled_out(phase: str, words: list[str]) -> None:
    actions = history(2, seed=1)
    state = first(2, actions, lambda obs: obs["phase"] == phase)
    out = draw(state, 0)
    for word in words:
        assert word in out, (word, out)


def test_play_turn_notes() -> None:
    actions = history(3, seed=3)
    bought = first(3, actions, lambda o: o["phase"] == "play" and o["turn"]["bought"])
    assert "purchase made" in draw(bought, 0)
    fresh = first(3, actions, lambda o: o["phase"] == "play" and not o["turn"]["bought"])
    assert "no purchase yet" in draw(fresh, 0)


def test_a_narrow_or_wide_console_does_not_break_the_grid() -> None:
    state = replay(4, history(4)[:150])
    wide = draw(state, 0, width=120)
    assert max(len(line) for line in wide.splitlines()) <= 80
    narrow = draw(state, 0, width=60)  # cropped, not wrapped: the rows stay one line each
    assert all(len(line) <= 60 for line in narrow.splitlines())
    assert sum("┌" in line for line in narrow.splitlines()) == 1


@pytest.mark.parametrize(("num_players", "returns", "words"), [
    (3, [0.5, 0.5, 0.0], ["shared victory of South and West", "shared (0.5)", "lost"]),
    (4, [0.5] * 4, ["shared victory of South+North and West+East"]),
    (2, [0.0, 1.0], ["West wins", "won", "lost"]),
])
def test_results_read_from_the_returns(num_players: int, returns: list[float],
                                       words: list[str]) -> None:
    obs = replay(num_players, history(num_players)).observation(0)
    obs["returns"] = returns
    console = Console(record=True, width=80, color_system=None, file=io.StringIO())
    console.print(render_board("aztec_market", obs, None))
    out = console.export_text()
    for word in words:
        assert word in out, (word, out)
    assert " you" not in out  # nobody is "you" without a viewer


def test_chance_is_called_the_bag() -> None:
    assert chance_label("aztec_market") == "bag"


def test_bots_play_to_the_end_and_the_record_validates(tmp_path: Path) -> None:
    path = tmp_path / "am.json"
    result = invoke("play", "aztec_market", "--players", "2", "--seat", "0=random",
                    "--seat", "1=random", "--seed", "1", "--option", "setup=random",
                    "--record", str(path))
    assert result.exit_code == 0, result.output
    out = result.output
    assert "bag: hole at" in out
    assert "bag: draw " in out
    assert "seat 1 (random):" in out
    assert "Game over" in out
    assert "Final scores" in out
    record, state = load_record(path)
    assert state.is_terminal()
    assert record["players"] == ["random", "random"]
    assert record["meta"]["seed"] == 1


def test_human_seat_builds_the_market_and_finishes(tmp_path: Path) -> None:
    path = tmp_path / "human.json"
    answers = ["help", "fly to the moon", "pass", "999"] + ["1"] * 3000
    result = invoke("play", "aztec_market", "--players", "2", "--seat", "1=random",
                    "--seed", "4", "--record", str(path), input="\n".join(answers) + "\n")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Commands: help" in out
    assert "'fly to the moon' is not a move of Aztec Market" in out
    assert "'pass' is not legal now" in out
    assert "there is no move 999" in out
    assert "seat 0 (human): place black vendor at A1" in out  # move 1, after the errors
    assert "Your moves, seat 0:" in out
    assert "South (seat 0, you) to move" in out
    assert "Final scores" in out
    record, state = load_record(path)
    assert state.is_terminal()
    assert record["players"] == ["human", "random"]
    assert record["history"][0] == state.get_game().new_initial_state().legal_actions()[0]


def test_a_long_list_of_moves_is_cut_short_and_moves_lists_them_all(tmp_path: Path) -> None:
    answers = ["moves", "quit"]
    result = invoke("play", "aztec_market", "--players", "2", "--seat", "1=random", "--seed", "4",
                    "--record", str(tmp_path / "game.json"), input="\n".join(answers) + "\n")
    out = result.output
    assert result.exit_code == 0, out
    first_listing, _, after_moves = out.partition("seat 0> moves")
    assert "… and 120 more" in first_listing
    assert "place king at D4" not in first_listing  # the 160th move is not in the short list
    assert "place king at D4" in after_moves
