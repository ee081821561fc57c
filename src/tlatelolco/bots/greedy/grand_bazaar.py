"""A greedy heuristic for Grand Bazaar: count the price cards, trade on the expected next price.

Prices move only by the price cards, never by trades, and which cards are still face down is
public (GB-6). Exactly one of them is revealed between two trading turns of a seat (one card per
round, one turn per seat per round), and any of them is equally likely to be next, so the mean
and covariance of the next price changes are known exactly. Each gem's changes over the whole
deck sum to 0 (GB-1), so a gem at price p with k cards left is expected to move (10 - p) / k,
and after the last card it is worth exactly 10 (GB-5).

Holding a gem card until the bot's next turn is therefore worth its expected next price. Buying
and selling happen at the same price, so a trader free of rules would simply hold, each round,
the gems expected to rise most, and looking further ahead buys nothing (valuing a gem by when it
would best be sold did no better). The rules (GB-4) are what stop that, and what the bot plans
around. Each turn it lists its turn plans (how many cards of each gem to sell or buy), keeps the
legal ones (money, hand limit, supply, no wash trades, the mandatory buy) and picks the best by
three terms:

- gain: expected next price minus price now, over the cards bought, and the reverse for sales;
- squeeze: what next turn's mandatory buy would cost the position left (four cards of a rising
  gem and no money means dumping one to buy something);
- risk: once ahead, the variance of the next card's effect on its lead over the strongest
  rival, since protecting a lead wins more games than stretching it.

It then plays the plan a card at a time, sells first so money and hand room are there for buys.

**Cover** (`cover=1`, off by default): a bot ahead of every rival at today's prices takes the
plan that leaves it holding what the strongest rival will hold when the next card turns. Both
fortunes then move alike with every card, and a bot that keeps doing so keeps its lead to the
end: selling and buying at one price changes nobody's worth at that price, so the lead at the
moment of covering is the final margin. In a 2-player game it won 73% of 400 games against
the plain bot with the same mean money. It stays off by default because the plain bot is the
benchmark the search bots are measured against; the search bots use it for their own seat.
"""

from __future__ import annotations

from functools import lru_cache

from tlatelolco.bots.base import Bot
from tlatelolco.contract import Game, State
from tlatelolco.games.grand_bazaar.board import Bazaar
from tlatelolco.games.grand_bazaar.cards import (
    BUY,
    END_TURN,
    HAND_LIMIT,
    NUM_CARDS,
    NUM_GEMS,
    PRICE_CARDS,
    ROUNDS,
    SELL,
)
from tlatelolco.games.grand_bazaar.rules import start_player
from tlatelolco.games.grand_bazaar.state import GrandBazaarState

Plan = tuple[int, ...]  # per gem: cards to buy (> 0) or to sell (< 0) in the rest of this turn
Vector = tuple[float, ...]
Matrix = tuple[Vector, ...]


@lru_cache(maxsize=4096)
def next_card_moments(deck: int) -> tuple[Vector, Matrix]:
    """Mean and covariance of the price changes the next card brings: any face-down card, evenly.

    `deck` is the bitmask of the face-down cards (public, GB-6); with none left nothing moves.
    """
    cards = [PRICE_CARDS[c] for c in range(NUM_CARDS) if deck >> c & 1] or [(0, 0, 0)]
    n = len(cards)
    mean = tuple(sum(card[g] for card in cards) / n for g in range(NUM_GEMS))
    covariance = tuple(tuple(sum(card[g] * card[h] for card in cards) / n - mean[g] * mean[h]
                             for h in range(NUM_GEMS)) for g in range(NUM_GEMS))
    return mean, covariance


def expected_next_prices(b: Bazaar) -> list[float]:
    """What one card of each gem is worth if kept until the next turn (10 after the last card)."""
    mean, _ = next_card_moments(b.deck)
    return [price + change for price, change in zip(b.prices, mean, strict=True)]


class Market:
    """This turn's market as the plan scoring needs it."""

    __slots__ = ("covariance", "last_turn", "prices", "supply", "values")

    def __init__(self, b: Bazaar) -> None:
        self.prices = b.prices
        self.supply = b.supply
        self.values = expected_next_prices(b)
        self.covariance = next_card_moments(b.deck)[1]
        # No trading after round 26's turns (GB-3): no later turn will force a buy.
        self.last_turn = b.round >= ROUNDS - 1

    def worth(self, money: int, hand: list[int]) -> float:
        """Money plus gems at their expected next price: how well a seat is doing."""
        return money + sum(h * v for h, v in zip(hand, self.values, strict=True))


