"""Resolving chance nodes with a seeded generator: the only place randomness enters a game."""

from __future__ import annotations

import random

from tlatelolco.contract import State


def sample_chance(state: State, rng: random.Random) -> int:
    """An outcome of the chance node `state`, drawn with its probability."""
    uniform = state.uniform_chance_outcomes()
    if uniform is not None:  # the same arithmetic as below, without a pair per outcome
        actions, p = uniform
        r = rng.random()
        for action in actions:
            r -= p
            if r < 0.0:
                return action
        return actions[-1]
    outcomes = state.chance_outcomes()
    r = rng.random()
    for action, p in outcomes:
        r -= p
        if r < 0.0:
            return action
    return outcomes[-1][0]  # rounding left a sliver of probability at the end


def random_playout(state: State, rng: random.Random) -> int:
    """Play uniformly random legal moves (chance by its odds) to the end; the number of moves."""
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            action = sample_chance(state, rng)
        else:
            action = rng.choice(state.legal_actions())
        state.apply_action(action)
        moves += 1
    return moves
