"""When a move is a mistake or a blunder, per game: above the search's own noise.

A label must never flag what the search cannot tell apart. The loss of a move is measured by
a search with a fixed budget, so two reviews with different seeds disagree by some amount; the
thresholds sit above that disagreement, measured per game with `measure_noise`
(docs/review.md has the method and the figures), and never below the usual 0.10 and 0.25.
"""

from __future__ import annotations

MISTAKE, BLUNDER = 0.10, 0.25  # share of victory given away by one move

# game -> (mistake, blunder); see docs/review.md for the measurements behind them
THRESHOLDS: dict[str, tuple[float, float]] = {
    "grand_bazaar": (MISTAKE, BLUNDER),
    "aztec_market": (MISTAKE, BLUNDER),
    "axio": (MISTAKE, BLUNDER),
    "mexica": (MISTAKE, BLUNDER),
}


def labels_for(game: str) -> tuple[float, float]:
    """(mistake, blunder): the loss in share of victory above which a move is labelled."""
    return THRESHOLDS.get(game, (MISTAKE, BLUNDER))


__all__ = ["BLUNDER", "MISTAKE", "THRESHOLDS", "labels_for"]
