"""Planted blunders: in each game, an ending where one move throws a won game away, and the
review flags that move while finding a better one.

Each position is a seeded greedy-vs-greedy game replayed up to a decision near its end (found by
a seeded search over such games, then fixed here). The test first proves the blunder is real,
exactly and without the search: every continuation after it (every choice of every seat, every
draw) loses for the mover, while a line of the mover's own wins. Only then does it ask the review
(`analyse_decision` at the game's default budget, labelled by `assemble`) about that move.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest
from tests.review.test_noise import reachable_results

from tlatelolco import load, play_match
from tlatelolco.bots import make_bot
from tlatelolco.chance import sample_chance
from tlatelolco.contract import State
from tlatelolco.records import make_record
from tlatelolco.review.analysis import Settings, analyse_decision, assemble

SEEDS = (1, 2)  # the review's seed: a real blunder is flagged whatever the seed


@dataclass(frozen=True)
class Planted:
    game: str
    seed: int  # of the greedy-vs-greedy game (2 players) replayed up to `step`
    step: int
    blunder: str  # the move that throws the game away
    winning: tuple[str, ...]  # a line of the mover's own, from the same position, that wins


def position(case: Planted) -> State:
    game = load(case.game, num_players=2)
    record = play_match(game, ["greedy", "greedy"], seed=case.seed)
    return game.replay(record["history"][:case.step])


def played_out(state: State, seed: int) -> State:
    """`state` played to its end by greedy bots and seeded draws (a record needs an end)."""
    state = state.clone()
    rng = random.Random(seed)
    game = state.get_game()
    bots = [make_bot("greedy", game, seat, f"{seed}:{seat}") for seat in
            range(game.num_players())]
    while not state.is_terminal():
        seat = state.current_player()
        state.apply_action(sample_chance(state, rng) if seat < 0 else bots[seat].step(state))
    return state


def check_planted(case: Planted, review_seed: int) -> None:
    state = position(case)
    seat = state.current_player()
    blunder = state.string_to_action(case.blunder)
    # the premise, exactly: after the blunder the mover loses whatever anyone does ...
    after = state.clone()
    after.apply_action(blunder)
    assert {result[seat] for result in reachable_results(after)} == {0.0}
    # ... while a line of the mover's own wins whatever happens after it
    line = state.clone()
    for text in case.winning:
        line.apply_action(line.string_to_action(text))
    assert {result[seat] for result in reachable_results(line)} == {1.0}
    # the review flags the blunder and finds a better move
    settings = Settings(seed=review_seed)
    analysis = analyse_decision(state, blunder, settings.for_game(case.game))
    record = make_record(played_out(after, review_seed), ["greedy", "greedy"])
    flagged = assemble(record, [analysis], settings)["decisions"][0]
    assert flagged["label"] in ("mistake", "blunder"), flagged
    assert flagged["best"] != blunder, flagged
    assert flagged["after"][seat] < flagged["before"][seat], flagged


@pytest.mark.parametrize("review_seed", SEEDS)
def test_axio_AX5_a_placement_scoring_nothing_when_raising_the_lowest_colour_wins(
        review_seed: int) -> None:
    """AX-5: the result is a player's lowest colour. Seat 1 places the game's last tile with
    red at 5 against seat 0's lowest 6; placed at (-3,1) turned 90° its red and purple corners
    meet matching quadrants (AX-3) and lift red to 7, which wins, while (-4,0) touches no
    matching colour, scores nothing and leaves seat 1 at 5: lost."""
    check_planted(Planted("axio", seed=1, step=55, blunder="place at (-4,0) rot 0",
                          winning=("place at (-3,1) rot 90",)), review_seed)


@pytest.mark.parametrize("review_seed", SEEDS)
def test_grand_bazaar_GB5_buying_a_gem_above_its_final_value_in_the_last_turn(
        review_seed: int) -> None:
    """GB-5: after the last card every gem held pays 10. In round 26, the last trading turn,
    seat 0 (17 grands, a ruby and an emerald) is level with seat 1 (7 grands and 3 rubies:
    37). Buying an emerald at 11 pays one grand more than it will be worth and, by the rule
    against wash trades (GB-4), bars selling emeralds this round: 36 at best, lost. Buying the
    ruby at 10 and selling the emerald at 11 ends on 38: won."""
    check_planted(Planted("grand_bazaar", seed=31, step=178, blunder="buy emerald",
                          winning=("buy ruby", "sell emerald", "end turn")), review_seed)


@pytest.mark.parametrize("review_seed", SEEDS)
def test_aztec_market_AM7_the_king_buying_the_colour_the_rival_holds_more_of(
        review_seed: int) -> None:
    """AM-7: a colour scores the side's largest holding of it times the goods of that colour
    on the king; a tie goes to the side with more coins. In the game's last turn seat 1 leads
    110 to 108 and may let the king buy a red (AM-5, optional): red then counts 3 instead of 2,
    seat 0's 8 reds gain 8 and seat 1's 6 gain 6, 116 all, and seat 0 wins the tie on coins.
    The king skipping keeps the win."""
    check_planted(Planted("aztec_market", seed=13, step=223, blunder="king buys red",
                          winning=("king skips",)), review_seed)


@pytest.mark.parametrize("review_seed", SEEDS)
def test_mexica_MX11_ending_the_last_turn_off_the_starting_squares(review_seed: int) -> None:
    """MX-11: at each scoring a Mexica standing on a starting square scores 5. In the game's
    last turn seat 1, with 5 action points, would lose the second scoring by 4; a teleport
    (5 AP, MX-7) onto the starting square J8 earns the 5 and the game by one point, while
    ending the turn where it stands throws it away."""
    check_planted(Planted("mexica", seed=90, step=249, blunder="end",
                          winning=("teleport J8", "end")), review_seed)
