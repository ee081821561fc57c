"""Where the Mexica greedy bot can go and what it can cut off: cheapest routes for a Mexica
(steps, boat trips, bridges it would place), and regions of exactly a tile's size grown around a
square, with the canal tiles that would cover their border. Pure functions over `City`."""

from __future__ import annotations

import heapq

from tlatelolco.games.mexica.actions import (
    BOAT,
    CANAL,
    WALK,
    bridge_action,
    double_action,
)
from tlatelolco.games.mexica.board import (
    IS_LAKE,
    IS_ORDINARY,
    NEIGHBOURS,
    STEPS,
)
from tlatelolco.games.mexica.city import City
from tlatelolco.games.mexica.movement import AXIS_OF_DIRECTION, boat_costs, can_stand, step_target

Plan = tuple[int, ...]


# --- routes -----------------------------------------------------------------------------------

def routes(city: City, seat: int, limit: int) -> tuple[dict[int, int], dict[int, tuple[int, Plan]]]:
    """Cheapest ways (in AP, up to `limit`) for the seat's Mexica to every square it can reach:
    steps, boat trips, and bridges it would place itself (1 AP for the bridge, 2 for the steps
    over it). Returns the cost of each square and how it was reached."""
    start = city.mexica[seat]
    dist = {start: 0}
    prev: dict[int, tuple[int, Plan]] = {}
    heap = [(0, start)]
    bridge, occupied = city.bridge, city.occupied
    while heap:
        cost, square = heapq.heappop(heap)
        if cost > dist[square]:
            continue
        room = limit - cost
        if room <= 0:
            continue
        moves: list[tuple[int, int, Plan]] = []
        for d in range(4):
            target = step_target(city, square, d)
            if target >= 0:
                moves.append((target, 1, (WALK + d,)))
        if bridge[square]:
            moves += [(b, c, (BOAT + b,)) for b, c in boat_costs(city, square, room).items()
                      if not occupied[b]]
        elif city.bridges and room >= 3:
            for d in range(4):
                water = STEPS[square][d]
                if water < 0 or not city.canal[water] or bridge[water] or occupied[water]:
                    continue
                axis = AXIS_OF_DIRECTION[d]
                if not city.axes[water] & axis or any(bridge[n] for n in NEIGHBOURS[water]):
                    continue
                target = STEPS[water][d]
                if target >= 0 and can_stand(city, target):
                    moves.append((target, 3, (bridge_action(water, axis), WALK + d, WALK + d)))
        for target, step, actions in moves:
            total = cost + step
            if total <= limit and total < dist.get(target, limit + 1):
                dist[target] = total
                prev[target] = (square, actions)
                heapq.heappush(heap, (total, target))
    return dist, prev


def route_to(prev: dict[int, tuple[int, Plan]], square: int) -> Plan:
    steps: list[Plan] = []
    while square in prev:
        square, actions = prev[square]
        steps.append(actions)
    return tuple(a for actions in reversed(steps) for a in actions)


LAKE_SIDES = tuple(4 - sum(1 for n in NEIGHBOURS[s] if not IS_LAKE[n])
                   for s in range(len(IS_LAKE)))


def edge_table(city: City) -> list[int]:
    """How many of each square's four sides face water or the board's edge."""
    edges = list(LAKE_SIDES)
    for square, dug in enumerate(city.canal):
        if dug:
            for n in NEIGHBOURS[square]:
                edges[n] += 1
    return edges


# --- cutting regions --------------------------------------------------------------------------

def diggable(city: City, square: int, mover_at: int) -> bool:
    """Whether a canal may cover the square once the mover's Mexica has walked off it."""
    if square == mover_at:
        return bool(IS_ORDINARY[square] and not city.access[square]
                    and not city.building[square] and not city.tile[square])
    return bool(city.diggable[square])


def grow(city: City, edges: list[int], seed: int, ident: int, sizes: set[int], mover_at: int,
         forbid_rivals: int = -1) -> dict[int, tuple[frozenset[int], tuple[int, ...]]]:
    """Grow a connected region of the area from `seed`, each time adding the border square that
    keeps the border shortest (squares no canal may cover are taken in first, so that they end
    inside); at each size in `sizes` whose border can all be dug, the region and its border.

    With `forbid_rivals` = a seat, buildings of the other seats are never taken in (the region
    must leave them outside, across its canals).
    """
    area, building = city.area, city.building
    if not sizes:
        return {}
    biggest = max(sizes)
    region = {seed}
    border: set[int] = {n for n in NEIGHBOURS[seed] if area[n] == ident}
    dig = {s: diggable(city, s, mover_at) for s in border}
    blocked = sum(not dig[s] for s in border)
    found: dict[int, tuple[frozenset[int], tuple[int, ...]]] = {}

    def rival(square: int) -> bool:
        value = building[square]
        return forbid_rivals >= 0 and bool(value) and (value - 1) // 4 != forbid_rivals

    while len(region) < biggest and border:
        best_key: tuple[int, int, int] | None = None
        best = -1
        for square in border:
            if rival(square):
                continue
            new = 0
            new_blocked = 0
            for n in NEIGHBOURS[square]:
                if area[n] == ident and n not in region and n not in border:
                    new += 1
                    if n not in dig:
                        dig[n] = diggable(city, n, mover_at)
                    new_blocked += not dig[n]
            change = new - 1 + 4 * (new_blocked - (not dig[square]))
            key = (change, -edges[square], square)
            if best_key is None or key < best_key:
                best_key, best = key, square
        if best < 0:
            break
        region.add(best)
        border.discard(best)
        blocked -= not dig[best]
        for n in NEIGHBOURS[best]:
            if area[n] == ident and n not in region and n not in border:
                border.add(n)
                blocked += not dig[n]
        if len(region) in sizes and not blocked:
            found[len(region)] = (frozenset(region), tuple(sorted(border)))
    return found


def cover(city: City, region: frozenset[int], border: tuple[int, ...], ident: int,
          mover_at: int) -> Plan | None:
    """Canal tiles covering the border (doubles first, pairing squares with the fewest
    partners first), within the supply; None if they cannot."""
    left = set(border)
    degree = {s: sum(n in left for n in NEIGHBOURS[s]) for s in border}
    doubles, singles = city.doubles, city.singles
    tiles: list[int] = []

    def take(square: int) -> None:
        left.discard(square)
        for n in NEIGHBOURS[square]:
            if n in left:
                degree[n] -= 1

    while left:
        square = min(left, key=lambda s: (degree[s], s))
        take(square)
        partners = [n for n in NEIGHBOURS[square] if n in left]
        if partners and doubles:
            partner = min(partners, key=lambda s: (degree[s], s))
            take(partner)
            tiles.append(double_action(square, partner))
            doubles -= 1
        elif singles:
            tiles.append(CANAL + square)
            singles -= 1
        elif doubles:  # a double reaching beyond the border, outside the region
            outside = [n for n in NEIGHBOURS[square] if city.area[n] == ident
                       and n not in region and n not in border and diggable(city, n, mover_at)]
            if not outside:
                return None
            tiles.append(double_action(square, outside[0]))
            doubles -= 1
        else:
            return None
    return tuple(tiles)
