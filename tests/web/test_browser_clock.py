"""The clock of a turn-based game on its page (Chromium through Playwright).

The seat to move shows its time left counting down ("2 d 3 h", "9:58", "0:42"; red in the last
minute), in the turn bar and on its line among the players; the table's speed and what a timeout
brings are said under the players; a timeout shows as a note and a count on the seat's line, a
forfeit in the result. In English on a desktop, in Spanish on a phone (390×844) whose page never
grows wider than the screen.

A timeout is brought on by moving the turn's start back in the database, as if the move time
had gone by: the server's clock task finds it there and applies it, as it would after a real
wait (tests/web/test_turn_based.py runs real short clocks too).
"""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path
from typing import Any

from sqlalchemy import update
from tests.web.apps import live_server
from tests.web.browsers import PHONE, browser
from tests.web.test_browser import csp_violations

from tlatelolco.web.storage.db import games, make_engine
from tlatelolco.web.storage.store import Store

__all__ = ["browser"]  # the shared fixture


def create(page: Any, base: str, seats: list[str], move_time: int, on_timeout: str
           ) -> dict[str, Any]:
    response = page.request.post(base + "/api/games", data={
        "game": "grand_bazaar", "options": {"num_players": 2}, "seats": seats,
        "speed": "turn", "move_time": move_time, "on_timeout": on_timeout})
    assert response.ok, response.text()
    return response.json()  # type: ignore[no-any-return]


def open_turn(page: Any, game: dict[str, Any], seat: int) -> dict[str, Any]:
    """`seat`'s page once its clock runs (the bot may move first); the view."""
    page.goto(game["seats"][seat]["url"] + "#token=" + game["seats"][seat]["token"])
    page.wait_for_function(
        "() => { const v = window.TlatelolcoPage && window.TlatelolcoPage.view;"
        f" return v && v.clock && v.clock.seat === {seat} && v.legal.length > 0; }}")
    return page.evaluate("window.TlatelolcoPage.view")  # type: ignore[no-any-return]


def seconds(text: str) -> int:
    """A clock's text as seconds: "9:58" or "1:02:03"."""
    parts = [int(p) for p in text.split(":")]
    total = 0
    for part in parts:
        total = total * 60 + part
    return total


def run_out(tmp_path: Path, game_id: str) -> None:
    """The running clock of `game_id` as if its move time had gone by (see the module)."""
    store = Store(make_engine(f"sqlite:///{tmp_path / 'live.db'}"))
    row = store.load_game(game_id, with_history=False)
    assert row is not None and row.turn_started_at is not None and row.move_time
    with store.engine.begin() as db:
        db.execute(update(games).where(games.c.id == game_id).values(
            turn_started_at=row.turn_started_at - dt.timedelta(seconds=row.move_time + 1)))
    store.engine.dispose()


def narrow(page: Any) -> bool:
    """Whether the page is no wider than the screen (nothing to scroll sideways)."""
    return bool(page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth"
                              " && document.body.scrollWidth <= window.innerWidth"))


def test_the_clock_counts_down_and_a_timeout_shows_in_english(browser, tmp_path):
    with live_server(tmp_path, min_move_time=1, clock_check=0.1) as base:
        context = browser.new_context(locale="en-US")
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda err: errors.append(str(err)))
        violations = csp_violations(page)
        game = create(page, base, ["taken", "bot:random"], 600, "bot")
        open_turn(page, game, 0)
        mine = page.locator(".player.seat-0 .clock-left")
        first = mine.text_content()
        assert re.fullmatch(r"(9|10):\d\d", first), first
        assert "low" not in (mine.get_attribute("class") or "")
        assert page.locator("#turn .clock-left").count() == 1  # in sight above the board
        assert page.locator(".player.seat-1 .clock-left").count() == 0  # the bot has none
        assert page.locator("#clock-info").text_content() == (
            "Turn-based: 10 min per move. Out of time: a bot plays that turn.")
        page.wait_for_function(
            "(was) => document.querySelector('.player.seat-0 .clock-left').textContent !== was",
            arg=first)
        assert seconds(mine.text_content()) < seconds(first)  # it counts down
        # out of time: the server's bot plays the turn; the seat says so and counts it
        run_out(tmp_path, game["id"])
        page.wait_for_function("() => !!document.querySelector('.player.seat-0 .timeout-note')")
        line = page.locator(".player.seat-0")
        assert line.locator(".timeout-note").text_content() == "Time out: a bot played"
        assert line.locator(".timeouts").text_content() == "1 timeout"
        assert line.locator(".name").text_content() != "Easy bot"  # still the person's seat
        # a long turn reads in days and hours
        long = create(page, base, ["taken", "taken"], 2 * 86_400 + 3 * 3_600 + 600, "drop")
        view = open_turn(page, long, 0) if long["clock"]["seat"] == 0 else open_turn(page, long, 1)
        left = page.locator(f".player.seat-{view['clock']['seat']} .clock-left").text_content()
        assert left == "2 d 3 h"
        assert page.locator("#clock-info").text_content() == (
            "Turn-based: 2 d 3 h per move. Out of time: a bot plays that turn; at the third "
            "timeout it takes the seat.")
        assert not errors, errors
        assert not violations, violations
        context.close()


def test_the_clock_on_a_phone_in_spanish_with_a_forfeit(browser, tmp_path):
    with live_server(tmp_path, min_move_time=1, clock_check=0.1) as base:
        context = browser.new_context(viewport=PHONE, locale="es-ES", has_touch=True,
                                      device_scale_factor=2)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda err: errors.append(str(err)))
        violations = csp_violations(page)
        game = create(page, base, ["taken", "bot:random"], 50, "lose")
        open_turn(page, game, 0)
        assert page.evaluate("document.documentElement.lang") == "es"
        mine = page.locator(".player.seat-0 .clock-left")
        first = mine.text_content()
        assert re.fullmatch(r"0:[0-5]\d", first), first
        assert "low" in (mine.get_attribute("class") or "")  # red: under a minute
        color = mine.evaluate("(el) => getComputedStyle(el).color")
        assert color == "rgb(179, 38, 30)", color
        assert page.locator(".player.seat-0 .seat-clock .note").text_content() == "Queda:"
        assert page.locator("#clock-info").text_content() == (
            "Por turnos: 50 s por jugada. Si se acaba el tiempo: el asiento pierde la partida "
            "(un bot lo sigue jugando).")
        page.wait_for_function(
            "(was) => document.querySelector('#turn .clock-left').textContent !== was",
            arg=page.locator("#turn .clock-left").text_content())
        assert narrow(page)
        clock_box = page.locator(".player.seat-0 .seat-clock").bounding_box()
        assert clock_box is not None and clock_box["x"] + clock_box["width"] <= PHONE["width"]
        # out of time at a table where that loses: the game ends, in Spanish
        run_out(tmp_path, game["id"])
        page.wait_for_function("() => window.TlatelolcoPage.view.status === 'finished'")
        line = page.locator(".player.seat-0")
        assert line.locator(".forfeit").text_content() == "perdió por tiempo"
        assert line.locator(".timeouts").text_content() == "1 vez sin tiempo"
        assert line.locator(".timeout-note").text_content() == (
            "Tiempo agotado: el asiento pierde la partida y un bot lo sigue jugando")
        assert line.locator(".clock-left").count() == 0  # nobody's clock runs now
        result = page.locator("#result .forfeit-note").text_content()
        assert "se le acabó el tiempo y pierde la partida. Gana: Bot fácil" in result, result
        assert narrow(page)
        assert not errors, errors
        assert not violations, violations
        context.close()
