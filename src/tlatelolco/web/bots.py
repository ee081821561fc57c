"""Bot seats and hints of online games: searched in worker processes so the server never
waits on them.

A worker keeps the positions it has seen, so a bot's turn costs one replayed step, not a
replayed game. It is handed the history and a derived seed, never the chance seed, and the bot
decides from a state resampled from its own seat's information (bots never peek). A hint is
the same search run for a person's seat: its root statistics, best first.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import multiprocessing
import random
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, TypeVar

from tlatelolco.bots import Bot, make_bot, parse_spec
from tlatelolco.contract import State
from tlatelolco.registry import load

_positions: OrderedDict[str, State] = OrderedDict()
_lock = threading.Lock()  # tests run the jobs in threads: one replays a kept position at a time
KEEP = 256
HINT_TIME = 1.0  # seconds a hint's search thinks: the server's cores are shared
HINT_MOVES = 5  # moves a hint lists
T = TypeVar("T")


def bot_and_view(job: dict[str, Any]) -> tuple[Bot, State]:
    """The bot of `job["spec"]` for `job["seat"]`, and the game after `job["history"]` as that
    seat may know it: a draw of what it cannot see, made from the last position this worker
    kept for the game. Both come from `job["seed"]`."""
    rng = random.Random(job["seed"])
    seed = rng.getrandbits(63)
    with _lock:
        state = _position(job).resample_from_infostate(job["seat"], rng)
    return make_bot(job["spec"], state.get_game(), job["seat"], seed), state


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


def hint(job: dict[str, Any]) -> dict[str, Any]:
    """What the search bot of `job["spec"]` would play in `job["seat"]`, from that seat's view:
    its `HINT_MOVES` best moves with their visits and the share of victory it expects after
    each (None for a move it did not search), and `SearchResult.why`."""
    bot, state = bot_and_view(job)
    result = bot.search(state)  # type: ignore[attr-defined]
    moves = [{"action": s.action, "text": s.text, "visits": s.visits, "value": s.value}
             for s in result.actions[:HINT_MOVES]]
    if not moves:  # one legal move: nothing to search
        moves = [{"action": result.action, "text": state.action_to_string(result.action),
                  "visits": 0, "value": None}]
    return {"version": len(job["history"]), "seat": job["seat"], "bot": job["spec"],
            "iterations": result.iterations, "seconds": round(result.seconds, 3),
            "why": result.why, "moves": moves}


def time_budget(spec: str, default: float) -> float:
    """The seconds a bot may think: its `time=` parameter, else the server's default."""
    _, params = parse_spec(spec)
    value = params.get("time")
    return float(value) if isinstance(value, int | float) and value > 0 else default


class BotPool:
    """Runs `decide` and `hint` in `workers` processes (0: in threads of this process, for
    tests)."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._executor: concurrent.futures.Executor
        if workers > 0:
            self._executor = concurrent.futures.ProcessPoolExecutor(
                max_workers=workers, mp_context=multiprocessing.get_context("spawn"))
        else:
            self._executor = concurrent.futures.ThreadPoolExecutor(max_workers=2)

    async def decide(self, job: dict[str, Any], timeout: float) -> int | None:
        """The bot's action, or None when it took longer than `timeout` seconds."""
        return await self.run(decide, job, timeout)

    async def hint(self, job: dict[str, Any], timeout: float) -> dict[str, Any] | None:
        """The hint for `job` (see `hint`), or None when it took longer than `timeout`."""
        return await self.run(hint, job, timeout)

    async def run(self, function: Callable[[dict[str, Any]], T], job: dict[str, Any],
                  timeout: float) -> T | None:
        future = asyncio.get_running_loop().run_in_executor(self._executor, function, job)
        try:
            return await asyncio.wait_for(future, timeout)
        except TimeoutError:
            return None

    def close(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)
