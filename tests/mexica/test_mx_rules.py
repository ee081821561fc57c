"""One test (or more) per rule and ruling of the Mexica digest, named by its id."""

from __future__ import annotations

import random

import pytest
from tests.mexica.positions import (
    COAST,
    CORNER_3,
    CORNER_3_CANALS,
    CORNER_5,
    CORNER_5_CANALS,
    ELEVEN,
    ELEVEN_CANALS,
    NS,
    PALACE_RING,
    WE,
    act,
    area_of,
    names,
    partition,
    play,
    position,
    scored_city,
    sq,
    state_at,
)

import tlatelolco
from tlatelolco import CHANCE, TERMINAL, IllegalActionError
from tlatelolco.games.mexica import areas, movement, rules, scoring
from tlatelolco.games.mexica.actions import (
    DRAW,
    END,
    K_BRIDGE,
    K_CANAL,
    K_DOUBLE,
    K_MOVE_BRIDGE,
    START,
    TOKEN,
    bridge_action,
    decode,
    double_action,
    move_bridge_action,
)
from tlatelolco.games.mexica.board import (
    COAT_OF_ARMS,
    HEIGHT,
    IS_LAKE,
    IS_ORDINARY,
    IS_PALACE,
    NAMES,
    NEIGHBOURS,
    NUM_SQUARES,
    ORDINARY,
    STARTED,
    STARTING,
    STEPS,
    TERRAIN,
    WIDTH,
)
from tlatelolco.games.mexica.city import DRAWING, OVER, PLACING, PLAYING, City
from tlatelolco.games.mexica.components import (
    ACTION_TOKENS,
    BRIDGES,
    BUILDINGS,
    DOUBLE_CANALS,
    MAX_ROUNDS,
    PART_ONE_BUILDINGS,
    PART_ONE_TILES,
    PART_TWO_BUILDINGS,
    SINGLE_CANALS,
    SIZES,
    TILE_COUNTS,
    middle,
    place_points,
    small,
)
from tlatelolco.games.mexica.game import max_game_length


def new_state(num_players: int = 2) -> tlatelolco.State:
    return tlatelolco.load("mexica", num_players=num_players).new_initial_state()


def to_playing(state: tlatelolco.State, sizes: tuple[int, ...] = (3, 4, 5, 6, 7, 8, 9, 10),
               starts: tuple[str, ...] = ("I7", "H8", "J8", "I9")) -> None:
    """Draw `sizes` for part 1 and put the Mexica on `starts` in seat order."""
    for size in sizes:
        state.apply_action(DRAW + size - SIZES[0])
    for name in starts[:state.get_game().num_players()]:
        state.apply_action(START + sq(name))


def reason(state: tlatelolco.State, text: str) -> str:
    """Why the action `text` names is illegal now (it must be)."""
    why = state.illegal_reason(act(state, text))
    assert why is not None, f"{text} is legal"
    return why


def legal(state: tlatelolco.State, text: str) -> bool:
    return state.illegal_reason(act(state, text)) is None


def legal_texts(state: tlatelolco.State) -> set[str]:
    return set(state.legal_action_strings())


def random_game(num_players: int, seed: int, check: object = None) -> tlatelolco.State:
    """Random play to the end, ending a turn only now and then so that things happen."""
    state = new_state(num_players)
    rng = random.Random(seed)
    while not state.is_terminal():
        actions = state.legal_actions()
        action = rng.choice(actions)
        if action == END and len(actions) > 1 and rng.random() < 0.85:
            action = rng.choice(actions[1:])
        state.apply_action(action)
        if callable(check):
            check(state)
    return state


# --- MX-1 components ----------------------------------------------------------------------------


def test_mx1_board_terrain() -> None:
    """MX-1: 23x16 squares; 187 ordinary land, 5 palace and 4 started-canal squares."""
    assert (WIDTH, HEIGHT, NUM_SQUARES) == (23, 16, 368)
    assert TERRAIN.count(".") == 187 and TERRAIN.count("C") == 4
    assert sum(IS_PALACE) == 5 and TERRAIN.count("S") == 4 and TERRAIN.count("X") == 1
    assert len(ORDINARY) == 187 + 4
    assert NAMES[COAT_OF_ARMS] == "I8"
    assert names(STARTING) == {"I7", "H8", "J8", "I9"}
    assert set(STARTING) == set(NEIGHBOURS[COAT_OF_ARMS])  # the palace: arms and around it
    assert names(STARTED) == {"P7", "P8", "P9", "P10"}


def test_mx1_canals_bridges_and_tokens() -> None:
    """MX-1: 43 canal tiles (6 single, 37 double), 11 bridges, 12 action tokens."""
    assert (SINGLE_CANALS, DOUBLE_CANALS, BRIDGES, ACTION_TOKENS) == (6, 37, 11, 12)
    c = rules.set_up(4)
    assert c.bridges == 11 and c.token_supply == 12 and c.tokens == [0, 0, 0, 0]


@pytest.mark.parametrize(("size", "numbers"), [
    (3, (3, 2, 1)), (4, (4, 2, 1)), (5, (5, 3, 2)), (6, (6, 3, 2)), (7, (7, 4, 2)),
    (8, (8, 4, 2)), (9, (9, 5, 3)), (10, (10, 5, 3)), (11, (11, 6, 3)), (12, (12, 6, 3)),
    (13, (13, 7, 4))])
def test_mx1_calpulli_big_middle_small(size: int, numbers: tuple[int, int, int]) -> None:
    """MX-1: big = size, middle = ceil(size/2), small = ceil(middle/2), as in the table."""
    assert place_points(size) == numbers
    assert (size, middle(size), small(size)) == numbers


def test_mx1_fifteen_calpulli_tiles() -> None:
    """MX-1: two each of sizes 3 to 6, one each of 7 to 13."""
    assert tuple(range(3, 14)) == SIZES
    assert TILE_COUNTS == {3: 2, 4: 2, 5: 2, 6: 2, 7: 1, 8: 1, 9: 1, 10: 1, 11: 1, 12: 1, 13: 1}
    assert sum(TILE_COUNTS.values()) == 15
    c = rules.set_up(2)
    assert c.face_down == [TILE_COUNTS[k] for k in SIZES] and not any(c.available)


def test_mx1_eighteen_buildings_split_between_the_parts() -> None:
    """MX-1: 6x1, 5x2, 4x3, 3x4 levels; part 1 uses 3x1, 3x2, 2x3, 1x4, part 2 adds the
    other 9 (3x1, 2x2, 2x3, 2x4)."""
    assert BUILDINGS == (6, 5, 4, 3) and sum(BUILDINGS) == 18
    assert PART_ONE_BUILDINGS == (3, 3, 2, 1) and sum(PART_ONE_BUILDINGS) == 9
    assert PART_TWO_BUILDINGS == (3, 2, 2, 2) and sum(PART_TWO_BUILDINGS) == 9
    c = rules.set_up(3)
    assert c.supply == [[3, 3, 2, 1]] * 3 and c.reserve == [[3, 2, 2, 2]] * 3


def test_mx1_two_to_four_players_default_four() -> None:
    """MX-1: option num_players, 2 to 4, default 4; one Mexica per player."""
    assert tlatelolco.load("mexica").num_players() == 4
    for n in (2, 3, 4):
        state = new_state(n)
        assert state.city.mexica == [-1] * n  # type: ignore[attr-defined]
    for bad in (1, 5):
        with pytest.raises(ValueError, match="num_players"):
            tlatelolco.load("mexica", num_players=bad)


# --- MX-2 set-up --------------------------------------------------------------------------------


def test_mx2_started_canal_covered_by_two_vertical_doubles() -> None:
    """MX-2: P7-P8 and P9-P10 are canal at the start; the supply keeps 6 singles, 35 doubles."""
    c = new_state(4).city  # type: ignore[attr-defined]
    assert names(s for s in range(NUM_SQUARES) if c.canal[s]) == {"P7", "P8", "P9", "P10"}
    assert (c.singles, c.doubles) == (6, 35)
    assert c.phase == DRAWING


def test_mx2_eight_chance_draws_with_the_right_probabilities() -> None:
    """MX-2: 8 tiles drawn for part 1, each size in proportion to the tiles left face down."""
    state = new_state(2)
    assert state.is_chance_node() and state.current_player() == CHANCE
    assert "being drawn" in state.illegal_reason(END)  # type: ignore[operator]
    odds = dict(state.chance_outcomes())
    assert odds == pytest.approx({DRAW + k - 3: TILE_COUNTS[k] / 15 for k in SIZES})
    for drawn, size in enumerate((13, 3, 3, 4, 5, 6, 7), start=1):
        state.apply_action(DRAW + size - 3)
        odds = dict(state.chance_outcomes())
        assert sum(odds.values()) == pytest.approx(1.0)
        left = 15 - drawn
        assert all(p == pytest.approx(n / left) for p, n in zip(
            odds.values(), [n for n in state.city.face_down if n], strict=True))  # type: ignore[attr-defined]
    assert DRAW + 13 - 3 not in odds and DRAW + 0 not in odds  # no 13 nor 3 left
    assert odds[DRAW + 4 - 3] == pytest.approx(1 / 8)
    assert "no tile of size 3 is face down" in state.illegal_reason(DRAW)  # type: ignore[operator]
    state.apply_action(DRAW + 8 - 3)  # the 8th draw
    c = state.city  # type: ignore[attr-defined]
    assert not state.is_chance_node() and c.phase == PLACING and state.current_player() == 0
    assert c.available == [2, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1]
    assert sum(c.face_down) == 15 - PART_ONE_TILES
    assert "no calpulli tile is being drawn" in state.illegal_reason(DRAW + 1)  # type: ignore[operator]


