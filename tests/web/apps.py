"""An in-process server for API and WebSocket tests, and small helpers to drive it."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from tlatelolco.web import Settings, create_app


@contextmanager
def serve(tmp_path: Path, **settings: Any) -> Iterator[TestClient]:
    """A TestClient on a fresh SQLite database, bots in threads and without delay."""
    options = {"db": f"sqlite:///{tmp_path / 'web.db'}", "bot_workers": 0, "bot_delay": 0.0,
               "redis": None, **settings}
    with TestClient(create_app(Settings(**options))) as client:
        yield client


def create(client: TestClient, game: str, seats: list[str], **options: Any) -> dict[str, Any]:
    response = client.post("/api/games", json={"game": game, "options": options,
                                               "seats": seats})
    assert response.status_code == 201, response.text
    return response.json()


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
               "redis": None, **settings}
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
