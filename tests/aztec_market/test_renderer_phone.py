"""Aztec Market's board on a phone (390x844, Debian's Chromium driven by Playwright).

A two-seat game is played from the set-up to well into the turns (seat 0 in the browser, both
seats' moves sent through the API), the board at zoom 100% (its frame pans it). At each of seat
0's turns: every clickable target, on the board or in the dock under it (the set-up's tiles, the
turn's buttons), is at least 32x32 CSS px; every key has words (`label`) that are not the key; a
click on a piece that is no move now is explained by the engine (`attempt` names a move the
server parses, so the reason shown is the rule's, not "not a move"); and the pieces of each
seat's last move are on the board (`lastMoveKeys`). The Spanish page speaks Spanish.
"""

from __future__ import annotations

import random
from typing import Any

from tests.web.apps import live_server
from tests.web.browsers import PHONE, browser

__all__ = ["browser"]  # the shared fixture, used here
SMALLEST = 32  # CSS px: the least width and height of a clickable target
MY_TURNS = 30  # seat 0's turns looked at: the set-up, PASS turns and PLAY turns
BUTTONS = {"pass", "play", "king_skips", "end_turn"}  # moves the dock's buttons make
PLAY_AREA = ("#board-content", "#dock-game", "#extras")  # where the renderer's pieces are


def keyed(selector: str = "") -> str:
    """`[data-key]<selector>` wherever the shell put the renderer's parts."""
    return ", ".join(f"{area} [data-key]{selector}" for area in PLAY_AREA)


def create(page: Any, base: str) -> dict[str, Any]:
    response = page.request.post(base + "/api/games", data={
        "game": "aztec_market", "options": {"num_players": 2}, "seats": ["taken", "taken"],
        "name": "Ana"})
    assert response.ok, response.text()
    return response.json()  # type: ignore[no-any-return]


def open_seat(page: Any, seat: dict[str, Any], lang: str) -> None:
    """The seat's page in `lang`, the board at zoom 100% (the size targets are measured at)."""
    page.goto(seat["url"].split("/games/")[0] + "/")
    page.evaluate(f"localStorage.setItem('tlatelolco:lang', '{lang}');"
                  " localStorage.setItem('tlatelolco:zoom:aztec_market', '1')")
    page.goto(seat["url"] + "#token=" + seat["token"])


def settled(page: Any, version: int = -1) -> dict[str, Any]:
    """Seat 0's view once it is past `version` and the board is drawn for it."""
    page.wait_for_function(
        "(v) => { const p = window.TlatelolcoPage; return p && p.view && p.view.version > v"
        " && document.querySelector('#board-content .tl-am') !== null; }", arg=version,
        timeout=30_000)
    return page.evaluate("window.TlatelolcoPage.view")  # type: ignore[no-any-return]


def send(page: Any, base: str, game_id: str, token: str, version: int, rng: random.Random
         ) -> None:
    """A legal move of the seat holding `token`, PLAY when it may (so both turns are seen)."""
    auth = {"Authorization": f"Bearer {token}"}
    view = page.request.get(f"{base}/api/games/{game_id}/view", headers=auth).json()
    legal = view["legal"]
    plays = [m for m in legal if m["move"]["kind"] == "play"]
    ends = [m for m in legal if m["move"]["kind"] == "end_turn"]
    move = plays[0] if plays and rng.random() < 0.7 else (
        ends[0] if ends and rng.random() < 0.6 else rng.choice(legal))
    response = page.request.post(f"{base}/api/games/{game_id}/actions", headers=auth,
                                 data={"action": move["id"], "version": version})
    assert response.ok, response.text()


def check_targets(page: Any) -> None:
    assert page.evaluate("window.TlatelolcoPage.scale") == 1
    sizes = page.evaluate(
        "(sel) => [...document.querySelectorAll(sel)].map((e) => {"
        " const r = e.getBoundingClientRect();"
        " return [e.getAttribute('data-key'), r.width, r.height]; })", keyed(".pick"))
    small = [s for s in sizes if s[1] < SMALLEST or s[2] < SMALLEST]
    assert not small, f"targets smaller than {SMALLEST} px: {small}"


def check_labels(page: Any) -> None:
    labels = page.evaluate(
        "(sel) => { const r = Tlatelolco.renderers.aztec_market, v = TlatelolcoPage.view;"
        " return [...document.querySelectorAll(sel)].map((e) => {"
        " const k = e.getAttribute('data-key'); return [k, r.label(k, v)]; }); }", keyed())
    assert labels
    for key, words in labels:
        assert words and words != key and "{" not in words and "undefined" not in words, key


