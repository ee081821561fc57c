"""The rules of Axio, one function per rule, over the plain data of `Table`.

Rule ids (AX-1 ... AX-7) refer to the project's rules digest. Tiles are face down until drawn,
and every face-down tile is equally likely to be any unseen tile, so a draw from a stack or from
the supply is a chance event over the tiles nobody has seen (the `pool`).
"""

from __future__ import annotations

from functools import lru_cache
from itertools import chain

from tlatelolco.contract import CHANCE, TERMINAL
from tlatelolco.games.axio.table import (
    CENTRE_CORNER,
    DEAL,
    DRAW_EXTRA,
    DRAW_STACK,
    NAMES,
    OVER,
    PLACING,
    START,
    START_CELLS,
    CellPlacements,
    Table,
)
from tlatelolco.games.axio.tiles import EMPTY, NUM_COLOURS, NUM_TILES, Tile, empty_corner, faces
from tlatelolco.i18n import N_, Reason, reason

STACK = 12
TRACK_TOP = 12
START_TILES = 4
NEIGHBOURS = ((1, 0), (-1, 0), (0, 1), (0, -1))

# The corners of cell (x, y) as grid points, clockwise from the top-left (y grows North).
CORNER_POINTS = ((0, 1), (1, 1), (1, 0), (0, 0))
# Around grid point (px, py): (cell offset, which corner of that cell touches the point).
AROUND_POINT = (((-1, 0), 2), ((0, 0), 3), ((-1, -1), 1), ((0, -1), 0))


def set_up(num_players: int) -> Table:
    """AX-2: all tiles face down; the start square, the stacks and the hands are still to come."""
    return Table(
        num_players=num_players,
        cells={},
        frontier=set(),
        hands=[-1] * num_players,
        hand_step=[-1] * num_players,
        pool=list(range(NUM_TILES)),
        stack_left=[STACK] * num_players,
        supply_left=NUM_TILES - START_TILES - STACK * num_players,
        scores=[[0] * NUM_COLOURS for _ in range(num_players)],
        placed_from_stack=[0] * num_players,
        extra_taken=[0] * num_players,
    )


def to_move(t: Table) -> int:
    if t.phase == OVER:
        return TERMINAL
    if t.phase == PLACING:
        return t.player
    return CHANCE


# --- the start square (AX-2) -------------------------------------------------------------------


def start_rotation(tile: Tile, cell_index: int) -> int | None:
    """A tile with an empty corner turns it to the centre; any other keeps a random turn."""
    empty = empty_corner(tile)
    if empty < 0:
        return None
    return (CENTRE_CORNER[cell_index] - empty) % 4


def start_outcomes(t: Table, tiles: tuple[Tile, ...]) -> list[tuple[int, float]]:
    """(action, probability) of each tile and turn the next start cell can get."""
    draws = start_draws(tiles, len(t.cells), len(t.pool))
    return list(chain.from_iterable(map(draws.__getitem__, sorted(t.pool))))


@lru_cache(maxsize=32)
def start_draws(tiles: tuple[Tile, ...], cell: int, unseen: int
                ) -> tuple[tuple[tuple[int, float], ...], ...]:
    """Per tile, its outcomes at start cell `cell` while `unseen` tiles are face down: its
    one forced turn, or each of four turns alike. Worked out once per tile set: the start
    square is drawn four times a game and lists every unseen tile each time."""
    p_tile = 1.0 / unseen
    p_turn = p_tile / 4
    draws = []
    for index, tile in enumerate(tiles):
        forced = start_rotation(tile, cell)
        if forced is None:
            draws.append(tuple((START + index * 4 + r, p_turn) for r in range(4)))
        else:
            draws.append(((START + index * 4 + forced, p_tile),))
    return tuple(draws)


def lay_start_tile(t: Table, tile: int, rotation: int) -> None:
    put_on_display(t, START_CELLS[len(t.cells)], tile, rotation)
    t.pool.remove(tile)
    if len(t.cells) == START_TILES:
        t.phase, t.player = DEAL, 0


# --- drawing ------------------------------------------------------------------------------------


def draw(t: Table, tile: int) -> None:
    """A face-down tile goes into the mover's hand: from their stack, or the supply (extra)."""
    t.pool.remove(tile)
    seat = t.player
    t.hands[seat] = tile
    t.hand_step[seat] = t.history_len
    t.private_draws.append((t.history_len, seat))
    if t.phase == DRAW_EXTRA:
        t.supply_left -= 1
        t.in_extra = True
    else:
        t.stack_left[seat] -= 1
        t.in_extra = False
    if t.phase == DEAL:  # AX-2: each player draws one tile of their stack into their hand
        t.player += 1
        if t.player == t.num_players:
            t.phase, t.player = PLACING, 0
    elif t.phase == DRAW_STACK:  # AX-3 step 3 ends the turn
        next_turn(t)
    else:
        t.phase = PLACING


# --- placing and scoring (AX-3) -----------------------------------------------------------------


def put_on_display(t: Table, cell: tuple[int, int], tile: int, rotation: int) -> None:
    t.cells[cell] = (tile, rotation)
    t.frontier.discard(cell)
    x, y = cell
    for dx, dy in NEIGHBOURS:
        n = (x + dx, y + dy)
        if n not in t.cells:
            t.frontier.add(n)


