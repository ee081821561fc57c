"""Axio's page on the four screens of `tests/web/screens.py` (issue 34), in Chromium.

At each viewport a game against the greedy bot whose first hand tile has an empty corner, so
that a turn goes through all three steps of a placement: a free cell on the board, then a
rotation of the hand tile, then a colour for the empty corner (both in the dock). At each step,
and at the next turn, the page passes the shared checks; the game-specific faults of the issue
are asserted where they were seen. The last turn of a game and its end are reached once, on a
phone.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from tests.web import screens
from tests.web.apps import live_server
from tests.web.browsers import browser
from tests.web.screens import reason_of_click
from tests.web.test_browser import click_move, csp_violations, page_view

__all__ = ["browser"]  # the fixture, shared with the other browser tests

PHONES = ("phone", "small-phone")
TARGET = 32  # CSS px: the least a finger can hit


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Any:
    with live_server(Path(tmp_path_factory.mktemp("axio-screens"))) as url:
        yield url


def empty_corner_game(page: Any, base: str) -> dict[str, Any]:
    """A new game against the greedy bot in which seat 0 (ours) holds a tile with an empty
    corner (one tile in six has one: new games until it does)."""
    for _ in range(80):
        created = page.request.post(base + "/api/games", data={
            "game": "axio", "options": {"num_players": 2}, "seats": ["taken", "bot:greedy"]})
        assert created.ok, created.text()
        info = created.json()
        seat = info["seats"][0]
        view = page.request.get(f"{base}/api/games/{info['id']}/view",
                                headers={"Authorization": f"Bearer {seat['token']}"}).json()
        hand = view["observation"].get("hand")
        if hand and None in hand["corners"] and view["legal"]:
            return info  # type: ignore[no-any-return]
    raise AssertionError("no game dealt a tile with an empty corner in 80 tries")


def open_page(context: Any, base: str) -> tuple[Any, list[str]]:
    """Our seat's page of an empty-corner game at its first turn; (page, page errors)."""
    page = context.new_page()
    errors = csp_violations(page)  # and the page's uncaught errors
    page.on("pageerror", lambda err: errors.append(str(err)))
    info = empty_corner_game(page, base)
    seat = info["seats"][0]
    page.goto(seat["url"] + "#token=" + seat["token"])
    screens.wait_turn(page)
    page.wait_for_selector("#board-content .ax-cell.pick")
    return page, errors


def boxes(page: Any, selector: str) -> list[dict[str, Any]]:
    """Each element's key (or text) and its box on the screen, with the page at its top."""
    page.evaluate("window.scrollTo(0, 0)")
    return page.evaluate("""(sel) => [...document.querySelectorAll(sel)].map((el) => {
      const r = el.getBoundingClientRect();
      return {what: el.getAttribute('data-key') || el.id || el.textContent.trim().slice(0, 20),
              box: [r.left, r.top, r.right, r.bottom].map(Math.round)}; })""", selector)


def off_screen(page: Any, selector: str) -> list[dict[str, Any]]:
    size = page.evaluate("[innerWidth, innerHeight]")
    return [b for b in boxes(page, selector)
            if b["box"][0] < -1 or b["box"][1] < -1 or b["box"][2] > size[0] + 1
            or b["box"][3] > size[1] + 1]


def assert_in_words(text: str, where: str) -> None:
    """Issue point 9: a refusal is the rules' reason in words: never the generic text, never
    the engine's notation (a move text in brackets or quotes, `empty=`, `rot `)."""
    assert text and text not in screens.GENERIC, f"{where}: the generic refusal {text!r}"
    for notation in ("('", "')", "'place", "empty=", " rot ", "<colour>"):
        assert notation not in text, f"{where}: notation {notation!r} in {text!r}"


def shared_checks(page: Any, zooms: bool = False) -> None:
    if zooms:
        screens.check_every_zoom(page)
    screens.check_fit(page)
    screens.check_turn_in_view(page, ".ax-prompt, .ax-strip")
    screens.check_wrong_click(page)


def check_plus_never_widens(page: Any, viewport: str) -> None:
    """Issue point 1: 'tapping + makes the whole page 528 px wide on a 390 px screen; −, the
    side panels and the hand go off-screen'. Every tap on + up to the largest zoom: the page
    is never wider than the screen, and −, Fit, the side panels and the hand tile's rotations
    stay on it (the board pans inside its frame)."""
    screens.zoom_to(page, "fit")
    for taps in range(1, 9):
        before = page.evaluate("window.TlatelolcoPage.scale")
        if viewport in PHONES or viewport == "tablet":
            page.tap("#zoom-in")
        else:
            page.click("#zoom-in")
        page.wait_for_timeout(30)
        assert screens.overflow(page) is None, f"after {taps} taps: {screens.overflow(page)}"
        assert off_screen(page, "#zoom-out, #zoom-fit, #zoom-in, #dock-game .ax-rot") == [], \
            f"after {taps} taps on +"
        size = page.evaluate("innerWidth")
        for side in boxes(page, ".side section"):
            assert side["box"][2] <= size + 1, f"after {taps} taps: a side panel {side}"
        if page.evaluate("window.TlatelolcoPage.scale") == before:
            break
    assert page.evaluate("window.TlatelolcoPage.scale") >= 2
    screens.zoom_to(page, "fit")


