"""Tlatelolco's games inside OpenSpiel: importing this module registers them with `pyspiel`.

    import pyspiel
    import tlatelolco.rl.openspiel  # registers python_tlatelolco_<game> for the four games

    game = pyspiel.load_game("python_tlatelolco_axio(players=3)")

Each game is an OpenSpiel "Python game" (as OpenSpiel's own `python_kuhn_poker`): a thin
wrapper around the contract's `Game` and `State`, so every rule stays in the rules engine and
OpenSpiel's algorithms, bots and RL environment run on it unchanged. Where the two conventions
differ, the wrapper translates:

- **Chance outcomes.** OpenSpiel numbers a chance node's outcomes 0..max_chance_outcomes-1; the
  contract gives chance actions their own ids inside the game's action space (an Axio draw is
  357216 + tile). `ChanceCodes` maps one to the other, both ways; player actions are the
  contract's ids unchanged.
- **Returns and utility sum.** The contract's returns (winner 1, k tied winners 1/k each, a
  team shares its side's result) are OpenSpiel's returns as they are, 0 before the end. The
  sides' results sum to 1, so the seats' returns sum to the size of a side: 1, or 2 in Aztec
  Market with four players (partners both get their team's result): that is `utility_sum`.
- **Observations.** OpenSpiel's two standard observation types are served: the default one
  (`perfect_recall=False`) by the contract's observation tensor, the information state
  (`perfect_recall=True`) by its information state tensor, each with `dict` = the layout's
  named sections. Other types (public information only, every seat's private information) are
  refused with a `ValueError`: the contract's views are one seat's, and a public view made up
  here would be a second source of truth about what a seat may see.
  The observation string is the contract's `observation(player)` as sorted JSON; the
  information state string is the contract's `information_state_string(player)`.
- **Options.** OpenSpiel's `players` parameter is the contract's `num_players`; the game's
  other options keep their names (Aztec Market's `setup`, `removed`, `luck`; Axio's `tiles`).
- **Game length.** `max_game_length` is the contract's bound, which counts chance steps too:
  a safe, loose bound for OpenSpiel, which counts decisions only.
- **Hidden information.** `resample_from_infostate` draws through the contract's own, so
  OpenSpiel's Python ISMCTS plays Axio from what each seat knows.

Needs the `rl` extra (`pip install 'tlatelolco[rl]'`).
"""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

import tlatelolco
from tlatelolco.contract import CHANCE, TERMINAL, Game
from tlatelolco.contract import State as ContractState
from tlatelolco.extras import require
from tlatelolco.registry import game_class

pyspiel: Any = require("pyspiel", "rl")
np: Any = require("numpy", "rl")

PREFIX = "python_tlatelolco_"
PLAYERS = "players"  # OpenSpiel's name for the contract's num_players option


def short_name(game: str) -> str:
    """The OpenSpiel name of a Tlatelolco game: `axio` -> `python_tlatelolco_axio`."""
    return PREFIX + game


# --- chance outcomes ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ChanceCodes:
    """The contract's chance action ids, in order, numbered 0.. as OpenSpiel wants them.

    `blocks` are sorted, disjoint ranges of contract ids; outcome k is the k-th id of their
    concatenation, so the numbering keeps the contract's order (sorted stays sorted)."""

    blocks: tuple[range, ...]

    @property
    def count(self) -> int:
        return sum(len(block) for block in self.blocks)

    def to_spiel(self, action: int) -> int:
        """The OpenSpiel outcome of contract chance action `action`."""
        base = 0
        for block in self.blocks:
            if action in block:
                return base + action - block.start
            base += len(block)
        raise ValueError(f"action {action} is not one of this game's chance actions {self}")

    def to_contract(self, outcome: int) -> int:
        """The contract's chance action for OpenSpiel outcome `outcome`."""
        rest = outcome
        for block in self.blocks:
            if 0 <= rest < len(block):
                return block[rest]
            rest -= len(block)
        raise ValueError(f"chance outcome {outcome} is outside 0..{self.count - 1}")


