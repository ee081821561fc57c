"""`tlatelolco worker` processes and a Redis database of their own, for the remote worker tests.

Tests run two at a time (pytest -n 2) against one Redis, and RQ's queues and worker registry
have fixed names: so each test takes one of Redis's numbered databases (1 to 15) for itself,
claimed with a key in database 0 and emptied before and after.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import pytest

from tlatelolco.web.workers.remote import ALIVE

ROOT = Path(__file__).resolve().parents[2]  # the worker imports tests.web.slow_jobs from here
CLAIM = "tlatelolco-test:redis-db:"


@contextlib.contextmanager
def private_database(url: str) -> Iterator[str]:
    """`url` (a Redis URL) on a numbered database nobody else uses meanwhile, emptied."""
    import redis

    base = re.sub(r"/\d*$", "", url.split("?")[0])
    main = redis.Redis.from_url(url, socket_timeout=5)
    deadline = time.monotonic() + 60
    number = None
    while number is None:
        number = next((n for n in range(1, 16)
                       if main.set(f"{CLAIM}{n}", os.getpid(), nx=True, ex=900)), None)
        if number is None:
            if time.monotonic() > deadline:
                pytest.fail("no free Redis database (1 to 15) for 60 s")
            time.sleep(0.5)
    own = f"{base}/{number}"
    mine = redis.Redis.from_url(own, socket_timeout=5)
    try:
        mine.flushdb()
        yield own
    finally:
        mine.flushdb()
        mine.close()
        main.delete(f"{CLAIM}{number}")
        main.close()


def live_workers(url: str) -> int:
    """How many workers say they are alive (their ALIVE keys)."""
    import redis

    with redis.Redis.from_url(url, socket_timeout=5) as client:
        return len(client.keys(ALIVE + "*"))


class Worker:
    """A `tlatelolco worker` subprocess (run by `prefix`, e.g. `ip netns exec NS`), its log
    in `log`; every job it takes is logged (`--log-level info`)."""

    def __init__(self, url: str, log: Path, prefix: Sequence[str] = ()) -> None:
        self.log = log
        command = [*prefix, sys.executable, "-c", "from tlatelolco.cli.app import main; main()",
                   "worker", "--redis", url, "--log-level", "info"]
        with log.open("ab") as out:
            self.process = subprocess.Popen(command, cwd=ROOT, stdin=subprocess.DEVNULL,
                                            stdout=out, stderr=subprocess.STDOUT,
                                            env={**os.environ, "PYTHONPATH": str(ROOT)})

    def text(self) -> str:
        return self.log.read_text(errors="replace")

    def jobs(self) -> list[str]:
        """The ids of the jobs it started, in order."""
        return re.findall(r": tlatelolco:\w+: ([0-9a-f-]{36})\s*$", self.text(), re.M)

    def kill(self) -> None:
        """SIGKILL: no clean-up, as a crash or a pulled plug."""
        with contextlib.suppress(ProcessLookupError):
            self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


@pytest.fixture
def rq_redis(redis_url: str) -> Iterator[str]:
    """A Redis URL on a database of this test's own (see the module)."""
    with private_database(redis_url) as url:
        yield url


@pytest.fixture
def rq_workers(tmp_path: Path) -> Iterator[Callable[..., Worker]]:
    """`rq_workers(url, prefix=())` starts a worker; all are stopped when the test ends."""
    started: list[Worker] = []

    def start(url: str, prefix: Sequence[str] = ()) -> Worker:
        worker = Worker(url, tmp_path / f"worker-{len(started)}.log", prefix)
        started.append(worker)
        return worker

    try:
        yield start
    finally:
        for worker in started:
            worker.stop()


def wait_live(url: str, count: int, timeout: float = 30.0) -> None:
    """Until `count` workers are alive (started up: imports take a second or two)."""
    deadline = time.monotonic() + timeout
    while live_workers(url) != count:
        if time.monotonic() > deadline:
            pytest.fail(f"{count} workers were not alive after {timeout:g} s "
                        f"({live_workers(url)} are)")
        time.sleep(0.1)
