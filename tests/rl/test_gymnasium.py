"""The Gymnasium environment: Gymnasium's own checker, seeding, illegal actions, rewards against
the engine and the match runner, opponents by spec, the learner's view, vector envs."""

from __future__ import annotations

import random
import warnings
from typing import Any

import pytest

gym = pytest.importorskip("gymnasium")
np = pytest.importorskip("numpy")

import tlatelolco  # noqa: E402
from tlatelolco.bots import RandomBot, bot_names  # noqa: E402
from tlatelolco.contract import IllegalActionError  # noqa: E402
from tlatelolco.match import play_match  # noqa: E402
from tlatelolco.rl.gymnasium import ENV_IDS, ILLEGAL_REWARD, TlatelolcoEnv  # noqa: E402

GAMES = sorted(ENV_IDS)
CONFIGS = [(name, players) for name in GAMES
           for players in range(tlatelolco.load(name).info.min_players,
                                tlatelolco.load(name).info.max_players + 1)]
CONFIG_IDS = [f"{name}-{players}p" for name, players in CONFIGS]


def masked_choice(rng: Any, mask: Any) -> int:
    """A uniformly random legal action (0 when nothing is legal: an ended sub-env)."""
    legal = np.flatnonzero(mask)
    return int(rng.choice(legal)) if len(legal) else 0


def play_out(env: Any, seed: int, limit: int = 100_000) -> dict[str, Any]:
    """One seeded episode with masked random actions; what it saw and got."""
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    seen, rewards = [obs["observation"]], []
    terminated = truncated = False
    while not (terminated or truncated) and len(rewards) < limit:
        obs, reward, terminated, truncated, info = env.step(masked_choice(rng, obs["action_mask"]))
        seen.append(obs["observation"])
        rewards.append(reward)
    return {"seen": seen, "rewards": rewards, "terminated": terminated, "info": info,
            "history": env.unwrapped.state.history()}


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=CONFIG_IDS)
def test_gymnasium_check_env(name: str, players: int) -> None:
    """Gymnasium's checker steps unmasked samples, so it runs in "lose" mode; with the spec
    from `make` it also checks both render modes."""
    from gymnasium.utils.env_checker import check_env

    env = gym.make(ENV_IDS[name], num_players=players, illegal_action="lose")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped, skip_render_check=False)
    assert [str(w.message) for w in caught] == []


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=CONFIG_IDS)
def test_seeded_episode_repeats_and_rewards_are_returns(name: str, players: int) -> None:
    """Whole masked random games through `make` (whose passive checker looks at the first
    reset and legal step in the default mode)."""
    env = gym.make(ENV_IDS[name], num_players=players)
    first, again = play_out(env, seed=3), play_out(env, seed=3)
    assert first["history"] == again["history"]
    assert all(np.array_equal(a, b) for a, b in zip(first["seen"], again["seen"], strict=True))
    assert first["rewards"] == again["rewards"]
    assert play_out(env, seed=4)["history"] != first["history"]
    assert first["terminated"]
    final = env.unwrapped.game.replay(first["history"])
    assert final.is_terminal()
    assert first["rewards"][-1] == final.returns()[0]
    assert first["info"]["returns"] == final.returns()
    assert first["info"]["scores"] == final.scores()
    assert set(first["rewards"][:-1]) <= {0.0}


@pytest.mark.parametrize("name", GAMES)
def test_episode_is_the_match_the_runner_plays(name: str) -> None:
    """A learner that plays like the runner's random bot (same seeds) gets the very game
    `play_match` plays, and its reward is that record's return for its seat."""
    game = tlatelolco.load(name)
    for seat in range(game.num_players()):
        env = TlatelolcoEnv(name, seat=seat)
        env.reset(seed=11 + seat)
        episode = env.episode_seed
        learner = RandomBot(game, seat, f"{episode}:bot:{seat}")
        view_rng = random.Random(f"{episode}:view:{seat}")
        reward, done = 0.0, False
        while not done:
            action = learner.step(env.state.resample_from_infostate(seat, view_rng))
            _, reward, terminated, truncated, _ = env.step(action)
            done = terminated or truncated
        record = play_match(game, ["random"] * game.num_players(), seed=episode)
        assert env.state.history() == record["history"]
        assert reward == record["result"]["returns"][seat] == env.state.returns()[seat]


