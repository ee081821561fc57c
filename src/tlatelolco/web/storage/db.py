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
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    event,
    false,
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
    # live | turn: a turn-based game gives each person `move_time` seconds a turn, and
    # `on_timeout` (bot | drop | lose) says what happens when they run out
    Column("speed", String(8), nullable=False, server_default="live"),
    Column("move_time", Integer, nullable=True),
    Column("on_timeout", String(8), nullable=True),
    Column("turn_seat", Integer, nullable=True),  # the seat whose clock runs (turn-based)
    Column("turn_started_at", DateTime(timezone=True), nullable=True),
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
    # the account holding the seat (on every device it logs in from); null for a guest
    Column("user_id", Integer, ForeignKey("users.id", ondelete="SET NULL"), nullable=True),
    Column("timeouts", Integer, nullable=False, server_default="0"),  # turns it ran out of
    Column("forfeited", Boolean, nullable=False, server_default=false()),  # lost on time, or left
)
Index("ix_seats_user", seats.c.user_id)

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

users = Table(
    "users", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(40), nullable=False),  # as the person wrote it
    Column("name_key", String(40), nullable=False, unique=True),  # casefolded: one per name
    Column("password_hash", String(200), nullable=False),  # argon2id, never the password
    Column("email", String(254), nullable=True),
    # its owner followed the link mailed to it (reminders go only to a verified address)
    Column("email_verified", Boolean, nullable=False, server_default=false()),
    Column("lang", String(5), nullable=True),  # the language of mails and pushes
    Column("notify_email", Boolean, nullable=False, server_default=false()),
    Column("notify_push", Boolean, nullable=False, server_default=false()),
    Column("disabled", Boolean, nullable=False, server_default=false()),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("password_changed_at", DateTime(timezone=True), nullable=True),
)

# a logged-in browser: the cookie holds a random id, the table its sha256
sessions = Table(
    "sessions", metadata,
    Column("id_hash", String(64), primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("expires_at", DateTime(timezone=True), nullable=False),
    Column("client", String(64), nullable=True),
)
Index("ix_sessions_user", sessions.c.user_id)

friends = Table(
    "friends", metadata,
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("friend_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

# one rating per account and game (openskill), and its history: a row per rated game
ratings = Table(
    "ratings", metadata,
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("game", String(32), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("played", Integer, nullable=False, server_default="0"),
    Column("won", Integer, nullable=False, server_default="0"),
    Column("updated_at", DateTime(timezone=True), nullable=False),
)
rating_history = Table(
    "rating_history", metadata,
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("game_id", String(16), primary_key=True),  # no foreign key: records outlive games
    Column("game", String(32), nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("rank", Integer, nullable=False),  # 1 = first place in that game
    Column("at", DateTime(timezone=True), nullable=False),
)
Index("ix_rating_history_user_game", rating_history.c.user_id, rating_history.c.game,
      rating_history.c.at)
rated_games = Table(  # a finished game is rated once, whichever process sees it end
    "rated_games", metadata,
    Column("game_id", String(16), primary_key=True),
    Column("at", DateTime(timezone=True), nullable=False),
)

# accounts that left a game before its end (or were dropped on time): rated as its losers
leavers = Table(
    "leavers", metadata,
    Column("game_id", String(16), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("at", DateTime(timezone=True), nullable=False),
)

# reminders sent: at most one per account, game, turn (the version it began), kind and channel
reminders = Table(
    "reminders", metadata,
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("game_id", String(16), primary_key=True),
    Column("turn", Integer, primary_key=True),
    Column("kind", String(8), primary_key=True),  # turn | deadline | invite
    Column("channel", String(8), primary_key=True),  # email | push
    Column("sent_at", DateTime(timezone=True), nullable=False),
)

push_subscriptions = Table(
    "push_subscriptions", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    Column("endpoint", String(1000), nullable=False, unique=True),
    Column("p256dh", String(200), nullable=False),
    Column("auth", String(100), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)
Index("ix_push_user", push_subscriptions.c.user_id)

# keys the server makes once and every process shares (the VAPID key pair of Web Push, the
# secret that signs the links verifying e-mail addresses)
server_keys = Table(
    "server_keys", metadata,
    Column("name", String(32), primary_key=True),
    Column("value", Text, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
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
