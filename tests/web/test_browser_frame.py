"""The frame around every board (issue 34), tried on Grand Bazaar in Chromium.

What the shell does for every game: a pinch zooms the board and never the page; after a move
the zoomed board scrolls to what changed; a clicked log entry shows the board as it was then,
with the way back; the hint's answer appears in the dock under the board, on the screen; a
spectator is told at once; a wrong click's reason is one line that moves nothing and goes at
the next valid pick; keyboard focus is a ring no other mark uses; names read in Spanish.
"""

from __future__ import annotations

from tests.web.apps import live_server
from tests.web.browsers import browser, play_as
from tests.web.screens import (
    check_wrong_click,
    new_context,
    open_game,
    overflow,
    wait_turn,
    zoom_to,
)
from tests.web.test_browser import page_view

__all__ = ["browser"]  # the shared fixture, used here
GAME = "grand_bazaar"


def frame_sees(page, selector: str) -> bool:
    """Whether the middle of an element matching `selector` on the board is inside the
    frame's visible part (a zoomed piece may be larger than the frame)."""
    return page.evaluate("""(sel) => {
      const f = document.getElementById('board').getBoundingClientRect();
      return [...document.querySelectorAll('#board-content ' + sel)].some((el) => {
        const r = el.getBoundingClientRect();
        const x = (r.left + r.right) / 2, y = (r.top + r.bottom) / 2;
        return r.width > 0 && x >= f.left && x <= f.right && y >= f.top && y <= f.bottom; });
    }""", selector)


def test_two_fingers_zoom_the_board_not_the_page(browser, tmp_path):
    """Point 1/2: pinch/zoom inside the board's own frame; the page keeps the screen's width."""
    with live_server(tmp_path) as base:
        context = new_context(browser, "phone")
        page, _ = open_game(context, base, GAME)
        fit = page.evaluate("window.TlatelolcoPage.scale")
        box = page.locator("#board").bounding_box()
        cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        cdp = context.new_cdp_session(page)

        def touch(kind: str, spread: float) -> None:
            points = [{"x": cx - spread, "y": cy, "id": 1}, {"x": cx + spread, "y": cy, "id": 2}]
            cdp.send("Input.dispatchTouchEvent",
                     {"type": kind, "touchPoints": [] if kind == "touchEnd" else points})

        touch("touchStart", 30)
        for spread in range(40, 130, 10):
            touch("touchMove", spread)
        touch("touchEnd", 0)
        page.wait_for_timeout(100)
        zoomed = page.evaluate("window.TlatelolcoPage.scale")
        assert zoomed > fit * 2, (fit, zoomed)
        assert page.evaluate("window.TlatelolcoPage.zoom") != "fit"
        assert overflow(page) is None
        assert page.evaluate("window.visualViewport.scale") == 1  # the page itself did not zoom
        frame = page.evaluate("(() => { const f = document.getElementById('board');"
                              " return [f.scrollWidth, f.clientWidth]; })()")
        assert frame[0] > frame[1], "the zoomed board pans inside its frame"
        # the zoom is kept for the game (this browser), and "Fit" brings the whole board back
        page.reload()
        wait_turn(page)
        assert abs(page.evaluate("window.TlatelolcoPage.scale") - zoomed) < 0.01
        zoom_to(page, "fit")
        assert page.evaluate("window.TlatelolcoPage.zoom") == "fit"
        context.close()


def test_after_a_move_the_zoomed_board_shows_what_changed(browser, tmp_path):
    """Point 2: the view follows the action instead of staying in an empty corner."""
    with live_server(tmp_path) as base:
        context = new_context(browser, "phone")
        page, game = open_game(context, base, GAME, seats=["taken", "taken"])
        for _ in range(6):
            zoom_to(page, "in")
        assert page.evaluate("window.TlatelolcoPage.scale") >= 3
        # scrolled to the far corner: the prices and the bazaar out of sight
        page.evaluate("(() => { const f = document.getElementById('board');"
                      " f.scrollTo(f.scrollWidth, f.scrollHeight); })()")
        view = page_view(page)
        buy = next(m for m in view["legal"] if m["move"]["kind"] == "buy")
        assert not frame_sees(page, f'[data-key="bazaar-{buy["move"]["gem"]}"]')
        play_as(page, base, game, 0, buy["text"])
        page.wait_for_function(f"() => window.TlatelolcoPage.view.version > {view['version']}")
        page.wait_for_timeout(100)
        assert frame_sees(page, ".last-move"), "the board stayed where nothing happened"
        context.close()


