"""A player's public profile and a game's leaderboard, read from the database.

What a profile shows is public by design: the account's name and when it was made, its games
played and won per game, its ratings and their history, and its recent finished games (those
listed in the lobby; an unlisted game, meant for friends with its link, shows only on its own
player's profile). Never an e-mail address, a setting, a seat's credential or anything of
another account. Synchronous: the server calls these from its threads.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any

from sqlalchemy import Engine, select

from tlatelolco.i18n import N_, N_n, Plural, gettext, render
from tlatelolco.registry import list_games
from tlatelolco.web.accounts.users import KEY_MAX, name_key
from tlatelolco.web.play.views import BOT_LEVELS, seat_names
from tlatelolco.web.social.ratings import PROVISIONAL, bot_ratings, shown
from tlatelolco.web.storage.db import friends, games, leavers, rating_history, ratings, seats, users
from tlatelolco.web.storage.store import SeatRow

RECENT = 20  # finished games a profile lists
HISTORY = 500  # points of a game's rating history (the latest)
LEADERBOARD_MAX = 100  # players a leaderboard lists at most
LEVEL_SPECS = {"easy": "random", "medium": "greedy", "hard": "mcts"}  # for the level's name
# where a rating stands among the reference bots (their shown ratings)
ABOVE_HARD = N_("rated above Hard")
MEDIUM_HARD = N_("rated between Medium and Hard")
EASY_MEDIUM = N_("rated between Easy and Medium")
BELOW_EASY = N_("rated below Easy")
UNRATED = N_("not rated yet")
PROVISIONAL_WORDS = N_n("provisional: {n} rated game so far",
                        "provisional: {n} rated games so far")


def utc(stamp: dt.datetime | None) -> str | None:
    if stamp is None:
        return None
    return (stamp if stamp.tzinfo else stamp.replace(tzinfo=dt.UTC)).isoformat()


def find_user(engine: Engine, name: str) -> Any | None:
    """The account (id, name, created_at) of a name in any capitals or widths; None for no
    account or a disabled one."""
    key = name_key(name)
    if not key or len(key) > KEY_MAX:
        return None
    with engine.connect() as db:
        return db.execute(select(users.c.id, users.c.name, users.c.created_at)
                          .where(users.c.name_key == key, users.c.disabled.is_(False))
                          ).first()


def standing(game: str, rating: float | None, rated: int, lang: str) -> str:
    """Where a shown rating stands among `game`'s bots, in words ("rated above Hard")."""
    if rating is None:
        return render((UNRATED, {}), lang)
    easy, medium, hard = (b["rating"] for b in bot_ratings(game))
    if rating > hard:
        words = ABOVE_HARD
    elif rating > medium:
        words = MEDIUM_HARD
    elif rating > easy:
        words = EASY_MEDIUM
    else:
        words = BELOW_EASY
    text = gettext(words, lang)
    if rated < PROVISIONAL:
        text += " (" + render((Plural(PROVISIONAL_WORDS, rated), {}), lang) + ")"
    return text


def bots(game: str, lang: str) -> list[dict[str, Any]]:
    """The reference bots of a game, with their names in `lang`."""
    return [{**b, "name": gettext(BOT_LEVELS[LEVEL_SPECS[b["level"]]], lang)}
            for b in bot_ratings(game)]


def outcome(result: dict[str, Any] | None, mine: list[int], n: int) -> tuple[str, int]:
    """(won | shared | lost, place) of the seats `mine` in a finished game of `n` seats: the
    best return (a team shares it) is a win, shared when it is a tie; the place is 1 plus the
    seats that did better."""
    returns = [float(r) for r in (result or {}).get("returns") or []]
    if len(returns) != n or not mine:
        return "lost", n
    score = sum(returns[s] for s in mine) / len(mine)
    place = 1 + sum(1 for r in returns if r > score + 1e-9)
    best = max(returns)
    if best <= 0 or score < best - 1e-9:
        return "lost", place
    return ("won" if score >= 1.0 - 1e-9 else "shared"), place


def _played(engine: Engine, user_id: int) -> list[dict[str, Any]]:
    """Every finished game of the account, newest first: where it held seats at the end, and
    where it left (or was dropped)."""
    held = (select(seats.c.game_id, seats.c.seat, seats.c.forfeited)
            .join(games, games.c.id == seats.c.game_id)
            .where(seats.c.user_id == user_id, games.c.status == "finished"))
    left = (select(leavers.c.game_id).join(games, games.c.id == leavers.c.game_id)
            .where(leavers.c.user_id == user_id, games.c.status == "finished"))
    with engine.connect() as db:
        mine: dict[str, list[tuple[int, bool]]] = {}
        for r in db.execute(held):
            mine.setdefault(r.game_id, []).append((r.seat, bool(r.forfeited)))
        gone = set(db.execute(left).scalars())
        ids = sorted(set(mine) | gone)
        rows = {}
        for chunk in _chunks(ids, 500):
            for g in db.execute(select(games.c.id, games.c.game, games.c.result,
                                       games.c.updated_at, games.c.listed)
                                .where(games.c.id.in_(chunk))):
                rows[g.id] = g
    played = []
    for game_id in ids:
        g = rows.get(game_id)
        if g is None:
            continue
        played.append({"id": game_id, "game": g.game, "result": g.result,
                       "finished_at": g.updated_at, "listed": bool(g.listed),
                       "seats": [s for s, _ in mine.get(game_id, [])],
                       "left": game_id in gone,
                       "forfeited": any(f for _, f in mine.get(game_id, []))})
    played.sort(key=lambda p: _aware(p["finished_at"]), reverse=True)
    return played


