"""Several server processes on one PostgreSQL database and one Redis act as one server.

A player may be connected to any process: a move accepted by one must reach the players
connected to the others (Redis carries the notification, each process builds its own views
from the database), and the database, not any process's memory, decides which of two moves
for the same version wins. Also the pub/sub classes on their own, and processes started at the
same moment on a new database (each runs the schema migration).
"""

from __future__ import annotations

import asyncio
import json
import random
import secrets
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.web.services import Client, Server, hello, postgres_schema
from websockets.sync.client import ClientConnection, connect

from tlatelolco.web.realtime.pubsub import PubSub, RedisPubSub, channel

DELIVERY = 3.0  # seconds within which a move on one process reaches the other's players


@pytest.fixture(scope="module")
def pair(tmp_path_factory: pytest.TempPathFactory, redis_url: str
         ) -> Iterator[tuple[Server, Server]]:
    """Processes A and B on one new, empty database and one Redis, started at the same
    moment (both migrate the empty database; neither may fail). Tests use their own games."""
    logs = tmp_path_factory.mktemp("pair")
    with postgres_schema() as db:
        a = Server(db, redis_url, log=logs / "a.log")
        b = Server(db, redis_url, log=logs / "b.log")
        try:
            with ThreadPoolExecutor(2) as pool:
                for started in [pool.submit(a.start), pool.submit(b.start)]:
                    started.result()
            yield a, b
        finally:
            a.stop()
            b.stop()


def clients(a: Server, b: Server, game: str = "grand_bazaar") -> tuple[str, Client, Client]:
    """A new two-player game made on A, with a client of each process holding both seats."""
    on_a, on_b = Client(a), Client(b)
    game_id = on_a.create(game, ["taken", "taken"], num_players=2)
    on_b.tokens = on_a.tokens
    return game_id, on_a, on_b


class Socket:
    """A seat's WebSocket: the latest view and the whole log it was sent (step -> entry)."""

    def __init__(self, url: str, token: str | None = None) -> None:
        self.ws: ClientConnection = connect(url, open_timeout=10).__enter__()
        self.ws.send(hello(token))
        self.log: dict[int, tuple[int, str]] = {}
        self.view: dict[str, Any] = {}
        self.next(5.0)
        assert self.view["log_from"] == 0

    def next(self, timeout: float) -> dict[str, Any]:
        message = json.loads(self.ws.recv(timeout=timeout))
        assert message["type"] == "view", message
        self.log.update({e["step"]: (e["seat"], e["text"]) for e in message["log"]})
        self.view = message
        return message

    def until(self, version: int, timeout: float = DELIVERY) -> None:
        """Wait for the view of `version` (fails after `timeout` seconds)."""
        deadline = time.monotonic() + timeout
        while self.view["version"] < version:
            left = deadline - time.monotonic()
            if left <= 0:
                pytest.fail(f"no view of version {version} within {timeout} s; the socket "
                            f"is at version {self.view['version']}")
            try:
                self.next(left)
            except TimeoutError:
                continue

    def send(self, **message: Any) -> None:
        self.ws.send(json.dumps(message))

    def close(self) -> None:
        self.ws.close()


def test_a_move_on_either_process_reaches_players_on_the_other(
        pair: tuple[Server, Server]) -> None:
    a, b = pair
    game_id, on_a, on_b = clients(a, b)
    sockets = {0: Socket(a.ws_url(game_id), on_a.tokens[0]),  # seat 0 plays on A
               1: Socket(b.ws_url(game_id), on_a.tokens[1])}  # seat 1 plays on B
    rng = random.Random(secrets.randbits(32))
    delays: list[float] = []
    try:
        for i in range(9):
            seat = sockets[0].view["to_move"]
            mover = sockets[seat]
            version, move = mover.view["version"], rng.choice(mover.view["legal"])
            started = time.monotonic()
            if i % 3 == 2:  # over the mover's own socket, to its process
                mover.send(type="action", action=move["id"], version=version)
                mover.until(version + 1)
                new = mover.view["version"]
            else:  # over HTTP, to A, then to B: the other process's socket must hear of it
                answer = (on_a if i % 3 == 0 else on_b).act(game_id, seat, move["id"], version)
                assert answer.status_code == 200, answer.text
                new = answer.json()["version"]
            for s in sockets.values():
                s.until(new)
            delays.append(time.monotonic() - started)
            assert sockets[0].view["version"] == sockets[1].view["version"] == new
            assert sockets[0].log == sockets[1].log
            assert sockets[0].log[version] == (seat, move["text"])
        # Both processes, asked directly, agree with what their players were sent.
        assert on_a.view(game_id)["version"] == on_b.view(game_id)["version"] == new
        print(f"delivered in {max(delays):.3f} s at most, {sum(delays) / len(delays):.3f} s "
              "on average")
    finally:
        for s in sockets.values():
            s.close()
        on_a.close()
        on_b.close()


