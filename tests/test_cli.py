"""The `tlatelolco` command line, driven through Typer's test runner (fast: small games only)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from tests.clean_exit import one_line_error
from tests.grand_bazaar.positions import position, state_at
from typer.testing import CliRunner

import tlatelolco
from tlatelolco.cli.app import app
from tlatelolco.cli.boards import render_board
from tlatelolco.cli.common import rules_page
from tlatelolco.cli.human import HumanSeat
from tlatelolco.cli.replay import parse_key, step_through
from tlatelolco.match import play_match
from tlatelolco.records import load_record, save_record

runner = CliRunner()
BOTS_2P = ["--players", "2", "--seat", "0=random", "--seat", "1=random"]


def invoke(*args: str, input: str | None = None) -> Any:
    return runner.invoke(app, list(args), input=input)


@pytest.fixture
def finished_record(tmp_path: Path) -> Path:
    game = tlatelolco.load("grand_bazaar", num_players=2)
    path = tmp_path / "done.json"
    save_record(play_match(game, ["random", "random"], seed=7), path)
    return path


def test_list_shows_the_registered_games() -> None:
    result = invoke("list")
    assert result.exit_code == 0, result.output
    assert "grand_bazaar" in result.output
    assert "Grand Bazaar" in result.output
    assert "2–7" in result.output


def test_bots_play_to_the_end_and_the_record_validates(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    result = invoke("play", "grand_bazaar", *BOTS_2P, "--seed", "3", "--record", str(path))
    assert result.exit_code == 0, result.output
    assert "price card: reveal" in result.output
    assert "seat 1 (random):" in result.output
    assert "Final scores" in result.output
    assert "Winner" in result.output or "Shared victory" in result.output
    assert str(path) in result.output.replace("\n", "")
    record, state = load_record(path)
    assert state.is_terminal()
    assert record["players"] == ["random", "random"]
    assert record["meta"]["seed"] == 3


def test_default_record_path_is_under_records(tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.chdir(tmp_path)
    result = invoke("play", "grand_bazaar", *BOTS_2P, "--seed", "11")
    assert result.exit_code == 0, result.output
    saved = list((tmp_path / "records").glob("grand_bazaar-*-11.json"))
    assert len(saved) == 1
    load_record(saved[0])


def test_human_seat_recovers_from_bad_input_and_finishes(tmp_path: Path) -> None:
    path = tmp_path / "human.json"
    answers = ["buy gold", "sell ruby", "42", "help", "log", "b r"] + ["1"] * 3000
    result = invoke("play", "grand_bazaar", "--players", "2", "--seat", "1=random",
                    "--seed", "5", "--record", str(path), input="\n".join(answers) + "\n")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "'buy gold' is not a move of Grand Bazaar" in out
    assert "'sell ruby' is not legal now: selling is allowed from round 2 on" in out
    assert "there is no move 42" in out
    assert "Commands: help" in out
    assert "seat 0 (human): buy ruby" in out  # the alias was understood after the errors
    assert "Final scores" in out
    record, state = load_record(path)
    assert state.is_terminal()
    assert record["players"] == ["human", "random"]
    # Nothing was applied for the bad answers: the human's first move is the ruby.
    game = state.get_game()
    first = game.replay(record["history"][:1])
    assert first.action_to_string(record["history"][1]) == "buy ruby"


def test_quit_saves_an_unfinished_record_that_replays(tmp_path: Path) -> None:
    path = tmp_path / "stopped.json"
    result = invoke("play", "grand_bazaar", "--players", "3", "--seat", "1=random",
                    "--seat", "2=random", "--seed", "9", "--record", str(path),
                    input="1\nend\nquit\n")
    assert result.exit_code == 0, result.output
    assert "unfinished" in result.output
    record, state = load_record(path)
    assert record["result"] is None
    assert not state.is_terminal()
    assert state.current_player() == 0
    replayed = invoke("replay", str(path), "--all")
    assert replayed.exit_code == 0, replayed.output
    assert "Unfinished game" in replayed.output


def test_end_of_input_counts_as_quit(tmp_path: Path) -> None:
    path = tmp_path / "eof.json"
    result = invoke("play", "grand_bazaar", "--players", "2", "--seat", "1=random",
                    "--record", str(path), input="")
    assert result.exit_code == 0, result.output
    assert load_record(path)[0]["result"] is None


def test_replay_all_prints_every_move_and_the_result(finished_record: Path) -> None:
    result = invoke("replay", str(finished_record), "--all", "--seat", "1")
    assert result.exit_code == 0, result.output
    record, _ = load_record(finished_record)
    assert f"{len(record['history'])}. price card: reveal" in result.output
    assert "round 27/27" in result.output
    assert "Final scores" in result.output


@pytest.mark.parametrize(("tamper", "words"), [
    (lambda text: text[:-5], ["not valid JSON"]),
    (lambda text: json.dumps({**json.loads(text), "history": [0, 0]}), ["history[1]"]),
    (lambda text: json.dumps({**json.loads(text),
                              "result": {"returns": [1.0, 0.0], "scores": [999.0, 0.0]}}),
     ["does not match"]),
])
def test_replay_rejects_corrupt_records(finished_record: Path, tamper: Any,
                                        words: list[str]) -> None:
    finished_record.write_text(tamper(finished_record.read_text()))
    one_line_error(invoke("replay", str(finished_record)), 1, *words)


def test_replay_seat_out_of_range(finished_record: Path) -> None:
    one_line_error(invoke("replay", str(finished_record), "--seat", "5"), 2, "--seat 5")


def test_replay_stepping(finished_record: Path) -> None:
    record, state = load_record(finished_record)
    keys = iter(["", "n", "b", "b", "b", "j 5", "j 9999", "x", "q"])
    console = Console(record=True, width=100)
    step_through(console, lambda _prompt: next(keys), record, state.get_game(), 0)
    out = console.export_text()
    last = len(record["history"])
    for k in (0, 1, 2, 5):
        assert f"move {k}/{last}:" in out
    assert "this is the start of the game" in out
    assert f"jump to a move from 0 to {last}" in out
    assert "unknown key 'x'" in out


def test_parse_key() -> None:
    assert parse_key("", 3, 10) == 4
    assert parse_key("b", 3, 10) == 2
    assert parse_key("j 10", 3, 10) == 10
    assert parse_key("q", 3, 10) == "quit"
    assert isinstance(parse_key("n", 10, 10), str)


@pytest.mark.parametrize(("args", "words"), [
    (["play", "chess"], ["unknown game 'chess'", "grand_bazaar"]),
    (["play", "grand_bazaar", "--option", "num_players=9"], ["num_players=9", "2 to 7"]),
    (["play", "grand_bazaar", "--players", "1"], ["num_players=1", "2 to 7"]),
    (["play", "grand_bazaar", "-n", "2", "-o", "num_players=3"], ["disagree", "once"]),
    (["play", "grand_bazaar", "-o", "num_players=many"], ["num_players=many", "whole number"]),
    (["play", "grand_bazaar", "--option", "colour=red"], ["unknown option 'colour'"]),
    (["play", "grand_bazaar", "--option", "num_players"], ["KEY=VALUE"]),
    (["play", "grand_bazaar", "--seat", "1=wizard"], ["unknown player 'wizard'", "human"]),
    (["play", "grand_bazaar", "--seat", "3=random"], ["seat 3 is out of range", "0 to 2"]),
    (["play", "grand_bazaar", "--seat", "x=random"], ["seat must be a number"]),
    (["play", "grand_bazaar", "--seat", "1=random:depth=3"], ["no parameter 'depth'"]),
    (["rules", "chess"], ["unknown game 'chess'"]),
])
def test_usage_errors_exit_2_with_one_line(args: list[str], words: list[str]) -> None:
    one_line_error(invoke(*args), 2, *words)


def test_rules_page() -> None:
    assert rules_page("grand_bazaar") is not None
    result = invoke("rules", "grand_bazaar")
    assert result.exit_code == 0, result.output
    assert "Grand Bazaar" in result.output
    assert "GB-4" in result.output


def test_bench_prints_a_table_and_writes_json(tmp_path: Path) -> None:
    path = tmp_path / "bench.json"
    result = invoke("bench", "--game", "grand_bazaar", "--seconds", "0.05", "--json", str(path))
    assert result.exit_code == 0, result.output
    assert "moves/s" in result.output
    rows = json.loads(path.read_text())
    assert rows[0]["game"] == "grand_bazaar"
    assert rows[0]["moves_per_s"] > 0
    assert rows[0]["search"] == "mcts"
    assert rows[0]["search_iterations_per_s"] > 0


def test_a_search_bot_takes_a_seat_and_hints_are_offered(tmp_path: Path,
                                                          monkeypatch: Any) -> None:
    """`--seat 1=mcts:…` plays a whole game against a person; `hint` shows the search's
    favourite moves with their expected share of victory."""
    monkeypatch.setattr("tlatelolco.cli.human.HINT_SECONDS", 0.1)
    path = tmp_path / "mcts.json"
    result = invoke("play", "axio", "--players", "2", "--seat", "1=ismcts:iterations=5,depth=1",
                    "--seed", "3", "--record", str(path), input="hint\n" + "1\n" * 200)
    assert result.exit_code == 0, result.output
    assert "Hint (ismcts," in result.output
    assert "%" in result.output.split("Hint (ismcts,")[1].splitlines()[1]
    record, state = load_record(path)
    assert state.is_terminal()
    assert record["players"] == ["human", "ismcts:iterations=5,depth=1"]


def test_a_hint_says_when_the_bot_settles_a_move_without_searching() -> None:
    # Seat 0 leads by 10 grands and trades after its rival: covering its gems keeps the lead.
    state = state_at(position(round=6, turn=1, hands=[[1, 0, 0], [0, 0, 2]], money=[40, 20],
                              supply=[9, 10, 8]))
    console = Console(record=True, width=100)
    HumanSeat(state.get_game(), 0, seed=1, console=console).show_hint(state)
    shown = console.export_text()
    assert "0 iterations" in shown and "settles without searching" in shown
    assert "sell sapphire  (0 visits)" in shown


def test_a_bad_search_parameter_is_a_usage_error() -> None:
    one_line_error(invoke("play", "grand_bazaar", "--seat", "1=mcts:time=-1"), 2,
                   "--seat 1=mcts:time=-1", "time must be a positive")


def test_bench_rejects_an_unknown_game() -> None:
    one_line_error(invoke("bench", "--game", "chess"), 2, "unknown game 'chess'")


@pytest.mark.parametrize("moves", [0, 1, 60, None])
def test_board_renders_from_observations(moves: int | None) -> None:
    game = tlatelolco.load("grand_bazaar", num_players=4)
    history = play_match(game, ["random"] * 4, seed=2)["history"]
    state = game.replay(history if moves is None else history[:moves])
    console = Console(record=True, width=100)
    for seat in range(4):
        console.print(render_board("grand_bazaar", state.observation(seat), seat))
    out = console.export_text()
    assert f"round {state.observation(0)['round']}/27" in out
    assert "sapphire" in out
    assert "(you)" in out
    if moves is None:
        assert "Game over" in out
        assert "winner" in out or "shared win" in out


def test_unknown_game_board_falls_back_to_json() -> None:
    console = Console(record=True, width=80)
    console.print(render_board("no_such_game", {"turn": 3, "cells": [1, 2]}))
    assert '"turn": 3' in console.export_text()
