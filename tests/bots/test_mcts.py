"""MCTS and ISMCTS: chance by its odds, sound choices in games with known answers, budgets,
determinism, and the information-set search that never looks at what its seat cannot see."""

from __future__ import annotations

import random

import pytest
from tests.bots.toys import Gamble, Lock, Nim
from tests.grand_bazaar.positions import position, state_at

from tlatelolco import load
from tlatelolco.bots import bot_names, make_bot
from tlatelolco.bots.mcts import ISMCTS, MCTS, ActionStats, SearchResult
from tlatelolco.chance import sample_chance
from tlatelolco.contract import State
from tlatelolco.games.axio.table import DRAW
from tlatelolco.match import play_match


def test_chance_nodes_are_sampled_by_their_odds() -> None:
    bot = MCTS(Gamble(), 0, seed=1, iterations=3000, rollout="random", c=0.7)
    result = bot.search(Gamble().new_initial_state())
    assert result.action == 0
    values = {s.action: s.value for s in result.actions}
    assert values[0] == pytest.approx(0.7, abs=0.05)
    assert values[1] == pytest.approx(0.2, abs=0.15)  # explored less, so known less well
    assert sum(s.visits for s in result.actions) == 3000


def test_two_player_search_finds_the_only_winning_move() -> None:
    for seed in range(5):
        bot = MCTS(Nim(), 0, seed=seed, iterations=400, rollout="random")
        assert bot.step(Nim().new_initial_state()) == 2, seed


def test_root_statistics_are_a_hint_a_ui_can_show() -> None:
    game = load("grand_bazaar", num_players=2)
    state = _decision(game, seat=1)  # seat 0's first decision is a covered lead: no search
    bot = make_bot("mcts:iterations=200", game, 1, seed=3)
    result = bot.search(state)  # type: ignore[attr-defined]
    assert result.iterations == 200
    assert result.actions[0].action == result.action
    assert [s.visits for s in result.actions] == sorted((s.visits for s in result.actions),
                                                        reverse=True)
    assert all(0.0 <= s.value <= 1.0 for s in result.actions)
    assert {s.text for s in result.actions} <= set(state.legal_action_strings())
    assert result.as_dict()["actions"][0]["text"] == result.actions[0].text


@pytest.mark.parametrize("game_name", ["grand_bazaar", "aztec_market", "axio", "mexica"])
def test_same_seed_and_iterations_give_the_same_search(game_name: str) -> None:
    game = load(game_name, num_players=2)
    state = _decision(game, seat=0)
    spec = "ismcts:iterations=30,depth=2" if game_name == "axio" else "mcts:iterations=30,depth=2"
    first = make_bot(spec, game, 0, seed=7).search(state)  # type: ignore[attr-defined]
    second = make_bot(spec, game, 0, seed=7).search(state)  # type: ignore[attr-defined]
    assert first.action == second.action
    assert [(s.action, s.visits, s.value) for s in first.actions] == [
        (s.action, s.visits, s.value) for s in second.actions]
    assert first.action in state.legal_actions()


def _visits(result: object) -> int:
    return sum(s.visits for s in result.actions)  # type: ignore[attr-defined]


def test_the_next_search_starts_from_the_subtree_of_what_was_played() -> None:
    nim = Nim()
    state = nim.new_initial_state()
    state.stones = 7
    bot = MCTS(nim, 0, seed=1, iterations=200, rollout="random")
    state.apply_action(bot.step(state))
    state.apply_action(state.legal_actions()[0])  # the opponent's reply, also in the tree
    again = bot.search(state)
    assert again.iterations == 200 and _visits(again) > 200
    fresh = MCTS(nim, 0, seed=1, iterations=200, rollout="random", reuse=0)
    fresh.step(nim.new_initial_state())
    assert _visits(fresh.search(state)) == 200


def test_a_position_that_does_not_follow_gets_a_fresh_tree() -> None:
    nim = Nim()
    bot = MCTS(nim, 0, seed=1, iterations=100, rollout="random")
    first = nim.new_initial_state()
    bot.step(first)
    other = nim.new_initial_state()  # same history prefix (none), different position
    other.stones = 4
    other.apply_action(1)
    other.apply_action(1)
    assert _visits(bot.search(other)) == 100


