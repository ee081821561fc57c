"""Grand Bazaar's reasons for an illegal move are English text (as every caller expects) and
messages the web page shows in Spanish too; tests named by the rule ids of the digest they cite.
"""

from __future__ import annotations

import random
from collections import Counter

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
from tests.reasons import spanish_of

import tlatelolco
from tlatelolco import IllegalActionError
from tlatelolco.games.grand_bazaar import GrandBazaarState
from tlatelolco.games.grand_bazaar.cards import FULL_DECK, NUM_ACTIONS, ROUNDS, SELL
from tlatelolco.i18n import Reason, in_words

GAMES_PER_COUNT = 4  # x 6 player counts: some 11,500 positions, every action number in each
# every reason Grand Bazaar builds, by its English template
TEMPLATES = {
    "actions are numbered 0 to {last}",
    "the game is over",
    "a price card must be revealed first",
    "no price card is due now",
    "that price card has already been revealed",
    "you sold {gem} this round (no wash trades)",
    "the bazaar has no {gem} left",
    "you hold {limit} gem cards (the hand limit); sell first",
    "{gem} costs {price} and you have {money} grands",
    "selling is allowed from round {n} on",
    "you bought {gem} this round (no wash trades)",
    "you hold no {gem}",
    "selling {gem} would leave you no way to make the mandatory buy; buy first",
    "you must buy at least one gem card this turn (you still can)",
}
NO_WASH = "(no se puede comprar y vender el mismo tipo de gema en una misma ronda)"


def positions(num_players: int, seed: int) -> list[GrandBazaarState]:
    """Copies of every state of one random game, start to end, played with a per-game bias
    towards buying, selling or ending so that full hands, sold-out stacks and the sell-out
    ruling are met (uniform play rarely reaches them)."""
    rng = random.Random(seed)
    weights = [rng.uniform(0.05, 1.0) for _ in range(3)]
    state = tlatelolco.load("grand_bazaar", num_players=num_players).new_initial_state()
    assert isinstance(state, GrandBazaarState)
    seen = [state.clone()]
    while not state.is_terminal():
        legal = state.legal_actions()
        kinds = [weights[0] if a < SELL else weights[1] if a < END_TURN else weights[2]
                 for a in legal]
        state.apply_action(rng.choice(legal) if state.is_chance_node()
                           else rng.choices(legal, kinds)[0])
        seen.append(state.clone())
    return seen


def test_every_reason_is_a_message_that_reads_in_spanish() -> None:
    """In every position of random games with 2 to 7 players, the reason of every refused action
    number (and of numbers outside the space) is a `Reason` whose message renders to its
    English, and to a different Spanish without a field left."""
    templates: Counter[str] = Counter()
    differs = total = 0
    for num_players in range(2, 8):
        for game in range(GAMES_PER_COUNT):
            for state in positions(num_players, num_players * 100 + game):
                for action in (-1, *range(NUM_ACTIONS), NUM_ACTIONS, 1000):
                    why = state.illegal_reason(action)
                    if why is None:
                        continue
                    spanish = spanish_of(why, ["Ana", "Bea"])
                    templates[str(why.message[0])] += 1
                    differs += spanish != str(why)
                    total += 1
    assert set(templates) == TEMPLATES, f"reasons never met: {TEMPLATES - set(templates)}"
    share = differs / total
    print(f"\n{total} reasons, {share:.1%} read differently in Spanish; by template: "
          f"{dict(templates)}")
    assert share == 1.0


# --- reasons built on purpose ------------------------------------------------------------------


def both(state: GrandBazaarState, action: int) -> tuple[str, str]:
    why = state.illegal_reason(action)
    assert isinstance(why, Reason)
    return str(why), in_words(why, "es")


def test_gb4_no_wash_trades_buying_back_what_was_sold() -> None:
    state = state_at(position(sold=1 << RUBY))
    assert both(state, buy(RUBY)) == (
        "you sold ruby this round (no wash trades)",
        f"en esta ronda has vendido cartas de rubí {NO_WASH}")


