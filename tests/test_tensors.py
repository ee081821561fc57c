"""The contract's tensors for every game and player count: shapes, types, masks, and that a seat's
tensors depend only on what that seat may know. Each game's own `test_tensors.py` checks what
its sections mean."""

from __future__ import annotations

import random

import numpy as np
import pytest

import tlatelolco
from tlatelolco.chance import sample_chance
from tlatelolco.contract import State
from tlatelolco.registry import game_class
from tlatelolco.tensors import Layout

CONFIGS = [(name, n) for name in tlatelolco.list_games()
           for n in range(game_class(name).info.min_players, game_class(name).info.max_players + 1)]
POSITIONS = 24  # sampled from one seeded random game per configuration


def positions(game: tlatelolco.Game, seed: str) -> list[State]:
    """States along one random game (chance by its odds), the last one terminal."""
    rng = random.Random(seed)
    state, seen = game.new_initial_state(), []
    while not state.is_terminal():
        seen.append(state.clone())
        action = (sample_chance(state, rng) if state.is_chance_node()
                  else rng.choice(state.legal_actions()))
        state.apply_action(action)
    seen.append(state)
    picked = sorted(rng.sample(range(len(seen) - 1), min(POSITIONS, len(seen) - 1)))
    return [seen[i] for i in picked] + [seen[-1]]


@pytest.fixture(params=CONFIGS, ids=[f"{name}-{n}" for name, n in CONFIGS])
def config(request: pytest.FixtureRequest) -> tuple[tlatelolco.Game, list[State]]:
    name, n = request.param
    game = tlatelolco.load(name, num_players=n)
    return game, positions(game, seed=f"{name}:{n}")


def test_layouts_are_fixed_per_configuration(
        config: tuple[tlatelolco.Game, list[State]]) -> None:
    game, _ = config
    for layout, shape in ((game.observation_tensor_layout(), game.observation_tensor_shape()),
                          (game.information_state_tensor_layout(),
                           game.information_state_tensor_shape())):
        assert isinstance(layout, Layout) and layout.shape == shape and layout.size > 0
    assert game.observation_tensor_layout() is game.observation_tensor_layout()  # cached
    again = tlatelolco.load(game.info.name, **game.options)
    assert again.observation_tensor_layout() == game.observation_tensor_layout()
    assert (again.information_state_tensor_layout()
            == game.information_state_tensor_layout())


def test_tensors_are_float32_finite_deterministic_and_fresh(
        config: tuple[tlatelolco.Game, list[State]]) -> None:
    game, states = config
    for state in states:
        for seat in range(game.num_players()):
            for make, shape in ((state.observation_tensor, game.observation_tensor_shape()),
                                (state.information_state_tensor,
                                 game.information_state_tensor_shape())):
                tensor = make(seat)
                assert tensor.dtype == np.float32 and tensor.shape == shape
                assert np.isfinite(tensor).all()
                assert tensor.min() >= -1.0 and tensor.max() <= 1.0, "scaled to [-1, 1]"
                kept = tensor.copy()
                tensor += 1  # a caller's array is its own: changing it changes nothing
                assert np.array_equal(make(seat), kept)


def test_tensors_follow_the_game(config: tuple[tlatelolco.Game, list[State]]) -> None:
    """A tensor that never changes would pass every leak test: it must tell positions apart."""
    game, states = config
    for seat in range(game.num_players()):
        seen = {state.observation_tensor(seat).tobytes() for state in states}
        assert len(seen) > len(states) // 2, f"seat {seat}: too few distinct observations"


def test_information_state_contains_the_observation_and_follows_its_string(
        config: tuple[tlatelolco.Game, list[State]]) -> None:
    game, states = config
    rng = random.Random(7)
    for state in states:
        for seat in range(game.num_players()):
            info = state.information_state_tensor(seat)
            other = state.resample_from_infostate(seat, rng)
            assert (other.information_state_string(seat)
                    == state.information_state_string(seat))
            assert np.array_equal(other.information_state_tensor(seat), info)
            assert np.array_equal(other.observation_tensor(seat), state.observation_tensor(seat))


def test_the_mask_is_the_legal_actions_of_the_seat_to_move(
        config: tuple[tlatelolco.Game, list[State]]) -> None:
    game, states = config
    for state in states:
        mover = state.current_player()
        for seat in range(game.num_players()):
            mask = state.legal_actions_mask(seat)
            assert mask.dtype == np.int8 and mask.shape == (game.num_distinct_actions(),)
            wanted = state.legal_actions() if seat == mover else []
            assert np.flatnonzero(mask).tolist() == sorted(wanted)
        default = state.legal_actions_mask()
        assert int(default.sum()) == (len(state.legal_actions()) if mover >= 0 else 0)


@pytest.mark.parametrize("name", tlatelolco.list_games())
def test_tensors_refuse_a_seat_that_does_not_exist(name: str) -> None:
    state = tlatelolco.load(name).new_initial_state()
    n = state.get_game().num_players()
    for bad in (-1, n, "0", 1.0, True):
        for make in (state.observation_tensor, state.information_state_tensor,
                     state.legal_actions_mask):
            with pytest.raises(ValueError, match="does not exist"):
                make(bad)


def test_a_layout_names_its_sections_and_views_them_without_copying() -> None:
    layout = Layout((("board", (2, 3)), ("money", (1,))))
    tensor = layout.zeros()
    views = layout.views(tensor)
    views["board"][1, 2] = 0.5
    views["money"][0] = 0.25
    assert tensor.tolist() == [0, 0, 0, 0, 0, 0.5, 0.25]
    assert layout.describe() == ["board (2, 3) at 0", "money (1,) at 6"]
    with pytest.raises(ValueError, match="shape"):
        layout.views(np.zeros(6, np.float32))
    for bad in ((("a", (1,)), ("a", (2,))), (("a", (0,)),), (("a", ()),)):
        with pytest.raises(ValueError):
            Layout(bad)