def test_mx2_mexica_placed_start_player_first_then_clockwise() -> None:
    """MX-2: seat 0 places first, then each other seat in order, on a free starting square."""
    state = new_state(4)
    to_playing(state, starts=())
    c = state.city  # type: ignore[attr-defined]
    seats = []
    for name in ("J8", "I7", "I9", "H8"):
        assert sorted(state.legal_actions()) == sorted(
            START + s for s in STARTING if s not in c.mexica)
        seats.append(state.current_player())
        play(state, f"start at {name}")
    assert seats == [0, 1, 2, 3]
    assert names(c.mexica) == {"J8", "I7", "I9", "H8"} and c.mexica[0] == sq("J8")
    assert c.phase == PLAYING and state.current_player() == 0 and c.ap == 6


def test_mx2_one_mexica_per_starting_square() -> None:
    """MX-2: at most one Mexica per starting square, and only on starting squares."""
    state = new_state(3)
    to_playing(state, starts=("I7",))
    assert "already stands on I7" in reason(state, "start at I7")
    assert "not a starting square" in reason(state, "start at K5")
    assert "not a starting square" in reason(state, "start at I8")  # the coat of arms
    assert "first puts their Mexica" in state.illegal_reason(END)  # type: ignore[operator]
    play(state, "start at H8", "start at J8")
    assert "already on the board" in reason(state, "start at I9")


# --- MX-3 geometry ------------------------------------------------------------------------------


def test_mx3_whole_island_is_one_area_of_192_squares() -> None:
    """MX-3: at the start every dry square (land and palace, not the started canal) is one
    unfounded area."""
    c = rules.set_up(2)
    assert len(partition(c)) == 1
    (island,) = partition(c)
    assert len(island) == 192 == c.area_size[c.area[COAT_OF_ARMS]]
    assert island == {s for s in range(NUM_SQUARES) if not IS_LAKE[s] and s not in STARTED}
    assert c.area_tile == [0]


def test_mx3_canals_split_areas() -> None:
    """MX-3: covering C3 leaves C2 on its own: a new area of 1 square."""
    state = state_at(position(2))
    c = state.city
    play(state, "canal C3")
    assert area_of(c, "C2") == {"C2"}
    assert c.area_size[c.area[sq("C2")]] == 1
    assert len(area_of(c, "D3")) == 192 - 2
    play(state, "canal E3-E4", "canal C5-D5", "canal B4")
    assert area_of(c, "C4") == {"D3", "C4", "D4"}  # C2 alone, C3 canal
    assert area_of(c, "B5") == {"B5"}  # lake west and south, canals north and east
    assert len(partition(c)) == 4


def test_mx3_canals_touching_at_corners_still_separate() -> None:
    """MX-3: canals at D3 and C4 touch only at a corner; C3 touches D4 only at a corner too,
    so C2 and C3 are an area of their own."""
    c = position(2, canals=("D3", "C4"))
    assert area_of(c, "C3") == {"C2", "C3"}
    assert "D4" in area_of(c, "E5")
    state = state_at(position(2, canals=("D3",)))
    play(state, "canal C4")
    assert area_of(state.city, "C3") == {"C2", "C3"}


def test_mx3_area_size_counts_palace_and_occupied_squares() -> None:
    """MX-3: the size counts every dry square: palace squares (coat of arms included) and
    squares with a building, a Mexica or a calpulli tile."""
    c = position(2, canals=PALACE_RING, mexica=("I7", "K5"))
    assert area_of(c, "I8") == {"I7", "H8", "I8", "J8", "I9"}
    assert c.area_size[c.area[COAT_OF_ARMS]] == 5
    c = position(3, canals=CORNER_5_CANALS, mexica=("C3", "K5", "K6"),
                 buildings={"C2": (1, 2)}, tiles={"D4": 5})
    assert area_of(c, "C2") == CORNER_5
    assert c.area_size[c.area[sq("C2")]] == 5 and c.area_tile[c.area[sq("C2")]] == 5
    assert c.area_free[c.area[sq("C2")]] == 3  # C3 (the Mexica may leave), D3, C4


def test_mx3_bridges_never_count() -> None:
    """MX-3: a bridge stands on water: it joins no areas and adds nothing to a size."""
    state = state_at(position(2, canals=CORNER_3_CANALS))
    c = state.city
    before = partition(c)
    play(state, "bridge C4")  # C3 and C5 are its ends: one in each area
    assert c.bridge[sq("C4")] == NS
    assert partition(c) == before
    assert area_of(c, "C3") == CORNER_3 and c.area_size[c.area[sq("C3")]] == 3
    assert c.area_size[c.area[sq("C5")]] == 192 - 3 - 3 and c.area[sq("C4")] == -1


def test_mx3_incremental_areas_equal_a_fresh_relabel() -> None:
    """MX-3: areas kept up to date canal by canal equal a from-scratch labelling (as
    partitions of the dry squares, ids ignored), with the same sizes and free squares, over
    many random canal placements (some between buildings) until the island is cut to bits."""
    land = [NAMES[s] for s in ORDINARY if s not in STARTED]
    for seed in range(10):
        rng = random.Random(seed)
        built = {name: (rng.randrange(2), rng.randint(1, 4)) for name in rng.sample(land, 20)}
        c = position(2, mexica=("I7", "H8"), singles=400, doubles=400, buildings=built)
        state = state_at(c)
        placed = 0
        while True:
            canals = [a for a in state.legal_actions() if decode(a)[0] in (K_CANAL, K_DOUBLE)]
            if not canals:
                break
            state.apply_action(rng.choice(canals))
            placed += 1
            c.ap = 6
            fresh = c.copy()
            areas.label_all(fresh)
            assert partition(c) == partition(fresh), (seed, placed)
            for square in range(NUM_SQUARES):
                if c.area[square] >= 0:
                    assert c.area_size[c.area[square]] == fresh.area_size[fresh.area[square]]
                    assert c.area_free[c.area[square]] == fresh.area_free[fresh.area[square]]
        assert placed > 60 and len(partition(c)) > 10


# --- MX-4 a turn --------------------------------------------------------------------------------


def test_mx4_six_action_points_each_turn() -> None:
    """MX-4: every turn starts with 6 AP."""
    state = new_state(3)
    to_playing(state)
    c = state.city  # type: ignore[attr-defined]
    for seat in (0, 1, 2, 0):
        assert state.current_player() == seat and c.ap == 6 and c.taken == 0
        play(state, "end")


def test_mx4_unused_action_points_are_lost() -> None:
    """MX-4: AP left at the end of a turn are not carried over."""
    state = state_at(position(2))
    c = state.city
    play(state, "canal K5")
    assert c.ap == 5
    play(state, "end")
    assert state.current_player() == 1 and c.ap == 6
    play(state, "end")
    assert state.current_player() == 0 and c.ap == 6


def test_mx4_actions_in_any_order_and_repeated() -> None:
    """MX-4: actions may be repeated and mixed until the AP run out."""
    state = state_at(position(2, mexica=("K5", "I7")))
    play(state, "canal C3", "walk E", "canal D3", "walk W", "canal E3", "build 1 at K6")
    c = state.city
    assert c.ap == 0 and c.mexica[0] == sq("K5") and c.singles == 3
    assert state.legal_actions() == [END]  # nothing free is possible


def test_mx4_take_a_token_costs_one_ap_at_most_two_per_turn() -> None:
    """MX-4: taking an action token costs 1 AP; at most 2 per turn."""
    state = state_at(position(2))
    c = state.city
    play(state, "token", "token")
    assert (c.ap, c.tokens[0], c.token_supply, c.taken) == (4, 2, 10, 2)
    assert "at most 2 action tokens" in reason(state, "token")
    assert TOKEN not in state.legal_actions()
    play(state, "end")
    play(state, "token")  # the limit is per turn
    assert c.tokens == [2, 1]


def test_mx4_no_token_from_an_empty_supply() -> None:
    """MX-4: no token can be taken when the supply is empty."""
    state = state_at(position(2, token_supply=0, tokens=[7, 5]))
    assert "supply of action tokens is empty" in reason(state, "take token")
    assert TOKEN not in state.legal_actions()


def test_mx4_token_is_paid_with_an_ap_not_a_token() -> None:
    """MX-4: with no AP left a token cannot be taken, even by spending another token."""
    state = state_at(position(2, ap=0, tokens=[3, 0], token_supply=9))
    assert "costs an AP (not a token)" in reason(state, "token")
    assert TOKEN not in state.legal_actions()


def test_mx4_tokens_are_spent_implicitly() -> None:
    """MX-4: an action costing more than the AP left spends saved tokens for the rest; they go
    back to the supply."""
    state = state_at(position(2, mexica=("K5", "I7"), ap=1, tokens=[3, 0], token_supply=9))
    c = state.city
    play(state, "build 3 at K6")
    assert (c.ap, c.tokens[0], c.token_supply) == (0, 1, 11)
    play(state, "canal C3")  # AP gone: a token pays
    assert (c.ap, c.tokens[0], c.token_supply) == (0, 0, 12)
    assert "costs 1 AP and you have 0 AP and 0 action tokens" in reason(state, "canal D3")


def test_mx4_unaffordable_action_is_illegal() -> None:
    """MX-4: AP plus tokens must cover the cost."""
    state = state_at(position(2, mexica=("K5", "I7"), ap=4))
    assert "costs 5 AP" in reason(state, "teleport C3")
    assert not any(state.action_to_dict(a)["kind"] == "teleport" for a in state.legal_actions())
    state = state_at(position(2, mexica=("K5", "I7"), ap=4, tokens=[1, 0], token_supply=11))
    assert legal(state, "teleport C3")


