"""When to remind whom: a hub listener for turns, a small clock for deadlines, and invites.

- **turn**: after each change of a game, once the game has settled for `grace` seconds, the
  account whose seat is to move gets a reminder, unless one of its seats of that game has a
  WebSocket open in this process (it is watching).
- **deadline**: in a turn-based game, when a quarter of the move time is left (or an hour,
  whichever is less) and the account is not watching.
- **invite**: `notify_invite`, called when a player seats an account by name.

Each goes by mail (the account has a verified address and `notify_email`, and the server
`--smtp`) and by Web Push (`notify_push` and subscriptions), at most once per account, game,
turn, kind and channel: the row in `reminders` is inserted before sending, so whichever process
inserts it first sends, and nobody sends twice. The turn is the version at which the seat's
turn began (the step after the last one by another seat). An account gets at most `PER_HOUR`
reminders an hour per channel: a game against bots could otherwise mail at every move.

Turns are seen as they begin, through the hub; a turn that began while no server ran (a
restart) is seen by the look at the start (`_began_meanwhile`) over the running games where an
account's seat is to move.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
import weakref
from collections.abc import Coroutine
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from sqlalchemy import Engine, exists, false, func, insert, or_, select
from sqlalchemy.exc import IntegrityError

from tlatelolco.web.http.errors import ApiError
from tlatelolco.web.notify.keys import vapid_keys
from tlatelolco.web.notify.mail import Mailer, parse_smtp
from tlatelolco.web.notify.messages import (
    DEADLINE,
    INVITE,
    TURN,
    mail_text,
    notice,
    push_payload,
)
from tlatelolco.web.notify.push import Pusher, forget, subscriptions, vapid_subject
from tlatelolco.web.play import clocks
from tlatelolco.web.play.service import Change
from tlatelolco.web.realtime.hub import Hub
from tlatelolco.web.storage.db import actions, games, reminders, seats, users

log = logging.getLogger("tlatelolco.web")

GRACE = 2.0  # seconds a game must stay as it is before its turn is reminded (a page reloading)
CHECK = 15.0  # seconds between looks at turn-based clocks, at most
SETTLE = 10.0  # seconds after the start before the turns begun meanwhile are reminded: the
#                pages open before a restart reconnect by then (they retry every 5 s at most)
LOOK_BACK = 1000  # running games (the most recently changed) looked at once at the start
PER_HOUR = {"email": 12, "push": 40}  # reminders per account, channel and hour
TTL = 86_400  # seconds a push service keeps a turn or invite reminder for an offline browser
EMAIL, PUSH = "email", "push"
_BY_HUB: weakref.WeakKeyDictionary[Hub, Reminders] = weakref.WeakKeyDictionary()


def check_public_url(url: str) -> str:
    """The public URL without its trailing slash; ValueError unless it is http(s)://host."""
    problem = ValueError("the public URL is the address players reach this server at, "
                         "http(s)://host[:port][/path] without a query, e.g. "
                         "https://games.example.org")
    try:
        parts = urlsplit(url.strip())
        parts.port  # noqa: B018 - a port that is not a number raises here
    except ValueError:
        raise problem from None
    if (parts.scheme not in ("http", "https") or not parts.hostname or parts.query
            or parts.fragment or parts.username is not None or len(url) > 200
            or not url.isprintable()):
        raise problem
    return parts.geturl().rstrip("/")


@dataclass(frozen=True, slots=True)
class Recipient:
    id: int
    email: str | None  # verified, else None: no mail goes to an unverified address
    lang: str | None
    notify_email: bool
    notify_push: bool


@dataclass(frozen=True, slots=True)
class Turn:
    """An account's seat to move: the account, its seats in the game, the turn's key."""

    user_id: int
    seats: tuple[int, ...]
    turn: int
    game: str  # the registry name


# --- the database --------------------------------------------------------------------------

def recipient(engine: Engine, user_id: int) -> Recipient | None:
    """The account's preferences (its address only if verified); None for an unknown or
    disabled account."""
    query = select(users.c.email, users.c.email_verified, users.c.lang, users.c.notify_email,
                   users.c.notify_push, users.c.disabled).where(users.c.id == user_id)
    with engine.connect() as db:
        found = db.execute(query).first()
    if found is None or found.disabled:
        return None
    return Recipient(user_id, found.email if found.email_verified else None, found.lang,
                     bool(found.notify_email), bool(found.notify_push))