class GrandBazaarGreedy(Bot):
    """Sells gems expected to fall, buys gems expected to rise, keeps room for the forced buy.

    `caution` weighs the squeeze of next turn's mandatory buy (0 ignores it, 1 counts it in
    full). `risk` is the grands given up per unit of variance of the lead while ahead (0 plays
    for expected grands alone); 0.1 won most often against random play. The bot uses no
    randomness (ties go to the plan with fewer trades), so its seed changes nothing.
    """

    name = "greedy"

    def __init__(self, game: Game, seat: int, seed: int | str | None = None,
                 caution: float = 1.0, risk: float = 0.1, cover: int = 0) -> None:
        super().__init__(game, seat, seed)
        if cover not in (0, 1):
            raise ValueError(f"cover must be 0 or 1, got {cover}")
        self.caution = float(caution)
        self.risk = float(risk)
        self.cover = bool(cover)

    def step(self, state: State) -> int:
        if not isinstance(state, GrandBazaarState):
            raise TypeError(f"{type(self).__name__} plays Grand Bazaar, not {state!r}")
        seat = state.current_player()
        if seat < 0:
            raise ValueError(f"no seat is to trade in {state!r} (chance or game over)")
        plan = self.cover_plan(state.bazaar, seat) if self.cover else None
        if plan is None:
            plan = self.best_plan(state.bazaar, seat)
        return first_action(plan, state.legal_actions())

    def certain(self, state: State) -> int | None:
        """The next card of a lead being covered (`cover_plan`), None otherwise: a move the
        search bots play without searching, as the cover keeps the lead whatever comes."""
        if not self.cover or not isinstance(state, GrandBazaarState):
            return None
        plan = self.cover_plan(state.bazaar, state.current_player())
        return None if plan is None else first_action(plan, state.legal_actions())

    def cover_plan(self, b: Bazaar, seat: int) -> Plan | None:
        """Ahead of every rival at today's prices: the plan to hold what the strongest rival
        will hold when the next card turns (what it holds now if it has traded this round,
        else what this bot would trade in its place). None when not ahead, or when GB-4 does
        not allow that plan."""
        n = b.num_players
        if n < 2:
            return None
        worth = [money + sum(h * p for h, p in zip(hand, b.prices, strict=True))
                 for money, hand in zip(b.money, b.hands, strict=True)]
        rival = max((s for s in range(n) if s != seat), key=worth.__getitem__)
        if worth[seat] <= worth[rival]:
            return None
        target = b.hands[rival]
        place = (rival - start_player(b)) % n  # its place in this round's trading order
        if place > b.turn:  # it trades after us: foresee its turn
            turn = b.copy()
            turn.turn, turn.bought, turn.sold = place, 0, 0
            target = [h + d for h, d in zip(target, self.best_plan(turn, rival), strict=True)]
        plan = tuple(t - h for t, h in zip(target, b.hands[seat], strict=True))
        if not b.bought and not any(d > 0 for d in plan):
            return None  # a buy is still owed (GB-4)
        return plan if plan in candidate_plans(b, seat) else None

    def best_plan(self, b: Bazaar, seat: int) -> Plan:
        """The legal plan for the rest of the turn with the best gain - squeeze - risk.

        Squeeze and risk are never negative, so plans are ranked by gain alone first and
        scored in full only until a plan's gain cannot beat the best full score found.
        """
        market = Market(b)
        hand, money = b.hands[seat], b.money[seat]
        must_buy = b.bought == 0
        rival_hand, risk = self.rival(b, seat, market)
        ranked = []
        for plan in candidate_plans(b, seat):
            # While a buy is owed, a plan that makes one beats every plan that does not (GB-4).
            allowed = not must_buy or any(d > 0 for d in plan)
            ranked.append((allowed, plan_gain(plan, market), -sum(map(abs, plan)), plan))
        ranked.sort(reverse=True)
        best, best_key = ranked[0][3], ranked[0][:3]
        for allowed, gain, fewer_trades, plan in ranked:
            if (allowed, gain, fewer_trades) < best_key:
                break
            after = [h + d for h, d in zip(hand, plan, strict=True)]
            score = gain
            if self.caution and not market.last_turn:
                spent = sum(d * p for d, p in zip(plan, market.prices, strict=True))
                score -= self.caution * squeeze(after, money - spent, market, plan)
            if risk:
                lead_exposure = [a - r for a, r in zip(after, rival_hand, strict=True)]
                score -= risk * exposure_variance(lead_exposure, market.covariance)
            if plan is ranked[0][3] or (allowed, score, fewer_trades) > best_key:
                best, best_key = plan, (allowed, score, fewer_trades)
        return best

    def rival(self, b: Bazaar, seat: int, market: Market) -> tuple[list[int], float]:
        """The strongest other seat's gems, and the risk weight: `risk` if we lead it, else 0.

        Holding what the leader-in-waiting holds makes the next card move both fortunes alike;
        a seat behind needs the cards to separate them, so it takes no risk penalty.
        """
        others = [s for s in range(b.num_players) if s != seat]
        if not self.risk or not others:
            return [0] * NUM_GEMS, 0.0
        strongest = max(others, key=lambda s: market.worth(b.money[s], b.hands[s]))
        ahead = (market.worth(b.money[seat], b.hands[seat])
                 > market.worth(b.money[strongest], b.hands[strongest]))
        return b.hands[strongest], self.risk if ahead else 0.0


