"""Aztec Market (Victor Melo, 2009): buyers, vendors and a king in the market of Tlatelolco."""

from tlatelolco.games.aztec_market.game import AztecMarketGame
from tlatelolco.games.aztec_market.market import Market
from tlatelolco.games.aztec_market.state import AztecMarketState

__all__ = ["AztecMarketGame", "AztecMarketState", "Market"]
