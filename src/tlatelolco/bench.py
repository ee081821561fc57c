"""Single-core speed of the rules engines (random playouts, clones, legal-action generation), of
each game's search bot (MCTS iterations per second) and, on request, of its PettingZoo
environment (agent steps per second).

Everything runs in this process on one core (no multiprocessing, by design): the figures are
what one bot or one environment worker gets. Benchmarks, not timed tests, guard speed, so
nothing here asserts a time; it only measures and reports.

    >>> from tlatelolco import bench
    >>> results = bench.run(["grand_bazaar"], seconds=0.05)
    >>> sorted(results[0])[:3]
    ['clones_per_s', 'game', 'games_per_s']
"""

from __future__ import annotations

import json
import platform
import random
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tlatelolco.chance import random_playout
from tlatelolco.contract import Game, State
from tlatelolco.registry import list_games, load
from tlatelolco.tensors import numpy

MAX_SAMPLES = 64  # mid-game states kept for the clone and legal_actions measurements
WARM_UP_SECONDS = 0.2  # upper bound; a tenth of the budget when that is smaller
ENV_STEPS_PER_CHECK = 32  # environment steps between two readings of the clock

Operation = Callable[[Sequence[State]], None]


def run(
    games: list[str] | None = None,
    seconds: float = 2.0,
    players: dict[str, int] | None = None,
    *,
    seed: int = 0,
    env: bool = False,
) -> list[dict[str, Any]]:
    """Benchmark each game (default: every registered one) and return one dict per game.

    Random playouts run whole games for `seconds` per game; clone and legal_actions are then
    timed for a quarter of that each, and the search bot for half, on mid-game states sampled
    from those playouts. `env` adds the PettingZoo environment, stepped for `seconds` more
    (see `env_rate`; it needs the `rl` extra).
    `players` maps a game name to a player count (default: the game's own default).
    """
    if seconds <= 0:
        raise ValueError(f"seconds must be positive, got {seconds!r}")
    names = list_games() if games is None else list(games)
    players = dict(players or {})
    stray = sorted(set(players) - set(names))
    if stray:
        raise ValueError(f"player counts given for games not benchmarked: {', '.join(stray)}")
    return [bench_game(name, seconds, players.get(name), seed=seed, env=env) for name in names]


def bench_game(
    name: str, seconds: float = 2.0, num_players: int | None = None, *, seed: int = 0,
    env: bool = False,
) -> dict[str, Any]:
    """The benchmark figures of one game (see `run`)."""
    from tlatelolco.bots import search_spec  # bots import the engines; keep this module light

    game = load(name) if num_players is None else load(name, num_players=num_players)
    rng = random.Random(f"tlatelolco-bench:{name}:{seed}")

    warm_up = min(WARM_UP_SECONDS, seconds / 10)
    _playouts(game, rng, warm_up)
    moves, played, elapsed, samples = _playouts(game, rng, seconds, MAX_SAMPLES)
    _per_second(_clone_all, samples, warm_up / 4)
    _per_second(_legal_all, samples, warm_up / 4)

    iterations, searched = _search_rate(game, samples, seconds / 2)
    row = {
        "game": name,
        "players": game.num_players(),
        "moves_per_s": round(moves / elapsed, 1),
        "games_per_s": round(played / elapsed, 2),
        "clones_per_s": round(_per_second(_clone_all, samples, seconds / 4), 1),
        "legal_actions_per_s": round(_per_second(_legal_all, samples, seconds / 4), 1),
        "mean_length": round(moves / played, 1),
        "search": search_spec(game),
        "search_iterations_per_s": round(iterations / searched, 1) if searched else 0.0,
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "machine": machine(),
    }
    if env:
        row.update(env_rate(name, game.num_players(), seconds, seed=seed))
        row["env_vs_engine"] = round(row["env_steps_per_s"] / row["moves_per_s"], 2)
    return row


