"""Train sb3-contrib's MaskablePPO on a Tlatelolco game against bots, and measure how it learns.

The learner holds one seat of the project's Gymnasium environment (`tlatelolco.rl.gymnasium`),
drawn at random each episode so it learns every seat; bots play the others. The policy sees the
seat's observation tensor (the Dict observation's "observation" key, flattened by a small
wrapper) and the legal actions through the environment's `action_masks()`, which MaskablePPO
reads. Before training, at checkpoints and after, the learner plays N seeded evaluation games
against each evaluation bot, seats alternating; its win share is its mean contract return
(1 a win, 1/k a k-way shared win, 0 a loss), given with a 95% Wilson interval.

Install (PyTorch's CPU wheels are much smaller than the default CUDA ones):

    pip install torch --index-url https://download.pytorch.org/whl/cpu
    pip install -e '.[train]'

Run (each game's settings are in PRESETS; docs/learning.md has these two runs' results):

    python examples/train_maskable_ppo.py grand_bazaar --steps 1024000 --checkpoints 10 \
        --eval-games 200 --final-games 500 --out docs/learning/grand_bazaar
    python examples/train_maskable_ppo.py axio --steps 153600 --checkpoints 5 \
        --eval-games 200 --final-games 500 --out docs/learning/axio
    python examples/train_maskable_ppo.py grand_bazaar --steps 20000 --checkpoints 2  # a try

It writes OUT/curve.json (settings, versions, machine, timings and every evaluation), draws
OUT/curve.svg, and with --save-model keeps OUT/model.zip. The same seed gives the same curve
on the same machine and thread count (`--threads`, default 1).

Axio needs more than a flat network. Its action space has 357,516 actions (every cell of a
122 x 122 grid, 4 rotations, 6 colour names). MaskablePPO's usual head, one linear layer over
all of them, has 23 million weights with 64 hidden units (94 MB; with the gradient and Adam's
moments four times that), and every rollout step stores its mask as 357,516 float32 (1.4 MB):
measured here, 2.4 GB resident with 512-step rollouts and about 6 training steps a second. So
the Axio preset cuts the learner's actions to a 14 x 14 window of cells around the start
square (AxioWindow: 4,704 actions), draws the display as planes over that window (AxioBoard)
for a small convolutional policy that gives each cell its own logits (BoardPolicy: about
100,000 weights, some 150 training steps a second), and shapes the training reward
(AxioShaping). docs/learning.md says what was tried and what each step was worth.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import platform
import random
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tlatelolco.bots.evaluate import wilson_interval
from tlatelolco.extras import require

gym = require("gymnasium", "rl")
np = require("numpy", "rl")
torch = require("torch", "train")
sb3_contrib = require("sb3_contrib", "train")
sb3 = require("stable_baselines3", "train")
rl_env = require("tlatelolco.rl.gymnasium", "rl")
Monitor = require("stable_baselines3.common.monitor", "train").Monitor
DummyVecEnv = require("stable_baselines3.common.vec_env", "train").DummyVecEnv
BaseFeaturesExtractor = require("stable_baselines3.common.torch_layers",
                                "train").BaseFeaturesExtractor
MaskableActorCriticPolicy = require("sb3_contrib.common.maskable.policies",
                                    "train").MaskableActorCriticPolicy
nn = torch.nn

# Hyperparameters per game: the ones docs/learning.md measured. Any game not listed uses
# "default". n_steps is per rollout (one environment); "policy" is "mlp" (hidden layers `net`
# for both the policy and the value network, over the flat observation tensor) or "board"
# (Axio: convolutions over the display, see AxioBoard); "window" cuts Axio's actions to a
# window of cells (AxioWindow).
PRESETS: dict[str, dict[str, Any]] = {
    "default": {"n_steps": 2048, "batch_size": 256, "n_epochs": 10, "learning_rate": 3e-4,
                "gamma": 0.99, "gae_lambda": 0.95, "ent_coef": 0.01,
                "policy": "mlp", "net": [128, 128], "window": None, "shaping": False},
    "grand_bazaar": {"n_steps": 2048, "batch_size": 256, "n_epochs": 10, "learning_rate": 3e-4,
                     "gamma": 0.995, "gae_lambda": 0.95, "ent_coef": 0.01,
                     "policy": "mlp", "net": [128, 128], "window": None, "shaping": False},
    "axio": {"n_steps": 1024, "batch_size": 128, "n_epochs": 5, "learning_rate": 1e-3,
             "gamma": 1.0, "gae_lambda": 0.95, "ent_coef": 0.0,
             "policy": "board", "net": [32, 32], "window": 14, "shaping": True},
}
# settings that shape the environment or the network rather than being MaskablePPO arguments
NOT_PPO = ("policy", "net", "window", "shaping")
CHART_COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd")


class AxioWindow(gym.ActionWrapper):  # type: ignore[misc]
    """Axio's placements restricted to a `size` x `size` window of cells around the start
    square: 14 x 14 cells x 4 rotations x 6 names = 4,704 actions instead of 357,516.

    The learner can then not place beyond the window (7 cells out from the centre point),
    where a two-player game rarely reaches: 3 of 300 random games placed a tile beyond it. It
    always has a legal placement inside: the window has more cells than the game has tiles,
    and the display is connected and starts at its centre."""

    def __init__(self, env: Any, size: int) -> None:
        super().__init__(env)
        from tlatelolco.games.axio.table import NAMES, place_action

        low = 1 - size // 2  # the start square is cells (0, 0) to (1, 1)
        self.engine_actions = np.array(
            [place_action(low + cx, low + cy, rotation, name)
             for cx in range(size) for cy in range(size)
             for rotation in range(4) for name in range(NAMES)], np.int64)
        self.action_space = gym.spaces.Discrete(len(self.engine_actions))

    def action(self, action: Any) -> int:
        return int(self.engine_actions[int(action)])

    def action_masks(self) -> Any:
        full = self.env.get_wrapper_attr("action_masks")()
        mask = full[self.engine_actions]
        if full.any() and not mask.any():
            raise RuntimeError("no legal Axio placement inside the action window")
        return mask


class AxioShaping(gym.Wrapper):  # type: ignore[misc]
    """Potential-based reward shaping for training on Axio (never used in evaluation).

    The contract return comes only at the end, after about 12 learner moves whose effects
    drown in the dealt tiles. The shaped reward of a step adds phi(after) - phi(before),
    where phi is the learner's score boards against the best other seat's, colours sorted
    lowest first and weighted 1, 1/2, 1/4, ... (the order in which AX-5 compares them), read
    from the seat's observation tensor. phi is taken as 0 at the end, so an episode's shaped
    rewards add up to its contract return minus phi at its start: exactly the return for the
    first seat (nobody has scored yet), and for a later seat less what the others' first
    placements scored, a constant no move of the learner changes. Only the timing of the
    credit changes, not which play is best."""

    WEIGHTS = (1.0, 0.5, 0.25, 0.125, 0.0625)

    def __init__(self, env: Any) -> None:
        super().__init__(env)
        self.layout = env.unwrapped.game.observation_tensor_layout()
        self.potential = 0.0

    def phi(self, observation: dict[str, Any]) -> float:
        boards = np.sort(self.layout.views(observation["observation"])["scores"], axis=1)
        weighted = boards @ np.array(self.WEIGHTS[:boards.shape[1]], np.float32)
        return float(weighted[0] - weighted[1:].max())

    def reset(self, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
        observation, info = self.env.reset(**kwargs)
        self.potential = self.phi(observation)
        return observation, info

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        observation, reward, terminated, truncated, info = self.env.step(action)
        after = 0.0 if terminated or truncated else self.phi(observation)
        shaped = float(reward) + after - self.potential
        self.potential = after
        return observation, shaped, terminated, truncated, info


class TensorObservation(gym.ObservationWrapper):  # type: ignore[misc]
    """Keep only the observation tensor: the mask reaches MaskablePPO through `action_masks()`,
    so storing it again as an input would double the rollout buffer and feed 357,516 inputs
    to Axio's network."""

    def __init__(self, env: Any) -> None:
        super().__init__(env)
        self.observation_space = env.observation_space["observation"]

    def observation(self, observation: dict[str, Any]) -> Any:
        return observation["observation"]

    def action_masks(self) -> Any:
        return self.env.get_wrapper_attr("action_masks")()