def check_last_moves(page: Any) -> None:
    """Each move of the log that has a place on the board names pieces that are drawn."""
    missing = page.evaluate(
        "(() => { const r = Tlatelolco.renderers.aztec_market, v = TlatelolcoPage.view;"
        " const out = []; for (const e of TlatelolcoPage.log.slice(-12)) { if (!e.move) continue;"
        " for (const k of r.lastMoveKeys(e.move, v)) {"
        " if (!document.querySelector(`#board-content [data-key=\"${CSS.escape(k)}\"]`))"
        " out.push([e.text, k]); } } return out; })()")
    assert not missing, missing


def wrong_click(page: Any, view: dict[str, Any], rng: random.Random) -> str | None:
    """Click a piece that is no move now and return the reason shown (None: nothing to try)."""
    candidates = page.evaluate(
        "(sel) => { const r = Tlatelolco.renderers.aztec_market, v = TlatelolcoPage.view;"
        " return [...document.querySelectorAll(sel)]"
        ".map((e) => [e.getAttribute('data-key'), r.attempt([], e.getAttribute('data-key'), v)])"
        ".filter((x) => x[1]); }", keyed(":not(.pick)"))
    if not candidates:
        return None
    key, text = rng.choice(candidates)
    if isinstance(text, dict):  # the renderer's own words (a rival's buyer)
        assert text["reason"].strip(), (key, text)
    else:
        assert text.split()[0] in ("place", "move", "coin", "buy", "king", "play", "end"), text
    page.locator(keyed(f'[data-key="{key}"]')).first.click(force=True)
    page.wait_for_function("() => { const r = document.getElementById('reason');"
                           " return r && !r.hidden && r.textContent.length > 0; }",
                           timeout=15_000)
    reason = page.locator("#reason").text_content()
    assert "is not a move of" not in reason and "not one of your moves" not in reason, (
        key, text, reason)
    assert "legal: pick it" not in reason, (key, text, reason)
    return reason  # type: ignore[no-any-return]


def test_a_game_on_a_phone(browser, tmp_path):
    rng = random.Random(7)
    with live_server(tmp_path) as base:
        page = browser.new_page(viewport=PHONE)
        errors: list[str] = []
        page.on("pageerror", lambda err: errors.append(str(err)))
        game = create(page, base)
        seats = game["seats"]
        open_seat(page, seats[0], "en")
        view = settled(page)
        phases: set[str] = set()
        reasons: list[str] = []
        my_turns = 0
        def seen_enough() -> bool:  # the server draws its own chance: some games need longer
            return {"pass moves", "play"} <= phases and len(reasons) >= 4

        while view["status"] != "finished" and my_turns < 3 * MY_TURNS and (
                my_turns < MY_TURNS or not seen_enough()):
            if view["to_move"] == 0:
                my_turns += 1
                phases.add(view["observation"]["phase"])
                if any(m["move"]["kind"] not in BUTTONS for m in view["legal"]):
                    assert page.locator(keyed(".pick")).count() > 0, view["legal"]
                check_targets(page)
                check_labels(page)
                check_last_moves(page)
                reason = wrong_click(page, view, rng)
                if reason:
                    reasons.append(reason)
            seat = seats[view["to_move"]]
            send(page, base, game["id"], seat["token"], view["version"], rng)
            view = settled(page, view["version"])
        assert {"build", "start coin", "choose"} <= phases
        assert {"pass moves", "play"} <= phases, phases
        assert len(reasons) >= 4, reasons
        assert page.locator("#board .last-move").count() > 0
        text = page.locator("#board").inner_text() + page.locator("#dock-game").inner_text()
        assert "tile-" not in text and "vendor-" not in text
        assert errors == [], errors
        page.close()


def test_the_board_speaks_spanish(browser, tmp_path):
    with live_server(tmp_path) as base:
        page = browser.new_page(viewport=PHONE)
        game = create(page, base)
        open_seat(page, game["seats"][0], "es")
        settled(page)
        panel = page.locator("#dock-game .am-dock").inner_text()
        assert "Preparación: se construye el mercado" in panel
        assert page.locator("#dock-game .am-tray").get_attribute("aria-label") == \
            "Losetas por colocar"
        assert "Set-up" not in panel
        assert page.evaluate("Tlatelolco.renderers.aztec_market.label('S1',"
                             " TlatelolcoPage.view)") == "comprador S1"
        check_targets(page)
        page.close()
