"""A greedy heuristic for Axio: points now, the lowest colour more and more, AXIO! when it pays,
and little for the next player.

A player's result is their lowest colour, then the next lowest, and so on (AX-5). Every legal
placement of the hand tile (cell, rotation, and for an empty corner the colour named) is scored
with the count the engine makes (AX-3 step 2, the 12 cap applied), from a table of the
quadrants around each grid point of the display built once per decision, so a decision takes
about a millisecond even with hundreds of placements. The bot plays the placement whose colour
tracks afterwards are worth most:

- **Tracks.** A track at s points is worth -exp(-a·s)/a (scaled so a point in the lowest colour
  is worth about 1): concave, so points in low colours count more. The concavity a grows over
  the bot's 12 placements from `start` (almost a plain sum of useful points: early on every
  point helps, and the low colours can still be caught up) to `end` (the lowest colours first)
  on a cubic schedule. Maximising the lowest colour outright, then the next lowest (the result
  order), from the first placement on lost about 3 games in 4 against this.
- **AXIO!** A colour reaching 12 earns an extra turn while the supply lasts (AX-4). An extra
  turn is another placement, which the bot would spend on its lowest colours, so each one
  counts as `extra` points (about what a placement scores) poured into the lowest colours
  below 12.
- **The others.** Every coloured corner the bot leaves at a circle that is still open lets
  the players after it score one more point of that colour there. That costs `caution` times
  the points the circle would then be worth in that colour, weighted by how much the next
  player (half as much for the ones after) needs the colour: 1 for their lowest colour,
  1/(1+d) for a colour d above it, nothing at 12. Only the public display and score boards
  are used.
- **Ties** go to the better tracks from the lowest up (the result order), then to the lowest
  action id.

Hidden information: the bot reads only its own hand tile, the display, the score boards and
the supply count; other seats' hand tiles (re-dealt at random in the state it is given) are
never looked at. Nothing is random: the seed changes nothing, and the same view always gives
the same placement.
"""

from __future__ import annotations

import heapq
import math
from operator import itemgetter

from tlatelolco.bots.base import Bot
from tlatelolco.contract import Game, State
from tlatelolco.games.axio import rules
from tlatelolco.games.axio.state import AxioState
from tlatelolco.games.axio.table import Table, place_action
from tlatelolco.games.axio.tiles import EMPTY, NUM_COLOURS, Tile, faces, turned

TOP = rules.TRACK_TOP
START = 0.02  # concavity of a track's worth at the bot's first placement
END = 0.5  # ... and at its last
SCHEDULE = 3.0  # the concavity follows progress ** SCHEDULE from START to END
EXTRA_TURN = 3.0  # points an extra turn is worth, poured into the lowest colours
CAUTION = 0.12  # per point a coloured corner offers the others at an open circle, by their need
LATER_SEATS = 0.5  # how much the seats after the next one count, relative to the next one

Key = tuple[float, ...]


