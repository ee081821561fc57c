"""Aztec Market's options and metadata (rules digest AM-1 ... AM-9)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tlatelolco.contract import Game, GameInfo, Option
from tlatelolco.games.aztec_market import tensors
from tlatelolco.games.aztec_market.components import GOODS_PER_COLOUR, NUM_ACTIONS, TEAMS
from tlatelolco.games.aztec_market.market import Market
from tlatelolco.games.aztec_market.state import AztecMarketState
from tlatelolco.i18n import N_
from tlatelolco.tensors import Layout

MAX_REMOVED = 4 * GOODS_PER_COLOUR - 4


def max_game_length(num_players: int) -> int:
    """A bound from what every action consumes.

    Every purchase moves at least one good off a vendor for good (porters never take back the
    last one), so there are at most 80 purchases and 80 PLAY turns; each PASS draws 4 goods, so
    at most 20 PASS turns come before the bag is empty and n after; coins, hence paid moves, come
    one per player at set-up and one per PASS; the errand boy moves at most once between two
    other PLAY actions.
    """
    goods = 4 * GOODS_PER_COLOUR
    passes = goods // 4 + num_players
    coins = num_players + passes
    set_up = 16 + num_players
    pass_turns = passes * (1 + 4 + 2 + 1 + 1)
    play_turns = goods * 2
    errands = goods + coins + goods
    return set_up + pass_turns + play_turns + goods + coins + errands


class AztecMarketGame(Game):
    info = GameInfo(
        name="aztec_market",
        title=N_("Aztec Market"),
        version="1.0",
        min_players=2,
        max_players=4,
        chance="explicit",
        information="perfect",
        utility="constant_sum",
        min_utility=0.0,
        max_utility=1.0,
        num_distinct_actions=NUM_ACTIONS,
        max_game_length=max_game_length(4),
        options=(
            Option("num_players", 4, "2 or 3 play alone, 4 play in teams of partners (AM-2)",
                   2, 4, label=N_("Players"),
                   about=N_("Two or three players play alone; four play as two teams of "
                            "partners sitting opposite each other.")),
            Option("setup", "build", "'build': players build the market (AM-3); 'random': laid "
                   "out at random", choices=("build", "random"), label=N_("Market set-up"),
                   about=N_("Build: the players lay out the market tile by tile, in turn. "
                            "Random: it is laid out at random for a quicker start.")),
            Option("removed", 4, "goods removed from the game at set-up, a multiple of 4 (AM-3)",
                   0, MAX_REMOVED, label=N_("Goods removed"),
                   about=N_("How many goods leave the game before it starts, a multiple of 4: "
                            "the more are removed, the shorter the game.")),
            Option("luck", True, "True: the removed goods are random and unseen; False: "
                   "removed/4 of each colour, openly (AM-3)", choices=(True, False),
                   label=N_("Removed unseen"),
                   about=N_("On: the removed goods are drawn from the bag without looking. "
                            "Off: the same number of each colour is removed, in the open.")),
        ),
        summary=N_("Buyers, vendors and a fickle king in the market of Tlatelolco: slide the "
                   "market's tiles, buy goods with your four buyers and collect the colours "
                   "the king buys. With four players, partners play as a team."),
        minutes=(20, 40),
    )

    @classmethod
    def validate_options(cls, given: Mapping[str, Any]) -> dict[str, Any]:
        options = super().validate_options(given)
        if options["removed"] % 4:
            raise ValueError(f"aztec_market: option removed={options['removed']} is not "
                             f"allowed; allowed: a multiple of 4 from 0 to {MAX_REMOVED}")
        return options

    def max_game_length(self) -> int:
        return max_game_length(self.num_players())

    def teams(self) -> tuple[tuple[int, ...], ...]:
        return TEAMS[self.num_players()]

    def observation_tensor_layout(self) -> Layout:
        """See `tensors` and docs/tensors/aztec_market.md; one object per player count."""
        return tensors.plan(self.num_players()).observation

    def information_state_tensor_layout(self) -> Layout:
        return tensors.plan(self.num_players()).information

    def new_initial_state(self) -> AztecMarketState:
        return AztecMarketState(self)

    def _state_at(self, market: Market) -> AztecMarketState:
        return AztecMarketState(self, market)
