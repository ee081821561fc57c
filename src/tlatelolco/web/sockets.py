"""The live connection of one seat (or spectator) to one game.

Server to client: `view` messages (the whole view, the log only from `log_from`), `error`
messages (the same body as the API's errors) and `pong`. Client to server:
`{"type": "action", "action": N | "text": "...", "version": V}`, `{"type": "sync"}` (send the
whole view again) and `{"type": "ping"}`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from tlatelolco.web.errors import ApiError
from tlatelolco.web.hub import Hub
from tlatelolco.web.pubsub import channel
from tlatelolco.web.views import versioned_view

router = APIRouter()


@router.websocket("/ws/games/{game_id}")
async def game_socket(websocket: WebSocket, game_id: str, token: str | None = None) -> None:
    hub: Hub = websocket.app.state.hub
    await websocket.accept()
    try:
        _, viewer = await hub.call(hub.service.viewer, game_id, token)
    except ApiError as err:
        await websocket.send_json({"type": "error", **err.as_dict()})
        await websocket.close(code=4000 + err.status, reason=err.message[:120])
        return
    async with hub.pubsub.subscribe(channel(game_id)) as queue:
        session = Session(websocket, hub, game_id, viewer, token)
        await hub.presence(game_id, viewer, +1)
        try:
            await session.send_view(full=True)
            reader = asyncio.create_task(session.read())
            writer = asyncio.create_task(session.write(queue))
            done, pending = await asyncio.wait({reader, writer},
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


class Session:
    def __init__(self, websocket: WebSocket, hub: Hub, game_id: str, viewer: int | None,
                 token: str | None) -> None:
        self.token = token
        self.ws = websocket
        self.hub = hub
        self.game_id = game_id
        self.viewer = viewer
        self.sent = 0  # the version (log length) this client has
        self.lock = asyncio.Lock()

    async def send_view(self, full: bool = False, version: int = 0, seats: bool = False
                        ) -> None:
        async with self.lock:
            live = await self.hub.call(self.hub.service.sync, self.game_id, version, seats)
            if not full and live.version < self.sent:
                return
            text, self.sent = await self.hub.call(versioned_view, live, self.viewer,
                                                  0 if full else self.sent,
                                                  self.hub.views_connected(self.game_id))
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
            if version and version <= self.sent and not message.get("seats") \
                    and not message.get("presence"):
                continue
            await self.send_view(version=version, seats=bool(message.get("seats")))

    async def read(self) -> None:
        while True:
            raw = await self.ws.receive_text()
            try:
                message = json.loads(raw)
                if not isinstance(message, dict):
                    raise ValueError
            except ValueError:
                await self.error(ApiError(422, "bad_message", "a message is a JSON object "
                                          "with a 'type': action, sync or ping"))
                continue
            kind = message.get("type")
            if kind == "ping":
                await self.ws.send_json({"type": "pong"})
            elif kind == "sync":
                await self.send_view(full=True)
            elif kind == "action":
                await self.act(message)
            else:
                await self.error(ApiError(422, "bad_message", f"unknown message type {kind!r}; "
                                          "allowed: action, sync, ping"))

    async def act(self, message: dict[str, Any]) -> None:
        unknown = sorted(set(message) - {"type", "action", "text", "version"})
        if unknown:
            await self.error(ApiError(422, "bad_message", f"unknown field {unknown[0]!r}; an "
                                      "action message has type, action or text, and version"))
            return
        if self.viewer is None:
            await self.error(ApiError(401, "no_credential", "spectators cannot move; open "
                                      "your seat's invite link to play"))
            return
        service = self.hub.service
        try:
            _, _, change = await self.hub.write(  # the credential is checked every time
                service.act, self.game_id, self.token, message.get("action"),
                message.get("text"), message.get("version"))
        except ApiError as err:
            await self.error(err)
            return
        await self.hub.announce(change)
