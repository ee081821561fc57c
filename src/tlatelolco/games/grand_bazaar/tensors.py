"""Grand Bazaar as tensors: what a seat sees now, and what it has seen since the start.

Everything is public except the order of the face-down price cards (GB-6), and the engine holds
no such order: a card is chosen by chance only when it is revealed. So every seat's tensor holds
the same facts, arranged around the seat: its own row first, then the others in turn order
(seat-relative), so that one policy can play any seat.

docs/tensors/grand_bazaar.md describes every section, its range and its scaling. Writing a
tensor is the hot path of an RL step, so a writer makes one list of the indices that are 1 and
one list of the numbers, and stores each into the zero vector with a single NumPy assignment.
NumPy is not imported with this module (games load without the `rl` extra): only the recall of
the information state uses it, through `tlatelolco.tensors.numpy()`.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache
from typing import Any

from tlatelolco.games.grand_bazaar import rules
from tlatelolco.games.grand_bazaar.board import Bazaar
from tlatelolco.games.grand_bazaar.cards import (
    BUY,
    END_TURN,
    GEMS_PER_TYPE,
    HAND_LIMIT,
    NUM_ACTIONS,
    NUM_CARDS,
    NUM_GEMS,
    PRICE_CARDS,
    ROUNDS,
    START_MONEY,
    START_PRICE,
)
from tlatelolco.tensors import Layout, numpy

# Scaling constants: each is the largest value its quantity can take, so every number is in [0, 1].
MAX_PRICE = START_PRICE + NUM_CARDS // NUM_GEMS  # 19: nine cards raise each gem by 1 (GB-1)
# A seat's worth (grands plus its gems at today's prices) does not change when it trades at
# today's prices; a price card changes it by at most 1 per gem held, so by at most 4 (hand
# limit), and nobody holds a gem when card 1 turns. Grands never exceed worth, and after card 27
# the grands are the worth (prices are back at 10 and the payout is 10 per gem, GB-5).
MAX_GRANDS = START_MONEY + HAND_LIMIT * (ROUNDS - 1)  # 134
TRADING_ROUNDS = ROUNDS - 1  # round 27 has no trading (GB-3)
CHANGES = 3  # a card moves a gem by -1, 0 or +1: one-hot column change + 1

PHASES = ("card_due", "trading", "game_over")
CARD_DUE, TRADING, GAME_OVER = range(len(PHASES))

CARDS = bytes(range(NUM_CARDS))  # the action ids that reveal a price card
TRADES = bytes(range(NUM_CARDS, NUM_ACTIONS))  # buys, sells and END_TURN

# cards_moving[gem][change + 1]: bitmask of the price cards that move `gem` by `change`.
CARDS_MOVING: tuple[tuple[int, ...], ...] = tuple(
    tuple(sum(1 << c for c, card in enumerate(PRICE_CARDS) if card[gem] == change)
          for change in (-1, 0, 1))
    for gem in range(NUM_GEMS)
)


@cache
def observation_layout(num_players: int) -> Layout:
    """The observation's sections for `num_players` (one shared object per count): categories
    (one-hot or 0/1 flags) first, then the scaled numbers, so each kind is written at once."""
    n = num_players
    return Layout((
        ("seat", (n,)),  # the observer's absolute seat
        ("phase", (len(PHASES),)),
        ("round", (ROUNDS + 1,)),  # price cards revealed so far, 0..27
        ("start_player", (n,)),  # this and the next two: relative seats, 0 = the observer
        ("to_move", (n,)),
        ("traded", (n,)),  # seats that have finished trading this round
        ("last_card", (NUM_GEMS, CHANGES)),
        ("this_turn", (2, NUM_GEMS)),  # gem types the trader bought / sold this turn
        ("prices", (NUM_GEMS,)),
        ("bazaar", (NUM_GEMS,)),
        ("cards_left", (NUM_CARDS,)),
        ("next_card_odds", (NUM_GEMS, CHANGES)),
        ("grands", (n,)),
        ("gems", (n, NUM_GEMS)),
        ("returns", (n,)),
    ))


@cache
def information_state_layout(num_players: int) -> Layout:
    """The observation's sections at the same offsets, then what the seat recalls."""
    n = num_players
    return Layout((
        *observation_layout(n).sections,
        ("card_history", (ROUNDS, NUM_GEMS, CHANGES)),  # the card revealed in each round
        ("trade_history", (TRADING_ROUNDS, n, 2, NUM_GEMS)),  # cards bought/sold in each turn
    ))


