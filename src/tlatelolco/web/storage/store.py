"""Reading and writing games in the database. Synchronous: the server calls it from threads.

Accepting actions is optimistic: `commit_actions` writes the new steps and moves the game's
version forward in one transaction, only if the version is still the one the caller saw. A
second writer (another thread or server process) of the same step loses and must reload.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import (
    JSON,
    ColumnElement,
    DateTime,
    Engine,
    Interval,
    and_,
    bindparam,
    delete,
    func,
    insert,
    literal_column,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.exc import IntegrityError

from tlatelolco.web.storage.db import actions, games, leavers, seats, takebacks

ADVANCE = text(
    "UPDATE games SET version = :new, status = :status, result = :result, "
    "updated_at = :updated, turn_seat = :turn_seat, turn_started_at = :turn_started "
    "WHERE id = :id AND version = :version AND undos = :undos"
).bindparams(bindparam("result", type_=JSON), bindparam("updated", type_=DateTime(True)),
             bindparam("turn_started", type_=DateTime(True)))
APPEND = text(
    "INSERT INTO actions (game_id, idx, action, seat, created_at) "
    "VALUES (:game_id, :idx, :action, :seat, :created)"
).bindparams(bindparam("created", type_=DateTime(True)))

# the game's undo count, then its steps from version v (an undo count that changed means the
# steps a process holds were taken back: it must replay the game, not append)
STEPS_SINCE = text("SELECT -1, -1, undos FROM games WHERE id = :id UNION ALL "
                   "SELECT idx, action, seat FROM actions WHERE game_id = :id AND idx >= :v "
                   "ORDER BY 1")


def now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def _clock(found: Any) -> dict[str, Any]:
    """A stored game's speed and clock, as GameRow fields."""
    return {"speed": found["speed"], "move_time": found["move_time"],
            "on_timeout": found["on_timeout"], "turn_seat": found["turn_seat"],
            "turn_started_at": found["turn_started_at"]}


LIVE_ABANDONED = dt.timedelta(minutes=30)  # a live game nobody moved in for this long
TURN_ABANDONED = dt.timedelta(days=1)  # a turn-based game this long past its turn's deadline
JULIAN_EPOCH = 2440587.5  # the Julian day of 1970-01-01 00:00 UTC (SQLite's julianday)


def abandoned(dialect: str, stamp: dt.datetime) -> ColumnElement[bool]:
    """A condition on `games`, true for a game nobody plays any more at `stamp`: a live one
    without a move for 30 minutes, a turn-based one a day past its turn's deadline (its
    players gone, its clock unchecked). Never NULL, so that it can be negated."""
    live = and_(games.c.speed == "live", games.c.updated_at < stamp - LIVE_ABANDONED)
    cutoff = stamp - TURN_ABANDONED
    if dialect == "sqlite":  # times are stored as UTC text, which julianday reads
        late = (func.julianday(games.c.turn_started_at) + games.c.move_time / 86400.0
                < cutoff.timestamp() / 86400 + JULIAN_EPOCH)
    else:
        second = literal_column("interval '1 second'", Interval)
        late = games.c.turn_started_at + games.c.move_time * second < cutoff
    turn = and_(games.c.speed == "turn", games.c.turn_started_at.is_not(None),
                games.c.move_time.is_not(None), late)
    return or_(live, turn)


@dataclass(slots=True)
class SeatRow:
    seat: int
    kind: str  # open | human | bot
    name: str
    bot: str | None = None
    token_hash: str | None = None  # the holder's personal credential (a human seat)
    invite_hash: str | None = None  # the single-use invite to an open seat
    user_id: int | None = None  # the account holding it, on every device (None: a guest)
    timeouts: int = 0  # turns it ran out of time in (turn-based games)
    forfeited: bool = False  # lost on time or by leaving: ranked last, a bot plays it on


