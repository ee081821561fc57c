"""Hand-built Grand Bazaar positions for rule tests."""

from __future__ import annotations

from typing import Any

import tlatelolco
from tlatelolco.games.grand_bazaar import GrandBazaarState, rules
from tlatelolco.games.grand_bazaar.board import Bazaar
from tlatelolco.games.grand_bazaar.cards import BUY, END_TURN, GEMS, SELL

SAPPHIRE, RUBY, EMERALD = range(3)


def position(num_players: int = 2, **fields: Any) -> Bazaar:
    """A position in trading (round 5, seat 0 to move by default) with the given fields."""
    b = rules.set_up(num_players)
    b.round = 5
    b.turn = (num_players - (b.round - 1) % num_players) % num_players  # seat 0 trades
    for name, value in fields.items():
        setattr(b, name, value)
    return b


def state_at(b: Bazaar) -> GrandBazaarState:
    game = tlatelolco.load("grand_bazaar", num_players=b.num_players)
    return game.state_from_position(b)  # type: ignore[attr-defined,no-any-return]


def buy(gem: int) -> int:
    return BUY + gem


def sell(gem: int) -> int:
    return SELL + gem


__all__ = ["EMERALD", "END_TURN", "GEMS", "RUBY", "SAPPHIRE", "buy", "position", "sell",
           "state_at"]
