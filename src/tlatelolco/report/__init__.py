"""Balance reports: self-play games per bot kind, their statistics, one self-contained HTML page.

    from tlatelolco.report import build_report
    build_report("axio", games=200, players=2, bots=("random", "greedy"))

or `tlatelolco report axio --games 200 --bots random,greedy`. `build_report` is imported on first
use, so importing this package (the CLI does) does not import matplotlib.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tlatelolco.contract import Game

# Cheap enough for `tlatelolco report grand_bazaar --games 20` in about two minutes on two
# idle cores (iterations=100: 7.4 min of CPU for those 20 three-player games, ~22 s a game);
# stronger search is one --bots away.
SEARCH_ITERATIONS = 50


def default_bots(game: Game) -> tuple[str, ...]:
    """Random, greedy and search play: the game's own search bot (`ismcts` where seats hide
    things, so its play is fair, else `mcts`) at `SEARCH_ITERATIONS` iterations a decision."""
    from tlatelolco.bots import bot_names, search_spec

    plain = [name for name in ("random", "greedy") if name in bot_names(game)]
    return (*plain, f"{search_spec(game)}:iterations={SEARCH_ITERATIONS}")


def __getattr__(name: str) -> Any:
    if name == "build_report":
        from tlatelolco.report.build import build_report  # refused without the report extra

        return build_report
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["SEARCH_ITERATIONS", "build_report", "default_bots"]
