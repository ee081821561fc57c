"""Ratings of accounts, one per game: openskill's Plackett-Luce model, as the arena rates bots.

**Who is rated.** A finished game is rated once, when it ends (`Ratings` listens to the hub;
`rated_games` makes it once across processes), if every seat is held by an account or by a
reference bot and at least one account plays. A guest's seat, an open seat, or a bot set up
away from the lobby's levels (`bot_level`) leaves the game unrated, as does a game whose only
player is one account (against itself). Every entrant is one player of the ranking, placed by
the mean return of the seats it held (an account holding several seats counts once, as the
arena counts a bot); ties share a place. Accounts that left a running game (`leavers`) and
seats that forfeited (`seats.forfeited`) are placed last, together; a bot that took over a
seat somebody left or forfeited is not an entrant.

**Bots are fixed references.** Each level has a fixed mu and sigma per game, never updated,
so that "rated above Hard" means the same tomorrow. Medium (the greedy bot) sits at openskill's
starting mu, 25; Easy (random) and Hard (the search bot) sit as far below and above it as the
arena's measured win shares (docs/arena.md, `MEASURED`) say under the model's own win
probability, `PlackettLuce.predict_win`: a gap of `NormalDist().inv_cdf(share) *
sqrt(2 beta^2 + 2 BOT_SIGMA^2)`. Shares are capped at 0.98: a bot that won all 200 games shows
only that the gap is at least that wide. With sigma 1 the displayed ratings are:

| game | Easy | Medium | Hard |
| --- | ---: | ---: | ---: |
| Aztec Market | 9.6 | 22.0 | 27.4 |
| Axio | 9.6 | 22.0 | 23.1 |
| Grand Bazaar | 13.0 | 22.0 | 27.5 |
| Mexica | 9.6 | 22.0 | 27.8 |

The arena measured Hard at half a second a move; the lobby's Hard thinks two seconds, so the
reference is if anything low. A search bot with less time than that, or with any other
setting, and a greedy bot with changed weights, are not reference bots (they could be made
weak on purpose to farm a rating): their games are not rated.

**What is shown** is the arena's conservative ordinal, mu - 3 sigma, unscaled, rounded to a
tenth: a new account (mu 25, sigma 25/3) shows 0.0 and climbs as it wins and grows certain.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import math
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from statistics import NormalDist, fmean
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import Engine, insert, select, update
from sqlalchemy.exc import IntegrityError

from tlatelolco.bots import SEARCHERS, parse_spec
from tlatelolco.registry import load
from tlatelolco.web.storage.db import games, leavers, rated_games, rating_history, ratings, seats

log = logging.getLogger("tlatelolco.web")
MODEL = PlackettLuce()  # openskill's defaults, as the arena's (tlatelolco.arena.results)
LEVELS = ("easy", "medium", "hard")
BOT_SIGMA = 1.0  # a reference bot's sigma: its strength is taken as known
MEDIUM_MU = MODEL.mu  # the greedy bot sits where a new account starts
SHARE_CAP = 0.98  # the most a measured win share is taken to say (see the module's text)
MIN_HARD_TIME = 0.5  # seconds a move: the search budget the arena measured Hard at
# per game: the win share of greedy against random, and of the search bot against greedy,
# two players, from docs/arena.md ("How strong the bots are")
MEASURED: dict[str, tuple[float, float]] = {
    "aztec_market": (1.000, 0.815),
    "axio": (1.000, 0.570),
    "grand_bazaar": (0.932, 0.818),
    "mexica": (0.995, 0.831),
}
UNMEASURED = (0.95, 0.80)  # a game the arena has not measured: about the others' figures
LAST = -1.0  # the score of a leaver or a forfeited seat: below every return
PROVISIONAL = 5  # rated games before a rating is called steady


def gap(share: float) -> float:
    """The mu difference at which openskill predicts `share` wins between two bots."""
    share = min(max(share, 1.0 - SHARE_CAP), SHARE_CAP)
    return NormalDist().inv_cdf(share) * math.sqrt(2 * MODEL.beta ** 2 + 2 * BOT_SIGMA ** 2)


def references(game: str) -> dict[str, tuple[float, float]]:
    """The fixed (mu, sigma) of each bot level in `game`."""
    easy, hard = MEASURED.get(game, UNMEASURED)
    return {"easy": (round(MEDIUM_MU - gap(easy), 1), BOT_SIGMA),
            "medium": (MEDIUM_MU, BOT_SIGMA),
            "hard": (round(MEDIUM_MU + gap(hard), 1), BOT_SIGMA)}


def shown(mu: float, sigma: float) -> float:
    """The rating people see: the arena's ordinal, mu - 3 sigma, to a tenth."""
    return round(mu - 3.0 * sigma, 1)


