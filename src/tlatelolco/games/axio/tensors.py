"""Axio as tensors: what a seat sees now, and what it has seen since the start.

A seat sees the display, every score board and counter, and its own hand tile; it never sees
another seat's hand tile, and nobody sees the face-down stacks and supply (AX-6). The engine
holds no order for those face-down tiles either: a draw is a chance event over the tiles
nobody has seen, decided only when it happens. So the only hidden fact in a state is which
unseen tile each other seat holds, and it is absent here. What is left face down is public by
elimination: every tile that is neither on the display nor in the observer's hand.

Sections are seat-relative: rows per seat start with the observer, then the others in turn
order. Tiles have fixed slots (the tile's number in the set), so the display is complete and of
fixed size however far it grows. docs/tensors/axio.md describes every section, its range and
scaling.

Writing a tensor is the hot path of an RL step: index tables are built once per player count
and tile set; a display's sections are kept between calls and only its new tiles written (see
`_Display`); the rest is one list of the indices that are 1 and one list of numbers, each
stored with a single NumPy assignment. NumPy comes through `tlatelolco.tensors.numpy` (the `rl`
extra) only when a tensor is written, never when the game is imported.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from functools import cache
from itertools import islice
from operator import sub
from typing import Any

from tlatelolco.contract import shared_victory
from tlatelolco.games.axio.rules import STACK, START_TILES, TRACK_TOP, ranking_key
from tlatelolco.games.axio.table import DRAW, NAMES, OFFSET, OVER, PLACE, START, Table
from tlatelolco.games.axio.tiles import NUM_COLOURS, NUM_TILES, Tile, turned
from tlatelolco.tensors import Layout, numpy

# Scaling constants (each number is in [0, 1], positions in [-1, 1]).
COORD_SCALE = OFFSET  # 60: 56 placements cannot take a cell 58 steps from the start square
MAX_EXTRA = NUM_COLOURS  # extra turns: at most one per colour (AX-4)
MAX_DRAWS = STACK + MAX_EXTRA  # 17: a seat's whole stack and one supply tile per extra turn
MAX_MOVES = START_TILES + 2 * (NUM_TILES - START_TILES)  # 116: every tile laid or drawn+placed
CATEGORIES = NUM_COLOURS + 1  # a quadrant shows one of 5 colours or is empty (AX-1)
NUM_PHASES = 6  # start square, first hands, placing, extra draw, stack draw, over (table.py)
CORNERS = 4
ROTATIONS = 4
SHOWN = (1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0)  # a displayed tile's 1s, then its 0 of unseen


@cache
def observation_layout(num_players: int) -> Layout:
    """The observation's sections for `num_players` (one shared object per count): the
    observer's categories, the display's sections (kept between calls as one run), then the
    numbers (written as one run)."""
    n = num_players
    return Layout((
        ("observer", (n,)),  # the observer's absolute seat
        ("turn_of", (n,)),  # relative seat whose turn it is (placing, or drawing at chance)
        ("phase", (NUM_PHASES,)),
        ("hand_tile", (NUM_TILES,)),  # the observer's own hand tile (AX-6)
        ("hand_corners", (CORNERS, CATEGORIES)),  # its corners as drawn (rotation 0)
        ("on_display", (NUM_TILES,)),
        ("rotation", (NUM_TILES, ROTATIONS)),
        ("corners", (NUM_TILES, CORNERS, CATEGORIES)),  # as turned on the display
        ("position", (NUM_TILES, 2)),  # (x, y) / 60 of each tile on the display
        ("unseen", (NUM_TILES,)),  # face down or in another hand: public by elimination
        ("unseen_corners", (CATEGORIES,)),  # their quadrants per category / the set's count
        ("scores", (n, NUM_COLOURS)),  # from here on: one row per relative seat, / 12
        ("lowest", (n,)),  # the lowest colour, each seat's result (AX-5), / 12
        ("holding", (n,)),
        ("stack", (n,)),  # face-down tiles left in the stack, / 12
        ("placed", (n,)),  # tiles placed from the own stack, / 12
        ("supply", (1,)),  # face-down tiles left in the supply, / its size at the start
        ("extra_pending", (1,)),  # extra turns queued behind the one under way, / 5
        ("extra_turn", (1,)),  # an extra turn, with a tile from the supply, is under way (AX-4)
        ("returns", (n,)),  # at the end only
    ))


@cache
def information_state_layout(num_players: int) -> Layout:
    """The observation's sections at the same offsets, then what the seat recalls."""
    n = num_players
    return Layout((
        *observation_layout(n).sections,
        ("arrival", (NUM_TILES,)),  # (k + 1) / 60 for the k-th tile to come onto the display
        ("named", (NUM_TILES, NUM_COLOURS)),  # the colour named for a placed empty corner
        ("drawn", (NUM_TILES,)),  # tiles the observer drew into its own hand
        ("draws", (n,)),  # tiles each relative seat drew into its hand, / 17
        ("moves", (1,)),  # actions so far / 116
    ))


