"""A server killed with SIGKILL mid-game loses no accepted move, and its games go on.

The server stores every accepted action in the transaction that moves the game's version, and
only then answers 200 or broadcasts a view. These tests hold it to that with a real
`tlatelolco serve` process: they kill it (no clean-up at all) while moves are in flight from
several threads, restart it on the same database, and check that every move a client saw
accepted, and every step any view showed, is still there, in the same order, with the same
text; then that the game goes on, bot seats by themselves, to its end.
"""

from __future__ import annotations

import json
import random
import secrets
import threading
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.web.services import Client, Server, hello, wait_for
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

RACE_LOST = {"stale_version", "not_your_turn", "finished"}  # another thread moved first


def end_turns(rng: random.Random, legal: list[dict[str, Any]]) -> dict[str, Any]:
    """Mostly end the turn when allowed: shorter games (Grand Bazaar: 150 moves, not 200;
    Mexica: the bot, inside the server, plays most of it), still random enough to race."""
    ends = [m for m in legal if m["text"] in ("end", "end turn")]
    return ends[0] if ends and rng.random() < 0.8 else rng.choice(legal)


class Seen:
    """Everything clients were shown, per viewer (step -> (seat, text)), and accepted moves."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.steps: dict[int | None, dict[int, tuple[int, str]]] = defaultdict(dict)
        self.accepted: list[tuple[int, int, str]] = []  # (seat, step, text)

    def view(self, viewer: int | None, view: dict[str, Any]) -> None:
        with self.lock:
            for entry in view["log"]:
                shown = (entry["seat"], entry["text"])
                old = self.steps[viewer].setdefault(entry["step"], shown)
                assert old == shown, f"step {entry['step']} was shown as {old}, now {shown}"

    def accept(self, seat: int, text: str, view: dict[str, Any]) -> None:
        """A 200 answer: its log starts at the step the move became, which must be the move."""
        step = view["log_from"]
        entry = {k: view["log"][0][k] for k in ("step", "seat", "text")}
        assert entry == {"step": step, "seat": seat, "text": text}, view["log"][:1]
        self.view(seat, view)
        with self.lock:
            self.accepted.append((seat, step, text))

    def count(self) -> int:
        with self.lock:
            return len(self.accepted)


class Players:
    """Threads that play the human seats through the JSON API until the game ends or the
    server dies. With several racers, two threads often answer the same version: one wins,
    the other gets a 409, which is how the server must resolve it."""

    def __init__(self, server: Server, game_id: str, tokens: dict[int, str], seen: Seen,
                 seed: int, racers: int = 2, watch: bool = True) -> None:
        self.server, self.game_id, self.tokens, self.seen = server, game_id, tokens, seen
        self.errors: list[BaseException] = []
        self.finished = threading.Event()
        self.threads = [threading.Thread(target=self._run, args=(seed + i,), daemon=True)
                        for i in range(racers)]
        if watch:
            self.threads.append(threading.Thread(target=self._watch, daemon=True))

    def __enter__(self) -> Players:
        for thread in self.threads:
            thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.join()

    def join(self, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        for thread in self.threads:
            thread.join(max(0.0, deadline - time.monotonic()))
        assert not any(t.is_alive() for t in self.threads), "a player thread is stuck"
        if self.errors:
            raise self.errors[0]

    def _run(self, seed: int) -> None:
        rng = random.Random(seed)
        client = Client(self.server)
        client.tokens = self.tokens
        seat, view = min(self.tokens), None
        try:
            while not self.finished.is_set():
                if view is None:
                    view = client.view(self.game_id, seat)
                    self.seen.view(seat, view)
                if view["status"] == "finished":
                    self.finished.set()
                    return
                if not view["legal"]:  # another seat's turn: perhaps another of ours
                    if view["to_move"] in self.tokens:
                        seat = view["to_move"]
                    else:
                        time.sleep(0.005)  # a bot's turn
                    view = None
                    continue
                move = end_turns(rng, view["legal"])
                answer = client.act(self.game_id, seat, move["id"], view["version"])
                view = None
                if answer.status_code == 200:
                    view = answer.json()  # the next view: legal moves if still our turn
                    self.seen.accept(seat, move["text"], view)
                else:
                    assert answer.status_code == 409, answer.text
                    assert answer.json()["error"] in RACE_LOST, answer.text
        except httpx.TransportError:
            pass  # the server was killed
        except BaseException as err:
            self.errors.append(err)
        finally:
            client.close()

    def _watch(self) -> None:
        """A spectator's WebSocket: views are broadcast only for stored steps."""
        try:
            with connect(self.server.ws_url(self.game_id), open_timeout=10) as ws:
                ws.send(hello())
                while not self.finished.is_set():
                    try:
                        message = json.loads(ws.recv(timeout=0.2))
                    except TimeoutError:
                        continue
                    if message["type"] == "view":
                        self.seen.view(None, message)
        except (ConnectionClosed, OSError):
            pass  # the server was killed
        except BaseException as err:
            self.errors.append(err)


def play_then_kill(server: Server, game_id: str, tokens: dict[int, str], seen: Seen,
                   rng: random.Random, moves: int) -> None:
    """Play until `moves` more moves are accepted, then SIGKILL the server mid-flight."""
    target = seen.count() + moves
    players = Players(server, game_id, tokens, seen, rng.randrange(1 << 30))
    with players:
        wait_for(lambda: seen.count() >= target or not players.threads[0].is_alive(), 30)
        time.sleep(rng.uniform(0, 0.02))  # so the kill lands in any phase of a request
        server.kill()
    assert not players.finished.is_set(), "the game ended before the kill; kill it sooner"


