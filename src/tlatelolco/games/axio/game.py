"""Axio's options and metadata (rules digest AX-1 ... AX-7)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from types import MappingProxyType
from typing import Any

from tlatelolco.contract import Game, GameInfo, Option, shown
from tlatelolco.games.axio import tensors
from tlatelolco.games.axio.rules import STACK, START_TILES
from tlatelolco.games.axio.state import AxioState
from tlatelolco.games.axio.table import NUM_ACTIONS, Table
from tlatelolco.games.axio.tiles import (
    DEFAULT_TILES,
    NUM_COLOURS,
    NUM_TILES,
    Tile,
    load_tiles,
    parse_tiles,
    tiles_data,
)
from tlatelolco.i18n import N_
from tlatelolco.tensors import Layout


def max_game_length(num_players: int) -> int:
    """Start square, first hands, 12 placements and 11 stack draws each, and every extra turn
    (a draw and a placement; at most one per colour per player, and no more than the supply)."""
    supply = NUM_TILES - START_TILES - STACK * num_players
    extras = min(supply, NUM_COLOURS * num_players)
    return START_TILES + num_players + num_players * (2 * STACK - 1) + 2 * extras


@cache
def default_tiles() -> tuple[Tile, ...]:
    return load_tiles(DEFAULT_TILES)


def tile_set(source: str | dict[str, Any]) -> tuple[Tile, ...]:
    """The tiles of the `tiles` option: the shipped set (read once), a set given inline as its
    JSON object, or a user's file (read now; the game then keeps the tiles, not the path)."""
    try:
        if isinstance(source, dict):
            return parse_tiles(source, "the tile set given inline")
        return default_tiles() if source == DEFAULT_TILES else load_tiles(source)
    except ValueError as err:
        raise ValueError(f"axio: option tiles={shown(source)} is not usable: {err}") from None


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
            Option("num_players", 2, "1 to 4 players (AX-2); 1 plays solo", 1, 4,
                   label=N_("Players"),
                   about=N_("How many play, 1 to 4; alone, you try to beat your own best "
                            "lowest colour.")),
            Option("tiles", DEFAULT_TILES, "'default', the path of a JSON tile set of 60 "
                   "tiles, or that set's JSON object itself (AX-1); a file is read once and the "
                   "game keeps its tiles", remote=(DEFAULT_TILES,),
                   label=N_("Tile set"),
                   about=N_("The 60 tiles shuffled for the game: the standard set, or a set of "
                            "your own made to the same rules.")),
        ),
        summary=N_("Lay square tiles so that their corners make circles of coloured symbols, "
                   "and score in five colours. Only your lowest colour counts at the end, so "
                   "keep all five growing; a colour reaching 12 gives an extra turn: AXIO!"),
        minutes=(15, 30),  # the box of Axio Rota
    )

    def __init__(self, /, **options: Any) -> None:
        super().__init__(**options)
        source = self.options["tiles"]
        self.tiles = tile_set(source)
        if isinstance(source, str) and source != DEFAULT_TILES:
            # The file is read once: from now on the game holds the tiles themselves, so its
            # records and any game loaded from its options replay whatever becomes of the file.
            self.options = MappingProxyType({**self.options, "tiles": tiles_data(self.tiles)})

    @classmethod
    def validate_options(cls, given: Mapping[str, Any]) -> dict[str, Any]:
        """As for every game, and a tile set given inline is checked and kept canonical."""
        inline = given.get("tiles")
        if not isinstance(inline, dict):
            return super().validate_options(given)
        options = super().validate_options({**given, "tiles": DEFAULT_TILES})
        options["tiles"] = tiles_data(tile_set(inline))
        return options

    def max_game_length(self) -> int:
        return max_game_length(self.num_players())

    def observation_tensor_layout(self) -> Layout:
        return tensors.observation_layout(self.num_players())

    def information_state_tensor_layout(self) -> Layout:
        return tensors.information_state_layout(self.num_players())

    def new_initial_state(self) -> AxioState:
        return AxioState(self, self.tiles)

    def _state_at(self, table: Table) -> AxioState:
        return AxioState(self, self.tiles, table)
