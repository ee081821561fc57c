"""Tlatelolco's games as single-agent Gymnasium environments: one learner against bots.

The learner holds one seat; every other seat is a bot named by a spec (`"random"`, `"greedy"`,
`"mcts:iterations=200"`), and chance is drawn inside the environment. Importing this module
registers one versioned id per game, so either of these makes an environment:

    >>> import gymnasium
    >>> env = gymnasium.make("tlatelolco.rl.gymnasium:tlatelolco/GrandBazaar-v0", num_players=2)
    >>> obs, info = env.reset(seed=7)
    >>> sorted(obs), obs["action_mask"].dtype.name, info["seat"]
    (['action_mask', 'observation'], 'int8', 0)

Conventions (docs/rl.md says more): the observation is the learner's own
`State.observation_tensor(seat)` and `legal_actions_mask(seat)`, never another seat's view;
the reward is 0 until the end, then the learner's contract return (its side's share of
victory); an illegal action raises `IllegalActionError` (a `ValueError`) and changes nothing.
"""

from __future__ import annotations

import operator
import random
from collections.abc import Sequence
from typing import Any, ClassVar

from tlatelolco.bots import Bot, RandomBot, make_bot
from tlatelolco.chance import sample_chance
from tlatelolco.contract import Game, IllegalActionError
from tlatelolco.extras import require
from tlatelolco.registry import load

# the PettingZoo env's spaces and board pictures, so the two environments agree
from tlatelolco.rl.pettingzoo import board_lines, picture, seat_space
from tlatelolco.tensors import action_mask

gym = require("gymnasium", "rl")
spaces = require("gymnasium.spaces", "rl")
np = require("numpy", "rl")

# game name -> the versioned Gymnasium id registered at import
ENV_IDS: dict[str, str] = {
    "grand_bazaar": "tlatelolco/GrandBazaar-v0",
    "aztec_market": "tlatelolco/AztecMarket-v0",
    "axio": "tlatelolco/Axio-v0",
    "mexica": "tlatelolco/Mexica-v0",
}

# what `step` does with an action the learner may not take now
ILLEGAL_ACTION_MODES = ("raise", "lose")
ILLEGAL_REWARD = -1.0  # "lose" mode: below every game's worst return (0), as PettingZoo's -1
SHOWN_LEGAL = 12  # legal actions an error message lists before "… (n more)"