def small_targets(page: Any, selector: str) -> list[Any]:
    return [b for b in boxes(page, selector)
            if b["box"][2] - b["box"][0] < TARGET or b["box"][3] - b["box"][1] < TARGET]


def step_text(page: Any) -> str:
    """The step of the placement the prompt says now (the visible one)."""
    return page.evaluate("[...document.querySelectorAll('#dock-game .ax-step')]"
                         ".filter((el) => el.getClientRects().length)"
                         ".map((el) => el.textContent).join(' ')")


@pytest.mark.parametrize("viewport", list(screens.VIEWPORTS))
def test_a_turn_in_three_steps_fits_the_screen(browser, base, viewport) -> None:
    """A placement (cell, rotation, colour) at every step: the whole board in its frame at
    Fit, the prompt, the hand tile's rotations and colours and the tracks on the screen
    (issue points 3 and 5: 'everything a turn needs ... reachable without leaving the board';
    'the action bar ... below the fold'), the dock at most 40 % of a phone, + never widening
    the page (point 1), a wrong click answered on one line (point 8)."""
    context = screens.new_context(browser, viewport)
    page, errors = open_page(context, base)
    # step 1, a free cell: the rotations and colours wait in the dock, in sight
    assert step_text(page) == "Pick a free cell on the board for your tile."
    shared_checks(page, zooms=True)
    screens.check_dock_share(page, viewport)
    check_plus_never_widens(page, viewport)
    assert off_screen(page, "#dock-game .ax-rot, #dock-game .ax-swatch") == []
    # at Fit the early display is large: every free cell and every dock target is finger-sized
    assert small_targets(page, "#board-content .ax-cell.pick, #dock-game [data-key]") == []
    # step 2, a rotation (its points under it), with the cell picked on the board
    page.locator("#board-content .ax-cell.pick").first.click()
    page.wait_for_selector("#dock-game .ax-rot.pick")
    assert step_text(page) == "Pick a rotation: its points are shown under it."
    assert page.locator("#dock-game .ax-pts:visible").count() == 4, "each rotation's points"
    screens.check_fit(page)
    screens.check_turn_in_view(page, ".ax-prompt, .ax-strip")
    screens.check_dock_share(page, viewport)
    # step 3, a colour for the empty corner
    page.locator("#dock-game .ax-rot.pick").first.click()
    page.wait_for_selector("#dock-game .ax-swatch.pick")
    assert step_text(page) == "Name a colour for the empty corner."
    screens.check_turn_in_view(page, ".ax-prompt, .ax-strip")
    screens.check_dock_share(page, viewport)
    version = page_view(page)["version"]
    page.locator("#dock-game .ax-swatch.pick").first.click()
    page.wait_for_function(f"() => window.TlatelolcoPage.view.version > {version}")
    # the next turn, after the bot's: a larger display, the same checks
    view = screens.wait_turn(page)
    if view["status"] == "running":
        page.wait_for_selector("#board-content .ax-cell.pick")
        shared_checks(page)
        screens.check_dock_share(page, viewport)
    assert errors == []
    context.close()


def test_every_wrong_click_gets_the_rules_reason(browser, base) -> None:
    """Issue point 9: each kind of piece drawn with a key, clicked when it is no move, is
    answered with the engine's reason in words (in the reader's language), never 'That is
    not one of your moves now.' nor notation such as "('place crowd at B3')"."""
    context = screens.new_context(browser, "laptop")
    page, errors = open_page(context, base)
    said = {
        "an empty square away from the display": reason_of_click(page, "#board-content .ax-void"),
        "a placed tile": reason_of_click(page, "#board-content .ax-tiles [data-key]"),
        "a rotation before its cell": reason_of_click(page, "#dock-game .ax-rot"),
        "a colour before its cell": reason_of_click(page, "#dock-game .ax-swatch"),
    }
    page.locator("#board-content .ax-cell.pick").first.click()
    page.wait_for_selector("#dock-game .ax-rot.pick")
    said["another free cell after a cell"] = reason_of_click(
        page, "#board-content .ax-cell:not(.picked)")
    said["a colour before the rotation"] = reason_of_click(page, "#dock-game .ax-swatch")
    for where, text in said.items():
        assert_in_words(text, where)
    assert "does not touch the display along an edge" in \
        said["an empty square away from the display"]
    assert "already holds a tile" in said["a placed tile"]
    assert said["a rotation before its cell"] == "That move is legal: pick it on the board."
    # a valid pick clears the reason
    page.locator("#dock-game .ax-rot.pick").first.click()
    page.wait_for_selector("#reason", state="hidden")
    page.keyboard.press("Escape")
    check_focus_ring(page)
    # in Spanish, the engine's reason in Spanish
    with page.expect_navigation():
        page.get_by_role("button", name="Español").click()
    screens.wait_turn(page)
    page.wait_for_selector("#board-content .ax-cell.pick")
    text = reason_of_click(page, "#board-content .ax-void")
    assert_in_words(text, "in Spanish")
    assert "no toca" in text, text
    assert errors == []
    context.close()


