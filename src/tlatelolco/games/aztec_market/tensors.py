"""Aztec Market as tensors: what one seat sees, laid out as a flat vector for a neural network.

Everything on the table is public (AM-8): the market, the goods on the vendors, on the king and
on every buyer, the coins, and the bag's contents by colour (players can count them). Only the
order in which the bag gives up its goods is unknown, and the engine decides it when a good is
drawn (an explicit chance node), so a position holds nothing any seat may not see: the seats'
tensors differ only in their point of view. The market keeps absolute squares, as the action ids
that name them do; seat sections start with the observer and follow the turn order.

The writers are the hot path of RL environments, so index tables are built once per player
count and each writer gathers its ones into one index list and its counts into one list: numpy
is called a handful of times per tensor. Sections, ranges and scales:
docs/tensors/aztec_market.md.
"""

from __future__ import annotations

from array import array
from functools import cache, cached_property
from itertools import compress
from operator import add, itemgetter
from typing import Any

from tlatelolco.games.aztec_market.components import (
    BUY,
    BUYERS_PER_PLAYER,
    COIN,
    COINS,
    DRAW,
    GOODS_PER_COLOUR,
    HOLE_AT,
    KING_BUYS,
    KING_SKIPS,
    MOVE,
    NUM_ACTIONS,
    NUM_COLOURS,
    NUM_TILE_KINDS,
    PAID_MOVE,
    PASS,
    PLAY,
    SQUARES,
    TEAMS,
    TILE_COUNTS,
)
from tlatelolco.games.aztec_market.market import BUILD, OVER, RANDOM_BUILD, RESTOCK, Market
from tlatelolco.games.aztec_market.rules import (
    PASS_MARKET_MOVES,
    RESTOCK_DRAWS,
    returns,
    tiles_left,  # AM-3: the market tiles of each kind not yet on the market
)
from tlatelolco.tensors import Layout, Section, numpy

NUM_PHASES = 10  # market.BUILD ... market.OVER, as state.PHASE_NAMES names them
CELL = NUM_TILE_KINDS + 1  # a square: the ten tile kinds, then "empty"
ALL_GOODS = NUM_COLOURS * GOODS_PER_COLOUR
MAX_DRAWS = ALL_GOODS  # the most goods one game can draw from the bag (option removed=0)
B = BUYERS_PER_PLAYER