def turn_began(engine: Engine, game_id: str, seat: int) -> int:
    """The version at which `seat`'s current turn began: after the last step of another seat
    (chance and the seat's own steps within its turn do not begin one)."""
    query = select(func.max(actions.c.idx)).where(
        actions.c.game_id == game_id, actions.c.seat >= 0, actions.c.seat != seat)
    with engine.connect() as db:
        last = db.execute(query).scalar()
    return 0 if last is None else int(last) + 1


def claim(engine: Engine, user_id: int, game_id: str, turn: int, kind: str,
          channel: str) -> bool:
    """Note the reminder as sent; False when it was already (by this process or another) or
    the account had its reminders of the hour on this channel."""
    now = dt.datetime.now(dt.UTC)
    recent = select(func.count()).where(
        reminders.c.user_id == user_id, reminders.c.channel == channel,
        reminders.c.sent_at > now - dt.timedelta(hours=1))
    try:
        with engine.begin() as db:
            if db.execute(recent).scalar_one() >= PER_HOUR[channel]:
                log.info("account %d had its %d %s reminders of the hour", user_id,
                         PER_HOUR[channel], channel)
                return False
            db.execute(insert(reminders).values(user_id=user_id, game_id=game_id, turn=turn,
                                                kind=kind, channel=channel, sent_at=now))
    except IntegrityError:
        return False
    return True


def accounts_to_move(engine: Engine, before: dt.datetime, limit: int = LOOK_BACK
                     ) -> list[str]:
    """The running games last changed `before` (the most recently changed first) where a
    person of an account may be to move: in a turn-based game the seat whose clock runs is
    an account's; in a live one (whose seat is to move is known only by replaying it) an
    account holds a seat."""
    mine = (seats.c.game_id == games.c.id) & seats.c.user_id.is_not(None) & (
        seats.c.kind == "human") & (seats.c.forfeited == false())
    to_move = or_(games.c.speed != "turn", seats.c.seat == games.c.turn_seat)
    query = (select(games.c.id).where(games.c.status == "running",
                                      games.c.updated_at <= before,
                                      exists().where(mine, to_move))
             .order_by(games.c.updated_at.desc()).limit(limit))
    with engine.connect() as db:
        return list(db.scalars(query))


def turn_clocks(engine: Engine) -> list[Any]:
    """The running turn-based games whose clock runs: id, seat, move time, start."""
    query = select(games.c.id, games.c.turn_seat, games.c.move_time,
                   games.c.turn_started_at).where(
        games.c.status == "running", games.c.speed == "turn", games.c.turn_seat.is_not(None),
        games.c.turn_started_at.is_not(None), games.c.move_time.is_not(None)).limit(10_000)
    with engine.connect() as db:
        return list(db.execute(query))


# --- reminding -----------------------------------------------------------------------------

