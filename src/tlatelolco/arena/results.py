"""What a tournament says: each bot's win share with its interval, by seat, and a rating.

A game scores a bot the mean return of the sides it held (1 for a win, 1/k for a k-way shared
win, 0 for a loss; a partnership counts once, not once per seat), so an even bot scores the
game's even share, 1/sides. Ratings come from openskill's Plackett-Luce model: every game is a
ranking of the different bots in it by that score, ties allowed. A bot holding several sides is
one player in that game, placed by its mean: rating its copies as separate players would pit it
against itself and count one game several times. A game with a single bot (self-play) says
nothing about strength and is not rated. Games are taken in index order, so the same records
give the same ratings.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from statistics import fmean
from typing import Any

from openskill.models import PlackettLuce

from tlatelolco.arena.schedule import Match
from tlatelolco.bots.evaluate import wilson_interval


@dataclass(frozen=True, slots=True)
class SeatResult:
    """A bot's games in one seat and its mean return there (seat advantage shows here)."""

    seat: int
    games: int
    win_share: float | None


@dataclass(frozen=True, slots=True)
class BotResult:
    bot: str
    games: int
    win_share: float | None
    ci95: tuple[float, float] | None  # Wilson score interval of win_share
    even_share: float | None  # what the bot would score if every side were equally strong
    by_seat: tuple[SeatResult, ...]
    mean_score: float | None  # the game's own points, mean over the sides it held
    mean_length: float | None  # actions per game, chance included
    mu: float
    sigma: float
    ordinal: float  # mu - 3 sigma: a conservative strength estimate for ranking
    rated_games: int


@dataclass(frozen=True, slots=True)
class Summary:
    game: str
    options: dict[str, Any]  # the game's options other than num_players
    num_players: int
    games: int
    mean_length: float
    bots: tuple[BotResult, ...]

    def bot(self, spec: str) -> BotResult:
        for result in self.bots:
            if result.bot == spec:
                return result
        raise KeyError(spec)

    def ranked(self) -> list[BotResult]:
        """Best first: by rating ordinal, then win share."""
        return sorted(self.bots, key=lambda b: (-b.ordinal, -(b.win_share or 0.0)))

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def game_shares(match: Match, record: dict[str, Any]) -> dict[str, tuple[float, float]]:
    """Per bot in this game: (mean return, mean score) over the sides it held."""
    result = record.get("result")
    if not result:
        raise ValueError(f"record of match {match.index} is unfinished (no result)")
    returns, scores = result["returns"], result["scores"]
    held: dict[str, list[tuple[float, float]]] = {}
    for side in match.load().teams():
        bot = match.bots[side[0]]
        held.setdefault(bot, []).append((fmean(returns[s] for s in side),
                                         fmean(scores[s] for s in side)))
    return {bot: (fmean(r for r, _ in v), fmean(s for _, s in v)) for bot, v in held.items()}


def summarize(matches: Sequence[Match], records: Sequence[dict[str, Any]],
              bots: Sequence[str] | None = None) -> Summary:
    """The tournament's summary; `bots` fixes the entrants and their order (default: as they
    first appear), so a bot that never got a seat is still listed."""
    if len(matches) != len(records):
        raise ValueError(f"{len(matches)} matches but {len(records)} records")
    if not matches:
        raise ValueError("no games to summarize")
    first = matches[0]
    for match, record in zip(matches, records, strict=True):
        if (match.game, match.num_players, match.options) != (first.game, first.num_players,
                                                              first.options):
            raise ValueError("a summary covers one game with one player count and options; "
                             f"match {match.index} differs from match {first.index}")
        if record.get("players") != list(match.bots):
            raise ValueError(f"record of match {match.index} has players "
                             f"{record.get('players')}, the match {list(match.bots)}")
    order = sorted(range(len(matches)), key=lambda i: matches[i].index)
    entrants = list(bots) if bots is not None else list(dict.fromkeys(
        b for i in order for b in matches[i].bots))
    model = PlackettLuce()
    ratings = {b: model.rating(name=b) for b in entrants}
    tally: dict[str, dict[str, list[float]]] = {b: {"share": [], "even": [], "score": [],
                                                    "length": []} for b in entrants}
    seats: dict[str, dict[int, list[float]]] = {b: {} for b in entrants}
    rated = dict.fromkeys(entrants, 0)
    sides = len(first.load().teams())
    for i in order:
        match, record = matches[i], records[i]
        shares = game_shares(match, record)
        returns = record["result"]["returns"]
        for bot, (share, score) in shares.items():
            if bot not in tally:
                raise ValueError(f"match {match.index} seats {bot!r}, not one of the bots "
                                 f"{', '.join(entrants)}")
            t = tally[bot]
            t["share"].append(share)
            t["even"].append(1.0 / sides)
            t["score"].append(score)
            t["length"].append(float(len(record["history"])))
        for seat, bot in enumerate(match.bots):
            seats[bot].setdefault(seat, []).append(float(returns[seat]))
        if len(shares) > 1:
            present = list(shares)
            new = model.rate([[ratings[b]] for b in present],
                             scores=[shares[b][0] for b in present])
            for bot, team in zip(present, new, strict=True):
                ratings[bot] = team[0]
                rated[bot] += 1
    results = []
    for bot in entrants:
        t, n = tally[bot], len(tally[bot]["share"])
        share = fmean(t["share"]) if n else None
        results.append(BotResult(
            bot=bot, games=n, win_share=share,
            ci95=wilson_interval(share, n) if share is not None else None,
            even_share=fmean(t["even"]) if n else None,
            by_seat=tuple(SeatResult(s, len(v), fmean(v))
                          for s, v in sorted(seats[bot].items())),
            mean_score=fmean(t["score"]) if n else None,
            mean_length=fmean(t["length"]) if n else None,
            mu=ratings[bot].mu, sigma=ratings[bot].sigma, ordinal=ratings[bot].ordinal(),
            rated_games=rated[bot]))
    return Summary(game=first.game, options=dict(first.options), num_players=first.num_players,
                   games=len(matches),
                   mean_length=fmean(len(r["history"]) for r in records),
                   bots=tuple(results))


__all__ = ["BotResult", "SeatResult", "Summary", "game_shares", "summarize"]