def bot_ratings(game: str) -> list[dict[str, Any]]:
    """The reference bots of `game`, weakest first, with their shown ratings."""
    return [{"level": level, "rating": shown(mu, sigma)}
            for level, (mu, sigma) in references(game).items()]


def bot_level(spec: str | None) -> str | None:
    """The reference level of a bot seat's spec: random is Easy, greedy Medium, a search bot
    (mcts, ismcts) with at least the arena's half second a move Hard; None for anything else
    (a weakened search, changed weights: not a reference, so the game is not rated)."""
    try:
        name, params = parse_spec(spec or "random")
    except ValueError:
        return None
    if name == "random" and not params:
        return "easy"
    if name == "greedy" and not params:
        return "medium"
    if name in SEARCHERS and set(params) <= {"time"}:
        budget = params.get("time", math.inf)  # no time= : the server's own bot time
        if isinstance(budget, int | float) and budget >= MIN_HARD_TIME:
            return "hard"
    return None


@dataclass(frozen=True, slots=True)
class Entrant:
    """One player of a game's ranking: an account, or a reference bot in one seat."""

    user_id: int | None
    level: str | None  # a bot's level
    score: float  # the mean return of the seats it held; LAST for leavers and forfeits


@dataclass(frozen=True, slots=True)
class Seat:
    """What rating needs of a seat at the game's end."""

    seat: int
    kind: str  # open | human | bot
    bot: str | None
    user_id: int | None
    forfeited: bool
    timeouts: int = 0  # a bot seat that timed out was a person's (dropped on time)


def entrants(game: str, options: Mapping[str, Any], final: Sequence[Seat],
             result: Mapping[str, Any] | None, left: Mapping[int, int]
             ) -> list[Entrant] | None:
    """The entrants of a finished game, or None when it is not rated. `left`: the seat each
    leaving account held ({user_id: seat})."""
    returns = list((result or {}).get("returns") or [0.0] * len(final))
    if len(returns) != len(final):
        return None
    side_of = {}
    try:
        for number, side in enumerate(load(game, **options).teams()):
            side_of.update(dict.fromkeys(side, number))
    except (ValueError, TypeError):
        return None
    taken_over = set(left.values())
    held: dict[int, list[int]] = {}
    forfeits: set[int] = set()
    bots: list[Entrant] = []
    for seat in final:
        if seat.kind == "human" and seat.user_id is not None:
            held.setdefault(seat.user_id, []).append(seat.seat)
            if seat.forfeited:
                forfeits.add(seat.user_id)
        elif seat.kind == "bot" and seat.user_id is not None:  # an account's seat played on
            held.setdefault(seat.user_id, []).append(seat.seat)
            forfeits.add(seat.user_id)
        elif seat.kind == "bot" and (seat.forfeited or seat.timeouts or seat.seat in taken_over):
            if seat.seat not in taken_over:
                return None  # a bot playing on for a guest who ran out of time
        elif seat.kind == "bot":
            level = bot_level(seat.bot)
            if level is None:
                return None
            bots.append(Entrant(None, level, float(returns[seat.seat])))
        else:
            return None  # a guest, or a seat left open
    people = []
    for user_id, mine in held.items():
        if user_id in forfeits or user_id in left:
            people.append(Entrant(user_id, None, LAST))
            continue
        sides: dict[int, list[float]] = {}
        for s in mine:
            sides.setdefault(side_of.get(s, s), []).append(float(returns[s]))
        people.append(Entrant(user_id, None, fmean(fmean(v) for v in sides.values())))
    people += [Entrant(user_id, None, LAST) for user_id in left if user_id not in held]
    if not people or len(people) + len(bots) < 2:
        return None
    return people + bots


