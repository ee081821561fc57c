"""Two tiny games with known best moves, to test search without any real game's rules.

- `Gamble` (1 player): pick a coin (0: wins 70% of the time, 1: wins 20%), then chance decides.
  The best move is 0, and its value is 0.7: a search that samples chance by the wrong odds, or
  averages the wrong things, gets either wrong.
- `Nim` (2 players): take 1 or 2 stones; whoever takes the last one wins. From 5 stones the only
  winning move is to take 2 (leaving a multiple of 3).
- `Lock` (2 seats, seat 0 alone moves): pick two digits of 0-3 in a row; (2, 3) wins for seat 0,
  anything else for seat 1. A first digit is worth nothing until the second is picked.
"""

from __future__ import annotations

from typing import Any

from tlatelolco.contract import CHANCE, TERMINAL, Game, GameInfo, Option, State


def info(name: str, players: int, chance: str) -> GameInfo:
    return GameInfo(name=name, title=name, version="1", min_players=players,
                    max_players=players, chance=chance, information="perfect",
                    utility="constant_sum", min_utility=0.0, max_utility=1.0,
                    num_distinct_actions=4, max_game_length=10,
                    options=(Option("num_players", players, "players", players, players),))


class Gamble(Game):
    info = info("gamble", 1, "explicit")
    ODDS = (0.7, 0.2)

    def max_game_length(self) -> int:
        return 2

    def new_initial_state(self) -> GambleState:
        return GambleState(self)


class GambleState(State):
    __slots__ = ("coin", "won")

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.coin: int | None = None
        self.won: bool | None = None

    def current_player(self) -> int:
        if self.won is not None:
            return TERMINAL
        return 0 if self.coin is None else CHANCE

    def chance_outcomes(self) -> list[tuple[int, float]]:
        p = Gamble.ODDS[self.coin or 0]
        return [(2, 1.0 - p), (3, p)]  # 2: lose, 3: win

    def legal_actions(self) -> list[int]:
        if self.coin is None:
            return [0, 1]
        return [] if self.won is not None else [2, 3]

    def illegal_reason(self, action: int) -> str | None:
        return None if action in self.legal_actions() else "not now"

    def _apply(self, action: int) -> None:
        if self.coin is None:
            self.coin = action
        else:
            self.won = action == 3

    def action_to_string(self, action: int) -> str:
        return ("coin 0", "coin 1", "lose", "win")[action]

    def action_to_dict(self, action: int) -> dict[str, Any]:
        return {"action": action}

    def returns(self) -> list[float]:
        return [1.0 if self.won else 0.0]

    def scores(self) -> list[float]:
        return self.returns()

    def clone(self) -> GambleState:
        new = GambleState(self._game)
        new._history = self._history[:]
        new.coin, new.won = self.coin, self.won
        return new


class Nim(Game):
    info = info("nim", 2, "none")

    def max_game_length(self) -> int:
        return 5

    def new_initial_state(self) -> NimState:
        return NimState(self)


class NimState(State):
    __slots__ = ("mover", "stones")

    def __init__(self, game: Game, stones: int = 5) -> None:
        super().__init__(game)
        self.stones, self.mover = stones, 0

    def current_player(self) -> int:
        return TERMINAL if self.stones == 0 else self.mover

    def legal_actions(self) -> list[int]:
        return [a for a in (1, 2) if a <= self.stones]

    def illegal_reason(self, action: int) -> str | None:
        return None if action in self.legal_actions() else "not that many"

    def _apply(self, action: int) -> None:
        self.stones -= action
        if self.stones:
            self.mover = 1 - self.mover

    def action_to_string(self, action: int) -> str:
        return f"take {action}"

    def action_to_dict(self, action: int) -> dict[str, Any]:
        return {"take": action}

    def returns(self) -> list[float]:
        if self.stones:
            return [0.0, 0.0]
        return [1.0, 0.0] if self.mover == 0 else [0.0, 1.0]

    def scores(self) -> list[float]:
        return self.returns()

    def _key(self) -> tuple[Any, ...]:
        return self.stones, self.mover

    def clone(self) -> NimState:
        new = NimState(self._game, self.stones)
        new._history = self._history[:]
        new.mover = self.mover
        return new


class Lock(Game):
    info = info("lock", 2, "none")
    CODE = (2, 3)

    def max_game_length(self) -> int:
        return 2

    def new_initial_state(self) -> LockState:
        return LockState(self)


class LockState(State):
    __slots__ = ()

    def current_player(self) -> int:
        return TERMINAL if len(self._history) == 2 else 0

    def legal_actions(self) -> list[int]:
        return [] if len(self._history) == 2 else [0, 1, 2, 3]

    def illegal_reason(self, action: int) -> str | None:
        return None if action in self.legal_actions() else "not a digit, or the lock is set"

    def _apply(self, action: int) -> None:
        pass  # the history is the whole state

    def action_to_string(self, action: int) -> str:
        return f"digit {action}"

    def action_to_dict(self, action: int) -> dict[str, Any]:
        return {"digit": action}

    def returns(self) -> list[float]:
        if len(self._history) < 2:
            return [0.0, 0.0]
        return [1.0, 0.0] if tuple(self._history) == Lock.CODE else [0.0, 1.0]

    def scores(self) -> list[float]:
        return self.returns()

    def _key(self) -> tuple[Any, ...]:
        return tuple(self._history)

    def clone(self) -> LockState:
        new = LockState(self._game)
        new._history = self._history[:]
        return new
