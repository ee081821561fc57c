"""The rules of Grand Bazaar, one function per rule, over the plain data of `Bazaar`.

Rule ids (GB-1 ... GB-7) refer to the project's rules digest. Functions named `why_cannot_*`
return the reason a move is illegal or None when it is legal: a `Reason` is the English text
every caller expects and also a message, so that the web page can show it in Spanish.
"""

from __future__ import annotations

from tlatelolco.contract import CHANCE, TERMINAL, shared_victory
from tlatelolco.games.grand_bazaar.board import Bazaar
from tlatelolco.games.grand_bazaar.cards import (
    BUY,
    END_TURN,
    FULL_DECK,
    GEMS_PER_TYPE,
    HAND_LIMIT,
    NUM_GEMS,
    PAYOUT_PER_GEM,
    PRICE_CARDS,
    ROUNDS,
    SELL,
    START_MONEY,
    START_PRICE,
)
from tlatelolco.games.grand_bazaar.words import GEM_NAMES
from tlatelolco.i18n import N_, Reason, Term, reason

SELLING_FROM_ROUND = 2  # GB-4: no selling in round 1


def set_up(num_players: int) -> Bazaar:
    """GB-2: 30 grands each, no gems, all prices at 10, the price deck face down."""
    return Bazaar(
        num_players=num_players,
        prices=[START_PRICE] * NUM_GEMS,
        supply=[GEMS_PER_TYPE] * NUM_GEMS,
        money=[START_MONEY] * num_players,
        hands=[[0] * NUM_GEMS for _ in range(num_players)],
        deck=FULL_DECK,
        round=0,
        turn=0,
        bought=0,
        sold=0,
    )


def start_player(b: Bazaar) -> int:
    """GB-3: in round r the start player is seat (r - 1) mod n."""
    return (b.round - 1) % b.num_players


def to_move(b: Bazaar) -> int:
    """Who acts: the trader, CHANCE when a price card is due, TERMINAL after card 27."""
    if b.round == ROUNDS:
        return TERMINAL
    if b.round == 0 or b.turn == b.num_players:
        return CHANCE
    return (b.round - 1 + b.turn) % b.num_players


def price_cards_left(b: Bazaar) -> list[int]:
    """GB-6: which cards are still face down is public; only their order is hidden."""
    deck = b.deck
    return [c for c in range(len(PRICE_CARDS)) if deck >> c & 1]


def reveal_price_card(b: Bazaar, card: int) -> None:
    """GB-3 (1): the top card moves every price; revealing card 27 ends the game (GB-5)."""
    b.deck &= ~(1 << card)
    b.last_card = card
    prices = b.prices
    for gem, change in enumerate(PRICE_CARDS[card]):
        prices[gem] += change
    b.round += 1
    b.turn = 0
    b.bought = b.sold = 0
    if b.round == ROUNDS:
        final_payout(b)


def why_cannot_reveal(b: Bazaar, card: int) -> Reason | None:
    """GB-3 (1): a price card is revealed only when one is due, and each card only once."""
    if to_move(b) != CHANCE:
        return reason(N_("no price card is due now"))
    if not 0 <= card < len(PRICE_CARDS) or not b.deck >> card & 1:
        return reason(N_("that price card has already been revealed"))
    return None


def why_cannot_buy(b: Bazaar, seat: int, gem: int) -> Reason | None:
    """GB-4: buy one gem card at its current price."""
    hand, name = b.hands[seat], _gem(gem)
    if b.sold >> gem & 1:
        return reason(N_("you sold {gem} this round (no wash trades)"), gem=name)
    if b.supply[gem] == 0:
        return reason(N_("the bazaar has no {gem} left"), gem=name)
    if sum(hand) >= HAND_LIMIT:
        return reason(N_("you hold {limit} gem cards (the hand limit); sell first"),
                      limit=HAND_LIMIT)
    if b.money[seat] < b.prices[gem]:
        return reason(N_("{gem} costs {price} and you have {money} grands"),
                      gem=name, price=b.prices[gem], money=b.money[seat])
    return None


