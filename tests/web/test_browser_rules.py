"""The rules in a real browser (Debian's Chromium driven by Playwright), under the server's
Content-Security-Policy: any violation or script error fails the test.

The page /rules/<game>: its title, the way back to the lobby, the English/Español switch, and a
phone's width without sideways scrolling. The panel of static/rules.js, loaded into that page
with the site's own scripts (the game page that opens it belongs to game.js): a dialog that
fetches the rulebook, is a side panel on a desktop and the whole screen on a phone, and closes
with its button or Escape, giving the focus back.
"""

from __future__ import annotations

from typing import Any

import pytest
from tests.web.apps import live_server
from tests.web.browsers import browser

__all__ = ["browser"]  # the fixture, shared with test_browser.py

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    with live_server(tmp_path_factory.mktemp("browser_rules")) as url:
        yield url


@pytest.fixture
def watched(browser):
    """(a function opening a page at a viewport size, the problems seen on those pages)."""
    problems: list[str] = []
    contexts: list[Any] = []

    def open_page(viewport: dict[str, int]) -> Any:
        context = browser.new_context(viewport=viewport, locale="en-GB")
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda err: problems.append(f"page error: {err}"))
        page.on("console", lambda msg: problems.append(f"console: {msg.text}")
                if "Content Security Policy" in msg.text or msg.type == "error" else None)
        return page

    yield open_page, problems
    for context in contexts:
        context.close()


def test_the_rules_page_reads_well_and_switches_language(base, watched) -> None:
    open_page, problems = watched
    page = open_page(PHONE)
    page.goto(f"{base}/rules/aztec_market")
    assert page.title() == "Aztec Market rules — Tlatelolco"
    assert page.evaluate("document.documentElement.lang") == "en"
    back = page.get_by_role("link", name="Back to the lobby")
    assert back.is_visible() and back.get_attribute("href") == "/"
    assert page.get_by_role("heading", name="How a turn works", level=2).is_visible()
    # a phone never scrolls the page sideways: wide tables and diagrams scroll in their boxes
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert page.evaluate("getComputedStyle(document.querySelector('.table-scroll')).overflowX"
                         ) == "auto"

    page.get_by_role("link", name="Español").click()
    page.wait_for_url("**/rules/aztec_market?lang=es")
    assert page.title() == "El mercado azteca: reglas — Tlatelolco"
    assert page.evaluate("document.documentElement.lang") == "es"
    assert page.get_by_role("heading", name="Cómo se juega un turno", level=2).is_visible()
    assert page.get_by_role("link", name="Volver a la sala").is_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    # the contents jump to a section; the footer leads to another game, in the same language
    page.locator("details.rules-toc summary").click()
    page.locator("details.rules-toc").get_by_role("link", name="PASAR (AM-5)").click()
    page.wait_for_url("**#am-5")
    page.get_by_role("link", name="Axio").click()
    page.wait_for_url("**/rules/axio?lang=es")
    assert page.title() == "Axio: reglas — Tlatelolco"

    page.get_by_role("link", name="English").click()
    page.wait_for_url("**/rules/axio?lang=en")
    assert page.title() == "Axio rules — Tlatelolco"
    back = page.get_by_role("link", name="Back to the lobby")
    back.click()
    page.wait_for_url(f"{base}/")
    assert problems == []


def open_panel_page(open_page: Any, base: str, viewport: dict[str, int]) -> Any:
    """A page with the site's shell.js and rules.js loaded, and a button that opens the panel
    (as the game page's "Rules" button will)."""
    page = open_page(viewport)
    page.goto(f"{base}/rules/grand_bazaar")
    page.add_script_tag(url="/static/shell.js")
    page.add_script_tag(url="/static/rules.js")
    page.evaluate("""() => {
        const b = document.createElement("button");
        b.id = "opener"; b.textContent = "Rules";
        b.addEventListener("click", () => TlatelolcoRules.open("mexica"));
        document.querySelector("header").append(b);
    }""")
    return page


def test_the_rules_panel_opens_over_the_page_and_gives_the_focus_back(base, watched) -> None:
    open_page, problems = watched
    page = open_panel_page(open_page, base, DESKTOP)
    here = page.url
    assert page.evaluate("TlatelolcoRules.isOpen()") is False
    page.click("#opener")
    dialog = page.locator("dialog#rules-dialog")
    dialog.locator(".rules-doc h1").wait_for()
    assert page.evaluate("TlatelolcoRules.isOpen()") is True
    assert dialog.locator(".rules-doc h1").inner_text() == "Mexica"
    assert dialog.get_attribute("aria-labelledby") == "rules-dialog-title"
    assert page.inner_text("#rules-dialog-title") == "Rules"
    assert page.evaluate("document.getElementById('rules-dialog').contains("
                         "document.activeElement)")
    # a side panel on the right, about 40rem wide, as tall as the window
    box = dialog.bounding_box()
    assert box and abs(box["x"] + box["width"] - DESKTOP["width"]) <= 1
    assert 600 <= box["width"] <= 660 and abs(box["height"] - DESKTOP["height"]) <= 1
    # the rules scroll inside the panel; a link to a section stays in the panel and the page
    body = dialog.locator(".rules-dialog-body")
    assert page.evaluate("(() => { const b = document.querySelector('.rules-dialog-body');"
                         " return b.scrollHeight > b.clientHeight; })()")
    page.evaluate("""() => { const a = document.createElement("a");
        a.href = "#rules-mx-9"; a.id = "jump"; a.textContent = "jump";
        document.querySelector(".rules-dialog-body .rules-doc").prepend(a); }""")
    page.click("#jump")
    assert page.url == here
    assert body.evaluate("b => b.scrollTop") > 0

    page.keyboard.press("Escape")
    assert page.evaluate("TlatelolcoRules.isOpen()") is False
    assert page.evaluate("document.activeElement.id") == "opener"

    # opened again it keeps the rulebook; the close button closes it too
    page.click("#opener")
    assert page.evaluate("TlatelolcoRules.isOpen()") is True
    assert body.evaluate("b => b.scrollTop") > 0
    page.get_by_role("button", name="Close").click()
    assert page.evaluate("TlatelolcoRules.isOpen()") is False
    assert page.evaluate("document.activeElement.id") == "opener"
    assert page.url == here
    assert problems == []


def test_the_rules_panel_fills_a_phone_and_speaks_spanish(base, watched) -> None:
    open_page, problems = watched
    page = open_panel_page(open_page, base, PHONE)
    page.evaluate("Tlatelolco.loadLanguage('es')")
    page.click("#opener")
    dialog = page.locator("dialog#rules-dialog")
    dialog.locator(".rules-doc h1").wait_for()
    assert dialog.locator(".rules-doc").get_attribute("lang") == "es"
    assert dialog.get_by_role("heading", name="Cómo se juega un turno").is_visible()
    assert page.inner_text("#rules-dialog-title") == "Reglas"
    box = dialog.bounding_box()
    assert box and box["x"] == 0 and box["width"] == PHONE["width"]
    assert abs(box["height"] - PHONE["height"]) <= 1
    assert dialog.get_by_role("link", name="Abrir como página").get_attribute(
        "href") == "/rules/mexica?lang=es"
    dialog.get_by_role("button", name="Cerrar").click()
    assert page.evaluate("TlatelolcoRules.isOpen()") is False
    assert problems == []