def _chunks(items: list[str], size: int) -> Iterable[list[str]]:
    for start in range(0, len(items), size):
        yield items[start:start + size]


def _aware(stamp: dt.datetime | None) -> dt.datetime:
    if stamp is None:
        return dt.datetime.min.replace(tzinfo=dt.UTC)
    return stamp if stamp.tzinfo else stamp.replace(tzinfo=dt.UTC)


def _seat_rows(engine: Engine, game_ids: list[str]) -> dict[str, list[SeatRow]]:
    """The seats of a few games (for their players' names)."""
    found: dict[str, list[SeatRow]] = {}
    if not game_ids:
        return found
    with engine.connect() as db:
        for r in db.execute(select(seats.c.game_id, seats.c.seat, seats.c.kind, seats.c.name,
                                   seats.c.bot).where(seats.c.game_id.in_(game_ids))
                            .order_by(seats.c.game_id, seats.c.seat)):
            found.setdefault(r.game_id, []).append(SeatRow(r.seat, r.kind, r.name, bot=r.bot))
    return found


def profile(engine: Engine, name: str, viewer: int | None, lang: str) -> dict[str, Any] | None:
    """The public profile of the account named `name`, as `viewer` (an account id, or None)
    sees it: the account itself also sees its unlisted games. None for no such account."""
    user = find_user(engine, name)
    if user is None:
        return None
    me = viewer == user.id
    played = _played(engine, user.id)
    with engine.connect() as db:
        rated = {r.game: r for r in db.execute(
            select(ratings).where(ratings.c.user_id == user.id))}
        points = db.execute(select(rating_history.c.game, rating_history.c.game_id,
                                   rating_history.c.mu, rating_history.c.sigma,
                                   rating_history.c.rank, rating_history.c.at)
                            .where(rating_history.c.user_id == user.id)
                            .order_by(rating_history.c.at.desc(),
                                      rating_history.c.game_id.desc())
                            .limit(HISTORY * len(list_games()))).all()
    per_game: dict[str, dict[str, Any]] = {}
    for p in played:
        entry = per_game.setdefault(p["game"], {"played": 0, "won": 0})
        entry["played"] += 1
        if not (p["left"] or p["forfeited"]):
            entry["won"] += outcome(p["result"], p["seats"], _seats_of(p))[0] != "lost"
    for game in rated:
        per_game.setdefault(game, {"played": 0, "won": 0})
    for game, entry in per_game.items():
        r = rated.get(game)
        value = shown(r.mu, r.sigma) if r is not None else None
        entry.update({"rated": int(r.played) if r is not None else 0, "rating": value,
                      "rank_display": standing(game, value, int(r.played) if r else 0, lang),
                      "bots": bots(game, lang)})
    history: dict[str, list[dict[str, Any]]] = {}
    for point in reversed(points):
        series = history.setdefault(point.game, [])
        series.append({"at": utc(point.at), "rating": shown(point.mu, point.sigma)})
    for game, series in history.items():
        history[game] = series[-HISTORY:]
    places = {point.game_id: int(point.rank) for point in points}
    shown_games = [p for p in played if me or p["listed"]][:RECENT]
    names = _seat_rows(engine, [p["id"] for p in shown_games])
    recent = []
    for p in shown_games:
        table = names.get(p["id"], [])
        n = len(table) or len((p["result"] or {}).get("returns") or [])
        if p["left"]:
            result, place = "left", n
        elif p["forfeited"]:
            result, place = "forfeited", n
        else:
            result, place = outcome(p["result"], p["seats"], n)
        recent.append({"id": p["id"], "game": p["game"], "finished_at": utc(p["finished_at"]),
                       "result": result, "rank": place, "rated": p["id"] in places,
                       "players": seat_names(table, lang) if table else [],
                       "replay_url": f"/games/{p['id']}/replay",
                       # a game a forfeit ended before its rules did has nothing to review
                       "review_url": None if "forfeit" in (p["result"] or {})
                       else f"/games/{p['id']}/replay?review=1"})
    friend = None
    if viewer is not None and not me:
        with engine.connect() as db:
            friend = db.execute(select(friends.c.user_id).where(
                friends.c.user_id == viewer, friends.c.friend_id == user.id)).first() is not None
    return {"name": user.name, "created_at": utc(user.created_at), "me": me, "friend": friend,
            "games": dict(sorted(per_game.items())), "recent": recent,
            "history": dict(sorted(history.items()))}


def _seats_of(p: dict[str, Any]) -> int:
    return len((p["result"] or {}).get("returns") or [])


def leaderboard(engine: Engine, game: str, limit: int, lang: str) -> dict[str, Any]:
    """The rated players of `game`, best shown rating first, and its reference bots."""
    order = (ratings.c.mu - 3.0 * ratings.c.sigma).desc()
    query = (select(users.c.name, ratings.c.mu, ratings.c.sigma, ratings.c.played,
                    ratings.c.won)
             .join(users, users.c.id == ratings.c.user_id)
             .where(ratings.c.game == game, users.c.disabled.is_(False))
             .order_by(order, ratings.c.played.desc(), users.c.name_key)
             .limit(min(limit, LEADERBOARD_MAX)))
    with engine.connect() as db:
        rows = db.execute(query).all()
    return {"game": game,
            "players": [{"name": r.name, "rating": shown(r.mu, r.sigma), "played": int(r.played),
                         "won": int(r.won)} for r in rows],
            "bots": bots(game, lang)}


__all__ = ["find_user", "leaderboard", "outcome", "profile", "standing"]