def test_mx4_explicit_end_even_with_nothing_done() -> None:
    """MX-4 ruling: the turn ends only by the explicit end action, which is always legal,
    also before doing anything."""
    state = state_at(position(3))
    assert END in state.legal_actions() and legal(state, "end turn")
    play(state, "end")
    assert state.current_player() == 1
    state = state_at(position(3, ap=0))
    assert state.current_player() == 0 and END in state.legal_actions()  # no AP: still on


# --- MX-5 canals --------------------------------------------------------------------------------


def test_mx5_canal_anywhere_on_free_land() -> None:
    """MX-5: a canal may go on free ordinary land anywhere; the Mexica need not be near."""
    state = state_at(position(2, mexica=("I7", "H8")))
    c = state.city
    play(state, "canal C2", "canal V9-V8")
    assert c.canal[sq("C2")] and c.canal[sq("V8")] and c.canal[sq("V9")]
    assert (c.singles, c.doubles, c.ap) == (5, 34, 4)


def test_mx5_canal_may_not_cover_palace() -> None:
    """MX-5: not on a palace square: starting squares and the coat of arms."""
    state = state_at(position(2, mexica=("K5", "K6")))
    assert "I7 is a palace square" in reason(state, "canal I7")
    assert "I8 is a palace square" in reason(state, "canal I8")
    assert "I7 is a palace square" in reason(state, "canal I6-I7")  # half on the palace
    assert not {sq("I7"), sq("H8"), sq("I8"), sq("J8"), sq("I9")} & _canal_squares(state)


def test_mx5_canal_may_not_cover_building() -> None:
    """MX-5: not on a square holding a building."""
    state = state_at(position(2, buildings={"K5": (1, 2)}))
    assert "K5 holds a building" in reason(state, "canal K5")
    assert "K5 holds a building" in reason(state, "canal K4-K5")


def test_mx5_canal_may_not_cover_mexica() -> None:
    """MX-5: not on a square where a Mexica stands (one's own or a rival)."""
    state = state_at(position(2, mexica=("K5", "K7")))
    assert "a Mexica stands on K5" in reason(state, "canal K5")
    assert "a Mexica stands on K7" in reason(state, "canal K6-K7")


def test_mx5_canal_may_not_cover_calpulli_tile() -> None:
    """MX-5: not on a calpulli tile (the district is founded, too)."""
    state = state_at(position(2, canals=CORNER_3_CANALS, tiles={"C2": 3}))
    assert "C2 holds a calpulli tile" in reason(state, "canal C2")


def test_mx5_canal_may_not_cover_bridge_canal_or_lake() -> None:
    """MX-5: not on a bridge (it stands on water), a canal or the lake."""
    state = state_at(position(2, canals=("K5",), bridges={"K5": WE}))
    assert "K5 already holds a canal" in reason(state, "canal K5")
    assert "P7 already holds a canal" in reason(state, "canal P7")
    assert "T7 is lake" in reason(state, "canal T7")
    assert "A1 is lake" in reason(state, "canal A1")


def test_mx5_canal_may_not_enter_founded_district() -> None:
    """MX-5: no square of a founded district may be covered, free or not."""
    state = state_at(position(2, canals=CORNER_5_CANALS, tiles={"C2": 5}, mexica=("C3", "K5")))
    for name in ("D3", "C4", "D4"):
        assert f"{name} is in a founded district" in reason(state, f"canal {name}")
    assert "founded district" in reason(state, "canal C4-D4")
    assert not any(NAMES[s] in CORNER_5 for s in _canal_squares(state))


def _canal_squares(state: tlatelolco.State) -> set[int]:
    """Every square some legal canal tile would cover."""
    out = set()
    for action in state.legal_actions():
        kind, a, b, _ = decode(action)
        if kind == K_CANAL:
            out.add(a)
        elif kind == K_DOUBLE:
            out |= {a, b}
    return out


def test_mx5_canal_may_not_cover_bridge_end() -> None:
    """MX-5: not on the land square at either end of a bridge (its accesses)."""
    state = state_at(position(2, canals=("K5",), bridges={"K5": WE}))
    assert "J5 is the end of a bridge" in reason(state, "canal J5")
    assert "L5 is the end of a bridge" in reason(state, "canal L5-M5")
    assert legal(state, "canal K4") and legal(state, "canal K6")  # not ends of a W-E bridge
    assert not {sq("J5"), sq("L5")} & _canal_squares(state)


def test_mx5_legal_canals_are_exactly_the_allowed_squares() -> None:
    """MX-5: the legal single canals are the squares every exception allows."""
    c = position(3, mexica=("K5", "I7", "C3"), canals=("M5",), bridges={"M5": NS},
                 buildings={"D6": (0, 1)}, tiles={"C2": 3}, available=(4,))
    state = state_at(c)
    singles = {decode(a)[1] for a in state.legal_actions()
               if state.action_to_dict(a)["kind"] == "canal"}
    expected = {s for s in ORDINARY if not c.canal[s] and not c.building[s] and not c.tile[s]
                and s not in c.mexica and NAMES[s] not in ("M4", "M6")
                and not c.area_tile[c.area[s]]}
    assert singles == expected


def test_mx5_double_needs_two_adjacent_allowed_squares() -> None:
    """MX-5: a double tile covers two orthogonally adjacent squares, both allowed."""
    state = state_at(position(2, mexica=("K5", "I7")))
    assert legal(state, "canal K6-K7") and legal(state, "canal K7-K6")
    assert act(state, "canal K6-K7") == act(state, "canal K7-K6")
    assert "a Mexica stands on K5" in reason(state, "canal K4-K5")
    assert "J8 is a palace square" in reason(state, "canal J7-J8")
    assert "D2 is lake" in reason(state, "canal C2-D2")
    assert state.parse_action("canal k6-l7") is None  # diagonal: not a double tile
    assert state.parse_action("canal k6-k8") is None
    with pytest.raises(IllegalActionError, match="not a move of Mexica"):
        state.string_to_action("canal K6-L7")


def test_mx5_double_half_on_palace_or_lake_names_the_square_regression() -> None:
    """MX-5, regression (bug: a double tile with one half on the palace or the lake was refused
    as "I6 and its neighbour are not two land squares side by side", which is wrong for the
    palace, land beside I6): the reason now names the square that may not be covered."""
    state = state_at(position(2, mexica=("K5", "K6")))
    assert reason(state, "canal I6-I7") == "I7 is a palace square"
    assert reason(state, "canal H8-G8") == "H8 is a palace square"
    assert reason(state, "canal U10-V10") == "V10 is lake"
    with pytest.raises(IllegalActionError, match="'canal I6-I7' is not legal now: I7 is a palace"):
        state.string_to_action("canal I6-I7")
    assert "not two land squares side by side" in state.illegal_reason(  # type: ignore[operator]
        double_action(sq("W5"), sq("W5") + 1))  # W5 and A6 are not neighbours


def test_mx5_canal_supply_runs_out() -> None:
    """MX-5: canal tiles come from the supply; when a kind is used up it cannot be placed."""
    state = state_at(position(2, singles=1, doubles=0))
    assert "no double canal tile is left" in reason(state, "canal K6-K7")
    play(state, "canal K6")
    assert "no single canal tile is left" in reason(state, "canal K7")
    assert not _canal_squares(state)


def test_mx5_canals_may_split_areas_with_buildings() -> None:
    """MX-5: canals may split or shrink an unfounded area, even one with buildings."""
    state = state_at(position(2, canals=("E3", "C4"), buildings={"C3": (0, 2), "D3": (1, 1)}))
    c = state.city
    assert "D4" in area_of(c, "C3") and len(area_of(c, "C3")) == 192 - 2
    play(state, "canal D4")
    assert area_of(c, "C3") == {"C2", "C3", "D3"}
    assert scoring.levels_by_area(c)[c.area[sq("C3")]] == [2, 1]


# --- MX-6 bridges -------------------------------------------------------------------------------


def test_mx6_two_dry_ends_fix_the_axis() -> None:
    """MX-6: a bridge goes on water whose two opposite neighbours are dry; they fix its axis
    and are its accesses."""
    state = state_at(position(2, canals=("K5", "K6")))
    c = state.city
    assert "north and south of K5 are not both dry" in reason(state, "bridge K5 N-S")
    assert "bridge K5" in legal_texts(state)  # one axis only: notation leaves it out
    assert "bridge K5 W-E" not in legal_texts(state) and legal(state, "bridge K5 W-E")
    play(state, "bridge K5")
    assert c.bridge[sq("K5")] == WE and c.bridges == 10 and c.ap == 5
    assert c.access[sq("J5")] == c.access[sq("L5")] == 1 and not c.access[sq("K4")]


def test_mx6_bridges_only_on_canals_never_on_the_lake() -> None:
    """MX-6: "Los Puentes sólo pueden ser colocados en fichas de Canal". No lake square takes a
    bridge on either axis, not even T7 and C10, whose two ends are land; nor does dry land. A
    canal square does, the started canal's included."""
    state = state_at(position(2, canals=("K5",)))
    lake = [s for s in range(NUM_SQUARES) if IS_LAKE[s]]
    for square in lake:
        for axis in (NS, WE):
            why = state.illegal_reason(bridge_action(square, axis))
            assert why == f"{NAMES[square]} is lake; bridges go only on canal tiles", why
    assert "K6 is dry land; bridges go only on canal tiles" in reason(state, "bridge K6")
    assert "I7 is dry land" in reason(state, "bridge I7")  # a starting square
    placed = {decode(a)[1] for a in state.legal_actions() if decode(a)[0] == K_BRIDGE}
    assert placed and all(state.city.canal[s] for s in placed)
    assert names(placed) >= {"K5", "P7", "P10"} and "T7" not in names(placed)
    assert legal(state, "bridge K5 N-S") and legal(state, "bridge P10")


