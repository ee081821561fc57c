"""Areas (MX-3), kept up to date as canals cover land, without re-flooding the island.

An area is a maximal orthogonally connected set of dry squares. Canals are the only thing that
changes areas, and they only ever remove squares, so an area can shrink or split but never grow
or merge. Covering squares takes them out of their area; the area can only have split if the
dry squares around them are no longer connected. That is first checked in a small window around
the new canal (the usual case: still connected, nothing more to do); otherwise searches grow
from every side at once, and each side that runs out of squares is a new area. The work is
bounded by the sizes of the parts cut off, never by the whole island.
"""

from __future__ import annotations

from collections import deque

from tlatelolco.games.mexica.board import (
    IS_LAKE,
    IS_ORDINARY,
    NEIGHBOURS,
    NUM_SQUARES,
    STARTING,
    WIDTH,
)
from tlatelolco.games.mexica.city import City


def label_all(city: City) -> None:
    """Label every area from scratch (set-up and hand-built positions only)."""
    city.area = [-1] * NUM_SQUARES
    city.area_size, city.area_tile, city.area_free = [], [], []
    for square in range(NUM_SQUARES):
        if city.area[square] >= 0 or not is_dry(city, square):
            continue
        ident = len(city.area_size)
        members = _flood(city, square, ident)
        tiles = {city.tile[s] for s in members if city.tile[s]}
        city.area_size.append(len(members))
        city.area_tile.append(max(tiles) if tiles else 0)
        city.area_free.append(sum(_open(city, s) for s in members))


def is_dry(city: City, square: int) -> bool:
    return not IS_LAKE[square] and not city.canal[square]


def _open(city: City, square: int) -> bool:
    """Ordinary land that could still take a calpulli tile (a Mexica may step off it)."""
    return bool(IS_ORDINARY[square] and not city.building[square] and not city.tile[square])


def room_for_tile(city: City, ident: int) -> bool:
    """Whether the area `ident` could be founded as it is (MX-9, MX-10 ruling): a free ordinary
    square for the tile and another square for the founder's Mexica, who must be in the area
    and cannot stand under the tile. The founder may stand on free ordinary land or a starting
    square (squares other Mexica stand on included: they can step off), never on a building.

    `area_free` counts the ordinary squares without building or tile; starting squares never
    hold either, so only they need counting here.
    """
    free = city.area_free[ident]
    if free >= 2:
        return True
    area = city.area
    return free == 1 and any(area[s] == ident for s in STARTING)


def _flood(city: City, start: int, ident: int) -> list[int]:
    area = city.area
    area[start] = ident
    members = [start]
    for square in members:  # the list grows while it is walked: a breadth-first search
        for n in NEIGHBOURS[square]:
            if area[n] == -1 and is_dry(city, n):
                area[n] = ident
                members.append(n)
    return members


def cover(city: City, squares: tuple[int, ...]) -> None:
    """Canal tiles now cover `squares` (dry, ordinary, one unfounded area): update the areas."""
    area = city.area
    ident = area[squares[0]]
    for square in squares:
        area[square] = -1
        city.area_size[ident] -= 1
        city.area_free[ident] -= _open(city, square)
    sides = sorted({n for s in squares for n in NEIGHBOURS[s] if area[n] == ident})
    if len(sides) > 1 and not _connected_nearby(area, ident, squares, sides):
        _split(city, ident, sides)


def _connected_nearby(area: list[int], ident: int, squares: tuple[int, ...],
                      sides: list[int]) -> bool:
    """Whether `sides` are connected within a small box around the covered squares."""
    rows = [s // WIDTH for s in squares]
    columns = [s % WIDTH for s in squares]
    top, bottom = (min(rows) - 2) * WIDTH, (max(rows) + 2) * WIDTH + WIDTH - 1
    left, right = min(columns) - 2, max(columns) + 2
    missing = set(sides[1:])
    seen = {sides[0]}
    todo = [sides[0]]
    for square in todo:
        for n in NEIGHBOURS[square]:
            if n not in seen and area[n] == ident and top <= n <= bottom \
                    and left <= n % WIDTH <= right:
                missing.discard(n)
                if not missing:
                    return True
                seen.add(n)
                todo.append(n)
    return False


def _split(city: City, ident: int, sides: list[int]) -> None:
    """Grow a search from each side in turn; searches that meet merge, and a search that runs
    dry has found a whole new area. The last search still growing keeps the old id."""
    area = city.area
    owner: dict[int, int] = {s: i for i, s in enumerate(sides)}
    parent = list(range(len(sides)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    frontier = {i: deque([s]) for i, s in enumerate(sides)}
    members = {i: [s] for i, s in enumerate(sides)}
    while len(frontier) > 1:
        for i in list(frontier):
            if i not in frontier or len(frontier) == 1:
                continue
            queue = frontier[i]
            if not queue:  # this side is closed off: a new area
                del frontier[i]
                _new_area(city, ident, members.pop(i))
                continue
            square = queue.popleft()
            for n in NEIGHBOURS[square]:
                if area[n] != ident:
                    continue
                j = owner.get(n)
                if j is None:
                    owner[n] = i
                    queue.append(n)
                    members[i].append(n)
                elif (j := root(j)) != i:  # two searches met: one side after all
                    parent[j] = i
                    queue.extend(frontier.pop(j))
                    members[i].extend(members.pop(j))


def _new_area(city: City, old: int, squares: list[int]) -> None:
    ident = len(city.area_size)
    for square in squares:
        city.area[square] = ident
    free = sum(_open(city, s) for s in squares)
    city.area_size.append(len(squares))
    city.area_tile.append(0)
    city.area_free.append(free)
    city.area_size[old] -= len(squares)
    city.area_free[old] -= free
