"""Mexica's board in a real browser (Debian's Chromium driven by Playwright).

On a phone (390x844) at zoom 100 % every control of the dock (tools, End turn, buildings,
tiles) is at least 32x32 CSS px; the island, drawn at the frame's width, shows all 23 columns
with squares too small for a thumb (16 px), so "+" enlarges them to 32 px or more and the frame
pans over them, the page never wider than the screen. A click on something that is not a move
now names the move it meant in the engine's notation (and the page shows the engine's reason);
pick keys have plain names; the last move's squares are marked in the seat's colour; the board
reads in Spanish.
"""

from __future__ import annotations

from typing import Any

from tests.web.apps import live_server
from tests.web.browsers import PHONE, browser, open_seat
from tests.web.browsers import play_as as play

import tlatelolco

__all__ = ["browser"]  # the shared fixture, used here
RENDERER = "window.Tlatelolco.renderers.mexica"


def new_game(page, base: str) -> dict[str, Any]:
    """Two people's game; the server has drawn the part-1 tiles."""
    return page.request.post(base + "/api/games", data={
        "game": "mexica", "options": {"num_players": 2}, "seats": ["taken", "taken"]}).json()


PLAY_AREA = "#board-content, #dock-game, #extras"  # where the renderer's pieces end up


def sizes(page, selector: str) -> list[dict[str, Any]]:
    """The keys and sizes of the shown elements `selector` picks in the play area."""
    return page.evaluate(
        "(sel) => [...document.querySelectorAll(sel)].filter((e) => e.getClientRects().length)"
        ".map((e) => { const r = e.getBoundingClientRect();"
        " return {key: e.getAttribute('data-key'), w: r.width, h: r.height}; })", selector)


def picks(page, where: str = PLAY_AREA) -> list[dict[str, Any]]:
    return sizes(page, ", ".join(f"{area} .pick" for area in where.split(", ")))