def test_mx6_a_moved_bridge_never_goes_on_the_lake() -> None:
    """MX-6: moving a bridge follows the same rule: onto a canal square, never the lake."""
    state = state_at(position(2, canals=(*ELEVEN_CANALS, "K9"), bridges=ELEVEN))
    assert state.city.bridges == 0
    for target in ("T7", "C10", "A1", "W8"):
        for axis in (NS, WE):
            action = move_bridge_action(sq("E4"), sq(target), axis)
            assert state.illegal_reason(action) == \
                f"{target} is lake; bridges go only on canal tiles"
    moves = [a for a in state.legal_actions() if decode(a)[0] == K_MOVE_BRIDGE]
    assert moves and all(state.city.canal[decode(a)[2]] for a in moves)
    assert not any(IS_LAKE[decode(a)[2]] for a in moves)
    play(state, "move bridge E4 to K9 N-S")
    assert state.city.bridge[sq("K9")] == NS


def test_mx6_both_axes_when_both_are_possible() -> None:
    """MX-6: a single canal with land all around takes a bridge either way; notation then
    names the axis."""
    state = state_at(position(2, canals=("K5",)))
    assert {"bridge K5 N-S", "bridge K5 W-E"} <= legal_texts(state)
    play(state, "bridge K5 N-S")
    c = state.city
    assert c.bridge[sq("K5")] == NS and c.access[sq("K4")] and c.access[sq("K6")]


def test_mx6_bridges_never_joined() -> None:
    """MX-6: no bridge orthogonally next to another."""
    state = state_at(position(2, canals=("K5", "K6", "K7")))
    play(state, "bridge K5")
    assert "next to another bridge" in reason(state, "bridge K6")
    assert "bridge K6" not in legal_texts(state)
    play(state, "bridge K7")  # K6 lies between: not joined


def test_mx6_not_on_a_bridge_or_a_mexica() -> None:
    """MX-6: not on a square with a bridge, or with a Mexica (who stands on a bridge)."""
    state = state_at(position(2, canals=("K5",), bridges={"K5": WE}, mexica=("K5", "I7")))
    assert "already holds a bridge" in reason(state, "bridge K5")


def test_mx6_move_a_bridge_only_when_all_eleven_are_out() -> None:
    """MX-6: while bridges remain in the supply none may be moved; after that a bridge is
    moved (1 AP) instead of placed."""
    few = dict(list(ELEVEN.items())[:10])
    state = state_at(position(2, canals=ELEVEN_CANALS, bridges=few))
    assert state.city.bridges == 1
    assert "only when all 11" in reason(state, "move bridge E4 to P8")
    play(state, "bridge P8")
    c = state.city
    assert c.bridges == 0 and sum(map(bool, c.bridge)) == 11
    assert "all 11 bridges are on the board" in reason(state, "bridge O12")
    assert "dry land" in reason(state, "move bridge E4 to O9")
    play(state, "move bridge E4 to P10")
    assert c.bridge[sq("P10")] == WE and not c.bridge[sq("E4")] and c.bridges == 0
    assert c.ap == 4  # 1 AP to place the last bridge, 1 to move one


def test_mx6_no_move_while_a_mexica_stands_on_it() -> None:
    """MX-6: a bridge with a Mexica on it stays."""
    state = state_at(position(2, canals=ELEVEN_CANALS, bridges=ELEVEN, mexica=("E4", "I7")))
    assert "a Mexica stands on the bridge on E4" in reason(state, "move bridge E4 to P8")
    assert not any(t.startswith("move bridge E4") for t in legal_texts(state))
    assert any(t.startswith("move bridge H4") for t in legal_texts(state))


def test_mx6_moved_bridge_may_go_next_to_its_old_square() -> None:
    """MX-6: a bridge being moved is no longer a neighbour, so it may land beside where it
    stood."""
    state = state_at(position(2, canals=(*ELEVEN_CANALS, "K5"), bridges=ELEVEN))
    assert "move bridge K4 to K5" in legal_texts(state)
    assert "next to another bridge" in reason(state, "move bridge H4 to K5")
    play(state, "move bridge K4 to K5")
    c = state.city
    assert c.bridge[sq("K5")] == WE and not c.bridge[sq("K4")] and c.ap == 5
    assert c.access[sq("J5")] and not c.access[sq("J4")]
    assert legal(state, "canal J4")  # no longer a bridge end


def test_mx6_bridge_ends_may_be_built_on() -> None:
    """MX-6: the accesses of a bridge may take buildings, tiles or a Mexica; the bridge is
    then blocked on that side."""
    state = state_at(position(2, canals=("K5",), bridges={"K5": WE}, mexica=("J6", "I7")))
    play(state, "build 2 at L5")  # the east end
    c = state.city
    assert c.building[sq("L5")] == 2 and c.access[sq("L5")] == 1
    play(state, "walk N", "walk E")  # onto the bridge from its west end
    assert c.mexica[0] == sq("K5")
    assert "cannot step E from K5" in reason(state, "walk E")
    play(state, "end")
    play(state, "teleport J5")  # seat 1 on the west end: seat 0 is stuck on the bridge
    assert not movement.exits(c, 0)


# --- MX-7 moving the Mexica ---------------------------------------------------------------------


def test_mx7_walk_onto_free_dry_squares() -> None:
    """MX-7: 1 AP per orthogonal step onto a free dry square."""
    state = state_at(position(2, mexica=("K5", "I7")))
    play(state, "walk N", "walk E", "walk S", "walk S")
    c = state.city
    assert c.mexica[0] == sq("L6") and c.ap == 2
    assert not c.occupied[sq("K5")] and c.occupied[sq("L6")]
    state = state_at(position(2, mexica=("C2", "I7")))
    assert "cannot step N from C2" in reason(state, "walk N")  # lake
    assert {t for t in legal_texts(state) if t.startswith("walk")} == {"walk S"}


def test_mx7_obstacles_cannot_be_entered_or_jumped() -> None:
    """MX-7: rival Mexica, buildings, calpulli tiles and water stop a step."""
    c = position(2, mexica=("K5", "K4"), canals=("K6",), buildings={"L5": (0, 1)},
                 tiles={"J5": 9})
    state = state_at(c)
    for direction in "NESW":
        assert "cannot step" in reason(state, f"walk {direction}")
    assert not any(t.startswith("walk") for t in legal_texts(state))


def test_mx7_coat_of_arms_never_entered_starting_squares_can() -> None:
    """MX-7: nobody enters the coat of arms, not even by teleport; starting squares are fine."""
    state = state_at(position(2, mexica=("I7", "H7")))
    assert "cannot step S from I7" in reason(state, "walk S")
    assert "I8 is not a free land square" in reason(state, "teleport I8")
    assert COAT_OF_ARMS not in {decode(a)[1] for a in state.legal_actions()
                                if state.action_to_dict(a)["kind"] == "teleport"}
    play(state, "walk N", "end")
    play(state, "walk E")  # seat 1 onto the starting square I7
    assert state.city.mexica[1] == sq("I7")


def test_mx7_onto_and_off_bridges_only_along_the_axis() -> None:
    """MX-7: onto a free bridge only from an access, off it only onto an access (1 AP each)."""
    state = state_at(position(2, canals=("K5",), bridges={"K5": WE}, mexica=("J5", "I7")))
    play(state, "walk E")
    c = state.city
    assert c.mexica[0] == sq("K5") and c.ap == 5
    assert "cannot step N from K5" in reason(state, "walk N")  # K4 is free, but off the axis
    assert "cannot step S from K5" in reason(state, "walk S")
    play(state, "walk E")
    assert c.mexica[0] == sq("L5") and c.ap == 4
    play(state, "walk N", "walk W")
    assert "cannot step S from K4" in reason(state, "walk S")  # onto the bridge across its axis
    state = state_at(position(2, canals=("K5",), bridges={"K5": WE}, mexica=("J5", "K5")))
    assert "cannot step E from J5" in reason(state, "walk E")  # the bridge is not free


def test_mx7_no_bridge_no_way_across_water() -> None:
    """MX-7: land to water only over a bridge."""
    state = state_at(position(2, canals=("K5",), mexica=("J5", "I7")))
    assert "cannot step E from J5" in reason(state, "walk E")


def test_mx7_boat_costs_one_ap_per_bridge_reached() -> None:
    """MX-7: by water from bridge to bridge, 1 AP per bridge reached; occupied bridges may be
    passed but not stopped on."""
    canal = tuple(f"K{r}" for r in range(3, 11))
    bridges = {"K4": WE, "K6": WE, "K8": WE}
    state = state_at(position(2, canals=canal, bridges=bridges, mexica=("K4", "I7")))
    assert {t for t in legal_texts(state) if t.startswith("boat")} == {"boat to K6", "boat to K8"}
    play(state, "boat to K8")
    assert state.city.ap == 4 and state.city.mexica[0] == sq("K8")
    state = state_at(position(2, canals=canal, bridges=bridges, mexica=("K4", "K6")))
    assert "a Mexica stands on the bridge on K6" in reason(state, "boat to K6")
    play(state, "boat to K8")  # passing the rival on K6 costs its AP all the same
    assert state.city.ap == 4
    state = state_at(position(2, canals=canal, bridges=bridges, mexica=("K4", "I7"), ap=1))
    assert "costs 2 AP" in reason(state, "boat to K8")
    assert {t for t in legal_texts(state) if t.startswith("boat")} == {"boat to K6"}


