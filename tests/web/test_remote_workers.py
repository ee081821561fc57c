"""Bot moves, hints and reviews on `tlatelolco worker` processes through RQ on Redis
(`serve --redis URL --remote-workers`): real servers, real workers, a real Redis.

Why: a site that outgrows one machine adds worker machines; the games must go on when a worker
dies mid-job (at most that job's deadline lost, nothing run late), and the fair order of bot
jobs must hold across workers, not only inside one machine's pool.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
import redis
from tests.web import slow_jobs
from tests.web.rq_workers import ROOT, Worker, live_workers, rq_redis, rq_workers, wait_live
from tests.web.services import Client, Server, wait_for

from tlatelolco.web.workers.fairness import IDLE, PERSON, Ticket
from tlatelolco.web.workers.remote import RemotePool

__all__ = ["rq_redis", "rq_workers"]
REMOTE = ("--remote-workers",)
SLOW_BOT = "bot:mcts:time=8"  # a person's game: its time is not cut; its deadline is 9 s


def finish_bot_game(client: Client, game: str = "grand_bazaar", timeout: float = 90) -> str:
    game_id = client.create(game, ["bot:greedy", "bot:random"], num_players=2)
    wait_for(lambda: client.view(game_id)["status"] == "finished", timeout)
    return game_id


def test_a_bot_game_completes_on_one_remote_worker(servers: Callable[..., Server], rq_redis,
                                                   rq_workers, tmp_path: Path) -> None:
    worker = rq_workers(rq_redis)
    server = servers(f"sqlite:///{tmp_path / 'g.db'}", rq_redis, args=REMOTE)
    client = Client(server)
    try:
        game_id = finish_bot_game(client)
        record = client.http.get(f"/api/games/{game_id}/record").json()
    finally:
        client.close()
    moves = len(record["history"])
    assert moves > 20
    assert len(worker.jobs()) >= moves // 3  # the bots' decisions were the worker's jobs
    assert "Job OK" in worker.text()


def test_a_review_completes_through_the_worker(servers: Callable[..., Server], rq_redis,
                                               rq_workers, tmp_path: Path) -> None:
    worker = rq_workers(rq_redis)
    server = servers(f"sqlite:///{tmp_path / 'g.db'}", rq_redis,
                     args=(*REMOTE, "--reviews", "iterations=12"))
    client = Client(server)
    try:
        game_id = finish_bot_game(client, "axio")
        asked = client.http.post(f"/api/games/{game_id}/review")
        assert asked.status_code == 202, asked.text

        def done() -> dict | None:
            found = client.http.get(f"/api/games/{game_id}/review").json()
            assert found["state"] != "failed", found
            return found if found["state"] == "done" else None

        review = wait_for(done, 120, every=0.5)
    finally:
        client.close()
    assert review["total"] > 0 and len(review["review"]["decisions"]) == review["total"]
    assert "tlatelolco:review: " in worker.text()  # batches went through the review queue


def test_a_worker_killed_mid_job_costs_at_most_that_jobs_deadline(
        servers: Callable[..., Server], rq_redis, rq_workers, tmp_path: Path) -> None:
    """The bot still moves (the fallback) within its 9 s deadline plus a little; the job is
    run by nobody afterwards, and a second worker takes the next one."""
    first = rq_workers(rq_redis)
    wait_live(rq_redis, 1)
    server = servers(f"sqlite:///{tmp_path / 'g.db'}", rq_redis, args=REMOTE)
    client = Client(server)
    try:
        game_id = client.create("aztec_market", [SLOW_BOT, "taken"], num_players=2)
        started = wait_for(first.jobs, 20)  # the bot's search is running on the worker
        job_id = started[0]
        before = client.view(game_id)["version"]
        t_kill = time.monotonic()
        first.kill()
        second = rq_workers(rq_redis)
        wait_for(lambda: client.view(game_id)["version"] > before, 9 + 3)
        waited = time.monotonic() - t_kill
        assert waited < 9 + 3, waited  # the job's deadline (from its start), plus a little
        wait_live(rq_redis, 1)  # the killed one has dropped out, the second one is up

        def next_job_on_second() -> list[str]:
            view = client.view(game_id, 1)
            if view["legal"]:  # the person's turn: play, so the bot moves again
                client.act(game_id, 1, view["legal"][0]["id"], view["version"])
            return second.jobs()

        wait_for(next_job_on_second, 30, every=0.2)  # the live worker takes the next one
        time.sleep(1.5)  # a late run of the killed job would have started by now
    finally:
        client.close()
    assert job_id not in second.jobs()  # nobody ran the killed job late
    with redis.Redis.from_url(rq_redis) as r:
        assert not r.exists(f"rq:job:{job_id}")  # given up and deleted by the server
        assert not any(job_id.encode() in r.lrange(f"rq:queue:tlatelolco:{name}", 0, -1)
                       for name in ("hint", "person", "idle", "review"))


def test_a_persons_bot_is_not_kept_behind_a_flood_of_idle_jobs_on_two_workers(
        rq_redis, rq_workers) -> None:
    """24 half-second IDLE jobs from one client wait in the server's fair order, not in
    Redis: a PERSON job asked for after them is the next one a worker takes."""
    workers = [rq_workers(rq_redis), rq_workers(rq_redis)]
    wait_live(rq_redis, 2)

    async def scenario() -> tuple[float, int, set[int]]:
        pool = RemotePool(rq_redis)
        try:
            flood = [asyncio.create_task(pool.run(slow_jobs.spin, {"seconds": 0.5}, 30,
                                                  Ticket(IDLE, "flood", f"g{i}")))
                     for i in range(24)]
            await asyncio.sleep(1.5)
            assert pool.queue.slots == 2  # both workers counted
            asked = time.monotonic()
            await pool.run(slow_jobs.pid, {}, 30, Ticket(PERSON, "person", "mine"))
            waited = time.monotonic() - asked
            still = pool.queue.waiting(IDLE)
            pids = set(await asyncio.gather(*flood))
            return waited, still, pids
        finally:
            pool.close()

    waited, still, pids = asyncio.run(scenario())
    assert waited < 2.5, waited  # first come first served would be about 5 s
    assert still >= 12  # the flood was still waiting when the person's job was done
    assert pids == {w.process.pid for w in workers}  # both workers took the flood's jobs


def test_a_persons_bot_on_the_server_moves_ahead_of_sixteen_bot_games(
        servers: Callable[..., Server], rq_redis, rq_workers, tmp_path: Path) -> None:
    """The same through a server: sixteen games of bots only (IDLE jobs of about a second)
    keep both workers busy, yet the bot of a game with a person answers within about one
    job's time, not after the queue of bot games (about 8 s first come first served)."""
    for _ in range(2):
        rq_workers(rq_redis)
    wait_live(rq_redis, 2)
    server = servers(f"sqlite:///{tmp_path / 'g.db'}", rq_redis, args=REMOTE)
    client = Client(server)
    try:
        flood = [client.create("aztec_market", ["bot:mcts:time=1"] * 2, num_players=2)
                 for _ in range(16)]
        mine = client.create("aztec_market", ["taken", "bot:mcts:iterations=20"],
                             num_players=2)
        wait_for(lambda: sum(client.view(g)["version"] > 1 for g in flood) >= 4, 30)
        slowest = 0.0
        for _ in range(3):  # three of the bot's turns, each after the person's
            view = wait_for(lambda: client.view(mine, 0) if client.view(mine, 0)["legal"]
                            else None, 30)
            while view["legal"]:  # the person's whole turn
                client.act(mine, 0, view["legal"][0]["id"], view["version"])
                view = client.view(mine, 0)
            asked, version = time.monotonic(), view["version"]
            wait_for(lambda v=version: client.view(mine)["version"] > v, 30)
            slowest = max(slowest, time.monotonic() - asked)
        busy = sum(client.view(g)["status"] == "running" for g in flood)
    finally:
        client.close()
    assert busy >= 8  # the bot games were still going
    assert slowest < 3.0, slowest


