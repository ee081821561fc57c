"""The PettingZoo AEC environments: PettingZoo's own checkers on every game and player count,
and the conventions they cannot see (own-seat views, returns at the end, seeded chance,
illegal actions refused with nothing changed, truncation, rendering)."""

from __future__ import annotations

import functools
import random
import warnings
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, render_test, seed_test
from pettingzoo.utils import wrappers

from tlatelolco.contract import IllegalActionError
from tlatelolco.registry import game_class, list_games
from tlatelolco.rl.pettingzoo import RENDER_MODES, env, raw_env

CONFIGURATIONS = [(name, n) for name in list_games()
                  for n in range(game_class(name).info.min_players,
                                 game_class(name).info.max_players + 1)]
IDS = [f"{name}-{n}p" for name, n in CONFIGURATIONS]
# Agent cycles for PettingZoo's checkers: enough for whole games where games are short, a few
# dozen moves where a move costs a lot (a 280,000-wide mask sampled by gymnasium).
CYCLES = {"grand_bazaar": 300, "aztec_market": 120, "axio": 40, "mexica": 12}
PREFIX = 120  # agent steps compared when whole games are not needed

configurations = pytest.mark.parametrize("name, n", CONFIGURATIONS, ids=IDS)


def make(name: str, n: int, **kwargs: Any) -> Any:
    return env(name, num_players=n, **kwargs)


def random_action(observation: dict[str, Any], gen: np.random.Generator) -> int:
    """A uniformly random legal action (found on a bool view: `flatnonzero` of the int8 mask
    itself is more than ten times slower)."""
    legal = np.flatnonzero(observation["action_mask"].view(np.bool_))
    return int(legal[gen.integers(len(legal))])


def play(aec: Any, gen: np.random.Generator, steps: int | None = None) -> int:
    """Random legal actions until every agent is done (or `steps` agent actions); dead agents
    are stepped with None. Returns the number of agent actions."""
    taken = 0
    for _ in aec.agent_iter():
        observation, _, terminated, truncated, _ = aec.last()
        if terminated or truncated:
            aec.step(None)
            continue
        if steps is not None and taken >= steps:
            break
        aec.step(random_action(observation, gen))
        taken += 1
    return taken


def inked(image: np.ndarray) -> bool:
    """A picture with something drawn on it: text covers a few percent of the paper."""
    return bool((image != image[0, 0]).any(axis=-1).mean() > 0.02)


