"""The database: games, seats, actions (and what was taken back) and the engine that reaches them.

A game is stored as its configuration plus the list of accepted actions; its state is always
rebuilt by replaying them, so the actions table is the single source of truth. SQLite is the
embedded default; any SQLAlchemy URL works (PostgreSQL is tested). The schema is created and
upgraded by Alembic (`migrations/`), never by `create_all`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

try:
    import fcntl
except ImportError:  # Windows: no lock, and no warning
    fcntl = None  # type: ignore[assignment]

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    DateTime,
    Engine,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    create_engine,
    event,
    true,
)

from tlatelolco.extras import require

metadata = MetaData()

games = Table(
    "games", metadata,
    Column("id", String(16), primary_key=True),
    Column("game", String(32), nullable=False),
    Column("options", JSON, nullable=False),
    Column("seed", String(32), nullable=False),  # the chance seed: never leaves the server
    Column("status", String(16), nullable=False),  # open | running | finished
    Column("version", Integer, nullable=False),  # number of accepted actions
    Column("listed", Boolean, nullable=False),  # shown in the lobby's lists
    Column("result", JSON, nullable=True),
    Column("rematch_id", String(16), nullable=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    Column("undos", Integer, nullable=False, server_default="0"),  # actions taken back so far
    Column("client", String(64), nullable=True),  # the address that created it (quotas)
    Column("spectator_chat", Boolean, nullable=False, server_default=true()),
)
Index("ix_games_status_updated", games.c.status, games.c.updated_at)
Index("ix_games_client_created", games.c.client, games.c.created_at)
Index("ix_games_updated", games.c.updated_at)  # finding abandoned games

seats = Table(
    "seats", metadata,
    Column("game_id", String(16), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),  # open | human | bot
    Column("bot", String(64), nullable=True),  # the bot spec of a bot seat
    Column("name", String(64), nullable=False),
    Column("token_hash", String(64), nullable=True),  # sha256 of the seat's credential
    Column("invite_hash", String(64), nullable=True),  # sha256 of an open seat's invite
)

actions = Table(
    "actions", metadata,
    Column("game_id", String(16), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("idx", Integer, primary_key=True),  # a second writer of the same step fails here
    Column("action", BigInteger, nullable=False),
    Column("seat", Integer, nullable=False),  # the seat that chose it, or -1 for chance
    Column("created_at", DateTime(timezone=True), nullable=False),
)

# actions a player took back within their turn (the record keeps them; the history does not)
takebacks = Table(
    "takebacks", metadata,
    Column("game_id", String(16), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("undo", Integer, primary_key=True),  # the game's undo number, from 1
    Column("idx", Integer, nullable=False),  # the step it had in the history
    Column("action", BigInteger, nullable=False),
    Column("seat", Integer, nullable=False),
    Column("text", String(200), nullable=False),  # its notation when it was played
    Column("taken_at", DateTime(timezone=True), nullable=False),
)

DEFAULT_URL = "sqlite:///tlatelolco.db"


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    """WAL: readers never block the writer, and a commit survives the process being killed."""
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.close()


def normalise_url(url: str) -> str:
    """Accept `postgresql://` as psycopg 3 (the driver we install) and plain file paths."""
    if url.startswith(("postgresql://", "postgres://")):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    if "://" not in url:
        return f"sqlite:///{Path(url)}"
    return url


def make_engine(url: str) -> Engine:
    url = normalise_url(url)
    if url.startswith("postgresql+psycopg"):
        require("psycopg", "server")  # a plain install serves on SQLite only
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 10})
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    return create_engine(url, pool_size=10, max_overflow=20, pool_pre_ping=True)


MIGRATIONS = Path(__file__).with_name("migrations")


class SchemaTooNew(RuntimeError):
    """The database was upgraded by a newer Tlatelolco than this one: serving it could break
    what that version stored, so this one refuses to start."""


def schema_problem(connection: Any) -> str | None:
    """One line naming the database's revision and the newest this code knows when the
    database's is not one of this code's migrations (a newer Tlatelolco wrote it); else None."""
    from alembic.runtime.migration import MigrationContext
    from alembic.script import ScriptDirectory

    script = ScriptDirectory(str(MIGRATIONS))
    known = {revision.revision for revision in script.walk_revisions()}
    current = MigrationContext.configure(connection).get_current_heads()
    unknown = [revision for revision in current if revision not in known]
    if not unknown:
        return None
    return (f"the database's schema is at revision {unknown[0][:32]}, newer than this "
            f"Tlatelolco knows (its newest is {script.get_current_head()}): upgrade "
            "Tlatelolco to serve this database, or give --db another one")


def check_schema(url: str) -> str | None:
    """`schema_problem` of the database at `url`, read before a server starts (None also
    when it cannot be reached: starting up says why)."""
    from sqlalchemy.exc import SQLAlchemyError

    engine = make_engine(url)
    try:
        with engine.connect() as connection:
            return schema_problem(connection)
    except SQLAlchemyError:
        return None
    finally:
        engine.dispose()


def upgrade(engine: Engine) -> None:
    """Bring the schema to the newest Alembic revision (a no-op when it is there already);
    SchemaTooNew when a newer Tlatelolco upgraded it past what this one knows."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        # Server processes started together on a new database would both create the tables
        # (and one would fail): each migrates under a lock the others wait for, then finds
        # the schema at head. SQLite's driver runs DDL outside a transaction unless one is
        # begun explicitly; BEGIN IMMEDIATE also makes the migration all-or-nothing there.
        if connection.dialect.name == "postgresql":
            connection.exec_driver_sql("SELECT pg_advisory_xact_lock(7416823)")
        elif connection.dialect.name == "sqlite":
            connection.exec_driver_sql("BEGIN IMMEDIATE")
        problem = schema_problem(connection)
        if problem:
            raise SchemaTooNew(problem)
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


@contextlib.contextmanager
def one_server_per_file(url: str, shared: bool) -> Iterator[None]:
    """Refuse a second server process on the same SQLite file unless they share a Redis bus.

    Both would store moves correctly, but neither would hear of the other's: their players
    would never see each other's moves. A lock file next to the database (released by the
    kernel when the process dies, even by SIGKILL) tells. Other databases need no lock.
    """
    url = normalise_url(url)
    path = url.removeprefix("sqlite:///") if url.startswith("sqlite:///") else ""
    if not path or path == ":memory:" or fcntl is None:
        yield
        return
    with open(f"{path}.lock", "a+b") as lock:
        try:
            fcntl.flock(lock, (fcntl.LOCK_SH if shared else fcntl.LOCK_EX) | fcntl.LOCK_NB)
        except BlockingIOError:
            raise RuntimeError(
                f"another Tlatelolco server is serving {path}: two servers on one SQLite file "
                "would not see each other's moves. Stop the other one, give this one its own "
                "--db, or run every server with the same --redis") from None
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
