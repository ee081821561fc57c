"""The position of a game of Mexica as plain data: what lies on each square, the areas, the
supplies and whose turn it is. Rules live in `rules`; this module only holds and copies."""

from __future__ import annotations

from dataclasses import dataclass, field

# Phases
DRAWING, PLACING, PLAYING, OVER = range(4)
PHASE_NAMES = ("drawing calpulli tiles", "placing the Mexica", "playing", "over")


@dataclass(slots=True)
class City:
    """Per-square arrays are indexed by square (see `board`); per-size lists by size - 3."""

    num_players: int
    canal: bytearray  # 1: a canal tile covers the square
    bridge: bytearray  # 0: none; else the bridge's axis (board.NORTH_SOUTH or WEST_EAST)
    access: bytearray  # how many bridges use the square as an access (canals may not cover it)
    axes: bytearray  # canal squares: the axes (bit mask) along which both neighbours are dry
    diggable: bytearray  # 1: a canal may cover the square now (MX-5; kept up to date)
    building: bytearray  # 0: none; else owner * 4 + levels
    tile: bytearray  # 0: none; else the size of the calpulli tile on the square
    occupied: bytearray  # 1: a building, a calpulli tile or a Mexica stands here
    mexica: list[int]  # each seat's square, -1 before it is placed
    area: list[int]  # the area of each dry square, -1 for water
    area_size: list[int]  # by area id; dry squares in the area (0 once an area is used up)
    area_tile: list[int]  # by area id; the calpulli tile founding it, 0 while unfounded
    area_free: list[int]  # by area id; ordinary squares without building or tile
    singles: int  # canal tiles in the supply
    doubles: int
    bridges: int  # bridges in the supply
    token_supply: int
    tokens: list[int]  # action tokens each seat holds
    supply: list[list[int]]  # supply[seat][levels - 1]: buildings that may be built now
    reserve: list[list[int]]  # part 2's buildings, not yet released
    face_down: list[int]  # calpulli tiles not (yet) in play, by size - 3
    available: list[int]  # this part's tiles, neither placed nor removed, by size - 3
    removed: list[int]  # sizes of tiles removed from the game, in order
    scores: list[int]
    phase: int = DRAWING
    part: int = 1
    round: int = 1  # within the part, from 1
    player: int = 0  # the start player is seat 0
    ap: int = 0  # action points left this turn
    taken: int = 0  # action tokens taken this turn
    turns: list[int] = field(default_factory=list)  # turns each seat has finished
    idle: bool = True  # nobody has taken an action this round (ending a turn is none)
    scorings: list[list[int]] = field(default_factory=list)  # points per seat at each scoring

    def copy(self) -> City:
        return City(
            self.num_players, self.canal[:], self.bridge[:], self.access[:], self.axes[:],
            self.diggable[:], self.building[:],
            self.tile[:], self.occupied[:], self.mexica[:], self.area[:], self.area_size[:],
            self.area_tile[:], self.area_free[:], self.singles, self.doubles, self.bridges,
            self.token_supply, self.tokens[:], [s[:] for s in self.supply],
            [r[:] for r in self.reserve], self.face_down[:], self.available[:],
            self.removed[:], self.scores[:], self.phase, self.part, self.round, self.player,
            self.ap, self.taken, self.turns[:], self.idle, [s[:] for s in self.scorings])

    def key(self) -> tuple[object, ...]:
        return (
            self.num_players, bytes(self.canal), bytes(self.bridge), bytes(self.building),
            bytes(self.tile), tuple(self.mexica), tuple(self.area), tuple(self.area_size),
            tuple(self.area_tile), self.singles, self.doubles, self.bridges, self.token_supply,
            tuple(self.tokens), tuple(map(tuple, self.supply)), tuple(map(tuple, self.reserve)),
            tuple(self.face_down), tuple(self.available), tuple(self.removed),
            tuple(self.scores), self.phase, self.part, self.round, self.player, self.ap,
            self.taken, tuple(self.turns), self.idle, tuple(map(tuple, self.scorings)))

    def levels_at(self, square: int) -> int:
        value = self.building[square]
        return (value - 1) % 4 + 1 if value else 0

    def owner_at(self, square: int) -> int:
        value = self.building[square]
        return (value - 1) // 4 if value else -1
