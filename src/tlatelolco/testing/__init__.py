"""Testing tools shipped with the library: the conformance suite and golden playthroughs."""

from tlatelolco.testing.bots import check_bot_in_random_play
from tlatelolco.testing.conformance import ConformanceError, Report, check_game

__all__ = ["ConformanceError", "Report", "check_bot_in_random_play", "check_game"]
