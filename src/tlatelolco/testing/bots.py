"""A check every bot must pass: a legal answer in whatever position random play reaches."""

from __future__ import annotations

import random
from collections.abc import Sequence

from tlatelolco.bots.base import Bot
from tlatelolco.chance import sample_chance
from tlatelolco.contract import Game


def check_bot_in_random_play(game: Game, bots: Sequence[Bot], games: int, seed: int) -> int:
    """Play `games` random games; at every decision ask that seat's bot too, from a state drawn
    from the seat's information (as the match runner does), and require a legal answer.

    Random play reaches corners a bot's own play avoids. Returns the decisions checked; raises
    `AssertionError` naming the game, seed and step of an illegal answer.
    """
    rng = random.Random(seed)
    checked = 0
    for index in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
                continue
            seat = state.current_player()
            answer = bots[seat].step(state.resample_from_infostate(seat, rng))
            legal = state.legal_actions()
            if answer not in legal:
                raise AssertionError(
                    f"{game!r}, seed {seed}, game {index}, step {state.move_number()}: "
                    f"{type(bots[seat]).__name__} (seat {seat}) answered {answer!r}, "
                    "which is not legal")
            state.apply_action(rng.choice(legal))
            checked += 1
    return checked
