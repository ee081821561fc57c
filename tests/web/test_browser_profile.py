"""A player's page and the leaderboards in a real browser, on a phone's screen: the rating
chart with its axes and the bots' levels, the links to replays and reviews, adding a friend,
Spanish, and nothing wider than the screen. The pages run under the server's
Content-Security-Policy: a violation or a script error fails the test."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from tests.web.apps import live_server
from tests.web.browsers import PHONE, browser
from tests.web.social_helpers import create, join, person, play_out, rated

from tlatelolco.web.accounts.identity import SESSION_COOKIE

__all__ = ["browser"]
LANG_KEY = "tlatelolco:lang"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """A live server where Ana and Bea finished two rated Axio games; (base URL, their
    session headers, the games)."""
    with live_server(tmp_path_factory.mktemp("profile")) as base:
        client = httpx.Client(base_url=base, timeout=30)
        ana, bea = person(client, "Ana"), person(client, "Bea")
        finished = []
        for seed in (1, 2):
            game = create(client, ana, "axio", ["taken", "open"], num_players=2)
            join(client, bea, game["id"], 1)
            finished.append(play_out(client, game["id"], [ana, bea], seed=seed))
        rated(client, "Ana", "axio", times=2)
        rated(client, "Bea", "axio", times=2)
        client.close()
        yield base, {"Ana": ana, "Bea": bea}, finished


def phone(browser: Any, base: str, lang: str | None = None, who: dict[str, str] | None = None
          ) -> tuple[Any, Any, list[str]]:
    """A phone-sized page (in `lang`, logged in with `who`'s session); its problems list."""
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True,
                                  has_touch=True)
    if who is not None:
        session = who["Cookie"].split("=", 1)[1]
        context.add_cookies([{"name": SESSION_COOKIE, "value": session, "url": base}])
    if lang:
        context.add_init_script(f"localStorage.setItem('{LANG_KEY}', '{lang}')")
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda err: problems.append(f"page error: {err}"))
    page.on("console", lambda msg: problems.append(f"console: {msg.text}")
            if "Content Security Policy" in msg.text else None)
    return context, page, problems


def no_overflow(page: Any) -> None:
    wide = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert wide[0] <= wide[1], f"the page is {wide[0]} px wide on a {wide[1]} px screen"
    outside = page.evaluate("""() => [...document.querySelectorAll('main *')]
        .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 0.5)
        .map((e) => e.tagName + '.' + e.className)""")
    assert outside == [], outside


def open_profile(page: Any, base: str, name: str) -> dict[str, Any]:
    response = page.goto(f"{base}/players/{name}")
    assert "script-src 'self'" in response.headers["content-security-policy"]
    page.wait_for_function("() => !!window.TlatelolcoProfile")
    return page.evaluate("window.TlatelolcoProfile.player")  # type: ignore[no-any-return]


def test_the_profile_shows_the_chart_and_links_on_a_phone(browser, site):
    base, _, finished = site
    context, page, problems = phone(browser, base)
    try:
        shown = open_profile(page, base, "ana")
        assert page.text_content("#player-name") == "Ana"
        card = page.locator("#game-axio")
        assert "2 games played" in card.text_content()
        rating = shown["games"]["axio"]["rating"]
        assert f"Rating {rating:.1f}" in card.text_content()
        assert shown["games"]["axio"]["rank_display"] in card.text_content()
        chart = card.locator("svg.rating-chart")
        assert chart.count() == 1
        assert chart.locator("title").first.text_content() == \
            "Axio: rating after each rated game"
        assert chart.locator("polyline.rating-line").get_attribute("points").count(",") == 2
        assert chart.locator("circle.rating-dot").count() == 2
        assert chart.locator("line.bot-line").count() == 3
        labels = chart.locator("text").all_text_contents()
        assert "Rating" in labels and "2 rated games" in labels
        assert {"Easy bot", "Medium bot", "Hard bot"} <= set(labels)
        assert len([t for t in labels if t.replace(".", "").replace("-", "").isdigit()]) >= 2
        box = chart.bounding_box()
        assert box["width"] <= PHONE["width"] and box["height"] > 150
        for game in finished:
            replay = page.locator(f"a[href='/games/{game['id']}/replay']")
            review = page.locator(f"a[href='/games/{game['id']}/replay?review=1']")
            assert replay.count() == 1 and review.count() == 1
        assert page.locator(".recent-game").count() == 2
        assert "Ana, Bea" in page.locator(".recent-game").first.text_content()
        no_overflow(page)
        page.locator(f"a[href='/games/{finished[0]['id']}/replay']").click()
        page.wait_for_url(f"{base}/games/{finished[0]['id']}/replay")
    finally:
        context.close()
    assert problems == []


