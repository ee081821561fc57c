"""How far two reviews of the same move disagree by the search's noise alone, per game.

A label ("mistake", "blunder") must not flag what the search cannot tell apart, so its
threshold has to stand above the disagreement between two analyses of one position that differ
only in their seed. This samples positions from seeded greedy-vs-greedy games (spread over each
game, only where the mover has a choice), analyses each with two seeds at the review's default
budget, and reports the two disagreements that would move a label:

- `best`: the loss one seed assigns to the move the other seed found best (both ways): had the
  player played the other seed's best move, this seed would call it a loss this large;
- `played`: |loss_a - loss_b| for the move the greedy game played.

`noise` is the larger of their p99s, and `thresholds.THRESHOLDS` sits above it (docs/review.md
has the figures). `other`, |loss_a - loss_b| for a legal move drawn at random, is reported
beside them: such a move is mostly far worse than the best, so its disagreement mostly decides
between "mistake" and "blunder", which is why a blunder's threshold stands well above a
mistake's.

    python -m tlatelolco.review.noise axio --sample-seeds 0,1
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from tlatelolco.contract import State
from tlatelolco.match import play_match
from tlatelolco.registry import load
from tlatelolco.review.analysis import Settings, analyse_decision, decision_steps

PER_GAME = 5  # positions taken from each greedy game, spread over it
QUANTILES = (("median", 0.5), ("p90", 0.9), ("p99", 0.99), ("max", 1.0))

Progress = Callable[[int, int], None]  # (positions analysed, positions in all)


def sample_positions(game: str, count: int, seed: int = 0, players: int = 2
                     ) -> list[tuple[list[int], int, int]]:
    """`count` positions as (history before the move, move the greedy bot played, another
    legal move drawn at random), where the mover has at least two legal moves: `PER_GAME` from
    each of as many seeded greedy games as it takes, spread evenly from each game's start to
    its end."""
    seeds = random.Random(f"review-noise:{seed}")
    pick = random.Random(f"review-noise:{seed}:other")
    rules = load(game, num_players=players)
    found: list[tuple[list[int], int, int]] = []
    while len(found) < count:
        record = play_match(rules, ["greedy"] * players, seed=seeds.getrandbits(63))
        history = record["history"]
        choices = []
        state = rules.new_initial_state()
        steps = set(decision_steps(record))
        for step, action in enumerate(history):
            if step in steps and len(legal := state.legal_actions()) >= 2:
                choices.append((history[:step], action, legal))
            state.apply_action(action)
        take = min(PER_GAME, count - len(found), len(choices))
        for k in range(take):
            before, played, legal = choices[int((k + 0.5) * len(choices) / take)]
            found.append((before, played, pick.choice([a for a in legal if a != played])))
    return found


def quantile(values: Sequence[float], q: float) -> float:
    """The `q` quantile of `values` (nearest rank), NaN for none."""
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def spread(values: Sequence[float]) -> dict[str, float]:
    """Median, p90, p99 and max of `values`."""
    return {name: round(quantile(values, q), 4) for name, q in QUANTILES}


def measure_noise(game: str, positions: int = 40, seeds: tuple[int, int] = (1, 2),
                  settings: Settings | None = None, *, players: int = 2,
                  sample_seeds: Sequence[int] = (0,), progress: Progress | None = None
                  ) -> dict[str, Any]:
    """Analyse `positions` greedy-game positions of `game` per sample seed under both `seeds`
    (with the budget of `settings`, default the game's `DEFAULT_ITERATIONS`) and report how far
    the two disagree (see the module's docstring). `noise` is the larger p99 of `best` and
    `played`: what a mistake threshold must stand above. `cases` has every position's
    figures."""
    if positions < 1:
        raise ValueError(f"positions must be at least 1, got {positions}")
    if len(seeds) != 2 or seeds[0] == seeds[1]:
        raise ValueError(f"seeds must be two different whole numbers, got {seeds!r}")
    if not sample_seeds or len(set(sample_seeds)) != len(sample_seeds):
        raise ValueError(f"sample seeds must be one or more different whole numbers, got "
                         f"{list(sample_seeds)!r}")
    base = (settings or Settings()).for_game(game)
    runs = (replace(base, seed=seeds[0]), replace(base, seed=seeds[1]))
    started = time.perf_counter()
    total = positions * len(sample_seeds)
    rules = load(game, num_players=players)
    cases: list[dict[str, Any]] = []
    for sample_seed in sample_seeds:
        for history, played, other in sample_positions(game, positions, sample_seed, players):
            cases.append(compare(rules.replay(history), played, other, runs))
            if progress is not None:
                progress(len(cases), total)
    best = spread([loss for case in cases for loss in case["crossed"]])
    same = spread([abs(case["loss"][0] - case["loss"][1]) for case in cases])
    rest = spread([abs(case["other"][0] - case["other"][1]) for case in cases])
    agree = sum(case["best_text"][0] == case["best_text"][1] for case in cases)
    return {"game": game, "players": players, "positions": len(cases),
            "settings": base.as_dict(), "seeds": list(seeds),
            "sample_seeds": list(sample_seeds), "agree": round(agree / len(cases), 3),
            "best": best, "played": same, "other": rest, "noise": max(best["p99"], same["p99"]),
            "seconds": round(time.perf_counter() - started, 1), "cases": cases}


def compare(state: State, played: int, other: int, runs: tuple[Settings, Settings]
            ) -> dict[str, Any]:
    """One position analysed under both settings: the losses of the move played, of each
    run's best move in the other run, and of `other` (another legal move)."""
    first, second = (analyse_decision(state, played, run) for run in runs)
    if first["best"] == second["best"]:
        crossed = [0.0, 0.0]  # each seed's loss for its own best move
    else:
        crossed = [analyse_decision(state, theirs["best"], run)["loss"]
                   for run, theirs in ((runs[0], second), (runs[1], first))]
    return {"step": state.move_number(), "legal": first["legal"],
            "played_text": first["played_text"],
            "best_text": [first["best_text"], second["best_text"]],
            "loss": [first["loss"], second["loss"]], "crossed": crossed,
            "other_text": state.action_to_string(other),
            "other": [analyse_decision(state, other, run)["loss"] for run in runs]}


def table(result: dict[str, Any]) -> str:
    """The measurement as a Markdown table, one row per disagreement."""
    lines = ["| disagreement | median | p90 | p99 | max |", "| --- | ---: | ---: | ---: | ---: |"]
    for key, what in (("best", "loss of the other seed's best move"),
                      ("played", "difference of the two losses of the move played"),
                      ("other", "difference of the two losses of a random other move")):
        cells = [f"{result[key][name]:.3f}" for name, _ in QUANTILES]
        lines.append(f"| {what} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m tlatelolco.review.noise",
        description="How far two reviews of the same positions disagree by seed alone.")
    parser.add_argument("game", help="a registered game, e.g. axio")
    parser.add_argument("--positions", type=int, default=40, help="positions (default 40)")
    parser.add_argument("--seeds", default="1,2",
                        help="the two analysis seeds, comma-separated (default 1,2)")
    parser.add_argument("--iterations", type=int, default=None,
                        help="search iterations per decision (default: the game's review "
                             "budget)")
    parser.add_argument("--players", type=int, default=2, help="number of players (default 2)")
    parser.add_argument("--sample-seeds", default="0",
                        help="seeds of the greedy games sampled, comma-separated: each gives "
                             "--positions positions (default 0)")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    args = parser.parse_args(argv)
    seeds, samples = _numbers(args.seeds), _numbers(args.sample_seeds)
    if seeds is None or len(seeds) != 2:
        parser.error(f"--seeds takes two whole numbers separated by a comma, got "
                     f"{args.seeds!r}")
    if samples is None:
        parser.error(f"--sample-seeds takes whole numbers separated by commas, got "
                     f"{args.sample_seeds!r}")
    try:
        settings = Settings(iterations=args.iterations)
        load(args.game, num_players=args.players)
    except ValueError as err:
        parser.error(str(err))

    def tell(done: int, total: int) -> None:
        print(f"{args.game}: position {done}/{total}", file=sys.stderr, flush=True)

    try:
        result = measure_noise(args.game, args.positions, (seeds[0], seeds[1]), settings,
                               players=args.players, sample_seeds=samples, progress=tell)
    except ValueError as err:
        parser.error(str(err))
    if args.json:
        print(json.dumps(result, indent=1))
        return
    print(f"{args.game}, {args.players} players, {result['settings']['iterations']} "
          f"iterations, seeds {seeds[0]} and {seeds[1]}: {result['positions']} positions "
          f"(sample seeds {args.sample_seeds}), same best move in {result['agree']:.0%}, "
          f"{result['seconds']:.0f} s")
    print(table(result))
    print(f"noise (the larger p99 of the first two rows): {result['noise']:.3f}")


def _numbers(text: str) -> list[int] | None:
    """Comma-separated whole numbers, or None when `text` is not that."""
    try:
        return [int(part) for part in text.split(",")]
    except ValueError:
        return None


if __name__ == "__main__":
    main()
