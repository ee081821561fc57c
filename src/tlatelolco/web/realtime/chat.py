"""Chat per game: players and spectators talk beside the board, and replays show what was said.

A chat message is one line of plain text (never HTML: the browser shows it with textContent)
of at most `TEXT_MAX` characters, trimmed, holding no control or formatting character (a bidi
override could make one line read as another). It is stored with the game's version (number of
actions) when it was said, so that a replay at step N shows what was said up to step N, and
it is deleted with its game (ON DELETE CASCADE).

Chat belongs to the table: each game has two channels (`chat.channel`). In `players` only the
seated players speak; in `spectators` only spectators do, and only while the game's
`spectator_chat` (a create option) is on. Everybody reads both. A seated player speaks under
their seat's name, read from the database when they speak (a `name` they send is ignored); a
spectator under the `name` they send, checked like a player name, or "Spectator" without one.
A spectator's message has seat null and an `author`: a pseudonym stable for one client address
in one game (a keyed hash with the game's secret seed as the key, so it reveals nothing), by
which a seated player mutes them (`mute`); a muted author's later messages are refused and
never stored or sent. A game keeps at most `GAME_MAX` messages.

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
import hashlib
import hmac
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
    func,
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
GAME_MAX = 1000  # messages one game keeps: past them its chat is full
SPECTATOR = "Spectator"  # the name of a spectator who gives none
PLAYERS, SPECTATORS = "players", "spectators"  # the channels
CHANNELS = (PLAYERS, SPECTATORS)
AUTHOR_LENGTH = 12  # hex digits of a spectator's pseudonym
FIELDS = frozenset({"type", "text", "name", "channel"})

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
            "version": row["version"], "at": stamp.isoformat(),
            "channel": row["channel"], "author": row["author"]}


def pseudonym(seed: str, address: str | None) -> str:
    """A spectator's author name in one game: the same for one client address, and nothing
    about the address can be read from it without the game's secret seed."""
    digest = hmac.new(seed.encode(), f"chat-author:{address or '-'}".encode(), hashlib.sha256)
    return digest.hexdigest()[:AUTHOR_LENGTH]


def check_channel(channel: Any, seated: bool) -> str:
    """The channel a message goes to (default: the speaker's own); ApiError 422 for one that
    is not a channel, 403 for a channel the speaker may not talk in."""
    if channel is None:
        return PLAYERS if seated else SPECTATORS
    if channel not in CHANNELS:
        raise chat_error(422, "bad_channel", f"'channel' is {' or '.join(CHANNELS)}; got "
                         f"{str(channel)[:40]!r}")
    if channel == PLAYERS and not seated:
        raise chat_error(403, "players_only", "the table chat is for the players of this "
                         "game; spectators talk in the spectators' channel")
    if channel == SPECTATORS and seated:
        raise chat_error(403, "spectators_only", "the spectators' channel is for spectators; "
                         "players talk in the table chat")
    return channel


def store(engine: Engine, game_id: str, seat: int | None, name: str, text: str,
          channel: str = PLAYERS, address: str | None = None) -> dict[str, Any]:
    """Store what `seat` (None: a spectator called `name`, from client `address`) said in
    `channel`, at the game's current version; the message as sent to clients. A seat speaks
    under its current name. ApiError when the game is gone, its chat is full, spectators may
    not talk in it, or the spectator is muted: then nothing is stored."""
    stamp = dt.datetime.now(dt.UTC)
    with engine.begin() as db:
        game = db.execute(select(games.c.version, games.c.seed, games.c.spectator_chat)
                          .where(games.c.id == game_id)).first()
        if game is None:
            raise not_found(game_id)
        author = None
        if seat is not None:
            name = db.execute(select(seats.c.name).where(
                seats.c.game_id == game_id, seats.c.seat == seat)).scalar_one()
        else:
            if not game.spectator_chat:
                raise chat_error(403, "spectator_chat_off", "spectators cannot chat in this "
                                 "game: whoever created it turned spectator chat off; you "
                                 "can still read the table chat")
            author = pseudonym(game.seed, address)
            if db.execute(select(chat_mutes.c.author).where(
                    chat_mutes.c.game_id == game_id, chat_mutes.c.author == author)).first():
                raise chat_error(403, "chat_muted", "you are muted in this game: a player "
                                 "muted you, so your messages are not sent")
        kept = db.execute(select(func.count()).select_from(chat)
                          .where(chat.c.game_id == game_id)).scalar_one()
        if kept >= GAME_MAX:
            raise chat_error(409, "chat_full", f"this game's chat is full: a game keeps at "
                             f"most {GAME_MAX} messages")
        row = {"game_id": game_id, "version": game.version, "seat": seat, "name": name,
               "text": text, "created_at": stamp, "channel": channel, "author": author}
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


