"""The lobby's filters: GET /api/games?game=&players=&speed= keeps only the tables asked for,
refuses a filter outside its allowed values with a 422 that names them, and leaves abandoned
games out of "running" (a live game nobody moved in for 30 minutes, a turn-based one a day
past its turn's deadline), on SQLite and on PostgreSQL. The page: test_browser_accounts.py.
"""

from __future__ import annotations

import datetime as dt

import pytest
from sqlalchemy import update
from tests.web.apps import create, serve

from tlatelolco.web.storage.db import games, make_engine, upgrade
from tlatelolco.web.storage.store import GameRow, SeatRow, Store

HOUR = 3600


@pytest.fixture
def client(tmp_path):
    with serve(tmp_path) as client:
        yield client


def ids(client, query: str) -> set[str]:
    response = client.get("/api/games?" + query)
    assert response.status_code == 200, response.text
    return {g["id"] for g in response.json()}


def turn_based(client, game: str, seats: list[str], move_time: int = HOUR,
               **options) -> dict:
    response = client.post("/api/games", json={
        "game": game, "options": options, "seats": seats, "speed": "turn",
        "move_time": move_time, "on_timeout": "bot"})
    assert response.status_code == 201, response.text
    return response.json()


def set_times(store: Store, game_id: str, **values: dt.datetime) -> None:
    with store.engine.begin() as db:
        db.execute(update(games).where(games.c.id == game_id).values(**values))


def ago(**delta: float) -> dt.datetime:
    return dt.datetime.now(dt.UTC) - dt.timedelta(**delta)


# --- the filters -----------------------------------------------------------------------------
def test_the_lists_keep_only_the_game_player_count_and_speed_asked_for(client):
    bazaar2 = create(client, "grand_bazaar", ["taken", "open"], num_players=2)["id"]
    bazaar3 = create(client, "grand_bazaar", ["taken", "open", "open"], num_players=3)["id"]
    mexica3 = create(client, "mexica", ["taken", "open", "bot:random"], num_players=3)["id"]
    axio2 = create(client, "axio", ["taken", "open"], num_players=2)["id"]
    slow = turn_based(client, "grand_bazaar", ["taken", "open", "open"], num_players=3)["id"]
    everything = {bazaar2, bazaar3, mexica3, axio2, slow}

    assert ids(client, "status=open") == everything
    assert ids(client, "status=open&game=grand_bazaar") == {bazaar2, bazaar3, slow}
    assert ids(client, "status=open&players=3") == {bazaar3, mexica3, slow}
    assert ids(client, "status=open&players=2") == {bazaar2, axio2}
    assert ids(client, "status=open&speed=live") == everything - {slow}
    assert ids(client, "status=open&speed=turn") == {slow}
    assert ids(client, "status=open&game=grand_bazaar&players=3&speed=live") == {bazaar3}
    assert ids(client, "game=axio") == {axio2}  # without a status: every list
    assert ids(client, "status=running&game=axio") == set()
    assert ids(client, "status=open&players=5") == set()
    # the summaries are the usual ones; a turn-based game says so in its clock
    listed = {g["id"]: g for g in client.get("/api/games?status=open&players=3").json()}
    assert listed[slow]["clock"]["speed"] == "turn" and listed[bazaar3]["clock"] is None


@pytest.mark.parametrize(("query", "says"), [
    ("game=chess", "axio, aztec_market, grand_bazaar, mexica"),
    ("game=Axio", "axio, aztec_market, grand_bazaar, mexica"),  # names are exact
    ("game=" + "a" * 33, "at most 32 characters"),
    ("game=%27%3B%20DROP%20TABLE%20games%3B%20--", "axio, aztec_market, grand_bazaar, mexica"),
    ("game=..%2F..%2Fetc%2Fpasswd", "axio, aztec_market, grand_bazaar, mexica"),
    ("players=1", "greater than or equal to 2"),
    ("players=9", "less than or equal to 8"),
    ("players=-3", "greater than or equal to 2"),
    ("players=99999999999999999999999", "less than or equal to 8"),
    ("players=three", "valid integer"),
    ("players=2.5", "valid integer"),
    ("speed=slow", "'live' or 'turn'"),
    ("speed=LIVE", "'live' or 'turn'"),
    ("speed=", "'live' or 'turn'"),
])
def test_a_filter_outside_its_allowed_values_is_refused_saying_what_is_allowed(
        client, query, says):
    create(client, "axio", ["taken", "open"], num_players=2)
    response = client.get("/api/games?status=open&" + query)
    assert response.status_code == 422, response.text
    body = response.json()
    assert body["status"] == 422 and says in body["message"], body
    assert len(body["message"]) < 400  # the value is not echoed at length
    assert len(client.get("/api/games?status=open").json()) == 1  # and the lobby still works


