"""MX-13: the invariants of Mexica hold at every step of many random games, and the areas,
bridge sites and canal squares kept up to date move by move equal a recount from scratch; after
every action, the calpulli tiles on offer are exactly those a recount finds foundable (MX-10)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tlatelolco
from tlatelolco.chance import sample_chance
from tlatelolco.games.mexica import MexicaState, rules
from tlatelolco.games.mexica.board import (
    COAT_OF_ARMS,
    IS_LAKE,
    IS_ORDINARY,
    NEIGHBOURS,
    NUM_SQUARES,
)
from tlatelolco.games.mexica.city import OVER, City
from tlatelolco.games.mexica.components import (
    ACTION_TOKENS,
    BRIDGES,
    BUILDINGS,
    DOUBLE_CANALS,
    MAX_ROUNDS,
    SINGLE_CANALS,
    SIZES,
    TILE_COUNTS,
)
from tlatelolco.games.mexica.placement import accesses

GAMES_PER_COUNT = 1000  # x 3 player counts, each ~500-1,300 moves
SHARDS = 4  # each count runs as several test cases so that xdist spreads the load
SCAN_EVERY = 10  # moves between square-by-square checks (supplies are checked every move)
RECOUNT_EVERY = 50  # moves between recounts of everything kept incrementally


def partition(city: City) -> dict[frozenset[int], tuple[int, int, int]]:
    """Each area as its set of squares -> (size, tile, free ordinary squares)."""
    members: dict[int, set[int]] = {}
    for square, ident in enumerate(city.area):
        if ident >= 0:
            members.setdefault(ident, set()).add(square)
    return {frozenset(squares): (city.area_size[ident], city.area_tile[ident],
                                 city.area_free[ident])
            for ident, squares in members.items()}


def check_recount(city: City) -> None:
    """Everything `rules` keeps up to date equals what `rules.derive` recomputes."""
    fresh = city.copy()
    rules.derive(fresh)
    assert partition(city) == partition(fresh), "areas (MX-3) match a flood fill"
    for ident, size in enumerate(city.area_size):
        assert size == sum(a == ident for a in city.area), "area sizes count their squares"
    assert city.access == fresh.access
    assert city.occupied == fresh.occupied
    assert city.axes == fresh.axes
    assert city.diggable == fresh.diggable


LAND = tuple(s for s in range(NUM_SQUARES) if not IS_LAKE[s])
LAND_NEIGHBOURS = tuple(tuple(n for n in NEIGHBOURS[s] if not IS_LAKE[n])
                        for s in range(NUM_SQUARES))


def unfoundable_sizes(city: City) -> set[int]:
    """The tile sizes the MX-10 ruling removes, recounted from the board alone: no unfounded
    area has k or more squares, or the canals are gone and no unfounded area of exactly k
    squares has a square for the tile (ordinary land, no building or tile) and another for the
    founder's Mexica (no building or tile, not the coat of arms)."""
    seen = bytearray(NUM_SQUARES)
    biggest, foundable = 0, set()
    canal, building, tile = city.canal, city.building, city.tile
    for start in LAND:
        if seen[start] or canal[start]:
            continue
        seen[start] = 1
        members = [start]
        for square in members:  # a flood fill of the area
            for n in LAND_NEIGHBOURS[square]:
                if not seen[n] and not canal[n]:
                    seen[n] = 1
                    members.append(n)
        if any(tile[s] for s in members):
            continue  # a district
        biggest = max(biggest, len(members))
        for_tile = sum(1 for s in members if IS_ORDINARY[s] and not building[s])
        for_founder = sum(1 for s in members if not building[s] and s != COAT_OF_ARMS)
        if for_tile and for_founder >= 2:
            foundable.add(len(members))
    canals_left = city.singles + city.doubles
    return {k for k in SIZES if biggest < k or (not canals_left and k not in foundable)}


_LAST: list[tuple[bytes, set[int]]] = []  # the board last recounted, and its answer


def unfoundable_sizes_now(city: City) -> set[int]:
    """`unfoundable_sizes`, recounted only when the board changed since the last call: most
    moves (a leader walking, a token spent) leave canals, buildings and tiles as they were."""
    board = (bytes(city.canal) + bytes(city.building) + bytes(city.tile)
             + bytes([min(city.singles + city.doubles, 1)]))
    if not _LAST or _LAST[0][0] != board:
        _LAST[:] = [(board, unfoundable_sizes(city))]
    return _LAST[0][1]