def places(scores: Sequence[float]) -> list[int]:
    """1 for the best score; ties share a place, and the next place skips (1, 1, 3)."""
    return [1 + sum(1 for other in scores if other > score + 1e-9) for score in scores]


def rate(game: str, field: Sequence[Entrant], current: Mapping[int, tuple[float, float]]
         ) -> dict[int, tuple[float, float, int]]:
    """Each account's new (mu, sigma) and its place; bots keep their references. `current`:
    the accounts' ratings so far (a new account starts at openskill's default)."""
    fixed = references(game)
    teams = []
    for entrant in field:
        if entrant.user_id is None:
            teams.append([MODEL.create_rating(list(fixed[entrant.level or "easy"]))])
        else:
            mu, sigma = current.get(entrant.user_id, (MODEL.mu, MODEL.sigma))
            teams.append([MODEL.create_rating([mu, sigma])])
    ranks = places([e.score for e in field])
    after = MODEL.rate(teams, ranks=ranks)
    return {e.user_id: (team[0].mu, team[0].sigma, rank)
            for e, team, rank in zip(field, after, ranks, strict=True) if e.user_id is not None}


def _stamp(value: dt.datetime | None) -> dt.datetime:
    if value is None:
        return dt.datetime.now(dt.UTC)
    return value if value.tzinfo else value.replace(tzinfo=dt.UTC)


class _NotFinished(Exception):
    """The game is not over (or gone): nothing to settle yet."""


def rate_game(engine: Engine, game_id: str) -> bool:
    """Settle a finished game: rate it if it is rated (see the module's text), and note it in
    `rated_games` either way, all in one transaction. True when this call settled it; False
    when it was settled before (by this process or another) or is not over."""
    for _ in range(3):  # a new rating row written by another process at the same moment
        try:
            with engine.begin() as db:
                return _settle(db, game_id)
        except _NotFinished:
            return False
        except IntegrityError:
            with engine.connect() as db:
                if db.execute(select(rated_games.c.game_id)
                              .where(rated_games.c.game_id == game_id)).first() is not None:
                    return False  # settled by somebody else first
    raise RuntimeError(f"game {game_id} could not be rated: its ratings kept changing")


def _settle(db: Any, game_id: str) -> bool:
    # the write first: it takes SQLite's write lock before any read, and on PostgreSQL a
    # second process settling the same game waits here, then fails on the key
    db.execute(insert(rated_games).values(game_id=game_id, at=dt.datetime.now(dt.UTC)))
    found = db.execute(select(games.c.game, games.c.options, games.c.status, games.c.result,
                              games.c.updated_at).where(games.c.id == game_id)).first()
    if found is None or found.status != "finished":
        raise _NotFinished
    final = [Seat(r.seat, r.kind, r.bot, r.user_id, bool(r.forfeited), int(r.timeouts or 0))
             for r in db.execute(select(seats.c.seat, seats.c.kind, seats.c.bot, seats.c.user_id,
                                        seats.c.forfeited, seats.c.timeouts)
                                 .where(seats.c.game_id == game_id).order_by(seats.c.seat))]
    left = {r.user_id: r.seat for r in db.execute(
        select(leavers.c.user_id, leavers.c.seat).where(leavers.c.game_id == game_id))}
    field = entrants(found.game, dict(found.options or {}), final, found.result, left)
    if field is None:
        return True  # settled, as not rated
    people = sorted(e.user_id for e in field if e.user_id is not None)
    current = {r.user_id: (r.mu, r.sigma) for r in db.execute(
        select(ratings.c.user_id, ratings.c.mu, ratings.c.sigma)
        .where(ratings.c.game == found.game, ratings.c.user_id.in_(people))
        .order_by(ratings.c.user_id).with_for_update())}
    at = _stamp(found.updated_at)
    for user_id, (mu, sigma, place) in rate(found.game, field, current).items():
        won = int(place == 1)
        if user_id in current:
            db.execute(update(ratings).where(ratings.c.user_id == user_id,
                                             ratings.c.game == found.game)
                       .values(mu=mu, sigma=sigma, played=ratings.c.played + 1,
                               won=ratings.c.won + won, updated_at=at))
        else:
            db.execute(insert(ratings).values(user_id=user_id, game=found.game, mu=mu,
                                              sigma=sigma, played=1, won=won, updated_at=at))
        db.execute(insert(rating_history).values(user_id=user_id, game_id=game_id,
                                                 game=found.game, mu=mu, sigma=sigma,
                                                 rank=place, at=at))
    return True


