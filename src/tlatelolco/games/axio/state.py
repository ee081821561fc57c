"""Axio on the game contract: dispatch, notation and per-seat views of hidden hands (AX-6)."""

from __future__ import annotations

import json
import random
import re
from typing import Any

from tlatelolco.contract import Game, State, shared_victory
from tlatelolco.games.axio import rules, tensors, words
from tlatelolco.games.axio.table import (
    DRAW,
    NUM_ACTIONS,
    OFFSET,
    OVER,
    PLACE,
    PLACING,
    START,
    START_SQUARE,
    Table,
    decode_place,
    place_action,
)
from tlatelolco.games.axio.tiles import COLOURS, EMPTY, Tile, tile_text, turned
from tlatelolco.i18n import N_, Message, Reason, reason

# The notation arrives normalised (lower case, single spaces), so a space is ` ?`, and every
# repeat is bounded: a pattern matches at most a few dozen characters, so it gives up on any
# longer text after a bounded amount of work. (With `y` and `rot` as unbounded digit runs next to
# each other, 12 KB of digits that were not a move took seconds: every split was tried.)
PLACE_PATTERN = re.compile(
    r"(?:place ?(?:at ?)?)?\(? ?(?P<x>-?\d{1,4}) ?, ?(?P<y>-?\d{1,4}) ?\)? ?"
    r"(?:rot ?)?(?P<rot>\d{1,3}) ?(?:(?:empty ?= ?)?(?P<colour>[a-z]{1,6}))?")


PHASE_NAMES = ("start square", "first hands", "placing", "extra draw", "stack draw", "over")
CHANCE_PATTERN = re.compile(
    r"(?P<kind>draw|start) tile (?P<tile>\d{1,3})(?: \([^)]{0,40}\))?(?: rot (?P<rot>\d{1,3}))?")


