"""The game contract every Tlatelolco game implements.

Names follow OpenSpiel so that people who know it feel at home and adapters stay thin. A game
subclasses `Game` and `State`; everything generic (string parsing, replay, equality, error
messages) lives here so each game's code is only its rules.
"""

from __future__ import annotations

import random
import reprlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, ClassVar

from tlatelolco.tensors import Layout, action_mask

CHANCE = -1
TERMINAL = -4
LARGE_ACTION_SPACE = 5000  # beyond this a game parses its notation instead of listing spellings
MAX_ACTION_TEXT = 200  # characters: longer move text is refused before any parsing
SHOWN = 40  # characters of a name or value that an error message echoes back
REMOTE_TEXT = 64  # characters: the longest option text a server accepts from a client


_BRIEF = reprlib.Repr()
_BRIEF.maxstring = _BRIEF.maxother = _BRIEF.maxlong = SHOWN
_BRIEF.maxlevel, _BRIEF.maxlist, _BRIEF.maxdict = 2, 4, 4


def shown(value: Any) -> str:
    """`repr(value)` cut to about `SHOWN` characters: an error message never echoes a flood of
    text back to whoever sent it, and making the message is no work."""
    try:
        return _BRIEF.repr(value)
    except ValueError:  # an int too long to print (Python's digit limit)
        return f"<{type(value).__name__}>"


class IllegalActionError(ValueError):
    """An action that may not be applied now; the state it was offered to is unchanged."""

    def __init__(self, message: str, action: Any = None, reason: str | None = None) -> None:
        super().__init__(message)
        self.action = action
        self.reason = reason  # the rules' own words, when they said why (may be an i18n.Reason)


@dataclass(frozen=True, slots=True)
class Option:
    """One `load` option: its default and what values it allows.

    `remote`: the only values a server accepts for this option from a client it does not trust
    (see `Game.check_remote_options`); None: every value `coerce` allows. An option that names a
    file, say, must not let a stranger make the server read one.
    """

    name: str
    default: Any
    help: str
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[Any, ...] | None = None
    remote: tuple[Any, ...] | None = None
    label: str = ""  # a player's name for it ("Players"), English, marked with i18n.N_
    about: str = ""  # one plain sentence for players (no rule ids), English, marked with N_

    def allowed(self) -> str:
        if self.choices is not None:
            return "one of " + ", ".join(repr(c) for c in self.choices)
        if self.minimum is not None and self.maximum is not None:
            return f"an integer from {self.minimum} to {self.maximum}"
        return f"a value like {self.default!r}"

    def coerce(self, game: str, value: Any) -> Any:
        """The option's value, converted from text where needed (the CLI passes strings)."""
        kind = type(self.default)
        if isinstance(value, str) and kind is bool:
            words = {"true": True, "1": True, "yes": True, "false": False, "0": False, "no": False}
            value = words.get(value.strip().lower(), value)
        elif isinstance(value, str) and kind is not str:
            try:
                value = kind(value)
            except ValueError:
                raise ValueError(
                    f"{game}: option {self.name}={shown(value)} is not valid; "
                    f"allowed: {self.allowed()}"
                ) from None
        ok = isinstance(value, kind) and not (kind is int and isinstance(value, bool))
        if ok and self.choices is not None:
            ok = value in self.choices
        if ok and self.minimum is not None:
            ok = value >= self.minimum
        if ok and self.maximum is not None:
            ok = value <= self.maximum
        if not ok:
            raise ValueError(
                f"{game}: option {self.name}={shown(value)} is not allowed; "
                f"allowed: {self.allowed()}"
            )
        return value


@dataclass(frozen=True, slots=True)
class GameInfo:
    """Static facts about a game, the same for every configuration."""

    name: str
    title: str
    version: str
    min_players: int
    max_players: int
    chance: str  # "explicit": shuffles and draws are chance nodes; "none": deterministic
    information: str  # "perfect" or "imperfect"
    utility: str  # "constant_sum": the sides' returns (see Game.teams) sum to 1 at the end
    min_utility: float
    max_utility: float
    num_distinct_actions: int
    max_game_length: int  # over every allowed configuration; Game.max_game_length() is exact
    options: tuple[Option, ...]
    summary: str = ""  # what the game is about, in a sentence or two for the lobby (N_)
    minutes: tuple[int, int] = (0, 0)  # a typical game's length, fastest to slowest

    def as_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "title": self.title,
            "version": self.version,
            "players": [self.min_players, self.max_players],
            "chance": self.chance,
            "information": self.information,
            "utility": self.utility,
            "utility_bounds": [self.min_utility, self.max_utility],
            "num_distinct_actions": self.num_distinct_actions,
            "max_game_length": self.max_game_length,
            "summary": self.summary,
            "minutes": list(self.minutes),
            "options": {o.name: {"default": o.default, "allowed": o.allowed(), "help": o.help,
                                 "remote": None if o.remote is None else list(o.remote),
                                 "label": o.label or o.name, "about": o.about,
                                 "choices": None if o.choices is None else list(o.choices),
                                 "minimum": o.minimum, "maximum": o.maximum}
                        for o in self.options},
        }


