"""Mexica's moves told in words for the game log, in the reader's language.

`describe` reads the position *before* the move and plays the move on a copy to tell what it
brought about: points of a founding, action tokens spent, areas cut off, calpulli tiles leaving
the game, the scoring that ends a part. It only builds a message; `i18n.render` writes it in
English or Spanish. Squares are named as in the notation (`E6`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from tlatelolco.games.mexica import rules
from tlatelolco.games.mexica.actions import (
    K_BOAT,
    K_BRIDGE,
    K_BUILD,
    K_CANAL,
    K_DOUBLE,
    K_DRAW,
    K_END,
    K_MOVE_BRIDGE,
    K_START,
    K_TELEPORT,
    K_TOKEN,
    K_WALK,
    decode,
)
from tlatelolco.games.mexica.board import NAMES, NORTH_SOUTH, WEST_EAST
from tlatelolco.games.mexica.city import OVER, City
from tlatelolco.games.mexica.components import PART_ONE_TILES, TELEPORT_COST
from tlatelolco.games.mexica.movement import step_target
from tlatelolco.games.mexica.scoring import levels_by_area
from tlatelolco.i18n import N_, Message, N_n, Plural, Seat, Term

if TYPE_CHECKING:
    from tlatelolco.games.mexica.state import MexicaState

# in the order of board.DIRECTIONS (N, E, S, W)
DIRECTION_NAMES = (N_("north"), N_("east"), N_("south"), N_("west"))
AXIS_WORDS = {NORTH_SOUTH: N_("north–south"), WEST_EAST: N_("west–east")}


def points(n: int) -> Message:
    """Victory points: "1 point", "4 points"."""
    return Plural(N_n("{n} point", "{n} points"), n), {}


def listing(items: Sequence[Any]) -> Any:
    """Several fields read as one: "A", "A and B", "A, B and C" (each item a field value)."""
    if len(items) == 1:
        return items[0]
    if len(items) == 2:
        return N_("{first} and {second}"), {"first": items[0], "second": items[1]}
    return N_("{first}, {rest}"), {"first": items[0], "rest": listing(items[1:])}


def describe(state: MexicaState, action: int) -> Message:
    """`action` told as a log reads it, on `state` before the action is applied.

    An action that is not legal now is told by its notation: what it would bring about is not
    known, and the log only ever holds legal ones.
    """
    city = state.city
    if rules.why_illegal(city, action) is not None:
        return "{text}", {"text": state.action_to_string(action)}
    kind, a, b, c = decode(action)
    if kind == K_DRAW:
        return N_("Calpulli tile {size} was drawn for part 1 ({count} of {total})"), {
            "size": a, "count": sum(city.available) + 1, "total": PART_ONE_TILES}
    after = city.copy()  # what the action brings about, read off a copy
    rules.apply(after, action)
    message = _deed(city, after, kind, a, b, c)
    spent = city.tokens[city.player] - after.tokens[city.player]
    if spent > 0:
        message = Plural(N_n("{deed}, spending {n} action token",
                             "{deed}, spending {n} action tokens"), spent), {"deed": message}
    removed = after.removed[len(city.removed):]
    if removed and len(after.scorings) == len(city.scorings):
        message = _then(message, _leaving(removed))
    if len(after.scorings) > len(city.scorings):
        message = _then(message, _scoring(after))
    return message


def _then(first: Message, second: Message) -> Message:
    return N_("{first}. {second}"), {"first": first, "second": second}


def _deed(city: City, after: City, kind: int, a: int, b: int, c: int) -> Message:
    """What the mover did, with what it brought about at once."""
    seat = city.player
    player = Seat(seat)
    if kind == K_START:
        return N_("{player} placed their Mexica on the starting square {square}"), {
            "player": player, "square": NAMES[a]}
    if kind == K_END:
        return N_("{player} ended the turn"), {"player": player}
    if kind == K_TOKEN:
        return N_("{player} took an action token"), {"player": player}
    if kind == K_WALK:
        return _walk(city, player, a)
    if kind == K_BOAT:
        return N_("{player} went by boat to the bridge at {square} ({cost} AP)"), {
            "player": player, "square": NAMES[a], "cost": rules.cost(city, kind, a, b)}
    if kind == K_TELEPORT:
        fields = {"player": player, "square": NAMES[a], "cost": TELEPORT_COST}
        if city.bridge[a]:
            return N_("{player} teleported to the bridge at {square} ({cost} AP)"), fields
        return N_("{player} teleported to {square} ({cost} AP)"), fields
    if kind in (K_CANAL, K_DOUBLE):
        return _canal(city, after, player, kind, a, b)
    if kind == K_BRIDGE:
        return N_("{player} placed a bridge on {square} ({axis})"), {
            "player": player, "square": NAMES[a], "axis": Term(AXIS_WORDS[b])}
    if kind == K_MOVE_BRIDGE:
        return N_("{player} moved the bridge on {source} to {target} ({axis})"), {
            "player": player, "source": NAMES[a], "target": NAMES[b],
            "axis": Term(AXIS_WORDS[c])}
    if kind == K_BUILD:
        return _build(city, after, player, a, b)
    return _found(city, after, player, a, b)


def _walk(city: City, player: Seat, direction: int) -> Message:
    at = city.mexica[player.seat]
    target = step_target(city, at, direction)
    fields = {"player": player, "direction": Term(DIRECTION_NAMES[direction]),
              "square": NAMES[target]}
    if city.bridge[target]:
        return N_("{player} stepped {direction} onto the bridge at {square}"), fields
    if city.bridge[at]:
        return N_("{player} stepped {direction} off the bridge to {square}"), fields
    return N_("{player} walked {direction} to {square}"), fields


def _canal(city: City, after: City, player: Seat, kind: int, a: int, b: int) -> Message:
    """A canal tile, and the areas it cuts off (new areas: the old one keeps its id)."""
    deed: Message
    if kind == K_CANAL:
        deed = N_("{player} placed a canal tile on {square}"), {
            "player": player, "square": NAMES[a]}
    else:
        deed = N_("{player} placed a double canal tile on {first} and {second}"), {
            "player": player, "first": NAMES[a], "second": NAMES[b]}
    cut = after.area_size[len(city.area_size):]
    if len(cut) == 1:
        return Plural(N_n("{deed}, cutting off an area of {n} square",
                          "{deed}, cutting off an area of {n} squares"), cut[0]), {"deed": deed}
    if cut:
        return N_("{deed}, cutting off areas of {sizes} squares"), {
            "deed": deed, "sizes": listing(sorted(cut))}
    return deed


def _build(city: City, after: City, player: Seat, levels: int, square: int) -> Message:
    """A building; in a district, whether it brings its builder to the top of the standings."""
    deed = Plural(N_n("{player} built a building of {n} level at {square}",
                      "{player} built a building of {n} levels at {square}"), levels), {
        "player": player, "square": NAMES[square]}
    ident = city.area[square]
    tile = city.area_tile[ident]
    if not tile:
        return deed
    before = levels_by_area(city).get(ident, [0] * city.num_players)
    now = levels_by_area(after)[ident]
    seat = player.seat
    rivals = max(v for s, v in enumerate(now) if s != seat)  # the build changes only ours
    fields = {"deed": deed, "size": tile}
    if now[seat] > rivals and before[seat] <= rivals:
        return N_("{deed} and takes first place in district {size}"), fields
    if now[seat] == rivals:  # behind before: a building only adds levels
        return N_("{deed} and ties for first place in district {size}"), fields
    return N_("{deed} in district {size}"), fields


def _found(city: City, after: City, player: Seat, size: int, square: int) -> Message:
    """A founding: the founder's reward and the others present."""
    seat = player.seat
    deed = N_("{player} founded district {size} at {square} and scored {points}"), {
        "player": player, "size": size, "square": NAMES[square],
        "points": points(after.scores[seat] - city.scores[seat])}
    others = [s for s in range(city.num_players)
              if s != seat and after.scores[s] > city.scores[s]]
    if not others:
        return deed
    each = after.scores[others[0]] - city.scores[others[0]]
    return Plural(N_n("{deed}; {others}, also there, scored {points}",
                      "{deed}; {others}, also there, scored {points} each"), len(others)), {
        "deed": deed, "others": listing([Seat(s) for s in others]), "points": points(each)}


def _leaving(sizes: list[int]) -> Message:
    """Calpulli tiles no area can take any more (MX-10)."""
    return Plural(N_n("Calpulli tile {sizes} leaves the game: no area can take it",
                      "Calpulli tiles {sizes} leave the game: no area can take them"),
                  len(sizes)), {"sizes": listing(sorted(sizes))}


def _scoring(after: City) -> Message:
    """The scoring that ends a part, each seat's points, and the end of the game."""
    gains = listing([(N_("{player} +{n}"), {"player": Seat(s), "n": n})
                     for s, n in enumerate(after.scorings[-1])])
    if after.phase == OVER:
        return N_("Part 2 is over. Second scoring: {gains}. The game is over"), {"gains": gains}
    return N_("Part 1 is over. First scoring: {gains}. Part 2 begins"), {"gains": gains}


__all__ = ["AXIS_WORDS", "DIRECTION_NAMES", "describe", "listing", "points"]
