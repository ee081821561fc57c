"""The JSON API: the lobby, seats, actions, views, replays and records.

Every error is `{"error": code, "message": sentence, "status": n}`: 401 without a credential,
403 with one that holds no seat here, 404 for an unknown game, 409 when the game's state
forbids it (not your turn, a stale version, an illegal move, a taken seat, a used invite, a
hint against people, a review of a game not over), 413 for a body over the size limit, 422
for a malformed request, 429 over a rate limit or the review queue's limits (with Retry-After),
or over the games an address may keep or create (`quota`), 503 when the bots are too busy
for a hint. A move tried in a replay that is not legal there (`then=`) is 400.
"""

from __future__ import annotations

import datetime as dt
import functools
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Header, Path, Query, Request, Response
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints

import tlatelolco
from tlatelolco.i18n import pick_language
from tlatelolco.web.accounts.identity import (
    SESSION_COOKIE,
    Account,
    Credential,
    session_account,
)
from tlatelolco.web.http.errors import ApiError
from tlatelolco.web.http.limits import client_address
from tlatelolco.web.play.views import clock, players, replay_view, seat_names, seat_view
from tlatelolco.web.realtime import chat
from tlatelolco.web.realtime.hub import Hub
from tlatelolco.web.storage.store import GameRow
from tlatelolco.web.workers.reviews import Reviews, alternative_view

router = APIRouter(prefix="/api")
TOKEN_MAX = 64  # characters of a credential or an invite (they have 24)
Lang = Annotated[Literal["en", "es"] | None, Query(
    description="The language of the log's words (default: from Accept-Language).")]
GameId = Annotated[str, Path(min_length=1, max_length=16, pattern=r"^[A-Za-z0-9_-]+$",
                             description="A game's id, as in its links.")]
Authorization = Annotated[str | None, Header(
    max_length=100, description="`Bearer TOKEN`: your seat's personal credential.")]


class Strict(BaseModel):
    """Bodies are checked as strictly on HTTP as on the WebSocket: `"3"`, `1.0` and `true`
    are not numbers, and unknown fields are refused."""

    model_config = ConfigDict(extra="forbid", strict=True)


OptionName = Annotated[str, StringConstraints(min_length=1, max_length=32)]
OPTION_TEXT = 64  # characters of an option value that is text


def option_value(value: Any) -> Any:
    """A JSON scalar: numbers (floats too, so that the service can name the option and its
    type for `3.0`), true/false, null or short text; one short error for anything else."""
    if value is None or type(value) in (int, bool, float):
        return value
    if isinstance(value, str) and len(value) <= OPTION_TEXT:
        return value
    raise ValueError(f"an option value is a number, true, false, null or text of at most "
                     f"{OPTION_TEXT} characters")


OptionValue = Annotated[Any, AfterValidator(option_value)]
Name = Annotated[str, StringConstraints(max_length=100)]


class CreateGame(Strict):
    game: str = Field(max_length=32, description="One of the names listed by GET "
                      "/api/catalog.", examples=["grand_bazaar"])
    options: dict[OptionName, OptionValue] = Field(
        default_factory=dict, max_length=16,
        description="The game's options, e.g. {\"num_players\": 3}; values are numbers, "
        "true/false or short names (never file paths).")
    seats: list[Annotated[str, StringConstraints(max_length=200)]] | None = Field(
        default=None, max_length=16,
        description="One per seat: `taken` (yours), `open` (an invite link) or `bot:NAME` "
        "(e.g. `bot:greedy`, `bot:mcts:time=2`; time and iterations are capped). Default: "
        "you in seat 0, the others open.")
    name: Name | None = Field(default=None, description="Your player name (at most 40 "
                              "characters once spaces are tidied).")
    listed: bool = Field(default=True, description="Show the game in the lobby's lists "
                         "(anyone may then join its open seats).")
    spectator_chat: bool = Field(default=True, description="Let spectators talk in their own "
                                 "chat channel (the table chat is for the players either way).")
    speed: Literal["live", "turn"] = Field(default="live", description="`live`: everybody "
                                           "at the table at once; `turn`: turn-based, each "
                                           "person has `move_time` seconds a turn.")
    move_time: int | None = Field(default=None, description="Seconds a person has for a "
                                  "turn of a turn-based game (required for it): 60 to "
                                  "1209600 (14 days).")
    on_timeout: Literal["bot", "drop", "lose"] | None = Field(
        default=None, description="What running out of time brings in a turn-based game: "
        "`bot` (default: a bot plays that turn), `drop` (after 3 timeouts a bot takes the "
        "seat for good) or `lose` (the first timeout forfeits: ranked last, a bot plays the "
        "seat on; a game of two ends at once).")


