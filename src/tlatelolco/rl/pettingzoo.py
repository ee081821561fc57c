"""PettingZoo AEC environments for Tlatelolco's games: every seat an agent, chance inside.

    >>> from tlatelolco.rl.pettingzoo import env
    >>> aec = env("grand_bazaar", num_players=3)
    >>> aec.reset(seed=7)
    >>> observation, reward, terminated, truncated, info = aec.last()
    >>> observation["observation"].dtype.name, int(observation["action_mask"].sum()) > 0
    ('float32', True)

Conventions (see docs/rl.md):

- Agents are "player_0".."player_{n-1}", one per seat; the agent to move is the seat to move.
- `observe(agent)` is that seat's own `observation_tensor` and `legal_actions_mask`: never
  another seat's view; the mask is all zeros when it is not the agent's turn.
- Chance (shuffles, draws, dice) is resolved inside the environment with a `random.Random`
  seeded by `reset(seed=...)`: the same seed and the same actions replay the same game. Agents
  never see the generator, only what the rules reveal.
- Rewards are 0 until the end, then the contract's `returns()` for every seat (a team's
  partners each get the team's result); `terminations` are then True for every agent.
- `truncations` become True for every agent (rewards 0) once `max_steps` agent actions have
  been taken; the default, `game.max_game_length()`, bounds whole games, so it never cuts one.
- An illegal action raises `IllegalActionError` (a `ValueError`) naming the agent, the action,
  why it is refused and what is legal, and changes nothing: the environment can be stepped
  again. (PettingZoo's classic games instead end the game with a penalty; wrap `raw_env` in
  `pettingzoo.utils.wrappers.TerminateIllegalWrapper` for that.)
"""

from __future__ import annotations

import io
import operator
import random
import unicodedata
from typing import Any

from tlatelolco.chance import sample_chance
from tlatelolco.contract import CHANCE, Game, IllegalActionError, shown
from tlatelolco.extras import missing
from tlatelolco.registry import load
from tlatelolco.tensors import action_mask

try:
    import gymnasium
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
    from pettingzoo.utils.env_logger import EnvLogger
except ImportError as err:  # the `rl` extra is not installed
    raise missing(err.name or "pettingzoo", "rl") from err

RENDER_MODES = ("human", "ansi", "rgb_array")
NOTHING_LEGAL = np.zeros(0, np.intp)
# Every tensor value lies in [-1, 1]: the games scale counts into [0, 1] (docs/tensors/), and
# Axio's tile positions into [-1, 1]. The tests check it over whole games.
OBSERVATION_BOUND = 1.0


def seat_space(game: Game) -> spaces.Dict:
    """What one seat observes, for this environment and the Gymnasium one: its observation
    tensor and its legal-action mask."""
    return spaces.Dict({
        "observation": spaces.Box(-OBSERVATION_BOUND, OBSERVATION_BOUND,
                                  game.observation_tensor_shape(), np.float32),
        "action_mask": spaces.Box(0, 1, (game.num_distinct_actions(),), np.int8),
    })


def env(game: str, render_mode: str | None = None, **options: Any) -> AECEnv:
    """The AEC environment of `game`, wrapped as PettingZoo's own environments are.

    `options` are the game's `load` options (`num_players=3`, ...) plus `max_steps`. Only the
    order-enforcing wrapper is added: `raw_env` already refuses out-of-range and illegal
    actions with a clear error, so the out-of-bounds check would only repeat that work.
    """
    return OrderEnforcingWrapper(raw_env(game, render_mode=render_mode, **options))


class OrderEnforcingWrapper(wrappers.OrderEnforcingWrapper):
    """PettingZoo's order-enforcing wrapper, with the same checks, that reads the wrapped
    environment directly: the inherited `last()` and `step()` reach six fields through the
    wrapper's `__getattr__`, which cost more per step than the checks themselves."""

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return self.env.last(observe)

    def step(self, action: Any) -> None:
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        self._has_updated = True
        if self.env.agents:
            self.env.step(action)
        else:
            EnvLogger.warn_step_after_terminated_truncated()


