"""Moving the Mexica (MX-7): on foot, onto and off bridges, by water, and teleport.

A Mexica stands on a dry square or on a bridge. Every function here reads a `City` and never
changes it; `rules` decides what a move costs the player and applies it.
"""

from __future__ import annotations

from collections import deque

from tlatelolco.games.mexica.board import (
    COAT_OF_ARMS,
    IS_LAKE,
    NEIGHBOURS,
    NORTH_SOUTH,
    STEPS,
    WEST_EAST,
)
from tlatelolco.games.mexica.city import City

AXIS_OF_DIRECTION = (NORTH_SOUTH, WEST_EAST, NORTH_SOUTH, WEST_EAST)  # N, E, S, W


def is_water(city: City, square: int) -> bool:
    return bool(IS_LAKE[square] or city.canal[square])


def can_stand(city: City, square: int) -> bool:
    """A free dry square a Mexica may enter: not water, not the coat of arms, nothing on it."""
    return not (IS_LAKE[square] or city.canal[square] or city.occupied[square]
                or square == COAT_OF_ARMS)


def free_bridge(city: City, square: int) -> bool:
    return bool(city.bridge[square]) and not city.occupied[square]  # only a Mexica stands on one


def step_target(city: City, at: int, direction: int) -> int:
    """Where one step in `direction` from `at` leads, or -1 if that step is not allowed.

    Land to land onto a free dry square; land onto a free bridge only from one of its accesses
    (along its axis); a bridge only onto one of its accesses.
    """
    target = STEPS[at][direction]
    if target < 0:
        return -1
    axis = AXIS_OF_DIRECTION[direction]
    if city.bridge[at]:
        return target if city.bridge[at] == axis and can_stand(city, target) else -1
    if city.bridge[target]:
        return target if city.bridge[target] == axis and free_bridge(city, target) \
            else -1
    return target if can_stand(city, target) else -1


def boat_costs(city: City, start: int, limit: int) -> dict[int, int]:
    """From the bridge at `start`: every other bridge reachable by water, with its cost in AP
    (one per bridge reached, passed ones included), up to `limit`.

    A 0-1 search: stepping onto a water square is free, onto a bridge costs 1. Occupied bridges
    may be passed but not stopped on; the caller checks that the destination is free.
    """
    canal, bridge = city.canal, city.bridge
    best = {start: 0}
    todo: deque[int] = deque([start])
    found: dict[int, int] = {}
    while todo:
        square = todo.popleft()
        cost = best[square]
        for n in NEIGHBOURS[square]:
            if n in best or not (IS_LAKE[n] or canal[n]):
                continue
            if bridge[n]:
                if cost < limit:
                    best[n] = cost + 1
                    found[n] = cost + 1
                    todo.append(n)
            else:
                best[n] = cost
                todo.appendleft(n)
    return found


def exits(city: City, seat: int) -> list[int]:
    """The squares `seat`'s Mexica could reach with one AP: steps, and bridges one away (the
    first-turn rule of MX-7 forbids taking the last of them from a rival)."""
    at = city.mexica[seat]
    out = [t for d in range(4) if (t := step_target(city, at, d)) >= 0]
    if city.bridge[at]:
        out += [s for s in boat_costs(city, at, 1) if free_bridge(city, s)]
    return out
