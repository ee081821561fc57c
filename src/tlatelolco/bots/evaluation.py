"""Evaluations for truncated search: a position's estimated share of victory per seat.

A search that stops a rollout before the end needs to say how good the position is for each
seat, on the same scale as `returns()` (a share of victory in [0, 1] per seat, partners
sharing their side's). Each game estimates a *worth* per side, in its own points, that
approximates the final score (Grand Bazaar: money plus the 10 grands each gem pays at the end;
Mexica: points so far plus what the areas would pay at the scorings to come; the others: their
score so far), and a logistic choice over the sides' worths at the game's `scale` (roughly how
many points make a lead hard to lose) turns it into shares.

How much a lead is worth changes over a game: the same 3 grands decide little in Grand Bazaar's
first round and nearly everything in its last. Where that was measured (Grand Bazaar, Axio,
Mexica), the scale is a function of the position, fitted so that the shares match how often
greedy bots with that lead went on to win (Grand Bazaar's fixed scale had its search see every
move as a coin flip; Mexica's part-2 worth, before it was mended, predicted the winner worse
than a coin flip).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from tlatelolco.contract import Game, State

Evaluator = Callable[[State], list[float]]
Worth = Callable[[State], Sequence[float]]

Scale = Callable[[State, Sequence[float]], float]  # (position, worth per seat) -> scale


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


def grand_bazaar_scale(state: State, worth: Sequence[float]) -> float:
    """How far the lead between the two strongest players may still move, as a logistic scale.

    Between good players the lead moves little (a standard deviation of about 4.4 grands over a
    whole 2-player game between greedy bots), so the old fixed scale of 12 grands made nearly
    every position read as even, and no fixed scale fits both the first round and the last.
    The variance left is the next card's exact effect on the two players' difference in gems,
    plus what the cards after it add: about 0.75 grands² per card, less near the end, where
    the cards left are few and known (they bring every price back to 10).
    Fitted on greedy-against-greedy games; Φ(lead / sd) is then turned into the logistic scale
    with the usual factor 1.702.
    """
    from tlatelolco.bots.greedy.grand_bazaar import exposure_variance, next_card_moments

    b = state.bazaar  # type: ignore[attr-defined]
    left = b.deck.bit_count()
    first, second = sorted(range(len(worth)), key=worth.__getitem__, reverse=True)[:2]
    exposure = [a - c for a, c in zip(b.hands[first], b.hands[second], strict=True)]
    later = max(0, left - 1)
    variance = (exposure_variance(exposure, next_card_moments(b.deck)[1])
                + 0.75 * later * min(1.0, later / 12) ** 0.5)
    return max(math.sqrt(variance), 0.25) / 1.702


UNFOUNDED_TWO = 0.35  # part 2: the share of an unfounded area's places counted before the end


def mexica_worth(state: State) -> list[float]:
    """Points so far, action tokens, and every area ranked as the scorings still to come will
    rank it: in part 1 the greedy bot's own valuation (`MexicaGreedy.area_points`); in part 2
    the districts as they stand, but an unfounded area only at `UNFOUNDED_TWO` of its places,
    and ranked as if it were no bigger than the biggest tile.

    Part 2's unfounded areas pay their full size at the end (MX-11), but until then canals and
    the 7 tiles cut them up and every builder keeps adding to them: counted in full, a lead in
    them decided less than a coin flip (log-loss 1.04 at scale 20 over greedy games' part-2
    positions); at a third of their places, ranked as at most 13 squares, 0.55 at scale 13.
    """
    from tlatelolco.bots.greedy.mexica import TOKEN_SUM, TOKEN_WORTH, MexicaGreedy
    from tlatelolco.games.mexica.components import SIZES, place_points
    from tlatelolco.games.mexica.scoring import levels_by_area, ranked_points

    city = state.city  # type: ignore[attr-defined]
    worth = [s + TOKEN_WORTH * TOKEN_SUM[t] for s, t in zip(city.scores, city.tokens,
                                                            strict=True)]
    areas = levels_by_area(city)
    if city.part == 1:
        valuer = _valuer(MexicaGreedy, state.get_game())
        for ident, levels in areas.items():
            for seat, won in enumerate(valuer.area_points(city, ident, levels)):
                worth[seat] += won
        return worth
    for ident, levels in areas.items():
        tile = city.area_tile[ident]
        weight = 1.0 if tile else UNFOUNDED_TWO
        prizes = place_points(tile or min(city.area_size[ident], SIZES[-1]))
        for seat, won in enumerate(ranked_points(levels, prizes)):
            worth[seat] += weight * won
    return worth


def mexica_scale(state: State, worth: Sequence[float]) -> float:
    """Part 1's leads are open to two scorings, part 2's to one. Fitted on greedy-against-greedy
    games the logistic scale is about 30 points in part 1 (45 in its first rounds, 20 in its
    last) and 13 in part 2 (with part 2's worth above). Part 1 keeps the 20 the arena chose
    before: over the same 40 games against greedy (seed 1) the fitted 30 scored 0.70, 20 0.74."""
    return 20.0 if state.city.part == 1 else 13.0  # type: ignore[attr-defined]


_VALUERS: dict[tuple[type, Game], Any] = {}


def _valuer(cls: type, game: Game) -> Any:
    """A greedy bot lent for its valuation methods (one per game configuration)."""
    valuer = _VALUERS.get((cls, game))
    if valuer is None:
        valuer = _VALUERS[cls, game] = cls(game, 0, 0)
    return valuer


def axio_worth(state: State) -> list[float]:
    """A soft minimum of each player's colour tracks (AX-5 ranks the lowest colour, then the
    next) whose softness follows the greedy bot's schedule: early on nearly the mean (every
    point helps, low colours can catch up), at the end the minimum itself."""
    from tlatelolco.bots.greedy.axio import END, SCHEDULE, START

    t = state.table  # type: ignore[attr-defined]
    k = 1.0 / (START + (END - START) * axio_progress(state) ** SCHEDULE)
    return [-k * math.log(sum(math.exp(-v / k) for v in tracks)) for tracks in t.scores]


def axio_progress(state: State) -> float:
    """How far the game is, 0 to 1: the share of the players' stacks placed."""
    from tlatelolco.games.axio.rules import STACK

    placed = state.table.placed_from_stack  # type: ignore[attr-defined]
    return min(1.0, sum(placed) / (len(placed) * (STACK - 1)))