def test_with_no_live_worker_a_job_waits_until_its_deadline(rq_redis) -> None:
    async def scenario() -> tuple[object, float]:
        pool = RemotePool(rq_redis)
        try:
            asked = time.monotonic()
            found = await pool.run(slow_jobs.pid, {}, 2.0)
            return found, time.monotonic() - asked
        finally:
            pool.close()

    found, waited = asyncio.run(scenario())
    assert found is None
    assert 1.9 < waited < 5.0, waited


def test_a_jobs_error_is_raised_on_the_server(rq_redis, rq_workers) -> None:
    rq_workers(rq_redis)
    wait_live(rq_redis, 1)

    async def scenario() -> None:
        pool = RemotePool(rq_redis)
        try:
            with pytest.raises(RuntimeError, match="no such move here"):
                await pool.run(slow_jobs.fail, {"message": "no such move here"}, 20)
            assert await pool.run(slow_jobs.pid, {}, 20) is not None  # the worker lives on
        finally:
            pool.close()

    asyncio.run(scenario())


def test_a_worker_killed_mid_job_stops_being_counted(rq_redis, rq_workers) -> None:
    worker: Worker = rq_workers(rq_redis)
    wait_live(rq_redis, 1)

    async def scenario() -> float:
        pool = RemotePool(rq_redis)
        try:
            job = asyncio.create_task(pool.run(slow_jobs.spin, {"seconds": 60}, 20))
            await asyncio.to_thread(wait_for, worker.jobs, 20)
            killed = time.monotonic()
            worker.kill()
            assert await job is None
            return time.monotonic() - killed
        finally:
            pool.close()

    gave_up = asyncio.run(scenario())
    assert gave_up < 8, gave_up  # its ALIVE key expired: not the whole 20 s deadline
    assert live_workers(rq_redis) == 0


