"""How long must a hint think before it can tell moves apart? Measured per game.

A hint (`tlatelolco.web.workers.bots.hint`) is a short search whose values are noisy: two
searches of the same position with different seeds rank the moves differently when the budget
is too small. This study samples positions from seeded greedy games and, for each time budget, runs
the server's own `hint` twice per position with different seeds, then reports how often the
two agree on the best move, how much the value of one move differs between them (the noise),
and the gap between the best and second-best values. `docs/hints.md` explains every column
and has the results:

    python -m tlatelolco.bots.hint_study --game axio --budgets 0.25,0.5,1,2,4 --positions 40
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
from dataclasses import dataclass, field
from typing import Any

from tlatelolco.bots import search_spec
from tlatelolco.contract import State
from tlatelolco.match import play_match
from tlatelolco.registry import load
from tlatelolco.web.workers.bots import hint

PER_GAME = 4  # positions taken from each greedy game, spread over it
COLUMNS = ("budget s", "positions", "iterations", "seconds", "agree", "top agree", "close",
           "noise", "noise p90", "gap", "equal")


@dataclass(slots=True)
class Position:
    """A position of a greedy game where a seat has a choice: its history and that seat."""

    history: list[int]
    seat: int


@dataclass(slots=True)
class Budget:
    """What the pairs of hints searched with one budget showed."""

    seconds: float
    agree: list[bool] = field(default_factory=list)  # same most-searched move
    top_agree: list[bool] = field(default_factory=list)  # same first move as the page sorts
    diffs: list[float] = field(default_factory=list)  # |value| between runs, same move
    gaps: list[float] = field(default_factory=list)  # best minus second-best value, one run
    spreads: list[float] = field(default_factory=list)  # best minus worst listed value
    # how much worse one run values the other's first move than its own (inf: not listed)
    losses: list[float] = field(default_factory=list)
    iterations: list[int] = field(default_factory=list)
    spent: list[float] = field(default_factory=list)  # seconds the search took (it may stop
    # early once its choice cannot change)
    skipped: int = 0  # positions settled without a search (Grand Bazaar's covered lead)


def sample_positions(game: str, count: int, seed: int, players: int) -> list[Position]:
    """`count` positions with at least two legal moves, `PER_GAME` from each of as many
    seeded greedy games as it takes, spread evenly from each game's start to its end (a hint
    is asked for at any point of a game)."""
    seeds = random.Random(f"hint_study:{seed}")
    found: list[Position] = []
    while len(found) < count:
        choices = _choices(game, players, seeds.getrandbits(63))
        take = min(PER_GAME, count - len(found), len(choices))
        found += [choices[int((k + 0.5) * len(choices) / take)] for k in range(take)]
    return found


def _choices(game: str, players: int, seed: int) -> list[Position]:
    """Every position of one greedy game where the seat to move has a choice."""
    choices: list[Position] = []

    def keep(state: State, action: int, actor: int) -> None:
        seat = state.current_player()
        if seat >= 0 and len(state.legal_actions()) >= 2:
            choices.append(Position(state.history(), seat))

    play_match(load(game, num_players=players), ["greedy"] * players, seed=seed,
               on_action=keep)
    return choices


def measure(game: str, positions: list[Position], budgets: list[float], seed: int,
            players: int, iterations: int | None = None) -> list[Budget]:
    """Two hints per position and budget, seeded apart, compared (see `Budget`).
    `iterations` also caps each search (tests use it to stay fast)."""
    name = search_spec(load(game, num_players=players))
    results = [Budget(b) for b in budgets]
    for index, position in enumerate(positions):
        for result in results:
            spec = f"{name}:time={result.seconds}"
            if iterations is not None:
                spec += f",iterations={iterations}"
            pair = [hint({"game_id": f"study:{index}", "game": game,
                          "options": {"num_players": players}, "history": position.history,
                          "seat": position.seat, "spec": spec,
                          "seed": run_seed(seed, index, result.seconds, run)})
                    for run in (0, 1)]
            add(result, pair[0], pair[1])
        print(f"{game}: position {index + 1}/{len(positions)}", file=sys.stderr, flush=True)
    return results


def run_seed(seed: int, index: int, budget: float, run: int) -> int:
    """A search's seed: the same for the same run, different between the two runs."""
    return random.Random(f"{seed}:{index}:{budget}:{run}").getrandbits(63)


