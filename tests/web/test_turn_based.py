"""Turn-based games through the API: a clock per turn, checked by the server's clock task.

A game is created with `speed`, `move_time` and `on_timeout`; its clock shows in summaries and
views; a person out of time gets the table's consequence (a bot plays the turn, the seat is
dropped at the third timeout, or it forfeits); the clock never runs in live games, while the
game waits for players or while bots move; the deadline lives in the database, so a restarted
server enforces it; and two processes never apply one timeout twice.

Waiting for a long clock to run out is replaced by moving the turn's start back in the
database, as if the time had passed (`age`); the clock task itself is real and finds it there.
A few tests run real one- to three-second clocks (`min_move_time=1`).
"""

from __future__ import annotations

import datetime as dt
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, update
from tests.web.apps import auth, serve, view, wait_for

from tlatelolco.records import replay_record
from tlatelolco.web.play.clocks import utc
from tlatelolco.web.play.service import Change, Service
from tlatelolco.web.storage.db import games, leavers, make_engine, seats, upgrade
from tlatelolco.web.storage.store import Store

HOUR = 3600
CLOCK_KEYS = {"speed", "move_time", "on_timeout", "seat", "started_at", "deadline", "timeouts",
              "forfeited"}


@contextmanager
def server(tmp_path: Path, **settings: Any) -> Iterator[TestClient]:
    """A server whose clock task looks every tenth of a second, allowing one-second turns."""
    with serve(tmp_path, min_move_time=1, clock_check=0.1, **settings) as client:
        yield client


def turn_game(client: TestClient, seats: list[str], move_time: int = HOUR,
              on_timeout: str | None = "bot", game: str = "grand_bazaar",
              players: int | None = None, **extra: Any) -> dict[str, Any]:
    body = {"game": game, "options": {"num_players": players or len(seats)}, "seats": seats,
            "speed": "turn", "move_time": move_time, **extra}
    if on_timeout is not None:
        body["on_timeout"] = on_timeout
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def store_of(client: TestClient) -> Store:
    return client.app.state.hub.service.store  # type: ignore[attr-defined, no-any-return]


def stored_clock(store: Store, game_id: str) -> tuple[int | None, dt.datetime | None]:
    row = store.load_game(game_id, with_history=False)
    assert row is not None
    return row.turn_seat, utc(row.turn_started_at)


def age(store: Store, game_id: str) -> tuple[int, dt.datetime]:
    """Move the running clock's start back past its deadline, as if the whole move time had
    gone by; (seat, the new start)."""
    row = store.load_game(game_id, with_history=False)
    assert row is not None and row.turn_seat is not None and row.move_time
    started = utc(row.turn_started_at) - dt.timedelta(seconds=row.move_time + 1)
    with store.engine.begin() as db:
        db.execute(update(games).where(games.c.id == game_id).values(turn_started_at=started))
    return row.turn_seat, started


def clock_runs(client: TestClient, game_id: str, seat: int | None = None) -> dict[str, Any]:
    """The game's summary once a person's clock runs (`seat`'s, when given)."""
    def running() -> dict[str, Any] | None:
        found = client.get(f"/api/games/{game_id}").json()
        clock = found["clock"]
        ok = clock["seat"] is not None and (seat is None or clock["seat"] == seat)
        return found if ok else None
    return wait_for(running, what="a person's clock to run")  # type: ignore[no-any-return]


def checked_clock(clock: dict[str, Any], move_time: int, on_timeout: str, n: int
                  ) -> None:
    """That `clock` has the contract's shape, its deadline `move_time` after its start."""
    assert set(clock) == CLOCK_KEYS
    assert (clock["speed"], clock["move_time"], clock["on_timeout"]) == ("turn", move_time,
                                                                         on_timeout)
    assert len(clock["timeouts"]) == len(clock["forfeited"]) == n
    if clock["seat"] is not None:
        started = dt.datetime.fromisoformat(clock["started_at"])
        due = dt.datetime.fromisoformat(clock["deadline"])
        assert started.utcoffset() == due.utcoffset() == dt.timedelta(0)  # offset written out
        assert due - started == dt.timedelta(seconds=move_time)