def test_mx7_boat_across_the_lake() -> None:
    """MX-7: the lake is one body of water: the bridges on the coast canals V8 (the lake to its
    east) and D10 (the lake to its west), on opposite shores, are one bridge apart."""
    state = state_at(position(2, canals=COAST, bridges=dict.fromkeys(COAST, NS),
                              mexica=("V8", "I7")))
    play(state, "boat to D10")
    assert state.city.mexica[0] == sq("D10") and state.city.ap == 5


def test_mx7_boat_only_from_a_bridge() -> None:
    """MX-7: travel by water starts on a bridge."""
    coast = {"canals": COAST, "bridges": dict.fromkeys(COAST, NS)}
    state = state_at(position(2, mexica=("V7", "I7"), **coast))  # type: ignore[arg-type]
    assert "must stand on a bridge" in reason(state, "boat to D10")
    state = state_at(position(2, mexica=("V8", "I7"), **coast))  # type: ignore[arg-type]
    assert "K5 holds no other bridge" in reason(state, "boat to K5")
    assert "V8 holds no other bridge" in reason(state, "boat to V8")
    assert "T7 holds no other bridge" in reason(state, "boat to T7")  # the lake: never a bridge


def test_mx7_canals_touching_at_corners_are_not_connected() -> None:
    """MX-7: water connects orthogonally only: K5 and L6 touch at a corner."""
    state = state_at(position(2, canals=("K5", "L6"), bridges={"K5": WE, "L6": NS},
                              mexica=("K5", "I7")))
    assert "no water way leads from K5 to L6" in reason(state, "boat to L6")
    play(state, "canal K6", "boat to L6")
    assert state.city.mexica[0] == sq("L6") and state.city.ap == 4


def test_mx7_teleport_costs_five_to_any_free_square_or_bridge() -> None:
    """MX-7: 5 AP to any free dry square (not the coat of arms) or free bridge, whatever lies
    between."""
    c = position(2, mexica=("K5", "V8"), canals=("K6", *COAST),
                 buildings={"L5": (0, 1), "K4": (1, 1)}, tiles={"J5": 9},
                 bridges=dict.fromkeys(COAST, NS))
    state = state_at(c)
    assert "D10" in {NAMES[decode(a)[1]] for a in state.legal_actions()
                     if state.action_to_dict(a)["kind"] == "teleport"}
    assert "V8 is not a free" in reason(state, "teleport V8")  # a rival on that bridge
    assert "L5 is not a free" in reason(state, "teleport L5")  # a building
    assert "J5 is not a free" in reason(state, "teleport J5")  # a calpulli tile
    assert "K6 is not a free" in reason(state, "teleport K6")  # a canal without a bridge
    assert "A1 is not a free" in reason(state, "teleport A1")  # the lake
    play(state, "teleport C2")
    assert c.mexica[0] == sq("C2") and c.ap == 1
    state = state_at(position(2, mexica=("K5", "I7"), canals=("V8",), bridges={"V8": NS}))
    play(state, "teleport V8")
    assert state.city.mexica[0] == sq("V8") and state.city.ap == 1


def test_mx7_mexica_on_a_bridge_is_in_no_area() -> None:
    """MX-7 ruling: a Mexica on a bridge cannot build or found, and is not present in an area
    at a founding."""
    common = {"canals": CORNER_3_CANALS, "bridges": {"E3": WE}, "available": (3,)}
    state = state_at(position(2, mexica=("E3", "C3"), **common))  # type: ignore[arg-type]
    c = state.city
    assert c.area[sq("E3")] == -1
    assert "stands on a bridge" in reason(state, "build 1 at D3")
    assert "stands on a bridge" in reason(state, "found 3 at D3")
    assert not any(t.startswith(("build", "found")) for t in legal_texts(state))
    play(state, "end")
    play(state, "found 3 at C2")
    assert c.scores == [0, 2]  # the founder scores the middle number; the bridge is nowhere
    state = state_at(position(2, mexica=("D3", "C3"), player=1, **common))  # type: ignore[arg-type]
    play(state, "found 3 at C2")
    assert state.city.scores == [1, 2]  # on the access D3, seat 0 is present


FENCED = {"mexica": ("I5", "I7"), "buildings": {"H7": (1, 1), "J7": (1, 1)}}


def test_mx7_first_turn_may_not_block_a_rival() -> None:
    """MX-7: in a player's first turn no action may leave a rival Mexica with no square to
    step onto: the rival on I7 can only step to I6."""
    state = state_at(position(2, first_turn=True, **FENCED))  # type: ignore[arg-type]
    texts = legal_texts(state)
    for text in ("build 1 at I6", "canal I6", "canal I6-J6", "canal H6-I6", "walk S",
                 "teleport I6"):
        assert "may not leave a rival Mexica with nowhere to step" in reason(state, text), text
        assert text not in texts
    assert {"canal J6", "build 1 at H6", "walk N"} <= texts
    with pytest.raises(IllegalActionError, match="first turn"):
        play(state, "build 2 at I6")


def test_mx7_first_turn_may_not_block_a_rival_on_a_bridge() -> None:
    """MX-7: a rival on the bridge K4, both ends built on, can only go by water to K8: in the
    first turn nothing may take K8 away, but moving it to K6 (still 1 AP away) is fine."""
    canals = (*(c for c in ELEVEN_CANALS if c != "L7"), *(f"K{r}" for r in range(3, 11)))
    bridges = {**{k: v for k, v in ELEVEN.items() if k != "L7"}, "K8": WE}
    state = state_at(position(2, first_turn=True, canals=canals, bridges=bridges,
                              mexica=("J8", "K4"), buildings={"J4": (0, 1), "L4": (0, 1)}))
    assert state.city.bridges == 0 and movement.exits(state.city, 1) == [sq("K8")]
    for text in ("walk E", "teleport K8", "move bridge K8 to P8"):
        assert "first turn" in reason(state, text), text
    assert legal(state, "move bridge K8 to K6") and legal(state, "move bridge H4 to K6")
    play(state, "end", "end")
    play(state, "walk E")  # the second turn: allowed
    assert not movement.exits(state.city, 1)


def test_mx7_first_turn_rule_only_guards_a_last_way_out() -> None:
    """MX-7 ruling: nothing is forbidden when the rival is already stuck, and a player may wall
    in their own Mexica."""
    stuck = {"mexica": ("I5", "I7"), "canals": ("I6",),
             "buildings": {"H7": (1, 1), "J7": (1, 1)}}
    state = state_at(position(2, first_turn=True, **stuck))  # type: ignore[arg-type]
    assert not movement.exits(state.city, 1)
    assert legal(state, "canal H6") and legal(state, "build 1 at H6")
    state = state_at(position(2, first_turn=True, mexica=("I7", "K5")))
    play(state, "build 1 at H7", "build 1 at J7", "canal I6")  # seat 0 walls itself in
    assert not movement.exits(state.city, 0)
    play(state, "end")
    assert legal(state, "build 1 at K6")  # seat 1's first turn: seat 0 is stuck already


def test_mx7_blocking_is_allowed_after_the_first_turn() -> None:
    """MX-7: the restriction ends with the player's first turn."""
    state = state_at(position(2, first_turn=True, **FENCED))  # type: ignore[arg-type]
    play(state, "end", "end")
    assert state.city.turns == [1, 1]
    play(state, "build 1 at I6")
    assert not movement.exits(state.city, 1)


# --- MX-8 buildings -----------------------------------------------------------------------------


def test_mx8_build_in_the_mexicas_area_for_its_levels() -> None:
    """MX-8: a building of L levels costs L AP, on free land in the Mexica's area; the area
    need not be founded."""
    state = state_at(position(2, mexica=("K5", "I7")))
    c = state.city
    play(state, "build 3 at V9")  # far away, same area
    assert c.building[sq("V9")] == 3 and c.owner_at(sq("V9")) == 0 and c.levels_at(sq("V9")) == 3
    assert c.ap == 3 and c.supply[0] == [3, 3, 1, 1]
    play(state, "build 1 at K4", "build 2 at K6")
    assert c.ap == 0 and c.supply[0] == [2, 2, 1, 1]


def test_mx8_only_in_the_same_area() -> None:
    """MX-8: not in another area than the Mexica's."""
    state = state_at(position(2, canals=CORNER_3_CANALS, mexica=("K5", "I7")))
    assert "C2 is not in your Mexica's area" in reason(state, "build 1 at C2")
    state = state_at(position(2, canals=CORNER_3_CANALS, mexica=("C3", "I7")))
    squares = {NAMES[decode(a)[2]] for a in state.legal_actions()
               if state.action_to_dict(a)["kind"] == "build"}
    assert squares == {"C2", "D3"}


def test_mx8_only_on_free_ordinary_land() -> None:
    """MX-8: never on a palace square, canal, bridge, calpulli tile, Mexica or building."""
    c = position(2, mexica=("K5", "L5"), canals=("K7",), bridges={"K7": WE},
                 buildings={"K4": (1, 1)}, tiles={"J5": 9})
    state = state_at(c)
    assert "I7 is a palace square" in reason(state, "build 1 at I7")
    assert "I8 is a palace square" in reason(state, "build 1 at I8")
    assert "P7 is water" in reason(state, "build 1 at P7")
    assert "K7 is water" in reason(state, "build 1 at K7")  # the bridge
    assert "T7 is water" in reason(state, "build 1 at T7")
    assert "J5 holds a calpulli tile" in reason(state, "build 1 at J5")
    assert "a Mexica stands on L5" in reason(state, "build 1 at L5")
    assert "a Mexica stands on K5" in reason(state, "build 1 at K5")
    assert "K4 holds a building" in reason(state, "build 1 at K4")
    play(state, "build 1 at K6")  # in a district (the tile founded the island): allowed