def test_a_log_entry_shows_the_board_as_it_was_and_the_way_back(browser, tmp_path):
    """Point 7: "sold a ruby for 11" must not light today's ruby priced 10: the board of
    that step (the replay's view), with the way back to the game."""
    with live_server(tmp_path) as base:
        context = new_context(browser, "laptop")
        page, game = open_game(context, base, GAME, seats=["taken", "taken"])
        first = page_view(page)
        buy = next(m for m in first["legal"] if m["move"]["kind"] == "buy")
        play_as(page, base, game, 0, buy["text"])
        view = wait_turn(page)
        end = next(m for m in view["legal"] if m["move"]["kind"] == "end_turn")
        play_as(page, base, game, 0, end["text"])
        page.wait_for_function(f"() => window.TlatelolcoPage.view.version > {view['version']}")
        now = page_view(page)
        step = buy_step = first["version"]  # the buy's step in the log
        page.locator(f'#log li[data-step="{step}"]').click()
        page.wait_for_selector("#history:not([hidden])")
        shown = page.evaluate("window.TlatelolcoPage.history")
        assert shown["version"] == buy_step + 1  # the board just after the buy
        assert shown["observation"] != now["observation"]  # not today's board
        said = page.locator("#history").text_content()
        assert f"move {buy_step + 1}" in said and buy["move"]["gem"] in said.lower()
        assert page.locator("#board-content .highlight").count() > 0  # the move on that board
        assert page.locator("#board-content .pick").count() == 0  # a picture, not a move
        # one step on, then back to the game (Escape does the same)
        page.click("#history button[aria-label='The move after']")
        page.wait_for_function(f"() => window.TlatelolcoPage.history &&"
                               f" window.TlatelolcoPage.history.version === {buy_step + 2}")
        page.click("#history-back")
        page.wait_for_selector("#history", state="hidden")
        assert page.evaluate("window.TlatelolcoPage.history") is None
        page.locator(f'#log li[data-step="{step}"]').click()
        page.wait_for_selector("#history:not([hidden])")
        page.keyboard.press("Escape")
        page.wait_for_selector("#history", state="hidden")
        context.close()


def test_the_hints_answer_appears_on_the_screen_under_the_board(browser, tmp_path):
    """Point 6: the answer is where the eye is (the dock), not below the board out of sight."""
    with live_server(tmp_path) as base:
        for viewport in ("laptop", "phone"):
            context = new_context(browser, viewport)
            page, _ = open_game(context, base, GAME)
            page.click("#hint-button")
            page.wait_for_selector("#hint .hint-moves li", timeout=30_000)
            page.evaluate("window.scrollTo(0, 0)")
            box = page.locator("#hint .hint-moves").bounding_box()
            height = page.evaluate("innerHeight")
            assert box["y"] >= 0 and box["y"] + min(box["height"], 60) <= height, (viewport, box)
            assert page.locator("#hint").evaluate("(el) => !!el.closest('#dock')")
            assert overflow(page) is None
            context.close()


def test_a_spectator_is_told_at_once(browser, tmp_path):
    """Point 13: "you are watching" from the first view, before any click."""
    with live_server(tmp_path) as base:
        context = new_context(browser, "phone")
        page = context.new_page()
        game = page.request.post(base + "/api/games", data={
            "game": GAME, "options": {"num_players": 2},
            "seats": ["bot:greedy", "bot:greedy"]}).json()
        page.goto(f"{base}/games/{game['id']}")
        page.wait_for_function("() => window.TlatelolcoPage && window.TlatelolcoPage.view")
        watching = page.locator("#watching")
        assert watching.is_visible()
        assert watching.text_content() == "You are watching this game"
        seated, _ = open_game(context, base, GAME)
        assert seated.locator("#watching").is_hidden()
        context.close()


def test_a_wrong_click_is_one_line_that_moves_nothing_and_a_valid_pick_clears_it(browser,
                                                                                  tmp_path):
    """Point 8: no layout shift, cleared by the next valid pick."""
    with live_server(tmp_path) as base:
        context = new_context(browser, "phone")
        page, _ = open_game(context, base, GAME, seats=["taken", "taken"])
        check_wrong_click(page)
        assert page.locator("#reason").is_visible()
        page.locator("#board-content .pick").first.click()
        page.wait_for_selector("#reason", state="hidden")
        context.close()


def test_keyboard_focus_is_a_ring_no_other_mark_uses(browser, tmp_path):
    """Point 12: focus must not look like the clickable glow or a last-move mark."""
    with live_server(tmp_path) as base:
        context = new_context(browser, "laptop")
        page, _ = open_game(context, base, GAME)
        target = page.locator("#board-content .pick").first
        page.keyboard.press("Tab")  # the keyboard in use: focus-visible applies
        target.focus()
        style = target.evaluate("(el) => { const s = getComputedStyle(el); return"
                                " [s.outlineStyle, s.outlineColor, s.outlineWidth, s.filter]; }")
        # (its width is scaled with the board, so it is not compared)
        assert style[0] == "solid" and style[1] == "rgb(0, 0, 0)" and style[2] != "0px", style
        assert style[3] == "none", style  # not the pick's glow
        others = page.evaluate("""() => [...document.querySelectorAll(
            '#board-content .last-move, #board-content .pick:not(:focus)')].map((el) => {
              const s = getComputedStyle(el);
              return [s.outlineStyle, s.outlineColor]; })""")
        assert ["solid", "rgb(0, 0, 0)"] not in others, others
        context.close()


def test_the_game_page_reads_in_spanish(browser, tmp_path):
    """Point 11: the title as the lobby says it; seats numbered from 1; bots by level."""
    with live_server(tmp_path) as base:
        context = new_context(browser, "phone", locale="es-ES")
        page, _ = open_game(context, base, "aztec_market")
        assert page.locator("#title").text_content() == "El mercado azteca"
        assert page.locator("#zoom-fit").text_content() != "Fit"
        names = page.locator("#players .name").all_text_contents()
        assert not any("Greedy" in n for n in names), names
        context.close()