def unsettled(engine: Engine, limit: int = 500) -> list[str]:
    """Finished games with an account in them that were never settled (their process
    stopped first), newest first."""
    accounts = select(seats.c.game_id).where(seats.c.user_id.is_not(None))
    gone = select(leavers.c.game_id)
    query = (select(games.c.id).where(
        games.c.status == "finished",
        games.c.id.in_(accounts.union(gone)),
        games.c.id.not_in(select(rated_games.c.game_id)))
        .order_by(games.c.updated_at.desc()).limit(limit))
    with engine.connect() as db:
        return list(db.execute(query).scalars())


class Ratings:
    """The hub listener that settles each game this process sees finish, and at start the
    games finished while no process was left to settle them."""

    KEEP = 4096  # game ids remembered as settled (a finished game's later changes, rematches)

    def __init__(self, hub: Any) -> None:
        self.hub = hub
        self._tasks: set[asyncio.Task[None]] = set()
        self._settled: OrderedDict[str, None] = OrderedDict()

    def start(self) -> None:
        self._spawn(self._catch_up())

    async def on_change(self, change: Any) -> None:
        """A hub listener: returns at once; the rating runs in its own task."""
        live = self.hub.service.peek(change.game_id)
        if live is not None and live.row.status != "finished":
            return  # a move of a game under way (this process just stored it): nothing to rate
        if change.game_id not in self._settled:
            self._spawn(self._settle(change.game_id))

    def _spawn(self, work: Any) -> None:
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _settle(self, game_id: str) -> None:
        try:
            if await self.hub.call(self._finished, game_id):
                await self.hub.write(rate_game, self.hub.service.store.engine, game_id)
                self._remember(game_id)
        except Exception:
            log.exception("rating game %s failed", game_id)

    def _finished(self, game_id: str) -> bool:
        from tlatelolco.web.http.errors import ApiError

        try:
            return self.hub.service.live(game_id).row.status == "finished"  # type: ignore[no-any-return]
        except ApiError:
            return False  # gone (expired) meanwhile

    def _remember(self, game_id: str) -> None:
        self._settled[game_id] = None
        while len(self._settled) > self.KEEP:
            self._settled.popitem(last=False)

    async def _catch_up(self) -> None:
        try:
            engine = self.hub.service.store.engine
            for game_id in await self.hub.call(unsettled, engine):
                await self.hub.write(rate_game, engine, game_id)
        except Exception:
            log.exception("rating the games finished while no server ran failed")

    async def wait(self) -> None:
        """Until every rating started so far is done (tests, and closing)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*list(self._tasks), return_exceptions=True)


def install(hub: Any) -> Ratings:
    """Listen to `hub` for finished games and settle the ones left from before."""
    ratings_ = Ratings(hub)
    hub.listeners.append(ratings_.on_change)
    ratings_.start()
    return ratings_


__all__ = ["LEVELS", "Ratings", "bot_level", "bot_ratings", "entrants", "install",
           "places", "rate", "rate_game", "references", "shown"]