def test_mx8_only_from_the_current_supply() -> None:
    """MX-8: only buildings left in the player's supply for this part."""
    state = state_at(position(2, mexica=("K5", "I7")))
    play(state, "build 4 at K6")
    assert "no building of 4 levels left for this part" in reason(state, "build 4 at K4")
    assert state.city.reserve[0][3] == 2  # part 2's are not released yet
    state = state_at(position(2, mexica=("K5", "I7"), supply=[[0, 0, 0, 0], [3, 3, 2, 1]]))
    assert not any(t.startswith("build") for t in legal_texts(state))


def test_mx8_building_is_an_obstacle_that_never_moves() -> None:
    """MX-8: one building per square; it stays there."""
    state = state_at(position(2, mexica=("K5", "I7")))
    play(state, "build 1 at K6", "walk N", "walk W")
    c = state.city
    assert c.building[sq("K6")] == 1 and c.occupied[sq("K6")]
    assert "holds a building" in reason(state, "build 2 at K6")


# --- MX-9 founding a district -------------------------------------------------------------------


def test_mx9_found_a_district_of_matching_size() -> None:
    """MX-9: the Mexica in an unfounded area whose size matches an unused tile: the tile goes
    on a free ordinary square; founding is free."""
    state = state_at(position(2, canals=CORNER_3_CANALS, mexica=("C3", "I7"), available=(3, 3),
                              ap=0))
    c = state.city
    assert {"found 3 at C2", "found 3 at D3"} == {t for t in legal_texts(state)
                                                 if t.startswith("found")}
    play(state, "found 3 at D3")
    ident = c.area[sq("D3")]
    assert c.tile[sq("D3")] == 3 and c.area_tile[ident] == 3 and c.occupied[sq("D3")]
    assert c.available[0] == 1 and c.ap == 0
    assert c.scores == [2, 0]


def test_mx9_size_must_match_an_unused_tile_of_this_part() -> None:
    """MX-9: the area's size must be the size of a tile still unused in this part."""
    state = state_at(position(2, canals=CORNER_3_CANALS, mexica=("C3", "I7"), available=(4,)))
    assert state.city.face_down[0] == 2  # both 3s are part 2's: not usable now
    assert "no calpulli tile of size 3 is available" in reason(state, "found 3 at C2")
    assert "has 3 squares, not 4" in reason(state, "found 4 at C2")
    assert not any(t.startswith("found") for t in legal_texts(state))


def test_mx9_mexica_must_be_in_the_area() -> None:
    """MX-9: the founder's Mexica stands in the area."""
    state = state_at(position(2, canals=CORNER_3_CANALS, mexica=("K5", "C3"), available=(3,)))
    assert "not 3" in reason(state, "found 3 at C2")  # seat 0's area is the big one
    assert not any(t.startswith("found") for t in legal_texts(state))


def test_mx9_area_not_founded_yet() -> None:
    """MX-9: a district is never founded again."""
    state = state_at(position(2, canals=CORNER_5_CANALS, mexica=("C3", "I7"), tiles={"C2": 5},
                              available=(5,)))
    assert "already a district" in reason(state, "found 5 at D3")


def test_mx9_tile_on_a_free_ordinary_square() -> None:
    """MX-9: not on a building, a Mexica or a palace square; an area of palace squares only
    cannot be founded at all."""
    state = state_at(position(2, canals=CORNER_3_CANALS, mexica=("C3", "I7"), available=(3,),
                              buildings={"C2": (1, 1)}))
    assert "C2 holds a building" in reason(state, "found 3 at C2")
    assert "a Mexica stands on C3" in reason(state, "found 3 at C3")
    assert {t for t in legal_texts(state) if t.startswith("found")} == {"found 3 at D3"}
    state = state_at(position(2, canals=PALACE_RING, mexica=("I7", "J8"), available=(5,)))
    assert state.city.area_size[state.city.area[sq("I7")]] == 5
    assert "H8 is a palace square" in reason(state, "found 5 at H8")
    assert "I8 is a palace square" in reason(state, "found 5 at I8")
    assert not any(t.startswith("found") for t in legal_texts(state))


def test_mx9_founder_middle_present_small_absent_nothing() -> None:
    """MX-9: the founder scores the middle number, every other player with a Mexica in the
    district the small one, the others nothing."""
    state = state_at(position(3, canals=CORNER_5_CANALS, mexica=("C3", "D4", "K5"),
                              available=(5,), scores=[1, 1, 1]))
    play(state, "found 5 at C2")
    assert state.city.scores == [1 + 3, 1 + 2, 1]
    assert state.current_player() == 0  # a free action: the turn goes on


def test_mx9_district_never_changes_again() -> None:
    """MX-9: the tile is an obstacle and no canal enters the district; it keeps its squares."""
    state = state_at(position(2, canals=CORNER_5_CANALS, mexica=("C3", "I7"), available=(5,)))
    c = state.city
    play(state, "found 5 at D4")
    assert c.area_tile[c.area[sq("C2")]] == 5
    for name in CORNER_5 - {"D4", "C3"}:
        assert "founded district" in reason(state, f"canal {name}")
    assert not {NAMES[s] for s in _canal_squares(state)} & CORNER_5
    play(state, "walk N", "build 2 at C3")  # buildings are still allowed in a district
    assert "cannot step" in reason(state, "walk E") and "cannot step" in reason(state, "walk S")
    assert area_of(c, "C2") == CORNER_5 and c.area_size[c.area[sq("C2")]] == 5


# --- MX-10 parts and their ends -----------------------------------------------------------------

BUILT_ALL = [0, 0, 0, 0]


def _last_turn_of_round(num_players: int = 2, **fields: object) -> tlatelolco.State:
    """The last seat to move in round 5, after AP were spent this round (not idle)."""
    values = {"player": num_players - 1, "idle": False, "round": 5, **fields}
    return state_at(position(num_players, mexica=("K5", "K7", "K9")[:num_players], **values))


def test_mx10_part_one_ends_when_all_three_conditions_hold() -> None:
    """MX-10: every part-1 tile placed (or removed), someone built all 9 part-1 buildings, and
    the round complete: then the first scoring and part 2."""
    state = _last_turn_of_round(supply=[[1, 0, 0, 0], BUILT_ALL[:]])
    c = state.city
    play(state, "end")
    assert (c.part, c.round, c.player, len(c.scorings)) == (2, 1, 0, 1)


def test_mx10_part_one_goes_on_with_a_tile_left() -> None:
    """MX-10: someone built everything, but a part-1 tile is still available."""
    state = _last_turn_of_round(supply=[BUILT_ALL[:], [3, 3, 2, 1]], available=(12,))
    c = state.city
    play(state, "end")
    assert (c.part, c.round, c.scorings) == (1, 6, [])


def test_mx10_part_one_goes_on_until_someone_built_everything() -> None:
    """MX-10: every tile placed, but every player still has a part-1 building."""
    state = _last_turn_of_round(supply=[[0, 0, 0, 1], [1, 0, 0, 0]])
    c = state.city
    play(state, "end")
    assert (c.part, c.round, c.scorings) == (1, 6, [])


def test_mx10_part_one_waits_for_the_round_to_complete() -> None:
    """MX-10: the part ends only when play comes back to the start player."""
    state = _last_turn_of_round(3, player=1, supply=[BUILT_ALL[:], [1, 0, 0, 0], [1, 0, 0, 0]])
    c = state.city
    play(state, "end")
    assert (c.part, c.player) == (1, 2)
    play(state, "end")
    assert (c.part, c.player, c.round) == (2, 0, 1)
    assert c.turns == [1, 2, 2]  # everyone had the same number of turns in part 1


def test_mx10_part_two_releases_buildings_and_tiles() -> None:
    """MX-10: each player adds the 9 part-2 buildings to those left; the 7 part-2 tiles are
    face up; the same start player begins with 6 AP."""
    part_two = [1, 2, 0, 1, 0, 0, 1, 0, 0, 1, 1]  # 3, 4, 4, 6, 9, 12, 13
    state = _last_turn_of_round(supply=[BUILT_ALL[:], [1, 2, 0, 0]], face_down=part_two[:],
                                ap=2)
    c = state.city
    play(state, "end")
    assert c.part == 2 and state.current_player() == 0 and c.ap == 6 and c.taken == 0
    assert c.supply == [[3, 2, 2, 2], [4, 4, 2, 2]] and c.reserve == [BUILT_ALL] * 2
    assert c.available == part_two and c.face_down == [0] * 11
    assert not rules.first_turn(c)
    assert state.observation(0)["tiles"]["available"] == [3, 4, 4, 6, 9, 12, 13]


def test_mx10_part_two_ends_when_all_buildings_are_built() -> None:
    """MX-10: part 2 needs all 18 buildings built by someone (their supply empty), every tile
    placed or removed, and the round complete; then the second scoring ends the game."""
    state = _last_turn_of_round(part=2, supply=[[0, 0, 1, 0], [1, 0, 0, 0]], reserve=[[0] * 4] * 2)
    play(state, "end")
    assert state.city.part == 2 and state.city.round == 6
    state = _last_turn_of_round(part=2, supply=[BUILT_ALL[:], [1, 0, 0, 0]],
                                reserve=[[0] * 4] * 2)
    play(state, "end")
    c = state.city
    assert c.phase == OVER and state.is_terminal() and state.current_player() == TERMINAL
    assert len(c.scorings) == 1  # this position skipped part 1's scoring
    assert state.legal_actions() == [] and "game is over" in state.illegal_reason(END)  # type: ignore[operator]


