"""Grand Bazaar's options and metadata (rules digest GB-1 ... GB-7)."""

from __future__ import annotations

from tlatelolco.contract import Game, GameInfo, Option
from tlatelolco.games.grand_bazaar import rules, tensors
from tlatelolco.games.grand_bazaar.board import Bazaar
from tlatelolco.games.grand_bazaar.cards import NUM_ACTIONS, NUM_CARDS, ROUNDS
from tlatelolco.games.grand_bazaar.state import GrandBazaarState
from tlatelolco.i18n import N_
from tlatelolco.tensors import Layout

# A turn has at most 4 sells (only cards held at its start can be sold: no wash trades), at most
# 4 buys (hand limit) and the end: 9 actions. Round 27 has no trading.
MAX_TURN_LENGTH = 9
MIN_PLAYERS, MAX_PLAYERS = 2, 7


def max_game_length(num_players: int) -> int:
    return NUM_CARDS + (ROUNDS - 1) * num_players * MAX_TURN_LENGTH


class GrandBazaarGame(Game):
    info = GameInfo(
        name="grand_bazaar",
        title="Grand Bazaar",
        version="1.0",
        min_players=MIN_PLAYERS,
        max_players=MAX_PLAYERS,
        chance="explicit",
        information="perfect",
        utility="constant_sum",
        min_utility=0.0,
        max_utility=1.0,
        num_distinct_actions=NUM_ACTIONS,
        max_game_length=max_game_length(MAX_PLAYERS),
        options=(
            Option("num_players", 3, "number of players (GB-2)", MIN_PLAYERS, MAX_PLAYERS,
                   label=N_("Players"),
                   about=N_("How many merchants trade at the bazaar, from 2 to 7.")),
        ),
        summary=N_("Medieval merchants trade sapphires, rubies and emeralds while 27 price "
                   "cards push the prices up and down. Buy at least one gem every turn, sell "
                   "when the price is right, and finish with the most money."),
        minutes=(20, 40),  # the rulebook gives no time; 27 quick rounds of short turns
    )

    def max_game_length(self) -> int:
        return max_game_length(self.num_players())

    def observation_tensor_layout(self) -> Layout:
        return tensors.observation_layout(self.num_players())

    def information_state_tensor_layout(self) -> Layout:
        return tensors.information_state_layout(self.num_players())

    def new_initial_state(self) -> GrandBazaarState:
        return GrandBazaarState(self)

    def _state_at(self, bazaar: Bazaar) -> GrandBazaarState:
        return GrandBazaarState(self, bazaar)


__all__ = ["GrandBazaarGame", "max_game_length", "rules"]
