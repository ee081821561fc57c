"""Evaluations for truncated search: a position's estimated share of victory per seat.

A search that stops a rollout before the end needs to say how good the position is for each
seat, on the same scale as `returns()` (a share of victory in [0, 1] per seat, partners
sharing their side's). Each game estimates a *worth* per side, in its own points, that
approximates the final score (Grand Bazaar: money plus the 10 grands each gem pays at the end;
Mexica: points so far plus what the areas would pay at the scorings to come; the others: their
score so far), and a logistic choice over the sides' worths at the game's `scale` (roughly how
many points make a lead hard to lose) turns it into shares.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from tlatelolco.contract import Game, State

Evaluator = Callable[[State], list[float]]
Worth = Callable[[State], Sequence[float]]

# game -> points that separate a slight lead from a near-certain win
SCALES: dict[str, float] = {
    "grand_bazaar": 12.0,
    "aztec_market": 4.0,
    "axio": 1.0,
    "mexica": 8.0,
}


def shares(worth: Sequence[float], sides: tuple[tuple[int, ...], ...], scale: float,
           players: int) -> list[float]:
    """Each seat's share of victory: a softmax over its side's worth, over `scale`."""
    side_worth = [worth[side[0]] for side in sides]
    top = max(side_worth)
    weights = [math.exp((w - top) / scale) for w in side_worth]
    total = sum(weights)
    values = [0.0] * players
    for side, weight in zip(sides, weights, strict=True):
        for seat in side:
            values[seat] = weight / total
    return values


def grand_bazaar_worth(state: State) -> list[float]:
    """Money plus each gem at its expected price after the next card (the public set of cards
    left gives it; 10 after the last, GB-5's payout): what a player could realise."""
    from tlatelolco.bots.greedy.grand_bazaar import expected_next_prices

    b = state.bazaar  # type: ignore[attr-defined]
    values = expected_next_prices(b)
    return [money + sum(h * v for h, v in zip(hand, values, strict=True))
            for money, hand in zip(b.money, b.hands, strict=True)]


def mexica_worth(state: State) -> list[float]:
    """Points so far, action tokens, and every area ranked as the scorings still to come will
    rank it (the greedy bot's own valuation, `MexicaGreedy.area_points`)."""
    from tlatelolco.bots.greedy.mexica import TOKEN_SUM, TOKEN_WORTH, MexicaGreedy
    from tlatelolco.games.mexica.scoring import levels_by_area

    city = state.city  # type: ignore[attr-defined]
    worth = [s + TOKEN_WORTH * TOKEN_SUM[t] for s, t in zip(city.scores, city.tokens,
                                                            strict=True)]
    valuer = _mexica_valuer(MexicaGreedy, state.get_game())
    for ident, levels in levels_by_area(city).items():
        for seat, won in enumerate(valuer.area_points(city, ident, levels)):
            worth[seat] += won
    return worth


_VALUERS: dict[Game, object] = {}


def _mexica_valuer(cls: type, game: Game) -> object:
    valuer = _VALUERS.get(game)
    if valuer is None:
        valuer = _VALUERS[game] = cls(game, 0, 0)
    return valuer


def axio_worth(state: State) -> list[float]:
    """A soft minimum of each player's colour tracks (AX-5 ranks the lowest colour, then the
    next): unlike the minimum itself, which stays 0 for much of the game, it rewards raising
    every colour near the bottom, the lowest most."""
    k = AXIO_SOFTNESS
    return [-k * math.log(sum(math.exp(-v / k) for v in tracks))
            for tracks in state.table.scores]  # type: ignore[attr-defined]


AXIO_SOFTNESS = 1.0


def aztec_market_worth(state: State) -> list[float]:
    """Each side's goods weighted by the king's goods of their colour plus what the king can
    still be expected to buy (AM-7's product, before the king is complete), and its coins at
    a good's worth: the greedy bot's material count."""
    from tlatelolco.games.aztec_market.components import NUM_COLOURS, TEAMS
    from tlatelolco.games.aztec_market.rules import buyer_coins, goods_by_colour

    m = state.market  # type: ignore[attr-defined]
    future = AM_KING_PRIOR * m.bag()
    weights = [k + future for k in m.king_goods]
    coin = sum(weights) / NUM_COLOURS
    worth = [0.0] * m.num_players
    for side in TEAMS[m.num_players]:
        held = [goods_by_colour(m, seat) for seat in side]
        value = sum(weights[c] * max(h[c] for h in held) for c in range(NUM_COLOURS))
        value += coin * sum(sum(buyer_coins(m, seat)) for seat in side)
        for seat in side:
            worth[seat] = value
    return worth


AM_KING_PRIOR = 0.0625  # king goods a colour gains per good left in the bag (one per PASS)


def score_worth(state: State) -> list[float]:
    return state.scores()


WORTH: dict[str, Worth] = {
    "axio": axio_worth,
    "aztec_market": aztec_market_worth,
    "grand_bazaar": grand_bazaar_worth,
    "mexica": mexica_worth,
}


def evaluator_for(game: Game) -> Evaluator:
    """The evaluation of `game`'s positions: its worth per seat turned into shares."""
    worth = WORTH.get(game.info.name, score_worth)
    scale = SCALES.get(game.info.name, 1.0)
    sides = game.teams()
    players = game.num_players()

    def evaluate(state: State) -> list[float]:
        return shares(worth(state), sides, scale, players)

    return evaluate


__all__ = ["SCALES", "Evaluator", "evaluator_for", "shares"]
