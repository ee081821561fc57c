"""Taking back a move, as Board Game Arena allows: the one rule the terminal and server share.

A player may take back their own actions of the current turn, last first, until something
is drawn or dealt (a chance step: hidden information may have been revealed to them) or
another seat has moved (it may have answered them). Nothing else is needed: the steps since
are the player's own, with nothing revealed in between, so taking them back changes no one
else's knowledge. In games whose every action is followed by a draw (Axio) nothing can be
taken back; the rules pages say per game what can.
"""

from __future__ import annotations

from collections.abc import Iterable


def undoable(actors_newest_first: Iterable[int], seat: int, to_move: int) -> int:
    """How many of the last steps `seat` may take back now, given who acted at each step
    (newest first: a seat, or a negative number for chance) and who is to move."""
    if seat < 0 or seat != to_move:
        return 0
    n = 0
    for actor in actors_newest_first:
        if actor != seat:
            break
        n += 1
    return n


__all__ = ["undoable"]