class _Plan:
    """Offsets and index tables of one player count and tile set, computed once so that the
    writers only look up."""

    def __init__(self, n: int, tiles: tuple[Tile, ...]) -> None:
        at = information_state_layout(n).offsets
        self.tiles = tiles  # keeps the set alive: plans are found by its id
        self.observer, self.turn_of, self.phase = at["observer"], at["turn_of"], at["phase"]
        self.unseen = at["unseen"]
        self.numbers, self.end = at["unseen_corners"], observation_layout(n).size
        # seats[player]: the absolute seats in the observer's order (itself, then the next).
        self.seats = tuple(tuple((p + r) % n for r in range(n)) for p in range(n))
        self.supply_size = NUM_TILES - START_TILES - STACK * n  # 44, 32, 20 or 8 (AX-2)
        self.no_returns = (0.0,) * n
        # hand[tile]: the 1s of hand_tile and hand_corners for that tile in hand.
        self.hand = tuple((at["hand_tile"] + i, *_corner_ones(at["hand_corners"], tile))
                          for i, tile in enumerate(tiles))
        # The display sections, on_display to unseen, are kept per display (`_Display`):
        # their indices count from the start of that run.
        base = at["on_display"]
        self.display = slice(base, at["unseen_corners"])
        # shown[(tile, rotation)]: where a tile on the display turned so writes SHOWN (the 1s of
        # on_display, rotation and corners, then the 0 of unseen); position[tile]: its (x, y).
        np = numpy()
        self.shown = {
            (i, r): np.array((at["on_display"] - base + i,
                              at["rotation"] - base + i * ROTATIONS + r,
                              *_corner_ones(at["corners"] - base + i * CORNERS * CATEGORIES,
                                            turned(tile, r)),
                              at["unseen"] - base + i), np.intp)
            for i, tile in enumerate(tiles) for r in range(ROTATIONS)}
        self.position = tuple(at["position"] - base + 2 * i for i in range(len(tiles)))
        self.shown_values = np.array(SHOWN, np.float32)
        self.empty_display = np.zeros(self.display.stop - base, np.float32)
        self.empty_display[at["unseen"] - base:] = 1.0
        # quadrants per category: in the whole set, and on each tile
        self.corner_counts = tuple(tuple(tile.count(c) for c in range(CATEGORIES))
                                   for tile in tiles)
        self.set_counts = [sum(column) for column in zip(*self.corner_counts, strict=True)]
        self.no_corners = (0,) * CATEGORIES
        self.corner_weights = [1 / total if total else 0.0 for total in self.set_counts]
        self.arrival, self.drawn = at["arrival"], at["drawn"]
        self.arrival_values = [(k + 1) / NUM_TILES for k in range(NUM_TILES)]
        self.named = at["named"]
        self.draws, self.moves = at["draws"], at["moves"]
        self.displays: dict[int, _Display] = {}  # by id(cells); see `_display`


