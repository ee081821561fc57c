"""Friends: the players an account follows, their open tables, and who may seat whom by name.

Adding a friend is one-sided and needs no answer, like following: it says "I know this
player". That is also the consent that invite by name rests on (`check_invitable`): a player
may be seated in a game by name only by somebody they have added as a friend, so that no
stranger can put them at a table (whose clock would then run against them, and whose
reminders they would get). Synchronous: the server calls these from its threads.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import Engine, delete, func, insert, select
from sqlalchemy.exc import IntegrityError

from tlatelolco.web.http.errors import ApiError
from tlatelolco.web.social.profiles import find_user
from tlatelolco.web.storage.db import friends, games, seats, users
from tlatelolco.web.storage.store import GameRow, Store

MAX_FRIENDS = 200  # friends one account may have
TABLES = 50  # friends' open tables listed at most


def unknown_player(name: str) -> ApiError:
    return ApiError(404, "unknown_player", f"there is no player named {name[:40]!r} (names "
                    "are matched in any capitals)")


def listing(engine: Engine, user_id: int) -> list[dict[str, Any]]:
    """The account's friends, by name (disabled accounts left out)."""
    query = (select(users.c.name).join(friends, friends.c.friend_id == users.c.id)
             .where(friends.c.user_id == user_id, users.c.disabled.is_(False))
             .order_by(users.c.name_key))
    with engine.connect() as db:
        return [{"name": name} for name in db.execute(query).scalars()]


def add(engine: Engine, user_id: int, name: str) -> bool:
    """Add the player named `name` to the account's friends; False when already there."""
    friend = find_user(engine, name)
    if friend is None:
        raise unknown_player(name)
    if friend.id == user_id:
        raise ApiError(422, "own_name", "that is your own name; add another player")
    try:
        with engine.begin() as db:
            known = db.execute(select(func.count()).select_from(friends)
                               .where(friends.c.user_id == user_id)).scalar_one()
            if db.execute(select(friends.c.friend_id).where(
                    friends.c.user_id == user_id, friends.c.friend_id == friend.id)).first():
                return False
            if known >= MAX_FRIENDS:
                raise ApiError(409, "too_many_friends", f"you have {MAX_FRIENDS} friends, the "
                               "most an account may have; remove one first")
            db.execute(insert(friends).values(user_id=user_id, friend_id=friend.id,
                                              created_at=dt.datetime.now(dt.UTC)))
    except IntegrityError:
        return False  # added by another request at the same moment
    return True


def remove(engine: Engine, user_id: int, name: str) -> None:
    friend = find_user(engine, name)
    if friend is None:
        raise unknown_player(name)
    with engine.begin() as db:
        gone = db.execute(delete(friends).where(friends.c.user_id == user_id,
                                                friends.c.friend_id == friend.id))
    if gone.rowcount != 1:
        raise ApiError(404, "not_a_friend", f"{friend.name} is not among your friends")


def is_friend(engine: Engine, user_id: int, friend_id: int) -> bool:
    with engine.connect() as db:
        return db.execute(select(friends.c.friend_id).where(
            friends.c.user_id == user_id, friends.c.friend_id == friend_id)).first() is not None


def tables(store: Store, user_id: int) -> list[tuple[GameRow, list[str]]]:
    """The open games listed in the lobby where a friend holds a seat, most recently changed
    first, each with the names of the friends seated there."""
    mine = select(friends.c.friend_id).where(friends.c.user_id == user_id)
    query = (select(games.c.id, users.c.name)
             .join(seats, seats.c.game_id == games.c.id)
             .join(users, users.c.id == seats.c.user_id)
             .where(games.c.status == "open", games.c.listed.is_(True),
                    seats.c.user_id.in_(mine), users.c.disabled.is_(False))
             .order_by(games.c.updated_at.desc(), games.c.id, seats.c.seat)
             .limit(TABLES * 8))
    with store.engine.connect() as db:
        found: dict[str, list[str]] = {}
        for game_id, name in db.execute(query):
            if game_id in found or len(found) < TABLES:
                found.setdefault(game_id, []).append(name)
    rows = []
    for game_id, names in found.items():
        row = store.load_game(game_id, with_history=False)
        if row is not None and row.status == "open":
            rows.append((row, sorted(set(names), key=names.index)))
    return rows


def check_invitable(engine: Engine, inviter: int | None, name: str) -> Any:
    """The account named `name`, if the account `inviter` may seat it by name: the named
    player must have added the inviter as a friend. 404 for no such player, 401 without a
    login, 403 `not_their_friend` otherwise."""
    invited = find_user(engine, name)
    if invited is None:
        raise unknown_player(name)
    if inviter is None:
        raise ApiError(401, "login_needed", "inviting a player by name needs you logged in "
                       "(they must have added your account as a friend); send them an invite "
                       "link instead")
    if invited.id != inviter and not is_friend(engine, invited.id, inviter):
        raise ApiError(403, "not_their_friend", f"{invited.name} has not added you as a "
                       "friend, and only players who did can be seated by name; send them an "
                       "invite link instead")
    return invited


__all__ = ["MAX_FRIENDS", "add", "check_invitable", "is_friend", "listing", "remove", "tables"]