WITHOUT_STRIP = tuple(NAMES[s] for s in ORDINARY
                      if NAMES[s] not in ("B4", "C4", "D4", "E4", "F4", "G4", "H4"))


@pytest.mark.parametrize("part", [1, 2])
def test_mx10_tile_removed_when_no_area_is_big_enough(part: int) -> None:
    """MX-10 ruling: a tile of size k leaves the game as soon as no unfounded area has k or more
    squares (in either part). Canals everywhere but the strip B4-H4 (7 squares); the palace is
    an area of 5."""
    state = state_at(position(2, part=part, canals=WITHOUT_STRIP, mexica=("D4", "I7"),
                              available=(5, 6, 7)))
    c = state.city
    assert c.area_size[c.area[sq("D4")]] == 7
    play(state, "canal B4")  # the strip is now C4-H4: 6 squares
    assert c.removed == [7] and c.available[5 - 3:] == [1, 1] + [0] * 7
    play(state, "canal C4")  # 5 squares left, and the palace area has 5
    assert c.removed == [7, 6] and c.available[5 - 3] == 1
    play(state, "canal H4")  # the palace keeps the 5 in play though it can never be founded
    assert c.removed == [7, 6]


@pytest.mark.parametrize("part", [1, 2])
def test_mx10_tile_removed_when_canals_are_gone_and_no_area_fits(part: int) -> None:
    """MX-10 ruling: with the canal supply empty, a tile of size k leaves the game unless an
    unfounded area of exactly k squares could be founded: a free ordinary square for the tile
    and another square for the founder's Mexica (a Mexica already standing there counts)."""
    common = {"part": part, "canals": CORNER_3_CANALS, "singles": 0, "doubles": 0,
              "available": (3, 4)}
    state = state_at(position(2, mexica=("K5", "C3"), **common))  # type: ignore[arg-type]
    c = state.city
    play(state, "build 1 at K6")  # any action that could change the answer checks
    assert c.removed == [4] and c.available[0] == 1  # the corner (3 squares) keeps the 3
    state = state_at(position(2, mexica=("K5", "C3"), buildings={"C2": (1, 1)},
                              **common))  # type: ignore[arg-type]
    play(state, "build 1 at K6")  # the tile on D3, the founder on C3 (where seat 1 stands)
    assert state.city.removed == [4] and state.city.available[0] == 1
    state = state_at(position(2, mexica=("K5", "C3"), buildings={"C2": (1, 1), "D3": (1, 2)},
                              **common))  # type: ignore[arg-type]
    play(state, "build 1 at K6")  # C3 is the only square for the tile and for the founder
    assert state.city.removed == [3, 4] and not any(state.city.available)
    state = state_at(position(2, mexica=("K5", "I7"), **common,  # type: ignore[arg-type]
                              buildings={"C2": (1, 1), "D3": (1, 2), "C3": (1, 1)}))
    play(state, "build 1 at K6")
    assert state.city.removed == [3, 4] and not any(state.city.available)


# The shape seen in play: canals all around E14, F14 and E15 cut off an area of 3.
SHAPE_CANALS = ("D14", "G14", "E13", "F13", "D15", "F15")


@pytest.mark.parametrize("part", [1, 2])
def test_mx10_ruling_an_area_of_k_with_one_free_square_cannot_take_a_k(part: int) -> None:
    """MX-10 ruling: the area {E14, F14, E15} with two buildings and one free square can never
    take a 3 (the founder's Mexica must be in the area and the tile cannot go under it), so
    once the canals are gone both 3s are removed, and the part ends at the end of the round
    instead of running on while players keep building. Seat 0 has built everything."""
    supply = [BUILT_ALL[:], [3, 3, 2, 1]]
    state = state_at(position(2, part=part, round=5, player=1, idle=False, canals=SHAPE_CANALS,
                              singles=0, doubles=0, supply=supply, reserve=[[0] * 4] * 2,
                              available=(3, 3), mexica=("K5", "E15"),
                              buildings={"E14": (0, 1)}))
    c = state.city
    assert area_of(c, "E15") == {"E14", "F14", "E15"}
    assert c.available[0] == 2  # F14 for the tile, E15 for the founder: still foundable
    play(state, "build 1 at F14")  # E15 alone is left, and seat 1's Mexica stands on it
    assert c.removed == [3, 3] and not any(c.available)
    play(state, "end")
    if part == 1:
        assert (c.part, c.round, len(c.scorings)) == (2, 1, 1)
    else:
        assert c.phase == OVER and state.is_terminal()


def test_mx10_ruling_the_founder_may_stand_on_a_starting_square() -> None:
    """MX-10 ruling: a starting square is a square for the founder's Mexica, so an area of the
    palace and I6 (6 squares, one of them free ordinary land) keeps the 6 with the canals gone,
    and seat 0 founds it from I7 with the tile on I6."""
    canals = ("H6", "J6", "I5", *(s for s in PALACE_RING if s != "I6"))
    state = state_at(position(2, canals=canals, singles=0, doubles=0, available=(6, 3),
                              mexica=("I7", "K5"), player=1))
    c = state.city
    assert area_of(c, "I6") == {"I6", "I7", "H8", "I8", "J8", "I9"}
    play(state, "build 1 at K6")  # seat 1 builds: the tiles are checked
    assert c.removed == [3] and c.available[6 - 3] == 1
    play(state, "end", "found 6 at I6")
    assert c.tile[sq("I6")] == 6 and c.scores[0] == middle(6)


def test_mx10_tiles_removed_at_the_start_of_part_two() -> None:
    """MX-10 ruling: the part-2 tiles are checked as they come into play; and part 1 counts a
    removed tile as done."""
    state = _last_turn_of_round(canals=CORNER_3_CANALS, singles=0, doubles=0,
                                supply=[[3, 3, 2, 1], BUILT_ALL[:]], available=(4,))
    c = state.city
    play(state, "end")  # a tile is left: round 6
    play(state, "build 1 at K6")  # the 4 fits nowhere: removed
    assert c.removed == [4] and not any(c.available)
    play(state, "end")
    assert c.part == 1
    play(state, "end")  # every part-1 tile is placed or removed, seat 1 built all: part 2
    assert c.part == 2
    assert c.available == [2] + [0] * 10  # only the two 3s fit (the corner)
    assert sorted(c.removed) == [4, 4, 5, 5, 6, 6, *range(7, 14)]


def test_mx10_leftover_part_one_tiles_leave_the_game() -> None:
    """MX-10 ruling: part 1 ending early (here: an idle round) removes its unplaced tiles."""
    state = new_state(2)
    to_playing(state)
    play(state, "end", "end")
    c = state.city  # type: ignore[attr-defined]
    assert c.part == 2 and c.removed == [3, 4, 5, 6, 7, 8, 9, 10]
    assert c.available == [1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1]


def test_mx10_idle_round_ends_the_part() -> None:
    """MX-10 ruling: a round in which no player spends an AP ends the part at its end, whatever
    else holds; an idle round in part 2 ends the game."""
    state = state_at(position(2, round=3, available=(9,)))
    c = state.city
    play(state, "end", "end")
    assert (c.part, c.round, len(c.scorings)) == (2, 1, 1)
    play(state, "end", "end")
    assert c.phase == OVER and len(c.scorings) == 2


def test_mx10_a_round_with_spent_ap_is_not_idle() -> None:
    """MX-10 ruling: taking a token spends an AP, and so does an action paid by a token."""
    state = state_at(position(2, round=3))
    play(state, "token", "end", "end")
    assert (state.city.part, state.city.round) == (1, 4)
    state = state_at(position(2, round=3, ap=0, tokens=[1, 0], token_supply=11))
    play(state, "canal K5", "end", "end")
    assert (state.city.part, state.city.round) == (1, 4)


def test_mx10_a_round_with_only_a_founding_is_not_idle() -> None:
    """MX-10 ruling: founding a district is an action although it costs no AP, so a round
    whose only action is a founding does not end the part; the next round, with no action at
    all, does."""
    state = state_at(position(2, canals=CORNER_3_CANALS, mexica=("C3", "I7"), available=(3, 9),
                              round=2))
    c = state.city
    play(state, "found 3 at C2")
    assert c.ap == 6 and not c.idle
    play(state, "end", "end")
    assert (c.part, c.round, c.scorings) == (1, 3, [])
    play(state, "end", "end")
    assert c.part == 2 and c.scorings[0] == [0, 5]  # a district without buildings; I7: +5


def test_mx10_part_ends_after_round_forty() -> None:
    """MX-10 ruling: a part also ends at the end of its 40th round."""
    state = _last_turn_of_round(round=MAX_ROUNDS - 1, available=(9,))
    play(state, "end")
    assert (state.city.part, state.city.round) == (1, MAX_ROUNDS)
    state = _last_turn_of_round(round=MAX_ROUNDS, available=(9,))
    play(state, "end")
    assert (state.city.part, state.city.round) == (2, 1)
    state = _last_turn_of_round(round=MAX_ROUNDS, part=2, available=(9,))
    play(state, "end")
    assert state.is_terminal()


