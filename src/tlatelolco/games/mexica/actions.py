"""How Mexica's actions are numbered: one fixed integer range per kind of action.

Squares run 0..NUM_SQUARES-1 (see `board`). Each kind's range is laid out so that encoding and
decoding are a few integer operations, and the legal actions of any position come out sorted
when squares are visited in order.
"""

from __future__ import annotations

from bisect import bisect_right

from tlatelolco.games.mexica.board import NUM_SQUARES as N
from tlatelolco.games.mexica.board import WIDTH
from tlatelolco.games.mexica.components import SIZES

END = 0
TOKEN = 1
WALK = 2  # + direction (N, E, S, W)
START = WALK + 4  # + square: set-up, a Mexica onto a starting square
CANAL = START + N  # + square: a single canal tile
DOUBLE = CANAL + N  # + square * 2 + (0: with its east neighbour, 1: with its south neighbour)
BRIDGE = DOUBLE + 2 * N  # + square * 2 + axis - 1
MOVE_BRIDGE = BRIDGE + 2 * N  # + (from * N + to) * 2 + axis - 1
BOAT = MOVE_BRIDGE + 2 * N * N  # + square of the bridge reached
TELEPORT = BOAT + N  # + square
BUILD = TELEPORT + N  # + (levels - 1) * N + square
FOUND = BUILD + 4 * N  # + (size - 3) * N + square
DRAW = FOUND + len(SIZES) * N  # + size - 3: chance, a calpulli tile drawn for part 1
NUM_ACTIONS = DRAW + len(SIZES)

KINDS = ("end", "token", "walk", "start", "canal", "double", "bridge", "move_bridge", "boat",
         "teleport", "build", "found", "draw")
_BOUNDS = (END, TOKEN, WALK, START, CANAL, DOUBLE, BRIDGE, MOVE_BRIDGE, BOAT, TELEPORT, BUILD,
           FOUND, DRAW)
(K_END, K_TOKEN, K_WALK, K_START, K_CANAL, K_DOUBLE, K_BRIDGE, K_MOVE_BRIDGE, K_BOAT, K_TELEPORT,
 K_BUILD, K_FOUND, K_DRAW) = range(len(KINDS))


def decode(action: int) -> tuple[int, int, int, int]:
    """(kind, a, b, c) of an action in range; a, b, c depend on the kind:

    walk: direction; start, canal, boat, teleport: square; double: square, its partner;
    bridge: square, axis; move_bridge: from, to, axis; build: levels, square;
    found: size, square; draw: size.
    """
    kind = bisect_right(_BOUNDS, action) - 1
    rest = action - _BOUNDS[kind]
    if kind == K_DOUBLE:
        square, k = divmod(rest, 2)
        return kind, square, square + (WIDTH if k else 1), 0
    if kind == K_BRIDGE:
        square, axis = divmod(rest, 2)
        return kind, square, axis + 1, 0
    if kind == K_MOVE_BRIDGE:
        pair, axis = divmod(rest, 2)
        return kind, pair // N, pair % N, axis + 1
    if kind == K_BUILD:
        levels, square = divmod(rest, N)
        return kind, levels + 1, square, 0
    if kind == K_FOUND:
        size, square = divmod(rest, N)
        return kind, size + SIZES[0], square, 0
    if kind == K_DRAW:
        return kind, rest + SIZES[0], 0, 0
    return kind, rest, 0, 0


def double_action(first: int, second: int) -> int:
    """The double tile on two orthogonally adjacent squares, given in either order."""
    first, second = min(first, second), max(first, second)
    return DOUBLE + first * 2 + (0 if second == first + 1 else 1)


def bridge_action(square: int, axis: int) -> int:
    return BRIDGE + square * 2 + axis - 1


def move_bridge_action(source: int, target: int, axis: int) -> int:
    return MOVE_BRIDGE + (source * N + target) * 2 + axis - 1


def build_action(levels: int, square: int) -> int:
    return BUILD + (levels - 1) * N + square


def found_action(size: int, square: int) -> int:
    return FOUND + (size - SIZES[0]) * N + square