class JoinGame(Strict):
    seat: int | None = Field(default=None, ge=0, le=63, description="The open seat to take "
                             "(default: the first open one).")
    name: Name | None = None


class Claim(Strict):
    name: Name | None = None
    token: str | None = Field(default=None, max_length=TOKEN_MAX, description="The credential "
                              "you already hold in this game, if any: where seats hide things "
                              "from each other, one person holds one seat.")


class Invite(Strict):
    seat: int = Field(ge=0, le=63, description="The open seat to invite somebody to.")
    user: str | None = Field(default=None, min_length=1, max_length=40, description=(
        "A player's account name (any capitals): seat them in that open seat at once, "
        "instead of making a link. They must have added you as a friend."))


class Act(Strict):
    version: int = Field(description="The `version` of the view this move answers.")
    action: int | None = Field(default=None,
                               description="An action number from the view's `legal` list.")
    text: str | None = Field(default=None, max_length=200,
                             description="Or the move in the game's notation.")


class Undo(Strict):
    version: int = Field(description="The `version` of the view whose last move you take "
                         "back.")


class ErrorBody(BaseModel):
    error: str
    message: str
    status: int
    detail: str | None = Field(None, description=(
        "An illegal move's engine text, with the moves legal now (the message is the rules' "
        "reason in words, for people)"))


ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorBody} for code in (401, 403, 404, 409, 413, 422, 429)}


def hub(request: Request) -> Hub:
    return request.app.state.hub  # type: ignore[no-any-return]


def bearer(authorization: str | None) -> str | None:
    if authorization is None:
        return None
    scheme, _, token = authorization.partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token or len(token) > TOKEN_MAX:
        raise ApiError(401, "no_credential", "the Authorization header must be "
                       "'Bearer TOKEN' with your seat's credential (or, to claim a seat, the "
                       "code of its invite link)")
    return token


async def account(request: Request) -> Account | None:
    """The account logged in with this request's session cookie, or None."""
    cookie = request.cookies.get(SESSION_COOKIE)
    if not cookie:
        return None
    h = hub(request)
    return await h.call(session_account, h.service.store.engine, cookie)


async def credential(request: Request, authorization: str | None) -> Credential | None:
    """Who acts: the bearer credential when one is sent, else the logged-in account (whose
    seats follow it to every device), else nobody."""
    token = bearer(authorization)
    return token if token is not None else await account(request)


def limit(request: Request, kind: str) -> None:
    """Count a costly request against its client's rate (429 when over it)."""
    hub(request).limits.check(kind, client_address(request))


def links(request: Request, game_id: str, invite: str | None = None) -> str:
    """A game's address; with the invite to a seat in its fragment, which browsers never send
    to a server (and the page takes out of the address bar once read)."""
    base = str(request.base_url).rstrip("/")
    return f"{base}/games/{game_id}" + (f"#invite={invite}" if invite else "")


def summary(row: GameRow, request: Request | None = None,
            connected: dict[int, int] | None = None) -> dict[str, Any]:
    return {"id": row.id, "game": row.game, "options": row.options, "status": row.status,
            "version": row.version, "seats": players(row, connected),
            "result": row.result, "rematch_id": row.rematch_id, "clock": clock(row),
            "created_at": row.created_at.isoformat() if row.created_at else None,
            "updated_at": row.updated_at.isoformat() if row.updated_at else None,
            "url": links(request, row.id) if request is not None else None}