def test_a_new_move_is_judged_by_where_its_policys_line_leads() -> None:
    lock = Lock()
    values = {}
    for follow in (1, 0):
        bot = MCTS(lock, 0, seed=1, iterations=1, rollout="random", depth=0, follow=follow)
        bot.rankers = [lambda state: [(2, 3)], lambda state: []]  # the policy's line: 2, then 3
        result = bot.search(lock.new_initial_state())
        assert [(s.action, s.visits) for s in result.actions] == [(2, 1)]
        values[follow] = result.actions[0].value
    assert values == {1: 1.0, 0: 0.5}  # the line opened the lock; alone, 2 is only halfway


def test_a_line_is_played_on_only_while_its_mover_moves_legally() -> None:
    state = Nim().new_initial_state()
    MCTS._follow(state, 0, (3,))  # 3 stones may not be taken
    assert state.history() == []
    MCTS._follow(state, 0, (1, 1))  # after one take it is seat 1's move
    assert state.history() == [1]


def test_a_covered_grand_bazaar_lead_is_kept_without_searching() -> None:
    # Seat 0 trades second in round 6, 10 grands ahead; seat 1 holds two emeralds.
    ahead = state_at(position(round=6, turn=1, hands=[[1, 0, 0], [0, 0, 2]], money=[40, 20],
                              supply=[9, 10, 8]))
    bot = make_bot("mcts:iterations=50", ahead.get_game(), 0, seed=1)
    result = bot.search(ahead)  # type: ignore[attr-defined]
    assert result.iterations == 0 and ahead.action_to_string(result.action) == "sell sapphire"
    [hint] = result.actions  # what a UI shows: the move, no visits, the position's estimate
    assert (hint.action, hint.visits) == (result.action, 0) and 0.5 < hint.value <= 1
    behind = state_at(position(round=6, turn=1, hands=[[1, 0, 0], [0, 0, 2]], money=[20, 40],
                               supply=[9, 10, 8]))
    assert bot.search(behind).iterations == 50  # type: ignore[attr-defined]


def test_a_time_budget_is_kept() -> None:
    game = load("aztec_market", num_players=2)
    state = _decision(game, seat=0)
    result = make_bot("mcts:time=0.2", game, 0, seed=1).search(state)  # type: ignore[attr-defined]
    assert result.seconds < 0.2 + 0.15  # one iteration may run past the deadline
    assert result.iterations >= 1


def test_a_forced_move_is_played_without_searching() -> None:
    nim = Nim()
    state = nim.new_initial_state()
    state.stones = 1
    result = MCTS(nim, 0, seed=0, iterations=100).search(state)
    assert result.action == 1 and result.iterations == 0


def test_it_refuses_to_move_for_another_seat() -> None:
    state = Nim().new_initial_state()
    with pytest.raises(ValueError, match="seat 0 is to move"):
        MCTS(Nim(), 1, seed=0, iterations=10).search(state)


