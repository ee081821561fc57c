"""The social API: players' profiles, leaderboards, friends.

Profiles and leaderboards are public (no login); their words (`rank_display`, the bots'
names) come in `?lang=` or the browser's language. Friends are an account's own: 401
`login_needed` without a login, and the cookie-carrying writes are checked for their origin
(`accounts.csrf`). Names are matched in any capitals and widths (`accounts.users.name_key`);
a name longer than an account's can be is 422, an unknown (or disabled) one 404. Look-ups
are rate limited per address (429), as guessing names is what an enumeration does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request, Response
from pydantic import Field

from tlatelolco.registry import list_games
from tlatelolco.web.accounts.identity import Account
from tlatelolco.web.http.api import ERRORS, Lang, Strict, account, hub, language, summary
from tlatelolco.web.http.errors import ApiError
from tlatelolco.web.http.limits import RateLimiter, client_address
from tlatelolco.web.social import friends, profiles

router = APIRouter(prefix="/api", tags=["social"])
NAME_MAX = 40  # characters of a name in a path or body (an account's key has at most 40)
PlayerName = Annotated[str, Path(min_length=1, max_length=NAME_MAX,
                                 description="A player's name, in any capitals.")]


@dataclass(slots=True)
class SocialLimits:
    """Requests per minute and client address (0: none): look-ups of profiles and
    leaderboards, changes to one's friends."""

    lookups: int = 120
    friends: int = 30


def limiter(request: Request) -> RateLimiter:
    """This app's limiter of social requests, made at first use: four look-ups and one friend
    change for each join the server's `--limits` allow (none when joins are unlimited)."""
    found = getattr(request.app.state, "social_limits", None)
    if found is None:
        joins = request.app.state.settings.rate_limits.joins
        found = RateLimiter(SocialLimits(lookups=4 * joins, friends=joins))  # type: ignore[arg-type]
        request.app.state.social_limits = found
    return found  # type: ignore[no-any-return]


def limit(request: Request, kind: str) -> None:
    limiter(request).check(kind, client_address(request))


class Friend(Strict):
    name: str = Field(min_length=1, max_length=NAME_MAX, description="The player to add, in "
                      "any capitals.", examples=["Ana"])


async def logged_in(request: Request) -> Account:
    me = await account(request)
    if me is None:
        raise ApiError(401, "login_needed", "friends are an account's: sign up (POST "
                       "/api/account/signup) or log in (POST /api/account/login)")
    return me


def engine(request: Request) -> Any:
    return hub(request).service.store.engine


@router.get("/players/{name}", responses=ERRORS, summary="A player's public profile")
async def player(name: PlayerName, request: Request, lang: Lang = None) -> dict[str, Any]:
    """`{"name", "created_at", "me" (whether it is yours), "games": {GAME: {"played", "won",
    "rated" (rated games), "rating" (mu - 3 sigma; null before a rated game), "rank_display"
    (where it stands among the bots, in words), "bots": [{"level", "name", "rating"}]}},
    "recent": [{"id", "game", "finished_at", "result" (won | shared | lost | left |
    forfeited), "rank", "rated", "players", "replay_url", "review_url"}], "history": {GAME:
    [{"at", "rating"}]}, "friend" (whether you added them; null when it is you or you are not
    logged in)}`. Recent games are those listed in the lobby (your own profile also
    shows your unlisted ones). Nothing private: no e-mail, no settings, no credential."""
    limit(request, "lookups")
    h = hub(request)
    me = await account(request)
    found = await h.call(profiles.profile, engine(request), name, me.id if me else None,
                         language(request, lang))
    if found is None:
        raise friends.unknown_player(name)
    return found


@router.get("/leaderboard/{game}", responses=ERRORS, summary="A game's best rated players")
async def leaderboard(game: Annotated[str, Path(max_length=32)], request: Request,
                      limit_: Annotated[int, Query(alias="limit", ge=1,
                                                   le=profiles.LEADERBOARD_MAX)] = 50,
                      lang: Lang = None) -> dict[str, Any]:
    """`{"game", "players": [{"name", "rating", "played", "won"}] (best first), "bots":
    [{"level", "name", "rating"}] (the fixed references, weakest first)}`. 404 for a game
    that is not one of GET /api/catalog's."""
    limit(request, "lookups")
    if game not in list_games():
        raise ApiError(404, "unknown_game", f"there is no game {game[:32]!r}; the games are "
                       f"{', '.join(list_games())}")
    h = hub(request)
    return await h.call(profiles.leaderboard, engine(request), game, limit_,
                        language(request, lang))


@router.get("/friends", responses=ERRORS, summary="Your friends and their open tables")
async def my_friends(request: Request) -> dict[str, Any]:
    """`{"friends": [{"name"}], "tables": [GAMESUMMARY + "friends": [names seated there]]}`:
    the open games listed in the lobby where a friend holds a seat, newest first."""
    me = await logged_in(request)
    h = hub(request)
    names = await h.call(friends.listing, engine(request), me.id)
    tables = await h.call(friends.tables, h.service.store, me.id)
    return {"friends": names,
            "tables": [{**summary(row, request), "friends": seated} for row, seated in tables]}


@router.post("/friends", status_code=201, responses=ERRORS, summary="Add a friend")
async def add_friend(body: Friend, request: Request, response: Response) -> dict[str, Any]:
    """201 with your friends when added, 200 when they were your friend already; 404
    `unknown_player`, 422 `own_name`, 409 `too_many_friends` (200 at most). A friend may
    seat you in a game by name (POST /api/games/{id}/invite with `user`)."""
    me = await logged_in(request)
    limit(request, "friends")
    h = hub(request)
    if not await h.write(friends.add, engine(request), me.id, body.name):
        response.status_code = 200
    return {"friends": await h.call(friends.listing, engine(request), me.id)}


@router.delete("/friends/{name}", responses=ERRORS, summary="Remove a friend")
async def remove_friend(name: PlayerName, request: Request) -> dict[str, Any]:
    """Your friends after the change; 404 `unknown_player` or `not_a_friend`."""
    me = await logged_in(request)
    limit(request, "friends")
    h = hub(request)
    await h.write(friends.remove, engine(request), me.id, name)
    return {"friends": await h.call(friends.listing, engine(request), me.id)}


__all__ = ["router"]
