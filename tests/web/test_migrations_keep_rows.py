"""Every schema upgrade keeps what is stored: a game with its seats, moves and chat written at
the first revision is still whole after each later one. SQLite rebuilds a table to change it,
and dropping the old `games` with foreign keys on would delete every seat and move (the
cascade): regression test of 0006, which did so to databases upgraded from 0005."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory
from sqlalchemy import text

from tlatelolco.web.storage.db import MIGRATIONS, make_engine

STAMP = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
COUNTS = {"games": 1, "seats": 2, "actions": 3}


def migrate(engine, revision: str) -> None:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:  # as db.upgrade runs it: one transaction
        config.attributes["connection"] = connection
        command.upgrade(config, revision)


def counts(engine) -> dict[str, int]:
    with engine.connect() as db:
        return {table: db.execute(text(f"SELECT count(*) FROM {table}")).scalar_one()
                for table in COUNTS}


def test_each_upgrade_from_the_first_revision_keeps_games_seats_and_moves(tmp_path: Path):
    engine = make_engine(f"sqlite:///{tmp_path / 'old.db'}")
    revisions = [r.revision for r in reversed(list(
        ScriptDirectory(str(MIGRATIONS)).walk_revisions()))]
    migrate(engine, revisions[0])
    with engine.begin() as db:
        db.execute(text("INSERT INTO games (id, game, options, seed, status, version, listed, "
                        "created_at, updated_at) VALUES ('g1', 'axio', '{}', '7', 'running', "
                        "3, 1, :t, :t)"), {"t": STAMP})
        for seat in (0, 1):
            db.execute(text("INSERT INTO seats (game_id, seat, kind, name, token_hash) VALUES "
                            "('g1', :s, 'human', :n, :h)"),
                       {"s": seat, "n": f"P{seat}", "h": "ab" * 32})
        for idx in range(3):
            db.execute(text("INSERT INTO actions (game_id, idx, action, seat, created_at) "
                            "VALUES ('g1', :i, 5, 0, :t)"), {"i": idx, "t": STAMP})
    assert counts(engine) == COUNTS
    for revision in revisions[1:]:
        migrate(engine, revision)
        assert counts(engine) == COUNTS, f"the upgrade to {revision} lost rows"
    engine.dispose()
