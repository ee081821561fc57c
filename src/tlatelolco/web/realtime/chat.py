"""Chat per game: players and spectators talk beside the board, and replays show what was said.

A chat message is one line of plain text (never HTML: the browser shows it with textContent)
of at most `TEXT_MAX` characters, trimmed, holding no control or formatting character (a bidi
override could make one line read as another). It is stored with the game's version (number of
actions) when it was said, so that a replay at step N shows what was said up to step N, and
it is deleted with its game (ON DELETE CASCADE).

Who speaks: a seated player under their seat's name, read from the database when they speak
(a `name` they send is ignored); a spectator under the `name` they send, checked like a player
name, or "Spectator" without one. A spectator's message always has seat null, so a page can
mark it and no spectator passes for a player.

Rates: `PER_SOCKET` messages per `WINDOW` seconds on one connection, and
`PER_ADDRESS_PER_MINUTE` from one client address (in each process); past them a message is
refused with a 429 error on the socket. Every chat error has `"about": "chat"`.

Delivery: a new message is published on the game's chat channel (`chat_channel`) of the
pub/sub, so connections to every server process get it. Unlike game changes the message
itself travels: what is said in a game is public to everybody watching it.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import math
import time
import unicodedata
from collections import deque
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import (
    Column,
    DateTime,
    Engine,
    ForeignKey,
    Index,
    Integer,
    String,
    Table,
    Text,
    insert,
    select,
)

from tlatelolco.web.http.errors import ApiError, not_found
from tlatelolco.web.http.limits import RateLimiter, RateLimits
from tlatelolco.web.play.service import Service, clean_name
from tlatelolco.web.storage.db import games, metadata, seats

if TYPE_CHECKING:
    from tlatelolco.web.realtime.sockets import Session

TEXT_MAX = 300  # characters of one message
PER_SOCKET = 5  # messages one connection may send ...
WINDOW = 10.0  # ... within this many seconds
PER_ADDRESS_PER_MINUTE = 60  # messages from one client address, all its connections together
RECENT = 100  # messages a new connection is sent after its first view
HISTORY_MAX = 2000  # messages the HTTP route returns at most (the latest ones)
SPECTATOR = "Spectator"  # the name of a spectator who gives none
FIELDS = frozenset({"type", "text", "name"})

# Declared on the shared `metadata` (the package imports this module with the app), so that
# the schema check compares it with migration 0003 like the other tables.
chat = Table(
    "chat", metadata,
    Column("id", Integer, primary_key=True),
    Column("game_id", String(16), ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
    Column("version", Integer, nullable=False),  # the game's number of actions when said
    Column("seat", Integer, nullable=True),  # null: a spectator
    Column("name", String(64), nullable=False),
    Column("text", Text, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("channel", String(12), nullable=False, server_default="players"),
    Column("author", String(24), nullable=True),  # a spectator's pseudonym (for mutes)
)
Index("ix_chat_game", chat.c.game_id, chat.c.id)
# spectators a player of the game muted: their messages are no longer stored or sent
chat_mutes = Table(
    "chat_mutes", metadata,
    Column("game_id", String(16), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("author", String(24), primary_key=True),
    Column("muted_at", DateTime(timezone=True), nullable=False),
)


def chat_channel(game_id: str) -> str:
    """The pub/sub channel of a game's chat (apart from its game changes, which a connection
    turns into views, so that a burst of one never delays or coalesces the other)."""
    return f"tlatelolco:chat:{game_id}"


def chat_error(status: int, code: str, message: str, **extra: Any) -> ApiError:
    return ApiError(status, code, message, about="chat", **extra)


# --- what may be said --------------------------------------------------------------------------

def _forbidden(c: str) -> bool:
    """Control, formatting, private-use and unassigned characters, and line breaks."""
    return unicodedata.category(c) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")


def clean_text(text: Any) -> str:
    """The text of a chat message, trimmed; ApiError 422 saying what is wrong with it."""
    if not isinstance(text, str):
        raise chat_error(422, "bad_chat", "'text' is what you say: a string of at most "
                         f"{TEXT_MAX} characters")
    text = text.strip()
    if not text:
        raise chat_error(422, "chat_empty", "a chat message cannot be empty")
    if len(text) > TEXT_MAX:
        raise chat_error(422, "chat_too_long", f"a chat message has at most {TEXT_MAX} "
                         f"characters; this one has {len(text)}")
    bad = next((c for c in text if _forbidden(c)), None)
    if bad is not None:
        raise chat_error(422, "chat_bad_character", "a chat message is one line of text "
                         "without control or formatting characters (it holds "
                         f"U+{ord(bad):04X})")
    return text


class Window:
    """The times of one connection's last messages: at most `count` in any `seconds`."""

    def __init__(self, count: int | None = None, seconds: float | None = None) -> None:
        self.count = PER_SOCKET if count is None else count
        self.seconds = WINDOW if seconds is None else seconds
        self.times: deque[float] = deque(maxlen=self.count)

    def check(self, now: float | None = None) -> None:
        """Count one message; ApiError 429 (nothing counted) when the window is full."""
        now = time.monotonic() if now is None else now
        if len(self.times) == self.count and now - self.times[0] < self.seconds:
            wait = max(1, math.ceil(self.seconds - (now - self.times[0])))
            raise chat_error(429, "rate_limited", f"too many chat messages: at most "
                             f"{self.count} every {self.seconds:g} s; try again in {wait} s",
                             retry_after=wait)
        self.times.append(now)


