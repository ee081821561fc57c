"""The server's clock for turn-based games: one task per server process applies timeouts.

It reads the running clocks from the database, not from memory, so a game created by another
process, or left running by a server that stopped or was killed, is timed all the same. It
sleeps until the nearest deadline (at most `check` seconds: a turn started elsewhere is seen
that soon) and applies each timeout through `Service.time_out`, whose write is conditional
on the clock it read: when several processes see one deadline pass, one applies it and the
others find nothing to do.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import time
from typing import TYPE_CHECKING

from tlatelolco.web.play import clocks

if TYPE_CHECKING:
    from tlatelolco.web.realtime.hub import Hub

log = logging.getLogger("tlatelolco.web")
LEAST_WAIT = 0.05  # seconds: the clock never spins
LATE = 0.01  # seconds after a deadline it is looked at (the deadline itself is still in time)


class Clock:
    def __init__(self, hub: Hub, check: float = 15.0) -> None:
        self.hub = hub
        self.check = max(LEAST_WAIT, check)
        self._task: asyncio.Task[None] | None = None
        self._failed: dict[tuple[str, dt.datetime], float] = {}  # clock -> when to retry
        self.applied = 0  # timeouts this process applied (tests and logs read it)

    def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    async def _run(self) -> None:
        while True:
            try:
                wait = await self.tick()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("looking at the clocks of turn-based games failed")
                wait = self.check
            await asyncio.sleep(wait)

    async def tick(self) -> float:
        """Apply every timeout due now; the seconds until the next deadline (at most
        `check`)."""
        hub = self.hub
        running = await hub.call(hub.service.store.running_clocks)
        stamp, wait = clocks.now(), self.check
        retry = time.monotonic()
        self._failed = {k: v for k, v in self._failed.items() if v > retry}
        for game_id, seat, started, move_time in running:
            due = clocks.deadline(started, move_time)
            assert due is not None
            left = (due - stamp).total_seconds()
            if left >= 0:
                wait = min(wait, left + LATE)
                continue
            if (game_id, started) in self._failed:
                continue
            try:
                change = await hub.write(hub.service.time_out, game_id, seat, started)
            except Exception:  # one broken game must not stop the clock of the others
                log.exception("the timeout of seat %s in game %s failed", seat, game_id)
                self._failed[(game_id, started)] = time.monotonic() + self.check
                continue
            if change is not None:
                self.applied += 1
                log.info("game %s: seat %s ran out of time", game_id, seat)
                await hub.announce(change)
                wait = LEAST_WAIT  # the next person's clock started: read it again
        return max(LEAST_WAIT, wait)


__all__ = ["Clock"]
