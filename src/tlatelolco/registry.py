"""Where games are registered and loaded by name."""

from __future__ import annotations

import importlib
from typing import Any

from tlatelolco.contract import Game

# name -> "module:Class"; imported on first use so loading one game never imports the others.
_GAMES: dict[str, str] = {
    "aztec_market": "tlatelolco.games.aztec_market:AztecMarketGame",
    "axio": "tlatelolco.games.axio:AxioGame",
    "grand_bazaar": "tlatelolco.games.grand_bazaar:GrandBazaarGame",
    "mexica": "tlatelolco.games.mexica:MexicaGame",
}


def list_games() -> list[str]:
    """The registered game names."""
    return sorted(_GAMES)


def game_class(name: str) -> type[Game]:
    if not isinstance(name, str) or name not in _GAMES:
        raise ValueError(f"unknown game {name!r}; allowed: {', '.join(list_games())}")
    module, cls = _GAMES[name].split(":")
    return getattr(importlib.import_module(module), cls)  # type: ignore[no-any-return]


def load(name: str, /, **options: Any) -> Game:
    """A configured `Game`; an unknown name or a bad option raises `ValueError` saying why.

    Option names are checked before the game's constructor sees them, so no name (`self`,
    `name`, `options`) can clash with a parameter and turn into a `TypeError`."""
    cls = game_class(name)
    cls.check_option_names(options)
    return cls(**options)
