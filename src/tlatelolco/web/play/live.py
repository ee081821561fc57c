"""A game being played, held in memory: its stored row, its state and its move log.

The state is never changed in place once published: an action is applied to a clone and the
clone replaces it, so views can be built from `live.state` without holding the lock.
"""

from __future__ import annotations

import hashlib
import logging
import random
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tlatelolco.chance import sample_chance
from tlatelolco.contract import CHANCE, Game, State
from tlatelolco.i18n import Message
from tlatelolco.registry import load
from tlatelolco.turns import undoable
from tlatelolco.web.accounts.identity import Account, Credential
from tlatelolco.web.storage.store import GameRow

log_ = logging.getLogger("tlatelolco.web")


@dataclass(slots=True)
class Step:
    """One accepted action as the log shows it: who chose it, its notation at the time, and
    the same in words (an `i18n.Message`, rendered in each reader's language)."""

    actor: int  # seat, or CHANCE
    text: str
    words: Message | None = None
    move: dict[str, Any] | None = None  # action_to_dict at the time (to mark it on boards)


@dataclass(slots=True)
class Live:
    row: GameRow
    game: Game
    state: State
    log: list[Step]
    lock: threading.Lock = field(default_factory=threading.Lock)
    # JSON text shared by the views of one version (observations, legal moves): every seat
    # and spectator is sent a view after each move, and most of it is the same for all.
    cache: dict[object, str] = field(default_factory=dict)
    cached_state: State | None = None  # the state the cache is of (states are never changed)

    @property
    def version(self) -> int:
        return len(self.log)

    def current(self) -> tuple[State, list[Step]]:
        """The state and its log, taken together (a writer replaces them one after the other)."""
        while True:
            state, log = self.state, self.log
            if state.move_number() == len(log):
                return state, log

    def cached(self, state: State, key: object, make: Callable[[], str]) -> str:
        """`make()` computed once per state and key: a published state never changes, and
        after an undo the same version number holds another state."""
        if self.cached_state is not state:
            self.cache, self.cached_state = {}, state
        cache = self.cache
        found = cache.get(key)
        if found is None:
            found = make()
            if self.cached_state is state:
                cache[key] = found
        return found

    def seat_of(self, credential: Credential) -> int | None:
        """The seat a personal credential holds, or that an account holds (the one to move
        first, when it holds several)."""
        if isinstance(credential, Account):
            held = [s.seat for s in self.row.seats if s.user_id == credential.id]
            if not held:
                return None
            to_move = self.state.current_player()
            return to_move if to_move in held else held[0]
        digest = token_hash(credential)
        for seat in self.row.seats:
            if seat.token_hash is not None and seat.token_hash == digest:
                return seat.seat
        return None


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def chance_outcome(state: State, seed: str, step: int) -> int:
    """The outcome of the chance node at `step`, from the game's secret seed.

    Drawn from a generator keyed by the step, so a restarted server (or a second server
    process) draws exactly what the first would have.
    """
    return sample_chance(state, random.Random(f"{seed}:chance:{step}"))


def apply_step(state: State, action: int, log: list[Step], actor: int) -> None:
    text = state.action_to_string(action)
    try:
        words, move = state.describe_action(action), state.action_to_dict(action)
    except Exception:  # words are a courtesy: a bug in them must not stop a game
        log_.exception("telling action %s of %r in words failed", action, state)
        words, move = ("{text}", {"text": text}), None
    log.append(Step(actor, text, words, move))
    state.apply_action(action)


def resolve_chance(state: State, seed: str, log: list[Step]) -> list[tuple[int, int]]:
    """Play every chance node now due; the steps taken."""
    steps = []
    while state.current_player() == CHANCE:
        action = chance_outcome(state, seed, len(log))
        apply_step(state, action, log, CHANCE)
        steps.append((action, CHANCE))
    return steps


def undoable_steps(log: list[Step], seat: int, to_move: int) -> int:
    """How many of the last steps `seat` may take back now (see `tlatelolco.turns`)."""
    return undoable((step.actor for step in reversed(log)), seat, to_move)


def build_live(row: GameRow) -> Live:
    """Replay a stored game. A stored history that no longer replays is a corrupt record."""
    game = load(row.game, **row.options)
    state = game.new_initial_state()
    log: list[Step] = []
    for action, actor in zip(row.history, row.actors, strict=True):
        apply_step(state, action, log, actor)
    return Live(row=row, game=game, state=state, log=log)
