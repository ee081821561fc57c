"""Grand Bazaar's board in a real browser (Debian's Chromium driven by Playwright).

On a phone (390x844) at zoom 100% every clickable piece, on the board or in the dock (your
hand, End turn), is at least 32x32 CSS px and the page is never wider than the screen; a click
on a piece that is not a move now names the move it meant in the engine's notation (and the
page shows the engine's reason); pick keys have plain names; the last move's pieces are found
on the board; the board, the dock and the extras read in Spanish from the served catalogue.
"""

from __future__ import annotations

from typing import Any

from tests.web.apps import live_server
from tests.web.browsers import PHONE, browser, open_seat
from tests.web.browsers import play_as as play

import tlatelolco

__all__ = ["browser"]  # the shared fixture, used here
RENDERER = "window.Tlatelolco.renderers.grand_bazaar"


PLAY_AREA = "#board-content, #dock-game, #extras"  # where the shell puts a renderer's parts


def pick_sizes(page) -> list[dict[str, Any]]:
    """Each clickable piece (board, dock, extras): its key, where it is and the size of the
    piece and of its target area (an SVG piece's highlight; a button is its own)."""
    return page.evaluate(
        "(areas) => [...document.querySelectorAll(areas)].flatMap((a) =>"
        " [...a.querySelectorAll('.pick')].map((e) => {"
        " const r = e.getBoundingClientRect();"
        " const hl = (e.querySelector('.gb-hl') || e).getBoundingClientRect();"
        " return {key: e.getAttribute('data-key'), area: a.id, w: r.width, h: r.height,"
        " hw: hl.width, hh: hl.height}; }))", PLAY_AREA)


def keys_drawn(page) -> list[str]:
    return page.evaluate("(areas) => [...document.querySelectorAll(areas)].flatMap((a) =>"
                         " [...a.querySelectorAll('[data-key]')]"
                         ".map((e) => e.getAttribute('data-key')))", PLAY_AREA)


def test_on_a_phone_every_piece_to_click_is_big_enough(browser, tmp_path) -> None:
    with live_server(tmp_path) as base:
        page = browser.new_page(viewport=PHONE, is_mobile=True, has_touch=True)
        errors: list[str] = []
        page.on("pageerror", lambda err: errors.append(str(err)))
        game = page.request.post(base + "/api/games", data={
            "game": "grand_bazaar", "options": {"num_players": 2},
            "seats": ["taken", "taken"]}).json()
        # round 1: each seat buys a gem; round 2 (seat 1 starts): seat 0 may sell and buy (with
        # 19 grands or more left, whatever the price cards said)
        for seat, text in [(0, "buy ruby"), (0, "end turn"),
                           (1, "buy emerald"), (1, "end turn"), (1, "buy ruby"),
                           (1, "end turn")]:
            play(page, base, game, seat, text)
        # the target sizes hold at zoom 100% (at "Fit" a board may be scaled down)
        page.goto(base + "/")
        page.evaluate("localStorage.setItem('tlatelolco:zoom:grand_bazaar', '1')")
        view = open_seat(page, game, 0)
        assert page.evaluate("window.TlatelolcoPage.scale") >= 1
        kinds = {m["move"]["kind"] for m in view["legal"]}
        assert {"buy", "sell"} <= kinds and "end_turn" not in kinds
        sizes = pick_sizes(page)
        where = {s["key"]: s["area"] for s in sizes}
        assert where.get("hand-ruby") == "dock-game", where  # your hand: in the dock
        assert any(k.startswith("bazaar-") and a == "board-content" for k, a in where.items())
        too_small = [s for s in sizes if min(s["w"], s["h"], s["hw"], s["hh"]) < 32]
        assert too_small == [], too_small
        # the page never grows wider than the phone: the board zooms and pans in its frame
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
        # after a buy the dock's End turn button is a move too
        page.locator('#board-content .pick[data-key^="bazaar-"]').first.click()
        page.wait_for_function("() => window.TlatelolcoPage.view.legal.some("
                               "(m) => m.move.kind === 'end_turn')")
        page.wait_for_selector('#dock-game .pick[data-key="end"]')
        sizes = pick_sizes(page)
        assert "end" in {s["key"] for s in sizes}
        assert [s for s in sizes if min(s["w"], s["h"], s["hw"], s["hh"]) < 32] == []
        assert errors == [], errors
        page.close()