class raw_env(AECEnv):  # PettingZoo's name for the unwrapped class
    """One Tlatelolco game as an AEC environment (see the module docstring)."""

    def __init__(self, game: str, render_mode: str | None = None,
                 max_steps: int | None = None, **options: Any) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode {shown(render_mode)} is not supported; allowed: "
                             f"None, {', '.join(repr(m) for m in RENDER_MODES)}")
        self.game = load(game, **options)
        self._num_actions = self.game.num_distinct_actions()
        self.render_mode = render_mode
        self.max_steps = self._step_limit(max_steps)
        self.metadata = {"render_modes": list(RENDER_MODES),
                         "name": f"tlatelolco_{self.game.info.name}_v0",
                         "is_parallelizable": False, "render_fps": 1}
        self.possible_agents = [f"player_{seat}" for seat in range(self.game.num_players())]
        self._seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self.observation_spaces = dict.fromkeys(self.possible_agents, seat_space(self.game))
        self.action_spaces = {agent: spaces.Discrete(self._num_actions)
                              for agent in self.possible_agents}
        self._rng = random.Random()
        # The legal actions of the agent to move, listed once per decision, as the index array
        # its mask is made from (the list itself goes to the agent's info).
        self._legal: Any = NOTHING_LEGAL
        self._state: Any = None
        self._steps = 0
        self._drawn: tuple[Any, int, tuple[list[list[Cell]], Rgb]] | None = None

    def _step_limit(self, max_steps: int | None) -> int:
        if max_steps is None:
            return self.game.max_game_length()
        if type(max_steps) is not int or max_steps < 1:
            raise ValueError(f"max_steps must be a positive integer, got {shown(max_steps)}")
        return max_steps

    # --- the AEC API ---------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    @property
    def game_state(self) -> Any:
        """The live `tlatelolco.State` (for analysis and tests: do not apply actions to it)."""
        return self._state

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game. `seed` reseeds the chance generator; without it the generator goes on.
        `options` is accepted for the API and unused: game options are given to `env()`."""
        if seed is not None:
            self._rng = random.Random(operator.index(seed))  # NumPy integers too
        self._state = self.game.new_initial_state()
        self._steps = 0
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self._skip_agent_selection = None
        self._legal = NOTHING_LEGAL
        self._after_move(self._resolve_chance())

    def observe(self, agent: str) -> dict[str, Any]:
        """`agent`'s own observation tensor and legal-action mask (zeros unless it moves)."""
        try:
            seat = self._seats[agent]
        except KeyError:
            raise ValueError(f"unknown agent {shown(agent)}; agents: "
                             f"{', '.join(self.possible_agents)}") from None
        legal = self._legal if agent == self.agent_selection else NOTHING_LEGAL
        return {"observation": self._state.observation_tensor(seat),
                "action_mask": action_mask(legal, self._num_actions)}

    def step(self, action: Any) -> None:
        """Apply the selected agent's `action`, then resolve chance up to the next decision."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        move = self._as_action(agent, action)
        if self._listed(move):  # the rules listed it for this decision: no need to ask again
            self._state.apply_legal_action(move)
        else:
            try:
                self._state.apply_action(move)  # refuses it, saying why
            except IllegalActionError as err:
                raise IllegalActionError(f"{agent} (seat {self._seats[agent]}): {err}", move,
                                         err.reason) from None
        self._cumulative_rewards[agent] = 0.0
        self._steps += 1
        self._after_move(self._resolve_chance())
        if self.render_mode == "human":
            self.render()

    def _listed(self, move: int) -> bool:
        """Whether `move` is among the legal actions listed for this decision (sorted)."""
        legal = self._legal
        if not 0 <= move < self._num_actions:
            return False
        at = legal.searchsorted(move)
        return bool(at < len(legal) and legal[at] == move)

    def _as_action(self, agent: str, action: Any) -> int:
        """`action` as a Python int (NumPy integers welcome); anything else is refused."""
        if type(action) is int:
            return action
        if action is None or isinstance(action, bool | np.bool_):
            raise IllegalActionError(
                f"{agent} is to move and must give an action (an integer from 0 to "
                f"{self.game.num_distinct_actions() - 1}), got {shown(action)}; None is only "
                "for agents whose game is over", action)
        try:
            return operator.index(action)
        except TypeError:
            raise IllegalActionError(
                f"{agent}: an action is an integer from 0 to "
                f"{self.game.num_distinct_actions() - 1}, got {shown(action)}", action) from None

    def _resolve_chance(self) -> int:
        """Draw chance outcomes until a seat is to move or the game is over; the player then."""
        state, rng = self._state, self._rng
        player = state.current_player()
        while player == CHANCE:
            state.apply_legal_action(sample_chance(state, rng))  # an outcome it just listed
            player = state.current_player()
        return player

    def _after_move(self, seat: int) -> None:
        """Hand the turn to `seat`, or end the game: returns, or the step limit. The legal
        actions are listed once per decision, for the mask and for the mover's
        `infos[agent]["legal_actions"]` (sampling from that list is far cheaper than searching
        a mask of Axio's 357,516 or Mexica's 279,329 entries)."""
        if seat >= 0:
            previous = getattr(self, "agent_selection", None)
            self.agent_selection = self.possible_agents[seat]
            legal = []
            if self._steps >= self.max_steps:
                self.truncations = dict.fromkeys(self.agents, True)
            else:
                legal = self._state.legal_actions()
            self._legal = np.array(legal, np.intp)  # the agent may change its list: not this
            if previous in self.infos:
                self.infos[previous] = {}
            self.infos[self.agent_selection] = {"legal_actions": legal}
            return
        self._legal = NOTHING_LEGAL
        self.infos = {agent: {} for agent in self.agents}
        for agent, value in zip(self.possible_agents, self._state.returns(), strict=True):
            self.rewards[agent] = float(value)
        self.terminations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()

    # --- rendering -------------------------------------------------------------------------
    def render(self) -> str | np.ndarray | None:
        """The board as a spectator sees it (no seat's private hand): "ansi" text, an
        "rgb_array" picture of that text, or "human": the text printed."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode; pass "
                                  f"render_mode= one of {RENDER_MODES} to env()")
            return None
        lines, paper = self._board()
        if self.render_mode == "rgb_array":
            return picture(lines, paper)
        text = "\n".join("".join(t for t, _, _ in line).rstrip() for line in lines)
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def _board(self) -> tuple[list[list[Cell]], Rgb]:
        """The board's cells, drawn once per position ("human" draws after a step, and a
        caller often asks again before the next one)."""
        state, moves = self._state, self._state.move_number()
        if self._drawn is None or self._drawn[0] is not state or self._drawn[1] != moves:
            board = board_lines(self.game.info.name, state.public_observation())
            self._drawn = (state, moves, board)
        return self._drawn[2]

    def close(self) -> None:
        """Nothing to release: rendering opens no window."""