def _corner_ones(offset: int, corners: Tile) -> tuple[int, ...]:
    """Where a tile's 1s go in a (corner, category) one-hot block at `offset`."""
    return tuple(offset + corner * CATEGORIES + category
                 for corner, category in enumerate(corners))


_plans: dict[tuple[int, int], _Plan] = {}


def _plan(n: int, tiles: tuple[Tile, ...]) -> _Plan:
    """The plan of `n` players and this tile set (a game keeps its set: found by identity)."""
    plan = _plans.get((n, id(tiles)))
    if plan is None or plan.tiles is not tiles:
        if len(_plans) >= 64:  # user tile sets come and go: start afresh (a plan takes ~1 ms)
            _plans.clear()
        plan = _plans[n, id(tiles)] = _Plan(n, tiles)
    return plan


class _Display:
    """The display sections of one display, on_display to unseen, kept between calls, and the
    quadrants per category that are not on it.

    A placed tile stays where it is (AX-3) and a state's table changes only through actions,
    so a display grows and never changes otherwise: a display seen before needs only its new
    tiles written. An RL step so writes one tile instead of up to 60. A clone's display is a
    new dict, found afresh. Entries hold their dict, so its id is not reused while they live.
    """

    __slots__ = ("block", "cells", "count", "left")

    def __init__(self, cells: dict[tuple[int, int], tuple[int, int]], plan: _Plan) -> None:
        self.cells = cells
        self.count = 0
        self.block = plan.empty_display.copy()
        self.left = plan.set_counts[:]

    def catch_up(self, plan: _Plan) -> None:
        """Write the tiles placed since the last call (the newest entries of the dict): an RL
        step's one tile is one stored index array and two numbers."""
        block, left, counts = self.block, self.left, plan.corner_counts
        for (x, y), (tile, rotation) in islice(reversed(self.cells.items()),
                                               len(self.cells) - self.count):
            block[plan.shown[tile, rotation]] = plan.shown_values
            at = plan.position[tile]
            block[at] = x / COORD_SCALE
            block[at + 1] = y / COORD_SCALE
            left = list(map(sub, left, counts[tile]))
        self.left = left
        self.count = len(self.cells)


_DISPLAYS_KEPT = 256  # enough for an environment per core and a search's recent states
_keeping = threading.Lock()  # environments in threads add and drop displays of their own


def _display(cells: dict[tuple[int, int], tuple[int, int]], plan: _Plan) -> _Display:
    displays = plan.displays
    kept = displays.get(id(cells))
    if kept is None or kept.cells is not cells or kept.count > len(cells):
        kept = _Display(cells, plan)
        with _keeping:
            while len(displays) >= _DISPLAYS_KEPT:
                del displays[next(iter(displays))]  # the oldest
            displays[id(cells)] = kept
    if kept.count < len(cells):
        kept.catch_up(plan)
    return kept


def write_observation(t: Table, tiles: tuple[Tile, ...], player: int, out: Any) -> None:
    """Store what `player` sees now into `out`, a zero vector of `observation_layout`."""
    plan = _plan(t.num_players, tiles)
    display = _display(t.cells, plan)
    out[plan.display] = display.block
    ones = [plan.observer + player, plan.turn_of + (t.player - player) % t.num_players,
            plan.phase + t.phase]
    hand = t.hands[player]
    in_hand = plan.no_corners
    if hand >= 0:  # the observer's own tile (AX-6): seen, so not among the unseen
        ones += plan.hand[hand]
        out[plan.unseen + hand] = 0.0
        in_hand = plan.corner_counts[hand]
    for one in ones:  # at most eight: cheaper stored one by one than as an index array
        out[one] = 1.0
    unseen = [(off - held) * weight for off, held, weight
              in zip(display.left, in_hand, plan.corner_weights, strict=True)]
    out[plan.numbers:plan.end] = _numbers(t, player, plan, unseen)


