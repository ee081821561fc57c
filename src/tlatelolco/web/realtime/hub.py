"""The asynchronous side of the server: announcing changes, playing bot seats, presence.

The `Service` decides (in worker threads; with SQLite, reads on the loop and writes in one
writer thread); the hub tells everybody about it through the pub/sub and keeps bot seats
moving, one task per game with a bot to move.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import logging
import random
from collections import Counter, OrderedDict, defaultdict
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from tlatelolco.web.http.errors import ApiError
from tlatelolco.web.http.limits import RateLimiter, RateLimits
from tlatelolco.web.play.service import Change, Service
from tlatelolco.web.realtime.chat import address_limiter, chat_channel
from tlatelolco.web.realtime.clock import Clock
from tlatelolco.web.realtime.pubsub import PubSub, channel
from tlatelolco.web.workers.bots import HINT_TIME, WorkerPool, time_budget
from tlatelolco.web.workers.fairness import HINT, Ticket

log = logging.getLogger("tlatelolco.web")
HINTS_KEPT = 256  # games whose last hint is kept
HINT_WAIT = 10.0  # seconds a hint may wait for a bot worker before the answer is "busy"
T = TypeVar("T")


class Hub:
    def __init__(self, service: Service, pubsub: PubSub, bots: WorkerPool, *,
                 bot_delay: float = 0.0, bot_delays: dict[str, float] | None = None,
                 bot_time: float = 5.0, inline: bool = False,
                 limits: RateLimiter | None = None, expire_after: float = 0.0,
                 expire_bot_games: float = 0.0, clock_check: float = 15.0) -> None:
        self.service = service
        self.clock = Clock(self, clock_check)  # applies the timeouts of turn-based games
        self.limits = limits or RateLimiter(RateLimits(0, 0, 0, 0))
        self.chat_limits = address_limiter()  # chat messages per client address
        self.expire_after = expire_after
        self.expire_bot_games = expire_bot_games  # seconds a finished game of bots is kept
        self.pubsub = pubsub
        self.bots = bots
        self.bot_delay = bot_delay
        self.bot_delays = bot_delays or {}
        self.bot_time = bot_time
        self.inline = inline
        self._writer = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="writer")
        self.connected: dict[str, Counter[int]] = defaultdict(Counter)
        self._bot_tasks: dict[str, asyncio.Task[None]] = {}
        self._kicked: set[str] = set()  # games changed since their bot task last looked
        self._sweeper: asyncio.Task[None] | None = None
        # called after every change a process makes (a move, a seat taken): reminders,
        # ratings. Each must return at once (start its own work) and never raise.
        self.listeners: list[Callable[[Change], Awaitable[None]]] = []
        # the last hint asked for per game, by (version, seat): asking again (a second tab, a
        # double click) waits for the same search instead of starting another
        self._hints: OrderedDict[str, tuple[tuple[int, int, int],
                                            asyncio.Task[dict[str, Any] | None]]] = OrderedDict()

    async def call(self, function: Callable[..., T], *args: Any) -> T:
        """Run a `Service` call that only reads: on the event loop when the database is SQLite
        in this process (answers in microseconds, and usually not even asked), else in a worker
        thread so the loop never waits on the network."""
        if self.inline:
            return function(*args)
        return await asyncio.to_thread(function, *args)

    async def write(self, function: Callable[..., T], *args: Any) -> T:
        """Run a `Service` call that stores something, off the event loop. With SQLite the
        writes go one at a time through one thread: SQLite has one writer anyway, and threads
        queueing for its lock cost more than they gain."""
        if self.inline:
            return await asyncio.get_running_loop().run_in_executor(
                self._writer, functools.partial(function, *args))
        return await asyncio.to_thread(function, *args)

    async def start(self) -> None:
        await self.pubsub.start()
        for game_id in await self.call(self.service.store.running_game_ids):
            self.kick_bots(game_id)  # games a stopped or killed server left with a bot to move
        self._sweeper = asyncio.create_task(self._sweep())
        self.clock.start()

    async def _sweep(self, every: float = 20.0) -> None:
        """Now and then, move the bots of games nobody moved for a while (the process that
        would have moved them may have died while another one goes on serving), and delete
        the unfinished games abandoned for `expire_after` seconds and the finished games of
        bots only that ended `expire_bot_games` seconds ago."""
        rounds = 0
        while True:
            if (self.expire_after > 0 or self.expire_bot_games > 0) and rounds % 90 == 0:
                try:  # at start, then every half hour
                    gone = await self.write(self.service.expire, self.expire_after,
                                            self.expire_bot_games)
                    if gone:
                        log.info("deleted %d abandoned games and games of bots", len(gone))
                except Exception:
                    log.exception("deleting abandoned games failed")
            rounds += 1
            await asyncio.sleep(every)
            try:
                for game_id in await self.call(self.service.store.running_game_ids, every):
                    await self.call(self.service.refresh_game, game_id)
                    self.kick_bots(game_id)
            except Exception:
                log.exception("looking for stalled bot seats failed")

    async def close(self) -> None:
        await self.clock.close()
        if self._sweeper is not None:
            self._sweeper.cancel()
        for task in list(self._bot_tasks.values()):
            task.cancel()
        hints = [task for _, task in self._hints.values()]
        for task in hints:
            task.cancel()
        await asyncio.gather(*self._bot_tasks.values(), *hints, return_exceptions=True)
        await self.pubsub.close()
        self.bots.close()
        self._writer.shutdown(wait=True)

    async def announce(self, change: Change | None) -> None:
        if change is None:
            return
        await self.pubsub.publish(channel(change.game_id), change.message())
        self.kick_bots(change.game_id)
        await self.tell_listeners(change)

    async def tell_listeners(self, change: Change) -> None:
        for listener in self.listeners:
            try:
                await listener(change)
            except Exception:
                log.exception("a listener of game %s failed", change.game_id)

    async def announce_chat(self, game_id: str, said: list[dict[str, Any]]) -> None:
        """Chat messages to every connection of the game, in every process: the messages
        themselves travel, as everything said in a game is public to whoever watches it."""
        await self.pubsub.publish(chat_channel(game_id), {"game": game_id, "messages": said})

    async def presence(self, game_id: str, seat: int | None, delta: int) -> None:
        if seat is None:
            return
        self.connected[game_id][seat] += delta
        if self.connected[game_id][seat] <= 0:
            del self.connected[game_id][seat]
        if not self.connected[game_id]:
            del self.connected[game_id]
        await self.pubsub.publish(channel(game_id), {"game": game_id, "presence": True})

    def kick_bots(self, game_id: str) -> None:
        self._kicked.add(game_id)
        task = self._bot_tasks.get(game_id)
        if task is None or task.done():
            self._bot_tasks[game_id] = asyncio.create_task(self._play_bots(game_id))

    async def _play_bots(self, game_id: str) -> None:
        try:
            while True:
                self._kicked.discard(game_id)
                turn = await self.call(self.service.bot_turn, game_id)
                if turn is None:
                    if game_id in self._kicked:  # it changed while we looked: look again
                        continue
                    return
                seat, spec, job, ticket = turn  # the spec as cut for a game of bots only
                delay = self.bot_delays.get(job["game"], self.bot_delay)
                if delay:
                    await asyncio.sleep(delay)
                action = await self.bots.decide(job, time_budget(spec, self.bot_time) + 1.0,
                                                ticket)
                if action is None:
                    action = self._fallback(game_id)
                    log.warning("bot %s in game %s ran out of time; it played %s", spec,
                                game_id, action)
                change = await self.write(self.service.bot_act, game_id, seat, action,
                                                 len(job["history"]))
                if change is not None:
                    await self.pubsub.publish(channel(game_id), change.message())
                    await self.tell_listeners(change)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("bot seat of game %s failed", game_id)
        finally:
            if self._bot_tasks.get(game_id) is asyncio.current_task():
                del self._bot_tasks[game_id]

    async def hint(self, job: dict[str, Any], client: str | None = None) -> dict[str, Any]:
        """A hint (see `bots.hint`) for the position and seat of `job`, searched once, ahead
        of every bot move (a person waits on it) and charged to `client`, who asked."""
        game_id = job["game_id"]
        asked = (len(job["history"]), job["seat"], job.get("undos", 0))
        kept = self._hints.get(game_id)
        if kept is None or kept[0] != asked or _failed(kept[1]):
            ticket = Ticket(HINT, client or "?", game_id)
            kept = (asked, asyncio.create_task(self.bots.hint(job, HINT_TIME + 5.0, ticket)))
            self._hints[game_id] = kept
        self._hints.move_to_end(game_id)
        while len(self._hints) > HINTS_KEPT:
            self._hints.popitem(last=False)
        try:  # queued behind other games' bots, a hint waits; a person waits only so long
            found = await asyncio.wait_for(asyncio.shield(kept[1]), HINT_TIME + HINT_WAIT)
        except TimeoutError:
            found = None
        if found is None:
            raise ApiError(503, "busy", "the server's bots are busy and the hint did not come "
                           "in time; ask again in a moment")
        return found

    def _fallback(self, game_id: str) -> int:
        state = self.service.live(game_id).state
        return random.Random(state.move_number()).choice(state.legal_actions())

    def views_connected(self, game_id: str) -> dict[int, int]:
        return dict(self.connected.get(game_id, {}))

    def idle(self) -> bool:
        """Whether no bot is thinking (tests wait for this)."""
        return all(task.done() for task in self._bot_tasks.values())


def _failed(task: asyncio.Task[dict[str, Any] | None]) -> bool:
    """Whether a finished hint search came to nothing (timed out, cancelled or crashed)."""
    return task.done() and (task.cancelled() or task.exception() is not None
                            or task.result() is None)


__all__ = ["Hub"]