# Divisors that bring each count into [0, 1]: the most it can reach in any game.
SCORE_SCALE = 4 * (GOODS_PER_COLOUR // 2) ** 2  # per colour held x king, with held + king <= 20
# Recalled per seat: turns passed, turns played, purchases, paid market moves, errand-boy moves,
# then the king's purchases of each colour (AM-5 step 4) in that seat's PASS turns.
EVENTS = ("pass turns", "play turns", "purchases", "paid moves", "errand moves",
          "king buys black", "king buys blue", "king buys red", "king buys green")
# At most 20 draining PASS turns plus 3 in the last round; every purchase takes a good off a
# vendor for good; paid moves spend coins (1 + one per PASS); an errand move needs another
# PLAY action or a new turn before it.
EVENT_SCALES = (25, ALL_GOODS, ALL_GOODS, 25, 200) + (GOODS_PER_COLOUR,) * NUM_COLOURS

# Each action id as the event it records: EVENTS' column, DRAWN + colour, or IGNORED.
DRAWN = len(EVENTS)
IGNORED = DRAWN + NUM_COLOURS
ERRAND = EVENTS.index("errand moves")  # a free move: the errand boy in PLAY, else a PASS move


def _event_codes() -> list[int]:
    codes = [IGNORED] * NUM_ACTIONS
    codes[PASS], codes[PLAY] = 0, 1
    for action in range(NUM_ACTIONS):
        if BUY <= action < KING_BUYS:
            codes[action] = 2
        elif PAID_MOVE <= action < COIN:
            codes[action] = 3
        elif MOVE <= action < PAID_MOVE:
            codes[action] = ERRAND
        elif KING_BUYS <= action < KING_SKIPS:
            codes[action] = 5 + action - KING_BUYS
        elif DRAW <= action < HOLE_AT:
            codes[action] = DRAWN + action - DRAW
    return codes


EVENT_CODES = _event_codes()


def observation_sections(n: int) -> list[Section]:
    """The observation, for n players: one-hot and 0/1 sections first, then the counts."""
    return [
        ("observer", (n,)),  # the observer's absolute seat (AM-2: its side and buyers' lines)
        ("to_move", (n,)),  # relative seat to act; none at chance nodes and at the end
        ("turn_of", (n,)),  # relative seat whose turn it is (also while the bag is drawn from)
        ("phase", (NUM_PHASES,)),
        ("market", (SQUARES, CELL)),  # each square's tile kind, or empty (AM-2)
        ("hole", (SQUARES,)),  # the hole (none before set-up decides it)
        ("buyer_coin", (n, B)),  # AM-5 step 3: at most one coin per buyer
        ("buyer_colour", (n, B, NUM_COLOURS)),  # the one colour a buyer holds (AM-9)
        ("turn_flags", (2,)),  # PLAY: bought this turn; the errand boy just moved (AM-6)
        # --- counts, scaled (from here to the end of the observation) ---
        ("tiles_to_place", (NUM_TILE_KINDS,)),  # AM-3 set-up: / that kind's number of tiles
        ("vendors", (NUM_COLOURS,)),  # goods on each vendor / 20
        ("king", (NUM_COLOURS,)),  # goods on the king / 20
        ("buyer_goods", (n, B)),  # / 20
        ("holdings", (n, NUM_COLOURS)),  # a seat's goods by colour, over its buyers (AM-7) / 20
        ("scores", (n,)),  # the seat's side score now (AM-7) / 400
        ("coin_reserve", (1,)),  # / 16
        ("bag", (1,)),  # goods still to draw / 80 (AM-8: public)
        ("unseen", (NUM_COLOURS,)),  # goods nobody has seen, by colour / 20 (AM-8)
        ("removed", (NUM_COLOURS + 1,)),  # removed openly by colour / 20, unseen ones / 80
        ("owed", (2,)),  # PASS: market moves still owed / 2, goods still to draw / 4 (AM-5)
        ("returns", (n,)),  # at the end (AM-7): the seat's share of the victory
    ]


def recall_sections(n: int) -> list[Section]:
    """What the information state adds: what the seat saw that the view no longer shows."""
    return [
        ("draws", (MAX_DRAWS, NUM_COLOURS)),  # the colour of each good drawn so far, in order
        ("events", (n, len(EVENTS))),  # per relative seat, counted / EVENT_SCALES
    ]


def count_scales(n: int) -> list[float]:
    """The factor of each number of the observation's counts, in layout order."""
    goods = 1 / GOODS_PER_COLOUR
    return [
        *(1 / k for k in TILE_COUNTS),
        *[goods] * (2 * NUM_COLOURS + n * B + n * NUM_COLOURS),
        *[1 / SCORE_SCALE] * n,
        1 / COINS,
        1 / ALL_GOODS,
        *[goods] * NUM_COLOURS,
        *[goods] * NUM_COLOURS, 1 / ALL_GOODS,
        1 / PASS_MARKET_MOVES, 1 / RESTOCK_DRAWS,
        *[1.0] * n,
    ]


class Plan:
    """One player count's layouts and index tables, built once (see `plan`)."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.observation = Layout(observation_sections(n))
        self.information = Layout(observation_sections(n) + recall_sections(n))
        at = self.information.offsets
        self.observer, self.to_move, self.turn_of = at["observer"], at["to_move"], at["turn_of"]
        self.phase, self.hole, self.flags = at["phase"], at["hole"], at["turn_flags"]
        self.coin, self.colour = at["buyer_coin"], at["buyer_colour"]
        self.squares = [at["market"] + CELL * s for s in range(SQUARES)]
        self.counts = slice(at["tiles_to_place"], self.observation.size)
        self.draws, self.events = at["draws"], at["events"]
        # seats[p]: the absolute seats in turn order from p; rel[p][seat]: seat as p sees it.
        self.seats = [[(p + r) % n for r in range(n)] for p in range(n)]
        self.rel = [[(seat - p) % n for seat in range(n)] for p in range(n)]
        # in_order[p](buyer list): the buyers' entries (index seat * 4 + buyer) in p's order.
        self.in_order = [itemgetter(*(s * B + b for s in self.seats[p] for b in range(B)))
                         for p in range(n)]
        # For the j-th buyer in that order: its 1 in `buyer_coin`, its colours' first index in
        # `buyer_colour`, where it adds to `holdings`.
        self.coins = [self.coin + j for j in range(n * B)]
        self.colours = [self.colour + NUM_COLOURS * j for j in range(n * B)]
        self.holding = [j // B * NUM_COLOURS for j in range(n * B)]
        # With four players partners sit opposite (AM-2): relative seats r and r + 2, whoever
        # looks, so the first half of the seats stands for the sides.
        self.partners = len(TEAMS[n]) < n
        assert not self.partners or TEAMS[n] == ((0, 2), (1, 3))
        self.half = n // 2 * NUM_COLOURS
        self.no_tiles = [0] * NUM_TILE_KINDS
        self.no_scores = [0] * n
        self.no_returns = [0] * n

    @cached_property
    def scale(self) -> Any:
        return numpy().array(count_scales(self.n), numpy().float32)

    @cached_property
    def event_scale(self) -> Any:
        return numpy().array([1 / k for k in EVENT_SCALES] * self.n, numpy().float32)

    @cached_property
    def event_codes(self) -> Any:
        return numpy().array(EVENT_CODES, numpy().int64)

    @cached_property
    def draw_rows(self) -> Any:
        return self.draws + NUM_COLOURS * numpy().arange(MAX_DRAWS)


@cache
def plan(n: int) -> Plan:
    return Plan(n)


# --- the observation: what the seat sees now ------------------------------------------------


def write_observation(m: Market, player: int, out: Any) -> None:
    """Write `player`'s view of the table into `out`, a zero vector of either layout."""
    pl = plan(m.num_players)
    in_order = pl.in_order[player]
    colours, goods = in_order(m.buyer_colour), in_order(m.buyer_goods)
    out[seats_and_phase(m, player, pl) + market(m, pl)
        + buyers(in_order(m.coins), colours, pl)] = 1.0
    view = out[pl.counts]
    view[:] = counts(m, player, colours, goods, pl)
    view *= pl.scale


def seats_and_phase(m: Market, player: int, pl: Plan) -> list[int]:
    """Who looks, who acts and whose turn it is, and the phase of the turn (AM-4..AM-6)."""
    rel = pl.rel[player][m.player]
    ones = [pl.observer + player, pl.turn_of + rel, pl.phase + m.phase]
    if m.phase not in (RANDOM_BUILD, RESTOCK, OVER):
        ones.append(pl.to_move + rel)
    if m.bought:
        ones.append(pl.flags)
    if m.last_errand:
        ones.append(pl.flags + 1)
    return ones


def market(m: Market, pl: Plan) -> list[int]:
    """Each square's tile, and the hole (AM-2)."""
    ones = list(map(add, pl.squares, m.layout))  # HOLE (10) is the "empty" column
    if m.hole >= 0:
        ones.append(pl.hole + m.hole)
    return ones


def buyers(coins: tuple[int, ...], colours: tuple[int, ...], pl: Plan) -> list[int]:
    """Which buyers hold a coin and the colour each one collects (the observer's first)."""
    ones = list(compress(pl.coins, coins))
    ones += [at + c for at, c in zip(pl.colours, colours, strict=True) if c >= 0]
    return ones


def counts(m: Market, player: int, colours: tuple[int, ...], goods: tuple[int, ...],
           pl: Plan) -> list[float]:
    """The numbers on the table, unscaled, in the order of the count sections."""
    holdings = [0] * (pl.n * NUM_COLOURS)
    for at, c, g in zip(pl.holding, colours, goods, strict=True):
        if c >= 0:
            holdings[at + c] += g
    return [
        *(tiles_left(m) if m.phase in (BUILD, RANDOM_BUILD) else pl.no_tiles),
        *m.vendor_goods, *m.king_goods,
        *goods, *holdings, *side_scores(holdings, m.king_goods, pl),
        m.reserve, m.bag(), *m.unseen,
        *m.removed, m.hidden_removed,
        m.moves_left, m.draws_left,
        *([returns(m)[s] for s in pl.seats[player]] if m.phase == OVER else pl.no_returns),
    ]


def side_scores(holdings: list[int], king: list[int], pl: Plan) -> list[int]:
    """AM-7 per relative seat: per colour, the side's best holding times the king's goods."""
    if not any(king):
        return pl.no_scores
    if pl.partners:  # the better of the partners r and r + 2, colour by colour
        holdings = list(map(max, holdings[:pl.half], holdings[pl.half:]))
    k0, k1, k2, k3 = king  # black, blue, red, green; so is each seat's row of holdings
    rows = zip(holdings[0::4], holdings[1::4], holdings[2::4], holdings[3::4], strict=True)
    sides = [a * k0 + b * k1 + c * k2 + d * k3 for a, b, c, d in rows]
    return sides * 2 if pl.partners else sides


# --- the information state: the view, and what the seat has seen since the start -------------


def write_information_state(m: Market, history: list[int], player: int, out: Any) -> None:
    """The observation, then the recall sections, read off the history (all of it public)."""
    write_observation(m, player, out)
    if history:
        write_recall(history, player, plan(m.num_players), out)


def write_recall(history: list[int], player: int, pl: Plan, out: Any) -> None:
    """The order of the draws from the bag, and per seat the events of its turns.

    Turns go round in seat order from seat 0 and each starts with a PASS or PLAY action, so
    the k-th of those opens seat k % n's turn: every action is credited to its seat by counting
    them, without replaying the game.
    """
    np = numpy()
    code = pl.event_codes[np.frombuffer(array("H", history), np.uint16)]
    opens = code <= 1  # PASS (0) or PLAY (1): a turn begins
    turn = np.cumsum(opens) - 1  # the turn each action belongs to; -1 during set-up
    plays = np.append(code[opens], 0)[turn]  # 1 in a PLAY turn (set-up's -1: the 0 appended)
    counted = (code < DRAWN) & ((code != ERRAND) | (plays == 1))
    seat = (turn[counted] - player) % pl.n
    tally = np.bincount(seat * len(EVENTS) + code[counted], minlength=pl.n * len(EVENTS))
    out[pl.events:pl.events + tally.size] = tally * pl.event_scale
    drawn = code[(code >= DRAWN) & (code < IGNORED)] - DRAWN
    out[pl.draw_rows[:drawn.size] + drawn] = 1.0
