"""Playing a schedule: the same records in this process and in a pool of processes, the Ray path's
start and stop (with a stand-in for Ray; the real one is in test_arena_ray.py), failures that
name their match, workers that end with a killed arena, and runs saved, reloaded and checked."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from tests.processes import alive, children

from tlatelolco.arena import runner
from tlatelolco.arena.results import summarize
from tlatelolco.arena.runner import ArenaError, play_all, play_one
from tlatelolco.arena.schedule import Match, schedule
from tlatelolco.arena.storage import RECORDS, default_out, load_run, save_run
from tlatelolco.records import RecordError, replay_record


@pytest.fixture(scope="module")
def matches() -> list[Match]:
    return schedule("grand_bazaar", ["greedy", "random"], 10, 2, seed=11)


@pytest.fixture(scope="module")
def in_process(matches: list[Match]) -> list[dict[str, Any]]:
    return play_all(matches, workers=1)


def test_records_are_in_match_order_and_replay(matches: list[Match],
                                               in_process: list[dict[str, Any]]) -> None:
    assert [r["meta"]["match"] for r in in_process] == list(range(10))
    for match, record in zip(matches, in_process, strict=True):
        assert record["players"] == list(match.bots)
        assert record["meta"] == {"seed": match.seed, "match": match.index,
                                  "bots": list(match.bots)}
        assert replay_record(record).is_terminal()


def test_two_workers_give_the_same_records_as_one(matches: list[Match],
                                                  in_process: list[dict[str, Any]]) -> None:
    seen: list[tuple[int, int]] = []
    records = play_all(matches, workers=2, progress=lambda done, total: seen.append((done, total)))
    assert records == in_process
    assert seen[0] == (0, 10) and seen[-1] == (10, 10)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)


def test_a_match_that_fails_names_itself() -> None:
    bad = Match(7, "grand_bazaar", (), 2, ("greedy", "no_such_bot"), seed=1)
    with pytest.raises(ArenaError, match=r"match 7 \(greedy vs no_such_bot, seed 1\) failed"):
        play_one(bad)
    with pytest.raises(ArenaError, match="match 7"):
        play_all([bad], workers=2)


def test_bad_arguments_are_refused(matches: list[Match]) -> None:
    with pytest.raises(ValueError, match="workers must be"):
        play_all(matches, workers=0)
    with pytest.raises(ValueError, match="own index"):
        play_all([matches[0], matches[0]], workers=1)
    assert play_all([], workers=2) == []


class FakeRay:
    """Just enough of Ray's API to follow the runner's control flow without starting Ray."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, Any]] = []
        self.up = False

    def is_initialized(self) -> bool:
        return self.up

    def init(self, **kwargs: Any) -> None:
        self.calls.append(("init", kwargs))
        self.up = True

    def shutdown(self) -> None:
        self.calls.append(("shutdown", None))
        self.up = False

    def cluster_resources(self) -> dict[str, float]:
        return {"CPU": 2.0}

    def remote(self, **_options: Any) -> Any:
        return lambda fn: SimpleNamespace(remote=lambda batch: fn(batch))

    def wait(self, refs: list[Any], num_returns: int) -> tuple[list[Any], list[Any]]:
        return refs[-num_returns:], refs[:-num_returns]  # out of order, on purpose

    def get(self, ref: Any) -> Any:
        return ref

    def cancel(self, _ref: Any) -> None:
        pass


def test_the_ray_path_starts_and_stops_a_local_ray_only_when_it_started_it(
        monkeypatch: pytest.MonkeyPatch, matches: list[Match],
        in_process: list[dict[str, Any]]) -> None:
    fake = FakeRay()
    monkeypatch.setitem(__import__("sys").modules, "ray", fake)
    assert play_all(matches, workers=2, ray_address="local") == in_process
    assert fake.calls[0] == ("init", {"address": "local", "num_cpus": 2,
                                      "include_dashboard": False, "log_to_driver": False,
                                      "logging_level": 30})
    assert fake.calls[-1] == ("shutdown", None)
    fake.calls.clear()
    fake.up = True  # somebody else's Ray: used as it is, left running
    assert play_all(matches[:3], ray_address="ray://elsewhere:10001") == in_process[:3]
    assert fake.calls == [] and fake.up