class AxioBoard(TensorObservation):
    """Axio's display drawn as planes over the action window, followed by the observation tensor.

    The tensor lists tiles by number with their coordinates, which a network would have to
    learn to place; planes put each quadrant where it is. Channels, each a window of cells:
    occupied; each corner's category as turned on the display (4 corners x 6 categories); the
    circles around each cell (for each of its 4 corner points, how many quadrants of each
    category the other cells put there); the hand tile's corners as drawn, repeated over every
    cell. All of it is read from the seat's own observation tensor: nothing hidden is added,
    and the scoring rule (AX-3) is left for the network to learn."""

    def __init__(self, env: Any, size: int) -> None:
        super().__init__(env)
        from tlatelolco.games.axio.rules import AROUND_POINT, CORNER_POINTS
        from tlatelolco.games.axio.table import OFFSET

        self.layout = env.unwrapped.game.observation_tensor_layout()
        self.size, self.low, self.scale = size, 1 - size // 2, OFFSET
        self.corners, self.categories = self.layout.section_shape("hand_corners")  # 4, 6
        self.quadrants = self.corners * self.categories
        self.planes = 1 + 3 * self.quadrants
        # circle_parts[k]: the (dx, dy, corner) of the 3 other cells meeting at corner k's point
        self.circle_parts = [
            [(px + dx, py + dy, corner) for (dx, dy), corner in AROUND_POINT
             if (px + dx, py + dy) != (0, 0)]
            for px, py in CORNER_POINTS]
        size_out = self.planes * size * size + self.layout.size
        self.observation_space = gym.spaces.Box(-np.inf, np.inf, (size_out,), np.float32)

    def observation(self, observation: dict[str, Any]) -> Any:
        tensor = observation["observation"]
        sections, q, w = self.layout.views(tensor), self.quadrants, self.size
        board = np.zeros((self.planes, w, w), np.float32)
        placed = np.flatnonzero(sections["on_display"] > 0.5)
        cells = np.rint(sections["position"][placed] * self.scale).astype(np.int64) - self.low
        inside = ((cells >= 0) & (cells < w)).all(axis=1)
        xs, ys = cells[inside, 0], cells[inside, 1]
        board[0, xs, ys] = 1.0
        board[1:1 + q, xs, ys] = sections["corners"][placed[inside]].reshape(-1, q).T
        self._draw_circles(board[1:1 + q].reshape(self.corners, self.categories, w, w),
                           board[1 + q:1 + 2 * q].reshape(self.corners, self.categories, w, w))
        board[1 + 2 * q:] = sections["hand_corners"].reshape(q, 1, 1)
        return np.concatenate([board.ravel(), tensor])

    def _draw_circles(self, quadrants: Any, circles: Any) -> None:
        """circles[k, category, x, y] += the quadrants the 3 other cells around cell (x, y)'s
        corner k show there (a cell beyond the window counts as empty)."""
        w = self.size
        for k, parts in enumerate(self.circle_parts):
            for dx, dy, corner in parts:
                source = quadrants[corner, :, max(dx, 0):w + min(dx, 0), max(dy, 0):w + min(dy, 0)]
                circles[k, :, max(-dx, 0):w + min(-dx, 0), max(-dy, 0):w + min(-dy, 0)] += source


