"""Real services for the web tests: PostgreSQL, Redis and `tlatelolco serve` processes.

What in-process tests cannot show (a server killed mid-game, two processes sharing one database
and one bus) needs the real things. `.ci/run` starts PostgreSQL and Redis and names them in
TLATELOLCO_TEST_POSTGRES and TLATELOLCO_TEST_REDIS. Without them the tests skip on a developer's
machine, but under CI=true they fail: CI must never pass by skipping them.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.ci import unavailable as unavailable

POSTGRES_VAR = "TLATELOLCO_TEST_POSTGRES"
REDIS_VAR = "TLATELOLCO_TEST_REDIS"
START_TIMEOUT = 30.0  # seconds a server may take to answer /healthz


# --- PostgreSQL --------------------------------------------------------------------------------

def with_search_path(url: str, schema: str) -> str:
    """`url` with the connection option that makes `schema` the only one searched."""
    return f"{url}{'&' if '?' in url else '?'}options=-csearch_path%3D{schema}"


@contextlib.contextmanager
def postgres_schema() -> Iterator[str]:
    """A PostgreSQL URL whose tables live in a new, empty schema, dropped afterwards.

    A schema per test keeps tests independent (and parallel workers apart) at the cost of one
    CREATE SCHEMA, far cheaper than a database per test.
    """
    base = os.environ.get(POSTGRES_VAR, "").strip()
    if not base:
        unavailable(f"PostgreSQL tests need {POSTGRES_VAR}=postgresql://user:pw@host:port/db")
    from sqlalchemy import create_engine, text
    from sqlalchemy.pool import NullPool

    from tlatelolco.web.storage.db import normalise_url

    schema = f"t_{secrets.token_hex(6)}"
    engine = create_engine(normalise_url(base), poolclass=NullPool)
    try:
        with engine.begin() as db:
            db.execute(text(f"CREATE SCHEMA {schema}"))
    except Exception as err:  # set but unreachable: a broken setup, never a skip
        engine.dispose()
        pytest.fail(f"{POSTGRES_VAR} is set but PostgreSQL cannot be used: {err}", pytrace=False)
    try:
        yield with_search_path(base, schema)
    finally:
        with engine.begin() as db:
            db.execute(text(f"DROP SCHEMA IF EXISTS {schema} CASCADE"))
        engine.dispose()


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A PostgreSQL URL on a new, empty schema of its own (see `postgres_schema`)."""
    with postgres_schema() as url:
        yield url


# --- Redis -------------------------------------------------------------------------------------

@pytest.fixture(scope="session")
def redis_url() -> str:
    """The Redis URL, checked to answer. Channels are per game id, so tests can share it."""
    url = os.environ.get(REDIS_VAR, "").strip()
    if not url:
        unavailable(f"Redis tests need {REDIS_VAR}=redis://host:port/0")
    import redis

    client = redis.Redis.from_url(url, socket_timeout=5)
    try:
        client.ping()
    except Exception as err:
        pytest.fail(f"{REDIS_VAR} is set but Redis does not answer: {err}", pytrace=False)
    finally:
        client.close()
    return url


# --- server processes --------------------------------------------------------------------------

