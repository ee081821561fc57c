"""What a Mexica seat sees, as the flat `float32` vectors reinforcement learning takes.

Mexica hides nothing (MX-12): every seat sees the whole island, every supply and every score;
the calpulli tiles set aside for part 2 lie face down but are known by elimination. The engine
draws part 1's eight tiles one by one at explicit chance nodes, so no state ever holds a secret.
A seat's observation is therefore the whole position, told from its own chair: its own pieces
first, then its rivals' in turn order after it. The information state adds what the current
view has forgotten: the order of the set-up draws, where each Mexica started, how long part 1
lasted and what each seat did in its turns. docs/tensors/mexica.md describes every section, its
range and its scale.

Everything here reads the plain data of `City` and writes into a zero vector laid out by
`observation_layout` / `information_state_layout`. It is the hot path of RL environments, so
each section is written with a few NumPy calls from tables built once per player count. NumPy
is imported only when a tensor is made (the `rl` extra): the games import this module.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from tlatelolco.games.mexica.actions import (
    BOAT,
    BRIDGE,
    BUILD,
    CANAL,
    DOUBLE,
    DRAW,
    END,
    FOUND,
    K_BOAT,
    K_BRIDGE,
    K_CANAL,
    K_DOUBLE,
    K_END,
    K_FOUND,
    K_MOVE_BRIDGE,
    K_TELEPORT,
    K_TOKEN,
    K_WALK,
    KINDS,
    MOVE_BRIDGE,
    START,
    TELEPORT,
    TOKEN,
    WALK,
)
from tlatelolco.games.mexica.board import (
    COAT_OF_ARMS,
    HEIGHT,
    IS_LAKE,
    IS_ORDINARY,
    LAND_SQUARES,
    NUM_SQUARES,
    STARTING,
    WIDTH,
)
from tlatelolco.games.mexica.city import DRAWING, OVER, PLAYING, City
from tlatelolco.games.mexica.components import (
    ACTION_TOKENS,
    AP_PER_TURN,
    BRIDGES,
    BUILDINGS,
    DOUBLE_CANALS,
    DOUBLES_AT_SET_UP,
    MAX_ROUNDS,
    PART_ONE_TILES,
    PART_TWO_BUILDINGS,
    SINGLE_CANALS,
    SIZES,
    TELEPORT_COST,
    TILE_COUNTS,
    TOKENS_PER_TURN,
)
from tlatelolco.games.mexica.rules import first_turn, returns
from tlatelolco.tensors import Layout, numpy

N = NUM_SQUARES
TILES = len(SIZES)  # tile sizes 3..13, one-hot columns by size - 3
TILE_TOTAL = sum(TILE_COUNTS.values())  # 15: at most this many tiles are ever removed
PHASES = 4  # city.DRAWING, PLACING, PLAYING, OVER
BIGGEST_TILE = SIZES[-1]
ISLAND = len(LAND_SQUARES)  # 196 dry squares: no area is ever bigger
# No seat ever reaches this many points: every founding reward (the middle numbers, 57), first
# place everywhere at both scorings (8 part-1 districts <= 76, then the island <= 196) and the
# starting-square bonus twice. Scores and scorings are divided by it.
POINTS = 350

# The dense numbers that follow the one-hot sections, in layout order, and what divides each.
TURN_SCALES = (MAX_ROUNDS, AP_PER_TURN, TOKENS_PER_TURN, 1, 1)  # round, ap, taken, idle, first
SUPPLY_SCALES = (SINGLE_CANALS, DOUBLE_CANALS - DOUBLES_AT_SET_UP, BRIDGES, ACTION_TOKENS)
TILE_SCALES = tuple(TILE_COUNTS[size] for size in SIZES)

# What each seat did in its turns, as the information state recalls it (MX-4 ... MX-9), and
# the most it can do in a game: a seat has at most 80 turns of 6 AP (taking a token costs the AP
# it later gives back), every such action costs at least 1 AP (a teleport 5), at most 2 tokens
# are taken a turn, and the box holds 6 single and 35 free double canals, 11 bridges, 15 tiles.
TURNS = 2 * MAX_ROUNDS
SEAT_AP = AP_PER_TURN * TURNS
EVENTS = ((K_TOKEN, TOKENS_PER_TURN * TURNS), (K_WALK, SEAT_AP), (K_BOAT, SEAT_AP),
          (K_TELEPORT, SEAT_AP // TELEPORT_COST), (K_CANAL, SINGLE_CANALS),
          (K_DOUBLE, DOUBLE_CANALS - DOUBLES_AT_SET_UP), (K_BRIDGE, BRIDGES),
          (K_MOVE_BRIDGE, SEAT_AP), (K_FOUND, TILE_TOTAL))
# The first action of each kind, in the order of `actions.KINDS` (as `actions.decode` sorts
# them): the kind of an action is that of the last bound at or below it.
KIND_BOUNDS = (END, TOKEN, WALK, START, CANAL, DOUBLE, BRIDGE, MOVE_BRIDGE, BOAT, TELEPORT,
               BUILD, FOUND, DRAW)


def seat_sections(players: int) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """The observation's sections: board planes (16 rows x 23 columns), then one-hots, then the
    scaled counts; a section with a leading `players` axis has the observer's row first."""
    p, h, w = players, HEIGHT, WIDTH
    return (
        ("terrain", (4, h, w)),  # lake, ordinary land, starting square, coat of arms (MX-1)
        ("canals", (h, w)),  # MX-5
        ("bridges", (2, h, w)),  # N-S, W-E axis (MX-6)
        ("calpulli", (h, w)),  # tile size / 13 (MX-9)
        ("mexica", (p, h, w)),  # MX-7
        ("buildings", (p, h, w)),  # levels / 4 (MX-8)
        ("area_size", (h, w)),  # size of the square's area / 196 (MX-3)
        ("districts", (h, w)),  # tile size / 13 on every square of a district (MX-9)
        ("foundable", (h, w)),  # unfounded area whose size has a tile this part (MX-9)
        ("mexica_area", (p, h, w)),  # the area each Mexica stands in (MX-8, MX-9)
        ("seat", (p,)),  # the observer's absolute seat
        ("to_move", (p,)),  # relative seat to move; none at a chance node or the end
        ("phase", (PHASES,)),
        ("part", (2,)),  # MX-10
        ("tiles_removed", (TILE_TOTAL, TILES)),  # in the order they left the game (MX-10)
        ("turn", (len(TURN_SCALES),)),  # round, AP, tokens taken, idle round, first turn
        ("supply", (len(SUPPLY_SCALES),)),  # single and double canals, bridges, tokens
        ("tiles_available", (TILES,)),  # this part's tiles still to found, by size
        ("tiles_face_down", (TILES,)),  # not yet drawn, then part 2's set (MX-2, MX-12)
        ("scores", (p,)),
        ("scorings", (2, p)),  # points at the first and second scoring (MX-11)
        ("tokens", (p,)),  # action tokens held (MX-4)
        ("buildings_left", (p, 4)),  # may be built now, by levels 1..4 (MX-1)
        ("buildings_part_two", (p, 4)),  # not yet released (MX-10)
        ("returns", (p,)),  # the game's returns, at the end only
    )