class _Plan:
    """Offsets and index tables of one player count, computed once so writers only look up."""

    def __init__(self, n: int) -> None:
        at = information_state_layout(n).offsets
        self.n = n
        self.seat, self.phase, self.round = at["seat"], at["phase"], at["round"]
        self.start_player, self.to_move = at["start_player"], at["to_move"]
        self.numbers, self.end = at["prices"], observation_layout(n).size
        # seats[player]: the absolute seats in the observer's order (itself, then clockwise).
        self.seats = tuple(tuple((p + r) % n for r in range(n)) for p in range(n))
        # traded[start][turn]: the relative seats that traded first this round.
        self.traded = tuple(tuple(tuple(at["traded"] + (start + i) % n for i in range(turn))
                                  for turn in range(n + 1)) for start in range(n))
        self.last_card = tuple(_card_ones(at["last_card"], card) for card in range(NUM_CARDS))
        self.bought, self.sold = (
            tuple(tuple(at["this_turn"] + row * NUM_GEMS + gem for gem in range(NUM_GEMS)
                        if mask >> gem & 1) for mask in range(1 << NUM_GEMS))
            for row in (0, 1))
        self.card_history = tuple(
            tuple(_card_ones(at["card_history"] + r * NUM_GEMS * CHANGES, card)
                  for card in range(NUM_CARDS)) for r in range(ROUNDS))
        self.trade_history, self.info_end = at["trade_history"], information_state_layout(n).size
        self.pairs = (TRADING_ROUNDS * n + 1) * NUM_ACTIONS  # (turn, action) numbers
        self._trade_pairs: dict[int, Any] = {}
        self.no_returns = (0.0,) * n

    def trade_pairs(self, player: int) -> Any:
        """For each trade_history cell of `player`'s tensor, its (turn, action) pair number:
        round r (1-based), relative seat s and action a are the turn (r - 1) * n + t of the
        seat (player + s) % n, whose place t in round r's turn order starts at seat (r - 1) % n.
        A NumPy index array, made at the first use (NumPy comes with the `rl` extra)."""
        pairs = self._trade_pairs.get(player)
        if pairs is None:
            n = self.n
            pairs = self._trade_pairs[player] = numpy().array([
                ((r - 1) * n + (player + s - (r - 1)) % n) * NUM_ACTIONS + action
                for r in range(1, ROUNDS) for s in range(n) for action in range(BUY, END_TURN)])
        return pairs


def _card_ones(offset: int, card: int) -> tuple[int, ...]:
    """Where a card's 1s go in a (gem, change) one-hot block at `offset`."""
    return tuple(offset + gem * CHANGES + change + 1
                 for gem, change in enumerate(PRICE_CARDS[card]))


@cache
def _plan(num_players: int) -> _Plan:
    return _Plan(num_players)


@lru_cache(maxsize=4096)
def _deck_numbers(deck: int) -> tuple[float, ...]:
    """cards_left then next_card_odds of a face-down set: which cards remain (GB-6, public by
    elimination) and, each being equally likely next, the chance the next moves each gem by
    -1, 0, +1. A game passes through 28 sets, and every seat asks about each many times."""
    left = [float(deck >> card & 1) for card in range(NUM_CARDS)]
    count = deck.bit_count()
    odds = [(deck & cards).bit_count() / count if count else 0.0
            for moving in CARDS_MOVING for cards in moving]
    return (*left, *odds)


