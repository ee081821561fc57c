"""What every game must hold on every screen (issue 34), for the per-game screen tests.

A game page at a viewport (`open_game`), then checks that read the page as a person sees it:
the page never wider than the screen at any zoom (`check_every_zoom`), the whole board in
sight at "fit" (`check_fit`), every control a turn needs on the screen while the board is too
(`check_turn_in_view`), a wrong click answered on one line without moving anything
(`check_wrong_click`). Each returns nothing and fails with what it measured.
"""

from __future__ import annotations

from typing import Any

from tests.web.test_browser import page_view

# name: (width, height, touch); phones and tablets are touch screens
VIEWPORTS: dict[str, tuple[int, int, bool]] = {
    "phone": (390, 844, True),
    "small-phone": (360, 740, True),
    "tablet": (768, 1024, True),
    "laptop": (1366, 768, False),
}
SLACK = 1  # px: rounding of fractional layout

TURN_READY = ("() => { const p = window.TlatelolcoPage; const v = p && p.view;"
              " return v && (v.status === 'finished' || (v.legal.length > 0 && !p.sending)); }")


def new_context(browser: Any, viewport: str, locale: str = "en-US") -> Any:
    width, height, touch = VIEWPORTS[viewport]
    return browser.new_context(viewport={"width": width, "height": height}, has_touch=touch,
                               is_mobile=touch and width < 700, locale=locale)


def open_game(context: Any, base: str, game: str, seats: list[str] | None = None,
              players: int = 2) -> tuple[Any, dict[str, Any]]:
    """A new game with seat 0 this page's (`seats`: the API's seat choices), once the page
    shows its first turn; (page, the created game)."""
    page = context.new_page()
    created = page.request.post(base + "/api/games", data={
        "game": game, "options": {"num_players": players},
        "seats": seats or ["taken"] + ["bot:greedy"] * (players - 1)})
    assert created.ok, created.text()
    info = created.json()
    page.goto(info["seats"][0]["url"] + "#token=" + info["seats"][0]["token"])
    wait_turn(page)
    return page, info


def wait_turn(page: Any, timeout: int = 60_000) -> dict[str, Any]:
    page.wait_for_function(TURN_READY, timeout=timeout)
    page.wait_for_timeout(50)  # the frame is laid out in the same task; let resizes settle
    return page_view(page)  # type: ignore[no-any-return]


def overflow(page: Any) -> dict[str, int] | None:
    """The page's width beyond the screen, None when it fits. Measured against the screen
    the context was made with: on a mobile context a too-wide page widens `innerWidth` too."""
    sizes = page.evaluate("() => ({scroll: document.documentElement.scrollWidth,"
                          " body: document.body.scrollWidth, inner: window.innerWidth,"
                          " client: document.documentElement.clientWidth})")
    screen = page.viewport_size["width"]
    if max(sizes.values()) > screen:
        return {**sizes, "screen": screen}  # type: ignore[no-any-return]
    return None


def zoom_to(page: Any, target: str) -> None:
    """Press "Fit", or "+" / "−" once, and wait for the frame to be laid out again."""
    page.click({"fit": "#zoom-fit", "in": "#zoom-in", "out": "#zoom-out"}[target])
    page.wait_for_timeout(30)


def check_every_zoom(page: Any) -> list[float]:
    """From "fit", every step in and every step out: the page is never wider than the screen
    (the board pans inside its frame). Ends at "fit"; the scales seen."""
    seen = []
    zoom_to(page, "fit")
    assert overflow(page) is None, f"at fit: {overflow(page)}"
    for direction in ("in", "out"):
        zoom_to(page, "fit")
        for _ in range(8):
            before = page.evaluate("window.TlatelolcoPage.scale")
            zoom_to(page, direction)
            now = page.evaluate("window.TlatelolcoPage.scale")
            seen.append(now)
            assert overflow(page) is None, f"zoomed {direction} to {now}: {overflow(page)}"
            if now == before:
                break
    zoom_to(page, "fit")
    assert max(seen) >= 2 and min(seen) <= 0.5, f"zoom range {seen}"
    return seen


