"""Reviewing a record on every core: its decisions in batches over a process pool (the arena's
kind) or Ray, with progress, and the finished review cached by what it was computed from.

Every decision is searched with its own seed (the review's seed and the step), so where and in
which order decisions are analysed does not change the review.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any, TypeVar

from tlatelolco.arena.runner import ArenaError, ray_results, ray_session, watch_parent
from tlatelolco.records import replay_record
from tlatelolco.review.analysis import (
    VERSION,
    Settings,
    analyse_steps,
    assemble,
    decision_steps,
    review_key,
)

Progress = Callable[[int, int], None]  # (decisions analysed, decisions in all)
T = TypeVar("T")
MAX_BATCH = 16  # decisions a worker is sent at once: it replays the record once per batch


class ReviewError(RuntimeError):
    """A review could not be computed (a worker died, Ray failed): says what happened."""


class ReviewCache:
    """Finished reviews in a folder, one `<key>.json` each (see `review_key`): a review of the
    same record with the same settings is read back instead of computed again."""

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)

    def path(self, key: str) -> Path:
        return self.folder / f"{key}.json"

    def get(self, key: str) -> dict[str, Any] | None:
        """The cached review, or None (absent, unreadable, or of another version)."""
        try:
            review = json.loads(self.path(key).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if not isinstance(review, dict) or review.get("version") != VERSION \
                or review.get("key") != key:
            return None
        return review

    def put(self, review: dict[str, Any]) -> Path:
        self.folder.mkdir(parents=True, exist_ok=True)
        path = self.path(review["key"])
        partial = path.with_suffix(".part")
        partial.write_text(json.dumps(review, separators=(",", ":")) + "\n", encoding="utf-8")
        partial.replace(path)  # whole or absent: a crash never leaves half a review
        return path


def review_record(record: dict[str, Any], settings: Settings | None = None, *,
                  workers: int | None = None, ray_address: str | None = None,
                  progress: Progress | None = None, cache: ReviewCache | None = None
                  ) -> dict[str, Any]:
    """The review of `record` (see `tlatelolco.review.analysis` for what it holds).

    The record is validated first (`RecordError` says what is wrong) and must be of a
    finished game. `workers=1` analyses in this process; more use a pool of that many
    processes (default: one per CPU); `ray_address` sends the batches to Ray as the arena
    does. `progress(done, total)` is called as decisions finish. With `cache`, a review
    computed before is returned as it was, and a new one is stored.
    """
    settings = (settings or Settings()).for_game(str(record.get("game")))
    state = replay_record(record)
    if not state.is_terminal():
        raise ValueError("only a finished game can be reviewed: this record stops before "
                         "the end")
    if workers is not None and (type(workers) is not int or workers < 1):
        raise ValueError(f"workers must be a whole number of at least 1, not {workers!r}")
    key = review_key(record, settings)
    if cache is not None and (kept := cache.get(key)) is not None:
        if progress is not None:
            total = len(kept["decisions"])
            progress(total, total)
        return kept
    started = time.perf_counter()
    steps = decision_steps(record)
    decisions = analyse_all(record, steps, settings, workers, ray_address, progress)
    review = assemble(record, decisions, settings, time.perf_counter() - started)
    if cache is not None:
        cache.put(review)
    return review


def analyse_all(record: dict[str, Any], steps: Sequence[int], settings: Settings,
                workers: int | None = None, ray_address: str | None = None,
                progress: Progress | None = None) -> list[dict[str, Any]]:
    """The analyses of the decisions at `steps`, in this process, a pool or on Ray."""
    total = len(steps)
    found: list[dict[str, Any]] = []

    def add(batch: list[dict[str, Any]]) -> None:
        found.extend(batch)
        if progress is not None:
            progress(len(found), total)

    if progress is not None:
        progress(0, total)
    count = workers or os.cpu_count() or 1
    batches = _batches(list(steps), count)
    jobs = [(record, batch, settings) for batch in batches]
    if ray_address is None and (count == 1 or total <= 1):
        for job in jobs:
            add(_analyse_job(job))
    else:
        spread(_analyse_job, jobs, count, ray_address, add,
               "the review was not finished")
    return found


def _analyse_job(job: tuple[dict[str, Any], list[int], Settings]) -> list[dict[str, Any]]:
    record, steps, settings = job
    return analyse_steps(record, steps, settings)


def _batches(steps: list[int], workers: int) -> list[list[int]]:
    """Every worker gets several batches (balance, a live progress bar), at most MAX_BATCH
    decisions each, dealt round-robin so that cheap and costly parts of a game mix."""
    size = max(1, min(MAX_BATCH, len(steps) // (workers * 4)))
    count = max(1, -(-len(steps) // size))
    return [steps[i::count] for i in range(count) if steps[i::count]]


def spread(function: Callable[[Any], T], jobs: Sequence[Any], workers: int,
           ray_address: str | None, add: Callable[[T], None], unfinished: str) -> None:
    """`function` of every job over a spawned process pool of `workers` (or Ray, at
    `ray_address`), each result handed to `add` as it comes in; a failure is a `ReviewError`
    whose message ends with `unfinished` (what was kept) when a worker died."""
    if ray_address is not None:
        try:
            with ray_session(ray_address, workers) as ray:
                task = ray.remote(num_cpus=1)(function)
                for result in ray_results(ray, task, jobs):
                    add(result)
        except ArenaError as err:
            raise ReviewError(str(err)) from None
        return
    context = multiprocessing.get_context("spawn")  # a clean interpreter on every OS
    pool = ProcessPoolExecutor(max_workers=min(workers, len(jobs)) or 1, mp_context=context,
                               initializer=watch_parent, initargs=(os.getpid(),))
    try:
        pending: set[Future[T]] = {pool.submit(function, job) for job in jobs}
        while pending:
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                add(future.result())
    except BrokenProcessPool as err:
        raise ReviewError(f"a worker process died ({err}); {unfinished}") from None
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


__all__ = ["ReviewCache", "ReviewError", "analyse_all", "review_record", "spread"]