def write_observation(b: Bazaar, player: int, out: Any) -> None:
    """Store what `player` sees now into `out`, a zero vector of `observation_layout`."""
    plan = _plan(b.num_players)
    out[_categories(b, player, plan)] = 1.0
    out[plan.numbers:plan.end] = _numbers(b, player, plan)


def _categories(b: Bazaar, player: int, plan: _Plan) -> list[int]:
    """The indices of the 1s: who looks, the phase and round, who starts, moves and has traded
    (GB-3), the card just revealed, and what the trader bought and sold this turn (GB-4)."""
    n, round_, turn = b.num_players, b.round, b.turn
    start = ((round_ - 1 - player) if round_ else -player) % n  # seat 0 starts round 1 (GB-2)
    ones = [plan.seat + player, plan.round + round_, plan.start_player + start,
            *plan.traded[start][turn], *plan.bought[b.bought], *plan.sold[b.sold]]
    if round_ == ROUNDS:
        ones.append(plan.phase + GAME_OVER)
    elif round_ == 0 or turn == n:
        ones.append(plan.phase + CARD_DUE)
    else:
        ones += (plan.phase + TRADING, plan.to_move + (start + turn) % n)
    if b.last_card >= 0:
        ones += plan.last_card[b.last_card]
    return ones


def _numbers(b: Bazaar, player: int, plan: _Plan) -> list[float]:
    """The market (prices, the bazaar's gems, the face-down cards and the next card's odds),
    then each seat's grands and gems in the observer's order, then the returns at the end."""
    seats = plan.seats[player]
    money, hands = b.money, b.hands
    numbers = [price / MAX_PRICE for price in b.prices]
    numbers += [count / GEMS_PER_TYPE for count in b.supply]
    numbers += _deck_numbers(b.deck)
    numbers += [money[seat] / MAX_GRANDS for seat in seats]
    for seat in seats:
        numbers += [count / HAND_LIMIT for count in hands[seat]]
    if b.round == ROUNDS:
        returns = rules.returns(b)
        numbers += [returns[seat] for seat in seats]
    else:
        numbers += plan.no_returns
    return numbers


def write_information_state(b: Bazaar, history: Sequence[int], player: int, out: Any) -> None:
    """Store what `player` has seen since the start into `out` (zero, information state
    layout): the observation, the order the price cards came in, and every turn's trades.

    `history` is the game's whole action list: nothing in it is hidden from any seat (GB-6), so
    this is a function of `information_state_string(player)`, which spells out the same list.
    """
    write_observation(b, player, out)
    plan = _plan(b.num_players)
    actions = bytes(history)  # every action id is below 256; bytes let C do the scanning
    cards = actions.translate(None, TRADES)  # the price cards in the order they came
    out[[i for r, card in enumerate(cards) for i in plan.card_history[r][card]]] = 1.0
    _write_trades(actions.translate(None, CARDS), player, plan, out)


def _write_trades(trades: bytes, player: int, plan: _Plan, out: Any) -> None:
    """trade_history: the cards of each gem each seat bought and sold in each of its turns.

    Without the price cards the actions are the turns one after another, each closed by
    END_TURN, n per round in turn order (GB-3), so an action's turn is the number of END_TURNs
    before it. Counting (turn, action) pairs and reading the counts in the observer's order of
    rounds and seats fills the section; a count is at most 4 (hand limit), scaled by 1/4.
    """
    np = numpy()
    actions = np.frombuffer(trades, np.uint8)
    turns = np.cumsum(actions == END_TURN)
    counts = np.bincount(turns * NUM_ACTIONS + actions, minlength=plan.pairs)
    out[plan.trade_history:plan.info_end] = counts[plan.trade_pairs(player)] / HAND_LIMIT