class Game:
    """A configured game: its options and a factory for its states."""

    info: ClassVar[GameInfo]

    def __init__(self, /, **options: Any) -> None:  # `self=1` is an option (refused), not a clash
        self.options: Mapping[str, Any] = MappingProxyType(self.validate_options(options))

    @classmethod
    def check_option_names(cls, given: Mapping[str, Any]) -> None:
        """Raise `ValueError` naming the first unknown option and the allowed ones, whatever the
        name is (`self`, `''`, ten kilobytes: the message shows its first characters)."""
        known = [o.name for o in cls.info.options]
        unknown = sorted((name for name in given if name not in known), key=str)
        if unknown:
            raise ValueError(
                f"{cls.info.name}: unknown option {shown(unknown[0])}; "
                f"allowed options: {', '.join(known) or 'none'}"
            )

    @classmethod
    def validate_options(cls, given: Mapping[str, Any]) -> dict[str, Any]:
        """The effective options: every option, `given` ones converted and checked, the others
        at their defaults. A bad name or value raises `ValueError` saying what is allowed."""
        cls.check_option_names(given)
        return {o.name: o.coerce(cls.info.name, given.get(o.name, o.default))
                for o in cls.info.options}

    @classmethod
    def check_remote_options(cls, given: Mapping[str, Any]) -> dict[str, Any]:
        """`validate_options` for options sent by a client the server does not trust: values
        are JSON scalars (text of at most `REMOTE_TEXT` characters), and an option with
        `remote` values takes only those. Never touches the file system, and a refusal never
        depends on whether a file exists."""
        cls.check_option_names(given)
        known = {o.name: o for o in cls.info.options}
        for name, value in given.items():
            if not _json_scalar(value):
                what = (f"text of {len(value)} characters" if isinstance(value, str)
                        else f"a {type(value).__name__}")
                raise ValueError(
                    f"{cls.info.name}: option {name} must be text of at most {REMOTE_TEXT} "
                    f"characters, a number, true, false or null; got {what}")
            remote = known[name].remote
            if remote is not None and not any(type(value) is type(r) and value == r
                                               for r in remote):
                raise ValueError(
                    f"{cls.info.name}: a remote client may set option {name} only to "
                    f"{' or '.join(repr(r) for r in remote)}")
        return cls.validate_options(given)

    def num_players(self) -> int:
        return int(self.options["num_players"])

    def num_distinct_actions(self) -> int:
        return self.info.num_distinct_actions

    def teams(self) -> tuple[tuple[int, ...], ...]:
        """The sides that win or lose together; by default every seat plays alone."""
        return tuple((seat,) for seat in range(self.num_players()))

    def max_game_length(self) -> int:
        raise NotImplementedError

    def observation_tensor_layout(self) -> Layout:
        """The named sections of `State.observation_tensor` (the same object on every call)."""
        raise NotImplementedError(f"{self.info.name} has no observation tensor")

    def information_state_tensor_layout(self) -> Layout:
        """The named sections of `State.information_state_tensor`."""
        raise NotImplementedError(f"{self.info.name} has no information state tensor")

    def observation_tensor_shape(self) -> tuple[int, ...]:
        return self.observation_tensor_layout().shape

    def information_state_tensor_shape(self) -> tuple[int, ...]:
        return self.information_state_tensor_layout().shape

    def new_initial_state(self) -> State:
        raise NotImplementedError

    def state_from_position(self, position: Any) -> State:
        """A state at a hand-built position (the game's plain-data position class), for
        analysis and tests. Its history is empty, so it cannot be replayed."""
        players = getattr(position, "num_players", None)
        if players != self.num_players():
            raise ValueError(f"position has {players} players, game has {self.num_players()}")
        return self._state_at(position)

    def _state_at(self, position: Any) -> State:
        raise NotImplementedError(f"{self.info.name} has no hand-built positions")

    def replay(self, history: Iterable[int]) -> State:
        """Rebuild a state from its history; a bad step raises `IllegalActionError` naming it."""
        state = self.new_initial_state()
        for index, action in enumerate(history):
            if not isinstance(action, int) or isinstance(action, bool):
                raise IllegalActionError(
                    f"history[{index}] is {action!r}: every action must be an integer", action)
            try:
                state.apply_action(action)
            except IllegalActionError as err:
                raise IllegalActionError(f"history[{index}]: {err}", action) from None
        return state

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its class and options (the options' read-only view cannot be), so a game
        crosses to worker processes: vector environments, the arena's pool."""
        return _configured, (type(self), dict(self.options))

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Game) and other.info.name == self.info.name
                and dict(other.options) == dict(self.options))

    def __hash__(self) -> int:
        return hash((self.info.name, _frozen(dict(self.options))))

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={shown(v)}" for k, v in self.options.items())
        return f"{self.info.name}({args})"


