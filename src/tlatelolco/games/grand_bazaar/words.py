"""Grand Bazaar's moves told in words for the game log, in the reader's language.

`describe` reads the position *before* the move (the price paid is the price then) and only
builds a message: rendering it in English or Spanish is `i18n.render`'s job. Every word shown
to a player is marked here with `N_` so that the game's catalogue translates it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tlatelolco.games.grand_bazaar.cards import (
    BUY,
    END_TURN,
    NUM_CARDS,
    PAYOUT_PER_GEM,
    PRICE_CARDS,
    ROUNDS,
    SELL,
    card_text,
)
from tlatelolco.i18n import N_, Message, N_n, Plural, Seat, Term

if TYPE_CHECKING:
    from tlatelolco.games.grand_bazaar.state import GrandBazaarState

# in gem order (cards.GEMS): the bare name, and the name with its article ("an emerald")
GEM_NAMES = (N_("sapphire"), N_("ruby"), N_("emerald"))
A_GEM = (N_("a sapphire"), N_("a ruby"), N_("an emerald"))


def grands(n: int) -> Message:
    """An amount of money: "1 grand", "11 grands"."""
    return Plural(N_n("{n} grand", "{n} grands"), n), {}


def describe(state: GrandBazaarState, action: int) -> Message:
    """`action` told as a log reads it, on `state` before the action is applied."""
    b = state.bazaar
    if 0 <= action < NUM_CARDS:
        return _reveal(b.prices, b.round, action)
    seat = state.current_player()
    if seat < 0 or not BUY <= action <= END_TURN:  # not a trade the engine would take
        return "{text}", {"text": state.action_to_string(action)}
    player = Seat(seat)
    if action < SELL:
        gem = action - BUY
        return N_("{player} bought {good} for {price}"), {
            "player": player, "good": Term(A_GEM[gem]), "price": grands(b.prices[gem])}
    if action < END_TURN:
        gem = action - SELL
        return N_("{player} sold {good} for {price}"), {
            "player": player, "good": Term(A_GEM[gem]), "price": grands(b.prices[gem])}
    if b.bought:
        return N_("{player} ended the turn"), {"player": player}
    return N_("{player} could not buy any gem and ended the turn"), {"player": player}


def _reveal(prices: list[int], round_before: int, card: int) -> Message:
    """A price card: each gem's new price, and on the last card the payout that ends the game."""
    moves = [_price_move(gem, change, prices[gem] + change)
             for gem, change in enumerate(PRICE_CARDS[card])]
    changes = N_("{first}, {second} and {third}"), {
        "first": moves[0], "second": moves[1], "third": moves[2]}
    fields = {"card": card_text(card), "changes": changes, "round": round_before + 1}
    if round_before + 1 == ROUNDS:
        return N_("Last price card {card}: {changes}. Each gem still held pays {payout}"), {
            **fields, "payout": grands(PAYOUT_PER_GEM)}
    return N_("Price card {card} for round {round}: {changes}"), fields


def _price_move(gem: int, change: int, price: int) -> Message:
    fields = {"gem": Term(GEM_NAMES[gem]), "price": price}
    if change > 0:
        return N_("{gem} up to {price}"), fields
    if change < 0:
        return N_("{gem} down to {price}"), fields
    return N_("{gem} stays at {price}"), fields


__all__ = ["A_GEM", "GEM_NAMES", "describe", "grands"]
