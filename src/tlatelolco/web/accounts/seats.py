"""Seats and accounts: a guest's seat attached to an account, and an account's games.

Synchronous: the server runs these in its threads.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import select, update

from tlatelolco.web.accounts.identity import Account
from tlatelolco.web.http.errors import ApiError
from tlatelolco.web.play.live import Live, token_hash
from tlatelolco.web.play.service import HUMAN, Change, Service, hides_between_seats
from tlatelolco.web.storage.db import games, seats

GAMES_LISTED = 100  # unfinished games of one account in its list


def attach(service: Service, game_id: str, token: str, account: Account
           ) -> tuple[int, Change | None]:
    """Make the seat that a guest's personal credential `token` holds the account's, under
    the account's name (the credential keeps working in its browser); the seat, and the
    change to announce (None when it was the account's already).

    Refused, changing nothing: an invite or another game's credential (403, as for a move),
    a seat another account holds (403), a finished game (409), and where seats hide things
    from each other a second seat for an account holding one already (409 `one_seat`).
    """
    live, seat = service.authenticate(game_id, token)
    service.refresh(live, seats=True)
    held = live.row.seats[seat]
    if held.user_id == account.id:
        return seat, None
    if held.user_id is not None:
        raise ApiError(403, "not_yours", f"seat {seat + 1} of game {game_id!r} belongs to "
                       "another account; only a guest's seat can be attached")
    if live.row.status == "finished":
        raise ApiError(409, "finished", "this game is over; its seats stay as they were")
    mine = live.seat_of(account)
    if mine is not None and hides_between_seats(live.game):
        raise ApiError(409, "one_seat", f"your account holds seat {mine + 1} of this game "
                       f"already; in {live.game.info.title} the seats hide things from each "
                       "other, so an account holds one seat")
    with service.store.engine.begin() as db:  # only if still that guest's seat
        written = db.execute(update(seats).where(
            seats.c.game_id == game_id, seats.c.seat == seat, seats.c.kind == HUMAN,
            seats.c.token_hash == token_hash(token), seats.c.user_id.is_(None),
        ).values(user_id=account.id, name=account.name))
        if written.rowcount != 1:
            db.rollback()
            raise ApiError(409, "seat_changed", f"seat {seat + 1} changed hands a moment ago; "
                           "nothing was attached")
    service.refresh(live, seats=True)
    return seat, Change(game_id, live.version, live.version, seats_changed=True)


def game_ids(service: Service, account: Account) -> list[str]:
    """The unfinished games in which the account holds a seat, most recently changed first
    (the `GAMES_LISTED` latest)."""
    held = select(seats.c.game_id).where(seats.c.user_id == account.id, seats.c.kind == HUMAN)
    query = (select(games.c.id).where(games.c.id.in_(held), games.c.status != "finished")
             .order_by(games.c.updated_at.desc()).limit(GAMES_LISTED))
    with service.store.engine.connect() as db:
        return list(db.execute(query).scalars())


def account_games(service: Service, account: Account) -> list[tuple[Live, int, bool, Any]]:
    """(live game, the account's seat, whether it is to move, its deadline or None) for the
    account's unfinished games: its turn first (the nearest deadline first), then the most
    recently changed."""
    found = []
    for game_id in game_ids(service, account):
        try:
            live = service.live(game_id)
            service.refresh(live, seats=True)
        except ApiError:  # deleted meanwhile
            continue
        row, state = live.row, live.state
        held = {s.seat for s in row.seats if s.user_id == account.id and s.kind == HUMAN}
        if not held or row.status == "finished":
            continue
        to_move = state.current_player()
        your_turn = row.status == "running" and not state.is_terminal() and to_move in held
        seat = to_move if your_turn else min(held)
        found.append((live, seat, your_turn, deadline(live, held) if your_turn else None))
    far = dt.datetime.max.replace(tzinfo=dt.UTC)
    found.sort(key=lambda f: stamp(f[0].row.updated_at).timestamp(), reverse=True)
    found.sort(key=lambda f: (not f[2], f[3] or far))
    return found[:GAMES_LISTED]


def stamp(value: dt.datetime | None) -> dt.datetime:
    if value is None:
        return dt.datetime.min.replace(tzinfo=dt.UTC)
    return value if value.tzinfo else value.replace(tzinfo=dt.UTC)


def deadline(live: Live, held: set[int]) -> dt.datetime | None:
    """When the running clock of a turn-based game runs out, if it is one of `held`'s."""
    row = live.row
    if (row.speed != "turn" or not row.move_time or row.turn_started_at is None
            or row.turn_seat not in held):
        return None
    return stamp(row.turn_started_at) + dt.timedelta(seconds=row.move_time)
