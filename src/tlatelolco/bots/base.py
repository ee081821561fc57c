"""The bot interface: a seat that chooses its own actions."""

from __future__ import annotations

import random

from tlatelolco.contract import Game, State


class Bot:
    """Chooses actions for one seat.

    The match runner hands `step` a state drawn from the seat's information state
    (`resample_from_infostate`), never the true state, so a bot cannot peek at hidden
    information even by accident. Randomness comes only from `self.rng`, seeded by the runner.
    """

    name = "bot"

    def __init__(self, game: Game, seat: int, seed: int | str | None = None) -> None:
        self.game = game
        self.seat = seat
        self.rng = random.Random(seed)

    def step(self, state: State) -> int:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seat={self.seat})"


class RandomBot(Bot):
    """Uniformly random among the legal actions: the baseline every other bot must beat."""

    name = "random"

    def step(self, state: State) -> int:
        return self.rng.choice(state.legal_actions())
