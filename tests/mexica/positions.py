"""Hand-built Mexica positions for rule tests, every piece named by its square (`K5`).

The island as printed (rows 1..16 top to bottom, columns A..W left to right):

        ABCDEFGHIJKLMNOPQRSTUVW
      1 ~~~~~~~~~~~~~~~~~~~~~~~
      2 ~~.~~~.....~~~~~~~~~~~~
      3 ~~...........~~~~~~~~~~
      4 ~............~~~~~~~~~~
      5 ~..............~~~~~~~~
      6 ~~...............~~~~~~
      7 ~~......S......C...~..~
      8 ~~.....SXS.....C......~
      9 ~~......S......C......~
     10 ~~~............C.....~~
     11 ~~................~~~~~
     12 ~...............~~~~~~~
     13 ~.............~~~~~~~~~
     14 ~...........~~~~~~~~~~~
     15 ~~~....~~..~~~~~~~~~~~~
     16 ~~~~~~~~~~~~~~~~~~~~~~~

`S` are the starting squares I7, H8, J8, I9 around the coat of arms I8; `C` the started canal
P7-P10 (covered at set-up). `position` starts from `rules.set_up`, puts the pieces down, and
recomputes everything derived (areas, bridge ends, occupied squares) with `rules.derive`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import tlatelolco
from tlatelolco.contract import normalise
from tlatelolco.games.mexica import MexicaState, rules
from tlatelolco.games.mexica.board import NAMES, NORTH_SOUTH, STARTING, WEST_EAST, parse_square
from tlatelolco.games.mexica.city import PLAYING, City
from tlatelolco.games.mexica.components import BRIDGES, SIZES

NS, WE = NORTH_SOUTH, WEST_EAST
AXES = {"N-S": NORTH_SOUTH, "W-E": WEST_EAST}

# A small corner area: canals at E3 and C4-D4 cut off C2, C3, D3 (3 squares).
CORNER_3_CANALS = ("E3", "C4", "D4")
CORNER_3 = {"C2", "C3", "D3"}
# Canals at E3-E4, B4 and C5-D5 cut off C2, C3, D3, C4, D4 (5 squares).
CORNER_5_CANALS = ("E3", "E4", "B4", "C5", "D5")
CORNER_5 = {"C2", "C3", "D3", "C4", "D4"}
# The ring of 8 squares around the palace: inside it an area of the 5 palace squares only.
PALACE_RING = ("I6", "H7", "J7", "G8", "K8", "H9", "J9", "I10")
# Two canal squares on the coast, each touching the lake on one side and taking a bridge N-S:
# D10 (the lake C10 to its west) and V8 (the lake W8 to its east). Bridges go only on canals
# (MX-6), but the lake joins every canal it touches into one body of water (MX-7).
COAST = ("D10", "V8")
# Eleven bridges (all of them), none next to another: nine W-E and the two on the coast, each on
# a single canal tile.
ELEVEN_CANALS = ("E4", "H4", "K4", "E12", "H12", "K12", "N10", "F6", "L7", *COAST)
ELEVEN = {**{name: WEST_EAST for name in ELEVEN_CANALS[:9]},
          **{name: NORTH_SOUTH for name in COAST}}


def sq(name: str) -> int:
    square = parse_square(name)
    assert square is not None, name
    return square


def names(squares: Iterable[int]) -> set[str]:
    return {NAMES[s] for s in squares}


def position(num_players: int = 2, *, mexica: Iterable[str] | None = None,
             canals: Iterable[str] = (), bridges: Mapping[str, int] | None = None,
             buildings: Mapping[str, tuple[int, int]] | None = None,
             tiles: Mapping[str, int] | None = None, available: Iterable[int] = (),
             first_turn: bool = False, **fields: Any) -> City:
    """A position in play, seat 0 to move with 6 AP, past everyone's first turn (unless
    `first_turn`): Mexica on `mexica` (default: the starting squares in order), canal tiles on
    `canals` (besides the started canal), `bridges` as {square: axis} (on those canals),
    `buildings` as {square: (owner, levels)} (taken from the owner's supply), calpulli `tiles`
    as {square: size}, and this part's unused tiles `available` (sizes; the rest stay face
    down). Any other City field is set as given, after all that."""
    c = rules.set_up(num_players)
    c.phase, c.player, c.ap = PLAYING, 0, 6
    c.turns = [0 if first_turn else 1] * num_players
    places = list(mexica) if mexica is not None else [NAMES[s] for s in STARTING[:num_players]]
    assert len(places) == num_players
    c.mexica = [sq(p) for p in places]
    for name in canals:
        c.canal[sq(name)] = 1
    for name, axis in (bridges or {}).items():
        assert c.canal[sq(name)], f"a bridge on {name} needs a canal there (MX-6)"
        c.bridge[sq(name)] = axis
    c.bridges = BRIDGES - len(bridges or {})
    for name, (owner, levels) in (buildings or {}).items():
        c.building[sq(name)] = owner * 4 + levels
        stock = c.supply[owner] if c.supply[owner][levels - 1] else c.reserve[owner]
        stock[levels - 1] = max(0, stock[levels - 1] - 1)
    for name, size in (tiles or {}).items():
        c.tile[sq(name)] = size
        index = size - SIZES[0]
        c.face_down[index] = max(0, c.face_down[index] - 1)
    for size in available:
        c.face_down[size - SIZES[0]] -= 1
        c.available[size - SIZES[0]] += 1
    for name, value in fields.items():
        assert hasattr(c, name), name
        setattr(c, name, value)
    rules.derive(c)
    return c


def scored_city(more: dict[str, tuple[int, int]] | None = None, **fields: object) -> City:
    """A founded district of 5 (C2 tile) with buildings of all three seats, and the rest of
    the island unfounded with a building of seat 1 (and `more`); no Mexica on a starting
    square."""
    built = {"C3": (0, 3), "D3": (1, 2), "C4": (2, 1), "M5": (1, 4), **(more or {})}
    return position(3, canals=CORNER_5_CANALS, tiles={"C2": 5}, mexica=("K5", "K6", "K7"),
                    buildings=built, **fields)  # type: ignore[arg-type]


def state_at(c: City) -> MexicaState:
    game = tlatelolco.load("mexica", num_players=c.num_players)
    return game.state_from_position(c)  # type: ignore[return-value]


def act(state: tlatelolco.State, text: str) -> int:
    """The action `text` names, legal now or not."""
    action = state.parse_action(normalise(text))
    assert action is not None, text
    return action


def play(state: tlatelolco.State, *texts: str) -> None:
    """Apply moves given in notation, each of which must be legal."""
    for text in texts:
        state.apply_action(state.string_to_action(text))


def area_of(c: City, name: str) -> set[str]:
    """The names of the squares in the area of `name` (empty for water)."""
    ident = c.area[sq(name)]
    return {NAMES[s] for s, a in enumerate(c.area) if a == ident} if ident >= 0 else set()


def partition(c: City) -> list[frozenset[int]]:
    """The areas as sets of squares, in a canonical order (ids ignored)."""
    groups: dict[int, set[int]] = {}
    for square, ident in enumerate(c.area):
        if ident >= 0:
            groups.setdefault(ident, set()).add(square)
    return sorted((frozenset(g) for g in groups.values()), key=min)