@dataclass(slots=True)
class GameRow:
    id: str
    game: str
    options: dict[str, Any]
    seed: str
    status: str
    version: int
    listed: bool
    seats: list[SeatRow]
    result: dict[str, Any] | None = None
    rematch_id: str | None = None
    created_at: dt.datetime | None = None
    updated_at: dt.datetime | None = None
    history: list[int] = field(default_factory=list)
    actors: list[int] = field(default_factory=list)
    undos: int = 0  # actions taken back so far (see Store.undo)
    client: str | None = None  # the address that created it (quotas, fair bot time)
    spectator_chat: bool = True  # spectators may talk in their own channel
    speed: str = "live"  # live | turn (each person has `move_time` seconds a turn)
    move_time: int | None = None  # seconds a turn, in a turn-based game
    on_timeout: str | None = None  # bot | drop | lose: what a turn out of time brings
    turn_seat: int | None = None  # the seat whose clock runs, in a turn-based game
    turn_started_at: dt.datetime | None = None  # when that seat's turn began


class Store:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def create_game(self, row: GameRow, rematch_of: str | None = None) -> bool:
        """Store a new game; as the rematch of `rematch_of` only if that game has none yet
        (False, and nothing stored, when another one was linked first)."""
        stamp = now()
        with self.engine.begin() as db:
            if rematch_of is not None:
                linked = db.execute(update(games).where(games.c.id == rematch_of,
                                                        games.c.rematch_id.is_(None))
                                    .values(rematch_id=row.id))
                if linked.rowcount != 1:
                    db.rollback()
                    return False
            db.execute(insert(games).values(
                id=row.id, game=row.game, options=row.options, seed=row.seed,
                status=row.status, version=0, listed=row.listed, result=None,
                rematch_id=None, created_at=stamp, updated_at=stamp,
                client=row.client[:64] if row.client else None,
                spectator_chat=row.spectator_chat, speed=row.speed, move_time=row.move_time,
                on_timeout=row.on_timeout, turn_seat=row.turn_seat,
                turn_started_at=row.turn_started_at))
            db.execute(insert(seats), [
                {"game_id": row.id, "seat": s.seat, "kind": s.kind, "bot": s.bot,
                 "name": s.name, "token_hash": s.token_hash, "invite_hash": s.invite_hash,
                 "user_id": s.user_id, "timeouts": s.timeouts, "forfeited": s.forfeited}
                for s in row.seats])
        return True

    def load_game(self, game_id: str, with_history: bool = True) -> GameRow | None:
        with self.engine.connect() as db:
            found = db.execute(select(games).where(games.c.id == game_id)).mappings().first()
            if found is None:
                return None
            row = GameRow(
                id=found["id"], game=found["game"], options=dict(found["options"]),
                seed=found["seed"], status=found["status"], version=found["version"],
                listed=found["listed"], seats=self._seats(db, game_id),
                result=found["result"], rematch_id=found["rematch_id"],
                created_at=found["created_at"], updated_at=found["updated_at"],
                undos=found["undos"], client=found["client"],
                spectator_chat=found["spectator_chat"], **_clock(found))
            if with_history:
                steps = db.execute(select(actions.c.action, actions.c.seat)
                                   .where(actions.c.game_id == game_id)
                                   .order_by(actions.c.idx)).all()
                row.history = [a for a, _ in steps]
                row.actors = [s for _, s in steps]
        return row

    @staticmethod
    def _seats(db: Any, game_id: str) -> list[SeatRow]:
        rows = db.execute(select(seats).where(seats.c.game_id == game_id)
                          .order_by(seats.c.seat)).mappings().all()
        return [SeatRow(seat=r["seat"], kind=r["kind"], name=r["name"], bot=r["bot"],
                        token_hash=r["token_hash"], invite_hash=r["invite_hash"],
                        user_id=r["user_id"], timeouts=r["timeouts"],
                        forfeited=bool(r["forfeited"])) for r in rows]

    def load_seats(self, game_id: str) -> list[SeatRow]:
        with self.engine.connect() as db:
            return self._seats(db, game_id)

    def steps_since(self, game_id: str, version: int) -> tuple[int, list[tuple[int, int]]]:
        """The game's undo count and the (action, seat) steps from `version` on, in order."""
        with self.engine.connect() as db:  # asked before every move: plain SQL text
            rows = db.execute(STEPS_SINCE, {"id": game_id, "v": version}).all()
        if not rows or rows[0][0] != -1:
            return -1, []  # the game is gone
        return rows[0][2], [(a, s) for _, a, s in rows[1:]]

    def commit_actions(self, game_id: str, version: int, steps: list[tuple[int, int]],
                       status: str, result: dict[str, Any] | None, undos: int = 0,
                       clock: tuple[int | None, dt.datetime | None] = (None, None)) -> bool:
        """Store `steps` as steps `version`, `version`+1, ... in one transaction, with the
        game's new `clock` (the seat whose clock runs and since when; turn-based games).

        False (and nothing written) when the game is no longer at `version` (or has had an
        undo since the caller looked). This runs for every move, so its statements are plain
        SQL text: building them as expressions cost more than the database's own work.
        """
        stamp = now()
        try:
            with self.engine.begin() as db:
                moved = db.execute(ADVANCE, {
                    "id": game_id, "version": version, "new": version + len(steps),
                    "status": status, "updated": stamp, "undos": undos,
                    "result": result, "turn_seat": clock[0], "turn_started": clock[1]})
                if moved.rowcount != 1:
                    db.rollback()
                    return False
                db.execute(APPEND, [
                    {"game_id": game_id, "idx": version + i, "action": a, "seat": s,
                     "created": stamp} for i, (a, s) in enumerate(steps)])
        except IntegrityError:
            return False
        return True

    # --- the clocks of turn-based games ----------------------------------------------------
    def set_clock(self, game_id: str, version: int, seat: int | None,
                  started: dt.datetime | None) -> bool:
        """Start or stop the game's clock (a seat taken or given up) if the game is still at
        `version`; whether it was written."""
        with self.engine.begin() as db:
            return bool(db.execute(update(games).where(
                games.c.id == game_id, games.c.version == version,
            ).values(turn_seat=seat, turn_started_at=started)).rowcount == 1)

    def running_clocks(self) -> list[tuple[str, int, dt.datetime, int]]:
        """(game id, seat, turn started at, move time) of every clock running now: what the
        clock task of each server process reads, so a restarted process misses none."""
        query = select(games.c.id, games.c.turn_seat, games.c.turn_started_at,
                       games.c.move_time).where(
            games.c.status == "running", games.c.speed == "turn",
            games.c.turn_seat.is_not(None), games.c.turn_started_at.is_not(None),
            games.c.move_time.is_not(None))
        with self.engine.connect() as db:
            return [(i, s, t, m) for i, s, t, m in db.execute(query)]

    def commit_timeout(self, game_id: str, version: int, undos: int, seat: int,
                       started: dt.datetime, steps: list[tuple[int, int]], status: str,
                       result: dict[str, Any] | None, held: SeatRow,
                       clock: tuple[int | None, dt.datetime | None],
                       leaver: int | None = None) -> bool:
        """Apply a timeout in one transaction: only if the game is still at `version` and
        `undos` with the clock of `seat` started at `started` (so of two processes that saw
        the deadline pass, one applies it and the other finds nothing to do), store the steps
        played for the seat, its new row `held` (its timeouts counted; a bot's, or forfeited),
        the game's status, result and next clock, and the account `leaver` that was dropped."""
        stamp = now()
        try:
            with self.engine.begin() as db:
                moved = db.execute(update(games).where(
                    games.c.id == game_id, games.c.version == version, games.c.undos == undos,
                    games.c.status == "running", games.c.turn_seat == seat,
                    games.c.turn_started_at == started,
                ).values(version=version + len(steps), status=status, result=result,
                         updated_at=stamp, turn_seat=clock[0], turn_started_at=clock[1]))
                if moved.rowcount != 1:
                    db.rollback()
                    return False
                if steps:
                    db.execute(APPEND, [
                        {"game_id": game_id, "idx": version + i, "action": a, "seat": s,
                         "created": stamp} for i, (a, s) in enumerate(steps)])
                db.execute(update(seats).where(seats.c.game_id == game_id,
                                               seats.c.seat == seat).values(
                    kind=held.kind, name=held.name, bot=held.bot, token_hash=held.token_hash,
                    invite_hash=held.invite_hash, user_id=held.user_id,
                    timeouts=held.timeouts, forfeited=held.forfeited))
                if leaver is not None and db.execute(select(leavers.c.seat).where(
                        leavers.c.game_id == game_id, leavers.c.user_id == leaver)).first() is None:
                    db.execute(insert(leavers).values(game_id=game_id, user_id=leaver,
                                                      seat=seat, at=stamp))
        except IntegrityError:
            return False
        return True

    def undo(self, game_id: str, version: int, undos: int, text: str) -> bool:
        """Take back the last step (`version` - 1) into `takebacks`, in one transaction; False
        (nothing written) when the game is no longer at `version` and `undos`."""
        stamp = now()
        try:
            with self.engine.begin() as db:
                moved = db.execute(update(games).where(
                    games.c.id == game_id, games.c.version == version, games.c.undos == undos,
                ).values(version=version - 1, undos=undos + 1, updated_at=stamp))
                if moved.rowcount != 1:
                    db.rollback()
                    return False
                last = db.execute(select(actions.c.action, actions.c.seat).where(
                    actions.c.game_id == game_id, actions.c.idx == version - 1)).first()
                if last is None:
                    db.rollback()
                    return False
                db.execute(insert(takebacks).values(
                    game_id=game_id, undo=undos + 1, idx=version - 1, action=last[0],
                    seat=last[1], text=text[:200], taken_at=stamp))
                db.execute(delete(actions).where(actions.c.game_id == game_id,
                                                 actions.c.idx == version - 1))
        except IntegrityError:
            return False
        return True

    def takebacks_of(self, game_id: str) -> list[dict[str, Any]]:
        """The steps taken back in a game, in the order they were taken back."""
        with self.engine.connect() as db:
            rows = db.execute(select(takebacks).where(takebacks.c.game_id == game_id)
                              .order_by(takebacks.c.undo)).mappings().all()
        return [{"undo": r["undo"], "step": r["idx"], "action": r["action"], "seat": r["seat"],
                 "text": r["text"],
                 "at": r["taken_at"].isoformat() if r["taken_at"] else None} for r in rows]

    def update_seat(self, game_id: str, seat: SeatRow, expect: str | None = None,
                    invite_hash: str | None = None) -> str | None:
        """Write `seat` (only if it is still of kind `expect`, and still has the invite
        `invite_hash`, when given) and set the game's status from all its seats; the new
        status, or None when the seat was not as expected (taken, or its invite used).

        The game's row is locked first, so two processes seating players at once cannot both
        read the other's seat as still open.
        """
        with self.engine.begin() as db:
            status = db.execute(select(games.c.status).where(games.c.id == game_id)
                                .with_for_update()).scalar_one()
            query = update(seats).where(seats.c.game_id == game_id, seats.c.seat == seat.seat)
            if expect is not None:
                query = query.where(seats.c.kind == expect)
            if invite_hash is not None:
                query = query.where(seats.c.invite_hash == invite_hash)
            written = db.execute(query.values(kind=seat.kind, name=seat.name, bot=seat.bot,
                                              token_hash=seat.token_hash,
                                              invite_hash=seat.invite_hash,
                                              user_id=seat.user_id, timeouts=seat.timeouts,
                                              forfeited=seat.forfeited))
            if written.rowcount != 1:
                db.rollback()
                return None
            if status != "finished":
                kinds = db.execute(select(seats.c.kind).where(seats.c.game_id == game_id)
                                   ).scalars().all()
                status = "open" if "open" in kinds else "running"
            db.execute(update(games).where(games.c.id == game_id)
                       .values(status=status, updated_at=now()))
            return str(status)

    def list_games(self, status: str | None, limit: int, game: str | None = None,
                   players: int | None = None, speed: str | None = None) -> list[GameRow]:
        """The listed games, most recently changed first; only those of `status`, `game`,
        `players` seats and `speed` when given. Abandoned games (see `abandoned`) are left
        out of the running ones: a lobby full of dead tables sends people away."""
        with self.engine.connect() as db:
            query = select(games).where(games.c.listed.is_(True))
            if status is not None:
                query = query.where(games.c.status == status)
            if game is not None:
                query = query.where(games.c.game == game)
            if speed is not None:
                query = query.where(games.c.speed == speed)
            if players is not None:  # every game has a row per seat from its creation
                query = query.where(select(func.count()).where(seats.c.game_id == games.c.id)
                                    .scalar_subquery() == players)
            if status in (None, "running"):
                query = query.where(~and_(games.c.status == "running",
                                          abandoned(self.engine.dialect.name, now())))
            found = db.execute(query.order_by(games.c.updated_at.desc()).limit(limit)
                               ).mappings().all()
            return [GameRow(id=g["id"], game=g["game"], options=dict(g["options"]),
                            seed="", status=g["status"], version=g["version"],
                            listed=g["listed"], seats=self._seats(db, g["id"]),
                            result=g["result"], rematch_id=g["rematch_id"],
                            created_at=g["created_at"], updated_at=g["updated_at"],
                            **_clock(g))
                    for g in found]

    def first_moves(self, game_ids: list[str]) -> dict[str, dt.datetime]:
        """When a player (not chance) first moved in each of `game_ids` that has such a move:
        the lobby shows how long a game has been going."""
        if not game_ids:
            return {}
        query = (select(actions.c.game_id, func.min(actions.c.created_at))
                 .where(actions.c.game_id.in_(game_ids), actions.c.seat >= 0)
                 .group_by(actions.c.game_id))
        with self.engine.connect() as db:
            return {game_id: stamp for game_id, stamp in db.execute(query)}

    def running_game_ids(self, idle_for: float = 0.0) -> list[str]:
        """Running games, or those among them with a bot seat (or a forfeited one, which a
        bot plays) and no move for `idle_for` seconds (a bot whose process died)."""
        query = select(games.c.id).where(games.c.status == "running")
        if idle_for > 0:
            query = query.where(
                games.c.updated_at < now() - dt.timedelta(seconds=idle_for),
                games.c.id.in_(select(seats.c.game_id).where(
                    or_(seats.c.kind == "bot", seats.c.forfeited.is_(True)))))
        with self.engine.connect() as db:
            return list(db.execute(query).scalars())

    def expire_games(self, idle_for: float, bot_games_after: float = 0.0) -> list[str]:
        """Delete the unfinished games nobody moved or joined for `idle_for` seconds, and the
        finished games in which no person held a seat, `bot_games_after` seconds after their
        end (0 skips either); their ids. Finished games a person played are records and
        stay. At most 1,000 of each kind a call."""
        stamp = now()
        queries = []
        if idle_for:
            queries.append(select(games.c.id).where(
                games.c.status != "finished",
                games.c.updated_at < stamp - dt.timedelta(seconds=idle_for),
                games.c.turn_seat.is_(None)))  # a running clock moves its game on itself
        if bot_games_after:
            people = select(seats.c.game_id).where(seats.c.game_id == games.c.id,
                                                   seats.c.kind != "bot")
            queries.append(select(games.c.id).where(
                games.c.status == "finished", ~people.exists(),
                games.c.updated_at < stamp - dt.timedelta(seconds=bot_games_after)))
        found: list[str] = []
        with self.engine.begin() as db:
            for query in queries:
                found += db.execute(query.limit(1000)).scalars()
            if found:  # their seats and actions go with them: ON DELETE CASCADE
                db.execute(delete(games).where(games.c.id.in_(found)))
        return found

    def client_games(self, client: str, since: dt.datetime) -> tuple[int, int, dt.datetime | None]:
        """For the games `client` created: how many are unfinished, how many were created
        since `since`, and the oldest of those (when the daily quota frees up). Both counts
        read the (client, created_at) index."""
        mine = games.c.client == client[:64]
        with self.engine.connect() as db:
            unfinished = db.execute(select(func.count()).select_from(games).where(
                mine, games.c.status != "finished")).scalar_one()
            recent, oldest = db.execute(select(func.count(), func.min(games.c.created_at))
                                        .where(mine, games.c.created_at >= since)).one()
        return int(unfinished), int(recent), oldest

    def add_leaver(self, game_id: str, user_id: int, seat: int) -> None:
        """Note that an account left (or was dropped from) a game before its end."""
        with self.engine.begin() as db:
            known = db.execute(select(leavers.c.seat).where(
                leavers.c.game_id == game_id, leavers.c.user_id == user_id)).first()
            if known is None:
                db.execute(insert(leavers).values(game_id=game_id, user_id=user_id, seat=seat,
                                                  at=now()))

    def count_games(self) -> int:
        with self.engine.connect() as db:
            return int(db.execute(select(func.count()).select_from(games)).scalar_one())
