"""The numbers of a balance report, from the records of self-play games (pure: no plotting, no I/O).

Every seat plays the same bot, so any difference between seats is the game's, not the players':
a seat's win rate away from the even share is a seat advantage; a tie-break that decides many
games says the primary score is too coarse. Everything here takes finished game records
(`tlatelolco.records`) and works for any game through the contract alone.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from tlatelolco.arena.schedule import configured
from tlatelolco.bots.evaluate import wilson_interval
from tlatelolco.contract import Game

Teams = Sequence[Sequence[int]]


@dataclass(frozen=True, slots=True)
class Rate:
    """A share of games with its 95% Wilson interval; `total` is the sum it is the mean of."""

    share: float
    low: float
    high: float
    total: float
    games: int


@dataclass(frozen=True, slots=True)
class Summary:
    """Five-number summary plus the mean: enough to read a distribution without its plot."""

    mean: float
    minimum: float
    q1: float
    median: float
    q3: float
    maximum: float


@dataclass(frozen=True, slots=True)
class Length:
    """A game's length: the decisions seats took, and every step including chance draws."""

    decisions: int
    steps: int


@dataclass(frozen=True, slots=True)
class Stats:
    """Everything a report shows for one bot kind in self-play."""

    game: str
    options: dict[str, Any]
    num_players: int
    bot: str
    games: int
    sides: list[list[int]]
    even_share: float
    win_rate: list[Rate]  # per seat: the seat's mean return
    scores: list[list[float]]  # per seat, one primary score per game
    score_summary: list[Summary]
    decisions: list[int]  # per game
    steps: list[int]  # per game
    decisions_summary: Summary
    steps_summary: Summary
    tie_break: Rate  # games whose top primary score was tied and a tie-break picked the winner
    shared: Rate  # games won by more than one side

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def rate(total: float, games: int) -> Rate:
    share = total / games
    low, high = wilson_interval(share, games)
    return Rate(share, low, high, total, games)


def quantile(ordered: Sequence[float], q: float) -> float:
    """Linear interpolation between order statistics (numpy's default), without numpy."""
    position = (len(ordered) - 1) * q
    below = math.floor(position)
    above = min(below + 1, len(ordered) - 1)
    return ordered[below] + (ordered[above] - ordered[below]) * (position - below)


def summarise(values: Iterable[float]) -> Summary:
    ordered = sorted(float(v) for v in values)
    if not ordered:
        raise ValueError("cannot summarise no values")
    return Summary(sum(ordered) / len(ordered), ordered[0], quantile(ordered, 0.25),
                   quantile(ordered, 0.5), quantile(ordered, 0.75), ordered[-1])


def side_winners(returns: Sequence[float], teams: Teams) -> list[int]:
    """Indices of the sides with a positive return (partners share their side's return)."""
    return [i for i, side in enumerate(teams) if returns[side[0]] > 0]


def top_sides(scores: Sequence[float], teams: Teams) -> list[int]:
    """Indices of the sides with the best primary score (a side's score is its first seat's:
    in team games every partner is given the side's score)."""
    primary = [scores[side[0]] for side in teams]
    best = max(primary)
    return [i for i, s in enumerate(primary) if s == best]


def decided_by_tie_break(scores: Sequence[float], returns: Sequence[float], teams: Teams) -> bool:
    """True when the top primary score was shared but fewer sides won than were tied on it.

    `scores()` is each game's primary criterion (Grand Bazaar grands, Aztec Market side totals,
    Axio lowest colour, Mexica points); the returns apply the full ranking (Aztec Market coins
    then goods, Axio the next lowest colours, Mexica unused tokens). Grand Bazaar has no
    tie-break, so it never counts there.
    """
    tied = top_sides(scores, teams)
    return len(tied) > 1 and len(side_winners(returns, teams)) < len(tied)


def shared_victory(returns: Sequence[float], teams: Teams) -> bool:
    """True when more than one side won (each got a share of the victory)."""
    return len(side_winners(returns, teams)) > 1


def result_of(record: Mapping[str, Any]) -> tuple[list[float], list[float]]:
    result = record.get("result")
    if not result:
        raise ValueError("a balance report needs finished games; a record has no result")
    return [float(r) for r in result["returns"]], [float(s) for s in result["scores"]]


def game_of(record: Mapping[str, Any]) -> Game:
    options = dict(record["options"])
    players = options.pop("num_players")
    return configured(record["game"], players, tuple(sorted(options.items())))


def game_length(record: Mapping[str, Any]) -> Length:
    """Replays the history, noting before each step whether chance took it (cheap next to
    playing: no legal-move lists, no bots)."""
    state = game_of(record).new_initial_state()
    decisions = 0
    for action in record["history"]:
        if not state.is_chance_node():
            decisions += 1
        state.apply_action(action)
    return Length(decisions, len(record["history"]))


def compute_stats(records: Sequence[Mapping[str, Any]], bot: str | None = None) -> Stats:
    """The report's numbers for self-play records of one game configuration."""
    if not records:
        raise ValueError("no records to compute statistics from")
    first = records[0]
    for record in records:
        if record["game"] != first["game"] or record["options"] != first["options"]:
            raise ValueError("records of different games or options cannot be summarised "
                             f"together: {first['game']} {first['options']} and "
                             f"{record['game']} {record['options']}")
    game = game_of(first)
    teams = [list(side) for side in game.teams()]
    n = game.num_players()
    results = [result_of(r) for r in records]
    lengths = [game_length(r) for r in records]
    games = len(records)
    scores = [[s[seat] for _, s in results] for seat in range(n)]
    decisions = [length.decisions for length in lengths]
    steps = [length.steps for length in lengths]
    return Stats(
        game=first["game"],
        options=dict(first["options"]),
        num_players=n,
        bot=bot if bot is not None else str(first["players"][0]),
        games=games,
        sides=teams,
        even_share=1.0 / len(teams),
        win_rate=[rate(sum(r[seat] for r, _ in results), games) for seat in range(n)],
        scores=scores,
        score_summary=[summarise(seat_scores) for seat_scores in scores],
        decisions=decisions,
        steps=steps,
        decisions_summary=summarise(decisions),
        steps_summary=summarise(steps),
        tie_break=rate(sum(decided_by_tie_break(s, r, teams) for r, s in results), games),
        shared=rate(sum(shared_victory(r, teams) for r, _ in results), games),
    )