def test_serve_refuses_remote_workers_without_redis(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-c", "from tlatelolco.cli.app import main; main()",
                           "serve", "--remote-workers", "--db", f"sqlite:///{tmp_path / 'g'}"],
                          capture_output=True, text=True, timeout=60, cwd=ROOT,
                          env={"PATH": "/usr/bin:/bin", "COLUMNS": "200"})
    assert done.returncode != 0
    assert "--remote-workers" in done.stderr and "--redis" in done.stderr, done.stderr


def test_worker_fails_in_one_line_when_redis_cannot_be_reached() -> None:
    done = subprocess.run([sys.executable, "-c", "from tlatelolco.cli.app import main; main()",
                           "worker", "--redis", "redis://127.0.0.1:1/0"],
                          capture_output=True, text=True, timeout=60, cwd=ROOT,
                          env={"PATH": "/usr/bin:/bin", "COLUMNS": "200"})
    assert done.returncode != 0
    assert done.stderr.strip().startswith("error: cannot reach Redis at redis://127.0.0.1:1/0")
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr


@pytest.mark.parametrize("args", [["worker", "--redis", "redis://127.0.0.1:1/0"],
                                  ["serve", "--redis", "redis://127.0.0.1:1/0",
                                   "--remote-workers"]])
def test_without_rq_the_server_extra_is_named(monkeypatch, capsys, args: list[str]) -> None:
    from tests.test_extras import hide, run_cli

    hide(monkeypatch, "rq")
    err = run_cli(monkeypatch, capsys, *args)  # refused before anything is opened
    assert "pip install 'tlatelolco[server]'" in " ".join(err.split()), err


def test_worker_refuses_a_name_redis_could_not_keep_apart() -> None:
    done = subprocess.run([sys.executable, "-c", "from tlatelolco.cli.app import main; main()",
                           "worker", "--redis", "redis://127.0.0.1:1/0", "--name", "a:b c"],
                          capture_output=True, text=True, timeout=60, cwd=ROOT,
                          env={"PATH": "/usr/bin:/bin", "COLUMNS": "200"})
    assert done.returncode != 0
    assert "--name 'a:b c': use 1 to 64 letters, digits" in done.stderr, done.stderr