def test_a_stale_version_is_refused_by_the_other_process(pair: tuple[Server, Server]) -> None:
    """B still holds the game at the version A just moved from: the database refuses B."""
    a, b = pair
    game_id, on_a, on_b = clients(a, b)
    try:
        seat = on_b.view(game_id)["to_move"]
        view = on_b.view(game_id, seat)  # B now holds the game in memory, at this version
        version, first, second = view["version"], view["legal"][0], view["legal"][-1]
        accepted = on_a.act(game_id, seat, first["id"], version)
        assert accepted.status_code == 200, accepted.text
        refused = on_b.act(game_id, seat, second["id"], version)
        assert refused.status_code == 409, refused.text
        assert refused.json()["error"] == "stale_version"
        now = on_b.view(game_id)
        assert now["version"] == accepted.json()["version"] == refused.json()["version"]
        entry = {k: now["log"][version][k] for k in ("step", "seat", "text")}
        assert entry == {"step": version, "seat": seat, "text": first["text"]}
        # B has caught up: a move answering the current version is accepted there.
        seat = now["to_move"]
        current = on_b.view(game_id, seat)
        answer = on_b.act(game_id, seat, current["legal"][0]["id"], current["version"])
        assert answer.status_code == 200, answer.text
    finally:
        on_a.close()
        on_b.close()


def race(barrier: threading.Barrier, client: Client, game_id: str, seat: int, action: int,
         version: int) -> httpx.Response:
    barrier.wait(10)
    return client.act(game_id, seat, action, version)


def test_moves_for_one_version_sent_to_both_processes_at_once_one_wins(
        pair: tuple[Server, Server]) -> None:
    """The optimistic check lives in the database: exactly one of two racing moves is stored."""
    a, b = pair
    game_id, on_a, on_b = clients(a, b)
    rng = random.Random(secrets.randbits(32))
    try:
        with ThreadPoolExecutor(2) as pool:
            for _ in range(8):
                seat = on_a.view(game_id)["to_move"]
                view = on_a.view(game_id, seat)
                version, moves = view["version"], [rng.choice(view["legal"]) for _ in "ab"]
                barrier = threading.Barrier(2)
                answers = [f.result(20) for f in [
                    pool.submit(race, barrier, client, game_id, seat, move["id"], version)
                    for client, move in zip((on_a, on_b), moves, strict=True)]]
                codes = [r.status_code for r in answers]
                assert sorted(codes) == [200, 409], [r.text for r in answers]
                winner, loser = moves[codes.index(200)], answers[codes.index(409)]
                assert loser.json()["error"] in ("stale_version", "not_your_turn"), loser.text
                for client in (on_a, on_b):
                    stored = client.view(game_id)["log"][version]
                    assert {k: stored[k] for k in ("step", "seat", "text")} == {
                        "step": version, "seat": seat, "text": winner["text"]}
    finally:
        on_a.close()
        on_b.close()


def test_a_new_viewer_on_a_process_sees_moves_made_on_the_other(
        pair: tuple[Server, Server]) -> None:
    a, b = pair
    game_id, on_a, on_b = clients(a, b)
    try:
        on_a.view(game_id, 0)  # A holds the game in memory now
        for _ in range(3):
            seat = on_b.view(game_id)["to_move"]
            view = on_b.view(game_id, seat)
            answer = on_b.act(game_id, seat, view["legal"][0]["id"], view["version"])
            assert answer.status_code == 200, answer.text
        version = answer.json()["version"]
        socket = Socket(a.ws_url(game_id), on_a.tokens[0])
        socket.close()
        assert (socket.view["version"], on_a.view(game_id)["version"]) == (version, version)
    finally:
        on_a.close()
        on_b.close()


def join(barrier: threading.Barrier, client: Client, game_id: str, name: str
         ) -> httpx.Response:
    barrier.wait(10)
    return client.http.post(f"/api/games/{game_id}/join", json={"seat": 1, "name": name})