def test_the_profile_and_leaderboard_in_spanish(browser, site):
    base, _, _ = site
    context, page, problems = phone(browser, base, lang="es")
    try:
        shown = open_profile(page, base, "Bea")
        assert page.text_content("#games-h") == "Puntuaciones y partidas"
        assert page.text_content("#recent-h") == "Partidas recientes"
        card = page.locator("#game-axio").text_content()
        assert "2 partidas jugadas" in card and "provisional: 2 partidas puntuadas" in card
        assert shown["games"]["axio"]["rank_display"] in card
        labels = page.locator("#game-axio svg text").all_text_contents()
        assert "Puntuación" in labels and "Bot difícil" in labels
        assert page.locator("#game-axio svg title").first.text_content() == \
            "Axio: puntuación tras cada partida puntuada"
        assert page.locator("a:has-text('Repetición')").count() == 2
        assert page.locator("a:has-text('Análisis')").count() == 2
        no_overflow(page)
        page.goto(base + "/leaderboard#axio")
        page.wait_for_function("() => window.TlatelolcoLeaderboard"
                               " && window.TlatelolcoLeaderboard.game === 'axio'")
        assert page.text_content("h1") == "Clasificaciones"
        heads = page.locator(".board-table th").all_text_contents()
        assert heads == ["#", "Jugador", "Puntuación", "Jugadas", "Ganadas"]
        assert page.locator("tr.bot").first.text_content().startswith("Bot")
        no_overflow(page)
    finally:
        context.close()
    assert problems == []


def test_the_leaderboard_has_a_tab_per_game_and_fits_a_phone(browser, site):
    base, _, _ = site
    context, page, problems = phone(browser, base)
    try:
        page.goto(base + "/leaderboard")
        page.wait_for_function("() => !!window.TlatelolcoLeaderboard")
        tabs = page.locator("[role=tab]")
        assert tabs.count() == 4
        page.click("#tab-axio")
        page.wait_for_function("() => window.TlatelolcoLeaderboard.game === 'axio'")
        assert page.get_attribute("#tab-axio", "aria-selected") == "true"
        assert page.url.endswith("#axio")
        names = page.locator("tr.person a").all_text_contents()
        assert sorted(names) == ["Ana", "Bea"]
        assert page.locator("tr.bot").count() == 3
        assert "null" not in page.text_content("#board")
        assert page.get_attribute("tr.person a >> nth=0", "href") == "/players/" + names[0]
        no_overflow(page)
        page.click("#tab-mexica")
        page.wait_for_function("() => window.TlatelolcoLeaderboard.game === 'mexica'")
        assert "Nobody is rated in this game yet." in page.text_content("#board")
        page.keyboard.press("ArrowLeft")
        page.wait_for_function("() => window.TlatelolcoLeaderboard.game !== 'mexica'")
    finally:
        context.close()
    assert problems == []


def test_a_logged_in_player_adds_a_friend_from_a_profile(browser, site):
    base, people, _ = site
    context, page, problems = phone(browser, base, who=people["Ana"])
    try:
        open_profile(page, base, "Bea")
        page.click("#friend-button")
        page.wait_for_function(
            "() => document.getElementById('friend-button').textContent === 'Remove friend'")
        with httpx.Client(base_url=base) as client:
            mine = client.get("/api/friends", headers=people["Ana"]).json()
        assert mine["friends"] == [{"name": "Bea"}]
        open_profile(page, base, "Ana")
        assert page.text_content("#friend-box") == "This is you."
        page.goto(base + "/players/Nobody")
        page.wait_for_function("() => document.getElementById('games').textContent.length > 0")
        assert page.text_content("#games") == "There is no player named Nobody."
        no_overflow(page)
    finally:
        context.close()
    assert problems == []
