"""One test (or more) per rule and ruling of the Grand Bazaar digest, named by its id."""

from __future__ import annotations

import itertools
import random

import pytest
from tests.grand_bazaar.positions import (
    EMERALD,
    END_TURN,
    RUBY,
    SAPPHIRE,
    buy,
    position,
    sell,
    state_at,
)

import tlatelolco
from tlatelolco import CHANCE, TERMINAL, IllegalActionError
from tlatelolco.games.grand_bazaar import rules
from tlatelolco.games.grand_bazaar.cards import PRICE_CARDS

# --- GB-1 components ------------------------------------------------------------------------


def test_gb1_ruling_price_deck_is_every_combination_once() -> None:
    assert sorted(PRICE_CARDS) == sorted(itertools.product((-1, 0, 1), repeat=3))
    assert len(set(PRICE_CARDS)) == 27


def test_gb1_each_gems_changes_sum_to_zero_over_the_deck() -> None:
    for gem in range(3):
        assert sum(card[gem] for card in PRICE_CARDS) == 0


def test_gb1_thirty_gem_cards_ten_of_each() -> None:
    b = rules.set_up(3)
    assert b.supply == [10, 10, 10]


def test_gb1_prices_stay_within_1_and_19_even_in_the_most_extreme_order() -> None:
    game = tlatelolco.load("grand_bazaar", num_players=2)
    state = game.new_initial_state()
    # All sapphire +1 cards first: the sapphire price peaks at 19.
    order = sorted(range(27), key=lambda c: -PRICE_CARDS[c][0])
    peak = 0
    for card in order:
        while not state.is_chance_node():
            state.apply_action(_any_cheap_finish(state))
            if state.is_terminal():
                break
        if state.is_terminal():
            break
        state.apply_action(card)
        peak = max(peak, state.bazaar.prices[SAPPHIRE])
        assert all(1 <= p <= 19 for p in state.bazaar.prices)
    assert peak == 19


def _any_cheap_finish(state: tlatelolco.State) -> int:
    """Buy one gem if needed, then end the turn."""
    legal = state.legal_actions()
    return END_TURN if END_TURN in legal else min(legal)


def test_gb1_ruling_money_is_an_integer_and_change_is_always_available() -> None:
    b = position(money=[1, 30], prices=[1, 19, 10])
    state = state_at(b)
    state.apply_action(buy(SAPPHIRE))  # pay exactly 1 of 1 grand
    assert state.bazaar.money[0] == 0 and isinstance(state.bazaar.money[0], int)


# --- GB-2 set-up ----------------------------------------------------------------------------


def test_gb2_set_up_thirty_grands_no_gems_prices_ten() -> None:
    state = tlatelolco.load("grand_bazaar").new_initial_state()
    b = state.bazaar
    assert b.money == [30, 30, 30]
    assert b.hands == [[0, 0, 0]] * 3
    assert b.prices == [10, 10, 10]


def test_gb2_deck_is_shuffled_face_down_as_a_chance_event() -> None:
    state = tlatelolco.load("grand_bazaar").new_initial_state()
    assert state.current_player() == CHANCE
    outcomes = state.chance_outcomes()
    assert [a for a, _ in outcomes] == list(range(27))
    assert all(p == pytest.approx(1 / 27) for _, p in outcomes)


def test_gb2_player_count_two_to_seven_default_three() -> None:
    assert tlatelolco.load("grand_bazaar").num_players() == 3
    for n in range(2, 8):
        assert tlatelolco.load("grand_bazaar", num_players=n).num_players() == n
    for bad in (1, 8, 0):
        with pytest.raises(ValueError, match=r"num_players=.* allowed: an integer from 2 to 7"):
            tlatelolco.load("grand_bazaar", num_players=bad)


def test_gb2_seat_zero_is_the_first_start_player() -> None:
    state = tlatelolco.load("grand_bazaar", num_players=4).new_initial_state()
    state.apply_action(13)
    assert state.current_player() == 0


# --- GB-3 rounds ----------------------------------------------------------------------------


def _finish_turn(state: tlatelolco.State) -> None:
    """Make the mandatory buy (selling first if needed) and end the turn."""
    seat = state.current_player()
    while state.current_player() == seat:
        state.apply_action(_any_cheap_finish(state))