def chance_codes(game: Game) -> ChanceCodes:
    """Where each game keeps its chance actions (read from the game's own action numbering)."""
    name = game.info.name
    if name == "grand_bazaar":  # the price cards: ids 0..26, already OpenSpiel's numbering
        from tlatelolco.games.grand_bazaar.cards import NUM_CARDS
        return ChanceCodes((range(NUM_CARDS),))
    if name == "axio":  # a tile drawn, then a start tile with its rotation, at the very end
        from tlatelolco.games.axio.table import DRAW, NUM_ACTIONS
        return ChanceCodes((range(DRAW, NUM_ACTIONS),))
    if name == "mexica":  # a calpulli tile size drawn, at the end
        from tlatelolco.games.mexica.actions import DRAW, NUM_ACTIONS
        return ChanceCodes((range(DRAW, NUM_ACTIONS),))
    if name == "aztec_market":
        from tlatelolco.games.aztec_market import components as am
        if game.options["setup"] == "random":  # chance also lays the tiles and the hole
            return ChanceCodes((range(am.PLACE, am.MOVE), range(am.DRAW, am.NUM_ACTIONS)))
        return ChanceCodes((range(am.DRAW, am.HOLE_AT),))  # goods drawn from the bag
    raise ValueError(f"no OpenSpiel chance numbering for game {name!r}")


# --- the game -------------------------------------------------------------------------------


def utility_sum(game: Game) -> float:
    """What the seats' returns add up to: the size of a side (every side has the same size)."""
    sizes = {len(side) for side in game.teams()}
    if len(sizes) != 1:
        raise ValueError(f"{game!r} has sides of sizes {sorted(sizes)}: OpenSpiel's constant "
                         "sum needs sides of one size")
    return float(sizes.pop())


def parameter_specification(name: str) -> dict[str, Any]:
    """The game's options as OpenSpiel parameters, `players` first, at their defaults."""
    options = game_class(name).info.options
    return {(PLAYERS if o.name == "num_players" else o.name): o.default for o in options}


@functools.cache
def game_type(name: str) -> Any:
    """The `pyspiel.GameType` of Tlatelolco game `name` (the same for every option)."""
    info = game_class(name).info
    kind = pyspiel.GameType
    information = (kind.Information.PERFECT_INFORMATION if info.information == "perfect"
                   else kind.Information.IMPERFECT_INFORMATION)
    return kind(
        short_name=short_name(name),
        long_name=f"Tlatelolco {info.title}",
        dynamics=kind.Dynamics.SEQUENTIAL,
        chance_mode=kind.ChanceMode.EXPLICIT_STOCHASTIC,
        information=information,
        utility=kind.Utility.CONSTANT_SUM,
        reward_model=kind.RewardModel.TERMINAL,
        max_num_players=info.max_players,
        min_num_players=info.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameter_specification(name),
    )


def game_info(game: Game, chance: ChanceCodes) -> Any:
    """The `pyspiel.GameInfo` of a configured game (player count and options included)."""
    return pyspiel.GameInfo(
        num_distinct_actions=game.num_distinct_actions(),
        max_chance_outcomes=chance.count,
        num_players=game.num_players(),
        min_utility=game.info.min_utility,
        max_utility=game.info.max_utility,
        utility_sum=utility_sum(game),
        max_game_length=game.max_game_length(),
    )


def contract_options(params: Mapping[str, Any]) -> dict[str, Any]:
    """OpenSpiel parameters as the contract's options (`players` is `num_players`)."""
    return {("num_players" if key == PLAYERS else key): value for key, value in params.items()}


