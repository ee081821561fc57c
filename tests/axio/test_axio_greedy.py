"""The Axio greedy bot: legal, deterministic, blind to hidden hands, sensible on hand-built
positions, fast and strong."""

from __future__ import annotations

import random

import pytest

import tlatelolco
from tlatelolco.bots import bot_names, make_bot
from tlatelolco.bots.evaluate import head_to_head
from tlatelolco.bots.greedy.axio import AxioGreedy, pour
from tlatelolco.chance import sample_chance
from tlatelolco.contract import Game
from tlatelolco.games.axio import AxioState, rules
from tlatelolco.games.axio.table import DRAW_EXTRA, PLACING, decode_place, place_action
from tlatelolco.games.axio.tiles import EMPTY, NUM_COLOURS, NUM_TILES, Tile, turned
from tlatelolco.testing.bots import check_bot_in_random_play

RED, GREEN, BLUE, ORANGE, PURPLE = range(NUM_COLOURS)


def game(num_players: int = 2) -> Game:
    return tlatelolco.load("axio", num_players=num_players)


# --- hand-built positions ---------------------------------------------------------------------

def tile_with(tiles: tuple[Tile, ...], cycle: tuple[int, ...], taken: set[int]) -> int:
    """The first tile not in `taken` whose corners run round clockwise in the order `cycle`."""
    for index, tile in enumerate(tiles):
        if index not in taken and any(turned(tile, r) == cycle for r in range(4)):
            return index
    raise AssertionError(f"the tile set has no free tile {cycle}")


def position(display: dict[tuple[int, int], tuple[int, int]], hand: int, scores: list[int],
             *, supply: int = 10, placed: int = 4) -> AxioState:
    """Seat 0 of 2 to place `hand` on `display` (cell -> (tile, rotation)) with `scores`;
    seat 1 holds some other tile, the rest is face down (the stacks, then the supply)."""
    g = game(2)
    t = rules.set_up(2)
    for cell, (tile, rotation) in display.items():
        rules.put_on_display(t, cell, tile, rotation)
        t.pool.remove(tile)
    t.pool.remove(hand)
    other = t.pool.pop()
    t.hands, t.hand_step = [hand, other], [0, 0]
    t.stack_left = [12 - placed - 1] * 2
    t.placed_from_stack = [placed, placed]
    t.supply_left = len(t.pool) - sum(t.stack_left)
    assert t.supply_left >= supply
    for _ in range(t.supply_left - supply):  # fewer tiles in the supply: as if taken by extras
        t.pool.pop()
    t.supply_left = supply
    t.scores = [scores[:], [4] * NUM_COLOURS]
    t.extra_taken = [sum(s == rules.TRACK_TOP for s in scores), 0]
    t.phase, t.player = PLACING, 0
    state = g.state_from_position(t)  # type: ignore[attr-defined]
    assert isinstance(state, AxioState) and state.current_player() == 0
    return state


def gained(state: AxioState, action: int) -> list[int]:
    """The points per colour the mover scores with `action` (the engine's own count)."""
    t = state.table.copy()
    x, y, rotation, name = decode_place(action)
    rules.put_on_display(t, (x, y), t.hands[t.player], rotation)
    return rules.score_placement(t, state._tiles, (x, y), name - 1 if name else EMPTY)


@pytest.fixture
def single() -> tuple[AxioState, int]:
    """One tile on the display showing red/green/blue/orange clockwise from the top-left; in
    hand a red/green/orange/blue tile. Only the cell South of it, hand turned orange/blue at the
    top, scores twice (orange and blue); every other placement scores at most once."""
    tiles = game().tiles  # type: ignore[attr-defined]
    shown = tile_with(tiles, (RED, GREEN, BLUE, ORANGE), set())
    hand = tile_with(tiles, (RED, GREEN, ORANGE, BLUE), {shown})
    rotation = next(r for r in range(4) if turned(tiles[shown], r) == (RED, GREEN, BLUE, ORANGE))
    return position({(0, 0): (shown, rotation)}, hand, [9, 9, 9, 3, 9]), hand


def test_greedy_takes_the_double_in_its_lowest_colour(single: tuple[AxioState, int]) -> None:
    state, hand = single
    tiles = state._tiles
    rotation = next(r for r in range(4) if turned(tiles[hand], r)[:2] == (ORANGE, BLUE))
    best = place_action(0, -1, rotation, 0)
    assert gained(state, best) == [0, 0, 1, 1, 0]  # the premise: orange and blue
    assert sorted(sum(gained(state, a)) for a in state.legal_actions())[-2:] == [1, 2]
    assert AxioGreedy(state.get_game(), 0).step(state) == best


def test_greedy_scores_no_points_above_12(single: tuple[AxioState, int]) -> None:
    """Orange and blue full: the double is worthless, a point in a colour below 12 is not."""
    state, _ = single
    state.table.scores[0] = [5, 6, 12, 12, 7]
    action = AxioGreedy(state.get_game(), 0).step(state)
    points = gained(state, action)
    assert points[RED] + points[GREEN] == 1


