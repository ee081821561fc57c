"""The server benchmark (`tlatelolco bench server`): many games played over WebSockets at once.

Issue 6's bar (100 concurrent games on a 2-core machine, p95 move latency under 100 ms, no
error, no lost move) is about the whole path of a browser's move: the socket, the action
pipeline, the database commit, every seat's view and the broadcast. So it is measured end to
end against a real server process on loopback (started here unless `url` is given), with one
WebSocket per seat, as browsers would hold them:

    >>> from tlatelolco.web.benchmark import run_server_bench
    >>> result = run_server_bench(games=4, moves=100)          # doctest: +SKIP
    >>> result["latency_ms"]["p95"], result["errors"], result["lost"]  # doctest: +SKIP

Each game is created with every seat `taken`; the benchmark's clients play all its seats,
choosing a random move (seeded) from the view's `legal` list as soon as the seat is to move,
with no thinking time: a closed loop, so the measured throughput is the server's capacity and
the latency is what each move waits at that load. A move's latency runs from sending it to
receiving the first view of a higher version on the mover's socket. Finished games are
replaced by new ones until `moves` moves were made or `seconds` have passed.

At the end every acknowledged move is looked for where it must be: in the game's version as
GET /api/games/{id} reports it, and (when the database is known) in the stored `actions`
rows, at its step and with its action number. A move missing from either is `lost`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

try:
    from websockets.asyncio.client import connect as ws_connect
except ImportError:  # websockets < 13: the legacy client has the same calls used here
    from websockets import connect as ws_connect  # type: ignore[no-redef,attr-defined]
from websockets.exceptions import ConnectionClosed

DEFAULT_SECONDS = 20.0  # when neither `moves` nor `seconds` is given
MAX_SECONDS = 600.0  # a run bounded by `moves` alone still stops
STALL_SECONDS = 15.0  # a seat hearing nothing this long: its game is dropped (an error)
DRAIN_SECONDS = 10.0  # at the end, how long moves in flight may take to be answered
START_SECONDS = 60.0  # for the server to answer /healthz, and for the first games to open
SAMPLES = 8  # error messages kept for the report

Progress = Callable[[dict[str, Any]], None]


class HttpError(RuntimeError):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def run_server_bench(games: int = 100, game: str = "grand_bazaar", players: int = 2,
                     moves: int | None = None, url: str | None = None, db: str | None = None,
                     seconds: float | None = None, seed: int = 0,
                     progress: Progress | None = None, think: float = 0.0) -> dict[str, Any]:
    """Play `games` concurrent games against a server and return the figures.

    `url`: a running server to measure (default: start one in a subprocess on a free port,
    with `db` or a throwaway SQLite file, and stop it at the end). `db`: the server's database
    URL; when known, stored histories are checked directly. `moves` and `seconds` bound the
    run (default: `seconds` = 20). `think`: the mean seconds a seat waits before moving
    (uniform between half and one and a half times it); 0, the default, is a closed loop that
    measures the server's capacity, more is a load like people's. `progress`, if given, is
    called about once a second with {"moves", "seconds", "games_played", "errors"}.

    The result: games (concurrent), games_played, games_finished, moves, seconds, moves_per_s,
    latency_ms {p50, p95, p99, max, mean}, errors (error messages, dropped connections, games
    that stalled, failed requests), error_samples, lost, checked ("database" or "api"), cpu
    (cores used by the clients and, when started here, by the server), server, game, players.
    """
    if games < 1:
        raise ValueError(f"games must be at least 1, got {games}")
    if players < 1:
        raise ValueError(f"players must be at least 1, got {players}")
    if moves is not None and moves < 1:
        raise ValueError(f"moves must be at least 1, got {moves}")
    if seconds is not None and seconds <= 0:
        raise ValueError(f"seconds must be positive, got {seconds}")
    if think < 0:
        raise ValueError(f"think cannot be negative, got {think}")
    limit = seconds if seconds is not None else (MAX_SECONDS if moves else DEFAULT_SECONDS)
    with contextlib.ExitStack() as stack:
        server: Server | None = None
        if url is None:
            if db is None:
                tmp = stack.enter_context(tempfile.TemporaryDirectory(prefix="tlatelolco-"))
                db = f"sqlite:///{Path(tmp) / 'bench.db'}"
            server = stack.enter_context(Server(db))
            url = server.url
        bench = Bench(url.rstrip("/"), game, players, games, moves, limit, seed, progress,
                      server, think)
        result = run_loop(bench.main())
        if bench.refused is not None:  # e.g. an unknown game or player count: say so, once
            raise ValueError(bench.refused)
        if server is not None:
            cores = server.cpu_cores(bench.t0, bench.t_end)
            result["cpu"]["server"] = cores
            if cores is not None and bench.moves:  # the load-independent cost of a move
                result["cpu"]["server_ms_per_move"] = round(
                    cores * (bench.t_end - bench.t0) / bench.moves * 1000, 2)
            server.stop()
            if server.failure:
                bench.error(server.failure)
                result["errors"] = bench.errors
                result["error_samples"] = bench.samples
        if db is not None:
            result["lost"] = bench.check_database(db)
            result["checked"] = "database"
        return result


def run_loop(coro: Any) -> dict[str, Any]:
    """Run the clients on uvloop when it is there: it leaves more of the CPU to the server."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(coro)  # type: ignore[no-any-return]
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        return runner.run(coro)  # type: ignore[no-any-return]


