"""The conformance suite every game must pass, as a function anyone can call.

Modelled on OpenSpiel's random-simulation test: it plays seeded random games and, at every
step, checks the contract of `tlatelolco.contract` (see "Lessons from the field" in the design).

    >>> from tlatelolco.testing import check_game
    >>> report = check_game("grand_bazaar", games=2, seed=1)
    >>> report.games
    2
"""

from __future__ import annotations

import itertools
import json
import math
import random
from dataclasses import dataclass, field
from typing import Any

from tlatelolco.chance import sample_chance
from tlatelolco.contract import CHANCE, TERMINAL, Game, IllegalActionError, State
from tlatelolco.records import make_record, record_from_json, record_to_json, replay_record
from tlatelolco.registry import list_games, load

EPS = 1e-9


class ConformanceError(AssertionError):
    """A broken promise of the game contract, with where it happened."""


@dataclass
class Report:
    game: str
    games: int = 0
    steps: int = 0
    lengths: list[int] = field(default_factory=list)

    @property
    def mean_length(self) -> float:
        return sum(self.lengths) / len(self.lengths) if self.lengths else 0.0


class _Checker:
    """Checks one state at a time; `fail` says which game, seed and step broke what."""

    def __init__(self, game: Game, seed: int, rng: random.Random) -> None:
        self.game = game
        self.seed = seed
        self.rng = rng
        self.n = game.num_players()
        self.num_actions = game.num_distinct_actions()
        self.step = 0

    def fail(self, check: str, detail: str) -> ConformanceError:
        return ConformanceError(
            f"{self.game!r}, seed {self.seed}, step {self.step}: [{check}] {detail}")

    def expect(self, ok: bool, check: str, detail: str) -> None:
        if not ok:
            raise self.fail(check, detail)

    # --- per-state checks --------------------------------------------------------------
    def check_state(self, state: State, thorough: bool) -> None:
        player = state.current_player()
        self.expect(player in (CHANCE, TERMINAL) or 0 <= player < self.n, "current_player",
                    f"current_player() is {player}")
        self.expect(state.is_chance_node() == (player == CHANCE), "is_chance_node",
                    "is_chance_node() disagrees with current_player()")
        self.expect(state.is_terminal() == (player == TERMINAL), "is_terminal",
                    "is_terminal() disagrees with current_player()")
        self.expect(len(state.history()) == self.step, "history",
                    f"history has {len(state.history())} actions after {self.step} steps")
        self.expect(self.step <= self.game.max_game_length(), "max_game_length",
                    f"game is longer than max_game_length() = {self.game.max_game_length()}")
        self.check_returns(state)
        if player == CHANCE:
            self.check_chance(state)
        elif player >= 0:
            self.check_legal_actions(state)
            self.check_action_strings(state, thorough)
        else:
            self.expect(state.legal_actions() == [], "legal_actions",
                        "a terminal state has legal actions")
            self.expect(state.uniform_chance_outcomes() is None, "uniform_chance_outcomes",
                        "a terminal state gives uniform chance outcomes")
        seats = range(self.n) if thorough else [max(player, 0) % self.n]
        self.check_illegal_rejected(state, thorough)
        self.check_clone(state, seats)
        self.check_views(state, seats)

    def check_returns(self, state: State) -> None:
        info = self.game.info
        returns = state.returns()
        self.expect(len(returns) == self.n, "returns", f"returns() has {len(returns)} entries")
        self.expect(all(info.min_utility - EPS <= r <= info.max_utility + EPS for r in returns),
                    "returns", f"returns {returns} outside [{info.min_utility}, "
                    f"{info.max_utility}]")
        teams = self.game.teams()
        self.expect(all(returns[seat] == returns[team[0]] for team in teams for seat in team),
                    "returns", f"partners have different returns: {returns}")
        if state.is_terminal() and info.utility == "constant_sum":
            total = sum(returns[team[0]] for team in teams)
            self.expect(abs(total - 1.0) < 1e-6, "returns",
                        f"terminal returns {returns} do not sum to 1 over the sides {teams}")
        self.expect(len(state.scores()) == self.n, "scores", "scores() has the wrong length")

    def check_chance(self, state: State) -> None:
        outcomes = state.chance_outcomes()
        self.expect(len(outcomes) > 0, "chance_outcomes", "a chance node has no outcomes")
        actions = [a for a, _ in outcomes]
        self.expect(len(set(actions)) == len(actions), "chance_outcomes",
                    "chance outcomes repeat an action")
        self.expect(all(p > 0 for _, p in outcomes), "chance_outcomes",
                    "a chance outcome has probability <= 0")
        total = math.fsum(p for _, p in outcomes)
        self.expect(abs(total - 1.0) < 1e-6, "chance_outcomes",
                    f"chance probabilities sum to {total}")
        self.expect(state.legal_actions() == sorted(actions), "legal_actions",
                    "at a chance node legal_actions() must be the sorted outcomes")
        self.check_in_space(actions)
        uniform = state.uniform_chance_outcomes()
        if uniform is not None:
            alike, p = uniform
            self.expect(outcomes == [(a, p) for a in alike], "uniform_chance_outcomes",
                        "uniform_chance_outcomes() differs from chance_outcomes()")

    def check_legal_actions(self, state: State) -> None:
        legal = state.legal_actions()
        self.expect(len(legal) > 0, "legal_actions", "no legal actions at a decision node")
        self.expect(all(a < b for a, b in itertools.pairwise(legal)), "legal_actions",
                    f"legal actions not sorted and unique: {legal}")
        self.expect(state.legal_actions() is not legal, "legal_actions",
                    "legal_actions() returned the same list twice: it must be a new one")
        self.expect(state.chance_outcomes() == [], "chance_outcomes",
                    "a decision node has chance outcomes")
        self.expect(state.uniform_chance_outcomes() is None, "uniform_chance_outcomes",
                    "a decision node gives uniform chance outcomes")
        self.check_in_space(legal)

    def check_in_space(self, actions: list[int]) -> None:
        bad = [a for a in actions if type(a) is not int or not 0 <= a < self.num_actions]
        self.expect(not bad, "action_space",
                    f"actions {bad} outside 0..{self.num_actions - 1} or not int")

    def check_action_strings(self, state: State, thorough: bool) -> None:
        legal = state.legal_actions()
        if thorough or len(legal) <= 64:  # long lists (Mexica: ~1000) only on thorough steps
            strings = [state.action_to_string(a) for a in legal]
            self.expect(len(set(strings)) == len(strings), "action_to_string",
                        f"legal actions share a string: {strings}")
        sample = legal if len(legal) <= 8 else self.rng.sample(legal, 8)
        for action in sample:
            text = state.action_to_string(action)
            parsed = state.string_to_action(text)
            self.expect(parsed == action, "string_to_action",
                        f"'{text}' parses to {parsed}, not {action}")
            for spelling in (text, text.upper(), text.swapcase()):  # one parser, any case
                parsed = state.parse_action(spelling)
                self.expect(parsed == action, "parse_action",
                            f"'{spelling}' parses to {parsed}, not {action}")
            as_dict = state.action_to_dict(action)
            self.expect(isinstance(as_dict, dict) and "kind" in as_dict, "action_to_dict",
                        f"action_to_dict({action}) = {as_dict!r} has no 'kind'")
            json.dumps(as_dict)

    def fingerprint(self, state: State, seats: range | list[int]) -> tuple[Any, ...]:
        """What the public API shows of a state: a witness that does not rely on clone()."""
        return (state.history(), state.current_player(), state.legal_actions(),
                state.scores(), [state.observation(seat) for seat in seats])

    def check_illegal_rejected(self, state: State, thorough: bool) -> None:
        legal = set(state.legal_actions())
        odd: list[Any] = [-1, self.num_actions, "0", None, 1.0]
        candidates = odd if thorough else [odd[self.step % len(odd)]]
        # An illegal action in the space: next to a legal one, or anywhere (big spaces: sampled).
        near = [a for a in (min(legal, default=0) - 1, max(legal, default=-1) + 1)
                if 0 <= a < self.num_actions and a not in legal]
        anywhere = (self.rng.randrange(self.num_actions) for _ in range(50))
        candidates += near[:1] + [a for a in anywhere if a not in legal][:1]
        before = state.clone()
        for action in candidates:
            try:
                state.apply_action(action)
            except IllegalActionError as err:
                self.expect(bool(str(err)), "illegal_action", "the error has no message")
            else:
                raise self.fail("illegal_action", f"illegal action {action!r} was accepted")
            self.expect(state == before, "illegal_action",
                        f"rejecting {action!r} changed the state")

    def check_clone(self, state: State, seats: range | list[int]) -> None:
        copy = state.clone()
        self.expect(copy == state, "clone", "a clone is not equal to its original")
        self.expect(copy is not state, "clone", "clone() returned the same object")
        if state.is_terminal():
            return
        witness = self.fingerprint(state, seats)
        copy.apply_action(self.pick(copy))
        self.expect(self.fingerprint(state, seats) == witness, "clone",
                    "applying an action to a clone changed the original")
        self.expect(copy != state, "clone", "a clone that moved still equals the original")

    def check_views(self, state: State, seats: range | list[int]) -> None:
        for seat in seats:
            observation = state.observation(seat)
            self.expect(isinstance(observation, dict), "observation", "not a dict")
            try:
                json.dumps(observation)
            except (TypeError, ValueError) as err:
                raise self.fail("observation", f"not JSON-serialisable: {err}") from None
            info = state.information_state_string(seat)
            self.expect(isinstance(info, str), "information_state_string", "not a str")
            sample = state.resample_from_infostate(seat, random.Random(self.rng.random()))
            self.expect(type(sample) is type(state), "resample_from_infostate", "wrong type")
            self.expect(sample.information_state_string(seat) == info,
                        "resample_from_infostate",
                        f"seat {seat}'s information state differs after resampling")
            self.expect(sample.observation(seat) == observation, "resample_from_infostate",
                        f"seat {seat}'s observation differs after resampling")
            self.expect(sample.current_player() == state.current_player(),
                        "resample_from_infostate", "the player to move differs after resampling")
            if state.current_player() == seat:
                self.expect(sample.legal_actions() == state.legal_actions(),
                            "resample_from_infostate",
                            "the mover's legal actions differ after resampling")

    def check_bad_seat_refused(self, state: State) -> None:
        for view in (state.observation, state.information_state_string):
            try:
                view(self.n)
            except ValueError:
                continue
            raise self.fail("observation", f"{view.__name__}({self.n}) of a seat that does not "
                            "exist did not raise ValueError")

    def check_replay(self, state: State) -> None:
        replayed = self.game.replay(state.history())
        self.expect(replayed == state, "replay", "replay(history) differs from the state")
        record = record_from_json(record_to_json(
            make_record(state, [f"seat{i}" for i in range(self.n)])))
        # A game under development may not be registered yet: then replay it directly.
        registered = self.game.info.name in list_games() and type(
            load(self.game.info.name, **record["options"])) is type(self.game)
        restored = replay_record(record) if registered else self.game.replay(record["history"])
        self.expect(restored == state, "serialisation", "record JSON round trip differs")

    # --- driving a game ----------------------------------------------------------------
    def pick(self, state: State) -> int:
        if state.is_chance_node():
            return sample_chance(state, self.rng)
        return self.rng.choice(state.legal_actions())

    def play(self, thorough_every: int) -> int:
        state = self.game.new_initial_state()
        replay_at = self.rng.randrange(1, 40)
        try:
            self.check_bad_seat_refused(state)
            while True:
                self.check_state(state, thorough=self.step % thorough_every == 0)
                if self.step == replay_at:
                    self.check_replay(state)
                if state.is_terminal():
                    break
                state.apply_action(self.pick(state))
                self.step += 1
            self.check_replay(state)
        except ConformanceError:
            raise
        except Exception as err:  # any crash is a conformance failure with its place
            raise self.fail("crash", f"{type(err).__name__}: {err}") from err
        return self.step


def check_game(game: Game | str, games: int = 100, seed: int = 0, *,
               thorough_every: int = 5, **options: Any) -> Report:
    """Play `games` seeded random games of `game`, checking the contract at every step.

    Raises `ConformanceError` (an `AssertionError`) naming the check, game, seed and step.
    Every `thorough_every` steps every seat's views are checked, not only the mover's.
    """
    if isinstance(game, str):
        game = load(game, **options)
    report = Report(game=repr(game))
    for index in range(games):
        game_seed = seed * 1_000_003 + index
        checker = _Checker(game, game_seed, random.Random(game_seed))
        length = checker.play(thorough_every)
        report.games += 1
        report.steps += length
        report.lengths.append(length)
    return report
