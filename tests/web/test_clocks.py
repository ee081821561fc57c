"""The clocks of turn-based games as pure functions: whose clock runs, its deadline, what a
timeout brings, when the reminder comes, and how forfeits rank (web/play/clocks.py)."""

from __future__ import annotations

import datetime as dt

import pytest

from tlatelolco.web.play import clocks
from tlatelolco.web.play.clocks import (
    check_clock,
    clock_json,
    consequence,
    deadline,
    forfeit_result,
    ranked_last,
    reminder_at,
    running_seat,
    turn_start,
)

T0 = dt.datetime(2030, 5, 1, 12, 0, tzinfo=dt.UTC)
PEOPLE = [("human", False), ("human", False)]


def test_a_live_game_has_no_clock_and_takes_no_clock_fields():
    assert check_clock("live", None, None) == ("live", None, None)
    for move_time, on_timeout in ((60, None), (None, "bot"), (3600, "lose")):
        with pytest.raises(ValueError, match="for turn-based games"):
            check_clock("live", move_time, on_timeout)
    assert running_seat("live", "running", 0, PEOPLE) is None
    assert clock_json("live", None, None, None, None, [0, 0], [False, False]) is None


@pytest.mark.parametrize("move_time", [None, 0, -60, 59, 60.0, 3600.5, "3600", True,
                                       clocks.MAX_MOVE_TIME + 1, 10**40])
def test_a_turn_based_game_needs_whole_seconds_within_the_limits(move_time):
    with pytest.raises(ValueError, match="move_time") as err:
        check_clock("turn", move_time, None)
    assert "60 to 1209600" in str(err.value)  # says what is allowed


def test_the_limits_and_defaults_of_a_turn_based_game():
    assert check_clock("turn", 60, None) == ("turn", 60, "bot")
    assert check_clock("turn", clocks.MAX_MOVE_TIME, "lose") == ("turn", 1_209_600, "lose")
    assert check_clock("turn", 1, "drop", min_move_time=1) == ("turn", 1, "drop")
    with pytest.raises(ValueError, match="from 5 to"):
        check_clock("turn", 4, None, min_move_time=5)


@pytest.mark.parametrize("speed", ["blitz", "", None, "Turn", 1])
def test_an_unknown_speed_is_refused_naming_the_speeds(speed):
    with pytest.raises(ValueError, match=r"'live'.*'turn'"):
        check_clock(speed, 60, None)


@pytest.mark.parametrize("on_timeout", ["nap", "", "BOT", 1])
def test_an_unknown_consequence_is_refused_naming_the_three(on_timeout):
    with pytest.raises(ValueError, match=r"'bot'.*'drop'.*'lose'"):
        check_clock("turn", 60, on_timeout)


def test_the_clock_runs_only_for_a_person_to_move_in_a_running_game():
    seats = [("human", False), ("bot", False), ("open", False), ("human", True)]
    assert running_seat("turn", "running", 0, seats) == 0
    assert running_seat("turn", "running", 1, seats) is None  # a bot moves
    assert running_seat("turn", "running", 3, seats) is None  # forfeited: a bot plays it
    assert running_seat("turn", "open", 0, seats) is None  # waits for players
    assert running_seat("turn", "finished", 0, seats) is None
    assert running_seat("turn", "running", -1, seats) is None  # chance
    assert running_seat("turn", "running", -4, seats) is None  # over


def test_several_actions_of_one_seat_make_one_turn_but_a_timeout_starts_a_new_one():
    later = T0 + dt.timedelta(minutes=5)
    assert turn_start(0, 0, T0, later) == T0  # the same seat still to move: same clock
    assert turn_start(1, 0, T0, later) == later  # the next seat: its clock starts now
    assert turn_start(0, None, None, later) == later  # the table filled: starts now
    assert turn_start(0, 0, T0, later, fresh=True) == later  # after a timeout
    assert turn_start(None, 0, T0, later) is None  # a bot or chance to move: no clock
    naive = T0.replace(tzinfo=None)  # as SQLite hands it back
    assert turn_start(0, 0, naive, later) == T0


def test_the_deadline_and_the_reminder():
    assert deadline(T0, 3600) == T0 + dt.timedelta(hours=1)
    assert deadline(T0.replace(tzinfo=None), 60) == T0 + dt.timedelta(minutes=1)
    assert deadline(None, 60) is None
    # a quarter of the move time left, or an hour, whichever is less
    assert reminder_at(T0, 3600) == T0 + dt.timedelta(minutes=45)
    assert reminder_at(T0, 2 * 86_400) == T0 + dt.timedelta(days=2) - dt.timedelta(hours=1)
    assert reminder_at(T0, 4 * 3600) == T0 + dt.timedelta(hours=3)
    assert reminder_at(T0, 60) == T0 + dt.timedelta(seconds=45)


def test_what_a_timeout_brings():
    assert [consequence("bot", n) for n in range(5)] == ["bot"] * 5
    assert [consequence("drop", n) for n in range(3)] == ["bot", "bot", "drop"]
    assert consequence("lose", 0) == "lose"
    assert consequence(None, 7) == "bot"  # a game stored before clocks had a default


def test_a_forfeit_ranks_the_seat_last():
    result = {"returns": [1.0, 0.0, 0.0], "scores": [40, 31, 25]}
    # the forfeited seat's bot won: the win goes to the best of the others by points
    assert ranked_last(result, [0]) == {"returns": [0.0, 1.0, 0.0], "scores": [40, 31, 25],
                                        "forfeited": [0]}
    assert ranked_last(result, [1]) == {**result, "returns": [1.0, 0.0, 0.0],
                                        "forfeited": [1]}
    tied = {"returns": [1.0, 0.0, 0.0], "scores": [40, 31, 31]}
    assert ranked_last(tied, [0])["returns"] == [0.0, 0.5, 0.5]
    assert ranked_last(result, []) is result
    assert ranked_last(None, [0]) is None


def test_a_game_of_two_ended_by_a_forfeit():
    assert forfeit_result(2, 0, [0], [12, 30]) == {
        "returns": [0.0, 1.0], "scores": [12, 30], "forfeit": 0, "forfeited": [0]}
    assert forfeit_result(2, 1, [], [12, 30])["returns"] == [1.0, 0.0]


def test_the_clock_as_the_api_shows_it():
    shown = clock_json("turn", 3600, "drop", 1, T0.replace(tzinfo=None), [0, 2], [False, False])
    assert shown == {"speed": "turn", "move_time": 3600, "on_timeout": "drop", "seat": 1,
                     "started_at": "2030-05-01T12:00:00+00:00",
                     "deadline": "2030-05-01T13:00:00+00:00",
                     "timeouts": [0, 2], "forfeited": [False, False]}
    stopped = clock_json("turn", 3600, "bot", None, None, [1, 0], [False, True])
    assert (stopped["seat"], stopped["started_at"], stopped["deadline"]) == (None, None, None)
