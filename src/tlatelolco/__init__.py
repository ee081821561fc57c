"""Tlatelolco: four board games with exact rules, bots and a research interface.

    >>> import tlatelolco
    >>> game = tlatelolco.load("grand_bazaar", num_players=2)
    >>> state = game.new_initial_state()
    >>> state.is_chance_node()
    True
"""

from tlatelolco.contract import (
    CHANCE,
    TERMINAL,
    Game,
    GameInfo,
    IllegalActionError,
    Option,
    State,
)
from tlatelolco.match import play_match
from tlatelolco.registry import list_games, load

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Game",
    "GameInfo",
    "IllegalActionError",
    "Option",
    "State",
    "list_games",
    "load",
    "play_match",
]
__version__ = "0.1.0"