# --- abandoned games -------------------------------------------------------------------------
def test_a_live_game_nobody_moved_in_for_half_an_hour_is_not_running(client):
    store = client.app.state.hub.service.store
    quiet = create(client, "grand_bazaar", ["taken", "taken"], num_players=2)["id"]
    gone = create(client, "grand_bazaar", ["taken", "taken"], num_players=2)["id"]
    assert {quiet, gone} <= ids(client, "status=running")
    set_times(store, quiet, updated_at=ago(minutes=29))
    set_times(store, gone, updated_at=ago(minutes=31))
    assert quiet in ids(client, "status=running") and quiet in ids(client, "")
    assert gone not in ids(client, "status=running") | ids(client, "")
    assert gone not in ids(client, "status=running&game=grand_bazaar&players=2&speed=live")
    # it is still there for its players and its link
    assert client.get(f"/api/games/{gone}").json()["status"] == "running"


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request, tmp_path):
    """A store on a new database, with no server (and so no clock sweeper) running on it."""
    url = (f"sqlite:///{tmp_path / 'filters.db'}" if request.param == "sqlite"
           else request.getfixturevalue("postgres_url"))
    engine = make_engine(url)
    upgrade(engine)
    yield Store(engine)
    engine.dispose()


def stored(store: Store, game_id: str, game: str = "mexica", seats: int = 2,
           speed: str = "live", move_time: int | None = None, status: str = "running") -> str:
    store.create_game(GameRow(
        id=game_id, game=game, options={"num_players": seats}, seed="1", status=status,
        version=0, listed=True, speed=speed, move_time=move_time,
        on_timeout="bot" if speed == "turn" else None, turn_seat=0 if speed == "turn" else None,
        turn_started_at=ago() if speed == "turn" else None,
        seats=[SeatRow(i, "human", f"p{i}") for i in range(seats)]))
    return game_id


def listed(store: Store, status: str | None = "running", **filters) -> set[str]:
    return {row.id for row in store.list_games(status, 50, **filters)}


def test_a_turn_based_game_a_day_past_its_deadline_is_not_running(store):
    hour = stored(store, "hour", speed="turn", move_time=HOUR)
    days = stored(store, "days", speed="turn", move_time=3 * 86400)
    late = stored(store, "late", speed="turn", move_time=HOUR)
    live = stored(store, "live")
    # a turn-based game is quiet for days by design: its deadline counts, not its last move
    for game_id in (hour, days, late):
        set_times(store, game_id, updated_at=ago(days=2))
    set_times(store, hour, turn_started_at=ago(hours=24, minutes=50))  # 23 h 50 past it
    set_times(store, days, turn_started_at=ago(days=3, hours=23))  # within its 3 days
    set_times(store, late, turn_started_at=ago(hours=25, minutes=10))  # 1 day 10 min past
    set_times(store, live, updated_at=ago(minutes=40))
    assert listed(store) == {hour, days}
    assert listed(store, None) == {hour, days}
    assert listed(store, speed="turn") == {hour, days}
    set_times(store, days, turn_started_at=ago(days=4, hours=1))  # now a day past it too
    assert listed(store) == {hour}
    # finished and open games are never "abandoned": only the running list leaves them out
    done = stored(store, "done", status="finished")
    waiting = stored(store, "waiting", status="open")
    set_times(store, done, updated_at=ago(days=30))
    set_times(store, waiting, updated_at=ago(days=30))
    assert listed(store, "finished") == {done} and listed(store, "open") == {waiting}


def test_the_filters_are_applied_by_the_database(store):
    stored(store, "m2", "mexica", 2)
    stored(store, "m4", "mexica", 4)
    stored(store, "g4", "grand_bazaar", 4)
    stored(store, "t4", "grand_bazaar", 4, speed="turn", move_time=HOUR)
    assert listed(store, game="mexica") == {"m2", "m4"}
    assert listed(store, players=4) == {"m4", "g4", "t4"}
    assert listed(store, speed="turn") == {"t4"}
    assert listed(store, game="grand_bazaar", players=4, speed="live") == {"g4"}
    assert listed(store, game="axio") == set()
    # the limit counts the games that pass, newest first
    assert [row.id for row in store.list_games("running", 2, players=4)] == ["t4", "g4"]
