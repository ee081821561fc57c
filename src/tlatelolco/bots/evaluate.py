"""How strong is one bot against another? Seat-rotated matches and a confidence interval.

    from tlatelolco.bots.evaluate import head_to_head
    head_to_head("grand_bazaar", "greedy", "random", games=200, seed=1)["win_share"]

or from the shell: `python -m tlatelolco.bots.evaluate grand_bazaar greedy random --games 200`.
Generic over games: it only uses `tlatelolco.load` and `play_match`.
"""

from __future__ import annotations

import argparse
import math
import random
from typing import Any

from tlatelolco import load, play_match

Z95 = 1.959963984540054  # two-sided 95% normal quantile


def head_to_head(game: str, bot_a: str, bot_b: str, games: int, seed: int,
                 num_players: int = 2) -> dict[str, Any]:
    """Play `games` matches of `bot_a` against `bot_b` in the other seats; `bot_a`'s win share.

    `bot_a` takes side `i % sides` in game `i` (in a team game every seat of that side), so every
    seat's advantage or handicap is shared out evenly. A game scores `bot_a`'s return (1 for a
    win, 1/k for a k-way shared win, 0 for a loss), so an even match of k sides scores 1/k
    (`fair_share`). Each game has its own seed drawn from `seed`, making the games independent
    and the whole run reproducible.
    """
    if games < 1:
        raise ValueError(f"games must be at least 1, got {games}")
    loaded = load(game, num_players=num_players)
    sides = loaded.teams()
    seeds = random.Random(f"head_to_head:{seed}")
    by_seat = [[0.0, 0] for _ in range(num_players)]  # per seat of bot_a: total return, games
    total = 0.0
    for index in range(games):
        side = sides[index % len(sides)]
        seat = side[0]
        bots = [bot_a if s in side else bot_b for s in range(num_players)]
        record = play_match(loaded, bots, seed=seeds.getrandbits(63))
        result = float(record["result"]["returns"][seat])
        total += result
        by_seat[seat][0] += result
        by_seat[seat][1] += 1
    share = total / games
    low, high = wilson_interval(share, games)
    return {
        "game": game,
        "num_players": num_players,
        "bot_a": bot_a,
        "bot_b": bot_b,
        "games": games,
        "seed": seed,
        "win_share": share,
        "ci95": [low, high],
        "fair_share": 1.0 / len(sides),
        "by_seat": [s / n if n else None for s, n in by_seat],
    }


def wilson_interval(share: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval: unlike share ± z·se it stays inside [0, 1] and is not empty at 0 or 1.

    Shared wins make the score fractional; treating them as their share of a win keeps the
    interval honest enough (it is slightly wide, since a tie varies less than a coin flip).
    """
    denominator = 1 + z * z / n
    centre = (share + z * z / (2 * n)) / denominator
    half = z * math.sqrt(share * (1 - share) / n + z * z / (4 * n * n)) / denominator
    # At a share of 0 or 1 that bound is exactly the share; rounding would leave ~1e-17.
    low = 0.0 if share <= 0 else max(0.0, centre - half)
    high = 1.0 if share >= 1 else min(1.0, centre + half)
    return low, high


def format_result(result: dict[str, Any]) -> str:
    """One readable paragraph: the share, its interval, what an even match would score."""
    low, high = result["ci95"]
    seats = ", ".join("-" if s is None else f"{s:.3f}" for s in result["by_seat"])
    return (f"{result['game']} ({result['num_players']} players): {result['bot_a']} vs "
            f"{result['bot_b']} over {result['games']} games (seed {result['seed']})\n"
            f"  win share {result['win_share']:.3f}  95% CI [{low:.3f}, {high:.3f}]  "
            f"(even match: {result['fair_share']:.3f})\n"
            f"  by seat of {result['bot_a']}: {seats}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m tlatelolco.bots.evaluate",
        description="Seat-rotated matches of bot A against bot B: A's win share with a 95% CI.")
    parser.add_argument("game", help="a registered game, e.g. grand_bazaar")
    parser.add_argument("bot_a", help="the bot measured, e.g. greedy")
    parser.add_argument("bot_b", help="the bot in every other seat, e.g. random")
    parser.add_argument("--games", type=int, default=200, help="matches to play (default 200)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the whole run (default 0)")
    parser.add_argument("--players", type=int, default=2, help="number of players (default 2)")
    args = parser.parse_args(argv)
    try:
        result = head_to_head(args.game, args.bot_a, args.bot_b, args.games, args.seed,
                              num_players=args.players)
    except ValueError as err:
        parser.error(str(err))
    print(format_result(result))


if __name__ == "__main__":
    main()
