"""The evaluations truncated searches stop on: shares of victory that mean what they say."""

from __future__ import annotations

import random

import pytest
from tests.mexica.positions import scored_city, sq, state_at

from tlatelolco import load
from tlatelolco.bots.evaluation import (
    UNFOUNDED_TWO,
    axio_scale,
    evaluator_for,
    mexica_scale,
    mexica_worth,
)
from tlatelolco.chance import sample_chance
from tlatelolco.games.grand_bazaar import rules as gb_rules
from tlatelolco.games.grand_bazaar.cards import GEMS_PER_TYPE, PRICE_CARDS
from tlatelolco.games.grand_bazaar.state import GrandBazaarState

GAMES = ["axio", "aztec_market", "grand_bazaar", "mexica"]


@pytest.mark.parametrize("game_name", GAMES)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_shares_are_a_division_of_one_victory(game_name: str, players: int) -> None:
    game = load(game_name, num_players=players)
    evaluate = evaluator_for(game)
    rng = random.Random(players)
    state = game.new_initial_state()
    sides = game.teams()
    for _ in range(400):
        if state.is_terminal():
            break
        if not state.is_chance_node():
            values = evaluate(state)
            assert len(values) == players and all(0.0 <= v <= 1.0 for v in values)
            assert sum(values[side[0]] for side in sides) == pytest.approx(1.0)
            assert all(values[seat] == values[side[0]] for side in sides for seat in side)
            state.apply_action(rng.choice(state.legal_actions()))
        else:
            state.apply_action(sample_chance(state, rng))


def bazaar_position(revealed: int, money: list[int], hands: list[list[int]]) -> GrandBazaarState:
    """A 2-player Grand Bazaar position before a reveal, with prices at 10: the cards revealed
    are the blank one (for an odd count) and pairs of opposite cards, so positions differ only
    in the lead, the hands and how many cards are left."""
    b = gb_rules.set_up(2)
    b.money, b.hands = money, hands
    b.supply = [GEMS_PER_TYPE - sum(h[g] for h in hands) for g in range(3)]
    index = {change: c for c, change in enumerate(PRICE_CARDS)}
    pairs = [(c, index[tuple(-d for d in change)]) for c, change in enumerate(PRICE_CARDS)
             if change > (0, 0, 0)]
    chosen = [index[(0, 0, 0)]] if revealed % 2 else []
    for pair in pairs[:revealed // 2]:
        chosen += pair
    for c in chosen:
        b.deck &= ~(1 << c)
    b.round, b.turn = revealed, (2 if revealed else 0)
    state = GrandBazaarState(load("grand_bazaar", num_players=2), b)
    assert state.is_chance_node() and b.prices == [10, 10, 10] and len(chosen) == revealed
    return state


def test_gb_the_same_lead_is_safer_near_the_end() -> None:
    evaluate = evaluator_for(load("grand_bazaar", num_players=2))
    early = evaluate(bazaar_position(1, [33, 30], [[0, 0, 0], [0, 0, 0]]))
    late = evaluate(bazaar_position(25, [33, 30], [[0, 0, 0], [0, 0, 0]]))
    assert 0.5 < early[0] < late[0]
    # A 3-grand lead between greedy bots wins most games from mid-game on (fitted on their play).
    assert evaluate(bazaar_position(13, [33, 30], [[0, 0, 0], [0, 0, 0]]))[0] > 0.75


def test_gb_a_leader_holding_what_the_rival_holds_is_safer() -> None:
    evaluate = evaluator_for(load("grand_bazaar", num_players=2))
    copied = evaluate(bazaar_position(21, [3, 0], [[3, 0, 0], [3, 0, 0]]))
    apart = evaluate(bazaar_position(21, [3, 0], [[3, 0, 0], [0, 0, 3]]))
    assert copied[0] > apart[0] > 0.5


def test_axio_leads_count_for_more_as_the_stacks_run_down() -> None:
    game = load("axio", num_players=2)
    state = game.new_initial_state()
    early = axio_scale(state, [0.0, 0.0])
    state.table.placed_from_stack[:] = [11, 11]
    assert axio_scale(state, [0.0, 0.0]) < early


def test_mx11_mexica_worth_in_part_two() -> None:
    """MX-11: part 2 has one scoring left, so a district counts its places once; an unfounded
    area will pay its size then, but canals and tiles still cut it up: it counts a share of
    its places, ranked as if no bigger than the biggest tile (13)."""
    state = state_at(scored_city(part=2))
    assert state.city.area_size[state.city.area[sq("M5")]] > 13
    assert mexica_worth(state) == pytest.approx([5, 3 + UNFOUNDED_TWO * 13, 2])
    tied = state_at(scored_city({"M6": (0, 4)}, part=2))
    assert mexica_worth(tied) == pytest.approx([5 + UNFOUNDED_TWO * 13, 3 + UNFOUNDED_TWO * 13, 2])


def test_mexica_leads_count_for_more_in_part_two() -> None:
    """Part 1's leads are still open to both scorings; part 2's to one."""
    part_one = load("mexica", num_players=2).new_initial_state()
    part_two = state_at(scored_city(part=2))
    assert mexica_scale(part_two, [0.0, 0.0, 0.0]) < mexica_scale(part_one, [0.0, 0.0])
