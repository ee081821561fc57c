"""Playing a report's games through the arena's runner: in this process, a pool of processes
or on a Ray cluster, with the same records wherever they are played (each game has its seed).

Every bot kind's games go to the runner in one run, so a report starts one pool (or one Ray
instance) for all of them, and no core idles while the last game of one kind is finishing."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tlatelolco.arena.runner import play_all
from tlatelolco.arena.schedule import Match

KindProgress = Callable[[str, int, int], None]  # (bot spec, games done, games per kind)


def game_seeds(seed: int, games: int) -> list[int]:
    """One seed per game, drawn from the report's seed. Every kind gets the same list, so bot
    kinds are compared on the same chance seeds."""
    rng = random.Random(f"report:{seed}")
    return [rng.getrandbits(63) for _ in range(games)]


def play_kinds(game: str, num_players: int, options: Mapping[str, Any], kinds: Sequence[str],
               games: int, seed: int, workers: int | None = None,
               ray_address: str | None = None, progress: KindProgress | None = None
               ) -> list[list[dict[str, Any]]]:
    """For each bot kind (a spec that takes every seat), the records of its `games` self-play
    games, in order.

    `workers=1` plays here; None uses one process per core; `ray_address` plays on Ray
    (see `tlatelolco.arena.runner.play_all`). `progress(kind, done, games)` is called for the
    first kind as play starts and for every kind as its games finish.
    """
    given = tuple(sorted((k, v) for k, v in options.items() if k != "num_players"))
    seeds = game_seeds(seed, games)
    matches = [Match(k * games + i, game, given, num_players, (spec,) * num_players, s)
               for k, spec in enumerate(kinds) for i, s in enumerate(seeds)]
    done = [0] * len(kinds)

    def arrived(records: list[dict[str, Any]]) -> None:
        kinds_in = []
        for record in records:
            kind = record["meta"]["match"] // games
            done[kind] += 1
            if kind not in kinds_in:
                kinds_in.append(kind)
        if progress is not None:
            for kind in kinds_in:
                progress(kinds[kind], done[kind], games)

    if progress is not None and kinds:
        progress(kinds[0], 0, games)
    records = play_all(matches, workers=workers, ray_address=ray_address, arrived=arrived)
    return [records[k * games:(k + 1) * games] for k in range(len(kinds))]