# --- the board as text and as a picture ----------------------------------------------------
Rgb = tuple[int, int, int]
Cell = tuple[str, Rgb, Rgb]  # a character, its colour, its background

BOARD_WIDTH = 160  # columns the text board may use
CELL_W, CELL_H, SCALE = 6, 10, 2  # one character's pixels in the picture, then magnified

# Glyphs of a 5x7 font drawn for this picture: each entry is a character, then its rows from
# the top (7, or 9 for letters that reach below the line), each a base-32 digit whose 5 bits are
# the pixels from left to right.
_FONT = (
    "!4444404 \"aa00000 #aavavaa $4fke5u4 %op248j3 &cik8lid '4400000 (2488842 )8422248 "
    "*04lel40 +044v440 ,0000c48 -000v000 .00000cc /01248g0 0ehjlphe 14c4444e 2eh1248v "
    "3v2421he 426aiv22 5vgu11he 668guhhe 7v124888 8ehhehhe 9ehhf12c :0cc0cc0 ;0cc0c48 "
    "<248g842 =00v0v00 >8421248 ?eh12404 @eh1dlle Aehhvhhh Buhhuhhu Cehggghe Dsihhhis "
    "Evgguggv Fvgguggg Gehgnhhf Hhhhvhhh Ie44444e J72222ic Khikokih Lggggggv Mhrllhhh "
    "Nhhpljhh Oehhhhhe Puhhuggg Qehhhlid Ruhhukih Sfgge11u Tv444444 Uhhhhhhe Vhhhhha4 "
    "Whhhllla Xhha4ahh Yhha4444 Zv1248gv [e88888e \\0g84210 ]e22222e ^4ah0000 _000000v "
    "`8420000 a00e1fhf bggmphhu c00egghe d11djhhf e00ehvge f698s888 g00fhhhf1e hggmphhh "
    "i40c444e j2062222ic kggikoki lc44444e m00qllhh n00mphhh o00ehhhe p00uhhhugg q00fhhhf11 "
    "r00mpggg s00ege1u t88s8896 u00hhhjd v00hhha4 w00hhlla x00ha4ah y00hhhhf1e z00v248v "
    "{2448442 |4444444 }8442448 ~008l200 \u00b70004000 \u202200eee00 \u25cf0evvve0 "
    "\u25cb0ehhhe0 \u25b68cefec8 \u25c026eue62 \u25b204ev000 \u25bc0ve4000 \u260544veerh "
    "\u260644rhalh \u25a00vvvvv0 \u25a10vhhhv0 \u224808l28l2 \u2014000v000 \u2013000e000 "
    "\u2026000000l \u00d70ha4ah0 \u2713012k800 \u27170ha4ah0 \u2192042v240 \u2190048v840 "
    "\u21914el4440 \u2193444le40"
)