def plan_gain(plan: Plan, market: Market) -> float:
    """What the plan earns in expectation by the next turn: the price moves of its trades."""
    return sum(d * (market.values[g] - market.prices[g]) for g, d in enumerate(plan) if d)


def squeeze(hand: list[int], money: int, market: Market, plan: Plan) -> float:
    """What next turn's mandatory buy (GB-4) would cost the position a plan leaves.

    Every turn forces a buy, the hand holds 4 cards and a type sold cannot be bought back that
    round: a hand of four rising gems and no money must dump some of them to buy anything.
    Priced at today's prices and expectations, as the cheapest single buy after selling as few
    cards of one other type as it needs; a buy that pays costs nothing.
    """
    prices, values = market.prices, market.values
    held = sum(hand)
    if held == 0 and money < min(prices):
        return 0.0  # stuck: the rules then let the turn end without a buy
    best = float("inf")
    for gem in range(NUM_GEMS):
        if market.supply[gem] - plan[gem] <= 0:
            continue
        cost = prices[gem] - values[gem]
        if held < HAND_LIMIT and money >= prices[gem]:
            best = min(best, cost)
            continue
        for other in range(NUM_GEMS):
            if other != gem and hand[other]:
                short = -(-(prices[gem] - money) // prices[other])  # cards to sell for the money
                need = max(1, held - HAND_LIMIT + 1, short)
                if need <= hand[other]:
                    best = min(best, cost + need * (values[other] - prices[other]))
    if best == float("inf"):  # only selling several types would do: count it as selling all
        best = sum(h * (v - p) for h, v, p in zip(hand, values, prices, strict=True))
    return max(best, 0.0)


def exposure_variance(exposure: list[int], covariance: Matrix) -> float:
    """Variance the next card adds to a lead, given how many more of each gem we hold."""
    return sum(exposure[g] * exposure[h] * covariance[g][h]
               for g in range(NUM_GEMS) if exposure[g]
               for h in range(NUM_GEMS) if exposure[h])


def candidate_plans(b: Bazaar, seat: int) -> list[Plan]:
    """Every plan for the rest of this turn that GB-4 allows (the mandatory buy aside).

    Selling first is always at least as feasible as any other order (it only adds money and
    frees hand room), so a plan is feasible when its buys fit after all its sells.
    """
    hand, money, prices = b.hands[seat], b.money[seat], b.prices
    may_sell = b.round >= 2
    bounds = [(-hand[gem] if may_sell and not b.bought >> gem & 1 else 0,
               0 if b.sold >> gem & 1 else min(HAND_LIMIT, b.supply[gem]))
              for gem in range(NUM_GEMS)]
    # Cards and money that selling all it may of the gems after `gem` would still free up.
    spare_cards, spare_money = [0] * (NUM_GEMS + 1), [0] * (NUM_GEMS + 1)
    for gem in reversed(range(NUM_GEMS)):
        spare_cards[gem] = spare_cards[gem + 1] - bounds[gem][0]
        spare_money[gem] = spare_money[gem + 1] - bounds[gem][0] * prices[gem]
    room = HAND_LIMIT - sum(hand)
    partial: list[tuple[Plan, int, int]] = [((), 0, 0)]  # plan so far, net cards, net cost
    for gem, (low, high) in enumerate(bounds):
        max_cards, max_cost = room + spare_cards[gem + 1], money + spare_money[gem + 1]
        partial = [((*plan, d), cards + d, cost + d * prices[gem])
                   for plan, cards, cost in partial for d in range(low, high + 1)
                   if cards + d <= max_cards and cost + d * prices[gem] <= max_cost]
    return [plan for plan, _, _ in partial]


def first_action(plan: Plan, legal: list[int]) -> int:
    """The plan's next card -- sells before buys -- or the end of the turn."""
    for gem, d in enumerate(plan):
        if d < 0:
            return SELL + gem
    for gem, d in enumerate(plan):
        if d > 0:
            return BUY + gem
    # A plan without trades is chosen only when no buy is owed or none is reachable, and then
    # ending the turn is legal; the fallback keeps the bot inside the rules regardless.
    return END_TURN if END_TURN in legal else legal[0]