class TlatelolcoEnv(gym.Env):  # type: ignore[misc]
    """One seat of a Tlatelolco game for a single-agent learner; bots play the other seats.

    - `game`: a game name (or a loaded `Game`); `**options` are its `load` options
      (`num_players=4`...).
    - `seat`: the learner's seat, or `"random"` for a seat drawn each `reset` from the seeded
      generator.
    - `opponents`: one bot spec for every other seat, in turn order after the learner (the
      seat after it first); a single string is used for all of them.
    - `max_steps`: truncate after this many learner steps (the game's own length bound
      `game.max_game_length()` always truncates).
    - `illegal_action`: `"raise"` (default) refuses an illegal action with `IllegalActionError`
      and changes nothing; `"lose"` ends the episode instead (terminated, reward -1,
      `info["illegal_action"]`), as PettingZoo's classic environments do, for learners without
      masks and for tools that step unmasked samples (`gymnasium.utils.env_checker`).
    - `mask_in_info`: also put the mask in `info["action_mask"]` (default). Turn it off for
      `AsyncVectorEnv` with Axio or Mexica: their masks (357,516 and 279,329 bytes) are in the
      observation already, and each info crosses the process pipe (about 2.7x slower).
    """

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi", "rgb_array"], "render_fps": 2}

    def __init__(self, game: str | Game = "grand_bazaar", seat: int | str = 0,
                 opponents: str | Sequence[str] = "random", render_mode: str | None = None,
                 max_steps: int | None = None, illegal_action: str = "raise",
                 mask_in_info: bool = True, **options: Any) -> None:
        self.game = _load_game(game, options)
        self.seat_choice = _check_seat(seat, self.game.num_players())
        self.opponents = _check_opponents(opponents, self.game)
        self.render_mode = _check_choice("render_mode", render_mode,
                                         (None, *self.metadata["render_modes"]))
        self.max_steps = _check_max_steps(max_steps)
        self.illegal_action = _check_choice("illegal_action", illegal_action,
                                            ILLEGAL_ACTION_MODES)
        if type(mask_in_info) is not bool:
            raise ValueError(f"mask_in_info must be True or False; got {mask_in_info!r}")
        self.mask_in_info = mask_in_info
        self.observation_space = seat_space(self.game)
        self.action_space = spaces.Discrete(self.game.num_distinct_actions())
        self.seat = 0 if seat == "random" else int(seat)
        self.state: Any = None  # the true engine state: for analysis, never for the policy
        self.episode_seed: int | None = None
        self._bots: dict[int, Bot] = {}
        self._chance_rng = random.Random()
        self._view_rngs: dict[int, random.Random] = {}
        self._steps = 0
        self._over = False
        self._mask: Any = None
        self._legal: Any = None

    # --- the Gymnasium API ---------------------------------------------------------------
    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        """A new game: chance and the bots are seeded from the env's generator, so a seeded
        reset replays the same game for the same actions. Bots and chance move until the
        learner is to move (or the game ends)."""
        super().reset(seed=seed)
        if options:
            raise ValueError(f"reset takes no options; got {sorted(options)!r}")
        self.episode_seed = episode_seed = int(self.np_random.integers(2**63))
        n = self.game.num_players()
        self.seat = (int(self.np_random.integers(n)) if self.seat_choice == "random"
                     else self.seat_choice)
        # the derivations play_match uses, so a seeded episode can be told as a match
        self._bots = {other: make_bot(spec, self.game, other, f"{episode_seed}:bot:{other}")
                      for other, spec in zip(self.other_seats(), self.opponents, strict=True)}
        self._chance_rng = random.Random(f"{episode_seed}:chance")
        self._view_rngs = {other: random.Random(f"{episode_seed}:view:{other}")
                           for other in self._bots}
        self.state = self.game.new_initial_state()
        self._steps = 0
        self._over = False
        self._advance()
        self._over = self._ended() or self._truncated()
        return self._observe(), self._info()

    def step(self, action: Any) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        """Play the learner's `action`, then the bots' and chance's moves until the learner is
        to move again or the game ends."""
        if self.state is None:
            raise RuntimeError("call reset() before step()")
        if self._over:
            raise RuntimeError("the episode is over: call reset() to start a new one")
        index = self._legal_index(action)
        if index is None:
            self._over = True
            obs = self._observe()
            return obs, ILLEGAL_REWARD, True, False, {**self._info(), "illegal_action": action}
        self.state.apply_action(index)
        self._steps += 1
        self._advance()
        terminated = self._ended()
        truncated = not terminated and self._truncated()
        self._over = terminated or truncated
        reward = float(self.state.returns()[self.seat]) if terminated else 0.0
        return self._observe(), reward, terminated, truncated, self._info()

    def render(self) -> str | Any | None:
        """The position as the learner's seat sees it: the terminal's board as text ("ansi")
        or drawn with the PettingZoo env's bitmap font ("rgb_array"). Nothing hidden from the
        seat is shown; a last line names the learner's seat."""
        if self.render_mode is None:
            gym.logger.warn("render() was called without a render_mode; make the env with "
                            "render_mode='ansi' or 'rgb_array'")
            return None
        if self.state is None:
            raise RuntimeError("call reset() before render()")
        lines, paper = self._board_lines()
        if self.render_mode == "rgb_array":
            return picture(lines, paper)
        return "\n".join("".join(char for char, _, _ in line).rstrip() for line in lines)

    # --- extras researchers ask for ------------------------------------------------------
    def action_masks(self) -> Any:
        """The legal actions now as a bool vector: what sb3-contrib's MaskablePPO reads."""
        return self._mask.astype(bool)

    def other_seats(self) -> list[int]:
        """The bots' seats in turn order after the learner: `opponents[i]` plays the i-th."""
        n = self.game.num_players()
        return [(self.seat + k) % n for k in range(1, n)]

    def _board_lines(self) -> tuple[list[Any], Any]:
        """The board of the learner's own observation, cell by cell, and a status line."""
        from rich.terminal_theme import DEFAULT_TERMINAL_THEME

        lines, paper = board_lines(self.game.info.name, self.state.observation(self.seat))
        status = f"learner: seat {self.seat} · {self._steps} learner steps"
        status += " · episode over" if self._over else ""
        ink = tuple(DEFAULT_TERMINAL_THEME.foreground_color)
        return [*lines, [(char, ink, paper) for char in status]], paper

    # --- the rest ------------------------------------------------------------------------
    def _advance(self) -> None:
        """Play chance and the bots until the learner is to move, the game ends or its length
        bound is reached. Each bot decides from a state drawn from its own information
        state (as in `play_match`), so no bot sees what its seat may not."""
        state, bound = self.state, self.game.max_game_length()
        while not state.is_terminal() and state.move_number() < bound:
            actor = state.current_player()
            if actor == self.seat:
                return
            if actor < 0:
                state.apply_action(sample_chance(state, self._chance_rng))
                continue
            bot = self._bots[actor]
            # a random bot reads only its seat's legal actions: no view need be drawn for it
            view = (state if type(bot) is RandomBot
                    else state.resample_from_infostate(actor, self._view_rngs[actor]))
            action = bot.step(view)
            try:
                state.apply_action(action)
            except IllegalActionError as err:
                raise IllegalActionError(f"the bot at seat {actor} ({bot.name}) "
                                         f"chose badly: {err}", action) from None

    def _legal_index(self, action: Any) -> int | None:
        """`action` as an int when the learner may take it now; None when it may not and
        illegal actions lose; otherwise `IllegalActionError` saying what is allowed."""
        try:
            index = operator.index(action)
        except TypeError:
            index = None
        n = self.game.num_distinct_actions()
        if index is not None and 0 <= index < n and self._mask[index]:
            return index
        if self.illegal_action == "lose":
            return None
        if index is None:
            why = f"action {action!r} is not an integer action"
        elif not 0 <= index < n:
            why = f"action {index} is outside the action space 0..{n - 1}"
        else:
            reason = self.state.illegal_reason(index) or "it is not the learner's move"
            why = (f"action {index} ({self.state.action_to_string(index)}) is not legal for "
                   f"seat {self.seat} now: {reason}")
        raise IllegalActionError(f"{why}. Legal now: {self._legal_text()}", action)

    def _legal_text(self) -> str:
        legal = self._legal
        shown = ", ".join(f"{a} ({self.state.action_to_string(a)})"
                          for a in legal[:SHOWN_LEGAL])
        more = len(legal) - SHOWN_LEGAL
        return (shown or "nothing") + (f", … ({more} more)" if more > 0 else "")

    def _ended(self) -> bool:
        return bool(self.state.is_terminal())

    def _truncated(self) -> bool:
        """The learner's step budget or the game's length bound is used up."""
        out_of_steps = self.max_steps is not None and self._steps >= self.max_steps
        return out_of_steps or self.state.move_number() >= self.game.max_game_length()

    def _observe(self) -> dict[str, Any]:
        """New arrays each call (callers keep them). The mask is all zeros once the episode
        is over: nothing may be played. The legal actions are listed once, for the mask and
        for `info["legal_actions"]`."""
        observation = self.state.observation_tensor(self.seat)
        to_move = not self._over and self.state.current_player() == self.seat
        self._legal = list(self.state.legal_actions()) if to_move else []
        self._mask = action_mask(self._legal, self.game.num_distinct_actions())
        return {"observation": observation, "action_mask": self._mask}

    def _info(self) -> dict[str, Any]:
        """The seat, the mask (the observation's own array) and the legal action ids (a new
        list: vector envs batch lists of any length): with hundreds of thousands of actions
        (Axio, Mexica) sampling from the short list is far cheaper than searching the mask."""
        info: dict[str, Any] = {"seat": self.seat, "legal_actions": list(self._legal)}
        if self.mask_in_info:
            info["action_mask"] = self._mask
        if self.state.is_terminal():
            info["scores"] = [float(s) for s in self.state.scores()]
            info["returns"] = [float(r) for r in self.state.returns()]
        return info

    def __repr__(self) -> str:
        return (f"TlatelolcoEnv({self.game!r}, seat={self.seat_choice!r}, "
                f"opponents={list(self.opponents)!r})")


