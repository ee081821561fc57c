"""Where pieces may go: canals (MX-5), bridges (MX-6), buildings (MX-8), calpulli tiles (MX-9).

Each `why_not_*` returns None when the placement is allowed, else the reason as a `Reason`
(English text that the web page can also show in Spanish); the action's cost and whose turn it
is are checked by `rules`.
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
from tlatelolco.i18n import N_, Reason, Term, reason

AXIS_ENDS = {NORTH_SOUTH: (0, 2), WEST_EAST: (1, 3)}  # direction indices of the two accesses
AXIS_END_WORDS = {NORTH_SOUTH: N_("north and south"), WEST_EAST: N_("west and east")}
# Ruling (MX-7): a Mexica on a bridge is in no area, so it can neither build nor found there.
ON_A_BRIDGE = reason(N_("your Mexica stands on a bridge, which is in no area"))


def is_dry(city: City, square: int) -> bool:
    return square >= 0 and not IS_LAKE[square] and not city.canal[square]


def why_not_canal(city: City, square: int) -> Reason | None:
    """MX-5: only free ordinary land outside founded districts and off bridge ends."""
    name = NAMES[square]
    if IS_LAKE[square]:
        return reason(N_("{square} is lake"), square=name)
    if city.canal[square]:
        return reason(N_("{square} already holds a canal"), square=name)
    if IS_PALACE[square]:
        return reason(N_("{square} is a palace square"), square=name)
    taken = what_stands_on(city, square)
    if taken:
        return taken
    if city.access[square]:
        return reason(N_("{square} is the end of a bridge"), square=name)
    if city.area_tile[city.area[square]]:
        return reason(N_("{square} is in a founded district"), square=name)
    return None


def can_dig(city: City, square: int) -> bool:
    """`why_not_canal(...) is None` without building the reason: set-up and every move ask it
    of many squares, most of them not diggable (the lake)."""
    return not (IS_LAKE[square] or city.canal[square] or IS_PALACE[square]
                or city.building[square] or city.tile[square] or city.occupied[square]
                or city.access[square] or city.area_tile[city.area[square]])


def refresh_diggable(city: City, square: int) -> None:
    """Recompute `city.diggable` for `square` after something on or around it changed."""
    city.diggable[square] = can_dig(city, square)


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


def why_not_bridge(city: City, square: int, axis: int, lifted: int = -1) -> Reason | None:
    """MX-6: "Los Puentes sólo pueden ser colocados en fichas de Canal", never on the lake."""
    name = NAMES[square]
    if IS_LAKE[square]:
        return reason(N_("{square} is lake; bridges go only on canal tiles"), square=name)
    if not city.canal[square]:
        return reason(N_("{square} is dry land; bridges go only on canal tiles"), square=name)
    if city.bridge[square] and square != lifted:
        return reason(N_("{square} already holds a bridge"), square=name)
    steps = STEPS[square]
    if any(n >= 0 and n != lifted and city.bridge[n] for n in steps):
        return reason(N_("{square} is next to another bridge (bridges may not be joined)"),
                      square=name)
    a, b = AXIS_ENDS[axis]
    if not (is_dry(city, steps[a]) and is_dry(city, steps[b])):
        return reason(N_("the squares {ends} of {square} are not both dry land"),
                      ends=Term(AXIS_END_WORDS[axis]), square=name)
    return None


def accesses(square: int, axis: int) -> tuple[int, int]:
    a, b = AXIS_ENDS[axis]
    return STEPS[square][a], STEPS[square][b]


def why_not_building_square(city: City, seat: int, square: int) -> Reason | None:
    """MX-8 (and the square of MX-9): free ordinary land in the area of `seat`'s Mexica."""
    name = NAMES[square]
    at = city.mexica[seat]
    if city.bridge[at]:
        return ON_A_BRIDGE
    if not IS_ORDINARY[square] or city.canal[square]:
        what = N_("a palace square") if IS_PALACE[square] else N_("water")
        return reason(N_("{square} is {what}, not ordinary land"), square=name, what=Term(what))
    if city.area[square] != city.area[at]:
        return reason(N_("{square} is not in your Mexica's area"), square=name)
    return what_stands_on(city, square)


def what_stands_on(city: City, square: int) -> Reason | None:
    """Why a land square is not free: the building, calpulli tile or Mexica on it."""
    name = NAMES[square]
    if city.building[square]:
        return reason(N_("{square} holds a building"), square=name)
    if city.tile[square]:
        return reason(N_("{square} holds a calpulli tile"), square=name)
    if city.occupied[square]:
        return reason(N_("a Mexica stands on {square}"), square=name)
    return None


def foundable_size(city: City, seat: int) -> int:
    """The size of the unfounded area `seat`'s Mexica stands in, or 0 (on a bridge, or the area
    is already a district)."""
    at = city.mexica[seat]
    if at < 0 or city.bridge[at]:
        return 0
    ident = city.area[at]
    return 0 if city.area_tile[ident] else city.area_size[ident]