class BoardFeatures(BaseFeaturesExtractor):  # type: ignore[misc]
    """3x3 convolutions over AxioBoard's planes; the whole observation tensor (scores, stacks,
    whose turn) enters every cell through a learned bias on the first layer. Out: the last
    layer's cells, then the circle planes and the hand tile's corners for the heads."""

    def __init__(self, observation_space: Any, size: int, corners: int, categories: int,
                 channels: Sequence[int]) -> None:
        quadrants = corners * categories
        planes = 1 + 3 * quadrants
        features = (channels[-1] + quadrants) * size * size + quadrants
        super().__init__(observation_space, features_dim=features)
        self.size, self.planes, self.quadrants = size, planes, quadrants
        self.corners, self.categories = corners, categories
        self.channels = channels[-1]
        self.cut = planes * size * size
        self.first = nn.Conv2d(planes, channels[0], 3, padding=1)
        self.context = nn.Linear(observation_space.shape[0] - self.cut, channels[0])
        layers: list[Any] = []
        for before, after in itertools.pairwise(channels):
            layers += [nn.ReLU(), nn.Conv2d(before, after, 3, padding=1)]
        self.rest = nn.Sequential(*layers, nn.ReLU())

    def forward(self, observations: Any) -> Any:
        q = self.quadrants
        board = observations[:, :self.cut].view(-1, self.planes, self.size, self.size)
        context = self.context(observations[:, self.cut:])[:, :, None, None]
        cells = self.rest(self.first(board) + context)
        circles = board[:, 1 + q:1 + 2 * q]
        hand = board[:, 1 + 2 * q:, 0, 0]
        return torch.cat([cells.flatten(1), circles.flatten(1), hand], dim=1)