def recall_sections(players: int) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """What the information state adds: set-up and part 1 as the seat saw them happen."""
    return (
        ("recall_draws", (PART_ONE_TILES, TILES)),  # the k-th set-up draw's size (MX-2)
        ("recall_starts", (players, len(STARTING))),  # each Mexica's starting square (MX-2)
        ("recall_part_one", (1,)),  # rounds part 1 lasted / 40, once it is over (MX-10)
        ("recall_events", (players, len(EVENTS))),  # what each seat did in its turns
    )


@cache
def observation_layout(players: int) -> Layout:
    return Layout(seat_sections(players))


@cache
def information_state_layout(players: int) -> Layout:
    """The observation's sections at the same offsets, then the recall."""
    return Layout(seat_sections(players) + recall_sections(players))


@dataclass(frozen=True, slots=True)
class Tables:
    """Everything about a player count that does not change during a game."""

    players: int
    at: dict[str, int]  # section offsets (the same in both layouts)
    end: int  # where the observation ends
    order: tuple[tuple[int, ...], ...]  # order[p]: absolute seats as p sees them, p first
    terrain: Any  # the constant terrain planes
    bridge_planes: Any  # (2, 3): a square's bridge byte -> its N-S and W-E planes
    tile_plane: Any  # (14,): a square's tile byte -> size / 13
    building_planes: tuple[Any, ...]  # [p] (players, 4 players + 1): building byte -> levels
    # / 4 in its owner's row as p sees the seats
    scale: Any  # divides the dense counts, from "turn" to "returns"
    kind_bounds: Any  # KIND_BOUNDS as an array, to sort actions into kinds
    event_column: Any  # by kind: its column in recall_events, or one past them (not counted)
    event_scale: Any  # divides recall_events' columns


