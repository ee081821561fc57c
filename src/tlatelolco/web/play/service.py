"""The server's authority over games: lobby operations and the action pipeline.

Synchronous and free of transport: routes and sockets call it from worker threads and publish
what it returns. Every action goes through one pipeline (`act`): credential -> the action is
well-formed -> right seat and turn -> the client's version is current -> apply (with any chance
that follows, drawn from the secret seed) -> stored in one transaction -> a new version that
each viewer turns into their own view.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import secrets
import threading
import unicodedata
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from tlatelolco.bots import bot_names, make_bot, parse_spec, search_spec
from tlatelolco.contract import MAX_ACTION_TEXT, IllegalActionError
from tlatelolco.i18n import DEFAULT_LANGUAGE, N_, Seat, gettext, in_words, render
from tlatelolco.records import make_record, result_of
from tlatelolco.registry import game_class, list_games, load
from tlatelolco.web.accounts.identity import Account, Credential
from tlatelolco.web.http.errors import ApiError, forbidden, not_found, unauthorized
from tlatelolco.web.play import clocks
from tlatelolco.web.play.live import (
    Live,
    apply_step,
    build_live,
    resolve_chance,
    token_hash,
    undoable_steps,
)
from tlatelolco.web.play.quota import Quota, check_quota
from tlatelolco.web.play.views import seat_names
from tlatelolco.web.storage.store import GameRow, SeatRow, Store
from tlatelolco.web.workers.bots import (
    IDLE_BOT_TIME,
    MAX_SPEC_LENGTH,
    clamp_spec,
    hint_time,
    idle_spec,
)
from tlatelolco.web.workers.fairness import IDLE, PERSON, Ticket

OPEN, HUMAN, BOT = "open", "human", "bot"
# The API's `seat` fields count from 0, as the engine does; words for people count from 1
# ("seat 1" is the first seat), and so do default names.
NAME_MAX = 40
NOT_A_MOVE = N_("that is not a move of this game")


def numbers(seats: Iterable[int]) -> str:
    """Seats as people count them: "1, 3" for seats 0 and 2."""
    return ", ".join(str(seat + 1) for seat in seats)


@dataclass(slots=True)
class Change:
    """What happened to a game: its id and the version it moved from (for log deltas)."""

    game_id: str
    version: int
    previous: int
    seats_changed: bool = False
    reset: bool = False  # steps were taken back: views must be sent whole

    def message(self) -> dict[str, Any]:
        message = {"game": self.game_id, "version": self.version, "previous": self.previous,
                   "seats": self.seats_changed}
        if self.reset:
            message["reset"] = True
        return message


def new_token() -> str:
    return secrets.token_urlsafe(18)


def clean_name(name: Any, default: str) -> str:
    """A player name as shown to everybody: one line, no control or formatting characters
    (a bidi override or a zero-width joiner would let one name pass for another)."""
    if name is None:
        return default
    if not isinstance(name, str) or not name.strip():
        raise ApiError(422, "bad_name", "a player name is a non-empty string")
    if len(name) > 4 * NAME_MAX:
        raise ApiError(422, "bad_name", f"a player name has at most {NAME_MAX} characters")
    name = " ".join(name.split())
    bad = next((c for c in name if unicodedata.category(c)[0] == "C"), None)
    if bad is not None:
        raise ApiError(422, "bad_name", "a player name cannot hold control or formatting "
                       f"characters (it holds U+{ord(bad):04X}); letters, digits, spaces and "
                       "punctuation are allowed")
    if len(name) > NAME_MAX:
        raise ApiError(422, "bad_name", f"a player name has at most {NAME_MAX} characters")
    return name


def hides_between_seats(game: Any) -> bool:
    """Whether seats see different things, so that one person must hold only one of them."""
    return game.info.information == "imperfect"


def game_status(seats: list[SeatRow], finished: bool) -> str:
    if finished:
        return "finished"
    return "open" if any(s.kind == OPEN for s in seats) else "running"


class Service:
    def __init__(self, store: Store, cache_size: int = 2000, *, quota: Quota | None = None,
                 idle_bot_time: float = IDLE_BOT_TIME, expire_after: float = 0.0,
                 min_move_time: int = clocks.MIN_MOVE_TIME) -> None:
        self.store = store
        self.min_move_time = min_move_time  # the shortest time a turn of a turn-based game
        self.cache_size = cache_size
        self.quota = quota or Quota(0, 0)  # games per creating address (none: unlimited)
        self.idle_bot_time = idle_bot_time  # a bot's seconds in a game of bots only (0: any)
        self.expire_after = expire_after  # when abandoned games go (said in quota errors)
        self._cache: OrderedDict[str, Live] = OrderedDict()
        self._cache_lock = threading.Lock()

    # --- games in memory ------------------------------------------------------------------
    def live(self, game_id: str) -> Live:
        with self._cache_lock:
            found = self._cache.get(game_id)
            if found is not None:
                self._cache.move_to_end(game_id)
                return found
        row = self.store.load_game(game_id)
        if row is None:
            raise not_found(game_id)
        try:
            live = build_live(row)
        except (ValueError, IllegalActionError) as err:
            raise ApiError(500, "corrupt_game", f"game {game_id!r} is stored with a history "
                           f"that does not replay: {err}") from None
        with self._cache_lock:
            live = self._cache.setdefault(game_id, live)
            while len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)
        return live

    def peek(self, game_id: str) -> Live | None:
        """The game if this process holds it in memory, else None: never reads the database
        (listeners look at every move this way)."""
        with self._cache_lock:
            return self._cache.get(game_id)

    def refresh(self, live: Live, seats: bool = False) -> None:
        """Catch up with steps (and seat changes) another server process stored."""
        with live.lock:
            self._catch_up(live, seats)

    def _catch_up(self, live: Live, seats: bool) -> None:
        """`refresh` for a caller holding the game's lock."""
        undos, steps = self.store.steps_since(live.row.id, live.version)
        if undos >= 0 and undos != live.row.undos:  # steps were taken back: replay it all
            row = self.store.load_game(live.row.id)
            if row is not None:
                fresh = build_live(row)
                live.row, live.state, live.log = fresh.row, fresh.state, fresh.log
                return
        if steps:
            state, log = live.state.clone(), list(live.log)
            for action, actor in steps:
                apply_step(state, action, log, actor)
            live.state, live.log = state, log
        if steps or seats:
            row = self.store.load_game(live.row.id, with_history=False)
            if row is not None:
                live.row = row

    def refresh_game(self, game_id: str) -> None:
        """`refresh` by id: a game another process may have moved on."""
        self.refresh(self.live(game_id))

    def sync(self, game_id: str, version: int, seats: bool = False) -> Live:
        """The live game at `version` at least (the version a notification announced)."""
        live = self.live(game_id)
        if live.version < version or seats:
            self.refresh(live, seats=seats)
        return live

    # --- lobby ----------------------------------------------------------------------------
    def catalog(self) -> list[dict[str, Any]]:
        entries = []
        for name in list_games():
            info = game_class(name).info.as_dict()
            info["bots"] = bot_names(load(name))
            entries.append(info)
        return entries

    def lobby_games(self, status: str | None, limit: int, game: str | None = None,
                    players: int | None = None, speed: str | None = None
                    ) -> list[tuple[GameRow, dt.datetime | None]]:
        """The listed games that pass the filters, most recently changed first, each with
        when its players began to move (None before the first move)."""
        rows = self.store.list_games(status, limit, game=game, players=players, speed=speed)
        started = self.store.first_moves([row.id for row in rows if row.status != "open"])
        return [(row, started.get(row.id)) for row in rows]

    def create(self, game: str, options: dict[str, Any], seats: list[str] | None,
               name: str | None, listed: bool, spectator_chat: bool = True,
               client: str | None = None, account: Account | None = None,
               speed: str = clocks.LIVE, move_time: int | None = None,
               on_timeout: str | None = None
               ) -> tuple[GameRow, dict[int, str], dict[int, str]]:
        """A new game; the personal credentials of the seats its creator takes, and the
        invites of its open seats (each good for one claim). `client`, the creator's address,
        is stored with it (quotas, fair bot time) and must be within its quota. The seats of
        a logged-in creator are the `account`'s, under its name. A turn-based game (`speed`
        "turn") gives each person `move_time` seconds a turn, and `on_timeout` says what
        running out brings (see `clocks`)."""
        try:
            check_option_types(game_class(game), options)
            checked = game_class(game).check_remote_options(options)
            loaded = load(game, **checked)
        except ValueError as err:
            raise ApiError(422, "bad_game", str(err)) from None
        try:
            speed, move_time, on_timeout = clocks.check_clock(speed, move_time, on_timeout,
                                                              self.min_move_time)
        except ValueError as err:
            raise ApiError(422, "bad_clock", str(err)) from None
        n = loaded.num_players()
        specs = seats if seats is not None else ["taken"] + ["open"] * (n - 1)
        if len(specs) != n:
            raise ApiError(422, "bad_seats", f"{loaded.info.title} with these options has {n} "
                           f"seats but {len(specs)} seat choices were given")
        owner = account.name if account else clean_name(name, "Player")
        rows = [self._seat_from_spec(loaded, seat, spec, owner) for seat, spec in enumerate(specs)]
        for row in rows:
            if row.kind == HUMAN and account is not None:
                row.user_id = account.id
        for row, shown in zip(rows, seat_names(rows), strict=True):
            if row.kind == BOT:
                row.name = shown  # by level in English: records and lists name it so too
        mine = [r.seat for r in rows if r.kind == HUMAN]
        if len(mine) > 1 and hides_between_seats(loaded):
            raise ApiError(422, "one_seat", f"in {loaded.info.title} the seats hide things from "
                           "each other, so each person holds one seat: take one and make the "
                           f"others open (invite links) or bots; you asked for seats "
                           f"{numbers(mine)}")
        tokens, invites = {}, {}
        for row in rows:
            if row.kind == HUMAN:
                tokens[row.seat] = new_token()
                row.token_hash = token_hash(tokens[row.seat])
            elif row.kind == OPEN:
                invites[row.seat] = new_token()
                row.invite_hash = token_hash(invites[row.seat])
        row = GameRow(id=secrets.token_urlsafe(6), game=loaded.info.name,
                      options=dict(loaded.options), seed=str(secrets.randbits(63)),
                      status=game_status(rows, False), version=0, listed=listed,
                      seats=self._idle_bots(rows), client=client,
                      spectator_chat=spectator_chat, speed=speed, move_time=move_time,
                      on_timeout=on_timeout)
        check_quota(self.store, self.quota, client, self.expire_after)
        self.store.create_game(row)
        live = self.live(row.id)
        with live.lock:
            if live.state.is_chance_node():  # the opening shuffle happens now, on the server
                self._commit(live, [])
            else:
                self._sync_clock(live)  # a person to move at once: the clock starts
        return live.row, tokens, invites

    @staticmethod
    def _seat_from_spec(game: Any, seat: int, spec: Any, owner: str) -> SeatRow:
        if not isinstance(spec, str) or len(spec) > 4 + MAX_SPEC_LENGTH:
            raise ApiError(422, "bad_seats", f"seat {seat + 1}: a seat is 'open', 'taken' or "
                           f"'bot:NAME' (at most {MAX_SPEC_LENGTH} characters after 'bot:')")
        if spec == "open":
            return SeatRow(seat, OPEN, f"Open seat {seat + 1}")
        if spec in ("taken", "me"):
            return SeatRow(seat, HUMAN, owner)
        kind, _, bot = spec.partition(":")
        if kind != "bot" or not bot:
            raise ApiError(422, "bad_seats", f"seat {seat + 1}: {spec[:40]!r} is not a seat "
                           "choice; allowed: open, taken, bot:NAME with NAME one of "
                           f"{', '.join(bot_names(game))}")
        try:
            bot = clamp_spec(bot)
            make_bot(bot, game, seat)
        except ValueError as err:
            raise ApiError(422, "bad_seats", f"seat {seat + 1}: {err}") from None
        return SeatRow(seat, BOT, f"{parse_spec(bot)[0].capitalize()} bot", bot=bot)

    def join(self, game_id: str, seat: int | None, name: str | None,
             held: Credential | None = None, account: Account | None = None
             ) -> tuple[Live, int, str, Change]:
        """An open seat of a listed game for whoever asks; `held` is a credential the asker
        already has in this game (one person, one seat where seats hide things). A logged-in
        asker's seat is their `account`'s, under its name."""
        held = held or account
        live = self.live(game_id)
        self.refresh(live, seats=True)
        with live.lock:
            if not live.row.listed:
                raise ApiError(403, "invite_only", "this game is not listed in the lobby: its "
                               "open seats are taken with their invite links only")
            if live.row.status == "finished":
                raise ApiError(409, "finished", "this game is over; nobody can join it")
            mine = live.seat_of(held) if held else None
            if mine is not None and hides_between_seats(live.game):
                raise ApiError(409, "one_seat", f"you hold seat {mine + 1} of this game already; "
                               f"in {live.game.info.title} the seats hide things from each "
                               "other, so each person holds one seat")
            open_seats = [s.seat for s in live.row.seats if s.kind == OPEN]
            if seat is None:
                if not open_seats:
                    raise ApiError(409, "no_open_seat", "every seat of this game is taken")
                seat = open_seats[0]
            _check_seat_field(live, seat)
            if seat not in open_seats:
                raise ApiError(409, "seat_taken", f"seat {seat + 1} is not open; open seats: "
                               f"{numbers(open_seats) or 'none'}")
            token = new_token()
            taken = SeatRow(seat, HUMAN, account.name if account else
                            clean_name(name, f"Player {seat + 1}"),
                            token_hash=token_hash(token),
                            user_id=account.id if account else None)
            return live, seat, token, self._change_seat(live, taken, expect=OPEN)

    def claim(self, game_id: str, invite: str | None, name: str | None,
              held: Credential | None = None, account: Account | None = None
              ) -> tuple[Live, int, str, Change]:
        """The holder of an invite takes the open seat it was made for, with a fresh personal
        credential: whoever made or saw the invite cannot act for the seat. An invite is
        good once. `held` is a credential the claimer already has in this game (one person,
        one seat where seats hide things, as in `join`)."""
        if not invite:
            raise ApiError(401, "no_credential", "claiming a seat needs its invite: send the "
                           "code from the invite link as 'Authorization: Bearer INVITE'")
        held = held or account
        live = self.live(game_id)
        self.refresh(live, seats=True)
        digest = token_hash(invite)
        with live.lock:
            seat = next((s for s in live.row.seats if s.invite_hash == digest), None)
            if seat is None:
                mine = live.seat_of(invite)
                raise ApiError(403, "bad_invite", f"seat {mine + 1} is yours already; there "
                               "is nothing to claim" if mine is not None else
                               f"that is not an invite to game {game_id!r} (perhaps a newer "
                               "link replaced it); ask a player of the game for a new link")
            if seat.kind != OPEN:
                raise ApiError(409, "invite_used", f"this invite link was used already: seat "
                               f"{seat.seat + 1} is taken by {seat.name}. Ask a player of the game "
                               "for a new link, or watch the game")
            mine = live.seat_of(held) if held else None
            if mine is not None and hides_between_seats(live.game):
                raise ApiError(409, "one_seat", f"you hold seat {mine + 1} of this game already; "
                               f"in {live.game.info.title} the seats hide things from each "
                               "other, so each person holds one seat: pass this invite on to "
                               "somebody else")
            if live.row.status == "finished":
                raise ApiError(409, "finished", "this game is over; nobody can join it")
            token = new_token()
            taken = SeatRow(seat.seat, HUMAN, account.name if account else
                            clean_name(name, f"Player {seat.seat + 1}"),
                            token_hash=token_hash(token), invite_hash=digest,
                            user_id=account.id if account else None)
            change = self._change_seat(live, taken, expect=OPEN, invite=digest)
            return live, seat.seat, token, change

    def invite(self, game_id: str, token: Credential | None, seat: int) -> tuple[Live, str, Change]:
        """A new invite to an open seat, asked for by a player of the game (after somebody
        left, or to replace a lost link); older invites to the seat stop working."""
        live, _ = self.authenticate(game_id, token)
        with live.lock:
            if live.row.status == "finished":
                raise ApiError(409, "finished", "this game is over; nobody can join it")
            _check_seat_field(live, seat)
            current = live.row.seats[seat]
            if current.kind != OPEN:
                raise ApiError(409, "seat_taken", f"seat {seat + 1} is not open; only open "
                               "seats get invites")
            invite = new_token()
            fresh = SeatRow(seat, OPEN, current.name, invite_hash=token_hash(invite))
            return live, invite, self._change_seat(live, fresh, expect=OPEN)

    def invite_user(self, game_id: str, token: Credential | None, seat: int, user_id: int,
                    name: str) -> tuple[Live, str, Change]:
        """Seat the account `user_id` (named `name`) in open `seat` at once, asked for by a
        player of the game (invite by name): no link and no credential change hands, as an
        account's seats follow it; older invites to the seat stop working. The inviter's
        name (for the notice) comes back with the change."""
        live, mine = self.authenticate(game_id, token)
        with live.lock:
            if live.row.status == "finished":
                raise ApiError(409, "finished", "this game is over; nobody can join it")
            _check_seat_field(live, seat)
            if live.row.seats[seat].kind != OPEN:
                raise ApiError(409, "seat_taken", f"seat {seat + 1} is not open; a player can "
                               "be seated by name in an open seat only")
            held = live.seat_of(Account(user_id, name))
            if held is not None and hides_between_seats(live.game):
                raise ApiError(409, "one_seat", f"{name} holds seat {held + 1} of this game "
                               f"already; in {live.game.info.title} the seats hide things from "
                               "each other, so each person holds one seat")
            inviter = live.row.seats[mine].name
            taken = SeatRow(seat, HUMAN, name, user_id=user_id)
            return live, inviter, self._change_seat(live, taken, expect=OPEN)

    def leave(self, game_id: str, token: Credential | None) -> tuple[Live, Change]:
        """Give up a seat: it opens for somebody else. An account leaving a game under way
        is rated as one of its losers when it ends."""
        live, seat = self.authenticate(game_id, token)
        with live.lock:
            if live.row.status == "finished":
                raise ApiError(409, "finished", "this game is over; there is nothing to leave")
            if live.row.seats[seat].forfeited:  # opened, the game would wait for a player
                raise ApiError(409, "forfeited", f"seat {seat + 1} forfeited on time: a bot "
                               "plays it to the end, and it cannot be given up")
            holder = live.row.seats[seat].user_id
            if holder is not None and live.row.status == "running":
                self.store.add_leaver(live.row.id, holder, seat)
            return live, self._change_seat(live, SeatRow(seat, OPEN, f"Open seat {seat + 1}"))

    def _change_seat(self, live: Live, seat: SeatRow, expect: str | None = None,
                     invite: str | None = None) -> Change:
        """Store a seat's new holder (the lock of `live` held) and take up the stored seats."""
        stored = self.store.update_seat(live.row.id, seat, expect, invite)
        self._catch_up(live, seats=True)
        if stored is None:
            raise ApiError(409, "seat_taken", f"seat {seat.seat + 1} was taken a moment ago; "
                           "open seats: " + (numbers(s.seat for s in live.row.seats
                                                     if s.kind == OPEN) or "none"))
        self._sync_clock(live)  # the table filled (the clock starts) or a seat opened (stops)
        return Change(live.row.id, live.version, live.version, seats_changed=True)

    def rematch(self, game_id: str, token: Credential | None, client: str | None = None
                ) -> tuple[str, int, Change | None]:
        """The same table again with seats rotated by one; each player keeps their credential
        (open seats get no invite: a player of the new game asks for one). It is `client`'s
        game, within its quota, as a create is."""
        live, seat = self.authenticate(game_id, token)
        if not live.state.is_terminal() and live.row.status != "finished":  # or forfeited
            raise ApiError(409, "not_finished", "a rematch can be asked for once the game is over")
        n = len(live.row.seats)
        with live.lock:
            if live.row.rematch_id is None:
                rotated = [live.row.seats[(s - 1) % n] for s in range(n)]
                seats = [SeatRow(s, r.kind, r.name, r.bot, r.token_hash, user_id=r.user_id)
                         for s, r in enumerate(rotated)]
                row = GameRow(id=secrets.token_urlsafe(6), game=live.row.game,
                              options=dict(live.row.options), seed=str(secrets.randbits(63)),
                              status=game_status(seats, False), version=0,
                              listed=live.row.listed, seats=seats, client=client,
                              spectator_chat=live.row.spectator_chat, speed=live.row.speed,
                              move_time=live.row.move_time, on_timeout=live.row.on_timeout)
                check_quota(self.store, self.quota, client, self.expire_after)
                if not self.store.create_game(row, rematch_of=game_id):
                    self._catch_up(live, seats=True)  # another process made it first
                else:
                    fresh = self.live(row.id)
                    with fresh.lock:
                        if fresh.state.is_chance_node():
                            self._commit(fresh, [])
                        else:
                            self._sync_clock(fresh)
                    live.row = _changed(live.row, rematch_id=row.id)
                change = Change(game_id, live.version, live.version, seats_changed=True)
            else:
                change = None
            return live.row.rematch_id or "", (seat + 1) % n, change

    def expire(self, idle_for: float, bot_games_after: float = 0.0) -> list[str]:
        """Delete the unfinished games nobody touched for `idle_for` seconds and the finished
        games of bots only `bot_games_after` seconds after their end (see
        `Store.expire_games`), and forget them here."""
        gone = self.store.expire_games(idle_for, bot_games_after)
        with self._cache_lock:
            for game_id in gone:
                self._cache.pop(game_id, None)
        return gone

    # --- the action pipeline --------------------------------------------------------------
    def authenticate(self, game_id: str, token: Credential | None) -> tuple[Live, int]:
        if not token:
            raise unauthorized()
        live = self.live(game_id)
        seat = live.seat_of(token)
        if seat is None:  # perhaps another process changed the seats
            self.refresh(live, seats=True)
            seat = live.seat_of(token)
        if seat is None and isinstance(token, Account):
            raise ApiError(403, "no_seat", f"your account holds no seat in game {game_id!r}")
        if seat is None:
            digest = token_hash(token)
            if any(s.invite_hash == digest for s in live.row.seats):
                raise ApiError(403, "bad_credential", "that is an invite, not a seat "
                               "credential: claim the seat with it first (POST "
                               f"/api/games/{game_id}/claim) and use the credential you get")
            raise forbidden(game_id)
        return live, seat

    def viewer(self, game_id: str, token: Credential | None) -> tuple[Live, int | None]:
        """The seat a credential holds, or None (a spectator) when there is no credential
        (or an account that holds no seat here: a logged-in spectator)."""
        if isinstance(token, Account):
            live = self.live(game_id)
            self.refresh(live, seats=True)
            return live, live.seat_of(token)
        if not token:
            live = self.live(game_id)
            self.refresh(live)  # another process may have moved it on
            return live, None
        live, seat = self.authenticate(game_id, token)
        self.refresh(live)
        return live, seat

    def act(self, game_id: str, token: Credential | None, action: Any, text: Any,
            version: Any, lang: str = DEFAULT_LANGUAGE) -> tuple[Live, int, Change]:
        """Play `action` (a number) or `text` (notation) for the credential's seat; a refusal
        says why in `lang`, in the rules' words."""
        live, seat = self.authenticate(game_id, token)
        return live, seat, self.act_as(live, seat, action, text, version, lang, person=True)

    def act_as(self, live: Live, seat: int, action: Any, text: Any, version: Any,
               lang: str = DEFAULT_LANGUAGE, person: bool = False) -> Change:
        """`act` for `seat`; a `person`'s move must also come in time (turn-based games)."""
        _check_version_type(version)
        if (action is None) == (text is None):
            raise ApiError(422, "bad_action", "send exactly one of 'action' (an action number) "
                           "or 'text' (the move in the game's notation)")
        if action is not None and type(action) is not int:
            raise ApiError(422, "bad_action", "'action' must be an integer action number")
        if text is not None and not isinstance(text, str):
            raise ApiError(422, "bad_action", "'text' must be a string in the game's notation")
        if text is not None and len(text) > MAX_ACTION_TEXT:
            raise ApiError(422, "bad_action", f"'text' has at most {MAX_ACTION_TEXT} characters; "
                           f"this one has {len(text)}")
        with live.lock:
            self._catch_up(live, seats=False)  # another process may have stored steps
            state = live.state
            self._check_turn(live, seat, lang)
            if person:
                _check_in_time(live, seat, lang)
            _check_current(live, version)
            if text is not None:
                try:
                    action = state.string_to_action(text)
                except ValueError as err:
                    raise self._refusal(live, err, lang) from None
            known = 0 <= action < live.game.num_distinct_actions()
            if not known or state.illegal_reason(action) is not None:
                try:
                    state.apply_action(action)  # raises with the engine's full message
                except IllegalActionError as err:
                    raise self._refusal(live, err, lang, known) from None
            return self._commit(live, [(action, seat)])

    @staticmethod
    def _refusal(live: Live, err: ValueError, lang: str, known: bool = True) -> ApiError:
        """The 409 of an illegal move: the rules' reason in words in `lang` (never the
        engine's notation) as its message; the engine's own text, with the moves legal now,
        as its `detail` for programs. An action the game does not have is not a move."""
        why = getattr(err, "reason", None) if known else None
        words = (in_words(why, lang, seat_names(live.row.seats, lang)) if why
                 else gettext(NOT_A_MOVE, lang))
        return ApiError(409, "illegal_action", words, detail=str(err))

    def undo(self, game_id: str, token: Credential | None, version: Any
             ) -> tuple[Live, int, Change]:
        """Take back the credential's last action of its current turn (see `undoable_steps`).
        The step goes to the game's take-backs (the record keeps it), not into its history."""
        live, seat = self.authenticate(game_id, token)
        _check_version_type(version)
        with live.lock:
            self._catch_up(live, seats=False)
            self._check_turn(live, seat)
            _check_in_time(live, seat)
            _check_current(live, version)
            if not undoable_steps(live.log, seat, live.state.current_player()):
                raise ApiError(409, "cannot_undo", "there is nothing to take back: only your "
                               "own moves of this turn, before anything is drawn or revealed "
                               "and before another player moves")
            if not self.store.undo(live.row.id, live.version, live.row.undos,
                                   live.log[-1].text):
                self._catch_up(live, seats=True)
                raise ApiError(409, "stale_version", "the game changed first; it is now at "
                               f"version {live.version}", version=live.version)
            previous = live.version
            history = live.state.history()[:-1]
            live.state, live.log = live.game.replay(history), live.log[:-1]
            live.row = _changed(live.row, undos=live.row.undos + 1, version=previous - 1)
            return live, seat, Change(live.row.id, previous - 1, previous, reset=True)

    def why(self, game_id: str, token: Credential | None, text: Any,
            lang: str = DEFAULT_LANGUAGE) -> str | None:
        """Why the move `text` (in the game's notation) may not be played by the credential's
        seat now, in the engine's words and in `lang`; None when it may."""
        live, seat = self.authenticate(game_id, token)
        if not isinstance(text, str) or not 0 < len(text) <= MAX_ACTION_TEXT:
            raise ApiError(422, "bad_action", f"'text' is a move in the game's notation, at "
                           f"most {MAX_ACTION_TEXT} characters")
        state, names = live.state, seat_names(live.row.seats, lang)
        if live.row.status != "running" or state.is_terminal():
            return gettext(N_("the game is not being played now"), lang)
        if state.current_player() != seat:
            return render((N_("it is not your turn: {player} is to move"),
                           {"player": Seat(state.current_player())}), lang, names)
        action = state.parse_action(text)
        if action is None:  # the page's own guess at a move: not the player's words
            return gettext(NOT_A_MOVE, lang)
        why = state.illegal_reason(action)
        return None if why is None else in_words(why, lang, names)

    @staticmethod
    def _check_turn(live: Live, seat: int, lang: str = DEFAULT_LANGUAGE) -> None:
        """That the game runs and `seat` is to move; else the 409 that says why not, in
        `lang`, seats counted from 1 (the `to_move` field stays the API's seat)."""
        if live.row.status == "finished" or live.state.is_terminal():
            raise ApiError(409, "finished", gettext(N_("the game is over"), lang))
        if live.row.status != "running":
            open_seats = [s.seat for s in live.row.seats if s.kind == OPEN]
            raise ApiError(409, "waiting", render((N_("the game waits for players in seat(s) "
                                                      "{seats}"), {"seats": numbers(open_seats)}),
                                                  lang))
        to_move = live.state.current_player()
        if to_move != seat:
            raise ApiError(409, "not_your_turn", render(
                (N_("it is seat {n}'s turn ({player}), not yours (seat {mine})"),
                 {"n": to_move + 1, "player": Seat(to_move), "mine": seat + 1}),
                lang, seat_names(live.row.seats, lang)), to_move=to_move)

    def _commit(self, live: Live, steps: list[tuple[int, int]]) -> Change:
        """Apply `steps` and the chance that follows on a copy and store them (lock held),
        with the game's clock: it runs while a person's seat is to move."""
        state, log = live.state.clone(), list(live.log)
        for action, actor in steps:
            apply_step(state, action, log, actor)
        steps = steps + resolve_chance(state, live.row.seed, log)
        status = game_status(live.row.seats, state.is_terminal())
        result = _result(state, live.row.seats)
        clock = _clock(live.row, state, status)
        previous = live.version
        if not self.store.commit_actions(live.row.id, previous, steps, status, result,
                                         live.row.undos, clock):
            self._catch_up(live, seats=True)
            raise ApiError(409, "stale_version", "another move was accepted first; the game "
                           f"is now at version {live.version}", version=live.version)
        live.state, live.log = state, log
        live.row = _changed(live.row, status=status, result=result, turn_seat=clock[0],
                            turn_started_at=clock[1])
        return Change(live.row.id, len(log), previous)

    def _sync_clock(self, live: Live) -> None:
        """Start or stop the game's clock after its seats changed, without a move (lock
        held): the last open seat taken, a seat given up."""
        row = live.row
        clock = _clock(row, live.state, row.status)
        if clock == (row.turn_seat, clocks.utc(row.turn_started_at)):
            return
        if self.store.set_clock(row.id, live.version, *clock):
            live.row = _changed(row, turn_seat=clock[0], turn_started_at=clock[1])

    # --- timeouts of turn-based games -----------------------------------------------------
    def time_out(self, game_id: str, seat: int, started: dt.datetime) -> Change | None:
        """Apply the timeout of `seat`, whose clock started at `started`, if that clock still
        runs and its deadline has passed; else None (nothing to do: the seat moved in time, or
        another server process applied it first). The consequence is the game's `on_timeout`
        (see `clocks.consequence`): a quick bot plays the seat's turn to its end and the
        timeout is counted; "drop" at the third timeout gives the seat to that bot for good
        (an account is noted as a leaver); "lose" forfeits the seat (ranked last; a bot plays
        it on), which ends a game of two at once. All of it is stored in one transaction, on
        the condition that the game is still as it was read."""
        live = self.live(game_id)
        with live.lock:
            self._catch_up(live, seats=True)
            row, state = live.row, live.state
            started = clocks.utc(started)  # type: ignore[assignment]
            due = clocks.deadline(row.turn_started_at, row.move_time)
            if (row.status != "running" or row.turn_seat != seat or due is None
                    or clocks.utc(row.turn_started_at) != started or clocks.now() < due):
                return None
            held = row.seats[seat]
            if (state.is_terminal() or state.current_player() != seat or held.kind != HUMAN
                    or held.forfeited):  # a clock left running by mistake: set it right
                self._sync_clock(live)
                return None
            what = clocks.consequence(row.on_timeout, held.timeouts)
            mine = dataclasses.replace(held, timeouts=held.timeouts + 1)
            leaver = None
            if what == clocks.DROP:
                leaver = held.user_id
                spec = _timeout_bot(live.game)
                mine = SeatRow(seat, BOT, "", bot=spec, timeouts=held.timeouts + 1)
            elif what == clocks.LOSE:
                mine.forfeited = True
            seats = [mine if s.seat == seat else s for s in row.seats]
            if what == clocks.DROP:
                mine.name = seat_names(seats)[seat]  # by level in English, as at creation
            forfeited = [s.seat for s in seats if s.forfeited]
            log = live.log
            if what == clocks.LOSE and len(seats) <= 2:  # the other one wins: it ends now
                steps: list[tuple[int, int]] = []
                status = "finished"
                result: dict[str, Any] | None = clocks.forfeit_result(
                    len(seats), seat, forfeited, state.scores())
            else:
                state, log, steps = self._play_turn(live, seat)
                status = game_status(seats, state.is_terminal())
                result = _result(state, seats)
            after = _changed(row, seats=seats)
            clock = _clock(after, state, status, fresh=True)
            previous = live.version
            if not self.store.commit_timeout(row.id, previous, row.undos, seat, started, steps,
                                             status, result, mine, clock, leaver):
                self._catch_up(live, seats=True)
                return None
            live.state, live.log = state, log
            live.row = _changed(after, status=status, result=result, turn_seat=clock[0],
                                turn_started_at=clock[1], version=len(log))
            return Change(row.id, len(log), previous, seats_changed=True)

    def _play_turn(self, live: Live, seat: int
                   ) -> tuple[Any, list[Any], list[tuple[int, int]]]:
        """The quick bot's play of `seat`'s turn, to its end, on a copy (lock held): the
        state, its log and the steps (chance included). The bot decides from what the seat
        may know, as every bot seat does (`workers.bots.decide`)."""
        from tlatelolco.web.workers.bots import decide

        row, spec = live.row, _timeout_bot(live.game)
        state, log = live.state.clone(), list(live.log)
        steps: list[tuple[int, int]] = []
        for _ in range(TURN_ACTIONS_MAX):
            if state.is_terminal() or state.current_player() != seat:
                break
            job = {"game_id": f"{row.id}:timeout", "game": row.game, "options": row.options,
                   "history": state.history(), "seat": seat, "spec": spec,
                   "seed": bot_seed(row.seed, seat, len(log), "timeout")}
            action = decide(job)
            apply_step(state, action, log, seat)
            steps.append((action, seat))
            steps += resolve_chance(state, row.seed, log)
        return state, log, steps

    # --- bots -----------------------------------------------------------------------------
    def bot_turn(self, game_id: str) -> tuple[int, str, dict[str, Any], Ticket] | None:
        """(seat, bot spec, job, ticket) when a bot seat is to move in a running game, else
        None. The ticket charges the move to the game's creator: in a game with a person at
        a priority above games of bots only, whose bots also think at most `idle_bot_time`
        (games stored before the cut was made at creation get it here)."""
        live = self.live(game_id)
        state, row = live.state, live.row
        if row.status != "running" or state.is_terminal():
            return None
        seat = state.current_player()
        if seat < 0 or (row.seats[seat].kind != BOT and not row.seats[seat].forfeited):
            return None
        spec = row.seats[seat].bot or _timeout_bot(live.game)  # a forfeited seat: quick bot
        idle = all(s.kind == BOT for s in row.seats)
        if idle:
            spec = idle_spec(spec, self.idle_bot_time)
        ticket = Ticket(IDLE if idle else PERSON, row.client or "?", row.id)
        return seat, spec, _job(live, seat, spec), ticket

    def _idle_bots(self, seats: list[SeatRow]) -> list[SeatRow]:
        """`seats`, with each bot's search cut to `idle_bot_time` when every seat is a bot:
        a game nobody plays gets a small share of the bot workers."""
        if not all(s.kind == BOT for s in seats):
            return seats
        return [dataclasses.replace(s, bot=idle_spec(s.bot or "random", self.idle_bot_time))
                for s in seats]

    def hint_job(self, game_id: str, token: Credential | None) -> dict[str, Any]:
        """The job of a hint for the credential's seat: its turn, in a game against bots only
        (against people a search playing for you would be an unfair helper). The search is
        ISMCTS where seats hide things, so a hint never uses what the seat cannot see."""
        live, seat = self.authenticate(game_id, token)
        with live.lock:
            self._catch_up(live, seats=True)
            self._check_turn(live, seat)
            _check_in_time(live, seat)
            people = [s.seat for s in live.row.seats if s.seat != seat and s.kind != BOT]
            if people:
                raise ApiError(409, "no_hints", "hints are for games against bots only; "
                               f"seat(s) {numbers(people)} are for people")
            return _job(live, seat, f"{search_spec(live.game)}:time={hint_time(live.row.game)}",
                        "hint")

    def hint_words(self, game_id: str, hint: dict[str, Any], lang: str) -> dict[str, Any]:
        """`hint` with each move also told in words, in `lang`, if the game has not moved on."""
        live = self.live(game_id)
        state, log = live.current()
        if len(log) != hint.get("version"):
            return hint
        names = seat_names(live.row.seats, lang)
        moves = []
        for move in hint["moves"]:
            try:
                words = render(state.describe_action(move["action"]), lang, names)
            except Exception:  # words are a courtesy; the notation is there
                words = move["text"]
            moves.append({**move, "words": words})
        return {**hint, "moves": moves}

    def bot_act(self, game_id: str, seat: int, action: int, version: int) -> Change | None:
        live = self.live(game_id)
        try:
            return self.act_as(live, seat, action, None, version)
        except ApiError as err:
            if err.status == 409 and err.code in ("stale_version", "not_your_turn",
                                                  "finished", "waiting"):
                return None  # someone (another process) moved first, or the game changed
            raise

    # --- replays and records --------------------------------------------------------------
    def replay_state(self, live: Live, step: int) -> Any:
        if not 0 <= step <= live.version:
            raise ApiError(422, "bad_step", f"step {step} is outside this game: it has steps "
                           f"0 to {live.version}")
        state = live.game.new_initial_state()
        for action in live.state.history()[:step]:
            state.apply_action(action)
        return state

    def record(self, live: Live) -> dict[str, Any]:
        """The game's record once it is over: at its end, or when a forfeit decided it (then
        its result is the stored one, which `records.check_forfeit` accepts)."""
        if not live.state.is_terminal() and live.row.status != "finished":
            self.refresh(live, seats=True)  # another process may have ended it
        if not live.state.is_terminal() and live.row.status != "finished":
            raise ApiError(409, "not_finished", "the whole record is shown once the game is "
                           "over; until then step through it with the replay")
        meta: dict[str, Any] = {"id": live.row.id}
        if live.row.undos:
            # the history is the final line; what was taken back, in order, goes beside it
            meta["taken_back"] = self.store.takebacks_of(live.row.id)
        forfeits = live.row.result if live.row.result and any(
            s.forfeited for s in live.row.seats) else None
        return make_record(live.state, [s.name for s in live.row.seats], meta=meta,
                           result=forfeits)


