"""Several accounts on one test server, and games between them played to the end.

A TestClient keeps one cookie jar; each account here keeps its own session cookie instead,
sent as a header, so that one client can act for several people.
"""

from __future__ import annotations

import random
import time
from typing import Any

from tests.web.accounts import same_origin, signup
from tests.web.apps import wait_for

from tlatelolco.web.accounts.identity import SESSION_COOKIE


def person(client: Any, name: str, **fields: Any) -> dict[str, str]:
    """A new account named `name`: the headers of its requests (its session cookie). The
    client's own jar stays empty, and its requests name this server as their Origin."""
    signup(client, name, **fields)
    session = client.cookies.get(SESSION_COOKIE)
    client.cookies.clear()
    same_origin(client)
    return {"Cookie": f"{SESSION_COOKIE}={session}"}


def create(client: Any, who: dict[str, str] | None, game: str, seats: list[str],
           **options: Any) -> dict[str, Any]:
    response = client.post("/api/games", headers=who or {},
                           json={"game": game, "options": options, "seats": seats})
    assert response.status_code == 201, response.text
    return dict(response.json())


def join(client: Any, who: dict[str, str], game_id: str, seat: int) -> None:
    response = client.post(f"/api/games/{game_id}/join", headers=who, json={"seat": seat})
    assert response.status_code == 200, response.text


def view(client: Any, game_id: str, who: dict[str, str]) -> dict[str, Any]:
    response = client.get(f"/api/games/{game_id}/view", headers=who)
    assert response.status_code == 200, response.text
    return dict(response.json())


def move(client: Any, game_id: str, who: dict[str, str], rng: random.Random) -> bool:
    """Play one random legal move for `who` if it is their turn; whether it was."""
    current = view(client, game_id, who)
    if not current["legal"]:
        return False
    response = client.post(f"/api/games/{game_id}/actions", headers=who, json={
        "version": current["version"], "action": rng.choice(current["legal"])["id"]})
    assert response.status_code == 200, response.text
    return True


def play_out(client: Any, game_id: str, people: list[dict[str, str]], seed: int = 0,
             timeout: float = 120.0) -> dict[str, Any]:
    """Random legal moves for each of `people` on their turns (bots move by themselves)
    until the game is over; its summary."""
    rng = random.Random(seed)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        summary = client.get(f"/api/games/{game_id}").json()
        if summary["status"] == "finished":
            return dict(summary)
        if not any([move(client, game_id, who, rng) for who in people]):
            time.sleep(0.01)  # a bot's turn
    raise AssertionError(f"game {game_id} did not end in {timeout} s")


def profile(client: Any, name: str, who: dict[str, str] | None = None,
            lang: str = "en") -> dict[str, Any]:
    response = client.get(f"/api/players/{name}", params={"lang": lang}, headers=who or {})
    assert response.status_code == 200, response.text
    return dict(response.json())


def rated(client: Any, name: str, game: str, times: int = 1) -> dict[str, Any]:
    """`name`'s profile once `game` was rated `times` times for them (the rating runs after
    the last move, in its own task)."""
    def done() -> dict[str, Any] | None:
        found = profile(client, name)
        entry = found["games"].get(game)
        return found if entry and entry["rated"] >= times else None
    return dict(wait_for(done, timeout=30, what=f"{name}'s {game} rating"))