def add(result: Budget, first: dict[str, Any], second: dict[str, Any]) -> None:
    """Count one position's two hints into `result`."""
    if first["why"] != "searched" or second["why"] != "searched":
        result.skipped += 1
        return
    ranked = [by_value(first), by_value(second)]
    values = [{m["action"]: m["value"] for m in moves} for moves in ranked]
    result.agree.append(first["moves"][0]["action"] == second["moves"][0]["action"])
    result.top_agree.append(ranked[0][0]["action"] == ranked[1][0]["action"])
    result.diffs += [abs(v - values[1][a]) for a, v in values[0].items() if a in values[1]]
    for k, found in enumerate((first, second)):
        result.iterations.append(found["iterations"])
        result.spent.append(found["seconds"])
        moves, other = ranked[k], ranked[1 - k]
        if len(moves) >= 2:
            result.gaps.append(moves[0]["value"] - moves[1]["value"])
            result.spreads.append(moves[0]["value"] - moves[-1]["value"])
        result.losses.append(other[0]["value"]
                             - values[1 - k].get(moves[0]["action"], -math.inf))


def by_value(found: dict[str, Any]) -> list[dict[str, Any]]:
    """A hint's searched moves as the page lists them: highest value first."""
    searched = [m for m in found["moves"] if m["visits"]]
    return sorted(searched, key=lambda m: -m["value"])


def quantile(values: list[float], q: float) -> float:
    """The `q` quantile of `values` (nearest rank), NaN for none."""
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def share(flags: list[bool]) -> float:
    """The share of true flags, NaN for none."""
    return statistics.fmean(flags) if flags else math.nan


def row(result: Budget) -> list[float]:
    """The table's numbers for one budget (see `COLUMNS`), with the noise p90 as the line
    below which values are about equal: `close` is the share of first moves that the other
    run of the pair values within it of its own first move (agreeing, or as good as), and
    `equal` the share of hints whose listed values all lie within it (what the page calls
    all about equal)."""
    noise = quantile(result.diffs, 0.9)
    return [result.seconds, len(result.agree), quantile(result.iterations, 0.5),
            quantile(result.spent, 0.5),
            share(result.agree), share(result.top_agree),
            share([loss <= noise for loss in result.losses]), quantile(result.diffs, 0.5),
            noise, quantile(result.gaps, 0.5), share([s < noise for s in result.spreads])]


def table(results: list[Budget]) -> str:
    """The results as a Markdown table, one row per budget."""
    lines = ["| " + " | ".join(COLUMNS) + " |", "|" + " ---: |" * len(COLUMNS)]
    for result in results:
        budget, count, iterations, spent, *shares, noise, noise90, gap, equal = row(result)
        cells = [f"{budget:g}", f"{count:.0f}", f"{iterations:.0f}", f"{spent:.2f}"]
        cells += [f"{x:.2f}" for x in shares] + [f"{x:.3f}" for x in (noise, noise90, gap)]
        cells.append(f"{equal:.2f}")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m tlatelolco.bots.hint_study",
        description="How a hint's agreement with itself and its noise change with its time.")
    parser.add_argument("--game", required=True, help="a registered game, e.g. axio")
    parser.add_argument("--budgets", default="0.25,0.5,1,2,4",
                        help="seconds a hint thinks, comma-separated (default 0.25,0.5,1,2,4)")
    parser.add_argument("--positions", type=int, default=20, help="positions (default 20)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the whole run (default 0)")
    parser.add_argument("--players", type=int, default=2, help="number of players (default 2)")
    parser.add_argument("--iterations", type=int, default=None,
                        help="also cap each search at this many iterations")
    args = parser.parse_args(argv)
    try:
        budgets = [float(b) for b in args.budgets.split(",")]
        if args.positions < 1 or not all(b > 0 for b in budgets):
            raise ValueError("positions and budgets must be above 0")
        positions = sample_positions(args.game, args.positions, args.seed, args.players)
    except ValueError as err:
        parser.error(str(err))
    results = measure(args.game, positions, budgets, args.seed, args.players, args.iterations)
    print(f"{args.game}, {args.players} players, "
          f"{search_spec(load(args.game, num_players=args.players))}: {len(positions)} "
          f"positions (seed {args.seed}); a budget's positions leave out those settled "
          "without a search")
    print(table(results))


if __name__ == "__main__":
    main()
