"""Mexica (Wolfgang Kramer and Michael Kiesling): canals cut Tenochtitlan into districts."""

from tlatelolco.games.mexica.city import City
from tlatelolco.games.mexica.game import MexicaGame
from tlatelolco.games.mexica.state import MexicaState

__all__ = ["City", "MexicaGame", "MexicaState"]
