"""Issue 35: a database of today (revision 0006) with games under way upgrades to accounts
(0007) and everything in it keeps working: the game loads, its guests' credentials act, it is
a live game, its chat is there; and 0007 goes down to 0006 and up again. On SQLite and, with
TLATELOLCO_TEST_POSTGRES (always under CI), on PostgreSQL."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, insert, inspect, select
from tests.web.apps import auth, claim, create, serve, socket, view

from tlatelolco.web.realtime.chat import chat
from tlatelolco.web.storage.db import MIGRATIONS, actions, games, make_engine, seats, upgrade

OLD_TABLES = (games, seats, actions, chat)  # in the order their rows can be inserted
NEW_TABLES = {"users", "sessions", "friends", "ratings", "rating_history", "rated_games",
              "leavers", "reminders", "push_subscriptions", "server_keys"}


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'old.db'}"
    return str(request.getfixturevalue("postgres_url"))


def migrate(engine: Engine, revision: str, down: bool = False) -> None:
    """Alembic to `revision` on the engine's database (as `db.upgrade` runs it)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        (command.downgrade if down else command.upgrade)(config, revision)


def played_game(tmp_path: Path) -> tuple[dict[str, list[dict[str, Any]]], str, str]:
    """The rows of a game two guests began (moves and a chat message), as a server of
    today stores them, and the two guests' credentials."""
    with serve(tmp_path / "scratch", db=f"sqlite:///{tmp_path / 'scratch.db'}") as client:
        game = create(client, "grand_bazaar", ["taken", "open"], num_players=2)
        gid, ana = game["id"], game["seats"][0]["token"]
        bea = claim(client, game, 1, "Bea")
        for _ in range(3):
            now = view(client, gid, ana)
            if now["to_move"] != 0:
                break
            moved = client.post(f"/api/games/{gid}/actions", headers=auth(ana), json={
                "version": now["version"], "action": now["legal"][0]["id"]})
            assert moved.status_code == 200, moved.text
        with socket(client, gid, bea) as ws:
            ws.receive_json()
            ws.send_json({"type": "chat", "text": "¡suerte!", "channel": "players"})
            while ws.receive_json()["type"] != "chat":
                pass
        engine = client.app.state.hub.service.store.engine
        with engine.connect() as db:
            rows = {table.name: [dict(r) for r in db.execute(select(table)).mappings()]
                    for table in OLD_TABLES}
    assert rows["chat"] and len(rows["actions"]) >= 2
    return rows, ana, bea


def columns(engine: Engine, table: str) -> set[str]:
    return {c["name"] for c in inspect(engine).get_columns(table)}


def test_games_of_revision_0006_play_on_after_the_upgrade(url, tmp_path):
    rows, ana, bea = played_game(tmp_path)
    gid = rows["games"][0]["id"]
    engine = make_engine(url)
    try:
        migrate(engine, "0006")
        assert "users" not in inspect(engine).get_table_names()
        with engine.begin() as db:  # the rows as 0006 holds them: its columns only
            for table in OLD_TABLES:
                kept = columns(engine, table.name)
                db.execute(insert(table), [{k: v for k, v in row.items() if k in kept}
                                           for row in rows[table.name]])
        upgrade(engine)  # what a new server does at its start
        assert set(inspect(engine).get_table_names()) >= NEW_TABLES
        with engine.connect() as db:
            game = db.execute(select(games).where(games.c.id == gid)).mappings().one()
            held = db.execute(select(seats).where(seats.c.game_id == gid)).mappings().all()
        assert (game["speed"], game["move_time"], game["turn_seat"]) == ("live", None, None)
        assert [(s["user_id"], s["timeouts"], bool(s["forfeited"])) for s in held] == [
            (None, 0, False)] * 2
    finally:
        engine.dispose()

    with serve(tmp_path / "new", db=url) as client:
        summary = client.get(f"/api/games/{gid}").json()
        assert summary["status"] == "running" and summary.get("clock") is None
        assert [s["name"] for s in summary["seats"]] == ["Player", "Bea"]
        version = len(rows["actions"])
        for token, seat in ((ana, 0), (bea, 1)):
            now = view(client, gid, token)
            assert now["viewer"] == seat and now["version"] == version
            assert now.get("clock") is None  # a live game: no clock
        mover = ana if now["to_move"] == 0 else bea
        now = view(client, gid, mover)
        moved = client.post(f"/api/games/{gid}/actions", headers=auth(mover), json={
            "version": now["version"], "action": now["legal"][0]["id"]})
        assert moved.status_code == 200, moved.text
        said = client.get(f"/api/games/{gid}/chat").json()["messages"]
        assert [m["text"] for m in said] == ["¡suerte!"]


def test_0007_goes_down_to_0006_and_up_again_keeping_the_games(url, tmp_path):
    with serve(tmp_path / "first", db=url) as client:
        game = create(client, "grand_bazaar", ["taken", "bot:random"], num_players=2)
        gid, token = game["id"], game["seats"][0]["token"]
        version = view(client, gid, token)["version"]
        client.headers["origin"] = "http://testserver"
        assert client.post("/api/account/signup", json={
            "name": "Ana", "password": "a long passphrase"}).status_code == 201
    engine = make_engine(url)
    try:
        migrate(engine, "0006", down=True)
        assert not NEW_TABLES & set(inspect(engine).get_table_names())
        assert "user_id" not in columns(engine, "seats")
        assert "speed" not in columns(engine, "games")
        with engine.connect() as db:
            assert db.execute(select(games.c.id)).scalars().all() == [gid]
            assert len(db.execute(select(seats.c.seat).where(seats.c.game_id == gid)).all()) == 2
            assert len(db.execute(select(actions.c.idx)).all()) == version
        upgrade(engine)
    finally:
        engine.dispose()
    with serve(tmp_path / "again", db=url) as client:
        now = view(client, gid, token)
        assert now["viewer"] == 0 and now["version"] >= version
