"""The printed island (MX-1): terrain, square names and neighbours, read once from package data.

Squares are numbered row by row from the north-west corner: square = row * WIDTH + column. The
name is the column letter and the 1-based row, so the coat of arms at column 8, row 7 is `I8`.
Everything here is fixed for the whole game; what changes lives in `City`.
"""

from __future__ import annotations

from importlib import resources

WIDTH = 23
HEIGHT = 16
NUM_SQUARES = WIDTH * HEIGHT
COLUMNS = "ABCDEFGHIJKLMNOPQRSTUVW"

# Terrain as printed
LAKE, LAND, START, ARMS, STARTED_CANAL = "~", ".", "S", "X", "C"

# Directions, in the order of the notation `walk N|E|S|W`
DIRECTIONS = "NESW"
STEP = (-WIDTH, 1, WIDTH, -1)
NORTH_SOUTH, WEST_EAST = 1, 2  # a bridge's axis (0: no bridge)
AXIS_NAMES = {NORTH_SOUTH: "N-S", WEST_EAST: "W-E"}


def _read() -> tuple[str, ...]:
    text = (resources.files("tlatelolco.games.mexica") / "data" / "mexica_board.txt").read_text(
        encoding="utf-8")
    rows = tuple(line for line in text.splitlines() if line and not line.startswith("#"))
    if len(rows) != HEIGHT or any(len(r) != WIDTH for r in rows):
        raise ValueError(f"the Mexica board must be {WIDTH}x{HEIGHT} squares")
    return rows


ROWS = _read()
TERRAIN = "".join(ROWS)


def square_name(square: int) -> str:
    row, column = divmod(square, WIDTH)
    return f"{COLUMNS[column]}{row + 1}"


def parse_square(text: str) -> int | None:
    """The square named `text` (`I8`, case-insensitive), or None when there is no such square."""
    text = text.strip().upper()
    if len(text) < 2 or text[0] not in COLUMNS or not text[1:].isdigit():
        return None
    row = int(text[1:]) - 1
    return row * WIDTH + COLUMNS.index(text[0]) if 0 <= row < HEIGHT else None


def neighbour(square: int, direction: int) -> int:
    """The square one step in `direction` (index into DIRECTIONS), or -1 beyond the grid."""
    row, column = divmod(square, WIDTH)
    if direction == 0:
        return square - WIDTH if row > 0 else -1
    if direction == 1:
        return square + 1 if column < WIDTH - 1 else -1
    if direction == 2:
        return square + WIDTH if row < HEIGHT - 1 else -1
    return square - 1 if column > 0 else -1


NAMES = tuple(square_name(s) for s in range(NUM_SQUARES))
NEIGHBOURS = tuple(tuple(n for d in range(4) if (n := neighbour(s, d)) >= 0)
                   for s in range(NUM_SQUARES))
# STEPS[s][d]: the neighbour in direction d, or -1
STEPS = tuple(tuple(neighbour(s, d) for d in range(4)) for s in range(NUM_SQUARES))

IS_LAKE = bytes(TERRAIN[s] == LAKE for s in range(NUM_SQUARES))
IS_PALACE = bytes(TERRAIN[s] in (START, ARMS) for s in range(NUM_SQUARES))
# Ordinary land takes canals, buildings and calpulli tiles; the started canal is ordinary land
# that set-up covers.
IS_ORDINARY = bytes(TERRAIN[s] in (LAND, STARTED_CANAL) for s in range(NUM_SQUARES))
ORDINARY = tuple(s for s in range(NUM_SQUARES) if IS_ORDINARY[s])
LAND_SQUARES = tuple(s for s in range(NUM_SQUARES) if not IS_LAKE[s])
STARTING = tuple(s for s in range(NUM_SQUARES) if TERRAIN[s] == START)
COAT_OF_ARMS = TERRAIN.index(ARMS)
STARTED = tuple(s for s in range(NUM_SQUARES) if TERRAIN[s] == STARTED_CANAL)
# Pairs for double canal tiles: (first, second, 0 east | 1 south), first the north-west one.
PAIRS = tuple((s, STEPS[s][d], k) for s in ORDINARY for k, d in ((0, 1), (1, 2))
              if STEPS[s][d] >= 0 and IS_ORDINARY[STEPS[s][d]])
