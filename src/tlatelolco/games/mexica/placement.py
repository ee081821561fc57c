"""Where pieces may go: canals (MX-5), bridges (MX-6), buildings (MX-8), calpulli tiles (MX-9).

Each `why_not_*` returns None when the placement is allowed, else the reason in words; the
action's cost and whose turn it is are checked by `rules`.
"""

from __future__ import annotations

from tlatelolco.games.mexica.board import (
    IS_LAKE,
    IS_ORDINARY,
    IS_PALACE,
    NAMES,
    NORTH_SOUTH,
    ORDINARY,
    STEPS,
    WEST_EAST,
)
from tlatelolco.games.mexica.city import City

AXIS_ENDS = {NORTH_SOUTH: (0, 2), WEST_EAST: (1, 3)}  # direction indices of the two accesses


def is_dry(city: City, square: int) -> bool:
    return square >= 0 and not IS_LAKE[square] and not city.canal[square]


def why_not_canal(city: City, square: int) -> str | None:
    """MX-5: only free ordinary land outside founded districts and off bridge ends."""
    name = NAMES[square]
    if IS_LAKE[square]:
        return f"{name} is lake"
    if city.canal[square]:
        return f"{name} already holds a canal"
    if IS_PALACE[square]:
        return f"{name} is a palace square"
    taken = what_stands_on(city, square)
    if taken:
        return taken
    if city.access[square]:
        return f"{name} is the end of a bridge"
    if city.area_tile[city.area[square]]:
        return f"{name} is in a founded district"
    return None


def refresh_diggable(city: City, square: int) -> None:
    """Recompute `city.diggable` for `square` after something on or around it changed."""
    city.diggable[square] = why_not_canal(city, square) is None


def bridge_axes(city: City, square: int, lifted: int = -1) -> tuple[int, ...]:
    """MX-6: the axes a bridge could take on `square` (none if it may not go there at all);
    `lifted` is a bridge being moved, which no longer counts as a neighbour."""
    if not city.canal[square] or city.bridge[square] or city.occupied[square]:
        return ()
    steps = STEPS[square]
    if any(n >= 0 and n != lifted and city.bridge[n] for n in steps):
        return ()
    return dry_axes(city, square)


AXES_OF_MASK = ((), (NORTH_SOUTH,), (WEST_EAST,), (NORTH_SOUTH, WEST_EAST))
# Squares that may hold a bridge once a canal covers them, in order: bridges go only on canal
# tiles, never on the lake (MX-6), and canals only on ordinary land (MX-5).
SITES = ORDINARY


def dry_axes(city: City, square: int) -> tuple[int, ...]:
    """The axes along which both neighbours of the canal square `square` are dry land."""
    return AXES_OF_MASK[city.axes[square]]


def update_axes(city: City, square: int) -> None:
    """Recompute `city.axes` for `square` (after it or a neighbour turned to water)."""
    mask = 0
    if city.canal[square]:
        steps = STEPS[square]
        for axis, (a, b) in AXIS_ENDS.items():
            if is_dry(city, steps[a]) and is_dry(city, steps[b]):
                mask |= axis
    city.axes[square] = mask


def why_not_bridge(city: City, square: int, axis: int, lifted: int = -1) -> str | None:
    """MX-6: "Los Puentes sólo pueden ser colocados en fichas de Canal", never on the lake."""
    name = NAMES[square]
    if IS_LAKE[square]:
        return f"{name} is lake; bridges go only on canal tiles"
    if not city.canal[square]:
        return f"{name} is dry land; bridges go only on canal tiles"
    if city.bridge[square] and square != lifted:
        return f"{name} already holds a bridge"
    steps = STEPS[square]
    if any(n >= 0 and n != lifted and city.bridge[n] for n in steps):
        return f"{name} is next to another bridge (bridges may not be joined)"
    a, b = AXIS_ENDS[axis]
    if not (is_dry(city, steps[a]) and is_dry(city, steps[b])):
        ends = "north and south" if axis == NORTH_SOUTH else "west and east"
        return f"the squares {ends} of {name} are not both dry land"
    return None


def accesses(square: int, axis: int) -> tuple[int, int]:
    a, b = AXIS_ENDS[axis]
    return STEPS[square][a], STEPS[square][b]


def why_not_building_square(city: City, seat: int, square: int) -> str | None:
    """MX-8 (and the square of MX-9): free ordinary land in the area of `seat`'s Mexica."""
    name = NAMES[square]
    at = city.mexica[seat]
    if city.bridge[at]:
        return "your Mexica stands on a bridge, which is in no area"
    if not IS_ORDINARY[square] or city.canal[square]:
        what = "a palace square" if IS_PALACE[square] else "water"
        return f"{name} is {what}, not ordinary land"
    if city.area[square] != city.area[at]:
        return f"{name} is not in your Mexica's area"
    return what_stands_on(city, square)


def what_stands_on(city: City, square: int) -> str | None:
    """Why a land square is not free: the building, calpulli tile or Mexica on it."""
    name = NAMES[square]
    if city.building[square]:
        return f"{name} holds a building"
    if city.tile[square]:
        return f"{name} holds a calpulli tile"
    if city.occupied[square]:
        return f"a Mexica stands on {name}"
    return None


def foundable_size(city: City, seat: int) -> int:
    """The size of the unfounded area `seat`'s Mexica stands in, or 0 (on a bridge, or the area
    is already a district)."""
    at = city.mexica[seat]
    if at < 0 or city.bridge[at]:
        return 0
    ident = city.area[at]
    return 0 if city.area_tile[ident] else city.area_size[ident]
