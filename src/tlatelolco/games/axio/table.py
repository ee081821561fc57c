"""The position of a game of Axio as plain data, and how actions are numbered."""

from __future__ import annotations

from dataclasses import dataclass, field

from tlatelolco.games.axio.tiles import NUM_COLOURS, NUM_TILES

# Cells are (x, y) with x growing East and y growing North; the start square is (0,0)..(1,1).
# A display grows one edge-adjacent tile at a time from 4 tiles, so 56 placements can never reach
# beyond 57 cells from the start in any direction: OFFSET and SPAN cover that with room to spare.
OFFSET = 60
SPAN = 2 * OFFSET + 2
NAMES = 1 + NUM_COLOURS  # 0: no empty corner to name; 1..5: the colour named for it

# Action ids
PLACE = 0  # + ((x + OFFSET) * SPAN + (y + OFFSET)) * 4 * NAMES + rotation * NAMES + name
DRAW = PLACE + SPAN * SPAN * 4 * NAMES  # + tile: chance, a tile drawn into the mover's hand
START = DRAW + NUM_TILES  # + tile * 4 + rotation: chance, a tile of the start square
NUM_ACTIONS = START + NUM_TILES * 4

# Phases
START_SQUARE, DEAL, PLACING, DRAW_EXTRA, DRAW_STACK, OVER = range(6)
START_CELLS = ((0, 1), (1, 1), (1, 0), (0, 0))  # top-left, top-right, bottom-right, bottom-left
CENTRE_CORNER = (2, 3, 0, 1)  # which corner of each start cell touches the centre point


def place_action(x: int, y: int, rotation: int, name: int) -> int:
    return PLACE + ((x + OFFSET) * SPAN + (y + OFFSET)) * 4 * NAMES + rotation * NAMES + name


class CellPlacements(dict[tuple[int, int], tuple[int, ...]]):
    """cell -> the ids of placing there with each of `offsets` (a rotation and a name), sorted,
    each cell worked out the first time it is asked for: listing the legal moves is a hot path,
    and a cell's ids never change."""

    def __init__(self, offsets: tuple[int, ...]) -> None:
        super().__init__()
        self.offsets = tuple(sorted(offsets))

    def __missing__(self, cell: tuple[int, int]) -> tuple[int, ...]:
        base = place_action(cell[0], cell[1], 0, 0)
        moves = self[cell] = tuple(base + offset for offset in self.offsets)
        return moves


def decode_place(action: int) -> tuple[int, int, int, int]:
    """(x, y, rotation, name) of a placement action."""
    cell, rest = divmod(action - PLACE, 4 * NAMES)
    rotation, name = divmod(rest, NAMES)
    x, y = divmod(cell, SPAN)
    return x - OFFSET, y - OFFSET, rotation, name


@dataclass(slots=True)
class Table:
    """The display, the hands, the face-down tiles and the score boards."""

    num_players: int
    cells: dict[tuple[int, int], tuple[int, int]]  # cell -> (tile, rotation)
    frontier: set[tuple[int, int]]  # free cells edge-adjacent to the display
    hands: list[int]  # each seat's hand tile, -1 for none
    hand_step: list[int]  # the move number at which each hand tile was drawn (for resampling)
    pool: list[int]  # tiles nobody has seen: the stacks and the supply, in no order
    stack_left: list[int]  # face-down tiles left in each seat's stack
    supply_left: int  # face-down tiles left in the general supply
    scores: list[list[int]]  # scores[seat][colour], 0..12
    placed_from_stack: list[int]
    extra_taken: list[int]  # extra turns each seat has earned (at most one per colour)
    phase: int = START_SQUARE
    player: int = 0
    extra_pending: int = 0  # extra turns earned by the mover and not yet played
    in_extra: bool = False  # the mover's hand tile came from the supply
    history_len: int = 0  # actions applied so far (mirrors the state's history)
    private_draws: list[tuple[int, int]] = field(default_factory=list)  # (move number, seat)

    def copy(self) -> Table:
        return Table(self.num_players, dict(self.cells), set(self.frontier), self.hands[:],
                     self.hand_step[:], self.pool[:], self.stack_left[:], self.supply_left,
                     [s[:] for s in self.scores], self.placed_from_stack[:], self.extra_taken[:],
                     self.phase, self.player, self.extra_pending, self.in_extra,
                     self.history_len, self.private_draws[:])

    def key(self) -> tuple[object, ...]:
        return (self.num_players, tuple(sorted(self.cells.items())), tuple(self.hands),
                tuple(self.hand_step), tuple(sorted(self.pool)), tuple(self.stack_left),
                self.supply_left, tuple(map(tuple, self.scores)),
                tuple(self.placed_from_stack), tuple(self.extra_taken), self.phase,
                self.player, self.extra_pending, self.in_extra, self.history_len,
                tuple(self.private_draws))
