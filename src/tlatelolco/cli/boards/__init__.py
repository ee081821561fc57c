"""Terminal boards, one module per game, each drawn only from a seat's observation dict."""

from __future__ import annotations

import importlib
import json
from typing import Any

from rich.console import RenderableType
from rich.json import JSON
from rich.panel import Panel

# game name -> module with `render(observation)` and `CHANCE_LABEL`; imported on first use.
_BOARDS: dict[str, str] = {
    "axio": "tlatelolco.cli.boards.axio",
    "aztec_market": "tlatelolco.cli.boards.aztec_market",
    "grand_bazaar": "tlatelolco.cli.boards.grand_bazaar",
    "mexica": "tlatelolco.cli.boards.mexica",
}


def render_board(game_name: str, observation: dict[str, Any], viewer: int | None = None
                 ) -> RenderableType:
    """The game's board as `viewer` sees it (None: nobody is "you"), or pretty JSON for games
    without a board yet."""
    module = _BOARDS.get(game_name)
    if module is not None:
        return importlib.import_module(module).render(observation, viewer)  # type: ignore[no-any-return]
    return Panel(JSON(json.dumps(observation)), title=f"{game_name} (observation)",
                 title_align="left")


def chance_label(game_name: str) -> str:
    """What the log calls a chance event ("price card"), so it reads like the table talk."""
    module = _BOARDS.get(game_name)
    if module is None:
        return "chance"
    return str(getattr(importlib.import_module(module), "CHANCE_LABEL", "chance"))
