"""Bot seats and hints of online games: searched in worker processes so the server never
waits on them.

A worker keeps the positions it has seen, so a bot's turn costs one replayed step, not a
replayed game. It is handed the history and a derived seed, never the chance seed, and the bot
decides from a state resampled from its own seat's information (bots never peek). A hint is
the same search run for a person's seat: its root statistics, best first.

Specs come from browsers, so a worker never searches longer than `MAX_BOT_TIME` or
`MAX_BOT_ITERATIONS` asks (`clamp_spec`), and a job that overruns its time anyway is killed
with its worker (`BotPool`).
"""

from __future__ import annotations

import abc
import asyncio
import concurrent.futures
import contextlib
import math
import multiprocessing
import multiprocessing.context
import os
import pickle
import random
import signal
import threading
import time
import traceback
from collections import OrderedDict, deque
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any, TypeVar

from tlatelolco.bots import SEARCHERS, Bot, make_bot, parse_spec
from tlatelolco.contract import State
from tlatelolco.registry import load
from tlatelolco.web.workers.fairness import ANONYMOUS, FairQueue, Ticket
from tlatelolco.web.workers.specs import check_params

_positions: OrderedDict[str, State] = OrderedDict()
_lock = threading.Lock()  # tests run the jobs in threads: one replays a kept position at a time
KEEP = 256
# seconds a hint's search thinks, per game: the shortest after which two searches of a
# position agree little more often on the first move as the page lists it (measured on 2
# shared cores: docs/hints.md); a person waits for it, and the server's cores are shared
HINT_TIMES = {"grand_bazaar": 1.0, "aztec_market": 2.0, "axio": 1.0, "mexica": 0.5}
HINT_TIME = max(HINT_TIMES.values())  # the longest: a game not measured, and the timeouts
# the value difference below which a hint's moves are about equal, per game: how far one
# move's value differs between two such searches 9 times in 10 (docs/hints.md)
HINT_NOISE = {"grand_bazaar": 0.03, "aztec_market": 0.10, "axio": 0.06, "mexica": 0.01}
DEFAULT_NOISE = 0.05  # a game not measured
HINT_MOVES = 5  # moves a hint lists
MAX_BOT_TIME = 10.0  # seconds a bot may think, whatever its spec asks
MAX_BOT_ITERATIONS = 100_000  # search iterations a bot may run, whatever its spec asks
MAX_SPEC_LENGTH = 64  # characters of a bot spec
IDLE_BOT_TIME = 1.0  # seconds a bot thinks in a game of bots only (nobody waits on it)
START_TIME = 60.0  # seconds a fresh worker may take to import before it is given up
WATCH_EVERY = 0.5  # seconds between a worker's looks at whether the server is still alive
READY = "ready"  # what a worker says once its imports are done
THREADS = 2  # threads that run bot jobs when a pool has no worker processes (tests)
T = TypeVar("T")


def bot_and_view(job: dict[str, Any]) -> tuple[Bot, State]:
    """The bot of `job["spec"]` (bounded: see `clamp_spec`) for `job["seat"]`, and the game
    after `job["history"]` as that seat may know it: a draw of what it cannot see, made from
    the last position this worker kept for the game. Both come from `job["seed"]`."""
    rng = random.Random(job["seed"])
    seed = rng.getrandbits(63)
    with _lock:
        state = _position(job).resample_from_infostate(job["seat"], rng)
    return make_bot(_bounded(job["spec"]), state.get_game(), job["seat"], seed), state


def _position(job: dict[str, Any]) -> State:
    history: list[int] = job["history"]
    state = _positions.pop(job["game_id"], None)
    if state is None or state.history() != history[:len(state.history())]:
        state = load(job["game"], **job["options"]).new_initial_state()
    for action in history[len(state.history()):]:
        state.apply_action(action)
    _positions[job["game_id"]] = state
    while len(_positions) > KEEP:
        _positions.popitem(last=False)
    return state


def decide(job: dict[str, Any]) -> int:
    """The bot's action for `job` (a dict: game_id, game, options, history, seat, spec, seed)."""
    bot, state = bot_and_view(job)
    return bot.step(state)


def hint_time(game: str) -> float:
    """The seconds a hint for `game` thinks (`HINT_TIMES`; the longest for a game not
    measured)."""
    return HINT_TIMES.get(game, HINT_TIME)


