"""The components of Grand Bazaar (GB-1) and how actions are numbered.

Action ids: 0..26 reveal price card c (a chance outcome), 27..29 buy a gem, 30..32 sell a gem,
33 end the turn. Card c shows the changes ((c // 9) - 1, (c // 3 % 3) - 1, (c % 3) - 1) for
sapphire, ruby and emerald.
"""

from __future__ import annotations

from functools import lru_cache

GEMS = ("sapphire", "ruby", "emerald")
NUM_GEMS = 3

# GB-1 ruling: the price deck is exactly the 27 combinations of {-1, 0, +1}^3, each once.
PRICE_CARDS: tuple[tuple[int, int, int], ...] = tuple(
    (c // 9 - 1, c // 3 % 3 - 1, c % 3 - 1) for c in range(27)
)
NUM_CARDS = len(PRICE_CARDS)
FULL_DECK = (1 << NUM_CARDS) - 1  # bit c set while card c is still face down

GEMS_PER_TYPE = 10
START_PRICE = 10
START_MONEY = 30
HAND_LIMIT = 4
ROUNDS = 27
PAYOUT_PER_GEM = 10

BUY = 27
SELL = BUY + NUM_GEMS
END_TURN = SELL + NUM_GEMS
NUM_ACTIONS = END_TURN + 1


# '+1 -1 0': each card's changes in gem order, as the rulebook writes them.
CARD_TEXT: tuple[str, ...] = tuple(
    " ".join(f"{d:+d}" if d else "0" for d in changes) for changes in PRICE_CARDS
)


def card_text(card: int) -> str:
    return CARD_TEXT[card]


@lru_cache(maxsize=512)
def deck_text(deck: int) -> tuple[str, ...]:
    """The texts of the face-down cards of a deck bitmask (views ask for this at every step)."""
    return tuple(CARD_TEXT[c] for c in range(NUM_CARDS) if deck >> c & 1)
