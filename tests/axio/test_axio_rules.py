"""One test (or more) per rule and ruling of the Axio digest, named by its id."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import tlatelolco
from tlatelolco import CHANCE, IllegalActionError
from tlatelolco.chance import sample_chance
from tlatelolco.games.axio import AxioGame, AxioState, rules
from tlatelolco.games.axio.table import (
    DRAW,
    DRAW_EXTRA,
    DRAW_STACK,
    PLACING,
    START,
    START_CELLS,
    Table,
    place_action,
)
from tlatelolco.games.axio.tiles import EMPTY, load_tiles, turned

RED, GREEN, BLUE, ORANGE, PURPLE = range(5)
TILES = load_tiles()
# The default set repeats no colour on a tile; rule tests also use tiles made for them.
TEST_TILES = ((RED, RED, RED, RED), (RED, RED, RED, RED), (RED, GREEN, RED, GREEN),
              (GREEN, RED, GREEN, RED), *[(PURPLE, PURPLE, PURPLE, PURPLE)] * 4, *TILES[8:])


def find_tile(corners: tuple[int, int, int, int]) -> int:
    """A tile of the default set with exactly these corners in some rotation."""
    for i, tile in enumerate(TILES):
        for r in range(4):
            if turned(tile, r) == corners:
                return i
    raise LookupError(corners)


def table(num_players: int = 2, cells: dict[tuple[int, int], tuple[int, int]] | None = None,
          hand: int = 0, **fields: object) -> Table:
    """A position in which seat 0 holds `hand` and may place it next to `cells`."""
    t = rules.set_up(num_players)
    for cell, (tile, rotation) in (cells or {}).items():
        rules.put_on_display(t, cell, tile, rotation)
        t.pool.remove(tile)
    t.hands[0] = hand
    t.pool.remove(hand)
    t.stack_left = [11] * num_players
    t.phase, t.player = PLACING, 0
    for name, value in fields.items():
        setattr(t, name, value)
    return t


def state_at(t: Table) -> AxioState:
    return AxioState(AxioGame(num_players=t.num_players), TEST_TILES, t)


def play_to_placing(state: tlatelolco.State, seed: int = 0) -> None:
    rng = random.Random(seed)
    while state.is_chance_node():
        state.apply_action(sample_chance(state, rng))


# --- AX-1 components ----------------------------------------------------------------------------


def test_ax1_default_tile_set() -> None:
    assert len(TILES) == 60
    assert all(tile.count(EMPTY) <= 1 for tile in TILES)
    assert {c for tile in TILES for c in tile} <= {*range(5), EMPTY}


def _write(tmp_path: Path, tiles: object) -> str:
    path = tmp_path / "tiles.json"
    path.write_text(json.dumps({"tiles": tiles}))
    return str(path)


def test_ax1_another_tile_set_is_loaded_and_validated(tmp_path: Path) -> None:
    good = [["red", "green", "blue", None]] * 60
    game = tlatelolco.load("axio", tiles=_write(tmp_path, good))
    assert game.tiles[0] == (RED, GREEN, BLUE, EMPTY)  # type: ignore[attr-defined]
    bad = {
        "has 59 tiles": [["red", "green", "blue", "orange"]] * 59,
        "2 empty corners": [["red", None, "blue", None]] * 60,
        "corner 'pink'": [["red", "pink", "blue", "orange"]] * 60,
        "must list 4 corners": [["red", "green"]] * 60,
    }
    for message, tiles in bad.items():
        with pytest.raises(ValueError, match=message):
            tlatelolco.load("axio", tiles=_write(tmp_path, tiles))
    with pytest.raises(ValueError, match="cannot read"):
        tlatelolco.load("axio", tiles=str(tmp_path / "missing.json"))


def test_ax1_turning_a_tile_clockwise() -> None:
    tile = (RED, GREEN, BLUE, ORANGE)
    assert turned(tile, 1) == (ORANGE, RED, GREEN, BLUE)  # top-left moves to top-right
    assert turned(tile, 4) == tile


# --- AX-2 set-up ----------------------------------------------------------------------------------


@pytest.mark.parametrize("n, supply", [(1, 44), (2, 32), (3, 20), (4, 8)])
def test_ax2_stacks_and_supply(n: int, supply: int) -> None:
    state = tlatelolco.load("axio", num_players=n).new_initial_state()
    play_to_placing(state)
    t = state.table
    assert t.supply_left == supply and t.stack_left == [11] * n
    assert all(h >= 0 for h in t.hands) and len(t.cells) == 4
    assert sorted(t.cells) == sorted(START_CELLS)


def test_ax2_player_count_one_to_four_default_two() -> None:
    assert tlatelolco.load("axio").num_players() == 2
    with pytest.raises(ValueError, match="num_players=5 is not allowed"):
        tlatelolco.load("axio", num_players=5)


def test_ax2_start_square_turns_empty_corners_to_the_centre() -> None:
    state = tlatelolco.load("axio").new_initial_state()
    rng = random.Random(3)
    for _ in range(4):
        for action, _p in state.chance_outcomes():
            tile, rotation = divmod(action - START, 4)
            if EMPTY in TILES[tile]:
                # only one outcome for such a tile: the rotation putting its empty corner inward
                corner = rules.CENTRE_CORNER[len(state.table.cells)]
                assert turned(TILES[tile], rotation)[corner] == EMPTY
        state.apply_action(sample_chance(state, rng))
    for index, cell in enumerate(START_CELLS):
        tile, rotation = state.table.cells[cell]
        corners = turned(TILES[tile], rotation)
        if EMPTY in corners:
            assert corners.index(EMPTY) == rules.CENTRE_CORNER[index]


def test_ax2_ruling_other_start_tiles_take_a_random_turn() -> None:
    state = tlatelolco.load("axio").new_initial_state()
    outcomes = state.chance_outcomes()
    full = [a for a, _ in outcomes if EMPTY not in TILES[(a - START) // 4]]
    assert len(full) % 4 == 0 and full  # all four turns of each tile without an empty corner
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)


# --- AX-3 a turn --------------------------------------------------------------------------------


def test_ax3_place_edge_adjacent_in_any_rotation() -> None:
    full = find_tile((RED, GREEN, BLUE, ORANGE))
    state = state_at(table(cells={(0, 0): (find_tile((RED, GREEN, BLUE, PURPLE)), 0)},
                           hand=full))
    assert len(state.legal_actions()) == 4 * 4  # four neighbours, four rotations each
    with pytest.raises(IllegalActionError, match="does not touch the display along an edge"):
        state.apply_action(place_action(1, 1, 0, 0))  # diagonal contact only
    with pytest.raises(IllegalActionError, match="already holds a tile"):
        state.apply_action(place_action(0, 0, 0, 0))
    state.apply_action(state.string_to_action("place at (1,0) rot 90"))
    assert state.table.cells[(1, 0)] == (full, 1)


def test_ax3_scoring_counts_the_other_quadrants_of_each_circle() -> None:
    # Left tile at (0,0) shows red at its top-right and bottom-right corners.
    left = _tile_with(top_right=RED, bottom_right=RED)
    hand = _tile_with(avoid=(left[0],), top_left=RED, bottom_left=RED)
    t = table(cells={(0, 0): left}, hand=hand[0])
    state = state_at(t)
    state.apply_action(place_action(1, 0, hand[1], 0))
    # Each of the two left corners of the new tile meets one red quadrant: 2 red points.
    assert state.table.scores[0][RED] == 2


def _tile_with(avoid: tuple[int, ...] = (), **wanted: int) -> tuple[int, int]:
    """(tile, rotation) of a test tile showing the wanted colours at the named corners."""
    index = {"top_left": 0, "top_right": 1, "bottom_right": 2, "bottom_left": 3}
    for i, tile in enumerate(TEST_TILES):
        if i in avoid:
            continue
        for r in range(4):
            corners = turned(tile, r)
            if all(corners[index[k]] == v for k, v in wanted.items()) and EMPTY not in corners:
                return i, r
    raise LookupError(wanted)


def test_ax3_the_placed_symbol_does_not_count_itself_and_a_lone_corner_scores_nothing() -> None:
    left = _tile_with(top_right=GREEN, bottom_right=BLUE)
    hand = _tile_with(avoid=(left[0],), top_left=RED, bottom_left=RED)
    state = state_at(table(cells={(0, 0): left}, hand=hand[0]))
    state.apply_action(place_action(1, 0, hand[1], 0))
    assert state.table.scores[0] == [0, 0, 0, 0, 0]


def test_ax3_a_full_circle_scores_three() -> None:
    # Three tiles around the point (1,1), each showing purple there; the fourth completes it.
    cells = {
        (0, 1): _tile_with(avoid=(), bottom_right=PURPLE),
        (1, 1): _tile_with(avoid=(4,), bottom_left=PURPLE),
        (0, 0): _tile_with(avoid=(4, 5), top_right=PURPLE),
    }
    hand = _tile_with(avoid=(4, 5, 6), top_left=PURPLE)
    state = state_at(table(cells=cells, hand=hand[0]))
    state.apply_action(place_action(1, 0, hand[1], 0))
    assert state.table.scores[0][PURPLE] >= 3


def test_ax3_an_empty_corner_scores_as_the_named_colour() -> None:
    empty_tile = next(i for i, t in enumerate(TILES) if EMPTY in t)
    rotation = (0 - TILES[empty_tile].index(EMPTY)) % 4  # the empty corner to the top-left
    left = _tile_with(top_right=ORANGE)
    state = state_at(table(cells={(0, 0): left}, hand=empty_tile))
    assert all(a % 6 for a in state.legal_actions())  # a colour must be named
    with pytest.raises(IllegalActionError, match="name a colour"):
        state.apply_action(place_action(1, 0, rotation, 0))
    state.apply_action(state.string_to_action(f"place at (1,0) rot {rotation * 90} empty=orange"))
    assert state.table.scores[0][ORANGE] >= 1


def test_ax3_an_empty_quadrant_never_matches_later() -> None:
    empty_tile = next(i for i, t in enumerate(TILES) if EMPTY in t)
    rotation = (1 - TILES[empty_tile].index(EMPTY)) % 4  # the empty corner to the top-right
    below = turned(TILES[empty_tile], rotation)[2]
    other = next(c for c in range(5) if c not in (RED, below))
    hand = _tile_with(top_left=RED, bottom_left=other)  # red meets the empty quadrant
    state = state_at(table(cells={(0, 0): (empty_tile, rotation)}, hand=hand[0]))
    state.apply_action(place_action(1, 0, hand[1], 0))
    assert state.table.scores[0] == [0, 0, 0, 0, 0]


def test_ax3_tracks_stop_at_twelve() -> None:
    left = _tile_with(top_right=RED, bottom_right=RED)
    hand = _tile_with(avoid=(left[0],), top_left=RED, bottom_left=RED)
    t = table(cells={(0, 0): left}, hand=hand[0])
    t.scores[0][RED] = 11
    state = state_at(t)
    state.apply_action(place_action(1, 0, hand[1], 0))
    assert state.table.scores[0][RED] == 12  # 11 + 2, the point above 12 is lost


def test_ax3_draw_from_the_own_stack_after_the_turn() -> None:
    state = tlatelolco.load("axio").new_initial_state()
    play_to_placing(state)
    state.apply_action(state.legal_actions()[0])
    t = state.table
    if t.phase == DRAW_STACK:
        assert state.current_player() == CHANCE
        state.apply_action(sample_chance(state, random.Random(1)))
        assert t.stack_left[0] == 10 and t.hands[0] >= 0 and state.current_player() == 1


# --- AX-4 AXIO! -----------------------------------------------------------------------------------


def _axio_position(colours_at_eleven: list[int], supply: int = 8) -> AxioState:
    left = _tile_with(top_right=RED, bottom_right=RED)
    hand = _tile_with(avoid=(left[0],), top_left=RED, bottom_left=RED)
    t = table(cells={(0, 0): left}, hand=hand[0], supply_left=supply)
    for colour in colours_at_eleven:
        t.scores[0][colour] = 11
    state = state_at(t)
    state.apply_action(place_action(1, 0, hand[1], 0))
    return state


def test_ax4_reaching_twelve_gives_an_extra_turn_from_the_supply() -> None:
    state = _axio_position([RED])
    t = state.table
    assert t.phase == DRAW_EXTRA and t.extra_taken[0] == 1
    state.apply_action(sample_chance(state, random.Random(0)))
    assert t.supply_left == 7 and t.stack_left[0] == 11  # from the supply, not the stack
    assert state.current_player() == 0 and t.in_extra


def test_ax4_no_extra_turn_once_the_supply_is_empty() -> None:
    state = _axio_position([RED], supply=0)
    assert state.table.phase == DRAW_STACK and state.table.extra_pending == 0


def test_ax4_a_track_reaches_twelve_only_once() -> None:
    state = _axio_position([])
    t = state.table
    t.scores[0][RED] = 12
    assert t.extra_taken[0] == 0


def test_ax4_ruling_two_colours_at_once_give_two_extra_turns() -> None:
    left = _tile_with(top_right=RED, bottom_right=GREEN)
    hand = _tile_with(avoid=(left[0],), top_left=RED, bottom_left=GREEN)
    t = table(cells={(0, 0): left}, hand=hand[0], supply_left=8)
    t.scores[0][RED] = t.scores[0][GREEN] = 11
    state = state_at(t)
    state.apply_action(place_action(1, 0, hand[1], 0))
    assert t.extra_taken[0] == 2 and t.extra_pending == 1 and t.phase == DRAW_EXTRA


def test_ax4_extra_turns_come_before_the_own_stack_draw() -> None:
    state = _axio_position([RED])
    rng = random.Random(0)
    state.apply_action(sample_chance(state, rng))  # the extra tile
    state.apply_action(state.legal_actions()[0])  # placed
    assert state.table.phase in (DRAW_STACK, DRAW_EXTRA)
    assert state.table.stack_left[0] == 11


# --- AX-5 end and scoring -----------------------------------------------------------------------


def test_ax5_the_lowest_colour_ranks_and_ties_go_to_the_next_lowest() -> None:
    assert rules.ranking_key([3, 9, 4, 12, 5]) > rules.ranking_key([3, 3, 12, 12, 12])
    assert rules.ranking_key([4, 0, 9, 9, 9]) < rules.ranking_key([1, 1, 1, 1, 1])
    t = table()
    t.scores = [[5, 6, 7, 8, 9], [5, 6, 7, 8, 9]]
    t.phase = 5
    assert state_at(t).returns() == [0.5, 0.5]
    t.scores[1] = [5, 6, 7, 8, 10]
    assert state_at(t).returns() == [0.0, 1.0]


def test_ax5_the_game_ends_when_every_stack_tile_is_placed() -> None:
    for n in (1, 2, 3, 4):
        state = tlatelolco.load("axio", num_players=n).new_initial_state()
        rng = random.Random(n)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        t = state.table
        assert t.placed_from_stack == [12] * n and t.stack_left == [0] * n
        assert t.hands == [-1] * n
        assert state.scores() == [float(min(s)) for s in t.scores]


# --- AX-6 information -----------------------------------------------------------------------------


def test_ax6_a_hand_is_seen_by_its_owner_only() -> None:
    state = tlatelolco.load("axio", num_players=3).new_initial_state()
    play_to_placing(state, seed=4)
    hands = state.table.hands
    for seat in range(3):
        view = state.observation(seat)
        assert view["hand"]["tile"] == hands[seat]
        assert view["holding"] == [True, True, True]  # others' hands: present, not shown
        rest = {k: v for k, v in view.items() if k not in ("display", "hand")}
        assert "tile" not in json.dumps(rest)


def test_ax6_views_cannot_tell_other_hands_apart() -> None:
    """Re-dealing the other seats' hands changes nothing seat 0 can see."""
    state = tlatelolco.load("axio", num_players=4).new_initial_state()
    play_to_placing(state, seed=5)
    rng = random.Random(9)
    for _ in range(10):
        other = state.resample_from_infostate(0, rng)
        if other.table.hands[1:] != state.table.hands[1:]:
            break
    assert other.table.hands[1:] != state.table.hands[1:]
    assert other.observation(0) == state.observation(0)
    assert other.information_state_string(0) == state.information_state_string(0)
    assert other.information_state_string(1) != state.information_state_string(1)
    assert other.legal_action_strings() == state.legal_action_strings()
    assert tlatelolco.load("axio", num_players=4).replay(other.history()) == other