# --- the server under test -----------------------------------------------------------------
def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """`tlatelolco serve` in a subprocess on a free loopback port, as a user would run it."""

    def __init__(self, db: str) -> None:
        self.db = db
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = tempfile.TemporaryFile()  # noqa: SIM115 (closed by __exit__)
        self.failure: str | None = None
        self._cpu_marks: dict[float, float] = {}

    def command(self) -> list[str]:
        return [sys.executable, "-c", "from tlatelolco.cli.app import main; main()", "serve",
                "--host", "127.0.0.1", "--port", str(self.port), "--db", self.db,
                "--bot-workers", "0", "--bot-delay", "0", "--log-level", "warning",
                "--limits", "creates=0,joins=0,hints=0,sockets=0",  # a load test, not abuse
                "--quota", "games=0,daily=0",  # its games all come from one address
                "--connections-per-client", "0", "--sockets-per-client", "0"]  # so do sockets

    def __enter__(self) -> Server:
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.proc = subprocess.Popen(self.command(), stdin=subprocess.DEVNULL, stdout=self.log,
                                     stderr=subprocess.STDOUT, env=env)
        deadline = time.monotonic() + START_SECONDS
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited with code {self.proc.returncode} "
                                   f"before answering:\n{self.output()}")
            try:
                with urllib.request.urlopen(self.url + "/healthz", timeout=2) as answer:
                    if answer.status == 200:
                        return self
            except (OSError, urllib.error.URLError):
                pass
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"the server did not answer {self.url}/healthz within "
                                   f"{START_SECONDS:g} s:\n{self.output()}")
            time.sleep(0.1)

    def __exit__(self, *_: object) -> None:
        self.stop()
        self.log.close()

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def output(self, limit: int = 4000) -> str:
        self.log.flush()
        self.log.seek(0)
        return self.log.read().decode(errors="replace")[-limit:]

    def cpu_seconds(self) -> float | None:
        """User plus system CPU time of the server process so far (Linux only)."""
        if self.proc is None:
            return None
        try:
            fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, ValueError, IndexError):
            return None

    def mark(self, when: float) -> None:
        used = self.cpu_seconds()
        if used is not None:
            self._cpu_marks[when] = used

    def cpu_cores(self, start: float, end: float) -> float | None:
        if start not in self._cpu_marks or end not in self._cpu_marks or end <= start:
            return None
        return round((self._cpu_marks[end] - self._cpu_marks[start]) / (end - start), 2)

    def stop(self) -> None:
        """SIGINT (uvicorn's graceful shutdown), then SIGKILL if it hangs."""
        if self.proc is None or self.proc.poll() is not None:
            if self.proc is not None and self.proc.returncode not in (0, -signal.SIGINT) \
                    and self.failure is None:
                self.failure = (f"the server died with code {self.proc.returncode}: "
                                f"{self.output(1000)}")
            return
        self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