def hint(job: dict[str, Any]) -> dict[str, Any]:
    """What the search bot of `job["spec"]` would play in `job["seat"]`, from that seat's view:
    its `HINT_MOVES` best moves with their visits and the share of victory it expects after
    each (None for a move it did not search), `SearchResult.why`, and the game's `noise`
    (values closer than it are about equal: `HINT_NOISE`)."""
    bot, state = bot_and_view(job)
    result = bot.search(state)  # type: ignore[attr-defined]
    moves = [{"action": s.action, "text": s.text, "visits": s.visits, "value": s.value}
             for s in result.actions[:HINT_MOVES]]
    if not moves:  # one legal move: nothing to search
        moves = [{"action": result.action, "text": state.action_to_string(result.action),
                  "visits": 0, "value": None}]
    return {"version": len(job["history"]), "seat": job["seat"], "bot": job["spec"],
            "iterations": result.iterations, "seconds": round(result.seconds, 3),
            "why": result.why, "moves": moves,
            "noise": HINT_NOISE.get(job["game"], DEFAULT_NOISE)}


def time_budget(spec: str, default: float) -> float:
    """The seconds a bot may think: its `time=` parameter, else the server's default; never
    more than `MAX_BOT_TIME`."""
    _, params = parse_spec(spec)
    value = params.get("time")
    budget = float(value) if isinstance(value, int | float) and value > 0 else default
    return min(budget, MAX_BOT_TIME)


def clamp_spec(spec: str) -> str:
    """`spec` with its search budget bounded: `time=` cut to at most `MAX_BOT_TIME` seconds and
    `iterations=` to at most `MAX_BOT_ITERATIONS`, so no spec asks for unbounded work. A spec
    longer than `MAX_SPEC_LENGTH`, or a budget that is not a positive finite number (a whole
    one for iterations), or any other parameter its bot does not take or out of its range
    (`specs.check_params`), raises `ValueError` saying what is allowed. Unchanged specs are
    returned as they are."""
    if len(spec) > MAX_SPEC_LENGTH:
        raise ValueError(f"a bot spec has at most {MAX_SPEC_LENGTH} characters, "
                         f"this one has {len(spec)}")
    name, params = parse_spec(spec)
    bounded = check_params(name, params)
    if "time" in params:
        value = params["time"]
        if not isinstance(value, int | float) or not math.isfinite(value) or value <= 0:
            raise ValueError(f"time={str(value)[:16]} is not allowed: time is a number of "
                             f"seconds above 0 and at most {MAX_BOT_TIME:g} (more is cut to "
                             f"{MAX_BOT_TIME:g})")
        bounded["time"] = min(value, MAX_BOT_TIME)
    if "iterations" in params:
        value = params["iterations"]
        if (not isinstance(value, int | float) or not math.isfinite(value) or value < 1
                or value != int(value)):
            raise ValueError(f"iterations={str(value)[:16]} is not allowed: iterations is a "
                             f"whole number from 1 to {MAX_BOT_ITERATIONS} (more is cut to "
                             f"{MAX_BOT_ITERATIONS})")
        bounded["iterations"] = min(int(value), MAX_BOT_ITERATIONS)
    if all(type(bounded[k]) is type(params[k]) and bounded[k] == params[k] for k in params):
        return spec
    return f"{name}:" + ",".join(f"{key}={value}" for key, value in bounded.items())


def idle_spec(spec: str, seconds: float) -> str:
    """`spec` for a game of bots only: a search bot's `time=` cut to `seconds` (added when
    it has none; its `iterations=` end it sooner or not at all, as the search stops at
    whichever comes first; a spec that would grow past `MAX_SPEC_LENGTH` keeps only the
    time). Other bots answer at once and are left as they are, and so is everything when
    `seconds` is 0."""
    try:
        name, params = parse_spec(spec)
    except ValueError:
        return spec  # not a spec the worker can use anyway: it falls back to the name
    value = params.get("time")
    if name not in SEARCHERS or seconds <= 0 or (
            isinstance(value, int | float) and 0 < value <= seconds):
        return spec
    cut = f"{name}:" + ",".join(f"{key}={value}" for key, value in
                                {**params, "time": seconds}.items())
    return cut if len(cut) <= MAX_SPEC_LENGTH else f"{name}:time={seconds}"


def _bounded(spec: str) -> str:
    """The spec a worker searches with: clamped, or, for a spec stored before specs were
    clamped that cannot be (`time=inf`), the bot's name alone (its default budget)."""
    try:
        return clamp_spec(spec)
    except ValueError:
        return spec.strip().partition(":")[0]