# --- creating, and the clock in summaries and views ------------------------------------------

def test_a_turn_based_game_shows_its_clock_in_summaries_and_views(tmp_path):
    with server(tmp_path) as client:
        created = turn_game(client, ["taken", "taken"], move_time=2 * HOUR, on_timeout="drop")
        game_id, token = created["id"], created["seats"][0]["token"]
        checked_clock(created["clock"], 2 * HOUR, "drop", 2)
        summary = client.get(f"/api/games/{game_id}").json()
        assert summary["clock"] == created["clock"]
        listed = next(g for g in client.get("/api/games").json() if g["id"] == game_id)
        assert listed["clock"] == created["clock"]
        seen = view(client, game_id, token)
        assert seen["clock"] == created["clock"]
        # the clock is that of the seat to move, and runs from about now
        assert seen["clock"]["seat"] == seen["to_move"]
        started = dt.datetime.fromisoformat(seen["clock"]["started_at"])
        assert abs((dt.datetime.now(dt.UTC) - started).total_seconds()) < 30
        assert seen["clock"]["timeouts"] == [0, 0]
        assert seen["clock"]["forfeited"] == [False, False]
        assert view(client, game_id)["clock"] == created["clock"]  # a spectator's too
        with client.websocket_connect(f"/ws/games/{game_id}") as ws:
            ws.send_json({"type": "hello", "token": token})
            assert ws.receive_json()["clock"] == created["clock"]
        # a move: the next seat's clock starts, the first one's stops
        mover = seen["to_move"]
        me = created["seats"][mover]["token"]
        moved = client.post(f"/api/games/{game_id}/actions", headers=auth(me), json={
            "version": seen["version"], "action": view(client, game_id, me)["legal"][0]["id"]})
        assert moved.status_code == 200, moved.text
        after = moved.json()["clock"]
        checked_clock(after, 2 * HOUR, "drop", 2)
        if after["seat"] is not None and after["seat"] != mover:
            assert after["started_at"] > seen["clock"]["started_at"]


def test_a_live_game_has_no_clock_and_is_never_timed(tmp_path):
    with server(tmp_path) as client:
        response = client.post("/api/games", json={
            "game": "grand_bazaar", "options": {"num_players": 2}, "seats": ["taken", "taken"]})
        assert response.status_code == 201, response.text
        created = response.json()
        game_id = created["id"]
        assert created["clock"] is None
        assert client.get(f"/api/games/{game_id}").json()["clock"] is None
        assert view(client, game_id)["clock"] is None
        store = store_of(client)
        assert stored_clock(store, game_id) == (None, None)
        assert all(clock[0] != game_id for clock in store.running_clocks())
        # an hour-old game without a move: still nobody's time runs out
        with store.engine.begin() as db:
            db.execute(update(games).where(games.c.id == game_id).values(
                updated_at=dt.datetime.now(dt.UTC) - dt.timedelta(hours=1)))
        time.sleep(0.5)  # five looks of the clock task
        seen = view(client, game_id)
        assert seen["version"] == view(client, game_id)["version"]
        with store.engine.connect() as db:
            assert db.execute(select(seats.c.timeouts).where(seats.c.game_id == game_id)
                              ).scalars().all() == [0, 0]