@router.get("/catalog", summary="The games, their options and bots")
async def catalog(request: Request) -> list[dict[str, Any]]:
    return await hub(request).call(hub(request).service.catalog)


@router.post("/games", status_code=201, responses=ERRORS, summary="Create a game")
async def create_game(body: CreateGame, request: Request) -> dict[str, Any]:
    """Seats: `taken` seats are yours (their personal credentials are returned as `token`),
    `open` seats get an `invite_url` for a friend (good for one claim), `bot:NAME` seats play
    by themselves on the server. Where seats hide things from each other (Axio) a person
    takes one seat."""
    limit(request, "creates")
    h = hub(request)
    create = functools.partial(h.service.create, spectator_chat=body.spectator_chat,
                               client=client_address(request), account=await account(request),
                               speed=body.speed, move_time=body.move_time,
                               on_timeout=body.on_timeout)
    row, tokens, invites = await h.write(create, body.game, body.options,
                                         body.seats, body.name, body.listed)
    h.kick_bots(row.id)
    seats = []
    for seat in row.seats:
        invite = invites.get(seat.seat)
        seats.append({"seat": seat.seat, "kind": seat.kind, "name": seat.name,
                      "token": tokens.get(seat.seat), "invite": invite,
                      "invite_url": links(request, row.id, invite) if invite else None,
                      "url": links(request, row.id) if seat.seat in tokens else None})
    return {**summary(row, request), "seats": seats,
            "spectator_url": links(request, row.id)}


@router.get("/games", responses=ERRORS, summary="Open, running or finished games")
async def list_games(request: Request, status: Literal["open", "running", "finished"] | None
                     = None, limit: Annotated[int, Query(ge=1, le=200)] = 50,
                     game: Annotated[str | None, Query(max_length=32, description=(
                         "Only this game: a name listed by GET /api/catalog."))] = None,
                     players: Annotated[int | None, Query(ge=2, le=8, description=(
                         "Only tables of this many seats."))] = None,
                     speed: Annotated[Literal["live", "turn"] | None, Query(description=(
                         "Only live or only turn-based games."))] = None,
                     ) -> list[dict[str, Any]]:
    """Each game's summary, its times in UTC with the offset written out (`created_at`,
    `updated_at`, `started_at`: a player's first move, or when the last seat was filled;
    `finished_at`) and the names of its `winners` (the seats with the best result, several
    when they share it; empty until it is over). Abandoned games are not among the running
    ones: a live game nobody moved in for 30 minutes, a turn-based one a day past its
    deadline. 422 for a filter outside its allowed values."""
    if game is not None and game not in tlatelolco.list_games():
        raise ApiError(422, "bad_filter", f"there is no game {game!r} to filter by; the games "
                       f"are {', '.join(tlatelolco.list_games())}")
    h = hub(request)
    rows = await h.call(h.service.lobby_games, status, limit, game, players, speed)
    return [listed_game(row, started, request) for row, started in rows]


def listed_game(row: GameRow, started: dt.datetime | None, request: Request) -> dict[str, Any]:
    if started is None and row.status != "open":
        started = row.updated_at  # nobody moved yet: it began when its last seat was filled
    return {**summary(row, request), "created_at": utc(row.created_at),
            "updated_at": utc(row.updated_at), "started_at": utc(started),
            "finished_at": utc(row.updated_at) if row.status == "finished" else None,
            "winners": winners(row)}


def utc(stamp: dt.datetime | None) -> str | None:
    """ISO 8601 with its offset: SQLite hands back the stored UTC times without one, which a
    browser would read as its local time."""
    if stamp is None:
        return None
    return (stamp if stamp.tzinfo else stamp.replace(tzinfo=dt.UTC)).isoformat()


def winners(row: GameRow) -> list[str]:
    """The names of the seats whose return is the best (partners and ties share it)."""
    returns = (row.result or {}).get("returns") or []
    if not returns:
        return []
    best = max(returns)
    names = seat_names(row.seats)
    return [names[seat.seat] for seat in row.seats
            if seat.seat < len(returns) and returns[seat.seat] >= best - 1e-9]