def _serve(conn: Connection, parent: int) -> None:
    """A worker process: run the jobs `conn` brings, one at a time, until the server closes
    the pipe or is gone. A job's exception is sent back, not raised, so the worker lives on."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C in a terminal: the server stops us

    def watch() -> None:
        # the pipe only says EOF when we read it, and a search does not read: so look whether
        # the server is still our parent twice a second. (PR_SET_PDEATHSIG would be quicker on
        # Linux but fires when the *thread* that started us ends, not the process.)
        while os.getppid() == parent:
            time.sleep(WATCH_EVERY)
        os._exit(1)

    threading.Thread(target=watch, name="watchdog", daemon=True).start()
    conn.send_bytes(pickle.dumps(READY))
    while True:
        try:
            function, job = pickle.loads(conn.recv_bytes())
        except EOFError:
            return
        try:
            reply: tuple[bool, Any] = (True, function(job))
        except Exception as exc:
            exc.add_note(f"in bot worker {os.getpid()}:\n{traceback.format_exc().rstrip()}")
            reply = (False, exc)
        try:
            data = pickle.dumps(reply)
            if not reply[0]:
                pickle.loads(data)  # an exception may pickle and still not unpickle
        except Exception as exc:
            data = pickle.dumps((False, RuntimeError(
                f"a bot job's answer could not be sent back ({exc!r}): {reply[1]!r:.2000}")))
        conn.send_bytes(data)


class _Worker:
    """One worker process (spawned: it inherits no thread or lock of the server) and the
    server's end of its pipe."""

    def __init__(self, context: multiprocessing.context.SpawnContext) -> None:
        self.conn, child = context.Pipe()
        self.process = context.Process(target=_serve, args=(child, os.getpid()),
                                       name="tlatelolco-bot", daemon=True)
        self.process.start()
        child.close()
        self.ready = False  # it has sent READY: its imports are done

    async def receive(self, timeout: float) -> Any:
        """The worker's next message, waited for on the event loop (no thread); `TimeoutError`
        after `timeout` seconds, `EOFError` when the worker died."""
        loop = asyncio.get_running_loop()
        readable = loop.create_future()
        fd = self.conn.fileno()
        loop.add_reader(fd, lambda: readable.done() or readable.set_result(None))
        try:
            async with asyncio.timeout(timeout):
                await readable
        finally:
            loop.remove_reader(fd)
        return pickle.loads(self.conn.recv_bytes())

    def kill(self) -> None:
        """SIGKILL: a runaway search is not asked to stop, it is stopped."""
        self.process.kill()
        self.process.join(1.0)  # milliseconds after SIGKILL
        self.conn.close()


class WorkerPool(abc.ABC):
    """What the hub and the reviews need of a pool of workers: `BotPool` (this machine's
    processes) and `remote.RemotePool` (worker machines through Redis) are both one."""

    @abc.abstractmethod
    async def run(self, function: Callable[[dict[str, Any]], T], job: dict[str, Any],
                  timeout: float, ticket: Ticket = ANONYMOUS) -> T | None:
        """`function(job)` on a worker once `ticket`'s turn comes (`FairQueue`): its result,
        or None when it did not finish within `timeout` seconds."""

    @abc.abstractmethod
    def close(self) -> None:
        """Stop the workers; jobs still waiting fail."""

    async def decide(self, job: dict[str, Any], timeout: float,
                     ticket: Ticket = ANONYMOUS) -> int | None:
        """The bot's action, or None when it took longer than `timeout` seconds."""
        return await self.run(decide, job, timeout, ticket)

    async def hint(self, job: dict[str, Any], timeout: float,
                   ticket: Ticket = ANONYMOUS) -> dict[str, Any] | None:
        """The hint for `job` (see `hint`), or None when it took longer than `timeout`."""
        return await self.run(hint, job, timeout, ticket)


