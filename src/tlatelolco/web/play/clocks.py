"""The clocks of turn-based games: whose clock runs, its deadline, what running out of time
brings, and when to remind a player.

Pure functions over plain data (a game's speed, status, seats, stored times), so that every
server process, and a server restarted days later, reaches the same answers from what the
database holds. Times are UTC; SQLite hands stored times back without their offset, so each
function here reads them through `utc`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

LIVE, TURN = "live", "turn"
SPEEDS = (LIVE, TURN)
BOT, DROP, LOSE = "bot", "drop", "lose"  # a bot plays the turn | and drops the seat | it loses
ON_TIMEOUT = (BOT, DROP, LOSE)
DEFAULT_ON_TIMEOUT = BOT
MIN_MOVE_TIME = 60  # seconds a turn at least (a server may allow less: Settings.min_move_time)
MAX_MOVE_TIME = 14 * 86_400  # two weeks: a game may run over days, not forever
DROP_AFTER = 3  # timeouts after which "drop" gives the seat to a bot for good
REMIND_BEFORE = 3_600.0  # seconds: the deadline reminder comes at most an hour before it
TIMEOUT_BOT = "greedy"  # the quick bot that plays a turn out of time (and a seat given up)


def now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def utc(stamp: dt.datetime | None) -> dt.datetime | None:
    """`stamp` with its UTC offset: SQLite stores UTC times and hands them back naive."""
    if stamp is None:
        return None
    return stamp if stamp.tzinfo else stamp.replace(tzinfo=dt.UTC)


def check_clock(speed: Any, move_time: Any, on_timeout: Any,
                min_move_time: int = MIN_MOVE_TIME) -> tuple[str, int | None, str | None]:
    """A new game's (speed, move_time, on_timeout), defaults filled in; ValueError saying what
    is wrong and what is allowed. A live game has no clock, so neither of the other two."""
    if speed not in SPEEDS:
        raise ValueError("speed is 'live' (everybody at the table at once) or 'turn' "
                         "(turn-based, with a time per move)")
    if speed == LIVE:
        if move_time is not None or on_timeout is not None:
            raise ValueError("move_time and on_timeout are for turn-based games (speed "
                             "'turn'); a live game has no clock")
        return LIVE, None, None
    allowed = f"whole seconds from {min_move_time} to {MAX_MOVE_TIME} (14 days)"
    if move_time is None:
        raise ValueError(f"a turn-based game needs move_time, the time each player has for "
                         f"a turn: {allowed}")
    if type(move_time) is not int or not min_move_time <= move_time <= MAX_MOVE_TIME:
        raise ValueError(f"move_time is {allowed}")
    if on_timeout is None:
        on_timeout = DEFAULT_ON_TIMEOUT
    if on_timeout not in ON_TIMEOUT:
        raise ValueError("on_timeout is 'bot' (a bot plays that turn), 'drop' (after "
                         f"{DROP_AFTER} timeouts a bot takes the seat) or 'lose' (the first "
                         "timeout forfeits)")
    return TURN, move_time, on_timeout


def running_seat(speed: str, status: str, to_move: int,
                 seats: Sequence[tuple[str, bool]]) -> int | None:
    """The seat whose clock runs: in a running turn-based game, a person's seat to move.
    Never while the game waits for players, a bot or chance moves, or the game is over;
    `seats` are (kind, forfeited) per seat (a forfeited seat is played by a bot)."""
    if speed != TURN or status != "running" or not 0 <= to_move < len(seats):
        return None
    kind, forfeited = seats[to_move]
    return to_move if kind == "human" and not forfeited else None


def turn_start(seat: int | None, running: int | None, started: dt.datetime | None,
               stamp: dt.datetime, fresh: bool = False) -> dt.datetime | None:
    """When the clock of `seat` (the one that runs now, or None) started: the stored start
    when the same seat's clock was running already (several actions make one turn), else
    `stamp`. `fresh`: a new turn whatever ran before (after a timeout)."""
    if seat is None:
        return None
    if not fresh and running == seat and started is not None:
        return utc(started)
    return stamp


def deadline(started: dt.datetime | None, move_time: int | None) -> dt.datetime | None:
    if started is None or not move_time:
        return None
    return utc(started) + dt.timedelta(seconds=move_time)  # type: ignore[operator]


def consequence(on_timeout: str | None, timeouts: int) -> str:
    """What a timeout brings, given the seat's `timeouts` before this one: "bot" (a bot plays
    the turn, the person keeps the seat), "drop" (that too, and the seat goes to a bot for
    good: the `DROP_AFTER`th timeout) or "lose" (the seat forfeits at once)."""
    if on_timeout == LOSE:
        return LOSE
    if on_timeout == DROP and timeouts + 1 >= DROP_AFTER:
        return DROP
    return BOT


def reminder_at(started: dt.datetime, move_time: int) -> dt.datetime:
    """When to remind the player of a deadline: with a quarter of the move time left, or an
    hour, whichever is less."""
    left = min(move_time / 4, REMIND_BEFORE)
    return utc(started) + dt.timedelta(seconds=move_time - left)  # type: ignore[operator]


def ranked_last(result: dict[str, Any] | None, forfeited: Sequence[int]
                ) -> dict[str, Any] | None:
    """A finished game's result with the `forfeited` seats ranked last: their return is 0 and
    they are listed in `forfeited`. When a forfeited seat held the whole win (the bot playing
    it on won), the win goes to the others with the most points, shared by ties."""
    if result is None or not forfeited:
        return result
    returns = [float(r) for r in result["returns"]]
    scores = list(result.get("scores") or [])
    others = [s for s in range(len(returns)) if s not in forfeited]
    for seat in forfeited:
        returns[seat] = 0.0
    if others and not any(returns[s] > 0 for s in others):
        top = others
        if len(scores) == len(returns):
            try:
                best = max(scores[s] for s in others)
                top = [s for s in others if scores[s] == best]
            except TypeError:  # points that do not compare: the others share the win
                top = others
        for seat in top:
            returns[seat] = 1.0 / len(top)
    return {**result, "returns": returns, "forfeited": sorted(set(forfeited))}


def forfeit_result(players: int, seat: int, forfeited: Sequence[int],
                   scores: Sequence[Any]) -> dict[str, Any]:
    """The result of a game ended by `seat`'s forfeit: the seats not forfeited share the win,
    `seat` (and any seat forfeited before) ranks last. `forfeit` names the seat."""
    lost = sorted({seat, *forfeited})
    others = [s for s in range(players) if s not in lost]
    returns = [1.0 / len(others) if s in others else 0.0 for s in range(players)]
    return {"returns": returns, "scores": list(scores), "forfeit": seat, "forfeited": lost}


def iso(stamp: dt.datetime | None) -> str | None:
    stamp = utc(stamp)
    return stamp.isoformat() if stamp is not None else None


def clock_json(speed: str, move_time: int | None, on_timeout: str | None, seat: int | None,
               started: dt.datetime | None, timeouts: Sequence[int],
               forfeited: Sequence[bool]) -> dict[str, Any] | None:
    """A game's clock as the API shows it: None for a live game."""
    if speed != TURN:
        return None
    return {"speed": TURN, "move_time": move_time, "on_timeout": on_timeout,
            "seat": seat, "started_at": iso(started) if seat is not None else None,
            "deadline": iso(deadline(started, move_time)) if seat is not None else None,
            "timeouts": list(timeouts), "forfeited": list(forfeited)}


__all__ = ["BOT", "DROP", "DROP_AFTER", "LIVE", "LOSE", "MAX_MOVE_TIME", "MIN_MOVE_TIME",
           "ON_TIMEOUT", "SPEEDS", "TIMEOUT_BOT", "TURN", "check_clock", "clock_json",
           "consequence", "deadline", "forfeit_result", "ranked_last", "reminder_at",
           "running_seat", "turn_start", "utc"]
