"""Issue 33, points 1 and 4, against a real `tlatelolco serve` process on loopback.

1. Bot starvation: four all-bot games asking ten seconds a move filled the one bot worker, so
   a person's bot in another game did not move for over a minute and hints answered 503.
   Now jobs take turns per client and game, hints and games with a person go first, and a
   game of bots only thinks `idle_bot_time` (1 s) a move whoever created it.
2. Storage: finished games never expired and one address could store games without end. Now
   an address keeps at most N unfinished games and creates at most M a day, and finished
   games of bots only are deleted a day after they end.

A second client is a second address: loopback answers all of 127/8, so a client bound to
127.0.0.2 is somebody else to the server listening on 127.0.0.1.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import pytest
from tests.web.services import Server, wait_for

VICTIM = "127.0.0.2"  # another address than the attacker's 127.0.0.1
# a bot that takes all its 4 s: visits spread evenly (no prior, wide exploration), so the
# search never stops early for a settled choice
THINKS_4_S = "bot:mcts:time=4,c=10,prior=0"


@contextmanager
def client(server: Server, address: str = "127.0.0.1") -> Iterator[httpx.Client]:
    """An HTTP client of `server` whose requests come from `address`."""
    transport = httpx.HTTPTransport(local_address=address)
    with httpx.Client(base_url=server.url, transport=transport, timeout=30.0) as http:
        yield http


def create(http: httpx.Client, game: str, seats: list[str], **options: Any) -> dict[str, Any]:
    made = http.post("/api/games", json={"game": game, "options": options, "seats": seats})
    assert made.status_code == 201, made.text
    return dict(made.json())


def view(http: httpx.Client, game_id: str, token: str | None = None) -> dict[str, Any]:
    got = http.get(f"/api/games/{game_id}/view",
                   headers={"Authorization": f"Bearer {token}"} if token else {})
    assert got.status_code == 200, got.text
    return dict(got.json())


def my_turn(http: httpx.Client, game_id: str, token: str, timeout: float) -> dict[str, Any]:
    """The seat's view once it is to move (fails after `timeout` seconds)."""
    def ready() -> dict[str, Any] | None:
        seen = view(http, game_id, token)
        return seen if seen["legal"] else None
    return dict(wait_for(ready, timeout, every=0.1))


def move(http: httpx.Client, game_id: str, token: str, seen: dict[str, Any]) -> int:
    """Play the first legal move of `seen`; the game's version after it."""
    made = http.post(f"/api/games/{game_id}/actions",
                     headers={"Authorization": f"Bearer {token}"},
                     json={"action": seen["legal"][0]["id"], "version": seen["version"]})
    assert made.status_code == 200, made.text
    return int(made.json()["version"])


def bot_answer(http: httpx.Client, game_id: str, token: str, timeout: float) -> float:
    """Move, then the seconds until the bot has answered and it is our turn again."""
    seen = my_turn(http, game_id, token, timeout)
    started = time.monotonic()
    after = move(http, game_id, token, seen)

    def answered() -> bool:
        again = view(http, game_id, token)
        return again["version"] > after and bool(again["legal"])
    wait_for(answered, timeout, every=0.1)
    return time.monotonic() - started


@pytest.fixture
def start(tmp_path) -> Iterator[Any]:
    """`start(*args, quota=...)`: a server with one bot worker, no bot delay, no rate limits
    and the default quota, on this test's database (stopped at the end)."""
    started: list[Server] = []

    def run(*args: str, quota: str = "") -> Server:
        server = Server(f"sqlite:///{tmp_path / 'games.db'}", log=tmp_path / "server.log",
                        bot_workers=1, bot_delay=0.0, quota=quota, args=args)
        started.append(server)
        return server.start()

    try:
        yield run
    finally:
        for server in started:
            server.stop()


def test_four_all_bot_games_cannot_starve_another_clients_bot_or_hint(start):
    """The attack of issue 33: every seat `bot:mcts:time=10` in four Mexica games from one
    address. With one FIFO the victim's bot waited 40 s and more, and hints answered 503."""
    server = start()
    with client(server) as attacker, client(server, VICTIM) as victim:
        for _ in range(4):
            made = create(attacker, "mexica", ["bot:mcts:time=10"] * 4, num_players=4)
            bots = [p["bot"] for p in view(attacker, made["id"])["players"]]
            assert bots == ["mcts:time=1.0"] * 4  # a game of bots only gets the idle budget
        time.sleep(1.0)  # the worker is busy with the attacker's games
        budget = 2.0
        mine = create(victim, "axio", ["taken", f"bot:mcts:time={budget:g}"], num_players=2)
        game_id, token = mine["id"], mine["seats"][0]["token"]
        assert view(victim, game_id)["players"][1]["bot"] == f"mcts:time={budget:g}"
        waited = bot_answer(victim, game_id, token, 60.0)
        assert waited <= budget + 5.0, f"the victim's bot answered after {waited:.1f} s"
        started = time.monotonic()
        hint = victim.post(f"/api/games/{game_id}/hint",
                           headers={"Authorization": f"Bearer {token}"})
        took = time.monotonic() - started
        assert hint.status_code == 200, hint.text
        assert took <= 1.0 + 5.0, f"the hint answered after {took:.1f} s"
        assert server.alive()