@router.get("/games/{game_id}", responses=ERRORS, summary="One game's public summary")
async def get_game(game_id: GameId, request: Request) -> dict[str, Any]:
    h = hub(request)
    live = await h.call(h.service.sync, game_id, 0, True)
    return {**summary(live.row, request, h.views_connected(game_id)), "version": live.version}


@router.post("/games/{game_id}/join", responses=ERRORS,
             summary="Take an open seat of a listed game")
async def join(game_id: GameId, body: JoinGame, request: Request,
               authorization: Authorization = None) -> dict[str, Any]:
    """For games shown in the lobby only (an unlisted game's seats go by invite). Send the
    credential you already hold in this game, if any: where seats hide things from each
    other, one person holds one seat."""
    limit(request, "joins")
    h = hub(request)
    join = functools.partial(h.service.join, account=await account(request))
    _, seat, token, change = await h.write(join, game_id, body.seat, body.name,
                                           bearer(authorization))
    await h.announce(change)
    return {"game_id": game_id, "seat": seat, "token": token, "url": links(request, game_id)}


@router.post("/games/{game_id}/claim", responses=ERRORS,
             summary="Take the seat of an invite link")
async def claim(game_id: GameId, body: Claim, request: Request,
                authorization: Authorization = None) -> dict[str, Any]:
    """Send the invite as `Authorization: Bearer INVITE`; you get the seat's personal
    credential (`token`), which nobody else has. An invite is good for one claim: a second
    one is answered 409 `invite_used`. Send the credential you already hold in this game as
    `token`, if any: where seats hide things from each other a second seat is refused (409
    `one_seat`)."""
    limit(request, "joins")
    h = hub(request)
    claim = functools.partial(h.service.claim, account=await account(request))
    _, seat, token, change = await h.write(claim, game_id, bearer(authorization),
                                           body.name, body.token)
    await h.announce(change)
    return {"game_id": game_id, "seat": seat, "token": token, "url": links(request, game_id)}


@router.post("/games/{game_id}/invite", responses=ERRORS,
             summary="A new invite link to an open seat")
async def invite(game_id: GameId, body: Invite, request: Request,
                 authorization: Authorization = None) -> dict[str, Any]:
    """For a player of the game: an invite to an open seat (after somebody left, or when a
    link was lost); older invites to that seat stop working. With `user`, that player's
    account takes the seat at once and is notified (no link: `invite` is null); it needs you
    logged in and them to have added you as a friend (401 `login_needed`, 403
    `not_their_friend`, 404 `unknown_player`)."""
    limit(request, "joins")
    h = hub(request)
    who = await credential(request, authorization)
    if body.user is not None:
        return await invite_by_name(request, game_id, who, body.seat, body.user)
    _, code, change = await h.write(h.service.invite, game_id, who, body.seat)
    await h.announce(change)
    return {"game_id": game_id, "seat": body.seat, "invite": code,
            "invite_url": links(request, game_id, code)}


async def invite_by_name(request: Request, game_id: str, who: Credential | None, seat: int,
                         name: str) -> dict[str, Any]:
    """`invite` with a `user`: the player of the game first, then the named account's
    consent (it added the inviter as a friend), then the seat, then the notice."""
    from tlatelolco.web.notify.reminders import notify_invite
    from tlatelolco.web.social.friends import check_invitable

    h = hub(request)
    await h.call(h.service.authenticate, game_id, who)  # a player of the game, first
    me = await account(request)
    invited = await h.call(check_invitable, h.service.store.engine, me.id if me else None, name)
    _, inviter, change = await h.write(h.service.invite_user, game_id, who, seat,
                                       int(invited.id), invited.name)
    await h.announce(change)
    await notify_invite(h, game_id, int(invited.id), inviter)
    return {"game_id": game_id, "seat": seat, "user": invited.name, "invite": None,
            "invite_url": None}


