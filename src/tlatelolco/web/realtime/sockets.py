"""The live connection of one seat (or spectator) to one game.

The client speaks first: `{"type": "hello", "token": CREDENTIAL | null}` within
`HELLO_TIMEOUT` seconds (credentials never go in the URL, which servers and proxies log).
Server to client: `view` messages (the whole view, the log only from `log_from`), `error`
messages (the same body as the API's errors), `why` answers and `pong`. The hello may add
`"lang": "es"`: the log's words come in that language. Client to server after the hello:
`{"type": "action", "action": N | "text": "...", "version": V}`, `{"type": "undo", "version":
V}` (take back your last move of this turn), `{"type": "why", "text": "..."}` (why that move
is not legal now: answered `{"type": "why", "text", "reason"}`, reason null when it is),
`{"type": "sync"}` (send the whole view again), `{"type": "ping"}` and `{"type": "chat",
"text": "...", "channel": "players" | "spectators"}` (said to everybody watching the game;
see `chat`: every connection of the game gets `{"type": "chat", "messages": [...]}`, and a new
one the last messages after its first view), `{"type": "mute", "author": ...}` (a player mutes
a spectator: answered `{"type": "muted", "author"}`). A message is a JSON
object of at most `MESSAGE_MAX` characters; anything else is answered with an `error` and the
connection stays.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import time
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from tlatelolco.i18n import DEFAULT_LANGUAGE, LANGUAGES, N_, gettext
from tlatelolco.web.accounts.identity import SESSION_COOKIE, Credential, session_account
from tlatelolco.web.http.errors import ApiError
from tlatelolco.web.http.limits import SocketCaps, client_address
from tlatelolco.web.play.views import versioned_view
from tlatelolco.web.realtime import chat
from tlatelolco.web.realtime.hub import Hub
from tlatelolco.web.realtime.pubsub import channel

router = APIRouter()
HELLO_TIMEOUT = 10.0  # seconds for the first message
MESSAGE_MAX = 4096  # characters of one client message
MESSAGES_PER_SECOND = 50.0  # a client's sustained rate; bursts of twice that pass
GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,16}")
KINDS = "action, undo, why, chat, mute, sync or ping"  # what a client may send after its hello


class BadMessage(Exception):
    """A client message that is not what the protocol allows (answered, not fatal)."""


async def receive_message(websocket: WebSocket) -> dict[str, Any]:
    """The next client message as a dict with a string `type`; BadMessage saying what is
    wrong with one that is not (oversized, not text, not JSON, nested past reason)."""
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    raw = message.get("text")
    if raw is None:
        raise BadMessage("messages are text frames holding JSON")
    if len(raw) > MESSAGE_MAX:
        raise BadMessage(f"a message has at most {MESSAGE_MAX} characters; this one has "
                         f"{len(raw)}")
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        raise BadMessage("a message is a JSON object with a 'type'") from None
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise BadMessage("a message is a JSON object with a 'type' (a string)")
    return data


def bad(message: str) -> ApiError:
    return ApiError(422, "bad_message", message)


@router.websocket("/ws/games/{game_id}")
async def capped_socket(websocket: WebSocket, game_id: str) -> None:
    """Accept, then hold one of the server's socket places until the socket closes; when all
    of them, or this address's share, are taken: an `error` naming the cap, and close 1013."""
    caps: SocketCaps = websocket.app.state.socket_caps
    await websocket.accept()
    client = client_address(websocket)
    try:
        caps.take(client)
    except ApiError as err:
        with contextlib.suppress(WebSocketDisconnect, RuntimeError):
            await websocket.send_json({"type": "error", **err.as_dict()})
            await websocket.close(code=1013, reason=err.message[:120])  # Try Again Later
        return
    try:
        await game_socket(websocket, game_id, client)
    finally:
        caps.release(client)


