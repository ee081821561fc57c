"""Terminal boards, one module per game, each drawn only from a seat's observation dict."""

from __future__ import annotations

import importlib
import json
from typing import Any

from rich.console import RenderableType
from rich.json import JSON
from rich.panel import Panel

from tlatelolco.i18n import DEFAULT_LANGUAGE, N_, gettext, render

# game name -> module with `render(observation, viewer, lang)` and `CHANCE_LABEL` (an `N_`
# message); imported on first use.
_BOARDS: dict[str, str] = {
    "axio": "tlatelolco.cli.boards.axio",
    "aztec_market": "tlatelolco.cli.boards.aztec_market",
    "grand_bazaar": "tlatelolco.cli.boards.grand_bazaar",
    "mexica": "tlatelolco.cli.boards.mexica",
}


def render_board(game_name: str, observation: dict[str, Any], viewer: int | None = None,
                 lang: str = DEFAULT_LANGUAGE) -> RenderableType:
    """The game's board as `viewer` sees it (None: nobody is "you") in `lang`, or pretty JSON
    for games without a board yet."""
    module = _BOARDS.get(game_name)
    if module is not None:
        board = importlib.import_module(module)
        return board.render(observation, viewer, lang)  # type: ignore[no-any-return]
    title = render((N_("{game} (observation)"), {"game": game_name}), lang)
    return Panel(JSON(json.dumps(observation)), title=title, title_align="left")


def chance_label(game_name: str, lang: str = DEFAULT_LANGUAGE) -> str:
    """What the log calls a chance event ("price card"), so it reads like the table talk."""
    module = _BOARDS.get(game_name)
    label = N_("chance")
    if module is not None:
        label = str(getattr(importlib.import_module(module), "CHANCE_LABEL", label))
    return gettext(label, lang)
