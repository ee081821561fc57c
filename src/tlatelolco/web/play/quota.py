"""How many games one client address may keep and create, so storage cannot grow without bound.

Rates (`http.limits`) bound how fast one address creates games; quotas bound how much it
keeps: a game costs tens of KiB, and a client creating games as fast as the rate allows would
store hundreds of MiB a day. Counted from the database (the games' `client` column and its
index), so they hold across restarts and across server processes sharing the database.
"""

from __future__ import annotations

import datetime as dt
import math
from dataclasses import dataclass

from tlatelolco.web.http.errors import ApiError
from tlatelolco.web.http.limits import parse_counts
from tlatelolco.web.storage.store import Store, now

DAY = 86_400.0  # seconds of the window the daily quota counts


@dataclass(slots=True)
class Quota:
    """Games per creating address (0 lifts one)."""

    games: int = 20  # unfinished (open or running) games stored at once
    daily: int = 200  # games created (rematches too) in the last 24 hours

    @classmethod
    def parse(cls, text: str) -> Quota:
        """`games=20,daily=200` (the rest keep their defaults); ValueError saying why not."""
        return parse_counts(cls(), text, "quota", "games (0: no quota)")


def check_quota(store: Store, quota: Quota, client: str | None, expire_after: float) -> None:
    """That `client` may create one more game; else ApiError 429 saying which quota is full
    and when it frees up. A call without an address (not from the network) is not counted."""
    if client is None or not (quota.games or quota.daily):
        return
    stamp = now()
    unfinished, recent, oldest = store.client_games(client, stamp - dt.timedelta(seconds=DAY))
    if quota.games and unfinished >= quota.games:
        later = (f", or is deleted after {expire_after / DAY:g} days without a move"
                 if expire_after > 0 else "")
        raise ApiError(429, "quota", f"your address has {unfinished} unfinished games stored, "
                       f"at most {quota.games} are allowed: finish, or play on, the ones you "
                       f"have before creating more (a place frees up when one ends{later})")
    if quota.daily and recent >= quota.daily and oldest is not None:
        if oldest.tzinfo is None:  # SQLite hands back UTC without its offset
            oldest = oldest.replace(tzinfo=dt.UTC)
        frees = oldest + dt.timedelta(seconds=DAY)
        wait = max(1, math.ceil((frees - stamp).total_seconds()))
        raise ApiError(429, "quota", f"your address created {recent} games in the last 24 "
                       f"hours, at most {quota.daily} are allowed (rematches count); the next "
                       f"one can be created in {_duration(wait)} (at {frees:%H:%M} UTC)",
                       retry_after=wait)


def _duration(seconds: int) -> str:
    """`3 h 12 min`, `12 min`, `40 s`: a wait as a person reads it."""
    if seconds < 60:
        return f"{seconds} s"
    hours, minutes = divmod(math.ceil(seconds / 60), 60)
    if not hours:
        return f"{minutes} min"
    return f"{hours} h {minutes} min" if minutes else f"{hours} h"


__all__ = ["Quota", "check_quota"]
