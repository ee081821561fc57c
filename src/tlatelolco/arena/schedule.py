"""Which bots sit where in each game of a tournament, and with which seed.

The schedule is fixed before any game is played and depends only on its arguments, so a run can
be split over processes or machines and still be the same tournament.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import Any

from tlatelolco.bots import make_bot, parse_spec
from tlatelolco.contract import Game
from tlatelolco.registry import game_class, load


@dataclass(frozen=True, slots=True)
class Match:
    """One game of a tournament: everything a worker needs to play it, and nothing else.

    `options` are all the game's options other than `num_players` (defaults included, as the
    game's records store them), as sorted (name, value) pairs so a match is hashable.
    """

    index: int
    game: str
    options: tuple[tuple[str, Any], ...]
    num_players: int
    bots: tuple[str, ...]  # one spec per seat
    seed: int
    sighted: tuple[str, ...] = ()  # specs handed the true state (research: see `play_match`)

    def sighted_seats(self) -> tuple[int, ...]:
        return tuple(seat for seat, spec in enumerate(self.bots) if spec in self.sighted)

    def load(self) -> Game:
        """The configured game this match is played in (one object per configuration)."""
        return configured(self.game, self.num_players, self.options)


@lru_cache(maxsize=32)
def configured(game: str, num_players: int, options: tuple[tuple[str, Any], ...]) -> Game:
    """A game configuration, loaded once: workers, summaries and reports meet the same few
    configurations thousands of times."""
    return load(game, num_players=num_players, **dict(options))


def balanced_square(n: int) -> list[tuple[int, ...]]:
    """Rows of a Williams design on n symbols: each symbol once per column every n rows (2n when
    n is odd), and each symbol directly followed by each other one equally often, so neither a
    seat nor sitting after a given opponent favours anybody."""
    if n == 1:
        return [(0,)]
    first = [0]
    low, high = 1, n - 1
    while len(first) < n:
        first.append(low)
        low += 1
        if len(first) < n:
            first.append(high)
            high -= 1
    rows = [tuple((x + r) % n for x in first) for r in range(n)]
    if n % 2:
        rows += [tuple(reversed(row)) for row in rows]
    return rows


def groups_of(bots: list[str], sides: int) -> list[tuple[str, ...]]:
    """The bots of each lineup before seating, one per side; see `schedule` for the rule."""
    if len(bots) > sides:
        return list(combinations(bots, sides))
    groups: list[tuple[str, ...]] = []
    seen: set[frozenset[tuple[str, int]]] = set()
    for shift in range(len(bots)):
        group = tuple(bots[(slot + shift) % len(bots)] for slot in range(sides))
        key = frozenset(Counter(group).items())
        if key not in seen:
            seen.add(key)
            groups.append(group)
    return groups


def check_players(game: str, players: int) -> None:
    info = game_class(game).info
    if type(players) is not int or not info.min_players <= players <= info.max_players:
        raise ValueError(f"{game} is played by {info.min_players} to {info.max_players} "
                         f"players, not {players!r}")


def check_bots(loaded: Game, bots: list[str]) -> list[str]:
    """The specs, stripped, each checked by building it once (an unknown name or parameter)."""
    if not bots:
        raise ValueError("give at least one bot spec, e.g. greedy,random")
    specs = [b.strip() if isinstance(b, str) else b for b in bots]
    for spec in specs:
        if not isinstance(spec, str) or not spec:
            raise ValueError(f"bot spec {spec!r} is not a name like greedy or mcts:time=1")
        try:
            parse_spec(spec)
            make_bot(spec, loaded, 0, 0)
        except ValueError as err:
            raise ValueError(f"bot spec {spec!r}: {err}") from None
    twice = [s for s, n in Counter(specs).items() if n > 1]
    if twice:
        raise ValueError(f"bot spec {twice[0]!r} is given twice; give each bot once (a bot "
                         "fills several seats by itself when there are fewer bots than seats)")
    return specs


def schedule(game: str, bots: list[str], games: int, players: int, seed: int,
             options: dict[str, Any] | None = None, sighted: list[str] | None = None
             ) -> list[Match]:
    """`games` matches of `bots` at `game` with `players` seats, seats rotated fairly.

    The bots are dealt to the game's sides (`Game.teams()`: one seat each, or both seats of a
    partnership, which then get the same bot), S sides and B bots:

    - B = S: every lineup holds every bot;
    - B > S: the lineups run through every choice of S bots, so every pair of bots meets;
    - B < S: some bots fill several sides; which ones rotates, so every bot fills as many.

    Each such group is then seated by the rows of a Williams design: each bot sits at every side
    equally often and follows every other bot equally often. Game g takes group g mod G seated
    by row (g div G + group) mod R, so each full cycle of G·R games is exactly balanced (and
    favours no bot for its place in `bots`), and even a shorter run meets every group early.
    Each match has its own 63-bit seed drawn from `seed`: the same arguments give the same
    matches. The bots in `sighted` are handed the true state, hidden information and all (a
    measure of what seeing it is worth, not fair play). Bad arguments raise `ValueError` saying
    what is allowed.
    """
    loaded = validate(game, bots, games, players, options)
    specs = check_bots(loaded, bots)
    seeing = check_sighted(loaded, specs, sighted or [])
    sides = loaded.teams()
    groups = groups_of(specs, len(sides))
    rows = balanced_square(len(sides))
    given = tuple(sorted((k, v) for k, v in loaded.options.items() if k != "num_players"))
    seeds = random.Random(f"arena:{seed}")
    matches = []
    for index in range(games):
        g = index % len(groups)
        row = rows[(index // len(groups) + g) % len(rows)]
        seats = [""] * players
        for side, slot in zip(sides, row, strict=True):
            for seat in side:
                seats[seat] = groups[g][slot]
        matches.append(Match(index, game, given, players, tuple(seats), seeds.getrandbits(63),
                             seeing))
    return matches


def check_sighted(loaded: Game, specs: list[str], sighted: list[str]) -> tuple[str, ...]:
    """The sighted specs, each one of the bots, in a game that hides something."""
    if sighted and loaded.info.information == "perfect":
        raise ValueError(f"{loaded.info.name} hides nothing, so no bot can be sighted; "
                         "sighted bots are for games with hidden information")
    stripped = [s.strip() for s in sighted]
    for spec in stripped:
        if spec not in specs:
            raise ValueError(f"sighted bot {spec!r} is not one of the bots: "
                             f"{', '.join(specs)}")
    return tuple(dict.fromkeys(stripped))


def validate(game: str, bots: list[str], games: int, players: int,
             options: dict[str, Any] | None) -> Game:
    """The loaded game, or a `ValueError` saying what is allowed."""
    game_class(game)  # an unknown game names the allowed ones
    if type(games) is not int or games < 1:
        raise ValueError(f"games must be a whole number of at least 1, not {games!r}")
    if isinstance(bots, str):
        raise ValueError("bots is a list of specs, e.g. ['greedy', 'random']")
    check_players(game, players)
    options = dict(options or {})
    if "num_players" in options:
        raise ValueError("give the player count as players, not as the num_players option")
    return load(game, num_players=players, **options)


__all__ = ["Match", "balanced_square", "schedule"]