TURN_ACTIONS_MAX = 1000  # actions a bot plays for a seat out of time (a turn has far fewer)


def _clock(row: GameRow, state: Any, status: str, fresh: bool = False
           ) -> tuple[int | None, dt.datetime | None]:
    """The seat whose clock runs once the game is at `state` and `status`, and since when
    (see `clocks.running_seat`, `clocks.turn_start`)."""
    seat = clocks.running_seat(row.speed, status, state.current_player(),
                               [(s.kind, s.forfeited) for s in row.seats])
    return seat, clocks.turn_start(seat, row.turn_seat, row.turn_started_at, clocks.now(),
                                   fresh)


def _result(state: Any, seats: list[SeatRow]) -> dict[str, Any] | None:
    """The result of a game at `state`, its forfeited seats ranked last."""
    return clocks.ranked_last(result_of(state), [s.seat for s in seats if s.forfeited])


def _timeout_bot(game: Any) -> str:
    """The quick bot that plays for a seat out of time, or for good once it is given up."""
    return clocks.TIMEOUT_BOT if clocks.TIMEOUT_BOT in bot_names(game) else "random"


def _job(live: Live, seat: int, spec: str | None, purpose: str = "bot") -> dict[str, Any]:
    """What a bot worker needs to search for `seat` (see `web.bots`): the history, never the
    chance seed, and a seed derived from it for `purpose` (a bot's move or a hint)."""
    row = live.row
    return {"game_id": row.id, "game": row.game, "options": row.options,
            "history": live.state.history(), "seat": seat, "spec": spec, "undos": row.undos,
            "seed": bot_seed(row.seed, seat, live.version, purpose)}