@dataclass(slots=True)
class ChatLimits(RateLimits):
    """The server's rate limits plus chat messages per client address per minute."""

    chats: int = PER_ADDRESS_PER_MINUTE


def address_limiter() -> RateLimiter:
    """Chat messages per client address (the hub keeps one per process)."""
    return RateLimiter(ChatLimits(chats=PER_ADDRESS_PER_MINUTE))


# --- storage (synchronous: the server runs these in its threads) ------------------------------

def _entry(row: Any) -> dict[str, Any]:
    stamp: dt.datetime = row["created_at"]
    if stamp.tzinfo is None:  # SQLite keeps no zone; every time stored is UTC
        stamp = stamp.replace(tzinfo=dt.UTC)
    return {"id": row["id"], "seat": row["seat"], "name": row["name"], "text": row["text"],
            "version": row["version"], "at": stamp.isoformat()}


def store(engine: Engine, game_id: str, seat: int | None, name: str, text: str
          ) -> dict[str, Any]:
    """Store what `seat` (None: a spectator called `name`) said, at the game's current
    version; the message as sent to clients. A seat speaks under its current name."""
    stamp = dt.datetime.now(dt.UTC)
    with engine.begin() as db:
        version = db.execute(select(games.c.version).where(games.c.id == game_id)).scalar()
        if version is None:
            raise not_found(game_id)
        if seat is not None:
            name = db.execute(select(seats.c.name).where(
                seats.c.game_id == game_id, seats.c.seat == seat)).scalar_one()
        row = {"game_id": game_id, "version": version, "seat": seat, "name": name,
               "text": text, "created_at": stamp}
        new_id = db.execute(insert(chat).values(**row)).inserted_primary_key[0]
    return _entry({**row, "id": new_id})


def history(engine: Engine, game_id: str, upto: int | None = None, limit: int = HISTORY_MAX
            ) -> list[dict[str, Any]]:
    """The game's last `limit` messages said at version `upto` or before (all: None), oldest
    first; ApiError 404 when there is no such game."""
    query = select(chat).where(chat.c.game_id == game_id)
    if upto is not None:
        query = query.where(chat.c.version <= upto)
    with engine.connect() as db:
        if db.execute(select(games.c.id).where(games.c.id == game_id)).first() is None:
            raise not_found(game_id)
        rows = db.execute(query.order_by(chat.c.id.desc()).limit(limit)).mappings().all()
    return [_entry(r) for r in reversed(rows)]


def speak(service: Service, game_id: str, token: str | None, text: str, name: str
          ) -> dict[str, Any]:
    """Store a message of the seat holding `token` (checked again: the seat may have been
    given up since the connection opened), or of a spectator without one."""
    seat = None
    if token is not None:
        _, seat = service.authenticate(game_id, token)
    return store(service.store.engine, game_id, seat, name, text)


# --- the socket side ---------------------------------------------------------------------------

def outgoing(messages: list[dict[str, Any]]) -> str:
    return json.dumps({"type": "chat", "messages": messages}, separators=(",", ":"))


async def receive(session: Session, message: dict[str, Any]) -> None:
    """`{"type": "chat", "text": ..., "name": ...}` from a connection: checked, counted,
    stored and announced to every connection of the game; an error goes back to the sender."""
    hub = session.hub
    try:
        unknown = sorted(set(message) - FIELDS)
        if unknown:
            raise chat_error(422, "bad_chat", f"unknown field {unknown[0][:40]!r}; a chat "
                             "message has type, text and (a spectator's) name")
        text = clean_text(message.get("text"))
        name = SPECTATOR
        if session.viewer is None:
            name = clean_name(message.get("name"), SPECTATOR)
        session.chat_window.check()
        hub.chat_limits.check("chats", session.ws.client.host if session.ws.client else None)
        said = await hub.write(speak, hub.service, session.game_id, session.token, text, name)
    except ApiError as err:
        err.extra.setdefault("about", "chat")
        await session.error(err)
        return
    await hub.announce_chat(session.game_id, [said])


async def send_recent(session: Session) -> None:
    """The game's last `RECENT` messages, to a connection that just got its first view
    (nothing when nobody has said anything)."""
    hub = session.hub
    try:
        said = await hub.call(history, hub.service.store.engine, session.game_id, None, RECENT)
    except ApiError:  # deleted meanwhile: the next view says so
        return
    if said:
        await session.ws.send_text(outgoing(said))


async def forward(session: Session, queue: asyncio.Queue[dict[str, Any]]) -> None:
    """Send a connection every message announced on its game's chat channel (a burst as one
    message; a client drops those it already has by id)."""
    while True:
        said = list((await queue.get())["messages"])
        while not queue.empty():
            said += queue.get_nowait()["messages"]
        await session.ws.send_text(outgoing(said))


__all__ = ["PER_SOCKET", "RECENT", "TEXT_MAX", "WINDOW", "Window", "address_limiter", "chat",
           "chat_channel", "clean_text", "forward", "history", "receive", "send_recent",
           "speak", "store"]