class BoardHeads(nn.Module):  # type: ignore[misc]
    """Where an MLP policy has hidden layers. The actor's output is already the logits: for
    each rotation, each cell's hidden layer adds what its cell features and circles say to
    what the hand tile turned that way says, and one small layer shared by all cells and
    rotations gives the logits of the colour names (AxioWindow's order: cell, rotation, name).
    Adding rather than concatenating computes the cells' part once for all four rotations.
    The critic pools the cells (mean and max) into a small layer."""

    def __init__(self, channels: int, size: int, corners: int, categories: int,
                 names: int, hidden: int = 64) -> None:
        super().__init__()
        self.channels, self.size = channels, size
        self.corners, self.categories = corners, categories
        self.latent_dim_pi, self.latent_dim_vf = size * size * corners * names, hidden
        # turns[r][k]: the drawn corner that lands on corner k after r quarter turns clockwise
        self.turns = [[(k - r) % corners for k in range(corners)] for r in range(corners)]
        quadrants = corners * categories
        self.local = nn.Conv2d(channels + quadrants, hidden, 1)
        self.hand = nn.Linear(quadrants, hidden, bias=False)
        self.names = nn.Conv2d(hidden, names, 1)
        with torch.no_grad():  # near-equal logits: the fresh policy plays almost uniformly
            self.names.weight.mul_(0.01)
            self.names.bias.zero_()
        self.value = nn.Sequential(nn.Linear(2 * channels, hidden), nn.ReLU())

    def forward(self, features: Any) -> tuple[Any, Any]:
        return self.forward_actor(features), self.forward_critic(features)

    def split(self, features: Any) -> tuple[Any, Any, Any]:
        w, q = self.size, self.corners * self.categories
        cut = self.channels * w * w
        cells = features[:, :cut].view(-1, self.channels, w, w)
        circles = features[:, cut:cut + q * w * w].view(-1, q, w, w)
        hand = features[:, cut + q * w * w:].view(-1, self.corners, self.categories)
        return cells, circles, hand

    def forward_actor(self, features: Any) -> Any:
        cells, circles, hand = self.split(features)
        local = self.local(torch.cat([cells, circles], dim=1))  # batch, hidden, x, y
        turned = torch.stack([hand[:, turn].flatten(1) for turn in self.turns], dim=1)
        hidden = torch.relu(local[:, None] + self.hand(turned)[..., None, None])
        logits = self.names(hidden.flatten(0, 1))  # batch x rotation, name, x, y
        return logits.view(*hidden.shape[:2], -1, self.size, self.size).permute(
            0, 3, 4, 1, 2).flatten(1)

    def forward_critic(self, features: Any) -> Any:
        cells = self.split(features)[0].flatten(2)
        return self.value(torch.cat([cells.mean(-1), cells.amax(-1)], dim=1))


class BoardPolicy(MaskableActorCriticPolicy):  # type: ignore[misc]
    """MaskablePPO's policy with BoardFeatures and BoardHeads: 4,704 logits from 105,511
    weights (65,408 of them mix the observation tensor in), where a linear head over the full
    action space alone needs 23 million."""

    def _build_mlp_extractor(self) -> None:
        extractor = self.features_extractor
        names = int(self.action_space.n) // (extractor.size ** 2 * extractor.corners)
        self.mlp_extractor = BoardHeads(extractor.channels, extractor.size, extractor.corners,
                                        extractor.categories, names)

    def _build(self, lr_schedule: Any) -> None:
        self._build_mlp_extractor()
        self.action_net = nn.Identity()  # the heads' actor output is the logits
        self.value_net = nn.Linear(self.mlp_extractor.latent_dim_vf, 1)
        self.optimizer = self.optimizer_class(self.parameters(), lr=lr_schedule(1),
                                              **self.optimizer_kwargs)


