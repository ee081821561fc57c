"""Mexica's options and metadata (rules digest MX-1 ... MX-13)."""

from __future__ import annotations

from tlatelolco.contract import Game, GameInfo, Option
from tlatelolco.games.mexica import tensors
from tlatelolco.games.mexica.actions import NUM_ACTIONS
from tlatelolco.games.mexica.city import City
from tlatelolco.games.mexica.components import (
    ACTION_TOKENS,
    AP_PER_TURN,
    MAX_ROUNDS,
    PART_ONE_TILES,
    TILE_COUNTS,
)
from tlatelolco.games.mexica.state import MexicaState
from tlatelolco.i18n import N_
from tlatelolco.tensors import Layout


def max_game_length(num_players: int) -> int:
    """A bound from the round rule (MX-10).

    Every action but founding and ending the turn costs at least 1 AP. A turn has 6 AP plus
    the tokens held, and a taken token costs the AP it later gives back, so no turn has more
    than 6 + 12 paid actions and an end. Each part has at most 40 rounds; founding is free but
    uses up one of the 15 tiles. Set-up draws 8 tiles and places each Mexica.
    """
    per_turn = AP_PER_TURN + ACTION_TOKENS + 1
    tiles = sum(TILE_COUNTS.values())
    return PART_ONE_TILES + num_players + 2 * MAX_ROUNDS * num_players * per_turn + tiles


class MexicaGame(Game):
    info = GameInfo(
        name="mexica",
        title="Mexica",
        version="1.1",
        min_players=2,
        max_players=4,
        chance="explicit",
        information="perfect",
        utility="constant_sum",
        min_utility=0.0,
        max_utility=1.0,
        num_distinct_actions=NUM_ACTIONS,
        max_game_length=max_game_length(4),
        options=(Option("num_players", 4, "2 to 4 players (MX-1)", 2, 4,
                        label=N_("Players"),
                        about=N_("How many people play: from 2 to 4.")),),
        summary=N_("Dig canals to cut the island of Tenochtitlan into districts, found them "
                   "with calpulli tiles and build in them: the biggest builder of each district "
                   "scores most at the two scorings."),
        minutes=(60, 90),  # the rulebook states no length; a typical game among people
    )

    def max_game_length(self) -> int:
        return max_game_length(self.num_players())

    def observation_tensor_layout(self) -> Layout:
        return tensors.observation_layout(self.num_players())

    def information_state_tensor_layout(self) -> Layout:
        return tensors.information_state_layout(self.num_players())

    def new_initial_state(self) -> MexicaState:
        return MexicaState(self)

    def _state_at(self, city: City) -> MexicaState:
        return MexicaState(self, city)
