"""Mexica's board in a real browser (Debian's Chromium driven by Playwright).

On a phone (390x844) every clickable square and button is at least 32x32 CSS px and #board pans
over the island; a click on something that is not a move now names the move it meant in the
engine's notation (and the page shows the engine's reason); pick keys have plain names; the
last move's squares are marked in the seat's colour; the board reads in Spanish.
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


def pick_sizes(page) -> list[dict[str, Any]]:
    return page.evaluate(
        "() => [...document.querySelectorAll('#board .pick')].map((e) => {"
        " const r = e.getBoundingClientRect();"
        " return {key: e.getAttribute('data-key'), w: r.width, h: r.height}; })")


def too_small(sizes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [s for s in sizes if min(s["w"], s["h"]) < 32]


def test_on_a_phone_every_square_and_button_to_click_is_big_enough(browser, tmp_path) -> None:
    with live_server(tmp_path) as base:
        page = browser.new_page(viewport=PHONE, is_mobile=True, has_touch=True)
        errors: list[str] = []
        page.on("pageerror", lambda err: errors.append(str(err)))
        game = new_game(page, base)
        open_seat(page, game, 0)  # set-up: the four starting squares
        sizes = pick_sizes(page)
        assert {s["key"] for s in sizes} == {"I7", "H8", "J8", "I9"}
        assert too_small(sizes) == []
        assert page.evaluate("document.getElementById('board').scrollWidth"
                             " > document.getElementById('board').clientWidth")
        play(page, base, game, 0, "start at I7")
        play(page, base, game, 1, "start at H8")
        open_seat(page, game, 0)  # the first turn: steps and every tool button
        sizes = pick_sizes(page)
        keys = {s["key"] for s in sizes}
        assert {"I6", "tool:canal", "tool:double", "level:4", "token", "end"} <= keys
        assert too_small(sizes) == []
        # the rest may be a move later (a tile when an area has its size, an axis): as big
        every = page.evaluate(
            "() => [...document.querySelectorAll('#board [data-key]')].map((e) => {"
            " const r = e.getBoundingClientRect();"
            " return {key: e.getAttribute('data-key'), w: r.width, h: r.height}; })")
        assert any(s["key"].startswith("tile:") for s in every)
        assert any(s["key"] == "axis:W-E" for s in every)
        assert too_small(every) == []
        page.locator('#board .pick[data-key="tool:double"]').click()  # then squares all over
        page.wait_for_selector('#board .pick[data-key="K5"]')
        sizes = pick_sizes(page)
        assert len(sizes) > 100 and too_small(sizes) == []
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
        drawn = page.evaluate("[...new Set([...document.querySelectorAll('#board [data-key]')]"
                              ".map((e) => e.getAttribute('data-key')))]")
        # every square, tool, building, tile and axis has its key, a move now or not
        assert len([k for k in drawn if ":" not in k and k not in ("token", "end")]) == 23 * 16
        assert {"tool:move_bridge", "axis:N-S", "axis:W-E", "level:1"} <= set(drawn)
        meant = page.evaluate(f"""(keys) => keys.map((k) => document.querySelector(
            `#board .pick[data-key="${{k}}"]`) ? null
            : {RENDERER}.attempt([], k, window.TlatelolcoPage.view))""", drawn)
        by_key = dict(zip(drawn, meant, strict=True))
        assert by_key["I8"] == "walk S"  # the coat of arms, next to the Mexica
        assert by_key["K12"] is None  # far away, no tool picked: no move meant
        assert by_key["tool:move_bridge"].startswith("move bridge ")
        engine = tlatelolco.load("mexica", num_players=2).new_initial_state()
        for text in filter(None, meant):
            assert engine.parse_action(text) is not None, text
        attempts = page.evaluate(f"""() => {{ const v = window.TlatelolcoPage.view, R = {RENDERER};
            return [R.attempt(['tool:canal'], 'I8', v), R.attempt(['tool:double'], 'I8', v),
                    R.attempt(['tool:double', 'K5'], 'K6', v), R.attempt(['level:2'], 'H8', v),
                    R.attempt(['tile:5'], 'K5', v), R.attempt(['tool:bridge', 'P8'], 'axis:W-E', v),
                    R.attempt(['tool:teleport'], 'I8', v)]; }}""")
        assert attempts[0] == "canal I8" and attempts[1].startswith("canal I8-")
        assert attempts[2:] == ["canal K5-K6", "build 2 at H8", "found 5 at K5",
                                "bridge P8 W-E", "teleport I8"]
        # the engine's reason shows next to the board: a canal on the palace
        page.locator('#board .pick[data-key="tool:canal"]').click()
        page.wait_for_selector('#board .pick[data-key="K5"]')
        page.locator('#board [data-key="I8"]').click()
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
        page.locator('#board .pick[data-key="tool:canal"]').click()
        page.locator('#board .pick[data-key="K5"]').click()
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