def too_small(found: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [s for s in found if min(s["w"], s["h"]) < 32]


def zoom_until_squares_fit_a_thumb(page) -> float:
    """Press "+" until the island's squares are 32 px; the scale then."""
    while min(s["w"] for s in sizes(page, "#board-content .mx-sq")) < 32:
        before = page.evaluate("window.TlatelolcoPage.scale")
        page.click("#zoom-in")
        assert page.evaluate("window.TlatelolcoPage.scale") > before, "no bigger zoom"
    return page.evaluate("window.TlatelolcoPage.scale")  # type: ignore[no-any-return]


def test_on_a_phone_every_square_and_button_to_click_is_big_enough(browser, tmp_path) -> None:
    with live_server(tmp_path) as base:
        page = browser.new_page(viewport=PHONE, is_mobile=True, has_touch=True)
        errors: list[str] = []
        page.on("pageerror", lambda err: errors.append(str(err)))
        game = new_game(page, base)
        page.goto(base + "/")  # the zoom this browser keeps for Mexica: 100 %
        page.evaluate("localStorage.setItem('tlatelolco:zoom:mexica', '1')")
        open_seat(page, game, 0)  # set-up: the four starting squares
        assert page.evaluate("window.TlatelolcoPage.scale") == 1
        assert {s["key"] for s in picks(page)} == {"I7", "H8", "J8", "I9"}
        # every control of the dock is a thumb wide, a move now or not
        assert too_small(sizes(page, "#dock-game [data-key]")) == []
        # the island at the frame's width: every column, no panning; "+" up to thumb size
        frame = "document.getElementById('board')"
        assert page.evaluate(f"{frame}.scrollWidth <= {frame}.clientWidth + 1")
        assert zoom_until_squares_fit_a_thumb(page) <= 3
        assert too_small(picks(page, "#board-content")) == []
        assert page.evaluate(f"{frame}.scrollWidth > {frame}.clientWidth")
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
        page.evaluate("localStorage.setItem('tlatelolco:zoom:mexica', '1')")
        play(page, base, game, 0, "start at I7")
        play(page, base, game, 1, "start at H8")
        open_seat(page, game, 0)  # the first turn: steps and every tool in the dock
        keys = {s["key"] for s in picks(page)}
        assert {"I6", "tool:canal", "tool:double", "level:4", "token", "end"} <= keys
        assert too_small(picks(page, "#dock-game")) == []
        # the rest of the dock may be a move later (a tile when an area has its size): as big
        shown = {s["key"] for s in sizes(page, "#dock-game [data-key]")}
        assert any(k.startswith("tile:") for k in shown) and "tool:bridge" in shown
        assert too_small(sizes(page, "#dock-game [data-key]")) == []
        page.locator('#dock-game .pick[data-key="tool:double"]').click()  # squares all over
        page.wait_for_selector('#board-content .pick[data-key="K5"]')
        assert len(picks(page, "#board-content")) > 100
        zoom_until_squares_fit_a_thumb(page)
        assert too_small(picks(page)) == []
        assert errors == [], errors
        page.close()


def test_wrong_clicks_labels_and_last_moves(browser, tmp_path) -> None:
    with live_server(tmp_path) as base:
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        errors: list[str] = []
        page.on("pageerror", lambda err: errors.append(str(err)))
        game = new_game(page, base)
        play(page, base, game, 0, "start at I7")
        play(page, base, game, 1, "start at H8")
        view = open_seat(page, game, 0)
        drawn = page.evaluate("[...new Set([...document.querySelectorAll("
                              "'#board-content [data-key], #dock-game [data-key]')]"
                              ".map((e) => e.getAttribute('data-key')))]")
        # every square, tool, building, tile and axis has its key, a move now or not; moving
        # a bridge takes the place of placing one once all 11 are on the board
        assert len([k for k in drawn if ":" not in k and k not in ("token", "end")]) == 23 * 16
        assert {"tool:bridge", "axis:N-S", "axis:W-E", "level:1"} <= set(drawn)
        assert "tool:move_bridge" not in drawn
        meant = page.evaluate(f"""(keys) => keys.map((k) => document.querySelector(
            `.pick[data-key="${{k}}"]`) ? null
            : {RENDERER}.attempt([], k, window.TlatelolcoPage.view))""", drawn)
        by_key = dict(zip(drawn, meant, strict=True))
        assert by_key["I8"] == "walk S"  # the coat of arms, next to the Mexica
        assert by_key["K12"] == "teleport K12"  # far away, no tool picked: only a teleport
        assert by_key["I7"] == "teleport I7"  # its own square: taken
        engine = tlatelolco.load("mexica", num_players=2).new_initial_state()
        for text in filter(None, meant):
            assert engine.parse_action(text) is not None, text
        assert page.evaluate(f"{RENDERER}.attempt([], 'tool:move_bridge',"
                             " window.TlatelolcoPage.view)").startswith("move bridge ")
        attempts = page.evaluate(f"""() => {{ const v = window.TlatelolcoPage.view, R = {RENDERER};
            return [R.attempt(['tool:canal'], 'I8', v), R.attempt(['tool:double'], 'I8', v),
                    R.attempt(['tool:double', 'K5'], 'K6', v), R.attempt(['level:2'], 'H8', v),
                    R.attempt(['tile:5'], 'K5', v), R.attempt(['tool:bridge', 'P8'], 'axis:W-E', v),
                    R.attempt(['tool:teleport'], 'I8', v)]; }}""")
        assert attempts[0] == "canal I8" and attempts[1].startswith("canal I8-")
        assert attempts[2:] == ["canal K5-K6", "build 2 at H8", "found 5 at K5",
                                "bridge P8 W-E", "teleport I8"]
        # the engine's reason shows next to the board: a canal on the palace
        page.locator('#dock-game .pick[data-key="tool:canal"]').click()
        page.wait_for_selector('#board-content .pick[data-key="K5"]')
        page.locator('#board-content [data-key="I8"]').click()
        page.wait_for_function("() => document.getElementById('reason').textContent"
                               ".includes('I8 is a palace square')")
        # plain names for pick keys: no internal key is shown
        names = page.evaluate(f"(keys) => keys.map((k) => {RENDERER}.label(k,"
                              " window.TlatelolcoPage.view))", drawn)
        labels = dict(zip(drawn, names, strict=True))
        assert labels["K5"] == "square K5" and labels["I7"] == "the starting square I7"
        assert labels["tool:double"] == "Double canal" and labels["level:3"] == \
            "a building of 3 levels"
        assert labels["axis:N-S"] == "axis north–south"
        tile = next(k for k in drawn if k.startswith("tile:"))
        assert labels[tile] == f"calpulli tile {tile[5:]}"
        assert not any(":" in name for name in names), names
        # the squares and buttons of a move
        last = page.evaluate(f"""() => {{ const v = window.TlatelolcoPage.view, R = {RENDERER};
            return [R.lastMoveKeys({{kind: 'double', squares: ['C4', 'D4']}}, v),
                    R.lastMoveKeys({{kind: 'move_bridge', from: 'E4', to: 'C7', axis: 'N-S'}}, v),
                    R.lastMoveKeys({{kind: 'walk', direction: 'N'}}, v),
                    R.lastMoveKeys({{kind: 'build', levels: 2, square: 'K5'}}, v),
                    R.lastMoveKeys({{kind: 'token'}}, v),
                    R.lastMoveKeys({{kind: 'end'}}, v)]; }}""")
        assert last == [["C4", "D4"], ["E4", "C7"], ["I7"], ["K5"], ["token"], []]
        # a move played: its square is marked in the seat's colour
        page.keyboard.press("Escape")
        page.locator('#dock-game .pick[data-key="tool:canal"]').click()
        page.locator('#board-content .pick[data-key="K5"]').click()
        page.wait_for_selector('#board [data-key="K5"].last-move.last-seat-0')
        ring = page.evaluate("getComputedStyle(document.querySelector("
                             "'#board [data-key=\"K5\"].last-move')).stroke")
        assert ring == "rgb(224, 138, 30)"  # seat 0's colour
        assert view["legal"] and errors == [], errors
        page.close()


def test_the_board_reads_in_spanish(browser, tmp_path) -> None:
    with live_server(tmp_path) as base:
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        game = new_game(page, base)
        play(page, base, game, 0, "start at I7")
        play(page, base, game, 1, "start at H8")
        open_seat(page, game, 0)
        text = page.evaluate(f"""async () => {{
            await window.Tlatelolco.loadLanguage('es');
            const box = document.createElement('div');
            {RENDERER}.draw(box, window.TlatelolcoPage.view);
            return box.textContent; }}""")
        for words in ("Parte 1 · ronda 1", "Le toca a", "Fichas Calpulli", "Reserva",
                      "Asientos", "Barrios", "Terminar turno", "Construir", "Fundar"):
            assert words in text, words
        for words in ("Calpulli tiles", "Supply", "Districts", "End turn", "to move"):
            assert words not in text, words
        label = page.evaluate(f"{RENDERER}.label('tool:double', window.TlatelolcoPage.view)")
        assert label == "Canal doble"
        page.close()
