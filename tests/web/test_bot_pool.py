"""The bot pool: a job's time counts from when a worker starts it, a late job is killed with
its worker, jobs wait their turn, workers die with the server, and no spec asks for unbounded
search."""

from __future__ import annotations

import asyncio
import math
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from tests.processes import alive
from tests.web import slow_jobs

from tlatelolco.chance import sample_chance
from tlatelolco.registry import load
from tlatelolco.web.workers.bots import (
    MAX_BOT_ITERATIONS,
    MAX_BOT_TIME,
    MAX_SPEC_LENGTH,
    BotPool,
    bot_and_view,
    clamp_spec,
    decide,
    time_budget,
)

ROOT = Path(__file__).resolve().parents[2]


def wait_gone(pid: int, within: float) -> bool:
    end = time.monotonic() + within
    while alive(pid):
        if time.monotonic() > end:
            return False
        time.sleep(0.05)
    return True


def job(spec: str = "random", game: str = "grand_bazaar") -> dict:
    """A bot job for the first seat to move in a fresh two-player game."""
    state = load(game, num_players=2).new_initial_state()
    rng = random.Random(1)
    while state.is_chance_node():
        state.apply_action(sample_chance(state, rng))
    return {"game_id": "g1", "game": game, "options": {"num_players": 2},
            "history": state.history(), "seat": state.current_player(), "spec": spec, "seed": 1}


def test_a_job_that_overruns_is_killed_with_its_worker_and_the_next_one_runs_at_once():
    async def main():
        pool = BotPool(1)
        try:
            first = await pool.run(slow_jobs.pid, {}, 30.0)
            started = time.monotonic()
            assert await pool.run(slow_jobs.spin, {"seconds": 30.0}, 0.5) is None
            assert time.monotonic() - started < 2.0
            assert wait_gone(first, 2.0), "the late job's worker still runs"
            second = await pool.run(slow_jobs.pid, {}, 5.0)  # a fresh worker, not a queue
            assert second != first
            assert await pool.decide(job(), 5.0) is not None
        finally:
            pool.close()

    asyncio.run(main())


def test_time_counts_from_when_a_worker_starts_the_job_not_from_the_queue():
    async def main():
        pool = BotPool(1)
        try:
            await pool.run(slow_jobs.pid, {}, 30.0)  # started up
            both = await asyncio.gather(pool.run(slow_jobs.sleep, {"seconds": 0.6}, 1.0),
                                        pool.run(slow_jobs.sleep, {"seconds": 0.6}, 1.0))
            assert None not in both and both[0] == both[1]  # one worker, one after the other
        finally:
            pool.close()

    asyncio.run(main())


def test_cancelling_frees_the_pool_whether_the_job_waits_or_runs():
    async def main():
        pool = BotPool(1)
        try:
            first = await pool.run(slow_jobs.pid, {}, 30.0)
            running = asyncio.create_task(pool.run(slow_jobs.spin, {"seconds": 30.0}, 60.0))
            queued = asyncio.create_task(pool.run(slow_jobs.spin, {"seconds": 30.0}, 60.0))
            await asyncio.sleep(0.2)
            queued.cancel()
            running.cancel()
            for task in (queued, running):
                with pytest.raises(asyncio.CancelledError):
                    await task
            assert wait_gone(first, 2.0), "the cancelled job's worker still runs"
            started = time.monotonic()
            second = await pool.run(slow_jobs.pid, {}, 5.0)
            assert second != first and time.monotonic() - started < 5.0
        finally:
            started = time.monotonic()
            pool.close()
            assert time.monotonic() - started < 2.0
        assert wait_gone(second, 2.0)

    asyncio.run(main())


def test_a_jobs_exception_reaches_the_caller_and_the_worker_lives_on():
    async def main():
        pool = BotPool(1)
        try:
            first = await pool.run(slow_jobs.pid, {}, 30.0)
            with pytest.raises(ValueError, match="no such move") as raised:
                await pool.run(slow_jobs.fail, {"message": "no such move"}, 5.0)
            assert any("in bot worker" in note for note in raised.value.__notes__)
            with pytest.raises(RuntimeError, match=r"Awkward.*the board is full"):
                await pool.run(slow_jobs.fail_awkwardly, {}, 5.0)
            assert await pool.run(slow_jobs.pid, {}, 5.0) == first
        finally:
            pool.close()

    asyncio.run(main())