def test_partners_share_the_reward() -> None:
    """Aztec Market with four plays in teams: both partners get their side's return."""
    game = tlatelolco.load("aztec_market", num_players=4)
    assert game.teams() == ((0, 2), (1, 3))
    results = {}
    for seat in (0, 2):
        env = TlatelolcoEnv(game, seat=seat)
        obs, _ = env.reset(seed=5)
        rng, done = np.random.default_rng(0), False
        while not done:
            obs, reward, terminated, truncated, info = env.step(masked_choice(rng,
                                                                              obs["action_mask"]))
            done = terminated or truncated
        assert terminated
        results[seat] = (reward, info["returns"])
    for reward, returns in results.values():
        assert returns[0] == returns[2] and returns[1] == returns[3]
        assert reward == returns[0]
        assert returns[0] + returns[1] == pytest.approx(1.0)


@pytest.mark.parametrize("name", GAMES)
def test_illegal_action_is_refused_and_changes_nothing(name: str) -> None:
    env = TlatelolcoEnv(name)
    obs, _ = env.reset(seed=2)
    history = env.state.history()
    n = env.game.num_distinct_actions()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    for action, words in ((illegal, f"action {illegal} ("), (n, "outside the action space"),
                          (-1, "outside the action space"), (1.5, "not an integer"),
                          ("3", "not an integer")):
        with pytest.raises(ValueError, match="Legal now: ") as refused:
            env.step(action)
        assert isinstance(refused.value, IllegalActionError)
        assert words in str(refused.value)
        assert env.state.history() == history
        assert np.array_equal(env.action_masks(), obs["action_mask"].astype(bool))
    legal = int(np.flatnonzero(obs["action_mask"])[0])
    env.step(np.int64(legal))  # numpy integers, as spaces sample them, are actions
    assert env.state.history()[len(history)] == legal


def test_lose_mode_ends_the_episode_on_an_illegal_action() -> None:
    env = TlatelolcoEnv("grand_bazaar", illegal_action="lose")
    obs, _ = env.reset(seed=1)
    history = env.state.history()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated) == (ILLEGAL_REWARD, True, False)
    assert info["illegal_action"] == illegal
    assert not obs["action_mask"].any()
    assert env.state.history() == history
    with pytest.raises(RuntimeError, match="episode is over"):
        env.step(0)


def test_max_steps_truncates() -> None:
    env = TlatelolcoEnv("mexica", max_steps=3)
    obs, _ = env.reset(seed=0)
    rng = np.random.default_rng(0)
    ends = []
    for _ in range(3):
        obs, reward, terminated, truncated, _ = env.step(masked_choice(rng, obs["action_mask"]))
        ends.append((reward, terminated, truncated))
    assert ends == [(0.0, False, False), (0.0, False, False), (0.0, False, True)]
    assert not obs["action_mask"].any()
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(0)


@pytest.mark.parametrize("name", GAMES)
def test_opponents_by_spec(name: str) -> None:
    game = tlatelolco.load(name, num_players=3)
    strong = "greedy" if "greedy" in bot_names(game) else "mcts:iterations=5"
    env = TlatelolcoEnv(name, seat=1, num_players=3, opponents=[strong, "random"])
    env.reset(seed=0)
    assert env.other_seats() == [2, 0]  # turn order after the learner
    assert env._bots[2].name == strong.split(":")[0] and env._bots[0].name == "random"
    everyone = TlatelolcoEnv(name, num_players=3, opponents=strong)
    everyone.reset(seed=0)
    assert {bot.name for bot in everyone._bots.values()} == {strong.split(":")[0]}
    result = play_out(everyone, seed=0, limit=5)
    assert result["rewards"]