def test_ax6_stacks_and_supply_are_unknown_to_everyone() -> None:
    state = tlatelolco.load("axio").new_initial_state()
    play_to_placing(state)
    view = state.observation(0)
    assert set(view) >= {"stacks", "supply"}
    assert isinstance(view["stacks"][0], int) and isinstance(view["supply"], int)
    state.apply_action(state.legal_actions()[0])
    assert state.is_chance_node()  # the draw from the own stack: every unseen tile alike
    unseen = sorted(state.table.pool)
    assert [a - DRAW for a, _ in state.chance_outcomes()] == unseen
    assert len({p for _, p in state.chance_outcomes()}) == 1


def test_ax6_no_other_hand_leaks_through_any_view_of_a_seat() -> None:
    """Two games that differ only in seat 1's hidden hand look the same to seat 0 in every way:
    observation, information state, the action strings of its moves, and its record."""
    from tlatelolco.records import make_record, record_for_seat

    game = tlatelolco.load("axio", num_players=2)
    state = game.new_initial_state()
    rng = random.Random(12)
    while len(state.table.cells) < 9 or state.current_player() != 0:
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    twin = state.resample_from_infostate(0, random.Random(3))
    assert twin.table.hands[1] != state.table.hands[1]
    assert twin.observation(0) == state.observation(0)
    assert twin.information_state_string(0) == state.information_state_string(0)
    assert twin.legal_action_strings() == state.legal_action_strings()
    players = ["a", "b"]
    mine = record_for_seat(make_record(state, players), 0)
    theirs = record_for_seat(make_record(twin, players), 0)
    assert mine == theirs
    assert None in mine["history"]  # seat 1's draws are left out
    own = record_for_seat(make_record(state, players), 1)
    assert own != mine  # seat 1 sees its own draws


def test_ax6_regression_resampling_a_hand_built_position() -> None:
    """Re-dealing other hands once crashed on positions built without a history."""
    t = table(2, cells={cell: (60 - 1 - i, 0) for i, cell in enumerate(START_CELLS)}, hand=0)
    t.hands[1] = 1
    t.pool.remove(1)
    state = state_at(t)
    other = state.resample_from_infostate(0, random.Random(1))
    assert other.observation(0) == state.observation(0)
    assert sorted([*other.table.pool, other.table.hands[1]]) == sorted([*t.pool, 1])
