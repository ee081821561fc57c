"""Grand Bazaar (Sanan Mahmudov, Fibonacci 2016): trade gems as 27 price cards move the market."""

from tlatelolco.games.grand_bazaar.board import Bazaar
from tlatelolco.games.grand_bazaar.game import GrandBazaarGame
from tlatelolco.games.grand_bazaar.state import GrandBazaarState

__all__ = ["Bazaar", "GrandBazaarGame", "GrandBazaarState"]
