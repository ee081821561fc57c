"""`tlatelolco report` through Typer's test runner."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tlatelolco.cli.app import app

runner = CliRunner()


def invoke(*args: str) -> Any:
    return runner.invoke(app, list(args))


def test_report_writes_the_page_and_says_where(tmp_path: Path) -> None:
    out = tmp_path / "sub" / "axio.html"
    result = invoke("report", "axio", "--games", "3", "--players", "2", "--bots", "random",
                    "--bots", "greedy", "--seed", "5", "--workers", "1", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert f"Report written to {out} (numbers in {out.with_suffix('.json')})" in result.output
    page = out.read_text(encoding="utf-8")
    command = (f"tlatelolco report axio --games 3 --players 2 --bots random,greedy --seed 5 "
               f"--workers 1 --out {out}")
    assert command in page
    numbers = json.loads(out.with_suffix(".json").read_text(encoding="utf-8"))
    assert numbers["meta"]["bots"] == ["random", "greedy"]
    assert numbers["meta"]["seed"] == 5


def test_report_takes_game_options(tmp_path: Path) -> None:
    out = tmp_path / "gb.html"
    result = invoke("report", "grand_bazaar", "--games", "2", "--bots", "random",
                    "--option", "num_players=2", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert json.loads(out.with_suffix(".json").read_text())["meta"]["num_players"] == 2


def test_bot_specs_keep_their_parameters(tmp_path: Path) -> None:
    out = tmp_path / "gb.html"
    result = invoke("report", "grand_bazaar", "--games", "2", "--players", "2", "--workers", "1",
                    "--bots", "random,greedy:caution=0.5,risk=0.2", "--out", str(out))
    assert result.exit_code == 0, result.output
    bots = json.loads(out.with_suffix(".json").read_text())["meta"]["bots"]
    assert bots == ["random", "greedy:caution=0.5,risk=0.2"]


@pytest.mark.parametrize(("args", "words"), [
    (["chess"], ["unknown game 'chess'"]),
    (["axio", "--games", "0"], ["--games 0", "at least 1"]),
    (["axio", "--bots", "random,wizard"], ["--bots", "unknown bot 'wizard'"]),
    (["axio", "--bots", "greedy:depth=3"], ["--bots", "no parameter 'depth'"]),
    (["axio", "--bots", "random,random"], ["twice"]),
    (["axio", "--workers", "0"], ["--workers 0"]),
    (["axio", "--players", "7"], ["num_players=7"]),
    (["axio", "--option", "colour"], ["--option 'colour' is not KEY=VALUE"]),
])
def test_errors_are_one_clean_line(args: list[str], words: list[str]) -> None:
    result = invoke("report", *args)
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit)
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.output
    for word in words:
        assert word in lines[0]


def test_a_report_that_cannot_be_written_fails_cleanly(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    result = invoke("report", "axio", "--games", "1", "--bots", "random", "--workers", "1",
                    "--out", str(blocker / "axio.html"))
    assert result.exit_code == 1, result.output
    assert "error: cannot write the report" in result.output