def test_the_clock_waits_for_players(tmp_path):
    with server(tmp_path) as client:
        created = turn_game(client, ["taken", "open"])
        game_id = created["id"]
        assert created["status"] == "open"
        assert created["clock"]["seat"] is None and created["clock"]["deadline"] is None
        assert stored_clock(store_of(client), game_id) == (None, None)
        claimed = client.post(f"/api/games/{game_id}/claim",
                              headers=auth(created["seats"][1]["invite"]), json={"name": "Bo"})
        assert claimed.status_code == 200, claimed.text
        clock = client.get(f"/api/games/{game_id}").json()["clock"]
        assert clock["seat"] == view(client, game_id)["to_move"]  # the table is full: it runs
        left = client.post(f"/api/games/{game_id}/leave", headers=auth(claimed.json()["token"]))
        assert left.status_code == 200, left.text
        assert left.json()["status"] == "open"
        assert left.json()["clock"]["seat"] is None  # a seat opened: the clock stopped
        assert stored_clock(store_of(client), game_id) == (None, None)


def test_the_clock_does_not_run_while_bots_or_chance_move(tmp_path):
    engine = make_engine(f"sqlite:///{tmp_path / 'bots.db'}")
    upgrade(engine)
    service = Service(Store(engine))  # no hub: the bot moves only when told to
    row, tokens, _ = service.create("grand_bazaar", {"num_players": 2},
                                    ["bot:random", "taken"], "Ana", True, speed="turn",
                                    move_time=HOUR)
    seen = set()
    for _ in range(40):
        live = service.live(row.id)
        to_move = live.state.current_player()
        clock = (live.row.turn_seat, live.row.turn_started_at)
        assert service.store.load_game(row.id, with_history=False).turn_seat == clock[0]
        if to_move == 0:  # the bot's turn: no clock
            assert clock == (None, None)
            turn = service.bot_turn(row.id)
            assert turn is not None
            service.bot_act(row.id, 0, live.state.legal_actions()[0], live.version)
        else:
            assert clock[0] == 1 and clock[1] is not None
            service.act(row.id, tokens[1], live.state.legal_actions()[0], None, live.version)
        seen.add(to_move)
    assert seen == {0, 1}
    engine.dispose()


# --- hostile input ---------------------------------------------------------------------------

CLOCK_REFUSED = [
    ({"speed": "turn"}, "bad_clock", "needs move_time"),
    ({"speed": "turn", "move_time": 0}, "bad_clock", "from 60 to 1209600"),
    ({"speed": "turn", "move_time": -3600}, "bad_clock", "from 60 to 1209600"),
    ({"speed": "turn", "move_time": 59}, "bad_clock", "from 60 to 1209600"),
    ({"speed": "turn", "move_time": 1_209_601}, "bad_clock", "from 60 to 1209600"),
    ({"speed": "turn", "move_time": 10**30}, "bad_clock", "from 60 to 1209600"),
    ({"speed": "turn", "move_time": 3600.5}, "malformed", "move_time"),
    ({"speed": "turn", "move_time": 3600.0}, "malformed", "move_time"),
    ({"speed": "turn", "move_time": "3600"}, "malformed", "move_time"),
    ({"speed": "turn", "move_time": True}, "malformed", "move_time"),
    ({"speed": "turn", "move_time": [3600]}, "malformed", "move_time"),
    ({"speed": "turn", "move_time": 3600, "on_timeout": "nap"}, "malformed", "on_timeout"),
    ({"speed": "turn", "move_time": 3600, "on_timeout": "x" * 10_000}, "malformed",
     "on_timeout"),
    ({"speed": "turn", "move_time": 3600, "on_timeout": 1}, "malformed", "on_timeout"),
    ({"speed": "blitz", "move_time": 3600}, "malformed", "speed"),
    ({"speed": None}, "malformed", "speed"),
    ({"speed": "live", "move_time": 3600}, "bad_clock", "for turn-based games"),
    ({"move_time": 3600}, "bad_clock", "for turn-based games"),
    ({"on_timeout": "lose"}, "bad_clock", "for turn-based games"),
    ({"speed": "turn", "move_time": 3600, "deadline": "2030-01-01"}, "malformed", "deadline"),
]


