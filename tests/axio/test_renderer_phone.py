"""Axio's board on a phone (390 x 844 CSS px), in Debian's Chromium driven by Playwright.

A whole game against a bot at zoom 100 % (the board laid out at the frame's width), picked by
touch-sized clicks: at every turn each clickable target (on the board, or the hand tile's
rotations and colours in the dock under it) is at least 32 x 32 px. The renderer's words for
pick keys, its guess of the move a wrong click meant, the last-move keys and the Spanish board
are checked on the live view.
"""

from __future__ import annotations

import json
import urllib.request
from typing import Any

from tests.web.apps import live_server
from tests.web.browsers import PHONE, browser
from tests.web.test_browser import csp_violations, wait_turn

import tlatelolco

__all__ = ["browser"]  # the fixture, shared with tests/web/test_browser.py

TARGET = 32  # CSS px: the least a finger can hit
PICKS = "#board-content .pick, #dock-game .pick"  # where the renderer's targets are
ZOOM_100 = "localStorage.setItem('tlatelolco:zoom:axio', '1')"  # the page's kept zoom


def create_game(base: str) -> tuple[str, str]:
    """An Axio game of seat 0 (ours) against the greedy bot: (game id, our credential)."""
    body = json.dumps({"game": "axio", "options": {"num_players": 2},
                       "seats": ["taken", "bot:greedy"], "name": "Ana"}).encode()
    request = urllib.request.Request(base + "/api/games", data=body, method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        game = json.loads(response.read())
    return game["id"], game["seats"][0]["token"]


def small_targets(page: Any) -> list[str]:
    """The clickable board targets smaller than TARGET px either way, with their sizes."""
    return page.evaluate(
        "([sel, least]) => [...document.querySelectorAll(sel)].map((el) => {"
        " const r = el.getBoundingClientRect();"
        " return [el.getAttribute('data-key'), Math.round(r.width * 10) / 10,"
        " Math.round(r.height * 10) / 10]; })"
        ".filter(([k, w, h]) => w < least || h < least)", [PICKS, TARGET])


def pickable(page: Any) -> int:
    return int(page.evaluate("(sel) => document.querySelectorAll(sel).length", PICKS))


def renderer(page: Any, call: str, *args: Any) -> Any:
    """`T.renderers.axio.<call>(...args, view)` on the page's current view."""
    return page.evaluate(
        "([call, args]) => window.Tlatelolco.renderers.axio[call]"
        "(...args, window.TlatelolcoPage.view)", [call, list(args)])


def check_renderer_words(page: Any) -> None:
    """label, attempt and lastMoveKeys on the live view (mid-game, our turn)."""
    view = page.evaluate("window.TlatelolcoPage.view")
    obs = view["observation"]
    assert renderer(page, "label", "cell:-1,3") == "cell (-1,3)"
    assert renderer(page, "label", "rot:0") == "0° as drawn"  # as the rotation's card says
    assert renderer(page, "label", "rot:90") == "90°"
    assert renderer(page, "label", "empty:blue") == "blue for the empty corner"
    placed = obs["display"][0]
    key = f"cell:{placed['x']},{placed['y']}"
    # A placed tile carries its cell's key: clicking it means placing there, which the engine
    # refuses with its reason.
    assert page.locator(f'#board-content [data-key="{key}"]').count() == 1
    text = renderer(page, "attempt", [], key)
    hand_has_empty = None in obs["hand"]["corners"]
    assert text == f"place at ({placed['x']},{placed['y']}) rot 0" + (
        " empty=red" if hand_has_empty else "")
    state = tlatelolco.load("axio").new_initial_state()
    assert state.parse_action(text) is not None
    # a rotation after a cell means that placement; without a cell, in the first legal cell
    legal = view["legal"][0]["move"]
    meant = renderer(page, "attempt", [f"cell:{legal['x']},{legal['y']}"],
                     f"rot:{legal['rotation']}")
    assert meant in [m["text"] for m in view["legal"]]
    assert renderer(page, "attempt", [], "rot:90") in [m["text"] for m in view["legal"]]
    assert renderer(page, "attempt", [], "the supply") is None  # no key of a placement
    assert renderer(page, "lastMoveKeys", {"kind": "place", "x": 3, "y": -2, "rotation": 90,
                                           "empty": None}) == ["cell:3,-2"]
    assert renderer(page, "lastMoveKeys", {"kind": "start", "tile": placed["tile"],
                                           "rotation": 0}) == [key]
    assert renderer(page, "lastMoveKeys", {"kind": "draw", "tile": 7}) == []
    # no internal key is shown as text on the board, in the dock or below
    for area in ("#board-content", "#dock-game", "#extras"):
        assert "cell:" not in page.locator(area).inner_text()


def result_text(page: Any, scores: list[list[int]], returns: list[float]) -> str:
    """The renderer's end-of-game summary for these boards (red, green, blue, orange, purple)
    and returns, as text."""
    return page.evaluate(
        "([scores, returns]) => { const colours = ['red', 'green', 'blue', 'orange', 'purple'];"
        " const view = {players: scores.map((s, i) => ({name: 'P' + i})), viewer: null,"
        " result: {returns}, observation: {terminal: true, returns,"
        " scores: scores.map((s) => Object.fromEntries(colours.map((c, i) => [c, s[i]])))}};"
        " const box = document.createElement('div');"
        " box.innerHTML = window.Tlatelolco.renderers.axio.result(view);"
        " return box.textContent; }", [scores, returns])


def check_results(page: Any) -> None:
    """The summary's sentences: a solo game, a tie-break, a shared victory."""
    solo = result_text(page, [[3, 12, 5, 4, 6]], [1.0])
    assert solo.startswith("Solo game: P0 ends with 3 in the lowest colour")
    tie = result_text(page, [[4, 6, 7, 9, 12], [4, 5, 8, 8, 8], [2, 9, 9, 9, 9]],
                      [1.0, 0.0, 0.0])
    assert tie.startswith("P0 wins with 4 in the lowest colour.")
    assert ("Tie-break: P1 also had 4 as the lowest colour; the tie-break compares the next "
            "colours from low to high, and the second-lowest colour decided it: 6 for P0 "
            "against 5.") in tie
    shared = result_text(page, [[4, 6, 7, 9, 12], [12, 9, 7, 6, 4], [1, 2, 3, 4, 5]],
                         [0.5, 0.5, 0.0])
    assert shared.startswith("Shared victory of P0 and P1: equal in all five colours")


def check_spanish(page: Any) -> None:
    """The board drawn again after the Spanish catalogue is loaded speaks Spanish."""
    text = page.evaluate(
        "async () => { const T = window.Tlatelolco; await T.loadLanguage('es');"
        " const box = document.createElement('div');"
        " T.renderers.axio.draw(box, window.TlatelolcoPage.view);"
        " const label = T.renderers.axio.label('rot:0');"
        " await T.loadLanguage('en'); return box.textContent + ' | ' + label; }")
    assert "Marcadores" in text and "Suministro general" in text, text
    assert text.endswith("| 0° robada")
    assert "Score boards" not in text


def test_phone_targets_are_finger_sized_through_a_whole_game(browser, tmp_path) -> None:
    with live_server(tmp_path) as base:
        game_id, token = create_game(base)
        page = browser.new_page(viewport=PHONE, is_mobile=True, has_touch=True)
        page.add_init_script(ZOOM_100)
        errors: list[str] = []
        page.on("pageerror", lambda err: errors.append(str(err)))
        violations = csp_violations(page)
        page.goto(f"{base}/games/{game_id}#token={token}")
        turns = 0
        while True:
            view = wait_turn(page)
            if view["status"] == "finished":
                break
            page.wait_for_selector("#board-content .ax-cell.pick")
            assert page.evaluate("window.TlatelolcoPage.scale") == 1
            assert small_targets(page) == [], f"turn {turns}: targets under {TARGET} px"
            if turns == 2:
                check_renderer_words(page)
                check_spanish(page)
                page.wait_for_selector("#board-content .ax-cell.pick")
            before = view["version"]
            # pick as a finger would: the first free cell, then the first of each next choice
            while page.evaluate(f"window.TlatelolcoPage.view.version === {before}"
                                " && !window.TlatelolcoPage.sending"):
                count = pickable(page)
                assert count, "no target to pick"
                assert small_targets(page) == []
                page.locator(PICKS).first.click()
                page.wait_for_timeout(50)
            turns += 1
        assert turns >= 12, "each player places the 12 tiles of their stack"
        assert page.locator("#result").is_visible()
        summary = page.locator("#result").inner_text()
        assert "lowest colour" in summary and "{" not in summary, summary
        check_results(page)
        assert errors == [] and violations == []
        page.close()


def test_the_display_zooms_inside_its_frame_on_a_phone(browser, tmp_path) -> None:
    """At 100 % the display is drawn at the frame's width; at 200 % twice as wide, panned in
    the frame, the page no wider than the screen; Fit shows it whole again."""
    with live_server(tmp_path) as base:
        game_id, token = create_game(base)
        page = browser.new_page(viewport=PHONE, is_mobile=True, has_touch=True)
        page.add_init_script(ZOOM_100)
        page.goto(f"{base}/games/{game_id}#token={token}")
        wait_turn(page)
        page.wait_for_selector("#board-content .ax-display")
        size = ("() => { const s = document.querySelector('#board-content .ax-display');"
                " const f = document.getElementById('board');"
                " return {display: s.getBoundingClientRect().width, frame: f.clientWidth,"
                " pans: f.scrollWidth > f.clientWidth + 1,"
                " page: document.documentElement.scrollWidth}; }")
        at_100 = page.evaluate(size)
        assert page.evaluate("window.TlatelolcoPage.scale") == 1
        assert at_100["frame"] - 12 <= at_100["display"] <= at_100["frame"], at_100
        while page.evaluate("window.TlatelolcoPage.scale") < 2:
            page.tap("#zoom-in")
        at_200 = page.evaluate(size)
        assert abs(at_200["display"] - 2 * at_100["display"]) <= 2, (at_100, at_200)
        assert at_200["pans"] and at_200["page"] <= PHONE["width"], at_200
        page.tap("#zoom-fit")
        fit = page.evaluate(size)
        assert not fit["pans"] and fit["display"] <= fit["frame"], fit
        page.close()