# --- the clients ---------------------------------------------------------------------------
@dataclass(slots=True)
class Seat:
    seat: int
    token: str
    rng: random.Random
    ws: Any = None
    pending: tuple[int, int, float] | None = None  # version, action, time sent
    acted: int = -1  # the last version this seat moved at (a view is answered once)


@dataclass(slots=True)
class Game:
    id: str
    seats: list[Seat]
    acked: list[tuple[int, int]] = field(default_factory=list)  # (step, action) answered
    seen: int = 0  # the highest version a view showed
    finished: bool = False
    closing: bool = False
    done: asyncio.Event = field(default_factory=asyncio.Event)


class Bench:
    def __init__(self, url: str, game: str, players: int, games: int, moves: int | None,
                 seconds: float, seed: int, progress: Progress | None,
                 server: Server | None, think: float = 0.0) -> None:
        self.url = url
        self.ws_url = "ws" + url[len("http"):] if url.startswith("http") else url
        self.game, self.players, self.concurrent = game, players, games
        self.moves_cap, self.seconds, self.seed = moves, seconds, seed
        self.progress, self.server, self.think = progress, server, think
        self.stall = STALL_SECONDS + 2 * think  # an opponent may think before answering
        self.played: list[Game] = []
        self.latencies: list[float] = []
        self.moves = 0
        self.sent = 0
        self.errors = 0
        self.samples: list[str] = []
        self.api_versions: dict[str, int] = {}
        self.refused: str | None = None  # the server's reason for refusing to create a game
        self.t0 = 0.0
        self.t_end = 0.0
        self.t_last = 0.0
        self.started = asyncio.Event()
        self.stop = asyncio.Event()

    def error(self, message: str) -> None:
        self.errors += 1
        if len(self.samples) < SAMPLES:
            self.samples.append(message[:300])

    # --- HTTP, from threads: the standard library is enough for a few requests ------------
    async def http(self, method: str, path: str, body: Any = None, token: str | None = None
                   ) -> Any:
        return await asyncio.to_thread(self._http, method, path, body, token)

    def _http(self, method: str, path: str, body: Any, token: str | None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        request = urllib.request.Request(self.url + path, data=data, method=method,
                                         headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=STALL_SECONDS) as answer:
                return json.loads(answer.read())
        except urllib.error.HTTPError as err:
            try:
                message = json.loads(err.read()).get("message", "")
            except (ValueError, AttributeError):
                message = ""
            raise HttpError(err.code, f"{method} {path}: {err.code} {message}".strip()) from None

    # --- the run --------------------------------------------------------------------------
    async def main(self) -> dict[str, Any]:
        ready = [asyncio.Event() for _ in range(self.concurrent)]
        slots = [asyncio.create_task(self.slot(i, ready[i])) for i in range(self.concurrent)]
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.gather(*(r.wait() for r in ready)), START_SECONDS)
        cpu0 = time.process_time()
        self.t0 = self.t_last = time.perf_counter()
        if self.server is not None:
            self.server.mark(self.t0)
        self.started.set()
        ticker = asyncio.create_task(self.tick())
        await asyncio.gather(*slots)
        ticker.cancel()
        self.t_end = time.perf_counter()
        if self.server is not None:
            self.server.mark(self.t_end)
        client_cpu = (time.process_time() - cpu0) / max(self.t_end - self.t0, 1e-9)
        elapsed = max(self.t_last - self.t0, 1e-9)
        lost = await self.check_api()
        return {
            "game": self.game, "players": self.players, "games": self.concurrent,
            "games_played": len(self.played),
            "games_finished": sum(g.finished for g in self.played),
            "moves": self.moves, "seconds": round(elapsed, 3),
            "moves_per_s": round(self.moves / elapsed, 1),
            "latency_ms": percentiles(self.latencies),
            "errors": self.errors, "error_samples": self.samples, "lost": lost,
            "checked": "api", "cpu": {"client": round(client_cpu, 2), "server": None},
            "think": self.think, "server": self.url,
        }

    async def tick(self) -> None:
        """Stops the run on time (or when the server died) and reports progress."""
        while not self.stop.is_set():
            await asyncio.sleep(min(1.0, self.seconds))
            now = time.perf_counter() - self.t0
            if self.server is not None and not self.server.alive():
                self.error(f"the server died: {self.server.output(500)}")
                self.stop.set()
            if now >= self.seconds:
                self.stop.set()
            if self.progress is not None:
                self.progress({"moves": self.moves, "seconds": round(now, 1),
                               "games_played": len(self.played), "errors": self.errors})

    async def slot(self, slot: int, ready: asyncio.Event) -> None:
        """One of the concurrent games, replaced by a new one whenever it ends."""
        number = 0
        while not self.stop.is_set():
            ok = await self.play(slot, number, ready)
            ready.set()
            number += 1
            if not ok:
                await asyncio.sleep(0.2)  # do not hammer a server that refuses

    async def play(self, slot: int, number: int, ready: asyncio.Event) -> bool:
        """Create one game, open its seats' sockets and play it to the end (or the stop)."""
        try:
            created = await self.http("POST", "/api/games", {
                "game": self.game, "options": {"num_players": self.players},
                "seats": ["taken"] + ["open"] * (self.players - 1), "name": "bench",
                "listed": False})
            for seat in created["seats"]:  # each seat its own person, as in a real game
                if seat["invite"]:
                    claimed = await self.http("POST", f"/api/games/{created['id']}/claim",
                                              {"name": f"bench {seat['seat']}"}, seat["invite"])
                    seat["token"] = claimed["token"]
        except HttpError as err:
            if 400 <= err.status < 500:  # retrying cannot help
                self.refused = f"the server refuses to create the game: {err}"
                self.stop.set()
            self.error(f"creating a game: {err}")
            return False
        except Exception as err:
            self.error(f"creating a game: {err}")
            return False
        seats = [Seat(s["seat"], s["token"],
                      random.Random(f"{self.seed}:{slot}:{number}:{s['seat']}"))
                 for s in created["seats"]]
        game = Game(created["id"], seats)
        self.played.append(game)
        if self.stop.is_set():
            return True
        first: list[Any] = []
        try:
            for seat in seats:
                seat.ws = await ws_connect(f"{self.ws_url}/ws/games/{game.id}",
                                           max_size=None, ping_interval=None,
                                           open_timeout=STALL_SECONDS)
                await seat.ws.send(json.dumps({"type": "hello", "token": seat.token}))
            for seat in seats:
                first.append(await asyncio.wait_for(seat.ws.recv(), STALL_SECONDS))
        except Exception as err:
            self.error(f"game {game.id}: opening the sockets: {err!r}")
            await self.close(game)
            return False
        ready.set()
        await self.started.wait()
        tasks = [asyncio.create_task(self.seat_loop(game, seat, raw))
                 for seat, raw in zip(seats, first, strict=True)]
        stop = asyncio.create_task(self.stop.wait())
        done = asyncio.create_task(game.done.wait())
        await asyncio.wait({stop, done}, return_when=asyncio.FIRST_COMPLETED)
        stop.cancel()
        done.cancel()
        deadline = time.perf_counter() + DRAIN_SECONDS
        while not game.done.is_set() and any(s.pending for s in seats):
            if time.perf_counter() > deadline:
                self.error(f"game {game.id}: a move got no answer within {DRAIN_SECONDS:g} s")
                break
            await asyncio.sleep(0.005)
        game.closing = True
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await self.close(game)
        return True

    async def close(self, game: Game) -> None:
        game.closing = True
        await asyncio.gather(*(s.ws.close() for s in game.seats if s.ws is not None),
                             return_exceptions=True)

    async def seat_loop(self, game: Game, seat: Seat, raw: Any) -> None:
        """Read one seat's socket: answer its turns, time the answers to its moves."""
        try:
            while True:
                reply = self.handle(game, seat, json.loads(raw))
                if reply is not None:
                    version, action = reply
                    if self.think:
                        await asyncio.sleep(seat.rng.uniform(0.5, 1.5) * self.think)
                        if self.stop.is_set():  # the run ended while this seat thought
                            self.sent -= 1
                            return
                    seat.pending = (version, action, time.perf_counter())
                    await seat.ws.send(json.dumps({"type": "action", "action": action,
                                                   "version": version}))
                if game.finished or game.closing:  # even if a cancellation went astray
                    return
                try:
                    async with asyncio.timeout(self.stall):
                        raw = await seat.ws.recv()
                except TimeoutError:
                    if not game.closing and not game.done.is_set():
                        self.error(f"game {game.id} seat {seat.seat}: nothing heard for "
                                   f"{self.stall:g} s (at version {game.seen})")
                    return
        except ConnectionClosed as err:
            if not game.closing and not game.done.is_set():
                self.error(f"game {game.id} seat {seat.seat}: connection dropped: {err}")
        finally:
            game.done.set()  # a seat that stopped listening ends its game

    def handle(self, game: Game, seat: Seat, message: dict[str, Any]) -> tuple[int, int] | None:
        """Account for one message; the (version, action) to send, if it is our move."""
        kind = message.get("type")
        if kind == "error":
            self.error(f"game {game.id} seat {seat.seat}: {message.get('error')}: "
                       f"{message.get('message')}")
            seat.pending = None  # the move was refused: the next view will be answered
            return None
        if kind != "view":
            return None
        version = message["version"]
        game.seen = max(game.seen, version)
        if seat.pending is not None and version > seat.pending[0]:
            now = time.perf_counter()
            self.latencies.append(now - seat.pending[2])
            game.acked.append(seat.pending[:2])
            self.moves += 1
            self.t_last = now
            seat.pending = None
        if message.get("status") == "finished":
            game.finished = True
            return None
        legal = message.get("legal")
        if not legal or seat.pending is not None or version <= seat.acted \
                or self.stop.is_set():
            return None
        if self.moves_cap is not None and self.sent >= self.moves_cap:
            self.stop.set()
            return None
        seat.acted = version
        self.sent += 1
        return version, int(seat.rng.choice(legal)["id"])

    # --- nothing lost ---------------------------------------------------------------------
    async def check_api(self) -> int:
        """Acknowledged moves at or past the version GET /api/games/{id} reports."""
        limit = asyncio.Semaphore(8)

        async def one(game: Game) -> int:
            async with limit:
                try:
                    found = await self.http("GET", f"/api/games/{game.id}")
                except Exception as err:
                    self.error(f"checking game {game.id}: {err}")
                    return len(game.acked)
            self.api_versions[game.id] = found["version"]
            return sum(step >= found["version"] for step, _ in game.acked)

        counts = await asyncio.gather(*(one(g) for g in self.played if g.acked))
        return sum(counts)

    def check_database(self, url: str) -> int:
        """Acknowledged moves missing from the API's version or not stored at their step with
        their action, read from the database itself (the API answers from memory)."""
        from sqlalchemy import select

        from tlatelolco.web.storage.db import actions, games, make_engine

        ids = [g.id for g in self.played if g.acked]
        stored: dict[str, dict[int, int]] = {i: {} for i in ids}
        versions: dict[str, int] = {}
        engine = make_engine(url)
        try:
            with engine.connect() as db:
                for start in range(0, len(ids), 500):
                    chunk = ids[start:start + 500]
                    for game_id, idx, action in db.execute(
                            select(actions.c.game_id, actions.c.idx, actions.c.action)
                            .where(actions.c.game_id.in_(chunk))):
                        stored[game_id][idx] = action
                    for game_id, version in db.execute(
                            select(games.c.id, games.c.version).where(games.c.id.in_(chunk))):
                        versions[game_id] = version
        finally:
            engine.dispose()
        lost = 0
        for game in self.played:
            for step, action in game.acked:
                if step >= min(versions.get(game.id, 0), self.api_versions.get(game.id, 0)) \
                        or stored[game.id].get(step) != action:
                    lost += 1
        return lost


def percentiles(values: list[float]) -> dict[str, float | None]:
    """Nearest-rank percentiles, in milliseconds."""
    if not values:
        return {"p50": None, "p95": None, "p99": None, "max": None, "mean": None}
    ordered = sorted(values)

    def rank(p: int) -> float:
        return round(ordered[max(0, math.ceil(len(ordered) * p / 100) - 1)] * 1000, 2)

    return {"p50": rank(50), "p95": rank(95), "p99": rank(99),
            "max": round(ordered[-1] * 1000, 2),
            "mean": round(sum(ordered) / len(ordered) * 1000, 2)}


__all__ = ["percentiles", "run_server_bench"]