@pytest.mark.parametrize(("fields", "code", "words"), CLOCK_REFUSED)
def test_hostile_clock_fields_are_refused_saying_what_is_allowed(tmp_path, fields, code, words):
    with serve(tmp_path) as client:  # the default shortest turn: a minute
        response = client.post("/api/games", json={
            "game": "grand_bazaar", "options": {"num_players": 2}, "seats": ["taken", "taken"],
            **fields})
        assert response.status_code == 422, response.text
        body = response.json()
        assert body["error"] == code
        assert words in body["message"]
        assert len(body["message"]) < 1000
        assert client.get("/api/games").json() == []  # nothing was made
        assert client.get("/healthz").status_code == 200


def test_a_number_too_long_to_read_as_move_time_is_a_clear_4xx(tmp_path):
    with serve(tmp_path) as client:
        for digits, status in ((400, 422), (5000, 400)):  # Python reads at most 4300 digits
            text = ('{"game": "grand_bazaar", "options": {"num_players": 2}, "speed": "turn", '
                    '"move_time": ' + "9" * digits + "}")
            response = client.post("/api/games", content=text,
                                   headers={"Content-Type": "application/json"})
            assert response.status_code == status, response.text
            assert len(response.json()["message"]) < 300
        assert client.get("/api/games").json() == []
        assert client.get("/healthz").status_code == 200


def test_the_longest_turn_is_accepted(tmp_path):
    with serve(tmp_path) as client:
        created = turn_game(client, ["taken", "taken"], move_time=14 * 86_400, on_timeout=None)
        checked_clock(created["clock"], 1_209_600, "bot", 2)  # "bot" by default


# --- what a timeout brings -------------------------------------------------------------------

def test_bot_mode_a_bot_plays_the_turn_and_the_person_keeps_the_seat(tmp_path):
    with server(tmp_path) as client:
        hub = client.app.state.hub
        told: list[Change] = []

        async def listener(change: Change) -> None:
            told.append(change)
        hub.listeners.append(listener)
        created = turn_game(client, ["taken", "bot:random"], on_timeout="bot")
        game_id, token = created["id"], created["seats"][0]["token"]
        before = clock_runs(client, game_id, 0)
        version = view(client, game_id, token)["version"]
        store = store_of(client)
        age(store, game_id)
        after = wait_for(lambda: (lambda v: v if v["clock"]["timeouts"][0] == 1 else None)(
            view(client, game_id, token)), what="the timeout")
        assert after["version"] > version  # the game moved on
        played = [e for e in after["log"] if e["step"] >= version and e["seat"] == 0]
        assert played, "a bot played seat 1's turn"
        assert after["viewer"] == 0  # the person keeps the seat (and the credential works)
        assert after["players"][0]["kind"] == "human"
        assert after["clock"]["forfeited"] == [False, False]
        assert after["clock"]["timeouts"] == [1, 0]
        assert any(c.game_id == game_id and c.version > version for c in told)  # listeners
        # the next turn of the person has a fresh clock, and a move in time is taken
        mine = wait_for(lambda: (lambda v: v if v["legal"] else None)(
            view(client, game_id, token)), what="the person's next turn")
        assert mine["clock"]["seat"] == 0
        assert mine["clock"]["started_at"] > before["clock"]["started_at"]
        assert dt.datetime.fromisoformat(mine["clock"]["deadline"]) > dt.datetime.now(dt.UTC)
        moved = client.post(f"/api/games/{game_id}/actions", headers=auth(token),
                            json={"version": mine["version"], "action": mine["legal"][0]["id"]})
        assert moved.status_code == 200, moved.text
        assert moved.json()["clock"]["timeouts"] == [1, 0]
        assert hub.clock.applied == 1


def signup(client: TestClient, name: str) -> dict[str, Any]:
    response = client.post("/api/account/signup", json={"name": name, "password": "a long "
                                                         "password 1"},
                           headers={"Origin": "http://testserver"})
    assert response.status_code == 201, response.text
    return response.json()["user"]  # type: ignore[no-any-return]