def bot_seed(seed: str, seat: int, version: int, purpose: str = "bot") -> int:
    """A bot's (or a hint's) generator seed: derived from, but never revealing, the chance
    seed."""
    import hashlib

    digest = hashlib.sha256(f"{seed}:{purpose}:{seat}:{version}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


VERSION_MAX = 2**31 - 1  # the largest version a client may send (a game never gets near it)


def _check_version_type(version: Any) -> None:
    if type(version) is not int or not 0 <= version <= VERSION_MAX:
        raise ApiError(422, "bad_version", "send 'version': the version of the view you "
                       f"are answering, an integer from 0 to {VERSION_MAX}")


JSON_TYPES = {int: "a whole number (a JSON integer such as 3)",
              bool: "true or false", str: "text (a JSON string)"}


def check_option_types(cls: Any, options: dict[str, Any]) -> None:
    """That each option sent has the JSON type of the option's default: `"3"`, `3.0` or
    `true` for a number of players is refused (the command line's text conversion is not
    for clients); ValueError naming the option, its type and its allowed values."""
    declared = {o.name: o for o in cls.info.options}
    for name, value in options.items():
        option = declared.get(name)
        if option is None or type(value) is type(option.default):
            continue  # an unknown name is refused by check_remote_options
        kind = JSON_TYPES.get(type(option.default), type(option.default).__name__)
        got = "null" if value is None else {bool: "true/false", int: "a whole number",
                                            float: "a number with a fraction",
                                            str: "text"}.get(type(value), "a value")
        raise ValueError(f"{cls.info.name}: option {name} is {kind}, not {got}; allowed: "
                         f"{option.allowed()}")


def _check_seat_field(live: Live, seat: int) -> None:
    """That the API's `seat` field (counted from 0) names a seat of the game, else the 422."""
    if not 0 <= seat < len(live.row.seats):
        raise ApiError(422, "bad_seat", f"'seat' {seat} names no seat: this game's seats are "
                       f"0 to {len(live.row.seats) - 1} in the API (seats 1 to "
                       f"{len(live.row.seats)} for people)")


def _check_in_time(live: Live, seat: int, lang: str = DEFAULT_LANGUAGE) -> None:
    """That a person's seat may still move itself (lock held): it has not forfeited, and in a
    turn-based game its time for this turn has not run out (the server's clock applies the
    timeout at once); else the 409 that says so, in `lang`."""
    row = live.row
    if row.seats[seat].forfeited:
        raise ApiError(409, "forfeited", gettext(N_("your seat forfeited this game when its "
                                                    "time ran out; a bot plays it now"), lang))
    due = clocks.deadline(row.turn_started_at, row.move_time) if row.turn_seat == seat else None
    if due is not None and clocks.now() >= due:
        raise ApiError(409, "out_of_time", gettext(N_("your time for this turn ran out; the "
                                                      "server applies the timeout now"), lang))


def _check_current(live: Live, version: int) -> None:
    """That the client answers the game's current version (lock held), else the 409."""
    if version != live.version:
        raise ApiError(409, "stale_version", f"your view is of version {version} but "
                       f"the game is at version {live.version}; reload the view",
                       version=live.version)


def _changed(row: GameRow, **changes: Any) -> GameRow:
    """A copy of `row` with `changes`: rows are replaced, never changed, as views read them."""
    return dataclasses.replace(row, **changes)


__all__ = ["BOT", "HUMAN", "OPEN", "Change", "Service"]