async def game_socket(websocket: WebSocket, game_id: str, client: str | None) -> None:
    hub: Hub = websocket.app.state.hub
    try:
        if "token" in websocket.query_params:
            raise ApiError(400, "credential_in_url", "credentials never go in a URL: connect "
                           "without a query and send {\"type\": \"hello\", \"token\": ...} "
                           "as the first message")
        if not GAME_ID.fullmatch(game_id):
            raise ApiError(404, "not_found", "there is no such game")
        hub.limits.check("sockets", client)
        token, lang = await hello(websocket)
        if token is None and same_origin(websocket):  # a logged-in page: its account's seat
            token = await hub.call(session_account, hub.service.store.engine,
                                   websocket.cookies.get(SESSION_COOKIE))
        _, viewer = await hub.call(hub.service.viewer, game_id, token)
    except ApiError as err:
        with contextlib.suppress(WebSocketDisconnect, RuntimeError):
            await websocket.send_json({"type": "error", **err.as_dict()})
            await websocket.close(code=4000 + err.status, reason=err.message[:120])
        return
    except WebSocketDisconnect:
        return
    async with hub.pubsub.subscribe(channel(game_id)) as queue, \
            hub.pubsub.subscribe(chat.chat_channel(game_id)) as said:
        session = Session(websocket, hub, game_id, viewer, token, lang, client)
        await hub.presence(game_id, viewer, +1)
        try:
            await session.send_view(full=True)
            await chat.send_recent(session)
            reader = asyncio.create_task(session.read())
            writer = asyncio.create_task(session.write(queue))
            talker = asyncio.create_task(chat.forward(session, said))
            done, pending = await asyncio.wait({reader, writer, talker},
                                               return_when=asyncio.FIRST_COMPLETED)
            for task in pending:
                task.cancel()
            for task in done:
                with contextlib.suppress(WebSocketDisconnect, asyncio.CancelledError):
                    task.result()
        except WebSocketDisconnect:
            pass
        finally:
            await hub.presence(game_id, viewer, -1)


async def hello(websocket: WebSocket) -> tuple[str | None, str]:
    """The credential of the first message (None: a spectator) and the language the client
    reads (`lang`, optional); ApiError when it does not come in time or is not a hello."""
    try:
        message = await asyncio.wait_for(receive_message(websocket), HELLO_TIMEOUT)
    except TimeoutError:
        raise ApiError(408, "no_hello", f"send {{\"type\": \"hello\", \"token\": ...}} "
                       f"within {HELLO_TIMEOUT:g} s of connecting") from None
    except BadMessage as err:
        raise bad(f"{err}; the first one is {{\"type\": \"hello\", \"token\": ...}}") from None
    token = message.get("token")
    unknown = sorted(set(message) - {"type", "token", "lang"})
    if message["type"] != "hello" or unknown:
        raise bad("the first message is {\"type\": \"hello\", \"token\": CREDENTIAL} "
                  "(token null to watch), with no other field but an optional \"lang\"")
    lang = message.get("lang", DEFAULT_LANGUAGE)
    if lang not in LANGUAGES:
        raise bad(f"'lang' is one of {', '.join(LANGUAGES)}")
    if token is not None and (not isinstance(token, str) or not 0 < len(token) <= 64):
        raise bad("'token' is your seat's credential (a string of at most 64 characters) "
                  "or null to watch")
    return token, lang


def same_origin(websocket: WebSocket) -> bool:
    """Whether the socket was opened by one of this server's pages: browsers send a page's
    Origin with every WebSocket, and a page of another site must not act with the cookie
    (cross-site WebSocket hijacking). A program sending no Origin has no cookie to use."""
    origin = websocket.headers.get("origin")
    host = websocket.headers.get("host")
    if not origin or not host:
        return False
    return origin.split("://", 1)[-1].rstrip("/") == host