@router.post("/games/{game_id}/leave", responses=ERRORS, summary="Give up your seat")
async def leave(game_id: GameId, request: Request,
                authorization: Authorization = None) -> dict[str, Any]:
    h = hub(request)
    live, change = await h.write(h.service.leave, game_id, await credential(request, authorization))
    await h.announce(change)
    return summary(live.row, request)


@router.post("/games/{game_id}/rematch", responses=ERRORS,
             summary="Play again, seats rotated; your credential carries over")
async def rematch(game_id: GameId, request: Request,
                  authorization: Authorization = None) -> dict[str, Any]:
    limit(request, "creates")
    h = hub(request)
    who = await credential(request, authorization)
    new_id, seat, change = await h.write(h.service.rematch, game_id, who,
                                         client_address(request))
    await h.announce(change)
    h.kick_bots(new_id)
    return {"game_id": new_id, "seat": seat, "url": links(request, new_id)}


def language(request: Request, lang: str | None) -> str:
    """The language of the log's words: `?lang=`, else the browser's Accept-Language."""
    return lang if lang is not None else pick_language(request.headers.get("accept-language"))


@router.get("/games/{game_id}/view", responses=ERRORS,
            summary="Your seat's view (a spectator's without a credential)")
async def view(game_id: GameId, request: Request, lang: Lang = None,
               authorization: Authorization = None) -> dict[str, Any]:
    h = hub(request)
    live, viewer = await h.call(h.service.viewer, game_id, await credential(request, authorization))
    return await h.call(seat_view, live, viewer, 0, h.views_connected(game_id),
                        language(request, lang))


@router.post("/games/{game_id}/actions", responses=ERRORS, summary="Make a move")
async def act(game_id: GameId, body: Act, request: Request, lang: Lang = None,
              authorization: Authorization = None) -> dict[str, Any]:
    """The pipeline: credential, well-formed move, your seat's turn, current version, legal
    move; then it is applied and stored, and every seat is sent its own view."""
    h = hub(request)
    who = await credential(request, authorization)
    live, seat, change = await h.write(
        h.service.act, game_id, who, body.action, body.text, body.version,
        language(request, lang))
    await h.announce(change)
    return await h.call(seat_view, live, seat, change.previous,
                        h.views_connected(game_id), language(request, lang))


@router.post("/games/{game_id}/undo", responses=ERRORS,
             summary="Take back your last move of this turn")
async def undo(game_id: GameId, body: Undo, request: Request, lang: Lang = None,
               authorization: Authorization = None) -> dict[str, Any]:
    """Your own moves of your current turn may be taken back one at a time, until something
    is drawn or revealed or another seat moves (the view's `undo` counts them). 409
    `cannot_undo` otherwise. The record keeps what was taken back (`meta.taken_back`)."""
    h = hub(request)
    who = await credential(request, authorization)
    live, seat, change = await h.write(h.service.undo, game_id, who, body.version)
    await h.announce(change)
    return await h.call(seat_view, live, seat, 0, h.views_connected(game_id),
                        language(request, lang))


@router.post("/games/{game_id}/hint", responses={**ERRORS, 503: {"model": ErrorBody}},
             summary="What a search bot would play in your seat (games against bots only)")
async def hint(game_id: GameId, request: Request, lang: Lang = None,
               authorization: Authorization = None) -> dict[str, Any]:
    """On your turn, in a game whose other seats are all bots: the search bot's best moves
    from what your seat can see (`ismcts` where seats hide things, else `mcts`), thinking
    the time measured per game to tell moves apart (0.5 to 2 s, docs/hints.md). Each move has
    its `visits` and `value`, the share of victory the search expects after it, and `words`,
    the move told in words; `noise` is the value difference below which moves are about
    equal for that search; `why` is `searched`,
    `settled` (the bot's knowledge decided without searching) or `only move`. 409
    `no_hints` against people; 503 when the server's bots are too busy."""
    limit(request, "hints")
    h = hub(request)
    job = await h.call(h.service.hint_job, game_id, await credential(request, authorization))
    found = await h.hint(job, client_address(request))
    return await h.call(h.service.hint_words, game_id, found, language(request, lang))


