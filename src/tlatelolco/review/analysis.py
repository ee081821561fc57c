"""One decision analysed, and a whole game's review put together from its decisions.

For every decision of a record, the game's search bot (`mcts`; `ismcts` where seats hide things,
so the mover's own information only) searches the position the mover faced with a fixed
iteration budget, then goes on through the move played and the move it found best until each
has been valued on `min_visits` iterations. A child's totals over its visits are every seat's
expected share of victory after that move:

- `before`: every seat's share after the best move found: what the position was worth;
- `after`: every seat's share after the move played;
- `loss`: what the mover gave away, `before[mover] - after[mover]` (never below 0).

Chance is luck: between a decision's `after` and the next decision's `before` only chance
events happen (every step of a record that is not a decision is chance), so the change is what
the draws did to each seat's share. The set-up's draws are measured from an even split, and the
draws after the last decision from there to the result.

The same record, settings and seed give the same review (iteration budgets; a time budget
searches as far as the machine allows). Decisions are independent, so `tlatelolco.review.
runner` spreads them over processes.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from tlatelolco.bots import make_bot, search_spec
from tlatelolco.contract import State
from tlatelolco.records import replay_record
from tlatelolco.registry import load
from tlatelolco.review.thresholds import labels_for

VERSION = 2  # a review's format and method: older cached reviews are recomputed

# search iterations per decision by default: enough for the thresholds of `thresholds` to stand
# clear of the search's noise there (docs/review.md), at about a second per decision or less.
# Axio was raised from 400: its noise p99 fell from 0.28 to 0.18 at 800. Doubling the others
# did not lower theirs (Grand Bazaar 0.12 -> 0.17 at 800, Mexica 0.14 -> 0.24 at 400, Aztec
# Market 0.26 at 300, 600 and 1200): what remains there is not a matter of budget.
DEFAULT_ITERATIONS = {"grand_bazaar": 400, "aztec_market": 300, "axio": 800, "mexica": 200}
MIN_VISITS_SHARE = 4  # the played and best moves get at least iterations / this many visits
MAX_ITERATIONS = 100_000  # a request cannot ask for unbounded work
MAX_TIME = 60.0


@dataclass(frozen=True, slots=True)
class Settings:
    """How hard each decision is searched. `iterations` (default: per game) makes a review
    reproducible for its `seed`; `time` (seconds per decision) is faster to ask for but
    depends on the machine."""

    iterations: int | None = None
    time: float | None = None
    seed: int = 0

    def __post_init__(self) -> None:
        if self.iterations is not None and (type(self.iterations) is not int
                                            or not 1 <= self.iterations <= MAX_ITERATIONS):
            raise ValueError(f"iterations must be a whole number from 1 to {MAX_ITERATIONS}, "
                             f"got {self.iterations!r}")
        if self.time is not None and (not isinstance(self.time, int | float)
                                      or not 0 < self.time <= MAX_TIME):
            raise ValueError(f"time must be a number of seconds above 0 and at most "
                             f"{MAX_TIME:g}, got {self.time!r}")
        if type(self.seed) is not int:
            raise ValueError(f"seed must be a whole number, got {self.seed!r}")

    def for_game(self, game: str) -> Settings:
        """These settings with the budget filled in: the game's default iterations when
        neither budget is given."""
        if self.iterations is None and self.time is None:
            return Settings(DEFAULT_ITERATIONS.get(game, 300), None, self.seed)
        return self

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def review_key(record: dict[str, Any], settings: Settings) -> str:
    """What identifies a review: the game, its options and history, the settings and the
    method's version (the players' names and meta do not change a review)."""
    settings = settings.for_game(record["game"])
    basis = {"game": record["game"], "options": record["options"],
             "history": record["history"], "settings": settings.as_dict(), "version": VERSION}
    text = json.dumps(basis, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def decision_steps(record: dict[str, Any]) -> list[int]:
    """The steps of the history that are a seat's decision (not chance)."""
    state = load(record["game"], **record["options"]).new_initial_state()
    steps = []
    for step, action in enumerate(record["history"]):
        if not state.is_chance_node():
            steps.append(step)
        state.apply_action(action)
    return steps


def analyse_steps(record: dict[str, Any], steps: Sequence[int], settings: Settings
                  ) -> list[dict[str, Any]]:
    """The analysis of each decision at `steps` (in any order), replaying the record once."""
    game = load(record["game"], **record["options"])
    settings = settings.for_game(game.info.name)
    wanted = set(steps)
    history = record["history"]
    state = game.new_initial_state()
    found = []
    for step, action in enumerate(history):
        if step in wanted:
            found.append(analyse_decision(state, action, settings))
        state.apply_action(action)
    return found