@pytest.mark.parametrize(("spec", "message"), [
    ("mcts:time=0", "time must be a positive"),
    ("mcts:iterations=0", "iterations must be a whole number"),
    ("mcts:iterations=2.5", "iterations must be a whole number"),
    ("mcts:depth=-1", "depth must be"),
    ("mcts:rollout=clever", "rollout must be greedy or random"),
    ("mcts:speed=3", "has no parameter 'speed'; allowed: time, iterations, c, rollout"),
    ("ismcts:c=-1", "c must be"),
    ("mcts:prior=1", "prior must be from 0 up to"),
    ("mcts:reuse=2", "reuse must be 0 or 1"),
    ("mcts:follow=-1", "follow must be 0 or 1"),
])
def test_bad_parameters_say_what_is_allowed(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_bot(spec, load("grand_bazaar", num_players=2), 0, seed=0)


def test_the_factory_offers_search_bots_for_every_game() -> None:
    for name in ("grand_bazaar", "aztec_market", "axio", "mexica"):
        game = load(name, num_players=2)
        assert bot_names(game) == ["random", "greedy", "mcts", "ismcts"]
        assert isinstance(make_bot("ismcts:iterations=5", game, 1, seed=0), ISMCTS)
        assert type(make_bot("mcts:time=1.5", game, 1, seed=0)) is MCTS


@pytest.mark.parametrize("game_name", ["grand_bazaar", "axio"])
def test_search_bots_play_whole_games(game_name: str) -> None:
    spec = "ismcts:iterations=8,depth=2" if game_name == "axio" else "mcts:iterations=8,depth=2"
    record = play_match(load(game_name, num_players=2), [spec, "greedy"], seed=5)
    assert record["result"] is not None
    assert record["players"] == [spec, "greedy"]


# --- information sets --------------------------------------------------------------------------
def _twins() -> tuple[State, State]:
    """Two Axio positions seat 0 cannot tell apart: seat 1's hidden hand tile differs."""
    game = load("axio", num_players=2)
    state = game.new_initial_state()
    rng = random.Random(11)
    while True:
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        elif state.current_player() == 0 and state.move_number() > 10:
            break
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    twin = state.clone()
    t = twin.table  # type: ignore[attr-defined]
    true_tile, other = t.hands[1], t.pool[len(t.pool) // 2]
    t.hands[1] = other
    t.pool[t.pool.index(other)] = true_tile
    twin._history[t.hand_step[1]] = DRAW + other  # type: ignore[attr-defined]
    assert state.table.hands[1] != twin.table.hands[1]  # type: ignore[attr-defined]
    assert state.information_state_string(0) == twin.information_state_string(0)
    assert state.observation(0) == twin.observation(0)
    return state, twin


def _summary(bot: MCTS, state: State) -> list[tuple[int, int, float]]:
    result = bot.search(state)
    return [(s.action, s.visits, round(s.value, 12)) for s in result.actions]


def test_ismcts_decides_the_same_in_positions_its_seat_cannot_tell_apart() -> None:
    state, twin = _twins()
    game = state.get_game()
    for seed in range(3):
        first = ISMCTS(game, 0, seed=seed, iterations=60, depth=3)
        second = ISMCTS(game, 0, seed=seed, iterations=60, depth=3)
        assert first.step(state) == second.step(twin)
        assert _summary(ISMCTS(game, 0, seed=seed, iterations=60, depth=3), state) == _summary(
            ISMCTS(game, 0, seed=seed, iterations=60, depth=3), twin)


def test_plain_mcts_on_the_true_state_would_tell_them_apart() -> None:
    """The check above can fail: a search over the state it is handed sees the hidden tile."""
    state, twin = _twins()
    game = state.get_game()
    assert _summary(MCTS(game, 0, seed=0, iterations=60, depth=3), state) != _summary(
        MCTS(game, 0, seed=0, iterations=60, depth=3), twin)


def test_axio_resampling_depends_only_on_the_seats_information() -> None:
    """Regression: the re-deal once shuffled the unseen tiles in an order that followed where
    they really were, so twins drew different hands from the same generator."""
    state, twin = _twins()
    for seed in range(40):
        a = state.resample_from_infostate(0, random.Random(seed))
        b = twin.resample_from_infostate(0, random.Random(seed))
        assert a.table.hands == b.table.hands  # type: ignore[attr-defined]
        assert a.table.pool == b.table.pool  # type: ignore[attr-defined]
        assert a.history() == b.history()


def _decision(game, seat: int) -> State:  # type: ignore[no-untyped-def]
    """A position a few moves in where `seat` has a real choice."""
    state = game.new_initial_state()
    rng = random.Random(3)
    while True:
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
            continue
        if state.current_player() == seat and state.move_number() > 6 and len(
                state.legal_actions()) > 1:
            return state
        state.apply_action(rng.choice(state.legal_actions()))


def test_a_search_result_says_how_its_move_was_chosen() -> None:
    stats = [ActionStats(3, "take 3", 0, 0.8)]
    assert SearchResult(3, 0, 0.0, []).why == "only move"
    assert SearchResult(3, 0, 0.0, stats).why == "settled"
    stats[0].visits = 40
    assert SearchResult(3, 40, 0.1, stats).why == "searched"