@router.get("/games/{game_id}/replay/{step}", responses={**ERRORS, 400: {"model": ErrorBody}},
            summary="The game after `step` actions, as your seat (or a spectator) saw it")
async def replay(game_id: GameId, step: Annotated[int, Path(ge=0, le=1_000_000)],
                 request: Request, lang: Lang = None,
                 then: Annotated[int | None, Query(ge=0, le=2**31 - 1, description=(
                     "In a finished game: the board after this action played at `step` "
                     "instead of the game's move (a review's better move); the view's "
                     "`alternative` says so. 400 when it is not legal there."))] = None,
                 authorization: Authorization = None) -> dict[str, Any]:
    h = hub(request)
    live, viewer = await h.call(h.service.viewer, game_id, await credential(request, authorization))
    if then is not None:
        return await h.call(alternative_view, live, viewer, step, then,
                            language(request, lang))
    state = await h.call(h.service.replay_state, live, step)
    return await h.call(replay_view, live, state, viewer, step, language(request, lang))


def reviews(request: Request) -> Reviews:
    return request.app.state.reviews  # type: ignore[no-any-return]


REVIEW_ERRORS: dict[int | str, dict[str, Any]] = {**ERRORS, 202: {"description": "Queued "
                                                  "or running: ask again for its progress."}}


@router.post("/games/{game_id}/review", responses=REVIEW_ERRORS,
             summary="Ask for the review of a finished game (computed once, then stored)")
async def ask_review(game_id: GameId, request: Request, response: Response, lang: Lang = None,
                     authorization: Authorization = None) -> dict[str, Any]:
    """Queues the review (each seat's share of victory move by move, the mistakes and the
    better moves, the luck of the draws) unless it is stored already: 200 with the review when
    done, else 202 with `state` (`queued` with its `position`, `running` with `done` of
    `total` decisions and `percent`). Anyone who may see the replay may ask; the answer holds
    only what their replay shows. 409 for a game not over; 429 when the queue is full or
    you (your address or credential) have a review queued or running already."""
    found = await reviews(request).ask(game_id, await credential(request, authorization),
                                       client_address(request),
                                       language(request, lang))
    response.status_code = 200 if found["state"] == "done" else 202
    return found


@router.get("/games/{game_id}/review", responses=ERRORS,
            summary="The state of a game's review, and the review once done")
async def review_state(game_id: GameId, request: Request, lang: Lang = None,
                       authorization: Authorization = None) -> dict[str, Any]:
    """`{"state": "none"|"queued"|"running"|"done"|"failed", "done", "total", "percent",
    "position", "review", "error"}`: `review` once done (as your replay shows the game, its
    moves also told in `words`), `error` when it failed (ask again to retry)."""
    return await reviews(request).look(game_id, await credential(request, authorization),
                                       language(request, lang))


@router.get("/games/{game_id}/chat", responses=ERRORS,
            summary="What was said in the game (for a replay: up to a version)")
async def chat_messages(game_id: GameId, request: Request, upto: Annotated[
        int | None, Query(ge=0, le=1_000_000, description="Only what was said when the game "
                          "had this many actions or fewer (a replay's step).")] = None
                        ) -> dict[str, Any]:
    """The latest messages (at most 2000), oldest first, as the WebSocket sends them:
    `{"id", "seat" (null: a spectator), "name", "text", "version", "at", "channel"
    ("players" or "spectators"), "author" (a spectator's pseudonym, null for a player)}`.
    Texts are as typed: show them as text, never as HTML."""
    h = hub(request)
    said = await h.call(chat.history, h.service.store.engine, game_id, upto)
    return {"game_id": game_id, "upto": upto, "messages": said}


@router.get("/games/{game_id}/record", responses=ERRORS,
            summary="The whole game record, once the game is over")
async def record(game_id: GameId, request: Request) -> dict[str, Any]:
    h = hub(request)
    live = await h.call(h.service.live, game_id)
    return await h.call(h.service.record, live)
