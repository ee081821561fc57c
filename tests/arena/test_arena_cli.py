"""`tlatelolco arena` end to end through Typer's runner, and its errors: one red line each."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from tests.clean_exit import one_line_error
from typer.testing import CliRunner

from tlatelolco.arena.storage import load_run
from tlatelolco.cli.app import app
from tlatelolco.cli.arena import split_bots

runner = CliRunner()


def invoke(*args: str) -> Any:
    return runner.invoke(app, ["arena", *args])


def test_a_tournament_runs_prints_its_table_and_saves_its_run(tmp_path: Path) -> None:
    out = tmp_path / "run"
    result = invoke("grand_bazaar", "--bots", "greedy,random", "--games", "6", "--players", "2",
                    "--workers", "2", "--out", str(out), "--json", str(tmp_path / "s.json"))
    assert result.exit_code == 0, result.output
    for words in ("6 games of grand_bazaar, 2 players: greedy, random", "interval", "μ ± σ",
                  "ordinal", "Win share by seat", "seat 1", f"records: {out / 'records.jsonl'}",
                  f"summary: {out / 'summary.json'}"):
        assert words in result.output, words
    run = load_run(out)
    assert len(run.records) == 6
    assert [m.bots for m in run.matches[:2]] == [("greedy", "random"), ("random", "greedy")]
    summary = json.loads((out / "summary.json").read_text())
    assert summary == json.loads((tmp_path / "s.json").read_text())
    assert summary["run"]["seed"] == 0 and summary["run"]["bots"] == ["greedy", "random"]
    assert [b["games"] for b in summary["bots"]] == [6, 6]
    # the same seed plays the same games, in one process too
    again = invoke("grand_bazaar", "--bots", "greedy", "--bots", "random", "--games", "6",
                   "--workers", "1", "--out", str(tmp_path / "again"))
    assert again.exit_code == 0, again.output
    assert load_run(tmp_path / "again").records == run.records
    # and a directory holding a run is not overwritten
    one_line_error(invoke("grand_bazaar", "--bots", "greedy,random", "--games", "2",
                          "--out", str(out)), 2, "already holds a run")


def test_options_reach_the_game(tmp_path: Path) -> None:
    result = invoke("aztec_market", "--bots", "random", "--games", "1", "--workers", "1",
                    "-o", "setup=random", "-o", "removed=40", "--out", str(tmp_path / "r"))
    assert result.exit_code == 0, result.output
    [record] = load_run(tmp_path / "r").records
    assert record["options"]["setup"] == "random" and record["options"]["removed"] == 40
    assert record["options"]["num_players"] == 2  # one bot: the game's fewest players
    # the player count as an option, as `play` and `report` take it
    result = invoke("grand_bazaar", "--bots", "random", "--games", "1", "--workers", "1",
                    "-o", "num_players=3", "--players", "3", "--out", str(tmp_path / "n"))
    assert result.exit_code == 0, result.output
    assert load_run(tmp_path / "n").records[0]["options"]["num_players"] == 3


def test_a_sighted_bot_is_named_as_such_and_its_run_reloads(tmp_path: Path) -> None:
    result = invoke("axio", "--bots", "greedy,random", "--sighted", "greedy", "--games", "2",
                    "--workers", "1", "--out", str(tmp_path / "s"))
    assert result.exit_code == 0, result.output
    assert "sighted, handed the true state (not fair play): greedy" in result.output
    assert "greedy (sighted)" in result.output and "random (sighted)" not in result.output
    run = load_run(tmp_path / "s")
    assert [m.sighted for m in run.matches] == [("greedy",), ("greedy",)]
    assert run.summary is not None and run.summary["run"]["sighted"] == ["greedy"]
    # written as --bots are: a spec's own parameters may follow a comma and a space
    result = invoke("axio", "--bots", "mcts:iterations=2,c=0.5", "--bots", "random",
                    "--sighted", "mcts:iterations=2, c=0.5", "--games", "2", "--workers", "1",
                    "--out", str(tmp_path / "p"))
    assert result.exit_code == 0, result.output
    assert load_run(tmp_path / "p").matches[0].sighted == ("mcts:iterations=2,c=0.5",)


@pytest.mark.parametrize(("args", "words"), [
    (["grand_bazaar", "--bots", "greedy,alphazero"], ["unknown bot 'alphazero'", "allowed"]),
    (["grand_bazaar", "--bots", "greedy,random:depth=2"], ["no parameter 'depth'"]),
    (["grand_bazaar", "--bots", "greedy,random", "--players", "9"], ["2 to 7 players"]),
    (["grand_bazaar", "--bots", "greedy,random", "--players", "1"], ["2 to 7 players"]),
    (["chess", "--bots", "greedy,random"], ["unknown game 'chess'"]),
    (["grand_bazaar", "--bots", "greedy,random", "--games", "0"], ["at least 1 game"]),
    (["grand_bazaar", "--bots", "greedy,random", "--workers", "0"], ["at least 1 worker"]),
    (["grand_bazaar", "--bots", "time=1,greedy"], ["parameter without a bot"]),
    (["grand_bazaar", "--bots", ","], ["names no bot"]),
    (["grand_bazaar", "--bots", "greedy,greedy"], ["given twice"]),
    (["grand_bazaar", "--bots", "greedy", "-n", "2", "-o", "num_players=3"], ["disagree"]),
    (["grand_bazaar", "--bots", "greedy", "-o", "num_players=two"], ["whole number"]),
    (["grand_bazaar", "--bots", "greedy", "-o", "colour"], ["KEY=VALUE"]),
    (["aztec_market", "--bots", "greedy", "-o", "setup=upside_down"], ["setup", "allowed"]),
    (["aztec_market", "--bots", "greedy", "--sighted", "greedy"], ["hides nothing"]),
    (["axio", "--bots", "greedy,random", "--sighted", "mcts"], ["not one of the bots"]),
])
def test_bad_input_is_one_clear_line(args: list[str], words: list[str]) -> None:
    one_line_error(invoke(*args), 2, *words)


def test_an_out_path_that_is_a_file_is_refused_before_any_game(tmp_path: Path) -> None:
    (tmp_path / "taken").write_text("")
    one_line_error(invoke("axio", "--bots", "greedy", "--out", str(tmp_path / "taken")),
                   2, "cannot create the directory")
    one_line_error(invoke("axio", "--bots", "greedy", "--ray", " "), 2,
                   "--ray needs an address")


def test_specs_split_where_a_new_bot_starts() -> None:
    assert split_bots(["greedy,random"]) == ["greedy", "random"]
    assert split_bots(["mcts:time=1,c=0.7,greedy"]) == ["mcts:time=1,c=0.7", "greedy"]
    assert split_bots(["mcts:time=1,c=0.7", "ismcts:iterations=200, random"]) == [
        "mcts:time=1,c=0.7", "ismcts:iterations=200", "random"]
    assert split_bots(["greedy,", " random "]) == ["greedy", "random"]
    assert split_bots(["greedy,future_bot:x=1,y=2"]) == ["greedy", "future_bot:x=1,y=2"]