def test_mx10_every_game_ends_within_the_declared_length() -> None:
    """MX-10 ruling: random play always ends, after two scorings, within the maximum length
    8 + n + 2 * 40 * n * 19 + 15."""
    assert [max_game_length(n) for n in (2, 3, 4)] == [3065, 4586, 6107]
    assert tlatelolco.load("mexica").info.max_game_length == 6107
    for n, seed in ((2, 1), (3, 2), (4, 3)):
        state = random_game(n, seed)
        c = state.city  # type: ignore[attr-defined]
        assert c.phase == OVER and len(c.scorings) == 2
        assert len(state.history()) <= state.get_game().max_game_length()
    # Players who only ever end their turn: two idle rounds and it is over.
    state = new_state(3)
    to_playing(state)
    while not state.is_terminal():
        play(state, "end")
    assert len(state.history()) == 8 + 3 + 2 * 3


# --- MX-11 scoring ------------------------------------------------------------------------------


@pytest.mark.parametrize(("levels", "points"), [
    ([5, 3, 1, 0], [9, 5, 3, 0]),  # plain order; no buildings, no points
    ([5, 4, 3, 2], [9, 5, 3, 0]),  # the 4th scores nothing
    ([6, 6, 4, 2], [9, 9, 3, 0]),  # two tie for 1st: the next gets the small number
    ([4, 4, 4, 2], [9, 9, 9, 0]),  # three tie for 1st: nobody else scores
    ([7, 4, 4, 1], [9, 5, 5, 0]),  # two tie for 2nd: the 4th gets nothing
    ([2, 2, 2, 2], [9, 9, 9, 9]),
    ([1, 0, 0, 3], [5, 0, 0, 9]),
    ([0, 0, 0, 0], [0, 0, 0, 0]),
])
def test_mx11_ranking_and_ties(levels: list[int], points: list[int]) -> None:
    """MX-11: 1st big, 2nd middle, 3rd small; tied players share the place they tie for and
    use up the places they fill (worked examples with the tile 9: 9, 5, 3)."""
    assert scoring.ranked_points(levels, place_points(9)) == points


def test_mx11_first_scoring_only_districts() -> None:
    """MX-11: the first scoring counts founded districts only."""
    assert scoring.scoring(scored_city()) == [5, 3, 2]


def test_mx11_second_scoring_adds_unfounded_areas() -> None:
    """MX-11: the second scoring counts the districts again, then every unfounded area as if
    it held a tile of its size."""
    c = scored_city(part=2)
    big = c.area_size[c.area[sq("M5")]]
    assert big == 192 - 5 - 5 - 1  # minus canals, the district and B5 (cut off)
    assert scoring.scoring(c) == [5, 3 + big, 2]
    c = scored_city({"M6": (0, 4), "B5": (2, 1)}, part=2)
    assert scoring.scoring(c) == [5 + big, 3 + big, 2 + 1]  # tie for 1st; B5 alone: 1 point


def test_mx11_tie_in_a_district() -> None:
    """MX-11: two tie for 1st in a district of 5: both score 5, the next the small 2."""
    c = position(4, canals=CORNER_5_CANALS, tiles={"C2": 5}, mexica=("K5", "K6", "K7", "K8"),
                 buildings={"C3": (0, 3), "D3": (1, 3), "C4": (2, 1)})
    assert scoring.scoring(c) == [5, 5, 2, 0]


def test_mx11_scorings_through_play() -> None:
    """MX-11: each part's end adds its scoring to the scores and records it."""
    state = state_at(scored_city(scores=[1, 2, 3]))
    play(state, "end", "end", "end")  # an idle round: part 1 ends
    c = state.city
    big = c.area_size[c.area[sq("M5")]]
    assert c.scorings == [[5, 3, 2]] and c.scores == [6, 5, 5]
    play(state, "end", "end", "end")
    assert c.scorings[1] == [5, 3 + big, 2] and c.scores == [11, 8 + big, 7]
    assert state.scores() == [11.0, 8.0 + big, 7.0]


def test_mx11_five_points_on_a_starting_square_at_each_scoring() -> None:
    """MX-11: a Mexica on a starting square scores 5 at each scoring."""
    state = state_at(position(3, mexica=("I7", "K5", "J8")))
    play(state, "end", "end", "end")
    assert state.city.scorings == [[5, 0, 5]]
    play(state, "walk N")  # seat 0 leaves I7 for I6 before the second scoring
    play(state, "end", "end", "end")
    play(state, "end", "end", "end")  # idle round
    assert state.city.scorings == [[5, 0, 5], [0, 0, 5]] and state.city.scores == [5, 0, 10]


@pytest.mark.parametrize(("scores", "tokens", "returns"), [
    ([10, 8], [0, 5], [1.0, 0.0]),  # points first
    ([10, 10], [1, 2], [0.0, 1.0]),  # then unused tokens
    ([10, 10], [2, 2], [0.5, 0.5]),  # then a shared victory
    ([10, 10, 3], [1, 1, 5], [0.5, 0.5, 0.0]),
])
def test_mx11_winner_by_points_then_tokens_then_shared(scores: list[int], tokens: list[int],
                                                       returns: list[float]) -> None:
    """MX-11: most points wins; ties go to most unused action tokens; still tied: shared."""
    n = len(scores)
    state = state_at(position(n, mexica=("K5", "K6", "K7")[:n], phase=OVER, scores=scores,
                              tokens=tokens, token_supply=12 - sum(tokens)))
    assert state.is_terminal() and state.returns() == returns
    playing = state_at(position(n, mexica=("K5", "K6", "K7")[:n], scores=scores))
    assert playing.returns() == [0.0] * n


# --- MX-12 information --------------------------------------------------------------------------


def test_mx12_observation_is_the_same_for_every_seat() -> None:
    """MX-12: perfect information: every seat sees the same thing."""
    def same(state: tlatelolco.State) -> None:
        if len(state.history()) % 37 == 0:
            views = [state.observation(p) for p in range(state.get_game().num_players())]
            assert all(v == views[0] for v in views)
    random_game(3, 7, same)


def test_mx12_observation_shows_the_part_two_tiles() -> None:
    """MX-12: the 7 face-down tiles are known by elimination and shown."""
    state = new_state(2)
    to_playing(state, sizes=(3, 4, 5, 5, 6, 8, 10, 12))
    for seat in (0, 1):
        tiles = state.observation(seat)["tiles"]
        assert tiles["available"] == [3, 4, 5, 5, 6, 8, 10, 12]
        assert tiles["face_down"] == [3, 4, 6, 7, 9, 11, 13]
    with pytest.raises(ValueError, match="seat 2"):
        state.observation(2)


# --- MX-13 invariants ---------------------------------------------------------------------------


def _check_invariants(state: tlatelolco.State, districts: dict[int, frozenset[int]]) -> None:
    c: City = state.city  # type: ignore[attr-defined]
    if c.phase in (DRAWING, PLACING):
        return
    # conservation of pieces
    assert sum(c.canal) == (SINGLE_CANALS - c.singles) + 2 * (DOUBLE_CANALS - c.doubles)
    assert sum(map(bool, c.bridge)) + c.bridges == BRIDGES
    assert c.token_supply + sum(c.tokens) == ACTION_TOKENS
    for seat in range(c.num_players):
        built = sum(1 for v in c.building if v and (v - 1) // 4 == seat)
        assert built + sum(c.supply[seat]) + sum(c.reserve[seat]) == sum(BUILDINGS)
    placed = sum(1 for t in c.tile if t)
    assert placed + sum(c.available) + sum(c.face_down) + len(c.removed) == 15
    # bridges
    for square in range(NUM_SQUARES):
        axis = c.bridge[square]
        if not axis:
            continue
        assert IS_LAKE[square] or c.canal[square]
        ends = (STEPS[square][0], STEPS[square][2]) if axis == NS else \
            (STEPS[square][1], STEPS[square][3])
        assert all(e >= 0 and not IS_LAKE[e] and not c.canal[e] for e in ends)
        assert not any(c.bridge[n] for n in NEIGHBOURS[square])
    # districts never change; their size is their tile's
    for square in range(NUM_SQUARES):
        if c.tile[square]:
            ident = c.area[square]
            members = frozenset(s for s in range(NUM_SQUARES) if c.area[s] == ident)
            assert districts.setdefault(square, members) == members
            assert c.area_size[ident] == len(members) == c.tile[square] == c.area_tile[ident]
    # one thing per square (a Mexica may stand on a bridge)
    for square in range(NUM_SQUARES):
        water = bool(IS_LAKE[square] or c.canal[square])
        things = bool(c.building[square]) + bool(c.tile[square]) + (square in c.mexica)
        assert things <= 1 and c.mexica.count(square) <= 1
        if water:
            assert not c.building[square] and not c.tile[square]
            assert square not in c.mexica or c.bridge[square]
        assert not (c.canal[square] and IS_PALACE[square])
        assert not (c.canal[square] and not IS_ORDINARY[square])
    assert COAT_OF_ARMS not in c.mexica


@pytest.mark.parametrize(("num_players", "seed"), [(2, 11), (3, 12), (4, 13)])
def test_mx13_invariants_after_random_games(num_players: int, seed: int) -> None:
    """MX-13: pieces are conserved, bridges stand right, districts are frozen, one thing per
    square; and what play keeps up to date equals a fresh derivation from the pieces."""
    districts: dict[int, frozenset[int]] = {}

    def check(state: tlatelolco.State) -> None:
        _check_invariants(state, districts)
        c: City = state.city  # type: ignore[attr-defined]
        if c.phase == PLAYING and len(state.history()) % 25 == 0:
            fresh = c.copy()
            rules.derive(fresh)
            assert partition(fresh) == partition(c)
            assert (fresh.access, fresh.axes, fresh.diggable, fresh.occupied) == \
                (c.access, c.axes, c.diggable, c.occupied)

    state = random_game(num_players, seed, check)
    assert districts  # some districts were founded and watched
    assert state.is_terminal()