def _glyph_table() -> dict[str, Any]:
    """Each font character as a boolean CELL_H x CELL_W bitmap (the glyph from row 1, so lines
    of text keep a row apart)."""
    table = {}
    for entry in _FONT.split():
        cell = np.zeros((CELL_H, CELL_W), bool)
        for row, digit in enumerate(entry[1:]):
            bits = int(digit, 32)
            cell[1 + row, :5] = [bool(bits >> (4 - col) & 1) for col in range(5)]
        table[entry[0]] = cell
    table[" "] = np.zeros((CELL_H, CELL_W), bool)
    return table


_GLYPHS: dict[str, Any] = {}


def _glyph(char: str) -> Any:
    """The bitmap of `char`: the font, box-drawing lines, shades, or an empty box (unknown)."""
    if not _GLYPHS:
        _GLYPHS.update(_glyph_table())
    found = _GLYPHS.get(char)
    if found is None:
        found = _drawn(char)
        _GLYPHS[char] = found
    return found


def _drawn(char: str) -> Any:
    """Glyphs made rather than stored: lines that join across cells, shades, accented letters
    (their base letter), and an empty box for anything else."""
    name = unicodedata.name(char, "")
    cell = np.zeros((CELL_H, CELL_W), bool)
    if name.startswith("BOX DRAWINGS"):
        return _box_lines(name)
    if name in ("FULL BLOCK", "DARK SHADE"):
        cell[:] = True
    elif name in ("LIGHT SHADE", "MEDIUM SHADE"):
        cell[::2, ::2] = cell[1::2, 1::2] = True
        if name == "MEDIUM SHADE":
            cell[::2, 1::2] = True
    else:
        base = unicodedata.normalize("NFKD", char)[:1]
        if base != char and base in _GLYPHS:
            return _GLYPHS[base]
        cell[1, :5] = cell[7, :5] = cell[1:8, 0] = cell[1:8, 4] = True
    return cell


