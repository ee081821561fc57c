"""Greedy bots that rank their moves for the search: the ranking starts with the bot's own
choice and holds distinct legal moves (the search expands them in that order)."""

from __future__ import annotations

import random

import pytest

from tlatelolco import load
from tlatelolco.bots import make_bot
from tlatelolco.chance import sample_chance

RANKING_GAMES = ["axio", "mexica"]  # the others have few moves: their one choice will do


@pytest.mark.parametrize("game_name", RANKING_GAMES)
def test_the_ranking_starts_with_the_bots_own_move(game_name: str) -> None:
    game = load(game_name, num_players=2)
    rng = random.Random(4)
    state = game.new_initial_state()
    players = [make_bot("greedy", game, s, seed=s) for s in range(2)]
    rankers = [make_bot("greedy", game, s, seed=s) for s in range(2)]
    checked = 0
    while not state.is_terminal() and checked < 60:
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
            continue
        seat = state.current_player()
        ranking = rankers[seat].ranked(state, 8)  # type: ignore[attr-defined]
        choice = players[seat].step(state)
        legal = set(state.legal_actions())
        assert ranking[0] == choice, state.action_to_string(choice)
        assert len(ranking) == len(set(ranking)) <= 8
        assert set(ranking) <= legal
        assert len(ranking) == min(8, len(legal)) or game_name != "axio"
        state.apply_action(choice)
        checked += 1
    assert checked >= 20  # a 2-player Axio game has 24 decisions


def test_mexica_lines_are_the_plans_behind_the_ranking() -> None:
    game = load("mexica", num_players=2)
    rng = random.Random(6)
    state = game.new_initial_state()
    players = [make_bot("greedy", game, s, seed=s) for s in range(2)]
    rankers = [make_bot("greedy", game, s, seed=s) for s in range(2)]
    movers = [make_bot("greedy", game, s, seed=s) for s in range(2)]  # a plan in hand counts
    longest = 0
    for _ in range(80):
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
            continue
        seat = state.current_player()
        lines = rankers[seat].ranked_lines(state, 8)  # type: ignore[attr-defined]
        firsts = [line[0] for line in lines]
        assert firsts == movers[seat].ranked(state, 8)  # type: ignore[attr-defined]
        choice = players[seat].step(state)
        assert firsts[0] == choice
        assert len(set(firsts)) == len(firsts) and set(firsts) <= set(state.legal_actions())
        longest = max(longest, *map(len, lines))
        state.apply_action(choice)
    assert longest >= 3  # walk, cut, found: a search plays on such a line to judge its move
