"""Playing a schedule: in this process, in a pool of local processes, or on a Ray cluster.

Every match carries its own seed, so where and in which order it is played does not change its
record: one worker, many workers and Ray give identical records for deterministic bots. (A bot
with a time budget, such as `mcts:time=0.5`, searches as far as the machine allows in that time,
so its games depend on machine speed and load; give it an `iterations=` budget to reproduce.)
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from typing import Any

from tlatelolco.arena.schedule import Match
from tlatelolco.extras import require
from tlatelolco.match import play_match

Progress = Callable[[int, int], None]
Arrived = Callable[[list[dict[str, Any]]], None]  # records as they come in, in no order
MAX_BATCH = 8  # matches sent to a worker at once: fewer round trips, yet a live progress bar
ORPHAN_CHECK = 0.5  # seconds between a worker's checks that the arena that started it is alive


class QuietLocalAuth(logging.Filter):
    """Drops Ray's notice that a new local instance uses token authentication: its default,
    announced on every run. (Choosing the mode ourselves through RAY_AUTH_MODE would silence it
    too, but once Ray is imported that breaks the start of a fresh machine's first instance.)"""

    LOGGER = "ray._private.authentication.authentication_token_setup"

    def filter(self, record: logging.LogRecord) -> bool:
        return not record.getMessage().startswith("Token authentication is enabled")


class ArenaError(RuntimeError):
    """A match could not be played (a bot failed, a worker died): says which match."""


def play_one(match: Match) -> dict[str, Any]:
    """The record of one match; `meta` holds its seed, index and bots."""
    try:
        record = play_match(match.load(), list(match.bots), seed=match.seed,
                            sighted=match.sighted_seats())
    except Exception as err:
        raise ArenaError(f"match {match.index} ({' vs '.join(match.bots)}, seed {match.seed}) "
                         f"failed: {type(err).__name__}: {err}") from None
    record["meta"] = {**record.get("meta", {}), "match": match.index, "bots": list(match.bots)}
    if match.sighted:
        record["meta"]["sighted"] = list(match.sighted)
    return record


def play_batch(matches: Sequence[Match]) -> list[dict[str, Any]]:
    """Records of several matches, played one after the other (what a worker is sent)."""
    return [play_one(m) for m in matches]


def watch_parent(parent: int) -> None:
    """Worker start-up: end this worker as soon as the arena that started it is gone. An arena
    killed by a signal cannot shut its pool down, and its workers would play on for nobody."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(ORPHAN_CHECK)
        os._exit(1)

    threading.Thread(target=watch, name="arena-orphan-watch", daemon=True).start()


def batch_size(remaining: int, workers: int) -> int:
    """Small enough that every worker gets many batches (balance, progress), at most MAX_BATCH;
    shrinking with what is left, so the last batches are single games and no worker idles long
    while another finishes a big one."""
    return max(1, min(MAX_BATCH, remaining // (workers * 8)))


def play_all(matches: Sequence[Match], workers: int | None = None,
             ray_address: str | None = None, progress: Progress | None = None,
             arrived: Arrived | None = None) -> list[dict[str, Any]]:
    """The records of `matches`, in their order.

    `workers=1` plays in this process; more use a pool of that many processes (default: one
    per CPU). With `ray_address` the matches are Ray tasks instead: "local" starts a Ray instance
    on this machine with `workers` CPUs (and stops it afterwards); any other address
    (`ray://host:10001`, `auto`, `host:6379`) joins that cluster, whose nodes need tlatelolco
    installed. `progress(done, total)` is called as matches finish, and `arrived(records)`
    with the records that just came in (a caller that plays several kinds of match in one run
    tells them apart by their `meta.match`).
    """
    if workers is not None and (type(workers) is not int or workers < 1):
        raise ValueError(f"workers must be a whole number of at least 1, not {workers!r}")
    matches = list(matches)
    total = len(matches)
    if len({m.index for m in matches}) != total:
        raise ValueError("every match needs its own index (records are put back in order by it)")
    if progress is not None:
        progress(0, total)
    if not matches:
        return []
    collected = Collected(matches, progress, arrived)
    if ray_address is not None:
        _play_ray(matches, workers, ray_address, collected)
    elif (count := workers or os.cpu_count() or 1) == 1:
        for match in matches:
            collected.add([play_one(match)])
    else:
        _play_pool(matches, count, collected)
    return collected.records()


def _batches(matches: list[Match], workers: int) -> list[list[Match]]:
    batches, start = [], 0
    while start < len(matches):
        size = batch_size(len(matches) - start, workers)
        batches.append(matches[start:start + size])
        start += size
    return batches


class Collected:
    """Records put back in match order as batches come in, with progress reported."""

    def __init__(self, matches: list[Match], progress: Progress | None,
                 arrived: Arrived | None = None) -> None:
        self.results: list[dict[str, Any] | None] = [None] * len(matches)
        self.position = {m.index: i for i, m in enumerate(matches)}
        self.done = 0
        self.progress = progress
        self.arrived = arrived

    def add(self, records: list[dict[str, Any]]) -> None:
        for record in records:
            self.results[self.position[record["meta"]["match"]]] = record
            self.done += 1
        if self.arrived is not None:
            self.arrived(records)
        if self.progress is not None:
            self.progress(self.done, len(self.results))

    def records(self) -> list[dict[str, Any]]:
        return [r for r in self.results if r is not None]


def _play_pool(matches: list[Match], workers: int, collected: Collected) -> None:
    # spawn: a clean interpreter per worker on every OS, whatever threads this process runs
    context = multiprocessing.get_context("spawn")
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=context,
                               initializer=watch_parent, initargs=(os.getpid(),))
    try:
        pending: set[Future[list[dict[str, Any]]]] = {
            pool.submit(play_batch, batch) for batch in _batches(matches, workers)}
        while pending:
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                collected.add(future.result())
    except BrokenProcessPool as err:
        raise ArenaError(f"a worker process died ({err}); no records were kept") from None
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


@contextmanager
def ray_session(address: str, workers: int | None) -> Iterator[Any]:
    """Ray, connected for the length of the block: "local" starts an instance on this machine
    with `workers` CPUs and stops it afterwards; any other address joins that cluster. An
    already connected Ray is used as it is. Failing to start or reach it is an `ArenaError`."""
    ray = require("ray", "cluster")  # only here: a plain run never pays for importing Ray

    if not address.strip():
        raise ValueError("the Ray address is empty; use local, auto or ray://host:10001")
    started = not ray.is_initialized()
    try:
        if started and address == "local":
            quiet, notices = QuietLocalAuth(), logging.getLogger(QuietLocalAuth.LOGGER)
            notices.addFilter(quiet)
            try:
                ray.init(address="local", num_cpus=workers or os.cpu_count(),
                         include_dashboard=False, log_to_driver=False,
                         logging_level=logging.WARNING)
            finally:
                notices.removeFilter(quiet)
        elif started:
            ray.init(address=address, log_to_driver=False, logging_level=logging.WARNING)
    except Exception as err:  # Ray raises ConnectionError, ValueError, RuntimeError, ...
        what = "start a local Ray instance" if address == "local" else f"reach Ray at {address}"
        raise ArenaError(f"cannot {what}: {type(err).__name__}: {err}") from None
    try:
        yield ray
    finally:
        if started:
            ray.shutdown()


def ray_results(ray: Any, task: Any, batches: Sequence[Any]) -> Iterator[Any]:
    """Each batch's result as it comes in; the first failure cancels the rest and is raised
    as an `ArenaError` with the worker's message."""
    pending = [task.remote(batch) for batch in batches]
    while pending:
        ready, pending = ray.wait(pending, num_returns=1)
        try:
            result = ray.get(ready[0])
        except Exception as err:
            for ref in pending:
                ray.cancel(ref)
            cause = getattr(err, "cause", None)
            message = str(cause) if isinstance(cause, ArenaError) else str(err)
            raise ArenaError(message) from None
        yield result


def _play_ray(matches: list[Match], workers: int | None, address: str,
              collected: Collected) -> None:
    with ray_session(address, workers) as ray:
        task = ray.remote(num_cpus=1)(play_batch)
        cpus = int(ray.cluster_resources().get("CPU", 1))
        for records in ray_results(ray, task, _batches(matches, max(1, cpus))):
            collected.add(records)


__all__ = ["ArenaError", "batch_size", "play_all", "play_batch", "play_one", "ray_results",
           "ray_session", "watch_parent"]
