"""Each game as a Spanish-speaking player on a phone would meet it (Chromium, 390×844).

A full game against a bot by tapping the board, the board whole at first ("fit") and every
board target at least 32 px wide and high once zoomed in, the page in Spanish (from the browser's
language), the rules opened over the game and closed without leaving it, a move taken back
where the game allows it, a wrong tap answered with the engine's reason, and the rematch
landing in the new game. With TLATELOLCO_SCREENSHOTS=1 the phone screen (at "fit") is saved
to docs/screenshots/ for the README.
"""

from __future__ import annotations

import os
import random

import pytest
from tests.web.apps import live_server
from tests.web.browsers import PHONE, browser
from tests.web.test_browser import (
    SHOT_AT,
    SHOTS,
    choose,
    click_move,
    csp_violations,
    page_view,
)
from tests.web.test_browser import wait_moved as _wait_moved

__all__ = ["browser"]  # the fixture, shared with the desktop tests

GAMES = ["grand_bazaar", "aztec_market", "axio", "mexica"]
UNDO = {"grand_bazaar", "aztec_market", "mexica"}  # Axio draws after every placement
MIN_TARGET = 32


def wait_turn(page, timeout=60_000):
    page.wait_for_function(
        "() => { const v = window.TlatelolcoPage && window.TlatelolcoPage.view;"
        " return v && (v.status === 'finished' || (v.legal.length > 0 &&"
        " !window.TlatelolcoPage.sending)); }", timeout=timeout)
    return page_view(page)


def small_targets(page) -> list[str]:
    return page.evaluate(
        "(least) => [...document.querySelectorAll('#board .pick')].map((el) => {"
        " const r = el.getBoundingClientRect();"
        " return [el.getAttribute('data-key'), Math.round(r.width), Math.round(r.height)]; })"
        ".filter(([k, w, h]) => w < least || h < least)"
        ".map(([k, w, h]) => `${k}: ${w}x${h}`)", MIN_TARGET)


def zoom_for_thumbs(page) -> list[str]:
    """Zoom in ("+") as a player would until every piece to tap is at least MIN_TARGET px
    (Mexica's 23 columns need 300 %); the pieces still too small at the largest zoom."""
    small = small_targets(page)
    while small and page.evaluate("window.TlatelolcoPage.scale") < 4:
        page.click("#zoom-in")
        small = small_targets(page)
    return small


@pytest.mark.parametrize("game", GAMES)
def test_a_whole_game_on_a_phone_in_spanish(browser, tmp_path, game):
    rng = random.Random(f"phone:{game}")
    with live_server(tmp_path) as base:
        context = browser.new_context(viewport=PHONE, locale="es-ES", has_touch=True,
                                      device_scale_factor=2)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda err: errors.append(str(err)))
        violations = csp_violations(page)
        created = page.request.post(base + "/api/games", data={
            "game": game, "options": {"num_players": 2}, "seats": ["taken", "bot:greedy"]})
        assert created.ok, created.text()
        seat = created.json()["seats"][0]
        page.goto(seat["url"] + "#token=" + seat["token"])
        current = wait_turn(page)
        assert page.evaluate("document.documentElement.lang") == "es"
        assert page.locator("#log-h").text_content() == "Jugadas"

        # the rules, over the game: opened and closed, the page never left
        url = page.url
        page.click("#rules-link")
        dialog = page.locator("#rules-dialog")
        dialog.wait_for(state="visible")
        page.wait_for_function("() => document.querySelector('#rules-dialog h2')")
        assert page.url == url
        page.keyboard.press("Escape")
        dialog.wait_for(state="hidden")
        assert page.url == url and page_view(page)["version"] == current["version"]

        # a wrong tap: a board piece that is no move now says why
        wrong = page.locator("#board [data-key]:not(.pick)")
        if wrong.count():
            wrong.first.click(force=True)
            page.wait_for_selector("#reason:not([hidden])")
            assert page.locator("#reason").text_content().strip()

        # the board opens whole ("fit"); zoomed in, every piece is big enough for a thumb
        assert page.evaluate("window.TlatelolcoPage.zoom") == "fit"
        zoom_for_thumbs(page)
        undone = False
        moves = 0
        while True:
            current = wait_turn(page)
            if current["status"] == "finished":
                break
            assert page.locator("#turn").text_content() == "Tu turno"
            small = zoom_for_thumbs(page)
            assert not small, f"board targets under {MIN_TARGET} px at 400 %: {small[:5]}"
            move = choose(rng, current["legal"])
            before = current["version"]
            click_move(page, game, move, before)
            _wait_moved(page, before, move)
            moves += 1
            if moves == SHOT_AT[game] and os.environ.get("TLATELOLCO_SCREENSHOTS"):
                SHOTS.mkdir(parents=True, exist_ok=True)
                page.click("#zoom-fit")
                page.evaluate("window.scrollTo(0, 0)")
                page.screenshot(path=str(SHOTS / f"{game}-phone-es.png"))
                zoom_for_thumbs(page)
            after = page_view(page)
            if not undone and after["undo"] > 0 and after["to_move"] == after["viewer"]:
                page.click("#undo")
                page.wait_for_function(f"() => window.TlatelolcoPage.view.version === {before}"
                                       " && !window.TlatelolcoPage.sending")
                assert len(page.evaluate("window.TlatelolcoPage.log")) == before
                undone = True
        assert undone == (game in UNDO), f"undo used: {undone}"
        assert moves > 0
        assert page.locator("#turn").text_content() == "Fin de la partida"
        log_words = page.locator("#log li .words").all_text_contents()
        assert log_words and all(w.strip() for w in log_words)

        # the rematch: straight into the new game, the seat carried over
        finished = page_view(page)["game_id"]
        page.click("#rematch")
        page.wait_for_url(lambda u: finished not in u, timeout=15_000)
        again = wait_turn(page)
        assert again["game_id"] != finished and again["viewer"] is not None
        assert errors == [], errors
        assert violations == [], violations
        context.close()
