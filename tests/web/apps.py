"""An in-process server for API and WebSocket tests, and small helpers to drive it."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from tlatelolco.web import Settings, create_app
from tlatelolco.web.http.limits import RateLimits
from tlatelolco.web.play.quota import Quota

NO_LIMITS = RateLimits(creates=0, joins=0, hints=0, sockets=0,  # tests create many games
                       logins=0, name_logins=0, signups=0)  # and accounts
NO_QUOTA = Quota(games=0, daily=0)  # and keep them


@contextmanager
def serve(tmp_path: Path, **settings: Any) -> Iterator[TestClient]:
    """A TestClient on a fresh SQLite database, bots in threads and without delay."""
    options = {"db": f"sqlite:///{tmp_path / 'web.db'}", "bot_workers": 0, "bot_delay": 0.0,
               "redis": None, "rate_limits": NO_LIMITS, "quota": NO_QUOTA, **settings}
    with TestClient(create_app(Settings(**options))) as client:
        yield client


def create(client: TestClient, game: str, seats: list[str], **options: Any) -> dict[str, Any]:
    response = client.post("/api/games", json={"game": game, "options": options,
                                               "seats": seats})
    assert response.status_code == 201, response.text
    return response.json()


def claim(client: TestClient, game: dict[str, Any], seat: int, name: str | None = None
          ) -> str:
    """Take open `seat` of a created `game` with its invite; the seat's new credential."""
    invite = game["seats"][seat]["invite"]
    response = client.post(f"/api/games/{game['id']}/claim", headers=auth(invite),
                           json={"name": name})
    assert response.status_code == 200, response.text
    return str(response.json()["token"])


def hello(token: str | None) -> dict[str, Any]:
    """The first WebSocket message: the credential (None: a spectator)."""
    return {"type": "hello", "token": token}


@contextmanager
def socket(client: TestClient, game_id: str, token: str | None = None) -> Iterator[Any]:
    """A WebSocket to `game_id` that has said hello with `token` (None: a spectator)."""
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        ws.send_json(hello(token))
        yield ws


def auth(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def view(client: TestClient, game_id: str, token: str | None = None) -> dict[str, Any]:
    response = client.get(f"/api/games/{game_id}/view", headers=auth(token))
    assert response.status_code == 200, response.text
    return response.json()


def wait_for(predicate: Any, timeout: float = 30.0, what: str = "the condition") -> Any:
    """Poll `predicate` until it returns something truthy (bots move on their own)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.01)
    raise AssertionError(f"timed out waiting for {what}")


def my_turn(client: TestClient, game_id: str, token: str) -> dict[str, Any] | None:
    """The seat's view once it is its turn, or the final view; None while others move."""
    current = view(client, game_id, token)
    return current if current["legal"] or current["status"] == "finished" else None


@contextmanager
def live_server(tmp_path: Path, **settings: Any) -> Iterator[str]:
    """A real HTTP server (uvicorn in a thread of this process); yields its base URL."""
    import socket
    import threading

    import uvicorn

    options = {"db": f"sqlite:///{tmp_path / 'live.db'}", "bot_workers": 0, "bot_delay": 0.0,
               "redis": None, "rate_limits": NO_LIMITS, "quota": NO_QUOTA, **settings}
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(Settings(**options)), host="127.0.0.1",
                                           port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    wait_for(lambda: server.started, timeout=30, what="the server to start")
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
