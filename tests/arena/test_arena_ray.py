"""The arena on a real local Ray instance (Ray is a required dependency: nothing here skips).
Ray is started once for the module (about 3 s) with two CPUs, and shut down at the end."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import ray

from tlatelolco.arena.runner import ArenaError, play_all
from tlatelolco.arena.schedule import Match, schedule
from tlatelolco.report.play import play_kinds


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False,
             logging_level=logging.WARNING)
    try:
        yield
    finally:
        ray.shutdown()


def test_ray_gives_the_same_records_as_one_process(local_ray: None) -> None:
    matches = schedule("axio", ["greedy", "random"], 12, 2, seed=5)
    seen: list[tuple[int, int]] = []
    records = play_all(matches, ray_address="local",
                       progress=lambda done, total: seen.append((done, total)))
    assert records == play_all(matches, workers=1)
    assert [r["meta"]["match"] for r in records] == list(range(12))
    assert seen[0] == (0, 12) and seen[-1] == (12, 12)
    assert ray.is_initialized()  # a Ray the runner did not start is left running


def test_a_report_plays_every_kind_on_ray_as_it_would_here(local_ray: None) -> None:
    seen: list[tuple[str, int, int]] = []
    kinds = ["random", "greedy"]
    on_ray = play_kinds("axio", 2, {}, kinds, 4, seed=2, ray_address="local",
                        progress=lambda kind, done, total: seen.append((kind, done, total)))
    assert on_ray == play_kinds("axio", 2, {}, kinds, 4, seed=2, workers=1)
    assert {kind for kind, done, total in seen if done == total == 4} == set(kinds)


def test_a_failing_match_on_ray_names_itself(local_ray: None) -> None:
    good = schedule("axio", ["random"], 3, 2, seed=1)
    bad = Match(3, "axio", good[0].options, 2, ("random", "no_such_bot"), seed=9)
    with pytest.raises(ArenaError, match=r"match 3 \(random vs no_such_bot, seed 9\)") as err:
        play_all([*good, bad], ray_address="local")
    message: Any = str(err.value)
    assert "Traceback" not in message


def test_an_arena_on_a_fresh_local_ray_says_nothing_of_its_authentication(tmp_path: Path
                                                                          ) -> None:
    """Regression: each `--ray local` run printed Ray's notice that the new instance uses
    token authentication (Ray's default). The run, on a machine that has never run Ray (a new
    home, no token yet), must start and finish without it."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAY_")}
    env["HOME"] = str(tmp_path)
    run = subprocess.run(
        [sys.executable, "-c", "from tlatelolco.cli.app import main; main()", "arena", "axio",
         "--bots", "greedy,random", "--games", "2", "--ray", "local", "--workers", "1",
         "--out", str(tmp_path / "run")],
        capture_output=True, text=True, env=env, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Token authentication" not in run.stdout + run.stderr
    assert (tmp_path / "run" / "records.jsonl").read_text().count("\n") == 2