def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """A `tlatelolco serve` subprocess on a free loopback port.

    Run by the interpreter running the tests (so the same venv and checkout), in its own process
    group so that `kill()` takes down its bot workers too, as a crash of the machine's server
    would. Output goes to `log`, shown when it fails to start.

        with Server("sqlite:///game.db", log=tmp_path / "a.log") as server:
            httpx.get(server.url + "/healthz")
    """

    def __init__(self, db: str, redis: str | None = None, *, log: Path,
                 bot_workers: int = 0, bot_delay: float = 0.0, host: str = "127.0.0.1",
                 limits: str = "creates=0,joins=0,hints=0,sockets=0,logins=0,"
                 "name_logins=0,signups=0",
                 quota: str = "games=0,daily=0",
                 args: tuple[str, ...] = ()) -> None:
        self.host = host  # the address it listens on (0.0.0.0: every interface)
        self.limits = limits  # rate limits (`serve --limits`): off, tests create many games
        self.quota = quota  # games per address (`serve --quota`): off for the same reason
        self.args = args  # more `serve` options
        self.db = db
        self.redis = redis
        self.log = log
        self.bot_workers = bot_workers
        self.bot_delay = bot_delay
        self.port = 0
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def ws_url(self, game_id: str) -> str:
        """A game's WebSocket address; the credential goes in the first message (`hello`)."""
        return f"ws://127.0.0.1:{self.port}/ws/games/{game_id}"

    def command(self) -> list[str]:
        args = ["serve", "--host", self.host, "--port", str(self.port), "--db", self.db,
                "--bot-workers", str(self.bot_workers), "--bot-delay", str(self.bot_delay),
                "--log-level", "warning", "--limits", self.limits, "--quota", self.quota]
        if self.redis:
            args += ["--redis", self.redis]
        args += self.args
        return [sys.executable, "-c", "from tlatelolco.cli.app import main; main()", *args]

    def start(self) -> Server:
        """Start it and wait until /healthz answers (a few tries if the port got taken)."""
        for attempt in range(3):
            self.port = free_port()
            with self.log.open("ab") as out:
                out.write(f"--- {' '.join(self.command()[3:])}\n".encode())
                out.flush()
                self.process = subprocess.Popen(
                    self.command(), stdin=subprocess.DEVNULL, stdout=out,
                    stderr=subprocess.STDOUT, start_new_session=True)
            if self._wait_healthy():
                return self
            if attempt < 2 and b"address already in use" in self.log.read_bytes()[-2000:]:
                continue
            break
        self.kill()
        tail = self.log.read_text(errors="replace")[-3000:]
        raise RuntimeError(f"the server did not start ({' '.join(self.command()[3:])}):\n"
                           f"{tail}")

    def _wait_healthy(self) -> bool:
        """Poll /healthz with plain sockets (an httpx client per try costs more CPU than the
        server's whole start-up)."""
        assert self.process is not None
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                return False
            connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=1.0)
            try:
                connection.request("GET", "/healthz")
                if connection.getresponse().status == 200:
                    return True
            except OSError:
                pass
            finally:
                connection.close()
            time.sleep(0.05)
        return False

    def kill(self) -> None:
        """SIGKILL, no clean-up at all: what a crash, the OOM killer or a power cut leave."""
        if self.process is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        """A normal shutdown (SIGTERM); SIGKILL if it takes longer than a few seconds."""
        if self.process is None or self.process.poll() is not None:
            self.kill()
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(5)
        self.kill()  # the process group: bot workers too

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def __enter__(self) -> Server:
        return self.start()

    def __exit__(self, *_: object) -> None:
        self.stop()


@pytest.fixture
def servers(tmp_path: Path) -> Iterator[Callable[..., Server]]:
    """`servers(db, redis=None, bot_delay=...)` starts a server for this test (its output in
    tmp_path/server.log); every one still running is stopped when the test ends, whatever
    happened, so that no server outlives its test."""
    started: list[Server] = []

    def start(db: str, redis: str | None = None, **options: Any) -> Server:
        server = Server(db, redis, log=tmp_path / "server.log", **options)
        started.append(server)
        return server.start()

    try:
        yield start
    finally:
        for server in started:
            server.stop()


# --- talking to a server -----------------------------------------------------------------------

def hello(token: str | None = None) -> str:
    """The first WebSocket message: the seat's credential (None: a spectator)."""
    return json.dumps({"type": "hello", "token": token})


class Client:
    """The JSON API of one server, as the tests use it (seat tokens kept by seat number)."""

    def __init__(self, server: Server, timeout: float = 10.0) -> None:
        self.http = httpx.Client(base_url=server.url, timeout=timeout)
        self.tokens: dict[int, str] = {}

    def close(self) -> None:
        self.http.close()

    def create(self, game: str, seats: list[str], claim: bool = False, **options: Any) -> str:
        """A new game; with `claim`, its open seats are claimed too (their credentials kept)."""
        created = self.http.post("/api/games", json={"game": game, "options": options,
                                                     "seats": seats})
        assert created.status_code == 201, created.text
        body = created.json()
        self.tokens = {s["seat"]: s["token"] for s in body["seats"] if s["token"]}
        for seat in body["seats"]:  # as a friend would: the invite for a credential of one's own
            if claim and seat["invite"]:
                claimed = self.http.post(f"/api/games/{body['id']}/claim", json={},
                                         headers={"Authorization": f"Bearer {seat['invite']}"})
                assert claimed.status_code == 200, claimed.text
                self.tokens[seat["seat"]] = claimed.json()["token"]
        return str(body["id"])

    def auth(self, seat: int | None) -> dict[str, str]:
        return {} if seat is None else {"Authorization": f"Bearer {self.tokens[seat]}"}

    def view(self, game_id: str, seat: int | None = None) -> dict[str, Any]:
        got = self.http.get(f"/api/games/{game_id}/view", headers=self.auth(seat))
        assert got.status_code == 200, got.text
        return dict(got.json())

    def act(self, game_id: str, seat: int, action: int, version: int) -> httpx.Response:
        return self.http.post(f"/api/games/{game_id}/actions", headers=self.auth(seat),
                              json={"action": action, "version": version})


def wait_for(condition: Any, timeout: float = 10.0, every: float = 0.02) -> Any:
    """Poll `condition()` until it returns something true; that value (fails on timeout)."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            pytest.fail(f"timed out after {timeout} s waiting for {condition}")
        time.sleep(every)