def make_env(game: str, opponent: str, num_players: int = 2, seat: int | str = "random",
             window: int | None = None, policy: str = "mlp", shaping: bool = False) -> Any:
    """The learner's environment by its registered id, `opponent` in every other seat (and
    for Axio: actions cut to a window, the display drawn as planes for the "board" policy,
    shaped rewards for training)."""
    env = gym.make(rl_env.ENV_IDS[game], num_players=num_players, seat=seat,
                   opponents=opponent, disable_env_checker=True)
    if shaping:
        if game != "axio":
            raise ValueError("reward shaping is written for Axio's score boards")
        env = AxioShaping(env)
    if window is not None:
        env = AxioWindow(env, window)
    if policy == "board":
        if game != "axio" or window is None:
            raise ValueError("the board policy is Axio's and needs its action window")
        return AxioBoard(env, window)
    return TensorObservation(env)


def settings(game: str, **overrides: Any) -> dict[str, Any]:
    """The preset for `game` with the given values replaced (None keeps the preset's; a window
    of 0 means none)."""
    chosen = dict(PRESETS.get(game, PRESETS["default"]))
    for key, value in overrides.items():
        if key not in chosen:
            raise ValueError(f"unknown setting {key!r}; settings: {', '.join(chosen)}")
        if value is not None:
            chosen[key] = value
    if chosen["window"] == 0:  # 0: no window, the game's whole action space
        chosen["window"] = None
    return chosen


def make_model(game: str, opponent: str, seed: int, num_players: int = 2,
               **overrides: Any) -> Any:
    """A freshly initialised MaskablePPO learner on one seeded training environment."""
    config = settings(game, **overrides)
    ppo = {key: value for key, value in config.items() if key not in NOT_PPO}
    venv = DummyVecEnv([lambda: Monitor(make_env(game, opponent, num_players,
                                                 window=config["window"],
                                                 policy=config["policy"],
                                                 shaping=config["shaping"]))])
    net = list(config["net"])
    if config["policy"] == "board":
        board = {"size": config["window"], "channels": net,
                 "corners": venv.envs[0].get_wrapper_attr("corners"),
                 "categories": venv.envs[0].get_wrapper_attr("categories")}
        return sb3_contrib.MaskablePPO(
            BoardPolicy, venv, seed=seed, verbose=0, device="cpu",
            policy_kwargs={"features_extractor_class": BoardFeatures,
                           "features_extractor_kwargs": board}, **ppo)
    return sb3_contrib.MaskablePPO(
        "MlpPolicy", venv, seed=seed, verbose=0, device="cpu",
        policy_kwargs={"net_arch": {"pi": net, "vf": net}}, **ppo)


def evaluate(model: Any, game: str, opponent: str, games: int, seed: int,
             num_players: int = 2, deterministic: bool = False,
             window: int | None = None, policy: str = "mlp") -> dict[str, Any]:
    """The learner's win share over `games` seeded games against `opponent` (seat `i % n` in
    game `i`), with its 95% Wilson interval and the share by seat.

    The policy samples its actions (unless `deterministic`) from a torch generator seeded by
    `seed` and forked, so evaluating never changes the training run that follows."""
    if games < 1:
        raise ValueError(f"games must be at least 1; got {games}")
    envs = [make_env(game, opponent, num_players, seat, window, policy)
            for seat in range(num_players)]
    seeds = random.Random(f"evaluate:{seed}")
    by_seat = [[0.0, 0] for _ in range(num_players)]
    with torch.random.fork_rng():
        torch.manual_seed(seed)
        for index in range(games):
            seat = index % num_players
            result = play_episode(model, envs[seat], seeds.getrandbits(63), deterministic)
            by_seat[seat][0] += result
            by_seat[seat][1] += 1
    share = sum(total for total, _ in by_seat) / games
    low, high = wilson_interval(share, games)
    return {"opponent": opponent, "games": games, "win_share": share, "ci95": [low, high],
            "by_seat": [total / n if n else None for total, n in by_seat],
            "deterministic": deterministic}


