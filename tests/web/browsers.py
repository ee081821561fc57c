"""What the browser tests share: Debian's Chromium through Playwright, and a seat's page.

Import the `browser` fixture into a test module (`from tests.web.browsers import browser`);
it skips only when Chromium is absent and CI is not set (see `services.unavailable`).
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from tests.web.services import unavailable

CHROMIUM = "/usr/bin/chromium"
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def browser():
    if not Path(CHROMIUM).exists() and not shutil.which("chromium"):
        unavailable("browser tests need Debian's chromium at /usr/bin/chromium")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--no-first-run"])
        yield browser
        browser.close()


def play_as(page: Any, base: str, game: dict[str, Any], seat: int, text: str) -> None:
    """Play `text` (notation) for `seat` of a created `game` through the API."""
    me = {"Authorization": f"Bearer {game['seats'][seat]['token']}"}
    view = page.request.get(f"{base}/api/games/{game['id']}/view", headers=me).json()
    response = page.request.post(f"{base}/api/games/{game['id']}/actions", headers=me,
                                 data={"version": view["version"], "text": text})
    assert response.ok, response.text()


def open_seat(page: Any, game: dict[str, Any], seat: int) -> dict[str, Any]:
    """Seat `seat`'s page (its credential handed over in the fragment, as an API client's
    link does), once it shows its legal moves; the view."""
    page.goto(game["seats"][seat]["url"] + "#token=" + game["seats"][seat]["token"])
    page.wait_for_function("() => { const v = window.TlatelolcoPage && window.TlatelolcoPage.view;"
                           " return v && v.legal.length > 0; }")
    return page.evaluate("window.TlatelolcoPage.view")  # type: ignore[no-any-return]
