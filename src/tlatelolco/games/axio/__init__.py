"""Axio (Reiner Knizia; published as Axio Rota): square tiles make circles of colours."""

from tlatelolco.games.axio.game import AxioGame
from tlatelolco.games.axio.state import AxioState
from tlatelolco.games.axio.table import Table

__all__ = ["AxioGame", "AxioState", "Table"]