class AxioGreedy(Bot):
    """One-ply greedy over the bot's colour tracks (see the module docstring)."""

    name = "greedy"

    def __init__(self, game: Game, seat: int, seed: int | str | None = None,
                 start: float = START, end: float = END, extra: float = EXTRA_TURN,
                 caution: float = CAUTION) -> None:
        super().__init__(game, seat, seed)
        if start <= 0 or end <= 0:
            raise ValueError(f"start and end must be positive, got {start} and {end}")
        self.start, self.end = float(start), float(end)
        self.extra = float(extra)
        self.caution = float(caution)
        self.concavity = self.start
        self.worth: list[float] = []  # a track's worth at 0..12 points, for this decision
        self.low = 0  # the bot's lowest colour before this decision

    def step(self, state: State) -> int:
        assert isinstance(state, AxioState), f"AxioGreedy plays Axio, not {state!r}"
        tiles: tuple[Tile, ...] = state._tiles  # the public tile set (the game's option)
        return self.choose(state.table, tiles)

    def ranked(self, state: State, most: int) -> list[int]:
        """The `most` best placements, best first (`step`'s choice first): the order in which
        a search tries moves."""
        assert isinstance(state, AxioState), f"AxioGreedy plays Axio, not {state!r}"
        scored: list[tuple[Key, int]] = []
        self.choose(state.table, state._tiles, scored)
        return [action for _, action in heapq.nlargest(most, scored, key=itemgetter(0))]

    def choose(self, t: Table, tiles: tuple[Tile, ...],
               scored: list[tuple[Key, int]] | None = None) -> int:
        """The best placement of the bot's hand tile on the plain position `t`; every
        placement and its key go to `scored` too, if given."""
        seat = self.seat
        hand = tiles[t.hands[seat]]
        mine = t.scores[seat]
        progress = min(1.0, t.placed_from_stack[seat] / (rules.STACK - 1))
        self.concavity = self.start + (self.end - self.start) * progress ** SCHEDULE
        self.low = min(mine)
        self.worth = [self.track(float(s)) for s in range(TOP + 1)]
        needs = self.needs(t)
        extras_left = min(t.supply_left, NUM_COLOURS)  # extra turns the supply can still pay
        around: dict[tuple[int, int], tuple[list[int], int]] = {}  # point -> counts, tiles
        rotations = [turned(hand, r) for r in range(4)]
        best_key: Key | None = None
        best_action = -1
        for x, y in sorted(t.frontier):
            circles = []
            for dx, dy in rules.CORNER_POINTS:
                point = (x + dx, y + dy)
                found = around.get(point)
                if found is None:
                    found = around[point] = point_circle(t, tiles, point)
                circles.append(found)
            for rotation, corners in enumerate(rotations):
                gained = [0] * NUM_COLOURS
                offered = 0.0
                empty_at = -1
                for i, colour in enumerate(corners):
                    counts, placed = circles[i]
                    if colour == EMPTY:
                        empty_at = i
                        continue
                    gained[colour] += counts[colour]
                    if placed < 3 and needs is not None:  # the circle stays open after this
                        offered += (counts[colour] + 1) * needs[colour]
                if empty_at < 0:
                    names = [(0, gained)]
                else:  # naming a colour the circle does not show scores nothing: one will do
                    counts = circles[empty_at][0]
                    names = [(c + 1, [g + counts[c] if k == c else g
                                      for k, g in enumerate(gained)])
                             for c in range(NUM_COLOURS) if counts[c]]
                    if not names:
                        names = [(min(range(NUM_COLOURS), key=mine.__getitem__) + 1, gained)]
                for name, points in names:
                    key = self.key(mine, points, offered, extras_left)
                    action = place_action(x, y, rotation, name)
                    if scored is not None:
                        scored.append((key, action))
                    if best_key is None or key > best_key:
                        best_key, best_action = key, action
        return best_action

    def track(self, score: float) -> float:
        """What a track at `score` is worth: concave, a point at the lowest colour about 1."""
        a = self.concavity
        return -math.exp(-a * (score - self.low)) / a

    def key(self, mine: list[int], gained: list[int], offered: float, extras_left: int) -> Key:
        """The worth of the bot's tracks after the placement less what it offers the others;
        then the tracks from the lowest up (higher is better)."""
        after = []
        axio = 0
        for before, points in zip(mine, gained, strict=True):
            now = min(TOP, before + points)
            if before < TOP <= now:
                axio += 1
            after.append(now)
        axio = min(axio, extras_left)
        if axio:
            tracks = [float(s) for s in after]
            pour(tracks, axio * self.extra)
            value = sum(self.track(s) for s in tracks)
            return (value - self.caution * offered, *sorted(tracks))
        worth = self.worth
        value = sum(worth[s] for s in after)
        return (value - self.caution * offered, *sorted(after))

    def needs(self, t: Table) -> list[float] | None:
        """How much the other seats want each colour: the next one fully, later ones less;
        a seat's lowest colour most, a colour at 12 not at all. None when playing alone."""
        n = t.num_players
        if n == 1:
            return None
        needs = [0.0] * NUM_COLOURS
        for step in range(1, n):
            board = t.scores[(self.seat + step) % n]
            weight = 1.0 if step == 1 else LATER_SEATS
            low = min(board)
            for c, s in enumerate(board):
                if s < TOP:
                    needs[c] += weight / (1 + s - low)
        return needs


def point_circle(t: Table, tiles: tuple[Tile, ...], point: tuple[int, int]
                 ) -> tuple[list[int], int]:
    """How many quadrants of each colour the display shows around a grid point (index 5:
    empty ones), and how many tiles touch it."""
    counts = [0] * (NUM_COLOURS + 1)
    shown = faces(tiles)  # the set's turned tiles, as scoring reads them
    px, py = point
    placed = 0
    for (dx, dy), corner in rules.AROUND_POINT:
        cell = t.cells.get((px + dx, py + dy))
        if cell is not None:
            tile, rotation = cell
            counts[shown[tile][rotation][corner]] += 1
            placed += 1
    return counts, placed


def pour(tracks: list[float], amount: float) -> None:
    """Raise the lowest tracks below 12 evenly by `amount` points in all (water filling)."""
    while amount > 1e-9:
        open_ = [i for i, s in enumerate(tracks) if s < TOP]
        if not open_:
            return
        low = min(tracks[i] for i in open_)
        lowest = [i for i in open_ if tracks[i] == low]
        higher = [tracks[i] for i in open_ if tracks[i] > low]
        ceiling = min(higher) if higher else TOP
        step = min(amount / len(lowest), ceiling - low)
        for i in lowest:
            tracks[i] += step
        amount -= step * len(lowest)