def test_two_players_joining_one_open_seat_on_two_processes_only_one_gets_it(
        pair: tuple[Server, Server]) -> None:
    a, b = pair
    on_a, on_b = Client(a), Client(b)
    try:
        with ThreadPoolExecutor(2) as pool:
            for _ in range(5):
                game_id = on_a.create("grand_bazaar", ["taken", "open"], num_players=2)
                for client in (on_a, on_b):  # both processes hold the game in memory
                    client.view(game_id)
                barrier = threading.Barrier(2)
                answers = [f.result(20) for f in [pool.submit(join, barrier, c, game_id, n)
                                                  for c, n in ((on_a, "Ann"), (on_b, "Bob"))]]
                assert sorted(r.status_code for r in answers) == [200, 409], \
                    [r.text for r in answers]
    finally:
        on_a.close()
        on_b.close()


# --- the pub/sub classes ---------------------------------------------------------------------

def test_in_process_pubsub_delivers_to_every_subscriber_of_the_channel_only() -> None:
    async def main() -> None:
        bus = PubSub()
        await bus.start()
        async with bus.subscribe("x") as q1, bus.subscribe("x") as q2, \
                bus.subscribe("y") as q3:
            await bus.publish("x", {"version": 1})
            assert q1.get_nowait() == q2.get_nowait() == {"version": 1}
            assert q1.empty() and q2.empty() and q3.empty()
        assert not bus._queues  # the last subscriber leaving forgets the channel
        await bus.publish("x", {"version": 2})  # nobody listens: dropped, no error
        await bus.close()

    asyncio.run(main())


def test_redis_pubsub_carries_notifications_between_processes(redis_url: str) -> None:
    """Two buses (as in two processes): each message reaches every subscriber once."""
    async def subscribers(bus: RedisPubSub, name: str, count: int) -> None:
        for _ in range(200):  # SUBSCRIBE is sent, not awaited: wait until Redis counts it
            [(_, n)] = await bus._redis.pubsub_numsub(name)
            if n == count:
                return
            await asyncio.sleep(0.01)
        raise AssertionError(f"{name} has {n} subscribers, not {count}")

    async def main() -> None:
        a, b = RedisPubSub(redis_url), RedisPubSub(redis_url)
        await a.start()
        await b.start()
        name = channel(secrets.token_hex(6))
        try:
            async with a.subscribe(name) as qa:
                await subscribers(a, name, 1)
                await b.publish(name, {"game": "g", "version": 3})
                assert await asyncio.wait_for(qa.get(), DELIVERY) == {"game": "g", "version": 3}
                async with b.subscribe(name) as qb, b.subscribe(name) as qb2:
                    await subscribers(a, name, 2)  # one Redis subscription per process
                    await a.publish(name, {"version": 4})
                    for queue in (qa, qb, qb2):
                        assert await asyncio.wait_for(queue.get(), DELIVERY) == {"version": 4}
                    await asyncio.sleep(0.1)
                    assert qa.empty() and qb.empty() and qb2.empty()
                await subscribers(a, name, 1)
            await subscribers(a, name, 0)
        finally:
            await a.close()
            await b.close()

    asyncio.run(main())


# --- processes started together on a new database ----------------------------------------------

def has_open(pid: int, path: Path) -> bool:
    """Whether process `pid` has `path` open; True where /proc cannot tell."""
    fds = Path(f"/proc/{pid}/fd")
    if not fds.is_dir():
        return True
    try:
        return any(fd.readlink() == path for fd in fds.iterdir())
    except OSError:  # a descriptor closed while we looked
        return False


UPGRADE = "import sys; from tlatelolco.web.storage.db import make_engine, upgrade; " \
          "upgrade(make_engine(sys.argv[1]))"


def test_processes_migrating_a_new_sqlite_database_at_once_both_succeed(tmp_path: Path) -> None:
    """Both find no schema and wait for the write lock this test holds; once it is released,
    the second must see the first's tables instead of creating them again."""
    import sqlite3

    path = tmp_path / "new.db"
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("PRAGMA journal_mode=WAL")
    holder.execute("BEGIN IMMEDIATE")
    try:
        migrations = [subprocess.Popen([sys.executable, "-c", UPGRADE, f"sqlite:///{path}"],
                                       stderr=subprocess.PIPE) for _ in range(2)]
        deadline = time.monotonic() + 20  # until both have the database open (Linux: /proc)
        while time.monotonic() < deadline and not all(has_open(m.pid, path)
                                                       for m in migrations):
            time.sleep(0.05)
        time.sleep(0.3)  # and have reached the lock
    finally:
        holder.execute("COMMIT")
        holder.close()
    for migration in migrations:
        _, err = migration.communicate(timeout=30)
        assert migration.returncode == 0, err.decode()[-2000:]
    with sqlite3.connect(path) as db:
        tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master "
                                                  "WHERE type = 'table'")}
        assert {"games", "seats", "actions", "alembic_version"} <= tables
        assert db.execute("SELECT count(*) FROM alembic_version").fetchone() == (1,)
