"""Broadcasts between server processes: in-process by default, Redis when configured.

Only notifications travel ("game X is at version N"); never a view. Each process then builds
every one of its connections' views itself, so no private information crosses the bus.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections import defaultdict
from collections.abc import AsyncIterator
from typing import Any

from tlatelolco.extras import require


class PubSub:
    """Fans messages out to this process's subscribers; subclasses add a shared transport."""

    def __init__(self) -> None:
        self._queues: dict[str, set[asyncio.Queue[dict[str, Any]]]] = defaultdict(set)

    async def start(self) -> None:
        pass

    async def close(self) -> None:
        pass

    async def publish(self, channel: str, message: dict[str, Any]) -> None:
        self._deliver(channel, message)

    def _deliver(self, channel: str, message: dict[str, Any]) -> None:
        for queue in self._queues.get(channel, ()):
            queue.put_nowait(message)

    async def _first_subscriber(self, channel: str) -> None:
        pass

    async def _last_subscriber(self, channel: str) -> None:
        pass

    @contextlib.asynccontextmanager
    async def subscribe(self, channel: str) -> AsyncIterator[asyncio.Queue[dict[str, Any]]]:
        """A queue receiving every message published on `channel` while the block runs."""
        queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        first = not self._queues[channel]
        self._queues[channel].add(queue)
        try:
            if first:
                await self._first_subscriber(channel)
            yield queue
        finally:
            self._queues[channel].discard(queue)
            if not self._queues[channel]:
                del self._queues[channel]
                await self._last_subscriber(channel)


class RedisPubSub(PubSub):
    """One Redis connection per process: it subscribes to a channel while anybody here listens."""

    def __init__(self, url: str) -> None:
        super().__init__()
        redis = require("redis.asyncio", "server")

        self.url = url
        self._redis = redis.Redis.from_url(url)
        self._pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
        self._listener: asyncio.Task[None] | None = None
        self._ready = asyncio.Event()

    async def start(self) -> None:
        await self._redis.ping()  # fail at start-up, with Redis's own message, if unreachable
        await self._pubsub.subscribe("tlatelolco:hello")  # a connection for the listener
        self._listener = asyncio.create_task(self._listen())

    async def close(self) -> None:
        if self._listener is not None:
            self._listener.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._listener
        await self._pubsub.aclose()
        await self._redis.aclose()

    async def publish(self, channel: str, message: dict[str, Any]) -> None:
        await self._redis.publish(channel, json.dumps(message))

    async def _first_subscriber(self, channel: str) -> None:
        await self._pubsub.subscribe(channel)

    async def _last_subscriber(self, channel: str) -> None:
        with contextlib.suppress(Exception):
            await self._pubsub.unsubscribe(channel)

    async def _listen(self) -> None:
        while True:
            try:
                message = await self._pubsub.get_message(timeout=1.0)
            except asyncio.CancelledError:
                raise
            except Exception:  # a dropped connection: redis-py reconnects on the next call
                await asyncio.sleep(0.5)
                continue
            if message is None or message.get("type") != "message":
                continue
            channel = message["channel"]
            if isinstance(channel, bytes):
                channel = channel.decode()
            self._deliver(channel, json.loads(message["data"]))


def make_pubsub(redis_url: str | None) -> PubSub:
    return RedisPubSub(redis_url) if redis_url else PubSub()


def channel(game_id: str) -> str:
    return f"tlatelolco:game:{game_id}"
