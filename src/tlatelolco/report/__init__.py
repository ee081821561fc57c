"""Balance reports: self-play games per bot kind, their statistics, one self-contained HTML page.

    from tlatelolco.report import build_report
    build_report("axio", games=200, players=2, bots=("random", "greedy"))

or `tlatelolco report axio --games 200 --bots random,greedy`. `build_report` is imported on first
use, so importing this package (the CLI does) does not import matplotlib.
"""

from __future__ import annotations

from typing import Any

# Cheap enough for `tlatelolco report grand_bazaar --games 20` in about two minutes on two
# idle cores (iterations=100: 7.4 min of CPU for those 20 three-player games, ~22 s a game);
# stronger search is one --bots away.
DEFAULT_BOTS: tuple[str, ...] = ("random", "greedy", "mcts:iterations=50")


def __getattr__(name: str) -> Any:
    if name == "build_report":
        from tlatelolco.report.build import build_report

        return build_report
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["DEFAULT_BOTS", "build_report"]