class BotPool(WorkerPool):
    """Runs `decide` and `hint` in `workers` processes (0: in two threads of this process, for
    tests), one job per worker at a time. Jobs waiting for a worker take turns in the fair
    order of their `Ticket`s (`FairQueue`: hints, then games with a person, then games of
    bots only; the client served least recently first, then that client's game served least
    recently), not first come first served: one client with many games cannot hold
    everybody else's bots back.

    A job's time counts from when a worker starts it, so a game is not charged for waiting
    behind another game's search; a job still running when its time is up is killed with its
    worker, which a fresh one replaces at once. Workers exit on their own within
    `WATCH_EVERY` seconds of the server's death, even in the middle of a search. (Threads
    cannot be killed: there a late job only stops being waited for, and keeps its thread.)"""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._threads = (concurrent.futures.ThreadPoolExecutor(max_workers=THREADS)
                         if workers == 0 else None)
        self._context = multiprocessing.get_context("spawn")
        # started now, so their imports (~0.5 s) are done before the first bot is to move
        self._all = [_Worker(self._context) for _ in range(workers)]
        self._idle: deque[_Worker] = deque(self._all)
        self.queue = FairQueue(workers or THREADS)  # who gets the next free worker
        self._closed = False

    async def run(self, function: Callable[[dict[str, Any]], T], job: dict[str, Any],
                  timeout: float, ticket: Ticket = ANONYMOUS) -> T | None:
        """`function(job)` in a worker once `ticket`'s turn comes: its result, or None when it
        has not finished `timeout` seconds after the worker started it. Its exception is
        raised here. Cancelling the call takes the job out of the queue, or kills the worker
        running it."""
        await self._turn(ticket)
        if self._threads is not None:
            return await self._in_thread(function, job, timeout)
        worker = self._take()
        try:
            if not worker.ready:
                await worker.receive(START_TIME)  # READY: start-up is not the job's time
                worker.ready = True
            worker.conn.send_bytes(pickle.dumps((function, job)))
            ok, value = await worker.receive(timeout)
        except TimeoutError:
            self._replace(worker)
            if worker.ready:
                return None
            raise RuntimeError(f"a bot worker did not start in {START_TIME:g} s") from None
        except (EOFError, OSError) as err:
            self._replace(worker)
            raise RuntimeError(f"bot worker {worker.process.pid} died "
                               f"(exit code {worker.process.exitcode})") from err
        except BaseException:  # cancelled: the job may be running, so the worker goes
            self._replace(worker)
            raise
        self._give_back(worker)
        if not ok:
            raise value
        return value  # type: ignore[no-any-return]

    async def _turn(self, ticket: Ticket) -> None:
        """Wait for a free worker (or thread) in fair order; the caller holds its slot."""
        if self._closed:
            raise RuntimeError("the bot pool is closed")
        await self.queue.acquire(ticket)
        if self._closed:  # woken by `close`
            self.queue.release()
            raise RuntimeError("the bot pool is closed")

    async def _in_thread(self, function: Callable[[dict[str, Any]], T], job: dict[str, Any],
                         timeout: float) -> T | None:
        """`run` in a thread: its slot is freed when the thread is, even after a timeout."""
        assert self._threads is not None
        try:
            future = self._threads.submit(function, job)
        except RuntimeError:  # shut down
            self.queue.release()
            raise RuntimeError("the bot pool is closed") from None
        loop = asyncio.get_running_loop()

        def free(_: object) -> None:
            with contextlib.suppress(RuntimeError):  # the loop is gone: nothing waits
                loop.call_soon_threadsafe(self.queue.release)

        future.add_done_callback(free)
        try:
            return await asyncio.wait_for(asyncio.wrap_future(future), timeout)
        except TimeoutError:
            return None

    def _take(self) -> _Worker:
        """An idle worker for the job holding a slot (slots and workers are as many)."""
        worker = self._idle.popleft()
        if not worker.process.is_alive():  # died while idle (the OOM killer?): a fresh one
            worker.kill()
            self._all.remove(worker)
            worker = _Worker(self._context)
            self._all.append(worker)
        return worker

    def _give_back(self, worker: _Worker) -> None:
        """`worker` is idle again and its slot goes to the next job in fair order."""
        self._idle.append(worker)
        self.queue.release()

    def _replace(self, worker: _Worker) -> None:
        """Kill `worker` and put a fresh one in its place (none once the pool is closed)."""
        worker.kill()
        if worker in self._all:
            self._all.remove(worker)
        if self._closed:
            self.queue.release()
            return
        fresh = _Worker(self._context)
        self._all.append(fresh)
        self._give_back(fresh)

    def close(self) -> None:
        """Kill the workers now: a search still running is not worth waiting for. Jobs still
        waiting for a worker fail with `RuntimeError`."""
        if self._threads is not None:
            self._threads.shutdown(wait=False, cancel_futures=True)
        self._closed = True
        self.queue.slots = self.queue.running + self.queue.waiting()  # wake them to fail
        for worker in self._all:
            worker.process.kill()
        for worker in self._all:
            worker.process.join(1.0)
        for worker in self._idle:
            worker.conn.close()  # a busy one's pipe is closed by the job that sees it die
        self._idle.clear()
        self._all.clear()