def speak(service: Service, game_id: str, token: str | None, text: str, name: str,
          channel: Any = None, address: str | None = None) -> dict[str, Any]:
    """Store a message of the seat holding `token` (checked again: the seat may have been
    given up since the connection opened), or of a spectator without one."""
    seat = None
    if token is not None:
        _, seat = service.authenticate(game_id, token)
    channel = check_channel(channel, seat is not None)
    return store(service.store.engine, game_id, seat, name, text, channel, address)


def mute_author(service: Service, game_id: str, token: str | None, author: Any) -> str:
    """Mute the spectator `author` in the game, for the seated player holding `token`; the
    author muted. Only an author who said something in the game can be muted (so mutes are
    bounded by the chat), and muting one twice changes nothing."""
    if not token:
        raise chat_error(403, "players_only", "only the players of this game can mute a "
                         "spectator")
    service.authenticate(game_id, token)
    if not isinstance(author, str) or not 0 < len(author) <= 24:
        raise chat_error(422, "bad_mute", "'author' is the author of a spectator's message "
                         f"(the {AUTHOR_LENGTH} characters of its 'author' field)")
    with service.store.engine.begin() as db:
        spoke = db.execute(select(chat.c.id).where(chat.c.game_id == game_id,
                                                   chat.c.author == author).limit(1)).first()
        if spoke is None:
            raise chat_error(404, "no_such_author", f"no spectator {author[:24]!r} said "
                             "anything in this game")
        muted = db.execute(select(chat_mutes.c.author).where(
            chat_mutes.c.game_id == game_id, chat_mutes.c.author == author)).first()
        if muted is None:
            db.execute(insert(chat_mutes).values(game_id=game_id, author=author,
                                                 muted_at=dt.datetime.now(dt.UTC)))
    return author


# --- the socket side ---------------------------------------------------------------------------

def outgoing(messages: list[dict[str, Any]]) -> str:
    return json.dumps({"type": "chat", "messages": messages}, separators=(",", ":"))


async def receive(session: Session, message: dict[str, Any]) -> None:
    """`{"type": "chat", "text": ..., "channel": ..., "name": ...}` from a connection:
    checked, counted, stored and announced to every connection of the game; an error goes
    back to the sender."""
    hub = session.hub
    try:
        unknown = sorted(set(message) - FIELDS)
        if unknown:
            raise chat_error(422, "bad_chat", f"unknown field {unknown[0][:40]!r}; a chat "
                             "message has type, text, channel and (a spectator's) name")
        text = clean_text(message.get("text"))
        channel = check_channel(message.get("channel"), session.viewer is not None)
        name = SPECTATOR
        if session.viewer is None:
            name = clean_name(message.get("name"), SPECTATOR)
        session.chat_window.check()
        hub.chat_limits.check("chats", session.client)
        said = await hub.write(speak, hub.service, session.game_id, session.token, text, name,
                               channel, session.client)
    except ApiError as err:
        err.extra.setdefault("about", "chat")
        await session.error(err)
        return
    await hub.announce_chat(session.game_id, [said])


async def mute(session: Session, message: dict[str, Any]) -> None:
    """`{"type": "mute", "author": ...}` from a seated player: that spectator's later messages
    are refused. Answered `{"type": "muted", "author": ...}`, or with a chat error."""
    hub = session.hub
    try:
        unknown = sorted(set(message) - {"type", "author"})
        if unknown:
            raise chat_error(422, "bad_mute", f"unknown field {unknown[0][:40]!r}; a mute "
                             "message has type and author")
        if session.viewer is None:
            raise chat_error(403, "players_only", "only the players of this game can mute a "
                             "spectator")
        author = await hub.write(mute_author, hub.service, session.game_id, session.token,
                                 message.get("author"))
    except ApiError as err:
        err.extra.setdefault("about", "chat")
        await session.error(err)
        return
    await session.ws.send_json({"type": "muted", "author": author})


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


__all__ = ["GAME_MAX", "PER_SOCKET", "RECENT", "TEXT_MAX", "WINDOW", "Window",
           "address_limiter", "chat", "chat_channel", "chat_mutes", "check_channel",
           "clean_text", "forward", "history", "mute", "mute_author", "pseudonym", "receive",
           "send_recent", "speak", "store"]
