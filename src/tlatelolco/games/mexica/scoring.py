"""The two scorings (MX-11): ranking the builders of each district and area."""

from __future__ import annotations

from itertools import compress

from tlatelolco.games.mexica.board import STARTING
from tlatelolco.games.mexica.city import City
from tlatelolco.games.mexica.components import START_SQUARE_BONUS, place_points


def ranked_points(levels: list[int], prizes: tuple[int, int, int]) -> list[int]:
    """Points for each seat from its building levels in one district.

    A seat's place is the number of seats with more levels, so tied seats share the place they
    tie for and use up the places they fill: two tied for first both get the first prize and the
    next seat the third. Seats without buildings there score nothing.
    """
    return [prizes[place] if mine and (place := sum(o > mine for o in levels)) < 3 else 0
            for mine in levels]


def levels_by_area(city: City) -> dict[int, list[int]]:
    """Each area's building levels per seat (areas without buildings are left out)."""
    totals: dict[int, list[int]] = {}
    building, area = city.building, city.area
    for square in compress(range(len(building)), building):  # the built squares only
        value = building[square]
        seat_levels = totals.setdefault(area[square], [0] * city.num_players)
        seat_levels[(value - 1) // 4] += (value - 1) % 4 + 1
    return totals


def scoring(city: City) -> list[int]:
    """What each seat scores now: every district; at the second scoring also every unfounded
    area as if it held a tile of its size; and 5 for a Mexica on a starting square."""
    points = [0] * city.num_players
    for ident, levels in levels_by_area(city).items():
        tile = city.area_tile[ident]
        if tile or city.part == 2:
            prizes = place_points(tile or city.area_size[ident])
            for seat, won in enumerate(ranked_points(levels, prizes)):
                points[seat] += won
    for seat, square in enumerate(city.mexica):
        if square in STARTING:
            points[seat] += START_SQUARE_BONUS
    return points