def analyse_decision(state: State, played: int, settings: Settings) -> dict[str, Any]:
    """The search's view of one decision: every seat's share after the best move found and
    after the move played, from the mover's information only."""
    game = state.get_game()
    mover = state.current_player()
    step = state.move_number()
    budget = [f"{k}={v}" for k, v in (("iterations", settings.iterations),
                                       ("time", settings.time)) if v is not None]
    spec = f"{search_spec(game)}:{','.join([*budget, 'reuse=0'])}"
    bot = make_bot(spec, game, mover, f"{settings.seed}:review:{step}")
    min_visits = max(1, (settings.iterations or 100) // MIN_VISITS_SHARE)
    result, root = bot.analyse(state, (played,), min_visits)  # type: ignore[attr-defined]
    best = result.action
    before = _mean(root.children[best])
    after = _mean(root.children[played])
    return {
        "step": step,
        "seat": mover,
        "played": played,
        "played_text": state.action_to_string(played),
        "best": best,
        "best_text": state.action_to_string(best),
        "before": before,
        "after": after,
        "loss": max(0.0, before[mover] - after[mover]),
        "legal": len(state.legal_actions()),
        "iterations": result.iterations,
    }


def _mean(node: Any) -> list[float]:
    return [round(total / node.visits, 4) for total in node.totals]


def assemble(record: dict[str, Any], decisions: Sequence[dict[str, Any]], settings: Settings,
             seconds: float = 0.0) -> dict[str, Any]:
    """The review of a record from the analyses of all its decisions: labels, luck, summary."""
    state = replay_record(record)
    game = state.get_game()
    name = game.info.name
    settings = settings.for_game(name)
    mistake, blunder = labels_for(name)
    decisions = sorted(decisions, key=lambda d: d["step"])
    for d in decisions:
        d["label"] = ("blunder" if d["loss"] > blunder else
                      "mistake" if d["loss"] > mistake else None)
    players = game.num_players()
    even = [0.0] * players
    for side in game.teams():
        for seat in side:
            even[seat] = 1.0 / len(game.teams())
    returns = [float(r) for r in state.returns()]
    luck = _luck(decisions, even, returns, len(record["history"]), state)
    return {
        "version": VERSION,
        "key": review_key(record, settings),
        "game": name,
        "options": record["options"],
        "players": record["players"],
        "settings": settings.as_dict(),
        "labels": {"mistake": mistake, "blunder": blunder},
        "returns": returns,
        "length": len(record["history"]),
        "decisions": list(decisions),
        "luck": luck,
        "summary": summarise(decisions, luck, players),
        "seconds": round(seconds, 2),
    }


def _luck(decisions: Sequence[dict[str, Any]], even: list[float], returns: list[float],
          length: int, end: State) -> list[dict[str, Any]]:
    """Each run of chance steps with the change it made to every seat's share."""
    luck = []
    shares, step = even, 0  # before the set-up: an even split
    marks = [(d["step"], d["before"], d["after"]) for d in decisions]
    for at, before, after in [*marks, (length, returns, returns)]:
        if at > step:  # chance steps from `step` to `at`
            luck.append({"from": step, "to": at,
                         "texts": [end.action_to_string(a) for a in
                                   end.history()[step:at]][:8],
                         "change": [round(b - s, 4) for b, s in zip(before, shares,
                                                                   strict=True)]})
        shares, step = after, at + 1
    return luck


def summarise(decisions: Sequence[dict[str, Any]], luck: Sequence[dict[str, Any]],
              players: int) -> list[dict[str, Any]]:
    """Per seat: decisions, mistakes, blunders, total share lost, total luck."""
    rows = [{"seat": s, "decisions": 0, "mistakes": 0, "blunders": 0, "lost": 0.0,
             "luck": 0.0} for s in range(players)]
    for d in decisions:
        row = rows[d["seat"]]
        row["decisions"] += 1
        row["lost"] += d["loss"]
        if d["label"] == "mistake":
            row["mistakes"] += 1
        elif d["label"] == "blunder":
            row["blunders"] += 1
    for event in luck:
        for seat, change in enumerate(event["change"]):
            rows[seat]["luck"] += change
    for row in rows:
        row["lost"], row["luck"] = round(row["lost"], 4), round(row["luck"], 4)
    return rows


__all__ = ["DEFAULT_ITERATIONS", "VERSION", "Settings", "analyse_decision", "analyse_steps",
           "assemble", "decision_steps", "review_key", "summarise"]