def check_restored(client: Client, game_id: str, seen: Seen) -> dict[str, Any]:
    """Every step shown before the crash is stored, as shown, for every viewer; the restarted
    server's spectator view (its whole log) is returned."""
    for viewer, steps in seen.steps.items():
        view = client.view(game_id, viewer)
        log = {e["step"]: (e["seat"], e["text"]) for e in view["log"]}
        assert view["version"] >= max(steps, default=-1) + 1
        lost = {s: shown for s, shown in steps.items() if log.get(s) != shown}
        assert not lost, f"steps shown to viewer {viewer} before the crash differ or are " \
                         f"lost after the restart: {lost}"
    for seat, step, text in seen.accepted:
        assert seen.steps[seat][step] == (seat, text)
    view = client.view(game_id)
    assert view["version"] >= len(seen.accepted)
    if seen.accepted:  # the replay up to the last accepted move has the same log
        last = max(step for _, step, _ in seen.accepted) + 1
        replay = client.http.get(f"/api/games/{game_id}/replay/{last}")
        assert replay.status_code == 200, replay.text
        assert replay.json()["log"] == view["log"][:last]
    return view


def check_finished(client: Client, game_id: str) -> None:
    view = client.view(game_id)
    assert view["status"] == "finished" and view["result"] is not None
    record = client.http.get(f"/api/games/{game_id}/record")
    assert record.status_code == 200, record.text
    assert len(record.json()["history"]) == view["version"]


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_sigkill_mid_game_loses_no_accepted_move(tmp_path: Path, backend: str,
                                                 servers: Callable[..., Server],
                                                 request: pytest.FixtureRequest) -> None:
    """Grand Bazaar, two human seats, two racing threads and a spectator's socket: killed
    (twice on SQLite, once on PostgreSQL: each restart costs a second), then played out."""
    db = (f"sqlite:///{tmp_path / 'games.db'}" if backend == "sqlite"
          else request.getfixturevalue("postgres_url"))
    seed = secrets.randbits(32)
    print(f"seed {seed}")  # the kill moments still vary with timing
    rng = random.Random(seed)
    seen = Seen()

    server = servers(db)
    client = Client(server)
    game_id = client.create("grand_bazaar", ["taken", "taken"], num_players=2)
    tokens = dict(client.tokens)
    client.close()
    for _ in range(2 if backend == "sqlite" else 1):
        play_then_kill(server, game_id, tokens, seen, rng, rng.randint(5, 40))
        server = servers(db)
        client = Client(server)
        client.tokens = tokens
        check_restored(client, game_id, seen)
        client.close()
    accepted = seen.count()
    with Players(server, game_id, tokens, seen, rng.randrange(1 << 30), 1, False):
        pass  # to the end
    assert seen.count() > accepted
    client = Client(server)
    client.tokens = tokens
    check_restored(client, game_id, seen)
    check_finished(client, game_id)
    client.close()
    server.stop()  # before the PostgreSQL schema is dropped


def test_bot_seat_plays_on_by_itself_after_a_crash(tmp_path: Path,
                                                   servers: Callable[..., Server]) -> None:
    """Mexica against a bot: killed mid-game, then killed while the bot waits to move; the
    restarted server moves the bot with no request to prompt it, and the game ends."""
    db = f"sqlite:///{tmp_path / 'games.db'}"
    seed = secrets.randbits(32)
    print(f"seed {seed}")
    rng = random.Random(seed)
    seen = Seen()
    human, bot = 0, 1

    # 1. Killed at a random moment while the human's moves and the bot's race.
    server = servers(db)
    client = Client(server)
    game_id = client.create("mexica", ["taken", "bot:random"], num_players=2)
    tokens = dict(client.tokens)
    client.close()
    play_then_kill(server, game_id, tokens, seen, rng, rng.randint(2, 6))

    # 2. Restarted with a slow bot: move until it is the bot's turn, then kill while it waits.
    server = servers(db, bot_delay=60)
    client = Client(server)
    client.tokens = tokens
    view = check_restored(client, game_id, seen)
    while view["to_move"] != bot:
        assert view["status"] == "running"
        view = client.view(game_id, human)
        move = end_turns(rng, view["legal"])
        answer = client.act(game_id, human, move["id"], view["version"])
        assert answer.status_code == 200, answer.text
        seen.accept(human, move["text"], answer.json())
        view = answer.json()
    client.close()
    server.kill()
    waiting = view["version"]

    # 3. Nobody sends anything: the restarted server must find the bot's turn itself.
    server = servers(db)
    client = Client(server)
    client.tokens = tokens
    check_restored(client, game_id, seen)

    def bot_moved() -> dict[str, Any] | None:
        view = client.view(game_id)
        done = view["to_move"] != bot or view["status"] == "finished"
        return view if view["version"] > waiting and done else None

    view = wait_for(bot_moved, 10, every=0.1)
    assert any(e["seat"] == bot for e in view["log"][waiting:])
    accepted = seen.count()
    with Players(server, game_id, tokens, seen, rng.randrange(1 << 30), 1, False):
        pass  # to the end
    assert seen.count() > accepted
    check_restored(client, game_id, seen)
    check_finished(client, game_id)
    client.close()
