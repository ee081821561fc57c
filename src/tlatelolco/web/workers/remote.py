"""Bot moves, hints and review batches run by `tlatelolco worker` processes on other machines,
through RQ queues on Redis (`serve --redis URL --remote-workers`).

`RemotePool` has the methods of `BotPool`, so the hub and the reviews use either. Fairness
is kept on the server: jobs wait in a `FairQueue` (hints, then games with a person, then bot
games, then reviews; round robin over clients and games) whose `slots` is the number of live
workers, counted every `REFRESH` seconds, so Redis never holds more of this server's jobs than
there are workers to take them. Each job goes to the RQ queue of its priority (`QUEUES`),
which a worker reads most urgent first.

A job's deadline counts from when it is put on Redis (it is taken at once: a worker is free).
At the deadline the server stops waiting (None: the hub plays its fallback move) and deletes
the job, which also carries the deadline as its RQ `ttl` and `job_timeout`: nobody runs it
late, and a worker still searching is stopped by RQ. A worker that dies mid-job (`kill -9`)
stops refreshing its `ALIVE` key within `ALIVE_TTL` seconds; its job is then given up at once,
and at the latest at its deadline. With no live worker, jobs wait until their deadline, then
the hub's fallback plays.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import math
import time
from collections.abc import Callable
from typing import Any, TypeVar

from tlatelolco.web.workers.bots import WorkerPool
from tlatelolco.web.workers.fairness import (
    ANONYMOUS,
    HINT,
    IDLE,
    PERSON,
    REVIEW,
    FairQueue,
    Ticket,
)

log = logging.getLogger("tlatelolco.web")
T = TypeVar("T")
# the RQ queue of each priority class; a worker listens to them in this order
QUEUES = {HINT: "tlatelolco:hint", PERSON: "tlatelolco:person", IDLE: "tlatelolco:idle",
          REVIEW: "tlatelolco:review"}
ALIVE = "tlatelolco:alive:"  # + a worker's name: set by the worker, expires when it dies
ALIVE_TTL = 3  # seconds an ALIVE key lives; a worker refreshes it every second
REFRESH = 1.0  # seconds between counts of the live workers (and looks at a job's worker)
RESULT_TTL = 60  # seconds RQ keeps a result the server has not read (it reads it at once)
THREADS = 4  # threads for RQ's synchronous calls (enqueue, delete, counting workers)


class RemotePool(WorkerPool):
    """Runs `decide`, `hint` and review batches on `tlatelolco worker` processes through the
    Redis at `url` (see the module). The same calls as `BotPool`."""

    def __init__(self, url: str) -> None:
        import redis
        import redis.asyncio
        from rq import Queue

        self.url = url
        self._redis = redis.Redis.from_url(url, socket_timeout=10, socket_connect_timeout=5)
        self._async = redis.asyncio.Redis.from_url(url, socket_connect_timeout=5)
        self._queues = {p: Queue(name, connection=self._redis) for p, name in QUEUES.items()}
        self._threads = concurrent.futures.ThreadPoolExecutor(THREADS, "rq")
        self.queue = FairQueue(0)  # slots: live workers, counted by `_watch`
        self._counted = asyncio.Event()  # the first count is done
        self._watcher: asyncio.Task[None] | None = None
        self._closed = False

    async def run(self, function: Callable[[dict[str, Any]], T], job: dict[str, Any],
                  timeout: float, ticket: Ticket = ANONYMOUS) -> T | None:
        """`function(job)` on a worker once `ticket`'s turn comes: its result, or None when
        it has not come `timeout` seconds after the job was put on Redis (or when no worker
        was alive for `timeout` seconds of waiting). The job's exception is raised here as a
        RuntimeError. Cancelling the call deletes the job."""
        if self._closed:
            raise RuntimeError("the bot pool is closed")
        self._start()
        if not await self._turn(ticket, timeout):
            return None
        try:
            if self._closed:
                raise RuntimeError("the bot pool is closed")
            return await self._remote(function, job, timeout, ticket)
        finally:
            self.queue.release()

    # --- waiting for a turn -----------------------------------------------------------------
    async def _turn(self, ticket: Ticket, timeout: float) -> bool:
        """Wait for a slot in fair order: True once held; False when there has been no live
        worker and `timeout` seconds have passed."""
        await self._counted.wait()
        started = time.monotonic()
        acquire = asyncio.ensure_future(self.queue.acquire(ticket))
        try:
            while True:
                done, _ = await asyncio.wait({acquire}, timeout=REFRESH)
                if done:
                    acquire.result()
                    return True
                if self.queue.slots == 0 and time.monotonic() - started >= timeout:
                    break
        finally:
            if not acquire.done():
                acquire.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await acquire
                if not acquire.cancelled():  # handed a slot as we gave up: not ours
                    self.queue.release()
        return False

    # --- one job on Redis -------------------------------------------------------------------
    async def _remote(self, function: Callable[[dict[str, Any]], T], job: dict[str, Any],
                      timeout: float, ticket: Ticket) -> T | None:
        deadline = time.monotonic() + timeout
        seconds = max(1, math.ceil(timeout))
        queue = self._queues.get(ticket.priority, self._queues[PERSON])
        name = getattr(function, "__name__", "job")
        loop = asyncio.get_running_loop()
        queued = await loop.run_in_executor(self._threads, lambda: queue.enqueue(
            function, job, job_timeout=seconds, ttl=seconds, result_ttl=RESULT_TTL,
            failure_ttl=RESULT_TTL, description=f"{name} {ticket.game or job.get('game_id', '')}"))
        try:
            result = await self._result(queued.id, deadline)
        except BaseException:  # cancelled, or Redis failed: nobody runs it now
            self._forget(queued.id)
            raise
        if result is None:  # too late: deleted before the fallback plays, so not run late
            await loop.run_in_executor(self._threads, self._delete, queued.id)
            return None
        self._forget(queued.id)  # read: its result is not needed any more
        from rq.results import Result

        if result.type == Result.Type.SUCCESSFUL:
            return result.return_value  # type: ignore[no-any-return]
        last = (result.exc_string or "no error message").strip().splitlines()[-1]
        raise RuntimeError(f"a remote {name} job failed on worker {result.worker_name or '?'}:"
                           f" {last}")

    async def _result(self, job_id: str, deadline: float) -> Any:
        """The job's RQ `Result` once a worker wrote it; None at the deadline, or as soon as
        the worker running it is known dead."""
        from rq.results import Result

        key = Result.get_key(job_id)
        while (left := deadline - time.monotonic()) > 0:
            block = max(1, int(min(left, REFRESH) * 1000))
            async with asyncio.timeout(block / 1000 + 10):  # a Redis that stops answering
                found = await self._async.xread({key: "0-0"}, block=block, count=1)
            if found:
                entry_id, payload = found[0][1][0]
                return Result.restore(job_id, entry_id.decode(), payload,
                                      connection=self._redis)
            if await self._worker_lost(job_id):
                log.warning("the worker running job %s is gone: it is given up", job_id)
                return None
        return None

    async def _worker_lost(self, job_id: str) -> bool:
        """Whether the job was started by a worker whose ALIVE key has expired (it died)."""
        worker = await self._async.hget(f"rq:job:{job_id}", "worker_name")
        if not worker:
            return False
        return not await self._async.exists(ALIVE + worker.decode())

    def _forget(self, job_id: str) -> None:
        """Delete the job in the background (its TTL covers a pool closed meanwhile)."""
        with contextlib.suppress(RuntimeError):  # the pool is closed
            self._threads.submit(self._delete, job_id)

    def _delete(self, job_id: str) -> None:
        from rq.exceptions import NoSuchJobError
        from rq.job import Job

        try:
            Job.fetch(job_id, connection=self._redis).delete()
        except NoSuchJobError:
            pass
        except Exception:
            log.exception("deleting RQ job %s failed", job_id)

    # --- live workers -----------------------------------------------------------------------
    def _start(self) -> None:
        if self._watcher is None:
            self._watcher = asyncio.create_task(self._watch())

    async def _watch(self) -> None:
        """Count the live workers every `REFRESH` seconds; they are the fair queue's slots."""
        loop = asyncio.get_running_loop()
        while True:
            try:
                live = await loop.run_in_executor(self._threads, self.live_workers)
            except Exception as err:
                log.warning("cannot count the remote workers on Redis: %s", err)
                live = 0
            if live != self.queue.slots:
                log.info("remote bot workers alive: %d", live)
            self.queue.slots = live
            self._counted.set()
            await asyncio.sleep(REFRESH)

    def live_workers(self) -> int:
        """The `tlatelolco worker`s listening to our queues whose ALIVE key is there."""
        from rq.worker_registration import get_keys

        keys = get_keys(self._queues[PERSON])  # rq:worker:<name>
        names = [key.rpartition(":")[2] for key in keys]
        if not names:
            return 0
        return int(self._redis.exists(*(ALIVE + name for name in names)))

    def close(self) -> None:
        """Stop counting workers; jobs still waiting for a turn fail with RuntimeError."""
        self._closed = True
        if self._watcher is not None:
            self._watcher.cancel()
        self.queue.slots = self.queue.running + self.queue.waiting()  # wake them to fail
        self._counted.set()
        self._threads.shutdown(wait=True)  # deletions of jobs just given up
        self._redis.close()
        with contextlib.suppress(RuntimeError):  # no running loop: the process is ending
            asyncio.get_running_loop().create_task(self._async.aclose())


__all__ = ["ALIVE", "ALIVE_TTL", "QUEUES", "RemotePool"]
