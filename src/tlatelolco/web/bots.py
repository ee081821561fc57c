"""Bot seats of online games: decided in worker processes so the server never waits on them.

A worker keeps the positions it has seen, so a bot's turn costs one replayed step, not a
replayed game. It is handed the history and a derived seed, never the chance seed, and the bot
decides from a state resampled from its own seat's information (bots never peek).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import multiprocessing
import random
from collections import OrderedDict
from typing import Any

from tlatelolco.bots import make_bot, parse_spec
from tlatelolco.contract import State
from tlatelolco.registry import load

_positions: OrderedDict[str, State] = OrderedDict()
KEEP = 256


def decide(job: dict[str, Any]) -> int:
    """The bot's action for `job` (a dict: game_id, game, options, history, seat, spec, seed)."""
    history: list[int] = job["history"]
    state = _positions.pop(job["game_id"], None)
    if state is None or state.history() != history[:len(state.history())]:
        state = load(job["game"], **job["options"]).new_initial_state()
    for action in history[len(state.history()):]:
        state.apply_action(action)
    _positions[job["game_id"]] = state
    while len(_positions) > KEEP:
        _positions.popitem(last=False)
    rng = random.Random(job["seed"])
    bot = make_bot(job["spec"], state.get_game(), job["seat"], rng.getrandbits(63))
    return bot.step(state.resample_from_infostate(job["seat"], rng))


def time_budget(spec: str, default: float) -> float:
    """The seconds a bot may think: its `time=` parameter, else the server's default."""
    _, params = parse_spec(spec)
    value = params.get("time")
    return float(value) if isinstance(value, int | float) and value > 0 else default


class BotPool:
    """Runs `decide` in `workers` processes (0: in a thread of this process, for tests)."""

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
        future = asyncio.get_running_loop().run_in_executor(self._executor, decide, job)
        try:
            return await asyncio.wait_for(future, timeout)
        except TimeoutError:
            return None

    def close(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)