def _box_lines(name: str) -> Any:
    """A box-drawing character from its Unicode name: its arms reach the cell's edges (so
    neighbours join) and DOUBLE arms are drawn as two lines."""
    words = name.split()
    arms = set(words) & {"UP", "DOWN", "LEFT", "RIGHT"}
    if "HORIZONTAL" in words:
        arms |= {"LEFT", "RIGHT"}
    if "VERTICAL" in words:
        arms |= {"UP", "DOWN"}
    double = "DOUBLE" in words
    cell = np.zeros((CELL_H, CELL_W), bool)
    row, col = CELL_H // 2, CELL_W // 2 - 1
    rows = (row - 1, row + 1) if double else (row,)
    cols = (col - 1, col + 1) if double else (col,)
    for r in rows:
        if "LEFT" in arms:
            cell[r, :col + 2] = True
        if "RIGHT" in arms:
            cell[r, col - 1 if double else col:] = True
    for c in cols:
        if "UP" in arms:
            cell[:row + 2, c] = True
        if "DOWN" in arms:
            cell[row - 1 if double else row:, c] = True
    return cell


def board_lines(game: str, observation: dict[str, Any]) -> tuple[list[list[Cell]], Rgb]:
    """The terminal board of `observation` (nobody's seat highlighted), cell by cell with the
    colours the terminal would show on Rich's default (light) theme, and that theme's paper."""
    from rich.console import Console  # the terminal's own board, drawn only when asked
    from rich.terminal_theme import DEFAULT_TERMINAL_THEME as THEME

    from tlatelolco.cli.boards import render_board

    console = Console(file=io.StringIO(), width=BOARD_WIDTH, color_system="truecolor",
                      force_terminal=True, legacy_windows=False)
    ink, paper = tuple(THEME.foreground_color), tuple(THEME.background_color)
    rows = console.render_lines(render_board(game, observation, None),
                                console.options.update(width=BOARD_WIDTH), pad=False)
    lines = []
    for row in rows:
        line: list[Cell] = []
        for segment in row:
            fg, bg = _colours(segment.style, THEME, ink, paper)
            line.extend((char, fg, bg) for char in segment.text)
        while line and line[-1][0] == " " and line[-1][2] == paper:
            line.pop()
        lines.append(line)
    return lines, paper  # type: ignore[return-value]


def _colours(style: Any, theme: Any, ink: Rgb, paper: Rgb) -> tuple[Rgb, Rgb]:
    """(foreground, background) of a Rich style as RGB triples."""
    if style is None:
        return ink, paper
    fg = ink if style.color is None else tuple(style.color.get_truecolor(theme))
    bg = paper if style.bgcolor is None else tuple(
        style.bgcolor.get_truecolor(theme, foreground=False))
    if style.reverse:
        fg, bg = bg, fg
    if style.dim:
        fg = tuple((a + b) // 2 for a, b in zip(fg, bg, strict=True))
    return fg, bg  # type: ignore[return-value]


def picture(lines: list[list[Cell]], paper: Rgb) -> np.ndarray:
    """The text board drawn with the bitmap font: an H x W x 3 uint8 image, made in a few
    array operations (each terminal cell picks its glyph, ink and paper)."""
    from rich.cells import cell_len

    cells: list[list[Cell]] = []
    for line in lines:  # a wide character takes its own cell and a blank one after it
        row: list[Cell] = []
        for char, fg, bg in line:
            row.append((char, fg, bg))
            row.extend((" ", fg, bg) for _ in range(cell_len(char) - 1))
        cells.append(row)
    width = max((len(row) for row in cells), default=0) or 1
    blank = (" ", paper, paper)
    grid = [row + [blank] * (width - len(row)) for row in cells] or [[blank] * width]
    glyphs: dict[str, int] = {}
    index = [[glyphs.setdefault(char, len(glyphs)) for char, _, _ in row] for row in grid]
    bitmaps = np.stack([_glyph(char) for char in glyphs])[np.array(index)]
    ink = np.array([[fg for _, fg, _ in row] for row in grid], np.uint8)[:, :, None, None]
    back = np.array([[bg for _, _, bg in row] for row in grid], np.uint8)[:, :, None, None]
    image = np.where(bitmaps[..., None], ink, back)  # (rows, columns, CELL_H, CELL_W, 3)
    image = image.transpose(0, 2, 1, 3, 4).reshape(len(grid) * CELL_H, width * CELL_W, 3)
    return np.repeat(np.repeat(image, SCALE, axis=0), SCALE, axis=1)


__all__ = ["RENDER_MODES", "env", "raw_env"]