def axio_scale(state: State, worth: Sequence[float]) -> float:
    """Early leads mean little (hands, draws and the board are still open), late ones much: the
    logistic scale fitted on greedy-against-greedy games falls from about 1.4 at a third of the
    game to 0.65 at its end."""
    return 0.6 / max(axio_progress(state), 0.15) ** 0.8


def aztec_market_worth(state: State) -> list[float]:
    """The greedy bot's own valuation, taken from each side's point of view: king-weighted
    goods and coins against the other sides, plus the purchases the seats to move next can
    make at once (an opponent's open purchase is a threat, a partner's a hope)."""
    from tlatelolco.bots.greedy.aztec_market import AztecMarketGreedy, Tally

    m = state.market  # type: ignore[attr-defined]
    valuer = _valuer(AztecMarketGreedy, state.get_game())
    worth = [0.0] * m.num_players
    for side in valuer.sides:  # type: ignore[attr-defined]
        valuer.me = side[0]  # type: ignore[attr-defined]
        value = Tally(valuer, m).value(m)  # type: ignore[arg-type]
        for seat in side:
            worth[seat] = value
    return worth


def score_worth(state: State) -> list[float]:
    return state.scores()


WORTH: dict[str, Worth] = {
    "axio": axio_worth,
    "aztec_market": aztec_market_worth,
    "grand_bazaar": grand_bazaar_worth,
    "mexica": mexica_worth,
}

# game -> points that separate a slight lead from a near-certain win: a number, or a function
# of the position where that depends on how much of the game is left. Aztec Market's worth
# predicts the winner only late (greedy games' fitted scale falls from ~50 to ~20 points): its
# fixed scale was chosen by the arena (4 → 12: 0.73 → 0.83 against greedy over 100 games).
SCALES: dict[str, float | Scale] = {
    "axio": axio_scale,
    "aztec_market": 12.0,
    "grand_bazaar": grand_bazaar_scale,
    "mexica": mexica_scale,
}


def evaluator_for(game: Game) -> Evaluator:
    """The evaluation of `game`'s positions: its worth per seat turned into shares."""
    worth = WORTH.get(game.info.name, score_worth)
    scale = SCALES.get(game.info.name, 1.0)
    sides = game.teams()
    players = game.num_players()

    def evaluate(state: State) -> list[float]:
        worths = worth(state)
        return shares(worths, sides, scale(state, worths) if callable(scale) else scale,
                      players)

    return evaluate


__all__ = ["SCALES", "Evaluator", "evaluator_for", "shares"]
