"""AM-6 ruling (no dead ends): can a buyer still make a purchase this turn, and at what cost?

Whether buyer b can buy from vendor V depends only on b's line: V must stand on it with no crowd
nearer to b. Market moves change the line in a few ways only: a tile of the line goes into the
hole, V (or some other tile) comes into a hole on the line, or the free errand boy swaps places
with the hole. So a line is abstracted to four cells --

    V the vendor, C a crowd, E the errand boy, H the hole, O any other tile

-- and the cheapest number of paid moves that makes the purchase possible is found by a small
0-1 breadth-first search over those abstract lines, cached: there are only a few hundred of them.
Moving tiles that are neither on the line nor V never helps and is left out, except that any
such tile may fill a hole on the line (kept for exactness, it never lowers the cost).
"""

from __future__ import annotations

from collections import deque
from functools import cache

from tlatelolco.games.aztec_market.components import CROWD, ERRAND_BOY, HOLE

UNREACHABLE = 99
MAX_PAID = 3  # a purchase needs one coin on the buyer: at most three others can pay for moves


# Each tile kind as a character; vendors are their colour digit until a vendor is chosen.
_CHAR = "".join("0123CO" + "OOEOH")  # indexed by tile kind 0..10
assert _CHAR[CROWD] == "C" and _CHAR[ERRAND_BOY] == "E" and _CHAR[HOLE] == "H"
# For vendor v: its digit becomes V, the other vendors are just tiles (O).
_AS_VENDOR = tuple(str.maketrans({str(c): ("V" if c == v else "O") for c in range(4)})
                   for v in range(4))


def line_text(layout: list[int], line: tuple[int, ...]) -> str:
    """The line's tiles as characters, nearest the buyer first (vendors as colour digits)."""
    a, b, c, d = line
    return _CHAR[layout[a]] + _CHAR[layout[b]] + _CHAR[layout[c]] + _CHAR[layout[d]]


def abstract_line(layout: list[int], line: tuple[int, ...], vendor: int) -> str:
    return line_text(layout, line).translate(_AS_VENDOR[vendor])


def as_vendor(text: str, vendor: int) -> str:
    """A `line_text` with one vendor chosen: the abstract line for that purchase."""
    return text.translate(_AS_VENDOR[vendor])


def can_buy_now(cells: str) -> bool:
    """V on the line and no crowd nearer the buyer."""
    v = cells.find("V")
    return v >= 0 and "C" not in cells[:v]


def _moves(cells: str, last_errand: bool) -> list[tuple[int, str, bool]]:
    """(cost, next cells, next last_errand) for every abstract move."""
    out = []
    h = cells.find("H")
    for i, cell in enumerate(cells):  # a paid move of a line tile into the hole
        if cell in "COV":
            if h >= 0:
                nxt = list(cells)
                nxt[i], nxt[h] = "H", cell
            else:
                nxt = list(cells)
                nxt[i] = "H"  # the tile leaves the line for the hole elsewhere
            out.append((1, "".join(nxt), False))
    if h >= 0:
        if "V" not in cells:  # the vendor comes into the hole on the line
            out.append((1, cells[:h] + "V" + cells[h + 1:], False))
        out.append((1, cells[:h] + "O" + cells[h + 1:], False))  # another tile fills it
    if not last_errand:  # the free errand boy swaps places with the hole
        e = cells.find("E")
        nxt = list(cells)
        if e >= 0:
            nxt[e] = "H"
        if h >= 0:
            nxt[h] = "E"
        if e >= 0 or h >= 0:
            out.append((0, "".join(nxt), True))
    return out


@cache
def paid_moves_needed(cells: str, last_errand: bool) -> int:
    """Fewest paid market moves before the purchase is possible (UNREACHABLE beyond three)."""
    best = {(cells, last_errand): 0}
    queue = deque([(0, cells, last_errand)])
    while queue:
        cost, here, errand = queue.popleft()
        if cost > best.get((here, errand), UNREACHABLE):
            continue
        if can_buy_now(here):
            return cost
        for step, nxt, nxt_errand in _moves(here, errand):
            total = cost + step
            if total <= MAX_PAID and total < best.get((nxt, nxt_errand), UNREACHABLE):
                best[(nxt, nxt_errand)] = total
                if step:
                    queue.append((total, nxt, nxt_errand))
                else:
                    queue.appendleft((total, nxt, nxt_errand))
    return UNREACHABLE