@pytest.mark.parametrize(("opponents", "words"), [
    ("nosuchbot", "unknown bot 'nosuchbot'"),
    (["random", "mcts:speed=3"], "has no parameter 'speed'"),
    ("mcts:time=-1", "time must be a positive number"),
    (["random"], "needs 2 bot spec"),
    (["random", 7], "must be a bot spec string"),
])
def test_bad_opponents_are_refused_at_construction(opponents: Any, words: str) -> None:
    with pytest.raises(ValueError, match="opponents") as refused:
        TlatelolcoEnv("grand_bazaar", num_players=3, opponents=opponents)
    assert words in str(refused.value)


def test_greedy_is_refused_where_a_game_has_none(monkeypatch: pytest.MonkeyPatch) -> None:
    from tlatelolco import bots

    monkeypatch.delitem(bots.GREEDY, "axio")
    with pytest.raises(ValueError, match="unknown bot 'greedy' for axio; allowed: random, mcts"):
        TlatelolcoEnv("axio", opponents="greedy")


@pytest.mark.parametrize(("kwargs", "words"), [
    ({"seat": 3}, "seat must be 'random' or a seat 0 to 2"),
    ({"render_mode": "human"}, "render_mode must be one of"),
    ({"max_steps": 0}, "max_steps must be None"),
    ({"illegal_action": "ignore"}, "illegal_action must be one of"),
    ({"mask_in_info": 1}, "mask_in_info must be True or False"),
    ({"colour": "red"}, "unknown option 'colour'"),
])
def test_bad_arguments_are_refused(kwargs: dict[str, Any], words: str) -> None:
    with pytest.raises(ValueError, match=words):
        TlatelolcoEnv("grand_bazaar", **kwargs)


def test_mask_can_be_left_out_of_info() -> None:
    env = TlatelolcoEnv("axio", mask_in_info=False)
    obs, info = env.reset(seed=0)
    assert "action_mask" not in info
    assert info["legal_actions"] == np.flatnonzero(obs["action_mask"]).tolist()
    _, _, _, _, info = env.step(info["legal_actions"][0])
    assert "action_mask" not in info


def test_random_seat_comes_from_the_seed() -> None:
    env = TlatelolcoEnv("grand_bazaar", seat="random", num_players=4)
    seats = [env.reset(seed=s)[1]["seat"] for s in range(12)]
    assert len(set(seats)) > 1
    assert seats == [env.reset(seed=s)[1]["seat"] for s in range(12)]
    obs, info = env.reset(seed=0)
    assert np.array_equal(obs["observation"], env.state.observation_tensor(info["seat"]))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_learner_sees_only_its_own_seat_in_axio(players: int) -> None:
    """Axio hides hands: at every learner turn the observation is the learner's own tensor,
    which another seat's differs from, and a state the learner could be in gives the same
    observation and the same rendered board."""
    env = TlatelolcoEnv("axio", seat=1, num_players=players, render_mode="ansi")
    obs, info = env.reset(seed=players)
    rng, resample_rng = np.random.default_rng(1), random.Random(1)
    differs, done = False, False
    while not done:
        state = env.state
        mine = state.observation_tensor(1)
        assert np.array_equal(obs["observation"], mine)
        assert np.array_equal(obs["action_mask"], state.legal_actions_mask(1))
        could_be = state.resample_from_infostate(1, resample_rng)
        assert np.array_equal(could_be.observation_tensor(1), mine)
        board = env.render()
        env.state = could_be
        assert env.render() == board
        env.state = state
        differs |= not np.array_equal(state.observation_tensor(0), mine)
        assert set(obs) == {"observation", "action_mask"}
        assert set(info) == {"seat", "action_mask", "legal_actions"}
        assert info["legal_actions"] == state.legal_actions()
        obs, _, terminated, truncated, info = env.step(masked_choice(rng, obs["action_mask"]))
        done = terminated or truncated
    assert differs