def why_cannot_sell(b: Bazaar, seat: int, gem: int) -> Reason | None:
    """GB-4: from round 2 on, sell a held gem card at its current price.

    Ruling (GB-4, no selling out of the buy): the buy is mandatory ("Ningún jugador puede
    negarse a comprar gemas en su turno"), so before it is made a sale that would leave no buy
    reachable is refused: the stuck-player ruling excuses a player who cannot buy, not one who
    sells their way out of buying.
    """
    name = _gem(gem)
    if b.round < SELLING_FROM_ROUND:
        return reason(N_("selling is allowed from round {n} on"), n=SELLING_FROM_ROUND)
    if b.bought >> gem & 1:
        return reason(N_("you bought {gem} this round (no wash trades)"), gem=name)
    if b.hands[seat][gem] == 0:
        return reason(N_("you hold no {gem}"), gem=name)
    if not b.bought and not buy_reachable(b, seat, gem) and buy_reachable(b, seat):
        return reason(N_("selling {gem} would leave you no way to make the mandatory buy; "
                         "buy first"), gem=name)
    return None


def _gem(gem: int) -> Term:
    """A gem's name as a reason cites it: translated where the reason is read."""
    return Term(GEM_NAMES[gem])


def buy_reachable(b: Bazaar, seat: int, selling: int | None = None) -> bool:
    """GB-4 ruling: could some sequence of legal sells and then a buy get this player a gem?

    Selling only ever adds money and frees hand space, and selling gem g forbids buying g, so a
    buy of g is reachable exactly when g is allowed and in supply, and selling every other gem
    type the player may sell would pay for it and leave room in the hand. With `selling`, the
    question is asked of the position after one card of that gem is sold.
    """
    hand = b.hands[seat]
    money, sold, held = b.money[seat], b.sold, sum(hand)
    if selling is not None:
        money += b.prices[selling]
        sold |= 1 << selling
        held -= 1
    can_sell = b.round >= SELLING_FROM_ROUND
    for gem in range(NUM_GEMS):
        if sold >> gem & 1 or b.supply[gem] == 0:
            continue
        cash, count = money, held
        if can_sell:
            for other in range(NUM_GEMS):
                if other != gem and not b.bought >> other & 1:
                    cards = hand[other] - (other == selling)
                    cash += cards * b.prices[other]
                    count -= cards
        if cash >= b.prices[gem] and count < HAND_LIMIT:
            return True
    return False


def why_cannot_end_turn(b: Bazaar, seat: int) -> Reason | None:
    """GB-4: a player must buy at least one gem, unless no buy is reachable (stuck ruling)."""
    if b.bought == 0 and buy_reachable(b, seat):
        return reason(N_("you must buy at least one gem card this turn (you still can)"))
    return None


def buy(b: Bazaar, seat: int, gem: int) -> None:
    b.money[seat] -= b.prices[gem]
    b.supply[gem] -= 1
    b.hands[seat][gem] += 1
    b.bought |= 1 << gem


def sell(b: Bazaar, seat: int, gem: int) -> None:
    b.money[seat] += b.prices[gem]
    b.supply[gem] += 1
    b.hands[seat][gem] -= 1
    b.sold |= 1 << gem


def end_turn(b: Bazaar) -> None:
    """GB-3 (2): the next player clockwise trades; after the last one a price card is due."""
    b.turn += 1
    b.bought = b.sold = 0


def legal_trades(b: Bazaar, seat: int) -> list[int]:
    """The trader's legal actions, sorted: buys, sells, end turn (GB-4)."""
    hand = b.hands[seat]
    money = b.money[seat]
    prices, supply, bought, sold = b.prices, b.supply, b.bought, b.sold
    actions = []
    if sum(hand) < HAND_LIMIT:
        for gem in range(NUM_GEMS):
            if supply[gem] and money >= prices[gem] and not sold >> gem & 1:
                actions.append(BUY + gem)
    must_buy = not bought and buy_reachable(b, seat)
    if b.round >= SELLING_FROM_ROUND:
        for gem in range(NUM_GEMS):
            if hand[gem] and not bought >> gem & 1 and (
                    not must_buy or buy_reachable(b, seat, gem)):
                actions.append(SELL + gem)
    if not must_buy:
        actions.append(END_TURN)
    return actions


def final_payout(b: Bazaar) -> None:
    """GB-5: after round 27's card each player receives 10 grands per gem card still held."""
    for seat, hand in enumerate(b.hands):
        b.money[seat] += PAYOUT_PER_GEM * sum(hand)


def returns(b: Bazaar) -> list[float]:
    """GB-5: the most grands wins; tied players share the victory."""
    if b.round < ROUNDS:
        return [0.0] * b.num_players
    return shared_victory(b.money)