def test_a_ray_that_cannot_start_is_an_arena_error(monkeypatch: pytest.MonkeyPatch,
                                                   matches: list[Match]) -> None:
    fake = FakeRay()

    def refuse(**_kwargs: Any) -> None:
        raise ConnectionError("nobody at that address")

    fake.init = refuse  # type: ignore[method-assign]
    monkeypatch.setitem(__import__("sys").modules, "ray", fake)
    with pytest.raises(ArenaError, match="cannot reach Ray at auto: ConnectionError"):
        play_all(matches, ray_address="auto")


def test_batches_stay_small_and_end_with_single_games(matches: list[Match]) -> None:
    assert runner.batch_size(10, 2) == 1
    assert runner.batch_size(10_000, 2) == runner.MAX_BATCH
    assert runner.batch_size(100, 1) == 8
    many = [Match(i, "axio", (), 2, ("random", "random"), i) for i in range(1000)]
    batches = runner._batches(many, 2)
    assert [m for b in batches for m in b] == many
    assert len(batches[0]) == runner.MAX_BATCH and all(len(b) == 1 for b in batches[-16:])


def test_a_run_is_saved_reloaded_and_its_summary_recomputed(
        tmp_path: Path, matches: list[Match], in_process: list[dict[str, Any]]) -> None:
    summary = summarize(matches, in_process, ["greedy", "random"]).as_dict()
    out = save_run(tmp_path / "run", in_process, summary)
    lines = (out / RECORDS).read_text().splitlines()
    assert len(lines) == 10 and json.loads(lines[3]) == in_process[3]
    run = load_run(out)
    assert run.matches == matches and run.records == in_process
    assert run.bots() == ["greedy", "random"]
    again = summarize(run.matches, run.records, run.bots()).as_dict()
    assert json.loads(json.dumps(again)) == run.summary


def test_a_tampered_run_is_refused_with_its_line(tmp_path: Path,
                                                 in_process: list[dict[str, Any]]) -> None:
    records = [dict(r) for r in in_process]
    records[2] = {**records[2], "result": {"returns": [0.0, 1.0], "scores": [0.0, 99.0]}}
    save_run(tmp_path, records, {})
    with pytest.raises(RecordError, match=r"records\.jsonl:3: record result"):
        load_run(tmp_path)
    with pytest.raises(RecordError, match="cannot read"):
        load_run(tmp_path / "missing")


def test_the_default_directory_names_game_players_and_utc_time() -> None:
    from datetime import UTC, datetime

    path = default_out("axio", 3, datetime(2025, 1, 2, 3, 4, 5, tzinfo=UTC))
    assert path == Path("arena-runs/axio-3p-20250102T030405Z")


def test_the_scaling_check_runs_both_ways_and_compares_records(
        capsys: pytest.CaptureFixture[str]) -> None:
    from tlatelolco.arena import scaling

    scaling.main(["--game", "axio", "--games", "4"])  # timing only: no bar is checked here
    out = capsys.readouterr().out
    assert "axio, 2 players, greedy vs random, 4 games" in out
    assert "1 worker" in out and "2 workers" in out and "records identical" in out


KILLED_ARENA = """
from tlatelolco.arena.runner import play_all
from tlatelolco.arena.schedule import schedule
play_all(schedule("mexica", ["mcts:time=5", "greedy"], 8, 2, seed=1), workers=2)
"""


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from /proc")
def test_workers_end_when_their_arena_is_killed() -> None:
    arena = subprocess.Popen([sys.executable, "-c", KILLED_ARENA])
    workers: list[int] = []
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and len(workers) < 2:
            time.sleep(0.2)
            workers = [pid for pid in children(arena.pid)
                       if b"spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes()]
        assert len(workers) == 2, "the arena did not start its two workers"
        time.sleep(3)  # the workers are playing 5-second decisions by now
        arena.send_signal(signal.SIGTERM)  # no chance to shut its pool down
        arena.wait(timeout=10)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and any(map(alive, workers)):
            time.sleep(0.2)
        assert not any(map(alive, workers)), "workers played on after their arena was killed"
    finally:
        if arena.poll() is None:
            arena.kill()
        for pid in filter(alive, workers):  # a failed check leaves nothing running
            os.kill(pid, signal.SIGKILL)
