"""Axio's options and metadata (rules digest AX-1 ... AX-7)."""

from __future__ import annotations

from functools import cache
from typing import Any

from tlatelolco.contract import Game, GameInfo, Option
from tlatelolco.games.axio.rules import STACK, START_TILES
from tlatelolco.games.axio.state import AxioState
from tlatelolco.games.axio.table import NUM_ACTIONS, Table
from tlatelolco.games.axio.tiles import DEFAULT_TILES, NUM_COLOURS, NUM_TILES, Tile, load_tiles


def max_game_length(num_players: int) -> int:
    """Start square, first hands, 12 placements and 11 stack draws each, and every extra turn
    (a draw and a placement; at most one per colour per player, and no more than the supply)."""
    supply = NUM_TILES - START_TILES - STACK * num_players
    extras = min(supply, NUM_COLOURS * num_players)
    return START_TILES + num_players + num_players * (2 * STACK - 1) + 2 * extras


@cache
def default_tiles() -> tuple[Tile, ...]:
    return load_tiles(DEFAULT_TILES)


def tile_set(source: str) -> tuple[Tile, ...]:
    """The shipped set (read once), or a user's file (read each time: it may have changed)."""
    return default_tiles() if source == DEFAULT_TILES else load_tiles(source)


class AxioGame(Game):
    info = GameInfo(
        name="axio",
        title="Axio",
        version="1.0",
        min_players=1,
        max_players=4,
        chance="explicit",
        information="imperfect",
        utility="constant_sum",
        min_utility=0.0,
        max_utility=1.0,
        num_distinct_actions=NUM_ACTIONS,
        max_game_length=max(max_game_length(n) for n in range(1, 5)),
        options=(
            Option("num_players", 2, "1 to 4 players (AX-2); 1 plays solo", 1, 4),
            Option("tiles", DEFAULT_TILES, "'default' or the path of a JSON tile set of 60 "
                   "tiles (AX-1)"),
        ),
    )

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        try:
            self.tiles = tile_set(self.options["tiles"])
        except ValueError as err:
            raise ValueError(f"axio: option tiles={self.options['tiles']!r} is not usable: "
                             f"{err}") from None

    def max_game_length(self) -> int:
        return max_game_length(self.num_players())

    def new_initial_state(self) -> AxioState:
        return AxioState(self, self.tiles)

    def _state_at(self, table: Table) -> AxioState:
        return AxioState(self, self.tiles, table)