class AxioState(State):
    __slots__ = ("_t", "_tiles")

    def __init__(self, game: Game, tiles: tuple[Tile, ...], table: Table | None = None) -> None:
        super().__init__(game)
        self._tiles = tiles
        self._t = table if table is not None else rules.set_up(game.num_players())

    @property
    def table(self) -> Table:
        """The position as plain data (read it; change it only through actions)."""
        return self._t

    @property
    def tiles(self) -> tuple[Tile, ...]:
        """The game's tile set (public: the option it was loaded with)."""
        return self._tiles

    def current_player(self) -> int:
        return rules.to_move(self._t)

    def is_chance_node(self) -> bool:
        return self._t.phase not in (PLACING, OVER)

    def is_terminal(self) -> bool:
        return self._t.phase == OVER

    def chance_outcomes(self) -> list[tuple[int, float]]:
        t = self._t
        if t.phase == START_SQUARE:
            return rules.start_outcomes(t, self._tiles)
        uniform = self.uniform_chance_outcomes()
        if uniform is None:
            return []
        draws, p = uniform
        return [(action, p) for action in draws]

    def uniform_chance_outcomes(self) -> tuple[list[int], float] | None:
        """A draw into a hand: every unseen tile alike (the start square turns some tiles)."""
        t = self._t
        if t.phase in (START_SQUARE, PLACING, OVER):
            return None
        return [DRAW + tile for tile in sorted(t.pool)], 1.0 / len(t.pool)

    def legal_actions(self) -> list[int]:
        t = self._t
        if t.phase == PLACING:
            return rules.legal_placements(t, self._tiles)
        if t.phase == OVER:
            return []
        return [a for a, _ in self.chance_outcomes()]

    def illegal_reason(self, action: int) -> Reason | None:
        t = self._t
        if not 0 <= action < NUM_ACTIONS:
            return reason(N_("actions are numbered 0 to {last}"), last=NUM_ACTIONS - 1)
        if t.phase == OVER:
            return reason(N_("the game is over"))
        if t.phase != PLACING:
            return self._impossible_outcome(action)
        if action >= DRAW:
            return reason(N_("a tile must be placed now"))
        x, y, _, name = decode_place(action)
        return rules.why_cannot_place(t, self._tiles, x, y, name)

    def _impossible_outcome(self, action: int) -> Reason | None:
        """A chance action is legal only as a tile (and turn) that the draw can still give."""
        t = self._t
        if t.phase == START_SQUARE:
            if action < START:
                return reason(N_("the start square is being laid out"))
            tile, rotation = divmod(action - START, 4)
            forced = rules.start_rotation(self._tiles[tile], len(t.cells))
            possible = tile in t.pool and forced in (None, rotation)
        else:
            possible = DRAW <= action < START and action - DRAW in t.pool
        return None if possible else reason(N_("that is not a possible outcome of this draw"))

    def _apply(self, action: int) -> None:
        t = self._t
        if action >= START:
            rules.lay_start_tile(t, *divmod(action - START, 4))
        elif action >= DRAW:
            rules.draw(t, action - DRAW)
        else:
            rules.place(t, self._tiles, *decode_place(action))
        t.history_len += 1

    # --- notation ----------------------------------------------------------------------------
    def action_to_string(self, action: int) -> str:
        if PLACE <= action < DRAW:
            return place_text(action)
        if DRAW <= action < START:
            tile = action - DRAW
            return f"draw tile {tile} ({tile_text(self._tiles[tile])})"
        if START <= action < NUM_ACTIONS:
            tile, rotation = divmod(action - START, 4)
            return f"start tile {tile} ({tile_text(self._tiles[tile])}) rot {rotation * 90}"
        return f"<action {action!r} outside 0..{NUM_ACTIONS - 1}>"

    def describe_action(self, action: int) -> Message:
        """`action` in words for the log (see `words`), on this state before it is applied."""
        return words.describe(self, action)

    def action_aliases(self, action: int) -> tuple[str, ...]:
        if PLACE <= action < DRAW:
            x, y, rotation, name = decode_place(action)
            short = f"({x},{y}) {rotation * 90}" + (f" {COLOURS[name - 1]}" if name else "")
            return (short, f"{x},{y} {rotation * 90}" + (f" {COLOURS[name - 1]}" if name else ""))
        return ()

    def _parse_action(self, text: str) -> int | None:
        """`place at (x,y) rot R [empty=colour]` or a short form, whatever is legal now."""
        chance = CHANCE_PATTERN.fullmatch(text)
        if chance is not None:
            tile = int(chance["tile"])
            if tile >= len(self._tiles):
                return None
            if chance["kind"] == "draw":
                return DRAW + tile
            degrees = int(chance["rot"] or -1)
            return START + tile * 4 + degrees // 90 if degrees in (0, 90, 180, 270) else None
        match = PLACE_PATTERN.fullmatch(text)
        if match is None:
            return None
        x, y, degrees, colour = match["x"], match["y"], int(match["rot"]), match["colour"]
        if degrees % 90 or not 0 <= degrees < 360 or (colour and colour not in COLOURS):
            return None
        if not all(-OFFSET <= int(v) <= OFFSET + 1 for v in (x, y)):
            return None
        name = COLOURS.index(colour) + 1 if colour else 0
        return place_action(int(x), int(y), degrees // 90, name)

    def action_to_dict(self, action: int) -> dict[str, Any]:
        if PLACE <= action < DRAW:
            x, y, rotation, name = decode_place(action)
            return {"kind": "place", "x": x, "y": y, "rotation": rotation * 90,
                    "empty": COLOURS[name - 1] if name else None}
        if DRAW <= action < START:
            return {"kind": "draw", "tile": action - DRAW}
        if START <= action < NUM_ACTIONS:
            tile, rotation = divmod(action - START, 4)
            return {"kind": "start", "tile": tile, "rotation": rotation * 90}
        raise ValueError(f"action {action!r} is outside 0..{NUM_ACTIONS - 1}")

    # --- results and views -------------------------------------------------------------------
    def returns(self) -> list[float]:
        if self._t.phase != OVER:
            return [0.0] * self._t.num_players
        return shared_victory([rules.ranking_key(s) for s in self._t.scores])

    def scores(self) -> list[float]:
        """Each player's result: their lowest colour (AX-5)."""
        return [float(min(s)) for s in self._t.scores]

    def clone(self) -> AxioState:
        new = type(self).__new__(type(self))
        new._game = self._game
        new._history = self._history[:]
        new._tiles = self._tiles
        new._t = self._t.copy()
        return new

    def observation(self, player: int) -> dict[str, Any]:
        """The display and the score boards are public; only your own hand tile is shown (AX-6).

        Other seats' hands appear only as whether they hold a tile: their tiles are absent, not
        merely flagged.
        """
        self.check_seat(player)
        t, tiles = self._t, self._tiles
        hand = t.hands[player]
        return {
            "game": "axio",
            "to_move": self.current_player(),
            "turn_of": t.player,
            "phase": PHASE_NAMES[t.phase],
            "display": [
                {"x": x, "y": y, "tile": tile, "rotation": rotation * 90,
                 "corners": [None if c == EMPTY else COLOURS[c]
                             for c in turned(tiles[tile], rotation)]}
                for (x, y), (tile, rotation) in sorted(t.cells.items())],
            "hand": None if hand < 0 else {
                "tile": hand, "corners": [None if c == EMPTY else COLOURS[c]
                                          for c in tiles[hand]]},
            "holding": [h >= 0 for h in t.hands],
            "scores": [dict(zip(COLOURS, s, strict=True)) for s in t.scores],
            "stacks": t.stack_left[:],
            "supply": t.supply_left,
            "placed_from_stack": t.placed_from_stack[:],
            "extra_turns_pending": t.extra_pending,
            "extra_turn": t.in_extra,
            "terminal": t.phase == OVER,
            "returns": self.returns() if t.phase == OVER else None,
        }

    def public_observation(self) -> dict[str, Any]:
        """A spectator sees what every seat sees: no hand tile at all (AX-6)."""
        view = self.observation(0)
        view["hand"] = None
        return view

    def hidden_steps(self, player: int) -> frozenset[int]:
        """Other seats' draws into their hands (AX-6)."""
        self.check_seat(player)
        return frozenset(step for step, seat in self._t.private_draws if seat != player)

    def public_hidden_steps(self) -> frozenset[int]:
        """Every draw into a hand, even in a solo game."""
        return frozenset(step for step, _ in self._t.private_draws)

    def information_state_string(self, player: int) -> str:
        """What `player` has seen: the history with other seats' draws hidden, and the view."""
        return super().information_state_string(player) + "|" + json.dumps(
            self.observation(player), sort_keys=True)

    def resample_from_infostate(self, player: int, rng: random.Random) -> AxioState:
        """Deal the other seats' unseen hand tiles afresh from every tile `player` has not seen."""
        self.check_seat(player)
        new = self.clone()
        t = new._t
        others = [s for s in range(t.num_players) if s != player and t.hands[s] >= 0]
        # sorted first: the draw must depend only on what `player` knows, not on which unseen
        # tile really is where (ISMCTS relies on it)
        unseen = sorted(t.pool + [t.hands[s] for s in others])
        rng.shuffle(unseen)
        for seat in others:
            tile = unseen.pop()
            t.hands[seat] = tile
            if 0 <= t.hand_step[seat] < len(new._history):  # a built position has no history
                new._history[t.hand_step[seat]] = DRAW + tile
        t.pool = unseen
        return new

    def _write_observation_tensor(self, player: int, out: Any) -> None:
        tensors.write_observation(self._t, self._tiles, player, out)

    def _write_information_state_tensor(self, player: int, out: Any) -> None:
        tensors.write_information_state(self._t, self._tiles, self._history, player, out)

    def _key(self) -> tuple[Any, ...]:
        return (self._t.key(), tuple(self._history))


def place_text(action: int) -> str:
    """A placement in notation without a state (for logs and tests)."""
    x, y, rotation, name = decode_place(action)
    text = f"place at ({x},{y}) rot {rotation * 90}"
    return text + (f" empty={COLOURS[name - 1]}" if name else "")


__all__ = ["AxioState", "place_text"]
