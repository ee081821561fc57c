"""Aztec Market on the four screens of issue 34 (tests/web/screens.py), in Chromium.

A two-player game against the greedy bot at each of 390x844, 360x740 (in Spanish), 768x1024 and
1366x768, played until every phase a player meets has come (its first turn by clicking, the
rest of a phase already looked at through the API): the set-up (placing
tiles, the start coins), PASS or PLAY, PASS's free market moves and the king's purchase, and
PLAY's moves and purchases. In each phase: the whole board at Fit, its targets big enough to
tap, the turn's prompt and controls on the screen with it, a dock of at most 40% of the screen,
a wrong click on the market answered on one line in words. Once per screen: no zoom widens the
page. Keyboard focus on the board: the shell's ring, not the pick's hover look.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from tests.web import screens
from tests.web.apps import live_server
from tests.web.browsers import browser
from tests.web.test_browser import click_move, wait_moved

__all__ = ["browser"]  # the shared fixture, used here
GAME = "aztec_market"
LOCALES = {"small-phone": "es-ES"}  # one screen read in Spanish: the reasons come in it too
# phase: its title in the dock (English, Spanish), its controls in the dock
PHASES: dict[str, tuple[str, str, str | None]] = {
    "build": ("Set-up: building the market", "Preparación: se construye el mercado",
              '[data-key^="tile-"]'),
    "start coin": ("Set-up: starting coins", "Preparación: monedas iniciales", None),
    "choose": ("PASS or PLAY?", "¿PASAR o JUGAR?", '[data-key="pass"], [data-key="play"]'),
    "pass moves": ("PASS 2: moving the market", "PASAR 2: mover el mercado", None),
    "pass king": ("PASS 4: the king may buy", "PASAR 4: el rey puede comprar",
                  '[data-key="king-skips"]'),
    "play": ("PLAY: moves and purchases", "JUGAR: mover el mercado y comprar",
             '[data-key="end"]'),
}
# phases where some wrong click on the market always has an engine reason in words: a taken
# square (the set-up, once a tile is down), the hole (PASS's moves, PLAY)
WORDS = {"build", "pass moves", "play"}
SMALLEST = 32  # CSS px: the least width and height of a target at Fit
DOCK_SHARE = 0.4  # of the screen's height
PLAY_AREA = "#board-content [data-key], #dock-game [data-key]"


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    with live_server(tmp_path_factory.mktemp("screens")) as url:
        yield url


def pick_move(view: dict[str, Any], rng: random.Random, passes: int) -> dict[str, Any]:
    """PASS first, then PLAY whenever it may be chosen (both kinds of turn come quickly); a
    PLAY turn ends after its first purchase half the time."""
    legal = view["legal"]
    by_kind = {m["move"]["kind"]: m for m in legal}
    if "pass" in by_kind:
        return by_kind["play" if passes and "play" in by_kind else "pass"]
    if "end_turn" in by_kind and rng.random() < 0.5:
        return by_kind["end_turn"]
    return rng.choice(legal)


def check_phase(page: Any, phase: str, spanish: bool) -> None:
    """The frame, the prompt and the controls of `phase` on the screen at Fit."""
    title, titulo, controls = PHASES[phase]
    screens.check_fit(page)
    screens.check_turn_in_view(page, "#dock-game .am-turn")
    screens.check_wrong_click(page)
    assert page.locator("#dock-game .am-phase").text_content() == (titulo if spanish else title)
    if controls:
        assert page.locator(f"#dock-game :is({controls})").count(), (phase, controls)
    m = page.evaluate("""() => {
      const dock = document.getElementById('dock').getBoundingClientRect();
      const frame = document.getElementById('board').getBoundingClientRect();
      const svg = document.querySelector('#board-content svg.am-board').getBoundingClientRect();
      const sizes = [...document.querySelectorAll('#board-content .pick, #dock-game .pick')]
        .map((e) => { const r = e.getBoundingClientRect(); return [e.getAttribute('data-key'),
          Math.round(r.width), Math.round(r.height)]; });
      return {dock: dock.height, screen: innerHeight, sizes,
              fills: Math.max(svg.width / frame.width, svg.height / frame.height)}; }""")
    assert m["dock"] <= DOCK_SHARE * m["screen"], f"{phase}: the dock takes {m}"
    assert m["fills"] >= 0.9, f"{phase}: the board is small in its frame: {m['fills']:.2f}"
    small = [s for s in m["sizes"] if s[1] < SMALLEST or s[2] < SMALLEST]
    assert not small, f"{phase}: targets under {SMALLEST} px at Fit: {small}"


def check_reason_in_words(page: Any) -> str | None:
    """Point 9: a click on a piece of the market (else the dock) that is no move now, one the
    renderer names a move for, is refused with the engine's reason in words: not the general
    "not one of your moves" and never notation such as ('place crowd at B3'). None when no
    piece is such a click now."""
    found = page.evaluate("""(sel) => {
      const r = Tlatelolco.renderers.aztec_market, v = TlatelolcoPage.view;
      const tried = [...document.querySelectorAll(sel)].filter((e) => !e.classList.contains('pick'))
        .map((e) => [e.getAttribute('data-key'), r.attempt([], e.getAttribute('data-key'), v)])
        .filter((x) => x[1]);
      return tried.find((x) => /^[A-D][1-4]$/.test(x[0])) || tried[0] || null; }""", PLAY_AREA)
    if not found:
        return None
    key, text = found
    page.evaluate("document.getElementById('reason').textContent = ''")  # an earlier one gone
    page.locator(f'#board-content [data-key="{key}"], #dock-game [data-key="{key}"]').first \
        .click(force=True)
    page.wait_for_function("() => document.getElementById('reason').textContent !== ''")
    reason = page.locator("#reason").text_content()
    assert reason not in screens.GENERIC, (key, text, reason)
    assert "('" not in reason and "')" not in reason and text not in reason, (key, text, reason)
    return reason  # type: ignore[no-any-return]


def send(page: Any, base: str, info: dict[str, Any], move: dict[str, Any], version: int) -> None:
    """Seat 0's `move` through the API: a turn of a phase already looked at (the set-up's
    other placements) costs no clicks."""
    seat = info["seats"][0]
    response = page.request.post(f"{base}/api/games/{info['id']}/actions",
                                 headers={"Authorization": f"Bearer {seat['token']}"},
                                 data={"action": move["id"], "version": version})
    assert response.ok, response.text()


@pytest.mark.parametrize("viewport", list(screens.VIEWPORTS))
def test_every_phase_on_the_screen(browser, base, viewport):
    """Points 1-3 and 5 (the board fits, the turn is in sight, no page overflow) and 9 (a wrong
    click on the market is answered in words), in every phase up to PLAY. The first turn of
    each phase is played by clicking."""
    spanish = viewport in LOCALES
    context = screens.new_context(browser, viewport, locale=LOCALES.get(viewport, "en-US"))
    errors: list[str] = []
    try:
        page, info = screens.open_game(context, base, GAME)
        page.on("pageerror", lambda err: errors.append(str(err)))
        screens.check_every_zoom(page)
        rng, seen, reasons, passes = random.Random(viewport), set(), {}, 0
        for _ in range(120):
            view = screens.wait_turn(page)
            if view["status"] == "finished" or (seen >= set(PHASES) and set(reasons) >= WORDS):
                break
            phase = view["observation"]["phase"]
            looked = phase in seen and (phase in reasons or phase not in WORDS)
            if phase in PHASES and phase not in seen:
                check_phase(page, phase, spanish)
                seen.add(phase)
            if phase in WORDS and phase not in reasons:
                reason = check_reason_in_words(page)
                if reason:
                    reasons[phase] = reason
            move = pick_move(view, rng, passes)
            passes += move["move"]["kind"] == "pass"
            if looked:
                send(page, base, info, move, view["version"])
            else:
                click_move(page, GAME, move, view["version"])
            wait_moved(page, view["version"], move)
        assert seen == set(PHASES), seen
        assert set(reasons) >= WORDS, reasons
        assert errors == [], errors
    finally:
        context.close()


def test_keyboard_focus_is_the_shells_ring(browser, base):
    """Point 12: a piece focused from the keyboard has the black ring, and its highlight stays
    the plain pick's (the hover look is for the mouse)."""
    context = screens.new_context(browser, "laptop")
    try:
        page, _ = screens.open_game(context, base, GAME)
        page.locator('#dock-game .pick[data-key^="tile-"]').first.focus()
        page.keyboard.press("Enter")  # a tile picked: the empty squares are the targets now
        page.wait_for_selector("#board-content .pick")
        page.keyboard.press("Tab")
        for _ in range(30):
            if page.evaluate("document.activeElement.closest('#board-content') !== null"):
                break
            page.keyboard.press("Tab")
        ring = page.evaluate("""() => {
          const el = document.activeElement, css = getComputedStyle(el);
          const other = [...document.querySelectorAll('#board-content .pick')]
            .find((e) => e !== el);
          const hl = (e) => getComputedStyle(e.querySelector('.am-hl')).stroke;
          return {key: el.getAttribute('data-key'), style: css.outlineStyle,
                  colour: css.outlineColor, width: css.outlineWidth,
                  focused: hl(el), plain: hl(other)}; }""")
        assert ring["key"] and ring["style"] == "solid", ring
        assert ring["colour"] == "rgb(0, 0, 0)", ring
        assert ring["focused"] == ring["plain"], ring
    finally:
        context.close()