class Session:
    def __init__(self, websocket: WebSocket, hub: Hub, game_id: str, viewer: int | None,
                 token: Credential | None, lang: str = DEFAULT_LANGUAGE,
                 client: str | None = None) -> None:
        self.token = token
        self.client = client  # the address its chat and rates are counted under
        self.lang = lang
        self.ws = websocket
        self.hub = hub
        self.game_id = game_id
        self.viewer = viewer
        self.sent = 0  # the version (log length) this client has
        self.lock = asyncio.Lock()
        self.chat_window = chat.Window()  # this connection's recent chat messages

    async def send_view(self, full: bool = False, version: int = 0, seats: bool = False
                        ) -> None:
        async with self.lock:
            live = await self.hub.call(self.hub.service.sync, self.game_id, version, seats)
            if not full and live.version < self.sent:
                return
            text, self.sent = await self.hub.call(versioned_view, live, self.viewer,
                                                  0 if full else self.sent,
                                                  self.hub.views_connected(self.game_id),
                                                  self.lang)
            await self.ws.send_text(text)

    async def error(self, err: ApiError) -> None:
        await self.ws.send_json({"type": "error", **err.as_dict()})

    async def write(self, queue: asyncio.Queue[dict[str, Any]]) -> None:
        while True:
            message = await queue.get()
            while not queue.empty():  # a burst of notifications needs one view
                later = queue.get_nowait()
                message = {**later, "seats": message.get("seats") or later.get("seats"),
                           "version": max(message.get("version", 0), later.get("version", 0))}
            version = message.get("version", 0)
            if message.get("reset"):  # steps were taken back: the whole view again
                await self.send_view(full=True, version=version, seats=True)
                continue
            if version and version <= self.sent and not message.get("seats") \
                    and not message.get("presence"):
                continue
            await self.send_view(version=version, seats=bool(message.get("seats")))

    async def read(self) -> None:
        allowance, stamp = 2 * MESSAGES_PER_SECOND, time.monotonic()
        while True:
            problem = None
            try:
                message = await receive_message(self.ws)
            except BadMessage as err:  # counted like any message, then answered
                problem = err
            now = time.monotonic()
            allowance = min(2 * MESSAGES_PER_SECOND,
                            allowance + (now - stamp) * MESSAGES_PER_SECOND)
            stamp = now
            if allowance < 1.0:
                await self.error(ApiError(429, "rate_limited", "too many messages: at most "
                                          f"{MESSAGES_PER_SECOND:g} a second; this one was "
                                          "dropped"))
                continue
            allowance -= 1.0
            if problem is not None:
                await self.error(bad(f"{problem}: {KINDS}"))
                continue
            kind = message["type"]
            if kind == "ping":
                await self.ws.send_json({"type": "pong"})
            elif kind == "sync":
                await self.send_view(full=True)
            elif kind == "action":
                await self.act(message)
            elif kind == "undo":
                await self.undo(message)
            elif kind == "why":
                await self.why(message)
            elif kind == "chat":
                await chat.receive(self, message)
            elif kind == "mute":  # a player mutes a spectator of the chat
                await chat.mute(self, message)
            else:
                await self.error(bad(f"unknown message type {kind[:40]!r}; allowed: {KINDS}"))

    async def _only(self, message: dict[str, Any], allowed: set[str], shape: str) -> bool:
        """Whether `message` has no field but `allowed`; else the client is told `shape`."""
        unknown = sorted(set(message) - allowed)
        if unknown:
            await self.error(bad(f"unknown field {unknown[0][:40]!r}; {shape}"))
        return not unknown

    async def undo(self, message: dict[str, Any]) -> None:
        """Take back this seat's last move of its turn (the server checks it may)."""
        if not await self._only(message, {"type", "version"}, "an undo message has type and "
                                "version"):
            return
        if self.viewer is None:
            await self.error(ApiError(401, "no_credential", "spectators have no moves to take "
                                      "back"))
            return
        try:
            _, _, change = await self.hub.write(self.hub.service.undo, self.game_id,
                                                self.token, message.get("version"))
        except ApiError as err:
            await self.error(err)
            return
        await self.hub.announce(change)

    async def why(self, message: dict[str, Any]) -> None:
        """Why a move the player tried (by clicking) is not legal, in the engine's words."""
        if not await self._only(message, {"type", "text"}, "a why message has type and text"):
            return
        if self.viewer is None:
            await self.ws.send_json({"type": "why", "text": message.get("text"),
                                     "reason": gettext(N_("spectators do not move"), self.lang)})
            return
        try:
            reason = await self.hub.call(self.hub.service.why, self.game_id, self.token,
                                         message.get("text"), self.lang)
        except ApiError as err:
            await self.error(err)
            return
        await self.ws.send_json({"type": "why", "text": message.get("text"),
                                 "reason": reason})

    async def act(self, message: dict[str, Any]) -> None:
        unknown = sorted(set(message) - {"type", "action", "text", "version"})
        if unknown:
            await self.error(bad(f"unknown field {unknown[0][:40]!r}; an action message has "
                                 "type, action or text, and version"))
            return
        if self.viewer is None:
            await self.error(ApiError(401, "no_credential", "spectators cannot move; take a "
                                      "seat (an invite link, or join) to play"))
            return
        service = self.hub.service
        try:
            _, _, change = await self.hub.write(  # the credential is checked every time
                service.act, self.game_id, self.token, message.get("action"),
                message.get("text"), message.get("version"), self.lang)
        except ApiError as err:
            await self.error(err)
            return
        await self.hub.announce(change)
