"""Hand-built Aztec Market positions for rule tests, drawn as the market is seen from above."""

from __future__ import annotations

from typing import Any

import tlatelolco
from tlatelolco.games.aztec_market import AztecMarketState, Market
from tlatelolco.games.aztec_market.components import (
    AMBASSADOR,
    BUY,
    CROWD,
    ERRAND_BOY,
    GOVERNOR,
    HOLE,
    KING,
    MOVE,
    NUM_COLOURS,
    PAID_MOVE,
    PORTER,
    SQUARE_NAMES,
)
from tlatelolco.games.aztec_market.market import PLAYING

BLACK, BLUE, RED, GREEN = range(4)
CODES = {"Bk": BLACK, "Bl": BLUE, "Rd": RED, "Gn": GREEN, "Cr": CROWD, "Po": PORTER,
         "Go": GOVERNOR, "Am": AMBASSADOR, "Eb": ERRAND_BOY, "Ki": KING, "..": HOLE}

# A full legal market: row 4 (North) first, columns A..D.
STANDARD = """
    Cr Po Go Am
    Bk Bl Rd Gn
    Cr Cr Eb Ki
    Po Go .. Cr
"""


def grid(picture: str) -> list[int]:
    """A layout from four rows of two-letter codes, North row first."""
    rows = [line.split() for line in picture.strip().splitlines()]
    assert len(rows) == 4 and all(len(r) == 4 for r in rows), picture
    layout = [HOLE] * 16
    for i, row in enumerate(rows):
        for col, code in enumerate(row):
            layout[(3 - i) * 4 + col] = CODES[code]
    return layout


def market(num_players: int = 2, picture: str = STANDARD, **fields: Any) -> Market:
    """A position in PLAY for seat 0 (unless fields say otherwise), nothing bought yet."""
    layout = grid(picture)
    n4 = num_players * 4
    m = Market(num_players=num_players, layout=layout, hole=layout.index(HOLE),
               vendor_goods=[0] * NUM_COLOURS, king_goods=[0] * NUM_COLOURS,
               buyer_goods=[0] * n4, buyer_colour=[-1] * n4, coins=[0] * n4, reserve=16,
               unseen=[20] * 4, hidden_removed=4, removed=[0] * 4, phase=PLAYING, player=0)
    for name, value in fields.items():
        setattr(m, name, value)
    m.reserve = 16 - sum(m.coins)
    return m


def state_at(m: Market, **options: Any) -> AztecMarketState:
    game = tlatelolco.load("aztec_market", num_players=m.num_players, **options)
    return game.state_from_position(m)  # type: ignore[attr-defined,no-any-return]


def sq(name: str) -> int:
    return SQUARE_NAMES.index(name)


def buy(buyer: int, colour: int) -> int:
    return BUY + buyer * NUM_COLOURS + colour


def paid(square: str, buyer: int) -> int:
    return PAID_MOVE + sq(square) * 4 + buyer


def free(square: str) -> int:
    return MOVE + sq(square)
