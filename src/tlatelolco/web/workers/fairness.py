"""Who gets the next free bot worker: fair shares of bot time instead of one FIFO.

Bot moves, hints and reviews all wait for the same few workers. A first-come queue lets one
client who starts many all-bot games push everybody else's bots back for minutes. Here each
job carries a `Ticket` (how urgent it is, the client it is charged to, its game) and a free
worker goes to:

1. the most urgent priority class waiting (`HINT` before `PERSON` before `IDLE` before
   `REVIEW`): a person waiting on a hint or on a bot's move never queues behind a game that
   nobody watches;
2. within it, the client served least recently (so a client with forty games gets no more
   turns than a client with one, and one who comes back after a pause goes first);
3. within that client, the game served least recently; within a game, first come first.

`FairQueue` only decides the order; the pools (`BotPool` for this machine's processes, the
remote pool for worker machines) run the jobs.
"""

from __future__ import annotations

import asyncio
import itertools
from collections import OrderedDict, deque
from dataclasses import dataclass

HINT, PERSON, IDLE, REVIEW = 0, 1, 2, 3  # priority classes, most urgent first
PRIORITY_NAMES = {HINT: "hint", PERSON: "person", IDLE: "idle", REVIEW: "review"}
REMEMBERED = 10_000  # clients and games whose last turn is remembered


@dataclass(frozen=True, slots=True)
class Ticket:
    """What a job is and whom it is charged to: `priority` (HINT, PERSON, IDLE or REVIEW),
    `client` (the address the work counts against: the game's creator for its bots, the asker
    for a hint or review) and `game` (its id)."""

    priority: int = PERSON
    client: str = "?"
    game: str = ""


ANONYMOUS = Ticket()  # a job nobody said anything about: a person's game, one shared client


class _Waiter:
    __slots__ = ("future", "ticket")

    def __init__(self, ticket: Ticket, future: asyncio.Future[None]) -> None:
        self.ticket = ticket
        self.future = future


class FairQueue:
    """`slots` jobs run at once; the others wait in the order described in the module.

        async with queue.slot(ticket):   # waits for its turn, frees the slot on the way out
            ...run the job...

    Cancelling a waiting `acquire` takes it out of the queue. `slots` may change at any time
    (a remote pool counts its live workers): more slots wake waiters at once, fewer take
    effect as running jobs end.
    """

    def __init__(self, slots: int) -> None:
        self._slots = max(0, slots)
        self.running = 0
        # priority -> client -> game -> waiters, in the order they came
        self._classes: dict[int, dict[str, dict[str, deque[_Waiter]]]] = {}
        # when each client, and each (client, game), last got a slot: the least recent goes
        # first, so a client who comes back after a pause is not put behind one just served
        self._served: OrderedDict[str | tuple[str, str], int] = OrderedDict()
        self._clock = itertools.count()

    @property
    def slots(self) -> int:
        return self._slots

    @slots.setter
    def slots(self, value: int) -> None:
        self._slots = max(0, value)
        self._wake()

    def waiting(self, priority: int | None = None) -> int:
        """How many jobs wait (of one priority class, or all)."""
        classes = [self._classes.get(priority, {})] if priority is not None \
            else list(self._classes.values())
        return sum(len(w) for clients in classes for games in clients.values()
                   for w in games.values())

    def waiting_for(self, client: str) -> int:
        """How many jobs of `client` wait, in every priority class."""
        return sum(len(w) for clients in self._classes.values()
                   for w in clients.get(client, {}).values())

    async def acquire(self, ticket: Ticket = ANONYMOUS) -> None:
        """Wait for a slot; the caller must `release()` it when its job is done."""
        if self.running < self._slots and not self.waiting():
            self.running += 1
            self._served_now(ticket)
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        waiter = _Waiter(ticket, future)
        clients = self._classes.setdefault(ticket.priority, {})
        clients.setdefault(ticket.client, {}).setdefault(
            ticket.game, deque()).append(waiter)
        self._wake()
        try:
            await future
        except asyncio.CancelledError:
            if future.done() and not future.cancelled():
                self.release()  # handed a slot as we were cancelled: give it back
            else:
                self._forget(waiter)
            raise

    def release(self) -> None:
        """A job ended: its slot goes to the next waiter in fair order."""
        self.running = max(0, self.running - 1)
        self._wake()

    def slot(self, ticket: Ticket = ANONYMOUS) -> _Slot:
        return _Slot(self, ticket)

    def _wake(self) -> None:
        while self.running < self._slots:
            waiter = self._next()
            if waiter is None:
                return
            if not waiter.future.done():
                self.running += 1
                waiter.future.set_result(None)

    def _next(self) -> _Waiter | None:
        """Take the next waiter in fair order out of the queue (None when nobody waits)."""
        for priority in sorted(self._classes):
            clients = self._classes[priority]
            while clients:
                client = min(clients, key=self._last_served)
                games = clients[client]
                game = min(games, key=lambda g: self._last_served((client, g)))
                waiters = games[game]
                waiter = waiters.popleft()
                if not waiters:
                    del games[game]
                if not games:
                    del clients[client]
                if waiter.future.done():  # cancelled while it waited
                    continue
                self._served_now(waiter.ticket)
                return waiter
            del self._classes[priority]
        return None

    def _last_served(self, key: str | tuple[str, str]) -> int:
        """When `key` (a client, or a client's game) was last given a slot: -1 for never."""
        return self._served.get(key, -1)

    def _served_now(self, ticket: Ticket) -> None:
        for key in (ticket.client, (ticket.client, ticket.game)):
            self._served[key] = next(self._clock)
            self._served.move_to_end(key)
        while len(self._served) > REMEMBERED:  # forget the longest-served: they go first
            self._served.popitem(last=False)

    def _forget(self, waiter: _Waiter) -> None:
        clients = self._classes.get(waiter.ticket.priority)
        games = clients.get(waiter.ticket.client) if clients else None
        waiters = games.get(waiter.ticket.game) if games else None
        if waiters is None or waiter not in waiters:
            return
        waiters.remove(waiter)
        if not waiters:
            del games[waiter.ticket.game]  # type: ignore[index]
        if not games:
            del clients[waiter.ticket.client]  # type: ignore[index]


class _Slot:
    """`async with queue.slot(ticket):` holds one slot for the block."""

    __slots__ = ("queue", "ticket")

    def __init__(self, queue: FairQueue, ticket: Ticket) -> None:
        self.queue = queue
        self.ticket = ticket

    async def __aenter__(self) -> None:
        await self.queue.acquire(self.ticket)

    async def __aexit__(self, *exc: object) -> None:
        self.queue.release()


__all__ = ["HINT", "IDLE", "PERSON", "PRIORITY_NAMES", "REVIEW", "FairQueue", "Ticket"]