def play_episode(model: Any, env: Any, seed: int, deterministic: bool) -> float:
    """One evaluation game; the learner's contract return at its end (0 if the game was cut
    off at its length bound)."""
    observation, _ = env.reset(seed=seed)
    while True:
        action, _ = model.predict(observation, action_masks=env.action_masks(),
                                  deterministic=deterministic)
        observation, reward, terminated, truncated, _ = env.step(int(action))
        if terminated or truncated:
            return float(reward) if terminated else 0.0


def checkpoint(model: Any, game: str, opponents: Sequence[str], games: int, seed: int,
               num_players: int, clock: Clock, deterministic: bool,
               config: dict[str, Any]) -> dict[str, Any]:
    """One point of the learning curve: the training so far and the evaluations now."""
    started = time.perf_counter()
    recent = [float(info["r"]) for info in model.ep_info_buffer or []]
    entry: dict[str, Any] = {
        "timesteps": int(model.num_timesteps),
        "train_seconds": round(clock.wall, 1),
        "train_cpu_seconds": round(clock.cpu, 1),
        "train_return_recent": round(sum(recent) / len(recent), 4) if recent else None,
        "vs": {opponent: evaluate(model, game, opponent, games, seed, num_players, deterministic,
                                  config["window"], config["policy"])
               for opponent in opponents},
    }
    entry["eval_seconds"] = round(time.perf_counter() - started, 1)
    return entry


def checkpoint_steps(steps: int, checkpoints: int, n_steps: int) -> list[int]:
    """Timesteps at which to evaluate: `checkpoints` evenly spaced points, each rounded up to
    whole rollouts (PPO trains rollout by rollout), the last at `steps` rounded the same way."""
    if steps < 1 or checkpoints < 1:
        raise ValueError(f"steps and checkpoints must be at least 1; got {steps}, {checkpoints}")
    rollouts = math.ceil(steps / n_steps)
    marks = {math.ceil(rollouts * k / checkpoints) for k in range(1, checkpoints + 1)}
    return [n_steps * m for m in sorted(marks) if m > 0]


def train(game: str, steps: int, seed: int = 0, opponent: str = "random",
          eval_opponents: Sequence[str] = ("random", "greedy"), checkpoints: int = 5,
          eval_games: int = 200, final_games: int | None = None, num_players: int = 2,
          deterministic: bool = False, threads: int = 1, log: Any = None,
          **overrides: Any) -> tuple[Any, dict[str, Any]]:
    """Train a learner for `steps` timesteps against `opponent`; return it and its curve.

    The curve's entries are: before training (`final_games` games per evaluation bot), one per
    checkpoint (`eval_games`; the last is after training and uses `final_games`). `overrides`
    replace preset settings (`n_steps=64`...)."""
    torch.set_num_threads(threads)
    final_games = final_games or eval_games
    config = settings(game, **overrides)
    model = make_model(game, opponent, seed, num_players, **overrides)
    marks = checkpoint_steps(steps, checkpoints, model.n_steps)
    say = log or (lambda _text: None)

    def measure(games: int, clock: Clock) -> None:
        curve.append(checkpoint(model, game, eval_opponents, games, seed, num_players,
                                clock, deterministic, config))
        say(describe(curve[-1]))

    curve: list[dict[str, Any]] = []
    clock = Clock()
    measure(final_games, clock)
    for mark in marks:
        with clock:
            model.learn(total_timesteps=mark - model.num_timesteps, reset_num_timesteps=False)
        measure(final_games if mark == marks[-1] else eval_games, clock)
    run = {
        "game": game, "num_players": num_players, "opponent": opponent, "seed": seed,
        "steps": int(model.num_timesteps), "threads": threads, "deterministic": deterministic,
        "settings": config, "parameters": parameter_count(model),
        "train_seconds": round(clock.wall, 1), "train_cpu_seconds": round(clock.cpu, 1),
        "machine": machine(), "curve": curve,
    }
    return model, run


class Clock:
    """Wall and CPU time spent inside `with clock:` blocks: on a shared machine the wall time
    of training says as much about the neighbours as about the training."""

    def __init__(self) -> None:
        self.wall = self.cpu = 0.0
        self._started = (0.0, 0.0)

    def __enter__(self) -> Clock:
        self._started = (time.perf_counter(), time.process_time())
        return self

    def __exit__(self, *_exc: object) -> None:
        self.wall += time.perf_counter() - self._started[0]
        self.cpu += time.process_time() - self._started[1]