class TlatelolcoGame(pyspiel.Game):  # type: ignore[misc]
    """A configured Tlatelolco game as an OpenSpiel game; `contract` is the game it wraps.

    Each game registers its own subclass (`GAME_CLASSES`), which names the game. OpenSpiel's
    registry releases its factories only after the interpreter has shut down: a registered
    `functools.partial` is freed then and aborts the process at exit; a class, held by its
    own module, is not freed."""

    game_name: ClassVar[str] = ""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        name = self.game_name
        if not name:
            raise TypeError("TlatelolcoGame is abstract: use pyspiel.load_game("
                            f"'{PREFIX}<game>') or GAME_CLASSES[<game>]")
        params = dict(params or {})
        contract = tlatelolco.load(name, **contract_options(params))
        chance = chance_codes(contract)
        super().__init__(game_type(name), game_info(contract, chance), params)
        self.contract = contract
        self.chance = chance
        # OpenSpiel clones a Python state by making a new initial state and then replacing its
        # attributes: cloning a set-up start is far cheaper than setting up (Mexica: ~2 ms).
        self.initial = contract.new_initial_state()

    def new_initial_state(self) -> TlatelolcoState:
        return TlatelolcoState(self)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: Mapping[str, Any] | None = None) -> TlatelolcoObserver:
        """The observer OpenSpiel asks for; see `TlatelolcoObserver` for the types served."""
        if isinstance(iig_obs_type, Mapping):  # OpenSpiel calls make_py_observer(params) too
            iig_obs_type, params = None, iig_obs_type
        if params:
            raise ValueError(f"{short_name(self.contract.info.name)}: observers take no "
                             f"parameters; got {sorted(params)}")
        return TlatelolcoObserver(self.contract, perfect_recall(iig_obs_type))


# --- the state ------------------------------------------------------------------------------


class _Held:
    """The wrapped contract state. OpenSpiel clones a Python state by deep-copying its
    attributes and serialises it by pickling them: this holder makes the first the contract's
    cheap `clone()` and the second the game's name, options and history (replayed on load)."""

    __slots__ = ("chance", "state")

    def __init__(self, state: ContractState, chance: ChanceCodes) -> None:
        self.state = state
        self.chance = chance

    def __deepcopy__(self, memo: dict[int, Any]) -> _Held:
        return _Held(self.state.clone(), self.chance)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        game = self.state.get_game()
        return _replayed, (game.info.name, dict(game.options), self.state.history())


def _replayed(name: str, options: dict[str, Any], history: list[int]) -> _Held:
    game = tlatelolco.load(name, **options)
    return _Held(game.replay(history), chance_codes(game))


