"""When a move is a mistake or a blunder, per game: above the search's own noise.

A label must never flag what the search cannot tell apart. The loss of a move is measured by
a search with a fixed budget, so two reviews with different seeds disagree by some amount; the
thresholds sit above that disagreement, measured per game with `tlatelolco.review.noise`
(docs/review.md has the method and the figures), and never below the usual 0.10 and 0.25.
"""

from __future__ import annotations

MISTAKE, BLUNDER = 0.10, 0.25  # share of victory given away by one move: the floors

# game -> (mistake, blunder). Measured with `python -m tlatelolco.review.noise GAME` at the
# default budget (`analysis.DEFAULT_ITERATIONS`), 80 positions of greedy games per game (sample
# seeds 0 and 1, 40 each), seeds 1 and 2; "noise" is the larger p99 of the two disagreements
# that move a label (the loss one seed gives the other's best move; the two losses of the move
# played). The mistake threshold is the next 0.05 above it; a blunder is 0.15 more (a clearly
# bad move's loss itself varies that much between seeds), and never below 0.25.
THRESHOLDS: dict[str, tuple[float, float]] = {
    # 400 iterations: p99 0.115 (other seed's best 0.115, move played 0.115); max 0.149
    "grand_bazaar": (0.15, 0.30),
    # 300 iterations: p99 0.260 (0.260, 0.260); max 0.326. 600 and 1200 gave 0.257 and 0.261:
    # a seed's search sometimes leaves the better move all but unexplored, whatever the budget
    "aztec_market": (0.30, 0.45),
    # 800 iterations: p99 0.178 (0.119, 0.178); max 0.178. At 400 it was 0.279
    "axio": (0.20, 0.35),
    # 200 iterations: p99 0.136 (0.074, 0.136); max 0.136
    "mexica": (0.15, 0.30),
}


def labels_for(game: str) -> tuple[float, float]:
    """(mistake, blunder): the loss in share of victory above which a move is labelled."""
    return THRESHOLDS.get(game, (MISTAKE, BLUNDER))


__all__ = ["BLUNDER", "MISTAKE", "THRESHOLDS", "labels_for"]
