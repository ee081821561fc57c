"""`tlatelolco bench --env`: the PettingZoo environment measured next to the engine (the figures
themselves are not asserted: benchmarks, not timed tests, guard speed)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from tlatelolco import bench
from tlatelolco.cli.app import app
from tlatelolco.extras import MissingExtra
from tlatelolco.registry import list_games

ENV_KEYS = {"env_steps_per_s", "env_steps_per_game", "env_vs_engine"}


def test_every_game_gets_environment_figures_next_to_the_engine() -> None:
    rows = bench.run(seconds=0.05, env=True)
    assert [row["game"] for row in rows] == list_games()
    for row in rows:
        assert set(row) >= ENV_KEYS, row
        assert row["env_steps_per_s"] > 0
        assert row["env_vs_engine"] == round(row["env_steps_per_s"] / row["moves_per_s"], 2)
        assert row["env_steps_per_game"] >= 0


def test_environment_games_are_counted_when_they_finish() -> None:
    """Axio games are a few dozen agent actions, so a short run finishes some."""
    row = bench.env_rate("axio", 2, 0.2)
    assert 0 < row["env_steps_per_game"] < bench.load("axio", num_players=2).max_game_length()


def test_the_environment_is_measured_only_when_asked() -> None:
    (row,) = bench.run(["grand_bazaar"], seconds=0.05)
    assert not ENV_KEYS & set(row)


def test_the_cli_adds_the_columns_and_the_json_keys(tmp_path: Path) -> None:
    path = tmp_path / "bench.json"
    result = CliRunner().invoke(app, ["bench", "--env", "--game", "grand_bazaar", "--game", "axio",
                                      "--seconds", "0.05", "--json", str(path)],
                                env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    for column in ("moves/s", "env steps/s", "env/engine"):
        assert column in result.output
    rows = json.loads(path.read_text())
    assert [row["game"] for row in rows] == ["grand_bazaar", "axio"]
    assert all(set(row) >= ENV_KEYS for row in rows)


def test_env_is_refused_for_the_server_benchmark() -> None:
    result = CliRunner().invoke(app, ["bench", "server", "--env"])
    assert result.exit_code == 2
    assert "--env" in result.output and "bench engine" in result.output


def test_without_the_rl_extra_env_is_refused_before_measuring(monkeypatch: Any) -> None:
    monkeypatch.setitem(sys.modules, "pettingzoo", None)  # as if it were not installed
    measured: list[Any] = []
    monkeypatch.setattr(bench, "run", lambda *args, **kwargs: measured.append(args) or [])
    result = CliRunner().invoke(app, ["bench", "--env", "--game", "axio"])
    assert isinstance(result.exception, MissingExtra)
    assert "tlatelolco[rl]" in str(result.exception)
    assert not measured