class TlatelolcoState(pyspiel.State):  # type: ignore[misc]
    """A contract state seen through OpenSpiel's `State` interface (chance outcomes mapped)."""

    def __init__(self, game: TlatelolcoGame) -> None:
        super().__init__(game)
        self._held = _Held(game.initial.clone(), game.chance)

    @property
    def contract_state(self) -> ContractState:
        """The wrapped contract state: read it, but apply actions through OpenSpiel."""
        return self._held.state

    def current_player(self) -> int:
        player = self._held.state.current_player()
        if player == CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        if player == TERMINAL:
            return int(pyspiel.PlayerId.TERMINAL)
        return player

    def _legal_actions(self, player: int) -> list[int]:
        return self._held.state.legal_actions()  # OpenSpiel asks only for the seat to move

    def chance_outcomes(self) -> list[tuple[int, float]]:
        to_spiel = self._held.chance.to_spiel
        return [(to_spiel(a), p) for a, p in self._held.state.chance_outcomes()]

    def _apply_action(self, action: int) -> None:
        state = self._held.state
        if state.is_chance_node():
            action = self._held.chance.to_contract(action)
        state.apply_action(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            action = self._held.chance.to_contract(action)
        return self._held.state.action_to_string(int(action))

    def is_terminal(self) -> bool:
        return self._held.state.is_terminal()

    def returns(self) -> list[float]:
        state = self._held.state
        if state.is_terminal():
            return [float(r) for r in state.returns()]
        return [0.0] * state.get_game().num_players()

    def resample_from_infostate(self, player: int, sampler: Callable[[], float]) -> Any:
        """A state `player` cannot tell from this one, drawn by the contract's
        `resample_from_infostate` (for OpenSpiel's Python ISMCTS). `sampler` returns floats in
        [0, 1) (OpenSpiel passes a `UniformProbabilitySampler`); it seeds the draw. The state
        is replayed through OpenSpiel so that its history is that of the world drawn."""
        rng = random.Random(int(sampler() * 2**53))
        world = self._held.state.resample_from_infostate(player, rng)
        state = self.get_game().new_initial_state()
        chance = self._held.chance
        for action in world.history():
            state.apply_action(chance.to_spiel(action) if state.is_chance_node() else action)
        return state

    def __str__(self) -> str:
        """The game, who is to move, and the contract's history: all a state is, exactly."""
        state = self._held.state
        player = state.current_player()
        to_move = {CHANCE: "chance", TERMINAL: "game over"}.get(player, f"seat {player}")
        history = ",".join(str(a) for a in state.history())
        return f"{state.get_game()!r}, {to_move}, history (contract ids): {history}"


# --- observations ---------------------------------------------------------------------------


def perfect_recall(iig_obs_type: Any) -> bool:
    """Whether `iig_obs_type` asks for the information state (True) or the observation
    (False); any other kind of observation is refused, saying which two are served."""
    if iig_obs_type is None:
        return False
    if iig_obs_type.public_info and (
            iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER):
        return bool(iig_obs_type.perfect_recall)
    raise ValueError(
        "Tlatelolco's OpenSpiel games serve two observation types, both a seat's own view "
        "(public_info=True, private_info=SINGLE_PLAYER): the observation (perfect_recall=False) "
        "and the information state (perfect_recall=True); asked for public_info="
        f"{iig_obs_type.public_info}, private_info={iig_obs_type.private_info.name}")


class TlatelolcoObserver:
    """OpenSpiel's Python observer over the contract's views of one seat.

    `tensor` is a float32 vector laid out by the game's observation (or information state)
    layout and `dict` its named sections, views into `tensor` that `set_from` refills."""

    def __init__(self, game: Game, recall: bool) -> None:
        self.perfect_recall = recall
        layout = (game.information_state_tensor_layout() if recall
                  else game.observation_tensor_layout())
        self.tensor = layout.zeros()
        self.dict = layout.views(self.tensor)

    def set_from(self, state: TlatelolcoState, player: int) -> None:
        inner = state.contract_state
        np.copyto(self.tensor, inner.information_state_tensor(player) if self.perfect_recall
                  else inner.observation_tensor(player))

    def string_from(self, state: TlatelolcoState, player: int) -> str:
        """The contract's information state string, or its observation as sorted JSON."""
        inner = state.contract_state
        if self.perfect_recall:
            return inner.information_state_string(player)
        return json.dumps(inner.observation(player), sort_keys=True, separators=(",", ":"))


# --- registration ---------------------------------------------------------------------------


def _game_subclass(name: str) -> type[TlatelolcoGame]:
    title = "".join(word.capitalize() for word in name.split("_"))
    return type(f"{title}SpielGame", (TlatelolcoGame,), {
        "game_name": name, "__module__": __name__,
        "__doc__": f"{game_class(name).info.title} as an OpenSpiel game ({short_name(name)})."})


GAME_CLASSES: dict[str, type[TlatelolcoGame]] = {
    name: _game_subclass(name) for name in tlatelolco.list_games()}


def register() -> list[str]:
    """Register every Tlatelolco game with OpenSpiel (again is harmless); the short names."""
    known = set(pyspiel.registered_names())
    for name, cls in GAME_CLASSES.items():
        if short_name(name) not in known:
            pyspiel.register_game(game_type(name), cls)
    return [short_name(name) for name in GAME_CLASSES]


GAMES = register()