def test_drop_mode_the_third_timeout_gives_the_seat_to_a_bot(tmp_path):
    with server(tmp_path) as client:
        user = signup(client, "Dora")
        response = client.post("/api/games", headers={"Origin": "http://testserver"}, json={
            "game": "grand_bazaar", "options": {"num_players": 2},
            "seats": ["taken", "bot:random"], "speed": "turn", "move_time": HOUR,
            "on_timeout": "drop"})
        assert response.status_code == 201, response.text
        game_id = response.json()["id"]
        store = store_of(client)
        for n in (1, 2):
            clock_runs(client, game_id, 0)
            age(store, game_id)
            seen = wait_for(lambda n=n: (lambda g: g if g["clock"]["timeouts"][0] == n
                                         else None)(client.get(f"/api/games/{game_id}").json()),
                            what=f"timeout {n}")
            assert seen["seats"][0]["kind"] == "human"  # still Dora's
            assert seen["seats"][0]["name"] == "Dora"
            assert store.load_seats(game_id)[0].user_id == user["id"]
        clock_runs(client, game_id, 0)
        age(store, game_id)
        dropped = wait_for(lambda: (lambda g: g if g["seats"][0]["kind"] == "bot" else None)(
            client.get(f"/api/games/{game_id}").json()), what="the seat to go to a bot")
        assert dropped["clock"]["timeouts"][0] == 3
        assert dropped["seats"][0]["bot"] == "greedy"
        assert dropped["seats"][0]["name"] == "Medium bot"
        held = store.load_seats(game_id)[0]
        assert (held.user_id, held.token_hash) == (None, None)  # no longer hers
        with store.engine.connect() as db:
            noted = db.execute(select(leavers.c.user_id, leavers.c.seat).where(
                leavers.c.game_id == game_id)).all()
        assert noted == [(user["id"], 0)]  # rated as a leaver
        assert client.get(f"/api/games/{game_id}/view").json()["viewer"] is None
        # the bots play it on; nobody's clock runs any more
        wait_for(lambda: client.get(f"/api/games/{game_id}").json()["status"] == "finished",
                 timeout=120, what="the bots to finish the game")
        assert client.get(f"/api/games/{game_id}").json()["clock"]["seat"] is None


def test_lose_mode_in_a_game_of_two_ends_it_at_once(tmp_path):
    with server(tmp_path) as client:
        created = turn_game(client, ["taken", "bot:random"], on_timeout="lose")
        game_id, token = created["id"], created["seats"][0]["token"]
        clock_runs(client, game_id, 0)
        version = view(client, game_id, token)["version"]
        age(store_of(client), game_id)
        over = wait_for(lambda: (lambda v: v if v["status"] == "finished" else None)(
            view(client, game_id, token)), what="the forfeit")
        assert over["version"] == version  # nothing was played: it ended there
        assert over["result"]["forfeit"] == 0
        assert over["result"]["forfeited"] == [0]
        assert over["result"]["returns"] == [0.0, 1.0]
        assert over["clock"]["seat"] is None
        assert over["clock"]["forfeited"] == [True, False]
        assert over["clock"]["timeouts"] == [1, 0]
        summary = client.get(f"/api/games/{game_id}").json()
        assert summary["status"] == "finished" and summary["result"] == over["result"]
        listed = client.get("/api/games", params={"status": "finished"}).json()
        assert [g["winners"] for g in listed if g["id"] == game_id] == [["Easy bot"]]
        # the record, the replay and the review answer sensibly for it
        record = client.get(f"/api/games/{game_id}/record")
        assert record.status_code == 200, record.text
        assert record.json()["result"] == over["result"]
        assert replay_record(record.json()).history() == record.json()["history"]
        last = client.get(f"/api/games/{game_id}/replay/{version}").json()
        assert last["status"] == "finished" and last["result"] == over["result"]
        first = client.get(f"/api/games/{game_id}/replay/0").json()
        assert first["status"] == "running" and first["result"] is None
        review = client.post(f"/api/games/{game_id}/review")
        assert review.status_code == 409 and review.json()["error"] == "forfeited", review.text
        late = client.post(f"/api/games/{game_id}/actions", headers=auth(token),
                           json={"version": version, "action": over["legal"][0]["id"]
                                 if over["legal"] else 0})
        assert late.status_code == 409 and late.json()["error"] == "finished"
        again = client.post(f"/api/games/{game_id}/rematch", headers=auth(token))
        assert again.status_code == 200, again.text
        fresh = client.get(f"/api/games/{again.json()['game_id']}").json()
        assert fresh["clock"]["timeouts"] == [0, 0]
        assert fresh["clock"]["forfeited"] == [False, False]