def test_gb4_no_wash_trades_selling_what_was_bought() -> None:
    state = state_at(position(bought=1 << EMERALD, hands=[[0, 0, 1], [0, 0, 0]]))
    assert both(state, sell(EMERALD)) == (
        "you bought emerald this round (no wash trades)",
        f"en esta ronda has comprado cartas de esmeralda {NO_WASH}")


def test_gb4_a_gem_is_bought_only_while_the_bazaar_has_it() -> None:
    state = state_at(position(supply=[0, 10, 10]))
    assert both(state, buy(SAPPHIRE)) == (
        "the bazaar has no sapphire left", "no quedan cartas de zafiro en el bazar")


def test_gb4_hand_limit_sell_before_buying() -> None:
    state = state_at(position(hands=[[2, 2, 0], [0, 0, 0]]))
    assert both(state, buy(EMERALD)) == (
        "you hold 4 gem cards (the hand limit); sell first",
        "tienes 4 cartas de gema (el máximo que se puede tener en la mano); vende primero")


def test_gb4_money_never_goes_below_zero() -> None:
    state = state_at(position(money=[5, 30], prices=[10, 11, 9]))
    assert both(state, buy(RUBY)) == (
        "ruby costs 11 and you have 5 grands", "una carta de rubí cuesta 11 y tienes 5 grands")


def test_gb4_selling_from_round_2_on() -> None:
    state = state_at(position(round=1, turn=0, hands=[[1, 0, 0], [0, 0, 0]]))
    assert both(state, sell(SAPPHIRE)) == (
        "selling is allowed from round 2 on", "solo se puede vender a partir de la ronda 2")


def test_gb4_only_held_gems_are_sold() -> None:
    assert both(state_at(position()), sell(EMERALD)) == (
        "you hold no emerald", "no tienes cartas de esmeralda")


def test_gb4_ruling_no_selling_out_of_the_buy() -> None:
    """Only sapphires are left in the bazaar: selling the one held forbids buying one back."""
    state = state_at(position(supply=[5, 0, 0], hands=[[1, 0, 0], [0, 0, 0]], money=[10, 30]))
    assert both(state, sell(SAPPHIRE)) == (
        "selling sapphire would leave you no way to make the mandatory buy; buy first",
        "si vendes una carta de zafiro ya no podrás hacer la compra obligatoria; compra primero")


def test_gb4_ruling_stuck_player_must_buy_while_a_buy_is_reachable() -> None:
    assert both(state_at(position()), END_TURN) == (
        "you must buy at least one gem card this turn (you still can)",
        "debes comprar al menos una carta de gema en este turno (todavía puedes)")


def test_gb3_a_price_card_opens_each_round() -> None:
    state = tlatelolco.load("grand_bazaar", num_players=3).new_initial_state()
    assert isinstance(state, GrandBazaarState)
    assert both(state, buy(RUBY)) == (
        "a price card must be revealed first", "primero hay que revelar una carta de precio")
    assert both(state_at(position()), 4) == (
        "no price card is due now", "ahora no toca revelar ninguna carta de precio")


def test_gb7_each_price_card_is_revealed_once() -> None:
    state = state_at(position(num_players=2, turn=2, deck=FULL_DECK & ~(1 << 13)))
    assert state.is_chance_node()
    assert both(state, 13) == (
        "that price card has already been revealed", "esa carta de precio ya se ha revelado")


def test_gb5_nothing_is_played_once_the_game_is_over() -> None:
    state = state_at(position(round=ROUNDS, deck=0))
    assert state.is_terminal()
    assert both(state, buy(SAPPHIRE)) == ("the game is over", "la partida ha terminado")


@pytest.mark.parametrize("action", [-1, NUM_ACTIONS])
def test_action_numbers_outside_the_space(action: int) -> None:
    assert both(state_at(position()), action) == (
        f"actions are numbered 0 to {NUM_ACTIONS - 1}",
        f"las acciones van numeradas del 0 al {NUM_ACTIONS - 1}")


def test_callers_still_read_english() -> None:
    """The contract's error message quotes the reason in English, byte for byte."""
    with pytest.raises(IllegalActionError,
                       match=r"is not legal: you hold no emerald\. Legal now: "):
        state_at(position()).apply_action(sell(EMERALD))
