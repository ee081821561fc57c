"""AX-7: the invariants of Axio hold at every step of thousands of random games."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tlatelolco
from tlatelolco.chance import sample_chance
from tlatelolco.games.axio import AxioState
from tlatelolco.games.axio.table import START_CELLS, START_SQUARE, Table
from tlatelolco.games.axio.tiles import NUM_COLOURS

GAMES_PER_COUNT = 500  # x 4 player counts
NEIGHBOURS = ((1, 0), (-1, 0), (0, 1), (0, -1))


def check_invariants(t: Table) -> None:
    placed = [tile for tile, _ in t.cells.values()]
    held = [h for h in t.hands if h >= 0]
    assert sorted(placed + held + t.pool) == list(range(60)), "each tile in exactly one place"
    start_left = 4 - len(t.cells) if t.phase == START_SQUARE else 0
    assert len(t.pool) == sum(t.stack_left) + t.supply_left + start_left
    for x, y in t.cells:
        if (x, y) not in START_CELLS:
            assert any((x + dx, y + dy) in t.cells for dx, dy in NEIGHBOURS), "edge-adjacent"
    for seat, board in enumerate(t.scores):
        assert all(0 <= s <= 12 for s in board), "scores 0..12"
        assert t.extra_taken[seat] == board.count(12) <= NUM_COLOURS, "one extra turn a colour"


@pytest.mark.parametrize("num_players", [1, 2, 3, 4])
@settings(max_examples=GAMES_PER_COUNT, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**64 - 1))
def test_ax7_invariants_hold_in_random_games(num_players: int, seed: int) -> None:
    rng = random.Random(seed)  # seeded moves: fast, and a failing seed replays
    state = tlatelolco.load("axio", num_players=num_players).new_initial_state()
    assert isinstance(state, AxioState)
    while not state.is_terminal():
        check_invariants(state.table)
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    t = state.table
    check_invariants(t)
    assert t.placed_from_stack == [12] * num_players, "12 tiles each from the own stack"
    extra = len(t.cells) - 4 - 12 * num_players  # tiles placed in extra turns, from the supply
    assert 0 <= extra <= sum(t.extra_taken)