@pytest.mark.parametrize("n", [2, 3, 5])
def test_gb3_start_player_rotates_and_trading_goes_clockwise(n: int) -> None:
    state = tlatelolco.load("grand_bazaar", num_players=n).new_initial_state()
    rng = random.Random(n)
    for r in range(1, 8):
        assert state.current_player() == CHANCE
        state.apply_action(rng.choice(state.legal_actions()))
        order = []
        while state.current_player() >= 0:
            seat = state.current_player()
            order.append(seat)
            _finish_turn(state)
        assert order == [(r - 1 + i) % n for i in range(n)]


def test_gb3_reveal_moves_every_price_by_its_change() -> None:
    state = tlatelolco.load("grand_bazaar").new_initial_state()
    state.apply_action(state.string_to_action("reveal +1 -1 0"))
    assert state.bazaar.prices == [11, 9, 10]  # the rulebook's example


def test_gb3_round_27_has_no_trading_and_the_game_ends_with_prices_at_ten() -> None:
    state = tlatelolco.load("grand_bazaar", num_players=2).new_initial_state()
    rng = random.Random(3)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.legal_actions()))
        else:
            _finish_turn(state)
    assert state.bazaar.round == 27
    assert state.bazaar.prices == [10, 10, 10]
    assert state.current_player() == TERMINAL
    assert sum(1 for a in state.history() if a < 27) == 27


# --- GB-4 a trading turn --------------------------------------------------------------------


def test_gb4_must_buy_at_least_one_gem_before_ending() -> None:
    state = state_at(position())
    assert END_TURN not in state.legal_actions()
    with pytest.raises(IllegalActionError, match="must buy at least one gem"):
        state.apply_action(END_TURN)
    state.apply_action(buy(RUBY))
    assert END_TURN in state.legal_actions()


def test_gb4_buying_pays_the_price_to_the_bank() -> None:
    state = state_at(position(prices=[7, 12, 10]))
    state.apply_action(buy(RUBY))
    b = state.bazaar
    assert (b.money[0], b.hands[0], b.supply) == (18, [0, 1, 0], [10, 9, 10])


def test_gb4_a_gem_can_only_be_bought_while_the_bazaar_has_it() -> None:
    state = state_at(position(supply=[0, 10, 10]))
    assert buy(SAPPHIRE) not in state.legal_actions()
    with pytest.raises(IllegalActionError, match="no sapphire left"):
        state.apply_action(buy(SAPPHIRE))


def test_gb4_selling_only_from_round_two() -> None:
    b = position(round=1, turn=0, hands=[[1, 0, 0], [0, 0, 0]])
    state = state_at(b)
    assert sell(SAPPHIRE) not in state.legal_actions()
    with pytest.raises(IllegalActionError, match="from round 2"):
        state.apply_action(sell(SAPPHIRE))
    b2 = position(round=2, turn=1, hands=[[1, 0, 0], [0, 0, 0]])
    state2 = state_at(b2)
    assert state2.current_player() == 0
    state2.apply_action(sell(SAPPHIRE))
    assert state2.bazaar.money[0] == 40 and state2.bazaar.supply[SAPPHIRE] == 11


def test_gb4_trades_in_any_order_one_card_at_a_time() -> None:
    state = state_at(position(hands=[[2, 0, 0], [0, 0, 0]], supply=[8, 10, 10]))
    for action in (buy(RUBY), sell(SAPPHIRE), buy(EMERALD), sell(SAPPHIRE), buy(RUBY)):
        state.apply_action(action)
    assert state.bazaar.hands[0] == [0, 2, 1]
    assert state.bazaar.money[0] == 30 - 10 + 10 - 10 + 10 - 10


def test_gb4_hand_limit_four() -> None:
    state = state_at(position(money=[100, 30]))
    for _ in range(4):
        state.apply_action(buy(EMERALD))
    assert not any(a in state.legal_actions() for a in (buy(0), buy(1), buy(2)))
    with pytest.raises(IllegalActionError, match="hand limit"):
        state.apply_action(buy(RUBY))


def test_gb4_with_four_cards_sell_before_buying() -> None:
    state = state_at(position(hands=[[4, 0, 0], [0, 0, 0]], supply=[6, 10, 10]))
    assert state.legal_action_strings() == ["sell sapphire"]
    state.apply_action(sell(SAPPHIRE))
    assert buy(RUBY) in state.legal_actions()