def check_tiles(city: City, removed_before: int, part_before: int) -> None:
    """MX-10 ruling: no tile on offer is unfoundable, and a tile removed by this action (not by
    the end of part 1, which removes the part's leftovers whatever they are) was."""
    grew = len(city.removed) > removed_before and city.part == part_before
    if not any(city.available) and not grew:
        return
    unfoundable = unfoundable_sizes_now(city)
    on_offer = {size for size, n in zip(SIZES, city.available, strict=True) if n}
    assert not on_offer & unfoundable, f"tiles {on_offer & unfoundable} cannot be founded"
    if grew:
        newly = set(city.removed[removed_before:])
        assert newly <= unfoundable, f"tiles {newly - unfoundable} removed but foundable"


def check_supplies(city: City) -> None:
    """The counts of MX-13 that need no scan of the board."""
    assert city.token_supply + sum(city.tokens) == ACTION_TOKENS, "tokens: supply + held = 12"
    assert min(city.tokens) >= 0 and city.token_supply >= 0
    assert 0 <= city.singles <= SINGLE_CANALS and 0 <= city.doubles <= DOUBLE_CANALS
    assert 0 <= city.bridges <= BRIDGES
    assert 1 <= city.round <= MAX_ROUNDS


def check_invariants(city: City, districts: dict[int, frozenset[int]]) -> None:
    n = city.num_players
    canal_squares = sum(city.canal)
    placed_singles, placed_doubles = SINGLE_CANALS - city.singles, DOUBLE_CANALS - city.doubles
    assert canal_squares == placed_singles + 2 * placed_doubles, "canal tiles: board + supply"
    bridges = [s for s in range(NUM_SQUARES) if city.bridge[s]]
    assert len(bridges) + city.bridges == BRIDGES, "bridges: board + supply = 11"
    check_supplies(city)
    built = [[0] * 4 for _ in range(n)]
    for square, value in enumerate(city.building):
        if value:
            built[city.owner_at(square)][city.levels_at(square) - 1] += 1
    for seat in range(n):
        for level in range(4):
            total = built[seat][level] + city.supply[seat][level] + city.reserve[seat][level]
            assert total == BUILDINGS[level], "buildings: built + supply + part 2 = 18"
    for square in bridges:
        assert IS_LAKE[square] or city.canal[square], "a bridge stands on water"
        for end in accesses(square, city.bridge[square]):
            assert not IS_LAKE[end] and not city.canal[end], "dry squares at both ends"
        assert not any(city.bridge[n] for n in NEIGHBOURS[square]), "no joined bridges"
    for square in range(NUM_SQUARES):
        held = (bool(city.building[square]), bool(city.tile[square]), bool(city.canal[square]),
                square in city.mexica and not city.bridge[square])
        assert sum(held) <= 1, "one of building, Mexica, calpulli tile, canal per square"
    assert len(set(s for s in city.mexica if s >= 0)) == len([s for s in city.mexica if s >= 0])
    for ident, tile in enumerate(city.area_tile):
        if tile:
            squares = frozenset(s for s, a in enumerate(city.area) if a == ident)
            assert len(squares) == tile, "a district's size equals its tile"
            assert districts.setdefault(ident, squares) == squares, "districts never change"
    placed = sum(1 for t in city.tile if t)
    assert placed == len(districts), "one district per calpulli tile on the board"
    tiles = placed + sum(city.available) + sum(city.face_down) + len(city.removed)
    assert tiles == sum(TILE_COUNTS.values()), "every calpulli tile is somewhere"


@pytest.mark.parametrize("shard", range(SHARDS))
@pytest.mark.parametrize("num_players", [2, 3, 4])
@settings(max_examples=GAMES_PER_COUNT // SHARDS, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**64 - 1))
def test_mx13_invariants_hold_in_random_games(num_players: int, shard: int, seed: int) -> None:
    rng = random.Random(seed)  # seeded moves: fast, and a failing seed replays
    game = tlatelolco.load("mexica", num_players=num_players)
    state = game.new_initial_state()
    assert isinstance(state, MexicaState)
    districts: dict[int, frozenset[int]] = {}
    scores = [0] * num_players
    moves = 0
    removed, part = 0, 1
    while not state.is_terminal():
        city = state.city
        check_supplies(city)
        check_tiles(city, removed, part)
        removed, part = len(city.removed), city.part
        if moves % SCAN_EVERY == 0:
            check_invariants(city, districts)
        if moves % RECOUNT_EVERY == 0:
            check_recount(city)
        assert all(a >= b for a, b in zip(city.scores, scores, strict=True)), "scores only grow"
        scores = city.scores[:]
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        moves += 1
    city = state.city
    check_tiles(city, removed, part)
    check_invariants(city, districts)
    check_recount(city)
    assert city.phase == OVER and len(city.scorings) == 2, "random play ends after two scorings"
    assert moves <= game.max_game_length()
    assert sum(state.returns()) == pytest.approx(1.0)