@cache
def tables(players: int) -> Tables:
    np = numpy()
    layout = information_state_layout(players)
    terrain = np.zeros((4, N), np.float32)
    for square in range(N):
        kind = (0 if IS_LAKE[square] else 1 if IS_ORDINARY[square]
                else 3 if square == COAT_OF_ARMS else 2)
        terrain[kind, square] = 1.0
    bridge_planes = np.array([[0, 1, 0], [0, 0, 1]], np.float32)
    tile_plane = np.array([size / BIGGEST_TILE for size in range(BIGGEST_TILE + 1)], np.float32)
    order = tuple(tuple((p + k) % players for k in range(players)) for p in range(players))
    building_planes = []
    for seats in order:
        planes = np.zeros((players, 4 * players + 1), np.float32)
        for value in range(1, 4 * players + 1):
            owner, levels = divmod(value - 1, 4)
            planes[seats.index(owner), value] = (levels + 1) / 4
        building_planes.append(planes)
    per_seat = (POINTS,) * 3 * players + (ACTION_TOKENS,) * players
    scale = (TURN_SCALES + SUPPLY_SCALES + TILE_SCALES * 2 + per_seat + BUILDINGS * players
             + PART_TWO_BUILDINGS * players + (1,) * players)
    event_column = [len(EVENTS)] * len(KINDS)
    for column, (kind, _) in enumerate(EVENTS):
        event_column[kind] = column
    return Tables(players, layout.offsets, observation_layout(players).size, order,
                  terrain.ravel(), bridge_planes, tile_plane, tuple(building_planes),
                  1.0 / np.array(scale, np.float32), np.array(KIND_BOUNDS, np.intp),
                  np.array(event_column, np.intp),
                  1.0 / np.array([most for _, most in EVENTS], np.float32))


# --- the observation: the position as `player` sees it --------------------------------------


def write_observation(city: City, player: int, out: Any) -> None:
    """The whole position (MX-12: nothing is hidden), `player`'s pieces first."""
    t = tables(city.num_players)
    seats = t.order[player]
    ones: list[int] = []
    island(city, seats, t, out, ones)
    areas(city, seats, t, out)
    whose_turn(city, player, t, ones)
    removed_tiles(city, t, ones)
    out[ones] = 1.0
    counts(city, seats, t, out)


def island(city: City, seats: Sequence[int], t: Tables, out: Any, ones: list[int]) -> None:
    """The printed terrain, then the pieces on it: canals, bridges by axis, calpulli tiles,
    each seat's Mexica and buildings."""
    np, at = numpy(), t.at
    out[:at["canals"]] = t.terrain
    out[at["canals"]:at["bridges"]] = np.frombuffer(city.canal, np.uint8)
    t.bridge_planes.take(np.frombuffer(city.bridge, np.uint8), axis=1,
                         out=out[at["bridges"]:at["calpulli"]].reshape(2, N))
    t.tile_plane.take(np.frombuffer(city.tile, np.uint8), out=out[at["calpulli"]:at["mexica"]])
    mexica = at["mexica"]
    ones += [mexica + row * N + square for row, seat in enumerate(seats)
             if (square := city.mexica[seat]) >= 0]
    t.building_planes[seats[0]].take(
        np.frombuffer(city.building, np.uint8), axis=1,
        out=out[at["buildings"]:at["area_size"]].reshape(t.players, N))