def why_cannot_place(t: Table, tiles: tuple[Tile, ...], x: int, y: int, name: int
                     ) -> Reason | None:
    """AX-3 step 1: a free cell edge-adjacent to the display; an empty corner needs a colour.

    The reason is English text and a message the web page shows in the reader's language; the
    cell and the notation stay as they are typed.
    """
    if (x, y) in t.cells:
        return reason(N_("{cell} already holds a tile"), cell=f"({x},{y})")
    if (x, y) not in t.frontier:
        return reason(N_("{cell} does not touch the display along an edge"), cell=f"({x},{y})")
    has_empty = EMPTY in tiles[t.hands[t.player]]
    if has_empty and name == 0:
        return reason(N_("your tile has an empty corner: name a colour for it ({notation})"),
                      notation="empty=<colour>")
    if not has_empty and name:
        return reason(N_("your tile has no empty corner to name a colour for"))
    return None


# A placement's action id is its cell's id plus one of these: each rotation with no colour named,
# or, for a tile with an empty corner, with each colour named (AX-3 step 1).
UNNAMED_PLACEMENTS = CellPlacements(tuple(r * NAMES for r in range(4)))
NAMED_PLACEMENTS = CellPlacements(tuple(r * NAMES + name for r in range(4)
                                        for name in range(1, NAMES)))


def legal_placements(t: Table, tiles: tuple[Tile, ...]) -> list[int]:
    """Every free edge-adjacent cell in every rotation; a colour for an empty corner (sorted:
    cells in order, and each cell's ids in order after the previous cell's)."""
    placements = NAMED_PLACEMENTS if EMPTY in tiles[t.hands[t.player]] else UNNAMED_PLACEMENTS
    return list(chain.from_iterable(map(placements.__getitem__, sorted(t.frontier))))


# Around each corner of a cell, the three other cells that meet at its grid point: (their offset
# from the cell, which of their corners touches the point). Corners are numbered as in a tile.
AROUND_CORNER = tuple(
    tuple(((cx + dx, cy + dy), theirs) for (dx, dy), theirs in AROUND_POINT
          if (cx + dx, cy + dy) != (0, 0))
    for cx, cy in CORNER_POINTS)


def score_placement(t: Table, tiles: tuple[Tile, ...], cell: tuple[int, int], named: int
                    ) -> list[int]:
    """AX-3 step 2: points per colour for the tile just placed at `cell` (before the 12 cap)."""
    tile, rotation = t.cells[cell]
    return placement_points(t, tiles, cell, faces(tiles)[tile][rotation], named)


def placement_points(t: Table, tiles: tuple[Tile, ...], cell: tuple[int, int], corners: Tile,
                     named: int) -> list[int]:
    """AX-3 step 2: points per colour for a tile showing `corners` at `cell`, against the other
    tiles of the display (so a placement can be told before it is made, as the log does).

    Each corner scores one point per other quadrant of its circle showing the same colour; an
    empty corner scores as the colour named for it; empty quadrants never match.
    """
    points = [0] * NUM_COLOURS
    turned_tiles, cells = faces(tiles), t.cells
    x, y = cell
    for corner, shows in enumerate(corners):
        colour = named if shows == EMPTY else shows
        if colour == EMPTY:
            continue
        for (dx, dy), theirs in AROUND_CORNER[corner]:  # the rest of the corner's circle
            other = cells.get((x + dx, y + dy))
            if other is not None and turned_tiles[other[0]][other[1]][theirs] == colour:
                points[colour] += 1
    return points


def add_points(board: list[int], points: list[int]) -> tuple[list[int], list[int]]:
    """The board after `points` (points above 12 are lost) and the colours reaching 12 now
    (AXIO!: one extra turn each, ruling of AX-4)."""
    after = board[:]
    reached = []
    for colour, gained in enumerate(points):
        if gained:
            before = board[colour]
            after[colour] = min(TRACK_TOP, before + gained)
            if before < TRACK_TOP <= after[colour]:
                reached.append(colour)
    return after, reached


def place(t: Table, tiles: tuple[Tile, ...], x: int, y: int, rotation: int, name: int) -> None:
    """Place the hand tile, score it, then take extra turns or draw (AX-3, AX-4)."""
    seat = t.player
    tile = t.hands[seat]
    put_on_display(t, (x, y), tile, rotation)
    t.hands[seat] = -1
    t.hand_step[seat] = -1
    if not t.in_extra:
        t.placed_from_stack[seat] += 1
    gained = score_placement(t, tiles, (x, y), name - 1 if name else EMPTY)
    after, reached = add_points(t.scores[seat], gained)
    t.scores[seat][:] = after
    t.extra_pending += len(reached)
    t.extra_taken[seat] += len(reached)
    after_placement(t)


def after_placement(t: Table) -> None:
    """AX-4: extra turns from the supply while it lasts, then the draw from the own stack."""
    seat = t.player
    if t.extra_pending and t.supply_left:
        t.extra_pending -= 1
        t.phase = DRAW_EXTRA
        return
    t.extra_pending = 0  # the supply is empty: no more extra turns
    t.in_extra = False
    if t.stack_left[seat]:
        t.phase = DRAW_STACK
    else:
        next_turn(t)


def next_turn(t: Table) -> None:
    """The next seat with a tile in hand plays; when nobody has one the game is over (AX-5)."""
    for step in range(1, t.num_players + 1):
        seat = (t.player + step) % t.num_players
        if t.hands[seat] >= 0:
            t.player = seat
            t.phase = PLACING
            return
    t.phase = OVER


# --- end and scoring (AX-5) ---------------------------------------------------------------------


def ranking_key(scores: list[int]) -> tuple[int, ...]:
    """The lowest colour first, then the next lowest, ... (higher is better)."""
    return tuple(sorted(scores))
