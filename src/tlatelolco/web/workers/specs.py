"""What a bot spec from a browser may ask for: each parameter of each bot, with its range.

The bots take more parameters than a server should let strangers set to anything
(`mcts:depth=1e9` plays out a billion decisions per iteration, `c=1e308` searches nothing
well): every parameter a client sends must be one its bot takes, of the right kind and
within a small range. The search budget (`time`, `iterations`) is checked and cut by
`bots.clamp_spec`, which calls `check_params` for the rest.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from tlatelolco.bots import SEARCHERS  # the bots with a search budget (time=, iterations=)


@dataclass(frozen=True, slots=True)
class Param:
    """One parameter: a number from `low` to `high` (`whole`: an integer; `below_high`: high
    itself excluded), or one of `words`."""

    low: float = 0.0
    high: float = 0.0
    whole: bool = False
    below_high: bool = False
    words: tuple[str, ...] = ()

    def allowed(self) -> str:
        if self.words:
            return " or ".join(self.words)
        if self.whole and (self.low, self.high) == (0, 1):
            return "0 or 1"
        if self.whole:
            return f"a whole number from {self.low:g} to {self.high:g}"
        upper = f"up to (not including) {self.high:g}" if self.below_high else f"to {self.high:g}"
        return f"a number from {self.low:g} {upper}"

    def accepts(self, value: Any) -> bool:
        if self.words:
            return value in self.words
        if not isinstance(value, int | float) or isinstance(value, bool):
            return False
        if not math.isfinite(value) or (self.whole and value != int(value)):
            return False
        return self.low <= value < self.high if self.below_high else \
            self.low <= value <= self.high


FLAG = Param(0, 1, whole=True)
# the search bots' parameters (tlatelolco.bots.mcts.MCTS), `time` and `iterations` aside
SEARCH = {
    "c": Param(0, 10),
    "depth": Param(0, 50, whole=True),
    "widen": Param(0, 10),
    "prior": Param(0, 1, below_high=True),
    "reuse": FLAG,
    "follow": FLAG,
    "rollout": Param(words=("greedy", "random")),
}
BUDGET = ("time", "iterations")  # checked and cut by clamp_spec
# a greedy bot's weights: each game's bot names its own (make_bot refuses others); a finite
# weight in this range at most, so that no spec makes its arithmetic overflow
WEIGHT = Param(-100, 100)


def accepted(name: str) -> dict[str, Param] | None:
    """The parameters bot `name` takes from a client (None: any weight, for a greedy bot, whose
    parameter names depend on the game)."""
    if name in SEARCHERS:
        return SEARCH
    if name == "greedy":
        return None
    return {}


def listing(params: dict[str, Param]) -> str:
    return "; ".join([f"{key}: {param.allowed()}" for key, param in params.items()])


def check_params(name: str, params: dict[str, Any]) -> dict[str, Any]:
    """`params` with whole numbers as integers (`depth=4.0` is 4); ValueError naming the
    parameter and what is allowed when bot `name` does not take one of them (those of `BUDGET`
    aside) or it is out of range. Unknown bot names pass: the game's bot list refuses them."""
    checked = dict(params)
    if name not in ("random", "greedy", *SEARCHERS):
        return checked
    allowed = accepted(name)
    for key, value in params.items():
        if key in BUDGET and name in SEARCHERS:
            continue
        if allowed is None:
            if not WEIGHT.accepts(value):
                raise ValueError(f"{key}={str(value)[:16]} is not allowed: a greedy bot's "
                                 f"parameters are weights, each {WEIGHT.allowed()}")
            continue
        param = allowed.get(key)
        if param is None:
            takes = (f"time: a number of seconds; iterations: a whole number; "
                     f"{listing(allowed)}" if allowed else "none")
            raise ValueError(f"bot {name!r} has no parameter {key[:16]!r}; allowed: {takes}")
        if not param.accepts(value):
            raise ValueError(f"{key}={str(value)[:16]} is not allowed: {key} is "
                             f"{param.allowed()}")
        if param.whole:
            checked[key] = int(value)
    return checked


__all__ = ["SEARCH", "Param", "check_params"]