def test_one_client_with_many_person_games_holds_another_clients_bot_back_one_job(start):
    """An attacker's four games against bots thinking 4 s, all to move at once: the victim's
    bot moves after the job running and at most one more of the attacker's (4 + 4 s), not
    after all four (16 s) as in a queue of arrival."""
    server = start()
    with client(server) as attacker, client(server, VICTIM) as victim:
        games = []
        for _ in range(4):
            made = create(attacker, "axio", ["taken", THINKS_4_S], num_players=2)
            games.append((made["id"], made["seats"][0]["token"]))
        mine = create(victim, "axio", ["taken", "bot:mcts:time=1"], num_players=2)
        game_id, token = mine["id"], mine["seats"][0]["token"]
        seen = my_turn(victim, game_id, token, 10.0)  # the person moves first in Axio
        for other_id, other_token in games:
            move(attacker, other_id, other_token, my_turn(attacker, other_id, other_token, 10.0))
        started = time.monotonic()
        after = move(victim, game_id, token, seen)

        def answered() -> bool:
            again = view(victim, game_id, token)
            return again["version"] > after and bool(again["legal"])
        wait_for(answered, 30.0, every=0.1)
        waited = time.monotonic() - started
        assert waited <= 4 + 4 + 1 + 4.0, f"the victim's bot answered after {waited:.1f} s"


def test_the_quota_refuses_the_games_over_it_and_says_when_it_frees_up(start):
    server = start(quota="games=2,daily=3")
    with client(server) as first, client(server, VICTIM) as second:
        for _ in range(2):
            create(first, "axio", ["taken", "open"], num_players=2)
        refused = first.post("/api/games", json={"game": "axio", "options": {"num_players": 2},
                                                 "seats": ["taken", "open"]})
        assert refused.status_code == 429 and refused.json()["error"] == "quota"
        assert "2 unfinished games" in refused.json()["message"]
        assert "at most 2" in refused.json()["message"]
        assert "frees up when one ends" in refused.json()["message"]
        # games of bots only finish at once: they count against the day, not the stored
        for _ in range(3):
            game_id = create(second, "axio", ["bot:random", "bot:random"], num_players=2)["id"]
            wait_for(lambda g=game_id: view(second, g)["status"] == "finished", 20.0)
        daily = second.post("/api/games", json={"game": "axio", "options": {"num_players": 2},
                                                "seats": ["taken", "open"]})
        assert daily.status_code == 429 and daily.json()["error"] == "quota"
        message = daily.json()["message"]
        assert "3 games in the last 24 hours" in message and "at most 3" in message
        assert "can be created in 23 h" in message or "can be created in 24 h" in message
        assert 23 * 3600 < int(daily.headers["Retry-After"]) <= 24 * 3600
    server.stop()
    server = start(quota="games=2,daily=3")  # counted from the database: it holds still
    with client(server) as first:
        again = first.post("/api/games", json={"game": "axio", "options": {"num_players": 2},
                                               "seats": ["taken", "open"]})
        assert again.status_code == 429 and again.json()["error"] == "quota"
    with client(server, "127.0.0.3") as third:  # somebody else is not held back
        create(third, "axio", ["taken", "open"], num_players=2)


def test_a_finished_game_of_bots_only_expires_and_a_game_a_person_played_stays(start):
    expire = ("--expire-bot-days", "0.00002")  # 1.7 s
    server = start(*expire)
    with client(server) as http:
        bots = create(http, "axio", ["bot:random", "bot:random"], num_players=2)["id"]
        wait_for(lambda: view(http, bots)["status"] == "finished", 20.0)
        mine = create(http, "axio", ["taken", "bot:random"], num_players=2)
        game_id, token = mine["id"], mine["seats"][0]["token"]

        def play_on() -> bool:  # our moves, the bot's answers, to the end
            seen = view(http, game_id, token)
            if seen["status"] == "finished":
                return True
            if seen["legal"]:
                move(http, game_id, token, seen)
            return False
        wait_for(play_on, 30.0, every=0.05)
    server.stop()
    time.sleep(2.0)  # both are now finished for longer than the bot games are kept
    server = start(*expire)  # the sweep runs at start, then every half hour
    with client(server) as http:
        wait_for(lambda: http.get(f"/api/games/{bots}/view").status_code == 404, 10.0)
        assert view(http, game_id)["status"] == "finished"
        assert http.get(f"/api/games/{game_id}/record").status_code == 200