def test_lose_mode_with_three_players_a_bot_plays_the_seat_on_and_it_ranks_last(tmp_path):
    with server(tmp_path) as client:
        created = turn_game(client, ["taken", "bot:random", "bot:random"], on_timeout="lose")
        game_id, token = created["id"], created["seats"][0]["token"]
        clock_runs(client, game_id, 0)
        age(store_of(client), game_id)
        forfeited = wait_for(lambda: (lambda v: v if v["clock"]["forfeited"][0] else None)(
            view(client, game_id, token)), what="the forfeit")
        assert forfeited["viewer"] == 0  # the person still watches from the seat
        assert forfeited["players"][0]["kind"] == "human"
        over = wait_for(lambda: (lambda v: v if v["status"] == "finished" else None)(
            view(client, game_id, token)), timeout=120, what="the bots to finish the game")
        assert over["result"]["forfeited"] == [0]
        assert over["result"]["returns"][0] == 0.0
        assert sum(over["result"]["returns"]) == pytest.approx(1.0)
        assert "forfeit" not in over["result"]  # the rules ended this one
        assert over["clock"]["timeouts"] == [1, 0, 0]  # timed once: then a bot played it
        record = client.get(f"/api/games/{game_id}/record").json()
        assert record["result"] == over["result"]
        assert replay_record(record).is_terminal()


def test_a_forfeited_seat_may_not_move_itself_and_a_late_move_is_refused(tmp_path):
    engine = make_engine(f"sqlite:///{tmp_path / 'late.db'}")
    upgrade(engine)
    service = Service(Store(engine))
    row, tokens, _ = service.create("grand_bazaar", {"num_players": 3},
                                    ["taken", "taken", "taken"], "Ana", True, speed="turn",
                                    move_time=HOUR, on_timeout="lose")
    live = service.live(row.id)
    seat, started = age(service.store, row.id)
    service.refresh(live, seats=True)  # as if the hour had passed with the game in memory
    with pytest.raises(Exception) as late:  # the deadline passed: the move comes too late
        service.act(row.id, tokens[seat], live.state.legal_actions()[0], None, live.version)
    assert (late.value.status, late.value.code) == (409, "out_of_time")  # type: ignore[attr-defined]
    assert "ran out" in late.value.message  # type: ignore[attr-defined]
    assert service.time_out(row.id, seat, started) is not None
    live = service.live(row.id)
    assert live.row.seats[seat].forfeited and live.state.current_player() != seat
    for _ in range(200):  # the others play on until the forfeited seat is to move again
        to_move = live.state.current_player()
        if to_move == seat:
            break
        service.act(row.id, tokens[to_move], live.state.legal_actions()[0], None, live.version)
    assert live.state.current_player() == seat
    assert live.row.turn_seat is None  # a bot plays it: no clock
    with pytest.raises(Exception) as refused:
        service.act(row.id, tokens[seat], live.state.legal_actions()[0], None, live.version)
    assert (refused.value.status, refused.value.code) == (409, "forfeited")  # type: ignore[attr-defined]
    assert service.bot_turn(row.id) is not None  # the server's bot plays it instead
    with pytest.raises(Exception) as kept:  # left, it would open and stop the game
        service.leave(row.id, tokens[seat])
    assert (kept.value.status, kept.value.code) == (409, "forfeited")  # type: ignore[attr-defined]
    assert service.live(row.id).row.seats[seat].forfeited
    engine.dispose()


