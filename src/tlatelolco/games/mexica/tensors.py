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
each section is written with a few NumPy calls from tables built once per player count, and
the island's planes are kept per city between calls (`Board`): an action redraws only the
planes whose pieces it changed. NumPy is imported only when a tensor is made (the `rl`
extra): the games import this module.
"""

from __future__ import annotations

import threading
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
    building_planes: Any  # (players, 4 players + 1): building byte -> levels / 4 in the
    # owner's row
    board_copies: tuple[tuple[tuple[slice, slice], ...], ...]  # [p]: (into out, from a
    # `Board`) for the planes, so that p's rows come first
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
    building_planes = np.zeros((players, 4 * players + 1), np.float32)
    for value in range(1, 4 * players + 1):
        owner, levels = divmod(value - 1, 4)
        building_planes[owner, value] = (levels + 1) / 4
    per_seat = (POINTS,) * 3 * players + (ACTION_TOKENS,) * players
    scale = (TURN_SCALES + SUPPLY_SCALES + TILE_SCALES * 2 + per_seat + BUILDINGS * players
             + PART_TWO_BUILDINGS * players + (1,) * players)
    event_column = [len(EVENTS)] * len(KINDS)
    for column, (kind, _) in enumerate(EVENTS):
        event_column[kind] = column
    copies = tuple(_board_copies(layout.offsets, players, p) for p in range(players))
    return Tables(players, layout.offsets, observation_layout(players).size, order,
                  terrain.ravel(), bridge_planes, tile_plane, building_planes, copies,
                  1.0 / np.array(scale, np.float32), np.array(KIND_BOUNDS, np.intp),
                  np.array(event_column, np.intp),
                  1.0 / np.array([most for _, most in EVENTS], np.float32))


def _board_copies(at: dict[str, int], players: int, player: int
                  ) -> tuple[tuple[slice, slice], ...]:
    """The slices that copy a `Board` (planes in seat order) into `player`'s observation
    (`player`'s rows first): one slice for seat 0; the sections with a row per seat in two."""
    copies: list[tuple[int, int, int]] = []  # (into, from, length)
    start = 0
    for name in ("mexica", "buildings", "mexica_area"):
        begin, mine = at[name], (players - player) * N  # rows `player`.. come first
        copies += [(start, start, begin - start), (begin, begin + player * N, mine),
                   (begin + mine, begin, player * N)]
        start = begin + players * N
    copies.append((start, start, at["seat"] - start))
    merged: list[tuple[int, int, int]] = []
    for into, source, length in copies:
        if not length:
            continue
        if merged:
            last_into, last_source, last_length = merged[-1]
            if (last_into + last_length, last_source + last_length) == (into, source):
                merged[-1] = (last_into, last_source, last_length + length)  # one copy
                continue
        merged.append((into, source, length))
    return tuple((slice(into, into + length), slice(source, source + length))
                 for into, source, length in merged)


# --- the observation: the position as `player` sees it --------------------------------------


def write_observation(city: City, player: int, out: Any) -> None:
    """The whole position (MX-12: nothing is hidden), `player`'s pieces first."""
    t = tables(city.num_players)
    block = board(city, t).block
    for into, source in t.board_copies[player]:
        out[into] = block[source]
    ones: list[int] = []
    whose_turn(city, player, t, ones)
    removed_tiles(city, t, ones)
    for one in ones:  # at most 19: cheaper stored one by one than as an index array
        out[one] = 1.0
    counts(city, t.order[player], t, out)


class Board:
    """The island's planes of one city, seats in their own order, kept between calls.

    A city changes only through actions, and an action changes one part of the island (a
    bridge moved, a building raised, a Mexica walked) or none (a turn ended), so only the
    planes whose pieces changed since the last call are drawn again: an RL step costs a few
    comparisons and copies. The pieces are kept as copies to compare with, so a city changed
    any other way (a hand-built position) is drawn right too.
    """

    __slots__ = ("block", "bridge", "building", "canal", "city", "districts", "mexica", "tile")

    def __init__(self, city: City, t: Tables) -> None:
        self.city = city  # held, so that its id is not reused while this board is kept
        self.block = numpy().zeros(t.at["seat"], numpy().float32)
        self.block[:t.at["canals"]] = t.terrain
        self.canal = self.bridge = self.tile = self.building = b""
        self.mexica: tuple[int, ...] = ()
        self.districts: tuple[tuple[int, ...], ...] = ()  # tiles left, tiles founded

    def catch_up(self, city: City, t: Tables) -> None:
        """Draw again the planes whose pieces changed: canals, bridges by axis, calpulli
        tiles, each seat's Mexica and buildings, then the areas (MX-3, MX-8, MX-9)."""
        np, at, block = numpy(), t.at, self.block
        redraw_areas = False
        if city.canal != self.canal:
            block[at["canals"]:at["bridges"]] = np.frombuffer(city.canal, np.uint8)
            self.canal, redraw_areas = bytes(city.canal), True
        if city.bridge != self.bridge:
            t.bridge_planes.take(np.frombuffer(city.bridge, np.uint8), axis=1,
                                 out=block[at["bridges"]:at["calpulli"]].reshape(2, N))
            self.bridge = bytes(city.bridge)
        if city.tile != self.tile:
            t.tile_plane.take(np.frombuffer(city.tile, np.uint8),
                              out=block[at["calpulli"]:at["mexica"]])
            self.tile, redraw_areas = bytes(city.tile), True
        if city.building != self.building:
            t.building_planes.take(np.frombuffer(city.building, np.uint8), axis=1,
                                   out=block[at["buildings"]:at["area_size"]].reshape(-1, N))
            self.building = bytes(city.building)
        mexica = tuple(city.mexica)
        if mexica != self.mexica:
            plane = block[at["mexica"]:at["buildings"]]
            plane[:] = 0.0
            for seat, square in enumerate(mexica):
                if square >= 0:
                    plane[seat * N + square] = 1.0
            self.mexica, redraw_areas = mexica, True
        districts = (tuple(city.available), tuple(city.area_tile))
        if redraw_areas or districts != self.districts:
            areas(city, t, block)
            self.districts = districts


BOARDS = 64  # cities whose planes are kept: an environment per core and then some
_boards: dict[int, Board] = {}
_keeping = threading.Lock()  # environments in threads add and drop boards of their own


def board(city: City, t: Tables) -> Board:
    """`city`'s board, caught up."""
    kept = _boards.get(id(city))
    if kept is None or kept.city is not city:
        kept = Board(city, t)
        with _keeping:
            while len(_boards) >= BOARDS:
                del _boards[next(iter(_boards))]  # the oldest
            _boards[id(city)] = kept
    kept.catch_up(city, t)
    return kept


def areas(city: City, t: Tables, block: Any) -> None:
    """MX-3, MX-8, MX-9: on every dry square, its area's size, its district's tile, whether a
    tile of this part fits it, and which Mexica stand in it (a Mexica on a bridge is in none)."""
    found = partition(city)
    rows = block[t.at["area_size"]:t.at["seat"]].reshape(3 + t.players, N)
    rows[:3] = found.districts(city)
    for seat, square in enumerate(city.mexica):
        if square >= 0 and city.area[square] >= 0:
            rows[3 + seat] = found.area_plane(square)
        else:
            rows[3 + seat] = 0.0


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

PARTITIONS = 256  # canal layouts remembered; a game has at most 42 of them
DISTRICTS = 4  # district planes remembered per canal layout (tiles founded, tiles left)
AREA_PLANES = 8  # planes of single areas remembered per canal layout


class Partition:
    """The areas of one canal layout (MX-3): a label per square (the areas numbered by their
    first square, water one past the last), each area's first square, and the planes already
    drawn on it (at most a few kB each)."""

    __slots__ = ("areas", "firsts", "labels", "planes")

    def __init__(self, area: list[int]) -> None:
        firsts: dict[int, int] = {}
        for square, ident in enumerate(area):
            if ident >= 0 and ident not in firsts:
                firsts[ident] = square
        number = {ident: k for k, ident in enumerate(firsts)}
        water = len(number)
        self.labels = numpy().array([number.get(ident, water) for ident in area], numpy().intp)
        self.labels.flags.writeable = False
        self.firsts = tuple(firsts.values())
        self.planes: dict[tuple[tuple[int, ...], tuple[int, ...]], Any] = {}
        self.areas: dict[int, Any] = {}  # by label

    def districts(self, city: City) -> Any:
        """The area_size, districts and foundable planes, (3, squares): they change only when
        a canal splits an area (a new partition), a district is founded or a tile leaves."""
        tiles = tuple(city.area_tile[city.area[square]] for square in self.firsts)
        key = (tiles, tuple(city.available))
        planes = self.planes.get(key)
        if planes is None:
            if len(self.planes) >= DISTRICTS:
                self.planes.clear()
            planes = self.planes[key] = self._draw(city, tiles)
        return planes

    def area_plane(self, square: int) -> Any:
        """1.0 on every square of the area `square` is in (a dry square)."""
        label = int(self.labels[square])
        plane = self.areas.get(label)
        if plane is None:
            if len(self.areas) >= AREA_PLANES:
                self.areas.clear()
            plane = self.areas[label] = (self.labels == label).astype(numpy().float32)
            plane.flags.writeable = False
        return plane

    def _draw(self, city: City, tiles: tuple[int, ...]) -> Any:
        sizes = [city.area_size[city.area[square]] for square in self.firsts]
        available = city.available
        values = [size / ISLAND for size in sizes] + [0.0]  # the last column is water
        values += [tile / BIGGEST_TILE for tile in tiles] + [0.0]
        values += [float(not tile and SIZES[0] <= size <= BIGGEST_TILE
                         and available[size - SIZES[0]] > 0)
                   for size, tile in zip(sizes, tiles, strict=True)] + [0.0]
        rows = numpy().array(values, numpy().float32).reshape(3, len(sizes) + 1)
        planes = rows.take(self.labels, axis=1)
        planes.flags.writeable = False
        return planes


_partitions: dict[bytes, Partition] = {}


def partition(city: City) -> Partition:
    """The areas of `city`'s canal layout.

    The areas follow from the canals alone (dry squares are the land without canal), so a
    partition is kept per canal layout: converting the 368 squares costs more than the rest of
    the observation. `city.area`'s own numbers depend on the order of the splits, so only the
    partition is kept, never a city's numbers.
    """
    key = bytes(city.canal)
    found = _partitions.get(key)
    if found is None:
        found = Partition(city.area)
        if len(_partitions) >= PARTITIONS:
            _partitions.clear()
        _partitions[key] = found
    return found


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