def env_rate(name: str, num_players: int, seconds: float, *, seed: int = 0) -> dict[str, float]:
    """Agent steps per second of the game's PettingZoo environment, as `env()` returns it (with
    its wrapper), the way a learner drives it: each step reads `last()` (the observation tensor
    and the legal-action mask of the agent to move, made anew) and takes a uniformly random
    legal action, drawn with a seeded NumPy generator from the mover's `info["legal_actions"]`
    (the mask's ones, without searching a mask of 357,516 entries); finished games are reset
    and go on. Only actions count as steps, but the time includes the dead agents' None steps
    and the resets.

    Returns `env_steps_per_s` and `env_steps_per_game` (agent actions per finished game).
    """
    from tlatelolco.rl.pettingzoo import env as make_env  # needs the rl extra: only on request

    aec = make_env(name, num_players=num_players)
    gen = numpy().random.default_rng(seed)
    aec.reset(seed=seed)
    _env_steps(aec, gen, min(WARM_UP_SECONDS, seconds / 10))
    aec.reset()  # the timed run starts a game, so every game it finishes is counted whole
    steps, finished, in_finished, elapsed = _env_steps(aec, gen, seconds)
    return {"env_steps_per_s": round(steps / elapsed, 1),
            "env_steps_per_game": round(in_finished / finished, 1) if finished else 0.0}


def _env_steps(aec: Any, gen: Any, seconds: float) -> tuple[int, int, int, float]:
    """Random legal actions for about `seconds`: (actions, finished games, actions in those
    games, elapsed time). The clock is read every `ENV_STEPS_PER_CHECK` steps."""
    steps = finished = in_finished = game_start = 0
    clock = time.perf_counter
    start = clock()
    while True:
        for _ in range(ENV_STEPS_PER_CHECK):
            _observation, _, terminated, truncated, info = aec.last()
            if terminated or truncated:
                aec.step(None)
                if not aec.agents:
                    finished += 1
                    in_finished += steps - game_start
                    game_start = steps
                    aec.reset()
                continue
            legal = info["legal_actions"]  # the mask's ones, listed by the environment
            aec.step(legal[gen.integers(len(legal))])
            steps += 1
        elapsed = clock() - start
        if elapsed >= seconds:
            return steps, finished, in_finished, elapsed


def _playouts(
    game: Game, rng: random.Random, seconds: float, max_samples: int = 0
) -> tuple[int, int, float, list[State]]:
    """Whole random games until `seconds` of playing time have passed (at least one game).

    Returns (moves, games, playing time, sampled mid-game states). Each applied action counts
    as a move, chance outcomes included. Sampling replays a prefix of a finished game's
    history, outside the timed part.
    """
    moves = played = 0
    elapsed = 0.0
    samples: list[State] = []
    clock = time.perf_counter
    while elapsed < seconds or played == 0:
        start = clock()
        state = game.new_initial_state()
        moves += random_playout(state, rng)
        elapsed += clock() - start
        played += 1
        if len(samples) < max_samples:
            history = state.history()
            if len(history) >= 2:
                cut = rng.randrange(len(history) // 4, 3 * len(history) // 4 + 1)
                samples.append(game.replay(history[: min(cut, len(history) - 1)]))
    return moves, played, elapsed, samples


def _search_rate(game: Game, samples: Sequence[State], seconds: float) -> tuple[int, float]:
    """(iterations, seconds) of the game's search bot, with its default parameters, thinking
    in turn from each sampled position where a seat has a choice."""
    from tlatelolco.bots import make_bot, search_spec

    positions = [s for s in samples if not s.is_chance_node() and not s.is_terminal()
                 and len(s.legal_actions()) > 1][:16]
    if not positions:
        return 0, 0.0
    share = seconds / len(positions)
    iterations, spent = 0, 0.0
    for index, state in enumerate(positions):
        bot = make_bot(f"{search_spec(game)}:time={share}", game, state.current_player(),
                       seed=index)
        result = bot.search(state)  # type: ignore[attr-defined]
        iterations += result.iterations
        spent += result.seconds
    return iterations, spent


def _clone_all(states: Sequence[State]) -> None:
    for state in states:
        state.clone()


def _legal_all(states: Sequence[State]) -> None:
    for state in states:
        state.legal_actions()


def _per_second(operation: Operation, states: Sequence[State], seconds: float) -> float:
    """Calls per second of `operation` over `states`, repeated for about `seconds`."""
    if not states:
        return 0.0
    clock = time.perf_counter
    calls = 0
    start = clock()
    while True:
        operation(states)
        calls += len(states)
        elapsed = clock() - start
        if elapsed >= seconds:
            return calls / elapsed


def machine() -> str:
    """The architecture and, where known, the processor model (`x86_64 (AMD EPYC ...)`)."""
    arch = platform.machine() or "unknown"
    model = platform.processor()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as cpuinfo:
            for line in cpuinfo:
                if line.startswith(("model name", "Model", "Hardware")):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{arch} ({model})" if model and model != arch else arch


def as_json(results: Sequence[Mapping[str, Any]]) -> str:
    """The results as indented JSON, one object per game."""
    return json.dumps([dict(r) for r in results], indent=2)