class Reminders:
    def __init__(self, hub: Hub, pusher: Pusher, mailer: Mailer | None,
                 public_url: str | None, *, grace: float = GRACE, check: float = CHECK,
                 settle: float = SETTLE) -> None:
        self.hub = hub
        self.engine: Engine = hub.service.store.engine
        self.pusher = pusher
        self.mailer = mailer
        self.public_url = public_url
        self.grace = grace  # tests shorten it
        self.check = check
        self.settle = settle
        self._looking: dict[str, asyncio.Task[None]] = {}
        self._kicked: dict[str, tuple[int, bool]] = {}  # game -> (version, seats changed)
        self._tasks: set[asyncio.Task[None]] = set()
        self._handled: set[tuple[str, str]] = set()  # (game, clock start) reminded of
        self._wake = asyncio.Event()
        self._clock: asyncio.Task[None] | None = None

    def start(self) -> None:
        self.hub.listeners.append(self.listen)
        _BY_HUB[self.hub] = self
        self._clock = asyncio.create_task(self._deadlines())
        self.spawn(self._began_meanwhile())

    async def close(self) -> None:
        with contextlib.suppress(ValueError):
            self.hub.listeners.remove(self.listen)
        tasks = [*self._looking.values(), *self._tasks]
        if self._clock is not None:
            tasks.append(self._clock)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self.pusher.close()
        if self.mailer is not None:
            self.mailer.close()

    def link(self, game_id: str) -> str:
        """The game's page: absolute with the public URL, else as a path (a push's service
        worker opens it on its own origin)."""
        return f"{self.public_url or ''}/games/{game_id}"

    def spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # --- turns ----------------------------------------------------------------------------
    async def listen(self, change: Change) -> None:
        """The hub listener: look at the game once it settles (returns at once)."""
        live = self.hub.service.peek(change.game_id)
        if (live is not None and not change.seats_changed
                and all(s.user_id is None for s in live.row.seats)):
            return  # guests and bots only: nobody to remind (a seat taken says seats_changed)
        version, seats = self._kicked.get(change.game_id, (0, False))
        self._kicked[change.game_id] = (max(version, change.version),
                                        seats or change.seats_changed)
        self._wake.set()  # its clock may have started: the deadline clock looks again
        task = self._looking.get(change.game_id)
        if task is None or task.done():
            self._looking[change.game_id] = asyncio.create_task(self._look(change.game_id))

    async def _look(self, game_id: str) -> None:
        try:
            while game_id in self._kicked:
                await asyncio.sleep(self.grace)  # more changes meanwhile: one look for all
                version, seats = self._kicked.pop(game_id)
                found = await self.hub.call(self._turn_of, game_id, version, seats)
                if found is not None and not self._watching(game_id, found.seats):
                    await self._notify(found.user_id, game_id, found.turn, TURN, found.game)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("reminding the turn of game %s failed", game_id)
        finally:
            if self._looking.get(game_id) is asyncio.current_task():
                del self._looking[game_id]

    def _turn_of(self, game_id: str, version: int, seats: bool,
                 seat: int | None = None) -> Turn | None:
        """The account to remind in the game: the one holding the seat to move (or `seat`)
        if a person of an account holds it and has not forfeited it."""
        try:
            live = self.hub.service.sync(game_id, version, seats)
        except ApiError:
            return None  # deleted meanwhile
        row = live.row
        if row.status != "running":
            return None
        if seat is None:
            seat = live.state.current_player()
        if not 0 <= seat < len(row.seats):
            return None
        holder = row.seats[seat]
        if holder.kind != "human" or holder.user_id is None or holder.forfeited:
            return None
        mine = tuple(s.seat for s in row.seats if s.user_id == holder.user_id)
        return Turn(holder.user_id, mine, turn_began(self.engine, game_id, seat), row.game)

    async def _began_meanwhile(self) -> None:
        """Once, `settle` seconds after the start: remind the turns that began while no
        server ran (nothing announced them), as the listener would have. One game at a time,
        off the event loop (each is replayed to know whose turn it is). The games changed
        since the start are the listener's."""
        started = dt.datetime.now(dt.UTC)
        await asyncio.sleep(self.settle)
        try:
            found = await asyncio.to_thread(accounts_to_move, self.engine, started)
        except Exception:
            log.exception("looking for turns begun while no server ran failed")
            return
        for game_id in found:
            try:
                turn = await asyncio.to_thread(self._turn_of, game_id, 0, True)
            except Exception:
                log.exception("looking at the turn of game %s failed", game_id)
                continue
            if turn is not None and not self._watching(game_id, turn.seats):
                self.spawn(self._notify(turn.user_id, game_id, turn.turn, TURN, turn.game))

    def _watching(self, game_id: str, seats: tuple[int, ...]) -> bool:
        connected = self.hub.views_connected(game_id)
        return any(connected.get(seat, 0) > 0 for seat in seats)

    # --- deadlines ------------------------------------------------------------------------
    async def _deadlines(self) -> None:
        """Sleep until the next reminder time of a turn-based clock (at most `check` seconds,
        or until a game changes), then remind those whose time came."""
        while True:
            wait = self.check
            try:
                wait = await self._remind_deadlines()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("looking at turn-based clocks for reminders failed")
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), max(wait, 0.05))
                await asyncio.sleep(1.0)  # busy games: one look a second at most

    async def _remind_deadlines(self) -> float:
        """Remind the turns whose reminder time has come; seconds until the next one."""
        wait = self.check
        now = dt.datetime.now(dt.UTC)
        running = set()
        for game_id, seat, move_time, started in await self.hub.call(turn_clocks, self.engine):
            key = (game_id, clocks.iso(started) or "")
            running.add(key)
            deadline = clocks.deadline(started, move_time) or now
            remind_at = clocks.reminder_at(started, move_time)
            if now < remind_at:
                wait = min(wait, (remind_at - now).total_seconds())
            elif now < deadline and key not in self._handled:
                found = await self.hub.call(self._turn_of, game_id, 0, True, seat)
                if found is not None and self._watching(game_id, found.seats):
                    continue  # looked at again in `check` seconds: they may leave
                self._handled.add(key)
                if found is not None:
                    left = (deadline - now).total_seconds()
                    self.spawn(self._notify(found.user_id, game_id, found.turn, DEADLINE,
                                            found.game, left=left, ttl=max(1, int(left))))
        self._handled &= running
        return wait

    # --- invites --------------------------------------------------------------------------
    async def invite(self, game_id: str, user_id: int, inviter: str) -> None:
        try:
            live = await self.hub.call(self.hub.service.sync, game_id, 0, True)
        except ApiError:
            return
        if live.row.status == "finished" or not any(s.user_id == user_id
                                                    for s in live.row.seats):
            return
        await self._notify(user_id, game_id, live.version, INVITE, live.row.game,
                           player=inviter)

    # --- sending --------------------------------------------------------------------------
    async def _notify(self, user_id: int, game_id: str, turn: int, kind: str, game: str, *,
                      player: str = "", left: float = 0.0, ttl: int = TTL) -> None:
        """Send the reminder by every channel the account wants, once per channel."""
        person = await self.hub.call(recipient, self.engine, user_id)
        if person is None:
            return
        message = notice(kind, person.lang, game, self.link(game_id), player=player,
                         left=left)
        sends = []
        if self.mailer is not None and person.notify_email and person.email:
            sends.append(self._mail(person, game_id, turn, message))
        if person.notify_push:
            sends.append(self._push(person, game_id, turn, message, ttl))
        for failed in await asyncio.gather(*sends, return_exceptions=True):
            if isinstance(failed, Exception):
                log.error("a %s reminder of game %s failed: %s", kind, game_id,
                          type(failed).__name__)

    async def _mail(self, person: Recipient, game_id: str, turn: int, message: Any) -> None:
        assert self.mailer is not None and person.email
        if await self.hub.write(claim, self.engine, person.id, game_id, turn, message.kind,
                                EMAIL):
            await self.mailer.send(person.email, message.title,
                                   mail_text(message, person.lang, f"{self.public_url}/"))

    async def _push(self, person: Recipient, game_id: str, turn: int, message: Any,
                    ttl: int) -> None:
        subs = await self.hub.call(subscriptions, self.engine, person.id)
        if not subs or not await self.hub.write(claim, self.engine, person.id, game_id, turn,
                                                message.kind, PUSH):
            return
        payload = push_payload(message, game_id)
        sent = await asyncio.gather(*(self.pusher.send(sub, payload, ttl) for sub in subs))
        for sub, outcome in zip(subs, sent, strict=True):
            if outcome == "gone":
                await self.hub.write(forget, self.engine, sub.endpoint)


async def start_reminders(hub: Hub, *, smtp: str | None, public_url: str | None,
                          push_allow_http: bool = False, settle: float = SETTLE) -> Reminders:
    """Reminders for the hub's games: the VAPID keys read (made at the first start), the mail
    server checked, the listener and the deadline clock started, and `settle` seconds later a
    look at the turns that began while no server ran."""
    public = check_public_url(public_url) if public_url else None
    mailer = Mailer(parse_smtp(smtp, public), public or "") if smtp else None
    keys = await hub.write(vapid_keys, hub.service.store.engine)
    pusher = Pusher(keys, vapid_subject(mailer.server.sender if mailer else None, public),
                    push_allow_http)
    found = Reminders(hub, pusher, mailer, public, settle=settle)
    found.start()
    return found


def reminders_of(hub: Hub) -> Reminders | None:
    return _BY_HUB.get(hub)


async def notify_invite(hub: Hub, game_id: str, user_id: int, inviter_name: str) -> None:
    """Tell an account a player (`inviter_name`) seated it by name in the game: by mail and
    push as it chose. Returns at once; sending goes on in the background."""
    found = _BY_HUB.get(hub)
    if found is not None:
        found.spawn(found.invite(game_id, user_id, inviter_name[:40]))