@pytest.mark.parametrize("supply", [10, 0])
def test_greedy_takes_axio_when_it_earns_an_extra_turn(single: tuple[AxioState, int],
                                                      supply: int) -> None:
    """Red at 11, the rest low, the bot's last tile: a red point means AXIO! and an extra turn,
    worth more than the double, unless the supply is empty (then red is as good as done)."""
    state, hand = single
    state = position(dict(state.table.cells), hand, [11, 4, 4, 4, 4], supply=supply,
                     placed=11)
    action = AxioGreedy(state.get_game(), 0).step(state)
    state.apply_action(action)
    if supply:
        assert state.table.scores[0][RED] == 12
        assert state.table.phase == DRAW_EXTRA and state.current_player() < 0
    else:
        assert state.table.scores[0][RED] == 11
        assert sum(state.table.scores[0]) == 11 + 4 * 4 + 2  # the double


def test_pour_fills_the_lowest_tracks_first() -> None:
    tracks = [12.0, 3.0, 5.0, 4.0, 11.0]
    pour(tracks, 3.0)
    assert tracks == [12.0, 5.0, 5.0, 5.0, 11.0]
    full = [12.0, 12.0, 12.0, 12.0, 11.5]
    pour(full, 3.0)
    assert full == [12.0] * 5


# --- always legal, deterministic, fast --------------------------------------------------------

@pytest.mark.parametrize("num_players", [1, 2, 3, 4])
def test_greedy_plays_only_legal_actions_in_whole_games(num_players: int) -> None:
    g = game(num_players)
    for seed in range(4):
        bots = ["greedy" if (seat + seed) % 2 == 0 or num_players == 1 else "random"
                for seat in range(num_players)]
        record = tlatelolco.play_match(g, bots, seed=seed)  # raises on an illegal action
        assert record["result"] is not None
    all_greedy = tlatelolco.play_match(g, ["greedy"] * num_players, seed=99)
    assert min(all_greedy["result"]["scores"]) >= 0


@pytest.mark.parametrize("num_players", [1, 2, 3, 4])
def test_greedy_answers_legally_where_random_play_goes(num_players: int) -> None:
    """Random play spreads the display wide (hundreds of placements): still legal. Speed is
    measured by benchmarks, not asserted here."""
    g = game(num_players)
    bots = [AxioGreedy(g, seat, seed=seat) for seat in range(num_players)]
    assert check_bot_in_random_play(g, bots, games=3, seed=num_players) > 0


def test_greedy_is_deterministic_for_a_seed() -> None:
    g = game(3)
    first = tlatelolco.play_match(g, ["greedy", "random", "greedy"], seed=42)
    second = tlatelolco.play_match(g, ["greedy", "random", "greedy"], seed=42)
    assert first["history"] == second["history"]
    cut = next(k for k in range(30, len(first["history"]))
               if g.replay(first["history"][:k]).current_player() >= 0)
    state = g.replay(first["history"][:cut])
    seat = state.current_player()
    one, two = make_bot("greedy", g, seat, 7), make_bot("greedy", g, seat, 7)
    assert one.step(state) == two.step(state) == one.step(state.clone())


def test_greedy_ignores_the_hidden_hands_of_the_others() -> None:
    """Re-dealing the other seats' hands (as the match runner does) never changes the choice."""
    for num_players in (2, 4):
        g = game(num_players)
        rng = random.Random(num_players)
        state = g.new_initial_state()
        checked = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
                continue
            seat = state.current_player()
            bot = AxioGreedy(g, seat, seed=seat)
            views = [state.resample_from_infostate(seat, random.Random(k)) for k in range(4)]
            others = {tuple(v.table.hands) for v in views}
            choices = {bot.step(v) for v in views} | {bot.step(state)}
            assert len(choices) == 1, (state.move_number(), choices)
            checked += len(others) > 1
            state.apply_action(choices.pop())
        assert checked > 10  # the re-deals did differ


def test_greedy_is_registered_and_takes_parameters() -> None:
    g = game(2)
    assert "greedy" in bot_names(g)
    assert isinstance(make_bot("greedy", g, 1, 0), AxioGreedy)
    tuned = make_bot("greedy:caution=0,extra=2.5,start=0.1,end=1", g, 0, 0)
    assert isinstance(tuned, AxioGreedy) and (tuned.caution, tuned.extra) == (0.0, 2.5)
    with pytest.raises(ValueError, match="no parameter"):
        make_bot("greedy:depth=2", g, 0, 0)
    with pytest.raises(ValueError, match="positive"):
        make_bot("greedy:start=0", g, 0, 0)


def test_the_tile_set_has_the_shapes_the_positions_use() -> None:
    tiles = game().tiles  # type: ignore[attr-defined]
    assert len(tiles) == NUM_TILES
    tile_with(tiles, (RED, GREEN, BLUE, ORANGE), set())
    tile_with(tiles, (RED, GREEN, ORANGE, BLUE), set())


# --- strong -----------------------------------------------------------------------------------

def test_greedy_beats_random_heads_up() -> None:
    result = head_to_head("axio", "greedy", "random", games=100, seed=2024)
    assert result["games"] == 100
    assert result["win_share"] >= 0.9, result
    assert result["ci95"][0] > 0.8


@pytest.mark.parametrize("num_players", [3, 4])
def test_greedy_beats_random_at_a_crowded_table(num_players: int) -> None:
    result = head_to_head("axio", "greedy", "random", games=30, seed=7, num_players=num_players)
    assert result["win_share"] >= 0.8, result