# --- durability and many processes -----------------------------------------------------------

def test_the_deadline_survives_a_restart_and_is_enforced_after_it(tmp_path):
    options = {"db": f"sqlite:///{tmp_path / 'kept.db'}"}
    with server(tmp_path, **options) as client:
        created = turn_game(client, ["taken", "taken"], move_time=3)
        game_id = created["id"]
        before = client.get(f"/api/games/{game_id}").json()["clock"]
        assert before["seat"] is not None
    # the first server is gone; a second one starts on the same database, in time
    with server(tmp_path, **options) as client:
        kept = client.get(f"/api/games/{game_id}").json()["clock"]
        if kept["timeouts"] == [0, 0]:  # (its deadline had not passed yet)
            assert (kept["seat"], kept["started_at"], kept["deadline"]) == (
                before["seat"], before["started_at"], before["deadline"])
        timed = wait_for(lambda: (lambda c: c if c["timeouts"][before["seat"]] == 1 else None)(
            client.get(f"/api/games/{game_id}").json()["clock"]), what="the timeout")
        assert dt.datetime.now(dt.UTC) >= dt.datetime.fromisoformat(before["deadline"])
        assert timed["seat"] != before["seat"] or timed["started_at"] != before["started_at"]
        next_seat = timed["seat"]
    # the server stops again and stays down past the next deadline: at start it applies it
    due = dt.datetime.fromisoformat(timed["deadline"])
    time.sleep(max(0.0, (due - dt.datetime.now(dt.UTC)).total_seconds()) + 0.5)
    with server(tmp_path, **options) as client:
        late = wait_for(lambda: (lambda c: c if c["timeouts"][next_seat] >= 1 + (
            next_seat == before["seat"]) else None)(
            client.get(f"/api/games/{game_id}").json()["clock"]), what="the late timeout")
        assert sum(late["timeouts"]) == 2


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request, tmp_path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'shared.db'}"
    return request.getfixturevalue("postgres_url")  # type: ignore[no-any-return]


def test_two_processes_never_apply_one_timeout_twice(database):
    engine = make_engine(database)
    upgrade(engine)
    first, second = Service(Store(engine)), Service(Store(make_engine(database)))
    row, _, _ = first.create("grand_bazaar", {"num_players": 2}, ["taken", "taken"], "Ana",
                             True, speed="turn", move_time=HOUR, on_timeout="bot")
    second.live(row.id)  # the second process has the game in memory, as it was
    seat, started = age(first.store, row.id)
    applied = first.time_out(row.id, seat, started)
    assert applied is not None and applied.version > applied.previous
    assert second.time_out(row.id, seat, started) is None  # the same expected state: no-op
    assert first.time_out(row.id, seat, started) is None
    stored = first.store.load_game(row.id)
    assert stored is not None
    assert [s.timeouts for s in stored.seats] == [1 if s == seat else 0 for s in range(2)]
    assert stored.version == len(stored.history) == applied.version
    # both at once, from two threads: exactly one applies it
    seat, started = age(first.store, row.id)
    results: list[Change | None] = []
    gate = threading.Barrier(2)

    def apply(service: Service) -> None:
        gate.wait()
        results.append(service.time_out(row.id, seat, started))
    threads = [threading.Thread(target=apply, args=(s,)) for s in (first, second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sum(r is not None for r in results) == 1
    stored = first.store.load_game(row.id)
    assert stored is not None and sum(s.timeouts for s in stored.seats) == 2
    assert stored.version == len(stored.history)
    engine.dispose()
