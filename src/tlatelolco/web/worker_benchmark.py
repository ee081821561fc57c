"""`tlatelolco bench server --workers N`: bot moves per second with N `tlatelolco worker`s.

Adding worker machines is meant to add bot moves: this measures it. A server is started in
remote mode (`serve --redis URL --remote-workers`) with N worker processes on this machine
and `games` games of bots only, each seat a search bot with a fixed number of iterations
(`BOT`), so every move costs a worker about the same. A game that ends is replaced. The rate
counted is the games' steps (bot moves, and the few chance draws the server makes itself) per
second, read from each game's version every `POLL` seconds after the workers are up.

Redis is the `redis` URL given, else a throwaway `redis-server` on a free loopback port
(when the binary is installed); neither is a one-line error.

    >>> from tlatelolco.web.worker_benchmark import run_worker_bench
    >>> run_worker_bench(workers=2, seconds=20)["moves_per_s"]      # doctest: +SKIP
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tlatelolco.web.benchmark import Server, free_port

BOT = "mcts:iterations=200"  # about 80 ms of a core per grand_bazaar move
POLL = 0.5  # seconds between reads of the games' versions
START_SECONDS = 60.0  # for the workers to say they are alive
MAX_WORKERS = 32


class RemoteServer(Server):
    """`tlatelolco serve --remote-workers` on a free loopback port."""

    def __init__(self, db: str, redis: str) -> None:
        super().__init__(db)
        self.redis = redis

    def command(self) -> list[str]:
        return [*super().command(), "--redis", self.redis, "--remote-workers"]


@contextlib.contextmanager
def throwaway_redis(folder: str, bind: str = "127.0.0.1") -> Iterator[str]:
    """A `redis-server` listening on `bind` (a free port), without persistence, stopped at the
    end; RuntimeError without the binary or when it does not answer within 20 s. Bound to an
    address other than loopback it runs without protected mode: only for a test's own hosts."""
    binary = shutil.which("redis-server")
    if binary is None:
        raise RuntimeError("bench server --workers needs Redis: give --redis URL, or install "
                           "redis-server to have one started for the run")
    import redis

    port = free_port()
    command = [binary, "--bind", bind, "--port", str(port), "--save", "", "--appendonly", "no",
               "--dir", folder]
    if bind != "127.0.0.1":
        command += ["--protected-mode", "no"]
    log = Path(folder) / f"redis-{port}.log"
    with log.open("wb") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
    url = f"redis://{bind}:{port}/0"
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                with redis.Redis.from_url(url, socket_timeout=1) as client:
                    client.ping()
                break
            except redis.RedisError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise RuntimeError(f"the throwaway redis-server on {bind}:{port} did not "
                                       f"start: {log.read_text()[-500:]}") from None
                time.sleep(0.05)
        yield url
    finally:
        process.kill()
        process.wait(10)


@contextlib.contextmanager
def workers_running(url: str, count: int, log: Path) -> Iterator[list[subprocess.Popen[bytes]]]:
    """`count` `tlatelolco worker` processes, alive (their ALIVE keys set), stopped at the
    end."""
    import redis

    from tlatelolco.web.workers.remote import ALIVE

    command = [sys.executable, "-c", "from tlatelolco.cli.app import main; main()", "worker",
               "--redis", url]
    with log.open("ab") as out:
        processes = [subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=out,
                                      stderr=subprocess.STDOUT) for _ in range(count)]
    try:
        deadline = time.monotonic() + START_SECONDS
        with redis.Redis.from_url(url, socket_timeout=5) as client:
            while len(client.keys(ALIVE + "*")) < count:
                if time.monotonic() > deadline or any(p.poll() is not None for p in processes):
                    raise RuntimeError(f"{count} workers did not start within "
                                       f"{START_SECONDS:g} s: {log.read_text()[-2000:]}")
                time.sleep(0.1)
        yield processes
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def _http(url: str, method: str = "GET", body: Any = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=15) as answer:
        return json.loads(answer.read())


def run_worker_bench(workers: int, redis: str | None = None, game: str = "grand_bazaar",
                     players: int = 2, games: int = 8, seconds: float = 20.0,
                     bot: str = BOT) -> dict[str, Any]:
    """Bot moves per second of `games` games of bots only, played by `workers` worker
    processes for `seconds` (see the module). The result: workers, games, games_finished,
    moves, seconds, moves_per_s, bot, game, players."""
    if not 1 <= workers <= MAX_WORKERS:
        raise ValueError(f"workers must be from 1 to {MAX_WORKERS}, got {workers}")
    if games < 1 or players < 1 or seconds <= 0:
        raise ValueError("games and players must be at least 1, seconds positive")
    with contextlib.ExitStack() as stack:
        folder = stack.enter_context(tempfile.TemporaryDirectory(prefix="tlatelolco-"))
        url = redis or stack.enter_context(throwaway_redis(folder))
        stack.enter_context(workers_running(url, workers, Path(folder) / "workers.log"))
        server = stack.enter_context(RemoteServer(f"sqlite:///{Path(folder) / 'b.db'}", url))

        def create() -> str:
            made = _http(server.url + "/api/games", "POST", {
                "game": game, "options": {"num_players": players},
                "seats": [f"bot:{bot}"] * players, "listed": False})
            return str(made["id"])

        try:
            running = {create(): 0 for _ in range(games)}
        except urllib.error.HTTPError as err:
            raise ValueError(f"the server refuses the games: {err.read()[:300]!r}") from None
        moves = finished = 0
        started = time.perf_counter()
        while time.perf_counter() - started < seconds:
            time.sleep(POLL)
            for game_id, seen in list(running.items()):
                found = _http(f"{server.url}/api/games/{game_id}")
                moves += found["version"] - seen
                running[game_id] = found["version"]
                if found["status"] == "finished":
                    finished += 1
                    del running[game_id]
                    running[create()] = 0
            if not server.alive():
                raise RuntimeError(f"the server died: {server.output(1000)}")
        elapsed = time.perf_counter() - started
        server.stop()
    return {"workers": workers, "games": games, "games_finished": finished, "moves": moves,
            "seconds": round(elapsed, 2), "moves_per_s": round(moves / elapsed, 1),
            "bot": bot, "game": game, "players": players, "cores": os.cpu_count()}


__all__ = ["run_worker_bench"]
