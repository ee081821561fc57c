"""`tlatelolco worker`: run bot moves, hints and review batches for servers started with
`serve --redis URL --remote-workers`, on this machine or any other that reaches the Redis.

An RQ worker that keeps its process between jobs (no fork per job), so the positions it has
replayed stay in memory (`bots._positions`) and a bot's next turn costs one step. It takes
jobs from the most urgent non-empty queue (hints, games with a person, bot games, reviews)
and tells the servers it is alive by refreshing a key every second (`remote.ALIVE`): when it
dies, even by `kill -9`, the servers stop counting it within `remote.ALIVE_TTL` seconds.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import socket
import threading
import uuid
from typing import Annotated, Any

import typer

from tlatelolco.cli.common import FAILURE, fail
from tlatelolco.extras import require

BEAT = 1.0  # seconds between refreshes of the ALIVE key


def shown(url: str) -> str:
    """`url` without its password, for messages."""
    return re.sub(r"//[^@/]*@", "//***@", url)


def worker(
    redis: Annotated[str | None, typer.Option(
        help="Redis URL the servers use (redis://host:6379/0); default: $TLATELOLCO_REDIS.")
    ] = None,
    burst: Annotated[bool, typer.Option(
        "--burst", help="Quit once the queues are empty instead of waiting for jobs.")] = False,
    name: Annotated[str | None, typer.Option(
        help="The worker's name in Redis (default: host, process id and a random part); "
        "two live workers cannot share one.")] = None,
    log_level: Annotated[str, typer.Option(
        help="RQ's log level: info logs every job, warning only trouble.")] = "warning",
) -> None:
    """Run bot moves, hints and reviews for servers on other machines (RQ on Redis)."""
    url = redis or os.environ.get("TLATELOLCO_REDIS") or ""
    if not url:
        fail("--redis URL is needed: the Redis the servers were started with "
             "(serve --redis URL --remote-workers)")
    if name is not None and not re.fullmatch(r"[A-Za-z0-9._-]{1,64}", name):
        fail(f"--name {name[:40]!r}: use 1 to 64 letters, digits, dots, dashes or underscores")
    level = log_level.upper()
    if level not in ("DEBUG", "INFO", "WARNING", "ERROR"):
        fail(f"--log-level {log_level[:20]!r}: allowed: debug, info, warning, error")
    require("rq", "server")
    redis_module = require("redis", "server")
    from rq import SimpleWorker

    from tlatelolco.web.workers.remote import ALIVE, ALIVE_TTL, QUEUES

    try:
        connection = redis_module.Redis.from_url(url, socket_connect_timeout=5)
        connection.ping()
    except Exception as err:
        fail(f"cannot reach Redis at {shown(url)}: {err}", FAILURE)
    label = name or f"{socket.gethostname()}.{os.getpid()}.{uuid.uuid4().hex[:6]}"
    if connection.exists(ALIVE + label):
        fail(f"a live worker is already called {label!r}: give another --name", FAILURE)

    alive = Alive(connection, ALIVE + label, ALIVE_TTL)

    class Worker(SimpleWorker):
        """An RQ worker in one process that says it is alive every second, even mid-job."""

        def register_birth(self) -> None:
            super().register_birth()
            alive.start()  # once registered: a server counting us finds us in RQ's registry

    logging.basicConfig(level=level, format="%(asctime)s %(message)s")
    rq_worker: Any = Worker(list(QUEUES.values()), name=label, connection=connection,
                            log_job_description=False)
    typer.echo(f"tlatelolco worker {label} on {shown(url)}: queues {', '.join(QUEUES.values())}",
               err=True)
    try:
        rq_worker.work(burst=burst, logging_level=level)
    finally:
        alive.stop()


class Alive:
    """A thread that sets `key` (expiring after `ttl` seconds) every `BEAT` seconds, so the
    servers count this worker while it lives and stop within `ttl` seconds of its death."""

    def __init__(self, connection: Any, key: str, ttl: int) -> None:
        self.connection, self.key, self.ttl = connection, key, ttl
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._beat, name="alive", daemon=True)

    def start(self) -> None:
        if not self._thread.is_alive():
            self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(5)
        with contextlib.suppress(Exception):  # Redis gone: the key expires by itself
            self.connection.delete(self.key)

    def _beat(self) -> None:
        while not self._stop.is_set():
            try:
                self.connection.set(self.key, os.getpid(), ex=self.ttl)
            except Exception as err:  # Redis away for a moment: the servers stop counting us
                logging.getLogger("rq.worker").warning("cannot reach Redis: %s", err)
            self._stop.wait(BEAT)