@pytest.mark.parametrize("first, second", [(buy(RUBY), sell(RUBY)), (sell(RUBY), buy(RUBY))])
def test_gb4_no_wash_trades(first: int, second: int) -> None:
    state = state_at(position(hands=[[0, 1, 0], [0, 0, 0]], supply=[10, 9, 10]))
    state.apply_action(first)
    assert second not in state.legal_actions()
    with pytest.raises(IllegalActionError, match="no wash trades"):
        state.apply_action(second)


def test_gb4_no_wash_trade_lasts_only_the_round() -> None:
    state = state_at(position(num_players=2, hands=[[0, 1, 0], [0, 0, 0]], supply=[10, 9, 10]))
    state.apply_action(sell(RUBY))
    state.apply_action(buy(SAPPHIRE))
    state.apply_action(END_TURN)
    state.apply_action(buy(SAPPHIRE))  # seat 1
    state.apply_action(END_TURN)
    state.apply_action(13)  # next round's card: +0 +0 +0
    state.apply_action(buy(EMERALD))  # seat 1 starts round 6
    state.apply_action(END_TURN)
    assert state.current_player() == 0
    assert buy(RUBY) in state.legal_actions()


def test_gb4_money_never_goes_below_zero() -> None:
    state = state_at(position(money=[9, 30], prices=[10, 12, 11]))
    with pytest.raises(IllegalActionError, match="costs 10 and you have 9"):
        state.apply_action(buy(SAPPHIRE))
    assert state.bazaar.money[0] == 9


def test_gb4_short_of_money_must_sell_first() -> None:
    state = state_at(position(money=[2, 30], hands=[[0, 1, 0], [0, 0, 0]], prices=[9, 12, 9]))
    assert state.legal_action_strings() == ["sell ruby"]
    state.apply_action(sell(RUBY))
    assert set(state.legal_action_strings()) == {"buy sapphire", "buy emerald"}


# --- GB-4 ruling: the stuck player ----------------------------------------------------------


def test_gb4_ruling_stuck_with_no_money_and_no_gems_may_end_the_turn() -> None:
    state = state_at(position(money=[0, 30]))
    assert state.legal_action_strings() == ["end turn"]
    state.apply_action(END_TURN)
    assert state.current_player() == 1


def test_gb4_ruling_stuck_when_selling_would_not_pay_for_any_buyable_gem() -> None:
    # 2 grands + a ruby at 3 = 5 < 9; the ruby itself cannot be bought back (no wash trades).
    state = state_at(position(money=[2, 30], hands=[[0, 1, 0], [0, 0, 0]], prices=[9, 3, 9]))
    assert set(state.legal_action_strings()) == {"sell ruby", "end turn"}


def test_gb4_ruling_stuck_when_the_bazaar_is_out_of_every_affordable_gem() -> None:
    state = state_at(position(supply=[0, 0, 10], prices=[5, 5, 31]))
    assert state.legal_action_strings() == ["end turn"]


def test_gb4_ruling_stuck_in_round_one_cannot_sell() -> None:
    b = position(round=1, turn=0, money=[5, 30], hands=[[0, 1, 0], [0, 0, 0]], prices=[9, 9, 9])
    assert state_at(b).legal_action_strings() == ["end turn"]


def test_gb4_ruling_stuck_with_a_full_hand_of_the_only_gem_in_supply() -> None:
    b = position(hands=[[4, 0, 0], [0, 0, 0]], supply=[6, 0, 0])
    state = state_at(b)
    # Selling sapphire frees room but forbids buying sapphire this round.
    assert set(state.legal_action_strings()) == {"sell sapphire", "end turn"}


def test_gb4_ruling_ending_without_a_buy_is_illegal_while_a_buy_is_reachable() -> None:
    state = state_at(position(money=[0, 30], hands=[[0, 1, 0], [0, 0, 0]], prices=[9, 12, 20]))
    with pytest.raises(IllegalActionError, match="you still can"):
        state.apply_action(END_TURN)


def test_gb4_ruling_no_selling_out_of_the_buy() -> None:
    """GB-4 ruling (no selling out of the buy): before the turn's first buy, a sale is legal only
    if a buy is still reachable after it. The rules page's example: selling both gems would
    forbid buying either back, and 24 grands do not buy a sapphire."""
    state = state_at(position(money=[0, 30], hands=[[0, 1, 1], [0, 0, 0]], prices=[30, 12, 12]))
    state.apply_action(sell(RUBY))
    assert END_TURN not in state.legal_actions()  # the emerald can still be bought
    assert state.legal_action_strings() == ["buy emerald"]
    with pytest.raises(IllegalActionError, match="no way to make the mandatory buy"):
        state.apply_action(sell(EMERALD))
    state.apply_action(buy(EMERALD))
    assert state.legal_action_strings() == ["end turn"]


