"""The components of Aztec Market (AM-1), the market's geometry (AM-2) and the action ids."""

from __future__ import annotations

COLOURS = ("black", "blue", "red", "green")  # pottery, cloth, jewels, herbs
NUM_COLOURS = 4
GOODS_PER_COLOUR = 20
COINS = 16
BUYERS_PER_PLAYER = 4

# Market tiles: the four vendors are tiles 0..3 (their colour), then the grey tiles and the king.
CROWD, PORTER, GOVERNOR, AMBASSADOR, ERRAND_BOY, KING = range(4, 10)
HOLE = 10  # an empty square (during set-up, every square not yet filled)
TILE_NAMES = ("black vendor", "blue vendor", "red vendor", "green vendor", "crowd", "porter",
              "governor", "ambassador", "errand boy", "king")
TILE_COUNTS = (1, 1, 1, 1, 4, 2, 2, 1, 1, 1)  # 15 market tiles
NUM_TILE_KINDS = len(TILE_NAMES)

# --- geometry (AM-2) --------------------------------------------------------------------------
# Square s = row * 4 + col; columns A..D run West to East, rows 1..4 South to North.
SQUARES = 16
SQUARE_NAMES = tuple("ABCD"[s % 4] + str(s // 4 + 1) for s in range(SQUARES))
SIDES = ("South", "West", "North", "East")  # clockwise; seat i sits at side i
SIDE_LETTERS = "SWNE"


def _line(side: int, k: int) -> tuple[int, ...]:
    """Buyer k's line, from the buyer's edge of the grid inwards."""
    if side == 0:
        return tuple(r * 4 + k for r in range(4))
    if side == 2:
        return tuple(r * 4 + k for r in reversed(range(4)))
    if side == 1:
        return tuple(k * 4 + c for c in range(4))
    return tuple(k * 4 + c for c in reversed(range(4)))


# LINES[side][k]: the squares buyer k of that side looks along, nearest first.
LINES = tuple(tuple(_line(side, k) for k in range(BUYERS_PER_PLAYER)) for side in range(4))
BUYER_NAMES = tuple(tuple(f"{SIDE_LETTERS[side]}{k + 1}" for k in range(4)) for side in range(4))

# The king's row and column from each square (AM-5 step 4: any distance, crowds do not stop it).
KING_SIGHT = tuple(
    tuple(t for t in range(SQUARES) if t != s and (t // 4 == s // 4 or t % 4 == s % 4))
    for s in range(SQUARES)
)

# Seats by player count: seat i sits at SIDES[i]; with 4 players partners sit opposite.
TEAMS = {2: ((0,), (1,)), 3: ((0,), (1,), (2,)), 4: ((0, 2), (1, 3))}

# --- action ids -------------------------------------------------------------------------------
PLACE = 0  # + kind * 16 + square: set-up, place a market tile
MOVE = PLACE + NUM_TILE_KINDS * SQUARES  # + square: free move of that tile into the hole
PAID_MOVE = MOVE + SQUARES  # + square * 4 + buyer: PLAY, move paying with that buyer's coin
COIN = PAID_MOVE + SQUARES * BUYERS_PER_PLAYER  # + buyer: put a coin on it
BUY = COIN + BUYERS_PER_PLAYER  # + buyer * 4 + colour: buy from that vendor
KING_BUYS = BUY + BUYERS_PER_PLAYER * NUM_COLOURS  # + colour
KING_SKIPS = KING_BUYS + NUM_COLOURS
PASS = KING_SKIPS + 1
PLAY = PASS + 1
END_TURN = PLAY + 1
DRAW = END_TURN + 1  # + colour: chance, a good drawn from the bag
HOLE_AT = DRAW + NUM_COLOURS  # + square: chance, random set-up leaves this square empty
NUM_ACTIONS = HOLE_AT + SQUARES