def check_fit(page: Any) -> None:
    """At "fit": the whole board inside its frame (nothing to pan), the frame on the screen."""
    zoom_to(page, "fit")
    page.evaluate("window.scrollTo(0, 0)")
    m = page.evaluate("""() => {
      const f = document.getElementById('board'), c = document.getElementById('board-content');
      const fr = f.getBoundingClientRect(), cr = c.getBoundingClientRect();
      return {sw: f.scrollWidth, cw: f.clientWidth, sh: f.scrollHeight, ch: f.clientHeight,
              frame: [fr.left, fr.top, fr.right, fr.bottom],
              content: [cr.left, cr.top, cr.right, cr.bottom],
              screen: [innerWidth, innerHeight]}; }""")
    assert m["sw"] <= m["cw"] + SLACK and m["sh"] <= m["ch"] + SLACK, f"fit still pans: {m}"
    left, top, right, bottom = m["frame"]
    width, height = m["screen"]
    assert left >= -SLACK and right <= width + SLACK, f"frame off the screen: {m}"
    assert bottom <= height + SLACK, f"the frame's bottom is below the screen: {m}"
    cl, ct, cr, cb = m["content"]
    assert cl >= left - SLACK and cr <= right + SLACK and ct >= top - SLACK and \
        cb <= bottom + SLACK, f"the board is bigger than its frame: {m}"


TURN_CONTROLS = ("#dock-game [data-key], #dock-game button, #picker button, #hint-button,"
                 " #zoom-fit")


def check_turn_in_view(page: Any, extra: str = "") -> None:
    """With the page at its top: the frame, and every control of the turn (the game's docked
    controls and pieces, undo, hint; `extra`: more selectors) inside the screen."""
    page.evaluate("window.scrollTo(0, 0)")
    selector = TURN_CONTROLS + (", " + extra if extra else "")
    out = page.evaluate("""(sel) => [...document.querySelectorAll(sel)]
      .filter((el) => el.offsetParent !== null || el.getClientRects().length)
      .map((el) => { const r = el.getBoundingClientRect();
        return {what: el.id || el.getAttribute('data-key') || el.textContent.trim().slice(0, 30),
                box: [r.left, r.top, r.right, r.bottom].map(Math.round)}; })
      .filter((c) => c.box[2] > c.box[0] && (c.box[0] < -1 || c.box[1] < -1 ||
              c.box[2] > innerWidth + 1 || c.box[3] > innerHeight + 1))""", selector)
    assert out == [], f"turn controls off the screen: {out[:6]}"
    frame = page.evaluate("document.getElementById('board').getBoundingClientRect().top")
    assert frame < page.evaluate("innerHeight") / 2, "the board starts below half the screen"


GENERIC = ("That is not one of your moves now.", "Ahora eso no es una de tus jugadas.")


def check_wrong_click(page: Any) -> None:
    """A click on a piece that is no move now: the reason on one line (two on a phone) over
    the board (nothing below it moves, taps go through it), the rules' reason in words (not
    the page's generic refusal, no engine notation in brackets or quotes)."""
    wrong = page.locator("#board-content [data-key]:not(.pick)")
    if not wrong.count():
        return
    before = page.evaluate("document.getElementById('dock').getBoundingClientRect().top"
                           " + window.scrollY")
    wrong.first.click(force=True)
    page.wait_for_selector("#reason:not([hidden])")
    reason = page.locator("#reason")
    text = reason.text_content().strip()
    assert text and "('" not in text and "')" not in text, text
    assert text not in GENERIC, f"a generic refusal, not the rules' reason: {text}"
    box = reason.bounding_box()
    line = page.evaluate("parseFloat(getComputedStyle(document.getElementById('reason'))"
                         ".lineHeight) || 20")
    lines = 2 if page.viewport_size["width"] <= 700 else 1  # a sentence on a phone: two
    assert box["height"] <= line * lines + 20, f"the reason takes {box['height']} px: {text}"
    assert reason.evaluate("(el) => getComputedStyle(el).pointerEvents") == "none", \
        "the reason must not catch taps meant for the board under it"
    after = page.evaluate("document.getElementById('dock').getBoundingClientRect().top"
                          " + window.scrollY")
    assert abs(after - before) <= SLACK, f"the reason moved the page by {after - before} px"


def reason_of_click(page: Any, target: Any) -> str:
    """Click `target` (a locator, or a selector's first element: a piece that is no move now)
    and read the reason the page shows for it."""
    if isinstance(target, str):
        target = page.locator(target).first
    page.evaluate("() => { const r = document.getElementById('reason');"
                  " r.hidden = true; r.textContent = ''; }")
    target.click(force=True)
    page.wait_for_function("() => document.getElementById('reason').textContent.trim() !== ''")
    return page.locator("#reason").text_content().strip()  # type: ignore[no-any-return]


DOCK_SHARE = 0.4  # of a phone's height: the board stays the larger part


def check_dock_share(page: Any, viewport: str) -> None:
    """On a phone the board comes first: the dock takes at most DOCK_SHARE of the screen."""
    width, _, touch = VIEWPORTS[viewport]
    if touch and width < 700:
        share = page.evaluate("document.getElementById('dock').getBoundingClientRect().height"
                              " / innerHeight")
        assert share <= DOCK_SHARE, f"the dock takes {share:.0%} of the screen"
