"""Mexica on the game contract: dispatch to the rules, notation, and the public view (MX-12)."""

from __future__ import annotations

from typing import Any

from tlatelolco.contract import Game, State
from tlatelolco.games.mexica import notation, rules, tensors, words
from tlatelolco.games.mexica.board import AXIS_NAMES, NAMES, ROWS
from tlatelolco.games.mexica.city import OVER, PHASE_NAMES, PLAYING, City
from tlatelolco.games.mexica.components import MAX_ROUNDS, SIZES
from tlatelolco.i18n import Message


class MexicaState(State):
    __slots__ = ("_c",)

    def __init__(self, game: Game, city: City | None = None) -> None:
        super().__init__(game)
        self._c = city if city is not None else rules.set_up(game.num_players())

    @property
    def city(self) -> City:
        """The position as plain data (read it; change it only through actions)."""
        return self._c

    def current_player(self) -> int:
        return rules.to_move(self._c)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return rules.draw_outcomes(self._c) if self.is_chance_node() else []

    def legal_actions(self) -> list[int]:
        return rules.legal_actions(self._c)

    def illegal_reason(self, action: int) -> str | None:
        return rules.why_illegal(self._c, action)

    def _apply(self, action: int) -> None:
        rules.apply(self._c, action)

    def action_to_string(self, action: int) -> str:
        return notation.action_text(self._c, action)

    def action_to_dict(self, action: int) -> dict[str, Any]:
        return notation.action_dict(action)

    def describe_action(self, action: int) -> Message:
        """The action in words for the log (see `words`), before it is applied."""
        return words.describe(self, action)

    def _parse_action(self, text: str) -> int | None:
        return notation.parse(self._c, text)

    def returns(self) -> list[float]:
        return rules.returns(self._c)

    def scores(self) -> list[float]:
        return [float(s) for s in self._c.scores]

    def clone(self) -> MexicaState:
        new = type(self).__new__(type(self))
        new._game = self._game
        new._history = self._history[:]
        new._c = self._c.copy()
        return new

    def observation(self, player: int) -> dict[str, Any]:
        """Everything is public (MX-12); the part-2 tiles are known by elimination."""
        self.check_seat(player)
        return view(self._c, self.current_player(), self.returns())

    def _write_observation_tensor(self, player: int, out: Any) -> None:
        tensors.write_observation(self._c, player, out)

    def _write_information_state_tensor(self, player: int, out: Any) -> None:
        tensors.write_information_state(self._c, self._history, player, out)

    def _key(self) -> tuple[Any, ...]:
        return (self._c.key(), tuple(self._history))


def _sizes(counts: list[int]) -> list[int]:
    return [size for size, n in zip(SIZES, counts, strict=True) for _ in range(n)]


def view(c: City, to_move: int, returns: list[float]) -> dict[str, Any]:
    """The whole position as JSON-ready data, the same for every seat."""
    squares = range(len(c.canal))
    members: dict[int, list[str]] = {}
    for square, ident in enumerate(c.area):
        if ident >= 0:
            members.setdefault(ident, []).append(NAMES[square])
    district_areas = [{"size": c.area_size[ident], "tile": c.area_tile[ident] or None,
                       "squares": names} for ident, names in members.items()]
    return {
        "game": "mexica",
        "phase": PHASE_NAMES[c.phase],
        "to_move": to_move,
        "part": c.part,
        "round": c.round,
        "last_round": MAX_ROUNDS,
        "idle_round": c.phase == PLAYING and c.idle,  # nobody has taken an action this round yet
        "turn_of": c.player,
        "ap": c.ap if c.phase == PLAYING else 0,
        "tokens_taken": c.taken,
        "first_turn": c.phase == PLAYING and rules.first_turn(c),
        "terrain": list(ROWS),
        "canals": [NAMES[s] for s in squares if c.canal[s]],
        "bridges": [{"square": NAMES[s], "axis": AXIS_NAMES[c.bridge[s]]}
                    for s in squares if c.bridge[s]],
        "buildings": [{"square": NAMES[s], "owner": c.owner_at(s), "levels": c.levels_at(s)}
                      for s in squares if c.building[s]],
        "calpulli": [{"square": NAMES[s], "size": c.tile[s]} for s in squares if c.tile[s]],
        "mexica": [NAMES[s] if s >= 0 else None for s in c.mexica],
        "areas": district_areas,
        "supply": {"single_canals": c.singles, "double_canals": c.doubles,
                   "bridges": c.bridges, "action_tokens": c.token_supply},
        "tokens": c.tokens[:],
        "buildings_left": [s[:] for s in c.supply],
        "buildings_part_two": [r[:] for r in c.reserve],
        # face down: not yet drawn while drawing, then part 2's tiles (known by elimination)
        "tiles": {"available": _sizes(c.available), "face_down": _sizes(c.face_down),
                  "removed": c.removed[:]},
        "scores": c.scores[:],
        "scorings": [s[:] for s in c.scorings],
        "terminal": c.phase == OVER,
        "returns": returns if c.phase == OVER else None,
    }