def areas(city: City, seats: Sequence[int], t: Tables, out: Any) -> None:
    """MX-3, MX-8, MX-9: on every dry square, its area's size, its district's tile, whether a
    tile of this part fits it, and which Mexica stand in it (a Mexica on a bridge is in none)."""
    labels, firsts = partition(city)
    area, sizes, tiles, available = city.area, city.area_size, city.area_tile, city.available
    idents = [area[square] for square in firsts]
    width = len(idents) + 1  # the last column is water: all zero
    values = [sizes[i] / ISLAND for i in idents] + [0.0]
    values += [tiles[i] / BIGGEST_TILE for i in idents] + [0.0]
    values += [float(not tiles[i] and SIZES[0] <= sizes[i] <= BIGGEST_TILE
                     and available[sizes[i] - SIZES[0]] > 0) for i in idents] + [0.0]
    values += [0.0] * (width * len(seats))
    for row, seat in enumerate(seats):
        square = city.mexica[seat]
        if square >= 0 and area[square] >= 0:
            values[(3 + row) * width + labels[square]] = 1.0
    rows = numpy().array(values, numpy().float32).reshape(3 + len(seats), width)
    rows.take(labels, axis=1,
              out=out[t.at["area_size"]:t.at["seat"]].reshape(3 + len(seats), N))


def whose_turn(city: City, player: int, t: Tables, ones: list[int]) -> None:
    """The observer's own seat, the seat to move (relative), the phase and the part."""
    at = t.at
    ones += (at["seat"] + player, at["phase"] + city.phase, at["part"] + city.part - 1)
    if city.phase not in (DRAWING, OVER):
        ones.append(at["to_move"] + (city.player - player) % t.players)


def removed_tiles(city: City, t: Tables, ones: list[int]) -> None:
    """MX-10: the tiles that can no longer be placed, one row each, in the order they left."""
    base = t.at["tiles_removed"] - SIZES[0]
    ones += [base + row * TILES + size for row, size in enumerate(city.removed)]


def counts(city: City, seats: Sequence[int], t: Tables, out: Any) -> None:
    """Everything counted, raw, in layout order; then one multiplication scales it all."""
    playing = city.phase == PLAYING
    raw = [city.round, city.ap if playing else 0, city.taken, playing and city.idle,
           playing and first_turn(city),
           city.singles, city.doubles, city.bridges, city.token_supply,
           *city.available, *city.face_down]
    raw += [city.scores[s] for s in seats]
    for scoring in (*city.scorings, None, None)[:2]:
        raw += [scoring[s] for s in seats] if scoring else [0] * len(seats)
    raw += [city.tokens[s] for s in seats]
    raw += [n for s in seats for n in city.supply[s]]
    raw += [n for s in seats for n in city.reserve[s]]
    raw += final_returns(city, seats)
    block = out[t.at["turn"]:t.end]
    block[:] = raw
    block *= t.scale


def final_returns(city: City, seats: Sequence[int]) -> list[float]:
    """MX-11: the winners' shares once the game is over, else nothing yet."""
    shares = returns(city)
    return [shares[s] for s in seats]


# --- the areas, numbered the same way for the same canals ------------------------------------

PARTITIONS = 1024  # canal layouts remembered; a game has at most 42 of them
_partitions: dict[bytes, tuple[Any, tuple[int, ...]]] = {}


def partition(city: City) -> tuple[Any, tuple[int, ...]]:
    """The areas (MX-3) as a label per square (the areas numbered by their first square, water
    one past the last) and each area's first square.

    The areas follow from the canals alone (dry squares are the land without canal), so the
    labels are kept per canal layout: converting the 368 squares costs more than the rest of
    the observation. `city.area`'s own numbers depend on the order of the splits, so only the
    partition is kept, never a city's numbers.
    """
    key = bytes(city.canal)
    found = _partitions.get(key)
    if found is None:
        found = _label(city.area)
        if len(_partitions) >= PARTITIONS:
            _partitions.clear()
        _partitions[key] = found
    return found


