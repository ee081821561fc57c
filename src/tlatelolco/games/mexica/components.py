"""The pieces in the box (MX-1): calpulli tiles, buildings, canals, bridges, action tokens."""

from __future__ import annotations

SIZES = tuple(range(3, 14))  # calpulli tile sizes
TILE_COUNTS = {3: 2, 4: 2, 5: 2, 6: 2, **{k: 1 for k in range(7, 14)}}  # 15 tiles
PART_ONE_TILES = 8

SINGLE_CANALS = 6
DOUBLE_CANALS = 37
DOUBLES_AT_SET_UP = 2
BRIDGES = 11
ACTION_TOKENS = 12
AP_PER_TURN = 6
TOKENS_PER_TURN = 2
TELEPORT_COST = 5
START_SQUARE_BONUS = 5
MAX_ROUNDS = 40  # per part (ruling: every game ends)

# Buildings by levels 1..4: the whole set, part 1's share and what part 2 adds.
BUILDINGS = (6, 5, 4, 3)
PART_ONE_BUILDINGS = (3, 3, 2, 1)
PART_TWO_BUILDINGS = tuple(a - b for a, b in zip(BUILDINGS, PART_ONE_BUILDINGS, strict=True))


def middle(size: int) -> int:
    """The founder's reward and second place: half the size, rounded up."""
    return (size + 1) // 2


def small(size: int) -> int:
    """What present players get at a founding, and third place: half the middle, rounded up."""
    return (middle(size) + 1) // 2


def place_points(size: int) -> tuple[int, int, int]:
    """Points for first, second and third place in a district (MX-11)."""
    return size, middle(size), small(size)