def describe(entry: dict[str, Any]) -> str:
    """One log line for a checkpoint."""
    shares = "  ".join(f"vs {name} {e['win_share']:.3f} [{e['ci95'][0]:.3f}, {e['ci95'][1]:.3f}]"
                       f" ({e['games']} games)" for name, e in entry["vs"].items())
    return (f"{entry['timesteps']:>9} steps  {entry['train_seconds']:>7.1f} s training "
            f"({entry['train_cpu_seconds']:.1f} s CPU)  {shares}")


def parameter_count(model: Any) -> int:
    return int(sum(p.numel() for p in model.policy.parameters()))


def machine() -> dict[str, Any]:
    """What the run's speed depends on: CPU, cores and the library versions."""
    import os

    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {"cpu": cpu, "cores": os.cpu_count(), "python": platform.python_version(),
            "torch": torch.__version__, "sb3_contrib": sb3_contrib.__version__,
            "stable_baselines3": sb3.__version__, "gymnasium": gym.__version__,
            "numpy": np.__version__}


def curve_svg(run: dict[str, Any], width: int = 640, height: int = 360) -> str:
    """The learning curve as a plain SVG: win share against training steps for each evaluation
    bot, with the 95% intervals as bars and the even share (1/players) dashed."""
    left, right, top, bottom = 56, 150, 36, 44
    plot_w, plot_h = width - left - right, height - top - bottom
    last = max(entry["timesteps"] for entry in run["curve"]) or 1

    def x(steps: float) -> float:
        return left + plot_w * steps / last

    def y(share: float) -> float:
        return top + plot_h * (1 - share)

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
             f'<rect width="{width}" height="{height}" fill="white"/>',
             f'<text x="{left}" y="20" font-size="14">MaskablePPO on {run["game"]} '
             f'({run["num_players"]} players), trained against {run["opponent"]}</text>']
    for tick in (0.0, 0.25, 0.5, 0.75, 1.0):
        parts.append(f'<line x1="{left}" y1="{y(tick):.1f}" x2="{left + plot_w}" '
                     f'y2="{y(tick):.1f}" stroke="#ddd"/>')
        parts.append(f'<text x="{left - 6}" y="{y(tick) + 4:.1f}" text-anchor="end">'
                     f'{tick:.2f}</text>')
    for k in range(5):
        steps = last * k / 4
        parts.append(f'<text x="{x(steps):.1f}" y="{top + plot_h + 16}" text-anchor="middle">'
                     f'{steps / 1000:.0f}k</text>')
    even = 1 / run["num_players"]
    parts += [f'<line x1="{left}" y1="{y(even):.1f}" x2="{left + plot_w}" y2="{y(even):.1f}" '
              f'stroke="#888" stroke-dasharray="4 4"/>',
              f'<text x="{left + plot_w / 2}" y="{height - 8}" text-anchor="middle">'
              f'training steps (learner moves)</text>',
              f'<text x="14" y="{top + plot_h / 2}" text-anchor="middle" '
              f'transform="rotate(-90 14 {top + plot_h / 2})">win share (95% interval)</text>',
              f'<rect x="{left}" y="{top}" width="{plot_w}" height="{plot_h}" fill="none" '
              f'stroke="#444"/>']
    opponents = list(run["curve"][0]["vs"])
    for index, opponent in enumerate(opponents):
        colour = CHART_COLOURS[index % len(CHART_COLOURS)]
        points = [(x(e["timesteps"]), e["vs"][opponent]) for e in run["curve"]]
        path = " ".join(f"{px:.1f},{y(v['win_share']):.1f}" for px, v in points)
        parts.append(f'<polyline points="{path}" fill="none" stroke="{colour}" '
                     f'stroke-width="2"/>')
        for px, v in points:
            low, high = v["ci95"]
            parts.append(f'<line x1="{px:.1f}" y1="{y(low):.1f}" x2="{px:.1f}" '
                         f'y2="{y(high):.1f}" stroke="{colour}"/>')
            parts.append(f'<circle cx="{px:.1f}" cy="{y(v["win_share"]):.1f}" r="3" '
                         f'fill="{colour}"/>')
        label_y = top + 16 + 18 * index
        parts.append(f'<line x1="{left + plot_w + 12}" y1="{label_y - 4}" '
                     f'x2="{left + plot_w + 32}" y2="{label_y - 4}" stroke="{colour}" '
                     f'stroke-width="2"/>')
        parts.append(f'<text x="{left + plot_w + 38}" y="{label_y}">vs {opponent}</text>')
    parts.append(f'<text x="{left + plot_w + 12}" y="{top + 16 + 18 * len(opponents)}" '
                 f'fill="#666">- - even share</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def write_run(run: dict[str, Any], out: Path, model: Any = None) -> None:
    """OUT/curve.json, OUT/curve.svg and (given a model) OUT/model.zip."""
    out.mkdir(parents=True, exist_ok=True)
    (out / "curve.json").write_text(json.dumps(run, indent=1) + "\n")
    (out / "curve.svg").write_text(curve_svg(run))
    if model is not None:
        model.save(out / "model.zip")


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="Train MaskablePPO on a Tlatelolco game against bots; write its learning "
                    "curve.")
    parser.add_argument("game", choices=sorted(rl_env.ENV_IDS))
    parser.add_argument("--steps", type=int, default=200_000,
                        help="training timesteps: learner moves (default 200000)")
    parser.add_argument("--players", type=int, default=2, help="number of players (default 2)")
    parser.add_argument("--opponent", default="random",
                        help="bot spec in the other seats while training (default random)")
    parser.add_argument("--eval-opponents", default="random,greedy",
                        help="comma-separated bots to evaluate against (default random,greedy)")
    parser.add_argument("--checkpoints", type=int, default=5,
                        help="evaluations during training, the last after it (default 5)")
    parser.add_argument("--eval-games", type=int, default=200,
                        help="games per bot at each checkpoint (default 200)")
    parser.add_argument("--final-games", type=int, default=None,
                        help="games per bot before and after training (default: --eval-games)")
    parser.add_argument("--deterministic", action="store_true",
                        help="evaluate the policy's most likely action instead of sampling")
    parser.add_argument("--seed", type=int, default=0, help="seed of the whole run (default 0)")
    parser.add_argument("--threads", type=int, default=1, help="torch threads (default 1)")
    parser.add_argument("--n-steps", type=int, help="rollout length (default: the preset's)")
    parser.add_argument("--batch-size", type=int, help="minibatch size (default: preset)")
    parser.add_argument("--n-epochs", type=int, help="epochs per rollout (default: preset)")
    parser.add_argument("--learning-rate", type=float, help="Adam step size (default: preset)")
    parser.add_argument("--ent-coef", type=float, help="entropy bonus (default: preset)")
    parser.add_argument("--shaping", action=argparse.BooleanOptionalAction,
                        help="Axio's potential-based reward shaping (default: preset)")
    parser.add_argument("--policy", choices=("mlp", "board"),
                        help="network: mlp over the tensor, or Axio's board (default: preset)")
    parser.add_argument("--net", type=lambda text: [int(n) for n in text.split(",")],
                        help="hidden layer widths (mlp) or channels (board), e.g. 128,128")
    parser.add_argument("--window", type=int,
                        help="Axio's action window in cells, 0 for none (default: preset)")
    parser.add_argument("--out", type=Path, default=Path("training-runs/latest"),
                        help="directory for curve.json, curve.svg (default training-runs/latest)")
    parser.add_argument("--save-model", action="store_true", help="also write OUT/model.zip")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> None:
    args = parse_args(argv)
    started = time.perf_counter()
    model, run = train(
        args.game, args.steps, seed=args.seed, opponent=args.opponent,
        eval_opponents=[s for s in args.eval_opponents.split(",") if s],
        checkpoints=args.checkpoints, eval_games=args.eval_games, final_games=args.final_games,
        num_players=args.players, deterministic=args.deterministic, threads=args.threads,
        log=lambda text: print(text, flush=True), n_steps=args.n_steps,
        batch_size=args.batch_size, n_epochs=args.n_epochs, learning_rate=args.learning_rate,
        ent_coef=args.ent_coef, shaping=args.shaping, policy=args.policy, net=args.net,
        window=args.window)
    run["wall_seconds"] = round(time.perf_counter() - started, 1)
    write_run(run, args.out, model if args.save_model else None)
    print(f"wrote {args.out / 'curve.json'} and curve.svg; {run['train_seconds']} s training, "
          f"{run['wall_seconds']} s in all")


if __name__ == "__main__":
    main()