class State:
    """A position of a game. Subclasses implement the rules; this class the generic rest."""

    # _spelled: (history length, {spelling: action}) of the default parser, made once per
    # position (a state changes only by applying actions); clones start without it
    __slots__ = ("_game", "_history", "_spelled")

    def __init__(self, game: Game) -> None:
        self._game = game
        self._history: list[int] = []

    # --- what each game implements -------------------------------------------------------
    def current_player(self) -> int:
        raise NotImplementedError

    def chance_outcomes(self) -> list[tuple[int, float]]:
        raise NotImplementedError

    def uniform_chance_outcomes(self) -> tuple[list[int], float] | None:
        """At a chance node whose outcomes are all equally likely (a card from a shuffled
        deck), its actions in `chance_outcomes` order and their probability; None otherwise.

        Optional: it lets `chance.sample_chance` draw without building a pair per outcome.
        A game that gives it must give exactly what `chance_outcomes` gives (the conformance
        tests check it), so that a seed draws the same outcomes either way.
        """
        return None

    def legal_actions(self) -> list[int]:
        """The actions that may be applied now, sorted: a new list on every call (callers such
        as the RL environments hand it on to be kept or changed)."""
        raise NotImplementedError

    def illegal_reason(self, action: int) -> str | None:
        """Why `action` may not be applied now, or None when it may."""
        raise NotImplementedError

    def _apply(self, action: int) -> None:
        """Apply an action already known to be legal."""
        raise NotImplementedError

    def action_to_string(self, action: int) -> str:
        raise NotImplementedError

    def action_to_dict(self, action: int) -> dict[str, Any]:
        raise NotImplementedError

    def describe_action(self, action: int) -> tuple[Any, Any]:
        """`action` told in words for the log, as an `i18n.Message` (English template and
        fields), on the state *before* it is applied: "{player} bought {good} for {price}".
        The default is the notation; games override it with their `words` module."""
        return "{text}", {"text": self.action_to_string(action)}

    def action_aliases(self, action: int) -> tuple[str, ...]:
        """Shorter spellings a person may type for `action` (never shown, only parsed)."""
        return ()

    def returns(self) -> list[float]:
        raise NotImplementedError

    def scores(self) -> list[float]:
        raise NotImplementedError

    def clone(self) -> State:
        raise NotImplementedError

    def observation(self, player: int) -> dict[str, Any]:
        raise NotImplementedError

    def information_state_string(self, player: int) -> str:
        """What `player` has seen: the history, with the steps hidden from that seat as `?`.
        A game whose hidden state is not in the history adds what the seat sees of it."""
        hidden = self.hidden_steps(player)  # also refuses a seat that does not exist
        return f"p{player}:" + ",".join("?" if i in hidden else str(a)
                                        for i, a in enumerate(self._history))

    def resample_from_infostate(self, player: int, rng: random.Random) -> State:
        """A full state `player` could be in. With perfect information that is this state:
        chance outcomes are decided only when they happen. Other games must override it."""
        self.check_seat(player)
        if self._game.info.information != "perfect":
            raise NotImplementedError(f"{self._game.info.name} hides information: it must "
                                      "implement resample_from_infostate")
        return self.clone()

    def public_observation(self) -> dict[str, Any]:
        """What a spectator may see: a seat's observation without anything private to a seat.
        With perfect information every seat sees the same, so that is seat 0's view; a game
        that hides information must override it (and `public_hidden_steps`)."""
        if self._game.info.information != "perfect":
            raise NotImplementedError(f"{self._game.info.name} hides information: it must "
                                      "implement public_observation")
        return self.observation(0)

    def public_hidden_steps(self) -> frozenset[int]:
        """Positions in the history a spectator may not see: those hidden from any seat."""
        hidden: frozenset[int] = frozenset()
        for seat in range(self._game.num_players()):
            hidden |= self.hidden_steps(seat)
        return hidden

    def _write_observation_tensor(self, player: int, out: Any) -> None:
        """Write what `player` sees now into `out`, a zero `float32` vector of the game's
        observation layout."""
        raise NotImplementedError(f"{self._game.info.name} has no observation tensor")

    def _write_information_state_tensor(self, player: int, out: Any) -> None:
        """Write what `player` has seen so far into `out` (zero, information state layout)."""
        raise NotImplementedError(f"{self._game.info.name} has no information state tensor")

    def _key(self) -> tuple[Any, ...]:
        """Everything that makes this state what it is (for equality)."""
        raise NotImplementedError

    # --- generic -------------------------------------------------------------------------
    def get_game(self) -> Game:
        return self._game

    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    def history(self) -> list[int]:
        return list(self._history)

    def hidden_steps(self, player: int) -> frozenset[int]:
        """Positions in the history whose action `player` may not see (another seat's private
        draw, say): logs, replays and records shown to that seat leave them out."""
        self.check_seat(player)
        return frozenset()

    def check_seat(self, player: int) -> None:
        """Raise `ValueError` unless `player` is a seat of this game (views are per seat)."""
        n = self._game.num_players()
        if type(player) is not int or not 0 <= player < n:
            raise ValueError(f"seat {player!r} does not exist; {self._game!r} has seats 0 to "
                             f"{n - 1}")

    def observation_tensor(self, player: int) -> Any:
        """What `player` may see now, as a new NumPy `float32` vector laid out by
        `game.observation_tensor_layout()`: the current view, nothing another seat hides."""
        self.check_seat(player)
        out = self._game.observation_tensor_layout().zeros()
        self._write_observation_tensor(player, out)
        return out

    def information_state_tensor(self, player: int) -> Any:
        """What `player` has seen from the start (perfect recall where the current view
        forgets), as a new `float32` vector laid out by `information_state_tensor_layout()`."""
        self.check_seat(player)
        out = self._game.information_state_tensor_layout().zeros()
        self._write_information_state_tensor(player, out)
        return out

    def legal_actions_mask(self, player: int | None = None) -> Any:
        """A NumPy `int8` vector of `num_distinct_actions()`: 1 at each action `player` (default:
        the seat to move) may take now. All zero at a chance node, at the end, or for a seat
        that is not to move."""
        to_move = self.current_player()
        if player is None:
            player = to_move
        else:
            self.check_seat(player)
        legal = self.legal_actions() if player == to_move and player >= 0 else []
        return action_mask(legal, self._game.num_distinct_actions())

    def move_number(self) -> int:
        return len(self._history)

    def apply_action(self, action: int) -> None:
        """Apply `action`, or raise `IllegalActionError` saying why, leaving the state as it was."""
        reason = self.illegal_reason(action) if type(action) is int else "it is not an integer"
        if reason is not None:
            raise IllegalActionError(self._illegal_message(action, reason), action, reason)
        self._apply(action)
        self._history.append(action)

    def apply_legal_action(self, action: int) -> None:
        """Apply `action` that the caller took from this state's own `legal_actions()` or
        `chance_outcomes()`, without asking the rules again. For loops that already hold that
        list (the RL environments list the legal actions once per decision for the mask);
        anything else goes through `apply_action`, which refuses illegal actions."""
        self._apply(action)
        self._history.append(action)

    def _illegal_message(self, action: Any, reason: str) -> str:
        return f"{self._describe(action)} is not legal: {reason}. Legal now: {self._legal_text()}"

    def _legal_text(self, most: int = 24) -> str:
        """The legal moves for an error message; a long list is cut short."""
        legal = self.legal_actions()
        if not legal:
            return "nothing (game over)"
        shown = ", ".join(self.action_to_string(a) for a in legal[:most])
        return shown + (f", … ({len(legal) - most} more)" if len(legal) > most else "")

    def _describe(self, action: Any) -> str:
        n = self._game.num_distinct_actions()
        if type(action) is int and 0 <= action < n:
            return f"action {action} ({self.action_to_string(action)})"
        return f"action {action!r}"

    def string_to_action(self, text: str) -> int:
        """The legal action whose notation is `text` (case and spacing are forgiven). Text that
        is not a string or longer than `MAX_ACTION_TEXT` is refused before any work is done."""
        if not isinstance(text, str):
            raise IllegalActionError(f"a move is text; got {type(text).__name__}")
        if len(text) > MAX_ACTION_TEXT:
            raise IllegalActionError(
                f"a move is at most {MAX_ACTION_TEXT} characters; got {len(text)}")
        wanted = normalise(text)
        if self._game.num_distinct_actions() > LARGE_ACTION_SPACE:
            action = self._parse_action(wanted)  # a real parser: no scan of the legal moves
        else:
            action = next((a for a in self.legal_actions() if wanted in self._spellings(a)),
                          None)
            if action is None:
                action = self._parse_action(wanted)
        if action is not None:
            reason = self.illegal_reason(action)
            if reason is None:
                return action
            raise IllegalActionError(
                f"'{text}' is not legal now: {reason}. Legal now: {self._legal_text()}", action,
                reason)
        raise IllegalActionError(
            f"'{text}' is not a move of {self._game.info.title}. Legal now: {self._legal_text()}")

    def parse_action(self, text: str) -> int | None:
        """The action that `text` names, legal now or not, or None. Case and spacing are
        forgiven, so every `action_to_string` output parses back, whatever its case. Text that
        is not a string or longer than `MAX_ACTION_TEXT` names nothing."""
        if not isinstance(text, str) or len(text) > MAX_ACTION_TEXT:
            return None
        return self._parse_action(normalise(text))

    def _parse_action(self, text: str) -> int | None:
        """The action that normalised `text` (lower case, single spaces) names, or None.

        The default tries every action's spellings; games with a large action space override it
        with a real parser, which must take time linear in the text (bounded regular
        expressions: no nested or adjacent unbounded repeats that can backtrack).
        """
        n = self._game.num_distinct_actions()
        if n > LARGE_ACTION_SPACE:
            return None
        return self._spelling_table(n).get(text)

    def _spelling_table(self, n: int) -> dict[str, int]:
        """Every spelling of every action at this position, to its action (the lowest one,
        should two share a spelling): built once per position, then each parse is a lookup."""
        made = getattr(self, "_spelled", None)
        if made is not None and made[0] == len(self._history):
            return made[1]
        table: dict[str, int] = {}
        for action in range(n):
            for spelling in self._spellings(action):
                table.setdefault(spelling, action)
        self._spelled = (len(self._history), table)
        return table

    def _spellings(self, action: int) -> set[str]:
        names = (self.action_to_string(action), *self.action_aliases(action))
        return {normalise(name) for name in names}

    def legal_action_strings(self) -> list[str]:
        return [self.action_to_string(a) for a in self.legal_actions()]

    def __eq__(self, other: object) -> bool:
        return (type(other) is type(self) and other._game == self._game  # type: ignore[attr-defined]
                and other._key() == self._key())  # type: ignore[attr-defined]

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<{self._game!r} state after {len(self._history)} actions>"


def _configured(cls: type[Game], options: dict[str, Any]) -> Game:
    return cls(**options)


def normalise(text: str) -> str:
    return " ".join(text.lower().split())


def _json_scalar(value: Any) -> bool:
    """A value a client may send for an option: short text, a number, a boolean or null."""
    if isinstance(value, str):
        return len(value) <= REMOTE_TEXT
    return value is None or type(value) in (bool, int, float)


def _frozen(value: Any) -> Any:
    """A hashable stand-in for an option value (an inline tile set is a dict of lists)."""
    if isinstance(value, Mapping):
        return tuple(sorted((k, _frozen(v)) for k, v in value.items()))
    if isinstance(value, list | tuple):
        return tuple(_frozen(v) for v in value)
    return value


def shared_victory(keys: Sequence[Any]) -> list[float]:
    """Returns for seats ranked by `keys` (higher wins): k tied winners get 1/k each."""
    best = max(keys)
    winners = [i for i, k in enumerate(keys) if k == best]
    share = 1.0 / len(winners)
    return [share if i in winners else 0.0 for i in range(len(keys))]