def _load_game(game: str | Game, options: dict[str, Any]) -> Game:
    if isinstance(game, Game):
        if options:
            raise ValueError(f"options {sorted(options)!r} were given with a loaded game; "
                             "pass the game's name instead")
        return game
    return load(game, **options)


def _check_seat(seat: int | str, players: int) -> int | str:
    if seat == "random":
        return seat
    if type(seat) is not int or not 0 <= seat < players:
        raise ValueError(f"seat must be 'random' or a seat 0 to {players - 1}; got {seat!r}")
    return seat


def _check_opponents(opponents: str | Sequence[str], game: Game) -> tuple[str, ...]:
    """One spec per other seat; each is tried now so a bad name or parameter is refused at
    construction, not in the middle of a training run."""
    others = game.num_players() - 1
    specs = ((opponents,) * others if isinstance(opponents, str) else tuple(opponents))
    if len(specs) != others:
        raise ValueError(f"{game!r} has {others} other seat(s), so opponents needs {others} "
                         f"bot spec(s) (or one string for all); got {len(specs)}")
    for index, spec in enumerate(specs):
        if not isinstance(spec, str):
            raise ValueError(f"opponents[{index}] must be a bot spec string like 'random'; "
                             f"got {spec!r}")
        try:
            make_bot(spec, game, 1 % game.num_players(), 0)
        except ValueError as err:
            raise ValueError(f"opponents[{index}] = {spec!r}: {err}") from None
    return specs


def _check_choice(name: str, value: Any, allowed: tuple[Any, ...]) -> Any:
    if value not in allowed:
        raise ValueError(f"{name} must be one of {', '.join(map(repr, allowed))}; "
                         f"got {value!r}")
    return value


def _check_max_steps(max_steps: int | None) -> int | None:
    if max_steps is not None and (type(max_steps) is not int or max_steps < 1):
        raise ValueError(f"max_steps must be None or a whole number ≥ 1; got {max_steps!r}")
    return max_steps


def _register() -> None:
    """Register every game's id once (a second import does not warn about overriding)."""
    for name, env_id in ENV_IDS.items():
        if env_id not in gym.registry:
            gym.register(id=env_id, entry_point=f"{__name__}:TlatelolcoEnv",
                         kwargs={"game": name})


_register()
