"""A worker on another machine: the server here, `tlatelolco worker` in a network namespace of
its own (the second machine of test_two_machines.py), reaching this machine's Redis over the
virtual cable and nothing else. A bot game and a review complete with their jobs run there,
and a `kill -9` of that worker mid-job costs the bot at most its deadline.

The Redis is started for the test, bound to this machine's address on the cable (CI's Redis
listens on 127.0.0.1 only, which the other machine cannot reach).
"""

from __future__ import annotations

import contextlib
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import redis
from tests.web.rq_workers import rq_workers, wait_live
from tests.web.services import Client, Server, unavailable, wait_for
from tests.web.test_two_machines import other_machine

from tlatelolco.web.worker_benchmark import throwaway_redis

__all__ = ["other_machine", "rq_workers"]


@pytest.fixture
def cable_redis(other_machine, tmp_path: Path) -> Iterator[tuple[str, tuple[str, ...]]]:
    """(a Redis URL on this machine's cable address, the command prefix that runs a program
    on the other machine)."""
    namespace, here, _ = other_machine
    binary = shutil.which("redis-server")
    if binary is None:
        unavailable("the two-machine worker test needs redis-server")
    try:
        with throwaway_redis(str(tmp_path), bind=here) as url:
            yield url, ("ip", "netns", "exec", namespace)
    except RuntimeError as err:
        pytest.fail(str(err))


def test_a_worker_on_another_machine_plays_bots_reviews_and_may_die(
        cable_redis, rq_workers, servers: Callable[..., Server], tmp_path: Path) -> None:
    url, there = cable_redis
    worker = rq_workers(url, there)
    server = servers(f"sqlite:///{tmp_path / 'g.db'}", url,
                     args=("--remote-workers", "--reviews", "iterations=12"))
    # the other machine reaches Redis over the cable, but not this machine's loopback
    unreachable = subprocess.run(
        [*there, sys.executable, "-c", "import socket; socket.create_connection(("
         f"'127.0.0.1', {server.port}), timeout=2)"], capture_output=True)
    assert unreachable.returncode != 0
    wait_live(url, 1)
    client = Client(server)
    try:
        # a bot game, every decision searched on the other machine
        game_id = client.create("axio", ["bot:greedy", "bot:random"], num_players=2)
        wait_for(lambda: client.view(game_id)["status"] == "finished", 90)
        assert len(worker.jobs()) > 10
        # its review, through the review queue
        assert client.http.post(f"/api/games/{game_id}/review").status_code == 202

        def reviewed() -> bool:
            state = client.http.get(f"/api/games/{game_id}/review").json()["state"]
            assert state != "failed"
            return state == "done"

        wait_for(reviewed, 120, every=0.5)
        assert "tlatelolco:review: " in worker.text()
        # kill -9 mid-search: the bot moves anyway, within its 9 s deadline plus a little
        slow = client.create("aztec_market", ["bot:mcts:time=8", "taken"], num_players=2)
        seen = len(worker.jobs())
        wait_for(lambda: len(worker.jobs()) > seen, 20)
        job_id = worker.jobs()[-1]
        before = client.view(slow)["version"]
        killed = time.monotonic()
        worker.kill()
        wait_for(lambda: client.view(slow)["version"] > before, 9 + 3)
        assert time.monotonic() - killed < 9 + 3
    finally:
        client.close()
    with contextlib.closing(redis.Redis.from_url(url)) as r:
        assert not r.exists(f"rq:job:{job_id}")  # given up and deleted: nobody runs it late
