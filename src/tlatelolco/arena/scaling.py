"""Does playing in parallel pay? One fixed tournament with 1 worker, then with 2.

    python -m tlatelolco.arena.scaling                      # aztec_market, greedy vs random
    python -m tlatelolco.arena.scaling --game axio --games 2000

Prints both wall times and their ratio; the bar is 2 workers in at most 0.6 of the time of 1
(perfect scaling would be 0.5; starting the worker processes and sending records back cost the
rest). Both runs must give identical records, which is checked too. Another busy process on the
machine skews the ratio: measure on an idle machine, or run it twice.
"""

from __future__ import annotations

import argparse
import os
import time
from typing import Any

from tlatelolco.arena.runner import play_all
from tlatelolco.arena.schedule import schedule

BAR = 0.6


def measure(game: str = "aztec_market", bots: tuple[str, ...] = ("greedy", "random"),
            games: int = 400, players: int = 2, seed: int = 0, repeat: int = 1
            ) -> dict[str, Any]:
    """Wall times of the same tournament with 1 and 2 workers, and their ratio. With `repeat`
    each is timed that many times and the fastest kept: other load only ever slows a run."""
    matches = schedule(game, list(bots), games, players, seed)
    times: dict[int, float] = {}
    records = {}
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else 0.0
    for _ in range(repeat):
        for workers in (1, 2):
            start = time.perf_counter()
            records[workers] = play_all(matches, workers=workers)
            elapsed = time.perf_counter() - start
            times[workers] = min(elapsed, times.get(workers, elapsed))
    if records[1] != records[2]:
        raise AssertionError("1 and 2 workers gave different records: a bot is not "
                             "deterministic for its seed")
    ratio = times[2] / times[1]
    return {"game": game, "bots": list(bots), "games": games, "players": players,
            "seconds_1_worker": times[1], "seconds_2_workers": times[2], "ratio": ratio,
            "bar": BAR, "ok": ratio <= BAR, "load_before": load, "cpus": os.cpu_count()}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tlatelolco.arena.scaling",
                                     description="Time one tournament with 1 and 2 workers.")
    parser.add_argument("--game", default="aztec_market")
    parser.add_argument("--bots", default="greedy,random", help="comma-separated bot specs")
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=1, help="time each run this many times "
                        "and keep the fastest (default 1)")
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    try:
        result = measure(args.game, tuple(args.bots.split(",")), args.games, args.players,
                         args.seed, args.repeat)
    except ValueError as err:
        parser.error(str(err))
    if result["load_before"] > (result["cpus"] or 2) / 2:  # others held half the machine
        print(f"warning: the 1-minute load average was {result['load_before']:.2f} when the "
              "runs began; if other processes were busy, the ratio is skewed (measure again)")
    print(f"{result['game']}, {result['players']} players, {' vs '.join(result['bots'])}, "
          f"{result['games']} games")
    print(f"  1 worker : {result['seconds_1_worker']:.2f} s")
    print(f"  2 workers: {result['seconds_2_workers']:.2f} s")
    verdict = "meets" if result["ok"] else "misses"
    print(f"  ratio {result['ratio']:.3f} ({verdict} the bar of {BAR}); records identical; "
          f"{result['cpus']} CPUs")


if __name__ == "__main__":
    main()