def test_threads_time_out_as_well():
    async def main():
        pool = BotPool(0)
        try:
            assert await pool.run(slow_jobs.sleep, {"seconds": 0.5}, 0.1) is None
            assert await pool.decide(job(), 5.0) is not None
        finally:
            pool.close()

    asyncio.run(main())


@pytest.mark.parametrize(("spec", "clamped"), [
    ("mcts:time=1,iterations=500", "mcts:time=1,iterations=500"),
    ("ismcts", "ismcts"),
    ("greedy", "greedy"),
    ("mcts:time=1e9", f"mcts:time={MAX_BOT_TIME}"),
    ("mcts:iterations=1e11", f"mcts:iterations={MAX_BOT_ITERATIONS}"),
    ("mcts:time=20,iterations=500.0,c=0.5", f"mcts:time={MAX_BOT_TIME},iterations=500,c=0.5"),
])
def test_clamp_spec_bounds_the_search(spec, clamped):
    assert clamp_spec(spec) == clamped


@pytest.mark.parametrize(("spec", "message"), [
    ("mcts:time=inf", "above 0 and at most 10"),
    ("mcts:time=nan", "above 0 and at most 10"),
    ("mcts:time=-1", "above 0 and at most 10"),
    ("mcts:time=0", "above 0 and at most 10"),
    ("mcts:time=soon", "above 0 and at most 10"),
    ("mcts:iterations=0", f"whole number from 1 to {MAX_BOT_ITERATIONS}"),
    ("mcts:iterations=2.5", f"whole number from 1 to {MAX_BOT_ITERATIONS}"),
    ("mcts:iterations=-inf", f"whole number from 1 to {MAX_BOT_ITERATIONS}"),
    ("mcts:c=0.5," + "x" * 80, f"at most {MAX_SPEC_LENGTH} characters"),
])
def test_clamp_spec_refuses_what_is_not_a_budget(spec, message):
    with pytest.raises(ValueError, match=message):
        clamp_spec(spec)


def test_time_budget_is_at_most_the_maximum():
    assert time_budget("mcts:time=1e9", 5.0) == MAX_BOT_TIME
    assert time_budget("mcts:time=inf", 5.0) == MAX_BOT_TIME
    assert time_budget("mcts:time=2", 5.0) == 2.0
    assert time_budget("random", 5.0) == 5.0
    assert time_budget("random", 60.0) == MAX_BOT_TIME


@pytest.mark.parametrize("spec", ["mcts:time=inf", "mcts:time=1e9", "mcts:time=nan",
                                  "ismcts:time=1e300,iterations=1e300"])
def test_a_stored_spec_asking_for_unbounded_search_is_bounded_in_the_worker(spec):
    bot, _ = bot_and_view(job(spec, "axio"))
    seconds, iterations = bot.time, bot.iterations  # type: ignore[attr-defined]
    assert math.isfinite(seconds) and 0 < seconds <= MAX_BOT_TIME
    assert iterations is None or iterations <= MAX_BOT_ITERATIONS


def test_decide_with_a_clamped_spec_moves():
    chosen = decide(job("mcts:time=1e9,iterations=20"))
    assert isinstance(chosen, int)


CHILD = """
import asyncio
from tests.web import slow_jobs
from tlatelolco.web.workers.bots import BotPool

async def main():
    pool = BotPool(1)
    print(await pool.run(slow_jobs.pid, {}, 60.0), flush=True)
    searching = asyncio.create_task(pool.run(slow_jobs.spin, {"seconds": 60.0}, 120.0))
    await asyncio.sleep(0.3)
    print("searching", flush=True)
    await searching

asyncio.run(main())
"""


def test_workers_die_with_a_killed_server():
    child = subprocess.Popen([sys.executable, "-c", CHILD], cwd=ROOT, stdout=subprocess.PIPE,
                             text=True)
    worker = None
    try:
        assert child.stdout is not None
        worker = int(child.stdout.readline())
        assert child.stdout.readline() == "searching\n"
        assert alive(worker)
        child.send_signal(signal.SIGKILL)
        child.wait(5.0)
        assert wait_gone(worker, 3.0), "a worker outlived its server"
    finally:
        child.kill()
        child.wait(5.0)
        if worker is not None and alive(worker):
            os.kill(worker, signal.SIGKILL)
