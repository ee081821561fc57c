"""Playing a report's games through the arena's runner: in this process, a pool of processes
or on a Ray cluster, with the same records wherever they are played (each game has its seed)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from tlatelolco.arena.runner import Progress, play_all
from tlatelolco.arena.schedule import Match


def game_seeds(seed: int, games: int) -> list[int]:
    """One seed per game, drawn from the report's seed. Every lineup gets the same list, so bot
    kinds are compared on the same chance seeds."""
    rng = random.Random(f"report:{seed}")
    return [rng.getrandbits(63) for _ in range(games)]


def play_games(game: str, num_players: int, options: Mapping[str, Any],
               lineup_specs: Sequence[str], games: int, seed: int,
               workers: int | None = None, ray_address: str | None = None,
               progress: Progress | None = None) -> list[dict[str, Any]]:
    """The records of `games` games of one lineup (a bot spec per seat), in order.

    `workers=1` plays here; None uses one process per core; `ray_address` plays on Ray
    (see `tlatelolco.arena.runner.play_all`).
    """
    given = tuple(sorted((k, v) for k, v in options.items() if k != "num_players"))
    matches = [Match(i, game, given, num_players, tuple(lineup_specs), s)
               for i, s in enumerate(game_seeds(seed, games))]
    return play_all(matches, workers=workers, ray_address=ray_address, progress=progress)