def test_gb4_ruling_a_player_stuck_from_the_start_may_still_sell() -> None:
    state = state_at(position(money=[0, 30], hands=[[0, 1, 0], [0, 0, 0]], prices=[30, 5, 30]))
    assert set(state.legal_action_strings()) == {"sell ruby", "end turn"}
    state.apply_action(sell(RUBY))
    assert state.legal_action_strings() == ["end turn"]


def _reachable_by_search(b: rules.Bazaar, seat: int) -> bool:
    """Exhaustive search over sell/buy sequences: can the player complete a buy?"""
    if rules.why_cannot_end_turn(b, seat) is None and b.bought:
        return True
    for gem in range(3):
        if rules.why_cannot_buy(b, seat, gem) is None:
            return True
    for gem in range(3):
        if rules.why_cannot_sell(b, seat, gem) is None:
            nxt = b.copy()
            rules.sell(nxt, seat, gem)
            if _reachable_by_search(nxt, seat):
                return True
    return False


def test_gb4_ruling_reachability_matches_an_exhaustive_search() -> None:
    rng = random.Random(7)
    for _ in range(3000):
        hand = [0, 0, 0]
        for _ in range(rng.randint(0, 4)):
            hand[rng.randrange(3)] += 1
        supply = [rng.choice((0, 0, 1, 5)) for _ in range(3)]
        b = position(
            round=rng.choice((1, 2, 9)),
            money=[rng.randint(0, 25), 30],
            hands=[hand, [0, 0, 0]],
            prices=[rng.randint(1, 19) for _ in range(3)],
            supply=supply,
            sold=rng.choice((0, 0, 1, 2, 4)) & ~sum(1 << g for g in range(3) if not hand[g]),
        )
        if b.round == 1:
            b.turn = 0
            b.sold = 0
        assert rules.buy_reachable(b, 0) == _reachable_by_search(b, 0), b


# --- GB-5 end and scoring -------------------------------------------------------------------


def _last_reveal_position(**fields: object) -> rules.Bazaar:
    b = position(num_players=3, round=26, turn=3, deck=1 << 13, **fields)
    return b


def test_gb5_each_gem_held_pays_ten_grands_after_the_last_card() -> None:
    b = _last_reveal_position(money=[12, 40, 5], hands=[[1, 2, 0], [0, 0, 0], [0, 0, 4]],
                              supply=[9, 8, 6])
    state = state_at(b)
    assert state.is_chance_node() and state.legal_actions() == [13]
    state.apply_action(13)
    assert state.is_terminal()
    assert state.scores() == [42.0, 40.0, 45.0]
    assert state.returns() == [0.0, 0.0, 1.0]


def test_gb5_tied_players_share_the_victory() -> None:
    b = _last_reveal_position(money=[30, 20, 40], hands=[[1, 0, 0], [0, 0, 2], [0, 0, 0]],
                              supply=[9, 10, 8])
    state = state_at(b)
    state.apply_action(13)
    assert state.scores() == [40.0, 40.0, 40.0]
    assert state.returns() == pytest.approx([1 / 3] * 3)


def test_gb5_no_returns_before_the_end() -> None:
    state = state_at(position())
    assert state.returns() == [0.0, 0.0]


# --- GB-6 information -----------------------------------------------------------------------


def test_gb6_every_seat_sees_the_same_and_the_unrevealed_set_is_public() -> None:
    state = tlatelolco.load("grand_bazaar", num_players=3).new_initial_state()
    state.apply_action(5)
    views = [state.observation(seat) for seat in range(3)]
    assert views[0] == views[1] == views[2]
    assert len(views[0]["price_cards_left"]) == 26
    assert views[0]["last_card"] == "-1 0 +1"  # card 5


def test_gb6_deck_order_is_not_part_of_the_state() -> None:
    """The next card is drawn only when revealed, so no view or copy can know it early."""
    state = tlatelolco.load("grand_bazaar").new_initial_state()
    sampled = state.resample_from_infostate(1, random.Random(0))
    assert sampled == state
    assert all(p == pytest.approx(1 / 27) for _, p in state.chance_outcomes())
