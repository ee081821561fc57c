"""Axio's actions told in words for the game log (English message ids, see `tlatelolco.i18n`).

`describe` reads the state *before* the action, so a placement can say what it scores and
whether it makes a colour reach 12 (AXIO!). A draw names the tile drawn: the server shows a
seat's private draws only to that seat and a neutral line to everyone else (AX-6).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tlatelolco.games.axio import rules
from tlatelolco.games.axio.table import (
    DEAL,
    DRAW,
    DRAW_EXTRA,
    DRAW_STACK,
    NUM_ACTIONS,
    PLACING,
    START,
    START_CELLS,
    START_SQUARE,
    decode_place,
)
from tlatelolco.games.axio.tiles import COLOURS, EMPTY, Tile, turned
from tlatelolco.i18n import N_, Message, N_n, Plural, Seat, Term

if TYPE_CHECKING:
    from tlatelolco.games.axio.state import AxioState

# The colour words, by the engine's colour names (`tiles.COLOURS`).
COLOUR_WORDS = {"red": N_("red"), "green": N_("green"), "blue": N_("blue"),
                "orange": N_("orange"), "purple": N_("purple")}
# "a", "a and b", "a, b and c", ...: a list of 1 to 5 parts (colours, or points in colours)
LISTS = ("{a}", N_("{a} and {b}"), N_("{a}, {b} and {c}"), N_("{a}, {b}, {c} and {d}"),
         N_("{a}, {b}, {c}, {d} and {e}"))

# (a colour named for the empty corner, points scored) -> how a placement reads
PLACED = {
    (False, True): N_("{player} places {tile} at {cell}, {turn}, and scores {points}"),
    (False, False): N_("{player} places {tile} at {cell}, {turn}, and scores nothing"),
    (True, True): N_("{player} places {tile} at {cell}, {turn}, names {colour} for the empty "
                     "corner and scores {points}"),
    (True, False): N_("{player} places {tile} at {cell}, {turn}, names {colour} for the empty "
                      "corner and scores nothing"),
}


def describe(state: AxioState, action: int) -> Message:
    """`action` in words, on `state` before it is applied; the notation when it makes no sense
    in this state (an illegal action is never logged, but describing one must not fail)."""
    t = state.table
    if START <= action < NUM_ACTIONS and t.phase == START_SQUARE and len(t.cells) < 4:
        return _start(state, *divmod(action - START, 4))
    if DRAW <= action < START and t.phase in (DEAL, DRAW_STACK, DRAW_EXTRA):
        return _draw(state, action - DRAW)
    if 0 <= action < DRAW and t.phase == PLACING and t.hands[t.player] >= 0:
        return _place(state, action)
    return "{text}", {"text": state.action_to_string(action)}


def _start(state: AxioState, tile: int, rotation: int) -> Message:
    t = state.table
    corners = state.tiles[tile]
    if EMPTY in corners:  # AX-2: its empty corner is turned to the centre of the square
        turn: Message = (N_("its empty corner turned to the centre"), {})
    else:
        turn = _turn(rotation)
    return (N_("The start square gets {tile} at {cell}, {turn}"),
            {"tile": tile_words(corners), "cell": _cell(*START_CELLS[len(t.cells)]),
             "turn": turn})


def _draw(state: AxioState, tile: int) -> Message:
    t = state.table
    fields = {"player": Seat(t.player), "tile": tile_words(state.tiles[tile])}
    if t.phase == DEAL:
        return N_("{player} draws a first tile from their stack: {tile}"), fields
    if t.phase == DRAW_EXTRA:
        return (N_("{player} draws a tile from the general supply for an extra turn: {tile}"),
                fields)
    return N_("{player} draws a tile from their stack: {tile}"), fields


def _place(state: AxioState, action: int) -> Message:
    t = state.table
    seat = t.player
    x, y, rotation, name = decode_place(action)
    drawn = state.tiles[t.hands[seat]]
    corners = turned(drawn, rotation)
    named = name - 1 if name else EMPTY
    points = rules.placement_points(t, state.tiles, (x, y), corners, named)
    after, reached = rules.add_points(t.scores[seat], points)
    gained = [(colour, now - before) for colour, (before, now)
              in enumerate(zip(t.scores[seat], after, strict=True)) if now > before]
    fields: dict[str, Any] = {"player": Seat(seat), "tile": tile_words(drawn),
                              "cell": _cell(x, y), "turn": _turn(rotation)}
    if gained:
        fields["points"] = _listed([(Plural(N_n("{n} point in {colour}", "{n} points in {colour}"),
                                            n), {"colour": _colour(c)}) for c, n in gained])
    naming = EMPTY in drawn and name > 0
    if naming:
        fields["colour"] = _colour(named)
    move: Message = PLACED[naming, bool(gained)], fields
    if t.in_extra:
        move = N_("Extra turn: {move}"), {"move": move}
    return _axio(move, reached, t.supply_left > 0) if reached else move


def _axio(move: Message, reached: list[int], supply: bool) -> Message:
    """`move`, then the colours it takes to 12 (AXIO!), and whether an extra turn can follow."""
    fields = {"move": move, "colours": _listed([_colour(c) for c in reached])}
    if supply:
        return Plural(N_n("{move}. AXIO! {colours} reaches 12", "{move}. AXIO! {colours} reach 12"),
                      len(reached)), fields
    return Plural(N_n("{move}. AXIO! {colours} reaches 12, but the general supply is empty: "
                      "no extra turn",
                      "{move}. AXIO! {colours} reach 12, but the general supply is empty: "
                      "no extra turns"), len(reached)), fields


def tile_words(corners: Tile) -> Message:
    """A tile as the notation shows it, red/green/blue/–, with the colours translated."""
    names = {key: "–" if c == EMPTY else _colour(c) for key, c in zip("abcd", corners,
                                                                        strict=True)}
    return "{a}/{b}/{c}/{d}", names


def _turn(rotation: int) -> Message:
    if rotation == 0:
        return N_("not turned"), {}
    return N_("turned {degrees}° clockwise"), {"degrees": rotation * 90}


def _cell(x: int, y: int) -> str:
    return f"({x},{y})"


def _colour(colour: int) -> Term:
    return Term(COLOUR_WORDS[COLOURS[colour]])


def _listed(parts: list[Any]) -> Message:
    """1 to 5 parts (messages or terms) as one list: "a, b and c"."""
    return LISTS[len(parts) - 1], dict(zip("abcde", parts, strict=False))


__all__ = ["COLOUR_WORDS", "describe", "tile_words"]