def test_wrong_clicks_labels_and_last_moves(browser, tmp_path) -> None:
    with live_server(tmp_path) as base:
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        errors: list[str] = []
        page.on("pageerror", lambda err: errors.append(str(err)))
        game = page.request.post(base + "/api/games", data={
            "game": "grand_bazaar", "options": {"num_players": 2},
            "seats": ["taken", "taken"]}).json()
        play(page, base, game, 0, "buy emerald")
        view = open_seat(page, game, 0)
        # every board piece standing for a move has its key even when it is not a move now
        drawn = keys_drawn(page)
        assert {"bazaar-sapphire", "bazaar-ruby", "bazaar-emerald", "hand-emerald",
                "end", "card", "price-ruby"} <= set(drawn)
        meant = page.evaluate(f"(keys) => keys.map((k) => {RENDERER}.attempt([], k,"
                              " window.TlatelolcoPage.view))", drawn)
        by_key = dict(zip(drawn, meant, strict=True))
        assert by_key["hand-emerald"] == "sell emerald"
        assert by_key["bazaar-ruby"] == "buy ruby" and by_key["end"] == "end turn"
        # every piece drawn with a key means a move (the generic "not one of your moves"
        # never answers a click on this board): a price buys that gem, the card reveals one
        assert by_key["price-ruby"] == "buy ruby" and by_key["card"].startswith("reveal ")
        assert None not in meant, by_key
        # the text is the engine's notation, and the engine says why it is not allowed now
        engine = tlatelolco.load("grand_bazaar", num_players=2).new_initial_state()
        for text in meant:
            assert engine.parse_action(text) is not None, text
        legal = {m["text"] for m in view["legal"]}
        assert "sell emerald" not in legal  # selling starts in round 2: a wrong click to explain
        page.locator('#dock-game [data-key="hand-emerald"]').first.click()
        page.wait_for_function("() => document.getElementById('reason').textContent"
                               ".includes('selling is allowed from round 2 on')")
        # plain names for pick keys: no internal key is shown
        prices = view["observation"]["prices"]
        names = page.evaluate(f"(keys) => keys.map((k) => {RENDERER}.label(k,"
                              " window.TlatelolcoPage.view))", drawn)
        assert f"the ruby cards in the bazaar, {prices['ruby']} grands each" in names
        assert f"your emerald card, worth {prices['emerald']} grands now" in names
        assert not any("-" in name or ":" in name for name in names), names
        # the last move's pieces: the stack bought from, the price card and the prices it moved
        last = page.evaluate(f"""() => [
            {RENDERER}.lastMoveKeys({{kind: 'buy', gem: 'ruby'}}, window.TlatelolcoPage.view),
            {RENDERER}.lastMoveKeys({{kind: 'reveal', card: 19,
                changes: {{sapphire: 1, ruby: -1, emerald: 0}}}}, window.TlatelolcoPage.view),
            {RENDERER}.lastMoveKeys({{kind: 'end_turn', bought: ['emerald'], sold: ['sapphire']}},
                                    window.TlatelolcoPage.view),
            {RENDERER}.lastMoveKeys({{kind: 'end_turn', bought: [], sold: []}},
                                    window.TlatelolcoPage.view)]""")
        assert last == [["bazaar-ruby"], ["card", "price-sapphire", "price-ruby"],
                        ["bazaar-sapphire", "bazaar-emerald"], []]
        assert set(last[0] + last[1]) <= set(drawn)
        assert errors == [], errors
        page.close()


def test_the_board_reads_in_spanish(browser, tmp_path) -> None:
    with live_server(tmp_path) as base:
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        game = page.request.post(base + "/api/games", data={
            "game": "grand_bazaar", "options": {"num_players": 2},
            "seats": ["taken", "taken"]}).json()
        play(page, base, game, 0, "buy emerald")
        open_seat(page, game, 0)
        text = page.evaluate(f"""async () => {{
            await window.Tlatelolco.loadLanguage('es');
            const box = document.createElement('div');
            {RENDERER}.draw(box, window.TlatelolcoPage.view);
            return box.textContent; }}""")
        for words in ("El bazar", "Cartas de precio", "Terminar turno", "Esmeralda",
                      "Ronda 1 de 27", "Cartas de precio aún boca abajo", "En este turno"):
            assert words in text, words
        assert "The bazaar" not in text and "End turn" not in text
        label = page.evaluate(f"{RENDERER}.label('bazaar-ruby', window.TlatelolcoPage.view)")
        prices = page.evaluate("window.TlatelolcoPage.view.observation.prices")
        assert label == f"las cartas de rubí del bazar, a {prices['ruby']} grands cada una"
        page.close()
