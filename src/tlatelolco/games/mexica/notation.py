"""Mexica's move notation: `canal K5-K6`, `bridge O7`, `walk N`, `boat to T6`, `teleport C3`,
`build 3 at D4`, `found 7 at E5`, `token`, `end`, and the set-up moves `start at I7` and
`draw calpulli 7`. Squares are named as on the board file (column letter, row number)."""

from __future__ import annotations

import re
from typing import Any

from tlatelolco.games.mexica import placement
from tlatelolco.games.mexica.actions import (
    BOAT,
    CANAL,
    DRAW,
    END,
    K_BOAT,
    K_BRIDGE,
    K_BUILD,
    K_CANAL,
    K_DOUBLE,
    K_DRAW,
    K_END,
    K_FOUND,
    K_MOVE_BRIDGE,
    K_START,
    K_TELEPORT,
    K_TOKEN,
    K_WALK,
    KINDS,
    NUM_ACTIONS,
    START,
    TELEPORT,
    TOKEN,
    WALK,
    bridge_action,
    build_action,
    decode,
    double_action,
    found_action,
    move_bridge_action,
)
from tlatelolco.games.mexica.board import (
    AXIS_NAMES,
    DIRECTIONS,
    NAMES,
    NEIGHBOURS,
    NORTH_SOUTH,
    WEST_EAST,
    parse_square,
)
from tlatelolco.games.mexica.city import City
from tlatelolco.games.mexica.components import SIZES

SQ = r"([a-w]\d{1,2})"
AXIS = r"(?:\s+(n-s|w-e|ns|we|ew|sn))?"
PATTERNS = {
    "end": re.compile(r"end(?: turn)?"),
    "token": re.compile(r"(?:take )?(?:action )?token"),
    "walk": re.compile(r"(?:walk|step|move) ([nesw])"),
    "start": re.compile(rf"start (?:at |on )?{SQ}"),
    "canal": re.compile(rf"canal {SQ}(?:\s*-\s*{SQ})?"),
    "bridge": re.compile(rf"bridge (?:at |on )?{SQ}{AXIS}"),
    "move_bridge": re.compile(rf"move bridge (?:from )?{SQ} to {SQ}{AXIS}"),
    "boat": re.compile(rf"boat (?:to )?{SQ}"),
    "teleport": re.compile(rf"teleport (?:to )?{SQ}"),
    "build": re.compile(rf"build ([1-4]) (?:at |on )?{SQ}"),
    "found": re.compile(rf"found (\d{{1,2}}) (?:at |on )?{SQ}"),
    "draw": re.compile(r"draw (?:calpulli )?(?:tile )?(\d{1,2})"),
}


def _axis_text(city: City, square: int, axis: int, lifted: int = -1) -> str:
    """The axis is written only when the square would allow both."""
    both = len(placement.bridge_axes(city, square, lifted)) == 2
    return f" {AXIS_NAMES[axis]}" if both else ""


def action_text(city: City, action: int) -> str:
    if not 0 <= action < NUM_ACTIONS:
        return f"<action {action!r} outside 0..{NUM_ACTIONS - 1}>"
    kind, a, b, c = decode(action)
    if kind == K_END:
        return "end"
    if kind == K_TOKEN:
        return "token"
    if kind == K_WALK:
        return f"walk {DIRECTIONS[a]}"
    if kind == K_START:
        return f"start at {NAMES[a]}"
    if kind == K_CANAL:
        return f"canal {NAMES[a]}"
    if kind == K_DOUBLE:
        if b >= len(NAMES) or b not in NEIGHBOURS[a]:  # an east edge or the south edge
            side = "east" if b == a + 1 else "south"
            return f"canal {NAMES[a]} and the square {side} of it (off the board)"
        return f"canal {NAMES[a]}-{NAMES[b]}"
    if kind == K_BRIDGE:
        return f"bridge {NAMES[a]}{_axis_text(city, a, b)}"
    if kind == K_MOVE_BRIDGE:
        return f"move bridge {NAMES[a]} to {NAMES[b]}{_axis_text(city, b, c, a)}"
    if kind == K_BOAT:
        return f"boat to {NAMES[a]}"
    if kind == K_TELEPORT:
        return f"teleport {NAMES[a]}"
    if kind == K_BUILD:
        return f"build {a} at {NAMES[b]}"
    if kind == K_FOUND:
        return f"found {a} at {NAMES[b]}"
    return f"draw calpulli {a}"


def action_dict(action: int) -> dict[str, Any]:
    if not 0 <= action < NUM_ACTIONS:
        raise ValueError(f"action {action!r} is outside 0..{NUM_ACTIONS - 1}")
    kind, a, b, c = decode(action)
    out: dict[str, Any] = {"kind": KINDS[kind]}
    if kind == K_WALK:
        out["direction"] = DIRECTIONS[a]
    elif kind in (K_START, K_CANAL, K_BOAT, K_TELEPORT):
        out["square"] = NAMES[a]
    elif kind == K_DOUBLE:
        out["squares"] = [NAMES[a], NAMES[b] if b < len(NAMES) else None]
    elif kind == K_BRIDGE:
        out.update(square=NAMES[a], axis=AXIS_NAMES[b])
    elif kind == K_MOVE_BRIDGE:
        out.update({"from": NAMES[a], "to": NAMES[b], "axis": AXIS_NAMES[c]})
    elif kind == K_BUILD:
        out.update(levels=a, square=NAMES[b])
    elif kind == K_FOUND:
        out.update(size=a, square=NAMES[b])
    elif kind == K_DRAW:
        out["size"] = a
    return out


def _axis(city: City, square: int, written: str | None, lifted: int = -1) -> int:
    if written:
        return NORTH_SOUTH if written in ("n-s", "ns", "sn") else WEST_EAST
    possible = placement.bridge_axes(city, square, lifted)
    return possible[0] if possible else NORTH_SOUTH


def parse(city: City, text: str) -> int | None:
    """The action named by normalised `text`, legal now or not; None if it names none."""
    for kind, pattern in PATTERNS.items():
        match = pattern.fullmatch(text)
        if match is not None:
            return _build(city, kind, match.groups())
    return None


def _build(city: City, kind: str, groups: tuple[str | None, ...]) -> int | None:
    if kind == "end":
        return END
    if kind == "token":
        return TOKEN
    if kind == "walk":
        return WALK + DIRECTIONS.index(str(groups[0]).upper())
    if kind == "draw":
        size = int(str(groups[0]))
        return DRAW + size - SIZES[0] if size in SIZES else None
    squares = [parse_square(g) for g in groups if g and g[0].isalpha() and g[1:2].isdigit()]
    if any(s is None for s in squares):
        return None
    sq: list[int] = [s for s in squares if s is not None]
    if kind == "start":
        return START + sq[0]
    if kind == "canal":
        if len(sq) == 1:
            return CANAL + sq[0]
        return double_action(*sq) if sq[1] in NEIGHBOURS[sq[0]] else None
    if kind == "bridge":
        return bridge_action(sq[0], _axis(city, sq[0], groups[-1]))
    if kind == "move_bridge":
        return move_bridge_action(sq[0], sq[1], _axis(city, sq[1], groups[-1], sq[0]))
    if kind == "boat":
        return BOAT + sq[0]
    if kind == "teleport":
        return TELEPORT + sq[0]
    number = int(str(groups[0]))
    if kind == "build":
        return build_action(number, sq[0])
    return found_action(number, sq[0]) if number in SIZES else None