def _numbers(t: Table, player: int, plan: _Plan, unseen: list[float]) -> list[float]:
    """`unseen` (the unseen quadrants per category, scaled), then each seat's score board,
    lowest colour, hand, stack and placements in the observer's order, the supply and the
    extra turns (AX-4), and the returns at the end (AX-5)."""
    seats = plan.seats[player]
    scores, hands = t.scores, t.hands
    numbers = unseen
    numbers += [points / TRACK_TOP for seat in seats for points in scores[seat]]
    numbers += [min(scores[seat]) / TRACK_TOP for seat in seats]
    numbers += [float(hands[seat] >= 0) for seat in seats]
    numbers += [t.stack_left[seat] / STACK for seat in seats]
    numbers += [t.placed_from_stack[seat] / STACK for seat in seats]
    numbers += (t.supply_left / plan.supply_size, t.extra_pending / MAX_EXTRA,
                float(t.in_extra))
    if t.phase == OVER:
        returns = shared_victory([ranking_key(board) for board in scores])
        numbers += [returns[seat] for seat in seats]
    else:
        numbers += plan.no_returns
    return numbers


def write_information_state(t: Table, tiles: tuple[Tile, ...], history: Sequence[int],
                            player: int, out: Any) -> None:
    """Store what `player` has seen since the start into `out` (zero, information state
    layout): the observation, then the order the tiles came onto the display, the colours
    named for empty corners, the tiles it drew itself, how many tiles each seat drew, and how
    many actions there have been.

    Everything read is in `information_state_string(player)`: the public actions, the
    observer's own draws, and who drew when (never what another seat drew).
    """
    write_observation(t, tiles, player, out)
    plan = _plan(t.num_players, tiles)
    drew, own = _draws(t, history, player, plan)
    arrived, named = _display_order(t, history, len(history) - sum(drew), plan)
    out[arrived] = plan.arrival_values[:len(arrived)]
    out[named + own] = 1.0
    out[plan.draws:plan.draws + t.num_players] = [drew[seat] / MAX_DRAWS
                                                  for seat in plan.seats[player]]
    out[plan.moves] = len(history) / MAX_MOVES


def _draws(t: Table, history: Sequence[int], player: int, plan: _Plan
           ) -> tuple[list[int], list[int]]:
    """How many draws each seat made, and the 1s of drawn: the tiles of the observer's own
    draws (it saw each one, AX-6). Who drew is public; what another seat drew is not read."""
    drew = [0] * t.num_players
    own = []
    for step, seat in t.private_draws:
        # a hand-built position's history starts there: it recalls only the actions since
        if step < len(history) and DRAW <= history[step] < START:
            drew[seat] += 1
            if seat == player:
                own.append(plan.drawn + history[step] - DRAW)
    return drew, own


def _display_order(t: Table, history: Sequence[int], laid: int, plan: _Plan
                   ) -> tuple[list[int], list[int]]:
    """The indices of arrival, in order, and the 1s of named, for the `laid` tiles that the
    history's start and placement actions put on the display (AX-2, AX-3).

    Each such action adds one cell to the display's dict, which keeps the order cells were
    added, so those tiles are its last `laid` entries in the order they came; a placement
    action's number ends with the colour named for an empty corner (`table.place_action`)."""
    cells = list(t.cells.values())
    tiles = [tile for tile, _ in cells[len(cells) - laid:]]
    names = [(action - PLACE) % NAMES for action in history if action < DRAW]  # placements
    placed = tiles[len(tiles) - len(names):]  # the start square is laid before any placement
    named = [plan.named + tile * NUM_COLOURS + name - 1
             for tile, name in zip(placed, names, strict=True) if name]
    return [plan.arrival + tile for tile in tiles], named


__all__ = ["information_state_layout", "observation_layout", "write_information_state",
           "write_observation"]