# --- PettingZoo's own checkers ----------------------------------------------------------------
@configurations
def test_api_test(name: str, n: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # dict observations and Dict spaces are its advice only
        api_test(make(name, n), num_cycles=CYCLES[name])


@configurations
def test_seed_test(name: str, n: int) -> None:
    seed_test(functools.partial(make, name, n), num_cycles=CYCLES[name])


@configurations
def test_render_test(name: str, n: int, capsys: pytest.CaptureFixture[str]) -> None:
    title = game_class(name).info.title
    render_test(functools.partial(make, name, n), custom_tests={
        "ansi": lambda text: title in text,
        "rgb_array": inked,
    })
    assert title in capsys.readouterr().out  # "human" printed the board


# --- the conventions --------------------------------------------------------------------------
@configurations
def test_spaces_and_metadata(name: str, n: int) -> None:
    aec = make(name, n)
    game = aec.unwrapped.game
    assert aec.metadata["name"] == f"tlatelolco_{name}_v0"
    assert aec.metadata["render_modes"] == list(RENDER_MODES)
    assert aec.metadata["is_parallelizable"] is False
    assert aec.possible_agents == [f"player_{seat}" for seat in range(n)]
    for agent in aec.possible_agents:
        space = aec.observation_space(agent)
        assert space is aec.observation_space(agent)
        tensor, mask = space["observation"], space["action_mask"]
        assert tensor.dtype == np.float32 and tensor.shape == game.observation_tensor_shape()
        assert tensor.low.min() == -1.0 and tensor.high.max() == 1.0
        assert mask.dtype == np.int8 and mask.shape == (game.num_distinct_actions(),)
        assert mask.low.min() == 0 and mask.high.max() == 1
        assert aec.action_space(agent).n == game.num_distinct_actions()


@configurations
def test_a_whole_game(name: str, n: int) -> None:
    """Each agent sees exactly its own seat's tensor and mask, only the seat to move has a legal
    action, values stay in the space's bounds, and the end pays the contract's returns."""
    aec = make(name, n)
    aec.reset(seed=11)
    state = aec.unwrapped.game_state
    seats = {agent: seat for seat, agent in enumerate(aec.possible_agents)}
    seen: set[str] = set()

    def check(agent: str, observation: dict[str, Any]) -> None:
        seen.add(agent)
        if state.is_terminal():
            assert not observation["action_mask"].any()
            return
        assert seats[agent] == state.current_player()
        for other, seat in seats.items():
            mine = aec.observe(other)
            assert np.array_equal(mine["observation"], state.observation_tensor(seat))
            assert np.array_equal(mine["action_mask"], state.legal_actions_mask(seat))
            assert mine["action_mask"].any() == (other == agent)
            assert mine["observation"].min() >= -1.0 and mine["observation"].max() <= 1.0
        assert np.array_equal(observation["observation"], state.observation_tensor(seats[agent]))

    rewards: dict[str, float] = {}
    for agent in aec.agent_iter():
        observation, reward, terminated, truncated, _ = aec.last()
        check(agent, observation)
        assert not truncated
        if terminated:
            rewards[agent] = reward
            aec.step(None)
        else:
            assert reward == 0.0
            aec.step(random_action(observation, np.random.default_rng(len(state.history()))))
    returns = state.returns()
    assert state.is_terminal() and not aec.agents
    assert rewards == {agent: returns[seat] for agent, seat in seats.items()}
    assert seen == set(seats)
    for team in aec.unwrapped.game.teams():  # partners share their side's result
        assert len({returns[seat] for seat in team}) == 1


@configurations
def test_seeded_resets_replay_the_same_game(name: str, n: int) -> None:
    def history(aec: Any, seed: Any) -> list[int]:
        aec.reset(seed=seed)
        play(aec, np.random.default_rng(5), steps=PREFIX)
        return aec.unwrapped.game_state.history()

    first, second = make(name, n), make(name, n)
    seeded = history(first, 3)
    assert history(second, 3) == seeded  # another environment, same seed
    assert history(first, 3) == seeded  # the same one, reseeded
    assert history(first, np.int64(3)) == seeded  # a NumPy seed is the same seed
    assert history(first, None) != seeded  # no seed: the generator goes on
    assert history(first, 4) != seeded


@configurations
def test_illegal_actions_are_refused_and_change_nothing(name: str, n: int) -> None:
    aec = make(name, n)
    aec.reset(seed=2)
    play(aec, np.random.default_rng(0), steps=3)
    agent, state = aec.agent_selection, aec.unwrapped.game_state
    before = aec.observe(agent)
    history = state.history()
    illegal = int(np.flatnonzero(before["action_mask"] == 0)[0])
    size = aec.action_space(agent).n
    for action, words in [(illegal, "Legal now"), (size, "numbered 0"), (-1, "numbered 0"),
                          (10**30, "numbered 0"), (1.5, "an integer"), ("3", "an integer"),
                          (None, "must give"), (True, "must give")]:
        with pytest.raises(IllegalActionError, match=words) as refused:
            aec.step(action)
        assert agent in str(refused.value)
        assert state.history() == history and aec.agent_selection == agent
        after = aec.observe(agent)
        assert np.array_equal(after["observation"], before["observation"])
        assert np.array_equal(after["action_mask"], before["action_mask"])
        assert not any(aec.terminations.values()) and not any(aec.truncations.values())
        assert set(aec.rewards.values()) == {0.0}
    legal = np.int64(np.flatnonzero(before["action_mask"])[0])  # NumPy integers are welcome
    aec.step(legal)
    assert state.history()[len(history)] == legal


@configurations
def test_the_agents_legal_list_is_its_own(name: str, n: int) -> None:
    """`infos[agent]["legal_actions"]` is the agent's to keep or change: the environment checks
    actions against its own copy, so changing the list neither changes the mask nor lets an
    illegal action through."""
    aec = make(name, n)
    aec.reset(seed=4)
    play(aec, np.random.default_rng(1), steps=2)
    agent, state = aec.agent_selection, aec.unwrapped.game_state
    mask = aec.observe(agent)["action_mask"]
    listed = aec.infos[agent]["legal_actions"]
    assert listed == state.legal_actions() == np.flatnonzero(mask).tolist()
    illegal = int(np.flatnonzero(mask == 0)[0])
    listed[:] = [illegal]
    assert np.array_equal(aec.observe(agent)["action_mask"], mask)
    history = state.history()
    with pytest.raises(IllegalActionError, match="Legal now"):
        aec.step(illegal)
    assert state.history() == history
    aec.step(int(np.flatnonzero(mask)[-1]))
    assert state.history()[len(history)] == int(np.flatnonzero(mask)[-1])


@configurations
def test_truncation_at_max_steps(name: str, n: int) -> None:
    aec = make(name, n, max_steps=4)
    aec.reset(seed=0)
    assert play(aec, np.random.default_rng(0)) == 4
    assert not aec.agents
    state = aec.unwrapped.game_state
    assert not state.is_terminal()
    aec.reset(seed=0)  # a truncated environment starts again as usual
    for _ in range(4):
        observation, *_ = aec.last()
        aec.step(random_action(observation, np.random.default_rng(0)))
    assert all(aec.truncations.values()) and not any(aec.terminations.values())
    assert set(aec.rewards.values()) == {0.0}
    _, reward, terminated, truncated, _ = aec.last()
    assert (reward, terminated, truncated) == (0.0, False, True)


@pytest.mark.parametrize("bad", [0, -3, 2.5, "10", True])
def test_max_steps_must_be_a_positive_integer(bad: Any) -> None:
    with pytest.raises(ValueError, match="max_steps"):
        env("grand_bazaar", max_steps=bad)


@pytest.mark.parametrize("n", range(2, 5))
def test_axio_agents_never_see_another_hand(n: int) -> None:
    """An Axio seat's hand tile is its secret: every agent's observation is its own seat's
    tensor, unchanged when the others' hands are redealt, and not a rival seat's tensor."""
    aec = make("axio", n)
    aec.reset(seed=n)
    state = aec.unwrapped.game_state
    rng = random.Random(0)
    gen = np.random.default_rng(0)
    redealt = 0
    for _ in range(30):
        if not aec.agents or state.is_terminal():
            break
        for seat, agent in enumerate(aec.possible_agents):
            mine = aec.observe(agent)["observation"]
            assert np.array_equal(mine, state.observation_tensor(seat))
            assert not any(np.array_equal(mine, state.observation_tensor(other))
                           for other in range(n) if other != seat)
            other_world = state.resample_from_infostate(seat, rng)
            assert np.array_equal(mine, other_world.observation_tensor(seat))
            redealt += other_world != state
        observation, *_ = aec.last()
        aec.step(random_action(observation, gen))
    assert redealt  # some redeal did change a hidden hand, so the comparison meant something


def test_render_modes_and_refusals(capsys: pytest.CaptureFixture[str]) -> None:
    text = make("aztec_market", 4, render_mode="ansi")
    text.reset(seed=1)
    board = text.render()
    assert "Aztec Market" in board and "\x1b" not in board  # plain text, no escape codes
    picture = make("aztec_market", 4, render_mode="rgb_array")
    picture.reset(seed=1)
    image = picture.render()
    lines = len(board.splitlines())
    assert image.dtype == np.uint8 and image.ndim == 3 and image.shape[2] == 3 and inked(image)
    assert len({tuple(pixel) for pixel in image[::4, ::4].reshape(-1, 3)}) > 3  # colours too
    assert image.shape[0] == lines * 20  # one 10-pixel text row per line, magnified twice
    human = make("aztec_market", 4, render_mode="human")
    human.reset(seed=1)
    capsys.readouterr()
    assert human.render() is None
    assert capsys.readouterr().out.strip() == board.strip()
    silent = make("aztec_market", 4)
    silent.reset(seed=1)
    with pytest.warns(UserWarning, match="without a render_mode"):
        assert silent.render() is None
    with pytest.raises(ValueError, match="render_mode 'video' is not supported"):
        env("axio", render_mode="video")


def test_game_options_pass_through_and_bad_ones_are_refused() -> None:
    aec = env("aztec_market", num_players=4, luck=False)
    assert aec.unwrapped.game.options["luck"] is False and aec.unwrapped.game.teams()
    with pytest.raises(ValueError, match="unknown option 'colour'"):
        env("aztec_market", colour="red")


def test_observe_refuses_unknown_agents_and_dead_agents_take_only_none() -> None:
    aec = make("grand_bazaar", 2, max_steps=1)
    aec.reset(seed=0)
    with pytest.raises(ValueError, match="unknown agent 'player_9'"):
        aec.observe("player_9")
    observation, *_ = aec.last()
    aec.step(random_action(observation, np.random.default_rng(0)))
    with pytest.raises(ValueError, match="only valid action is None"):
        aec.step(0)


def test_the_classic_penalty_wrapper_works_instead_of_the_error() -> None:
    """As the docs say: wrap `raw_env` in TerminateIllegalWrapper for PettingZoo's classic
    rule (an illegal action ends the game and costs the agent)."""
    aec = wrappers.OrderEnforcingWrapper(
        wrappers.TerminateIllegalWrapper(raw_env("grand_bazaar", num_players=2), -1.0))
    aec.reset(seed=0)
    agent = aec.agent_selection
    observation, *_ = aec.last()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PettingZoo warns about the illegal move
        aec.step(int(np.flatnonzero(observation["action_mask"] == 0)[0]))
    assert all(aec.terminations.values())
    assert aec.rewards[agent] == -1.0
