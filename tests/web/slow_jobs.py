"""Jobs for the `BotPool` tests, in a module of their own so a spawned worker can import them
(the pool sends a job's function by name)."""

from __future__ import annotations

import os
import time
from typing import Any


def pid(job: dict[str, Any]) -> int:
    """The worker's process id."""
    return os.getpid()


def sleep(job: dict[str, Any]) -> int:
    """Wait `job["seconds"]`, then the worker's process id."""
    time.sleep(job["seconds"])
    return os.getpid()


def spin(job: dict[str, Any]) -> int:
    """Keep a core busy for `job["seconds"]` without reading anything, as a search does."""
    end = time.monotonic() + job["seconds"]
    while time.monotonic() < end:
        pass
    return os.getpid()


def fail(job: dict[str, Any]) -> None:
    raise ValueError(job["message"])


class Awkward(Exception):
    """An exception that pickles but does not unpickle (its `__init__` wants two arguments)."""

    def __init__(self, what: str, why: str) -> None:
        super().__init__(f"{what}: {why}")


def fail_awkwardly(job: dict[str, Any]) -> None:
    raise Awkward("no such move", "the board is full")
