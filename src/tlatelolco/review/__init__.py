"""Game review: each seat's share of victory move by move, the moves that gave it away, the
better moves, and what the draws did (luck).

    from tlatelolco import load, play_match
    from tlatelolco.review import Settings, review_record

    record = play_match(load("axio"), ["greedy", "random"], seed=1)
    review = review_record(record, Settings(iterations=60), workers=1)
    review["summary"][1]["lost"]  # the share of victory seat 1's moves gave away

See `analysis` for the method, `thresholds` for the labels and `runner` for processes and
the cache. `tlatelolco review RECORD` is the terminal's way in; the web app's finished games
have a Review button.
"""

from __future__ import annotations

from tlatelolco.review.analysis import DEFAULT_ITERATIONS, Settings, review_key
from tlatelolco.review.runner import ReviewCache, ReviewError, review_record
from tlatelolco.review.thresholds import labels_for

__all__ = ["DEFAULT_ITERATIONS", "ReviewCache", "ReviewError", "Settings", "labels_for",
           "review_key", "review_record"]