def _label(area: list[int]) -> tuple[Any, tuple[int, ...]]:
    firsts: dict[int, int] = {}
    for square, ident in enumerate(area):
        if ident >= 0 and ident not in firsts:
            firsts[ident] = square
    number = {ident: k for k, ident in enumerate(firsts)}
    water = len(number)
    labels = numpy().array([number.get(ident, water) for ident in area], numpy().intp)
    labels.flags.writeable = False
    return labels, tuple(firsts.values())


# --- the information state: the observation and what the view has forgotten -----------------


def write_information_state(city: City, history: Sequence[int], player: int, out: Any) -> None:
    """The observation, then the recall: what `player` saw happen that the view no longer
    shows. It reads only the public history and the position it leads to."""
    t = tables(city.num_players)
    write_observation(city, player, out)
    ones: list[int] = []
    set_up_recall(city, history, player, t, ones)
    out[ones] = 1.0
    out[t.at["recall_part_one"]] = part_one_rounds(city) / MAX_ROUNDS
    if city.phase in (PLAYING, OVER) and history:
        events = out[t.at["recall_events"]:t.at["recall_events"] + t.players * len(EVENTS)]
        events[:] = seat_events(city, history, player, t).ravel()


def set_up_recall(city: City, history: Sequence[int], player: int, t: Tables,
                  ones: list[int]) -> None:
    """MX-2: the part-1 tiles in the order they were drawn, and the starting square each seat
    chose (the view shows where the Mexica stand now, not where they began).

    Set-up is the start of a history. A state built from a position mid-way through set-up has
    only the later draws and placements in its history: they fill the rows they belong to.
    """
    opening = history[:PART_ONE_TILES + city.num_players]
    draws = [action - DRAW for action in opening if action >= DRAW]
    drawn = sum(city.available) if city.phase == DRAWING else PART_ONE_TILES
    base = t.at["recall_draws"] + (drawn - len(draws)) * TILES
    ones += [base + k * TILES + size for k, size in enumerate(draws)]
    starts = [action - START for action in opening if START <= action < CANAL]
    first = sum(square >= 0 for square in city.mexica) - len(starts)  # seats place in order
    base = t.at["recall_starts"]
    ones += [base + ((first + k - player) % t.players) * len(STARTING) + STARTING.index(square)
             for k, square in enumerate(starts)]


def part_one_rounds(city: City) -> int:
    """MX-10: how many rounds part 1 lasted, once part 2 has begun (0 before).

    The last seat has finished every round of part 1 and every finished round of part 2: the
    current one too once the game is over.
    """
    if city.part == 1:
        return 0
    finished_in_part_two = city.round - (city.phase == PLAYING)
    return max(0, city.turns[-1] - finished_in_part_two)  # a hand-built position may not tell


def seat_events(city: City, history: Sequence[int], player: int, t: Tables) -> Any:
    """Per relative seat, how many tokens it took, steps, boat trips and teleports it made,
    single and double canals it dug, bridges it placed and moved, and districts it founded
    (MX-4 ... MX-9), scaled. The view shows the result (canals, bridges, a district's tile) but
    not who did it.

    Turns pass in seat order in both parts (MX-4, MX-10), so an action's seat is the first
    mover's plus the turns ended before it; the first mover follows from the seat to move now
    (seat 0 after the last turn of the game). Set-up actions are of no counted kind.
    """
    np, players, columns = numpy(), t.players, len(EVENTS)
    actions = np.fromiter(history, np.intp, len(history))
    kinds = t.kind_bounds.searchsorted(actions, side="right") - 1
    ends = kinds == K_END
    ended = np.cumsum(ends)  # before each action but an END, which is not counted
    first = city.player - int(ended[-1])
    rows = (ended + (first - player)) % players
    cells = rows * (columns + 1) + t.event_column[kinds]
    done = np.bincount(cells, minlength=players * (columns + 1)).reshape(players, columns + 1)
    return done[:, :columns] * t.event_scale