def check_focus_ring(page: Any) -> None:
    """Issue point 12: keyboard focus on a piece is the shell's black ring, which no other
    mark uses: the game's own CSS no longer styles a focused cell like its hover glow (the
    free cell's fill and stroke stay those of any clickable cell)."""
    cell = page.locator("#board-content .ax-cell.pick")
    looks = ("(el) => { const r = el.querySelector('.ax-free'), s = getComputedStyle(r),"
             " g = getComputedStyle(el); return {fill: s.fill, stroke: s.stroke,"
             " width: s.strokeWidth, outline: g.outlineStyle + ' ' + g.outlineColor}; }")
    resting = cell.nth(1).evaluate(looks)
    cell.first.focus()
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Tab")  # focus from the keyboard: :focus-visible
    focused = cell.first.evaluate(looks)
    assert focused["outline"] == "solid rgb(0, 0, 0)", focused  # 3 px, scaled with the board
    assert {k: focused[k] for k in ("fill", "stroke", "width")} == \
        {k: resting[k] for k in ("fill", "stroke", "width")}


def play_to_the_last_tile(page: Any, base: str) -> dict[str, Any]:
    """A new game against the greedy bot, played through the API (seat 0 takes its first
    legal move) until seat 0 is to place the last tile of its stack; the created game."""
    created = page.request.post(base + "/api/games", data={
        "game": "axio", "options": {"num_players": 2}, "seats": ["taken", "bot:greedy"]})
    assert created.ok, created.text()
    info = created.json()
    url = f"{base}/api/games/{info['id']}"
    me = {"Authorization": f"Bearer {info['seats'][0]['token']}"}
    for _ in range(600):
        view = page.request.get(url + "/view", headers=me).json()
        obs = view["observation"]
        mine = view["legal"] and view["to_move"] == view["viewer"]
        if mine and obs["stacks"][0] == 0 and not obs.get("extra_turn"):
            return info  # type: ignore[no-any-return]
        if mine:
            page.request.post(url + "/actions", headers=me, data={
                "version": view["version"], "text": view["legal"][0]["text"]})
        else:
            page.wait_for_timeout(20)  # the bot's move
    raise AssertionError(f"the game did not reach seat 0's last tile: {view['status']}")


def test_the_last_turn_and_the_end_on_a_phone(browser, base) -> None:
    """The last tile of the stack (the largest display of the game) and the finished game, on
    a phone: the board fits and the turn is in sight; at the end the page still never widens,
    the result and everyone's tracks are there."""
    context = screens.new_context(browser, "phone")
    page = context.new_page()
    errors = csp_violations(page)
    page.on("pageerror", lambda err: errors.append(str(err)))
    info = play_to_the_last_tile(page, base)
    page.goto(info["seats"][0]["url"] + "#token=" + info["seats"][0]["token"])
    view = screens.wait_turn(page)
    page.wait_for_selector("#board-content .ax-cell.pick")
    screens.check_fit(page)
    screens.check_turn_in_view(page, ".ax-prompt, .ax-strip")
    screens.check_dock_share(page, "phone")
    click_move(page, "axio", random.Random(34).choice(view["legal"]), view["version"])
    page.wait_for_function("() => window.TlatelolcoPage.view.status === 'finished'")
    screens.wait_turn(page)
    screens.check_every_zoom(page)
    screens.check_fit(page)
    screens.check_turn_in_view(page, ".ax-strip")
    screens.check_wrong_click(page)  # a placed tile: the game is over
    assert page.locator("#result").is_visible()
    assert page.locator("#dock-game .ax-strip .ax-srow").count() == 2, "everyone's final tracks"
    assert page.locator("#board-content .ax-cell, #dock-game .ax-rot").count() == 0
    assert errors == []
    context.close()