def test_module_example_runs() -> None:
    import doctest

    import tlatelolco.rl.gymnasium as module

    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0


def test_registered_ids_and_module_prefixed_make() -> None:
    assert all(env_id in gym.registry for env_id in ENV_IDS.values())
    env = gym.make("tlatelolco.rl.gymnasium:tlatelolco/Axio-v0", num_players=3)
    assert env.unwrapped.game == tlatelolco.load("axio", num_players=3)
    obs, info = env.reset(seed=0)
    assert obs in env.observation_space
    assert env.action_space.n == env.unwrapped.game.num_distinct_actions()
    assert np.array_equal(info["action_mask"], obs["action_mask"])


@pytest.mark.parametrize("name", GAMES)
def test_renders_show_the_learners_board(name: str) -> None:
    text_env = TlatelolcoEnv(name, render_mode="ansi")
    picture_env = TlatelolcoEnv(name, render_mode="rgb_array")
    text_env.reset(seed=0)
    picture_env.reset(seed=0)
    text = text_env.render()
    assert isinstance(text, str) and text.endswith("learner: seat 0 · 0 learner steps")
    picture = picture_env.render()
    assert picture.dtype == np.uint8 and picture.ndim == 3 and picture.shape[2] == 3
    assert len(np.unique(picture.reshape(-1, 3), axis=0)) > 1  # something is drawn


def test_async_vector_env_plays_with_masks() -> None:
    """Two worker processes started by spawn (so the factory is pickled), a few hundred masked
    random steps; a synchronous vector env with the same seeds sees the same."""
    def make() -> Any:  # the module-prefixed id: a spawned worker imports the module itself
        return gym.make("tlatelolco.rl.gymnasium:" + ENV_IDS["grand_bazaar"], num_players=2)

    steps = 300
    async_env = gym.vector.AsyncVectorEnv([make, make], context="spawn")
    sync_env = gym.vector.SyncVectorEnv([make, make])
    try:
        seen = [run_vector(vector, steps) for vector in (async_env, sync_env)]
    finally:
        async_env.close(terminate=True)  # a failed step must not leave close() waiting
        sync_env.close()
    (a_obs, a_rewards, a_ends), (s_obs, s_rewards, s_ends) = seen
    assert a_ends > 0 and a_ends == s_ends
    assert np.array_equal(a_obs, s_obs) and np.array_equal(a_rewards, s_rewards)
    assert set(np.unique(a_rewards)) <= {0.0, 0.5, 1.0}


def run_vector(vector: Any, steps: int) -> tuple[Any, Any, int]:
    obs, _ = vector.reset(seed=[10, 20])
    assert obs["observation"].shape == (2, *vector.single_observation_space["observation"].shape)
    rng = np.random.default_rng(0)
    observations, rewards, ends = [], [], 0
    for _ in range(steps):
        actions = np.array([masked_choice(rng, mask) for mask in obs["action_mask"]])
        obs, reward, terminated, truncated, info = vector.step(actions)
        for mask, legal in zip(obs["action_mask"], info["legal_actions"], strict=True):
            assert np.flatnonzero(mask).tolist() == legal  # batched as an object array
        observations.append(obs["observation"].copy())
        rewards.append(reward)
        ends += int(np.sum(terminated | truncated))
    return np.stack(observations), np.stack(rewards), ends


def test_make_vec_async() -> None:
    vector = gym.make_vec(ENV_IDS["aztec_market"], num_envs=2, vectorization_mode="async",
                          num_players=2)
    try:
        obs, _ = vector.reset(seed=0)
        assert obs["action_mask"].shape == (2, vector.single_action_space.n)
        actions = np.array([masked_choice(np.random.default_rng(0), m)
                            for m in obs["action_mask"]])
        obs, *_ = vector.step(actions)
        assert obs["observation"].dtype == np.float32
    finally:
        vector.close(terminate=True)
