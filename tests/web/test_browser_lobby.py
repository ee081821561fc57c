"""The lobby in a real browser: it remembers the player's name, describes each game, asks for
options in words, offers bots as Easy / Medium / Hard (or any spec, for experts), lists games
with their winners, dates and ages, marks the games this browser only watches, speaks Spanish
and fits a phone. The pages run under the server's Content-Security-Policy: a violation or a
script error fails the test. The lobby's data: tests/web/test_lobby.py.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from typing import Any

import pytest
from tests.web.apps import live_server, wait_for
from tests.web.browsers import browser
from tests.web.test_browser_seats import Watcher, call

__all__ = ["browser"]  # the fixture, shared with test_browser.py

NAME_KEY = "tlatelolco:name"
WATCHED_KEY = "tlatelolco:watched"
RULE_ID = re.compile(r"\b[A-Z]{2}-\d")


@pytest.fixture
def base(tmp_path):
    with live_server(tmp_path) as url:
        yield url


@pytest.fixture
def watcher(browser):
    w = Watcher(browser)
    yield w
    w.close()
    assert w.problems == [], w.problems


def open_lobby(page: Any, base: str) -> None:
    page.goto(base + "/")
    page.wait_for_function("() => document.querySelectorAll('#game option').length > 0")


def created_id(page: Any) -> str:
    """The game just created: with a seat of the creator's the page went to it, else the
    lobby shows it."""
    page.wait_for_function("() => location.pathname.startsWith('/games/')"
                           " || !!document.querySelector('#created h3')")
    if "/games/" in page.url:
        return page.url.rsplit("/", 1)[1]
    return page.locator("#created h3").text_content().split()[1]


def summary(base: str, game_id: str) -> dict[str, Any]:
    status, game = call(base, "GET", f"/api/games/{game_id}")
    assert status == 200, game
    return game


def catalog(base: str) -> dict[str, dict[str, Any]]:
    status, games = call(base, "GET", "/api/catalog")
    assert status == 200
    return {g["name"]: g for g in games}


def finish_a_game(base: str) -> dict[str, Any]:
    status, game = call(base, "POST", "/api/games", {
        "game": "grand_bazaar", "options": {"num_players": 2},
        "seats": ["bot:random", "bot:random"]})
    assert status == 201, game
    wait_for(lambda: summary(base, game["id"])["status"] == "finished", timeout=120,
             what="the bots to finish")
    return game


# --- 1. the name -----------------------------------------------------------------------------
def test_the_players_name_is_remembered_for_the_next_visit(base, watcher):
    page = watcher.page()
    open_lobby(page, base)
    assert page.input_value("#name") == ""
    page.select_option("#game", "grand_bazaar")
    page.fill("#name", "Ana María")
    page.click("#create-button")
    game_id = created_id(page)
    assert summary(base, game_id)["seats"][0]["name"] == "Ana María"
    assert page.evaluate(f"localStorage.getItem('{NAME_KEY}')") == "Ana María"
    page.close()

    page = watcher.page()  # another visit: the name is there already
    open_lobby(page, base)
    assert page.input_value("#name") == "Ana María"
    page.fill("#name", "Bea")
    page.locator("#name").blur()  # a changed name is kept without creating a game
    assert page.evaluate(f"localStorage.getItem('{NAME_KEY}')") == "Bea"
    # joining asks for the name, offering the remembered one; the answer is remembered
    status, game = call(base, "POST", "/api/games", {
        "game": "grand_bazaar", "options": {"num_players": 2}, "seats": ["taken", "open"]})
    assert status == 201
    asked: list[str] = []

    def answer(dialog: Any) -> None:
        asked.append(dialog.default_value)
        dialog.accept("Cy")

    page.on("dialog", answer)
    page.reload()
    page.click(f'#open-games button[data-join="{game["id"]}"]')
    page.wait_for_url(f"{base}/games/{game['id']}")
    assert asked == ["Bea"]
    assert page.evaluate(f"localStorage.getItem('{NAME_KEY}')") == "Cy"
    assert summary(base, game["id"])["seats"][1]["name"] == "Cy"


# --- 3. the games described ------------------------------------------------------------------
def test_each_game_is_described_with_its_typical_length(base, watcher):
    games = catalog(base)
    described = [dict(g, summary="Tiles and colours, for the test.", minutes=[20, 40])
                 if g["name"] == "axio" else dict(g, summary="", minutes=[0, 0])
                 for g in games.values()]
    page = watcher.page()
    page.route("**/api/catalog", lambda route: route.fulfill(
        status=200, content_type="application/json", body=json.dumps(described)))
    open_lobby(page, base)
    texts = page.locator("#game option").all_text_contents()
    assert "Axio (20–40 min)" in texts
    assert games["mexica"]["title"] in texts  # no length known: the title alone
    page.select_option("#game", "axio")
    about = page.locator("#about-game")
    assert about.locator(".summary").text_content() == "Tiles and colours, for the test."
    lo, hi = games["axio"]["players"]
    assert about.locator(".facts").text_content() == f"{lo} to {hi} players · 20–40 min"
    page.select_option("#game", "mexica")
    assert about.locator(".summary").count() == 0  # nothing said: nothing shown
    # the real catalog: whatever the games say of themselves is shown
    page.unroute("**/api/catalog")
    open_lobby(page, base)
    for name, g in games.items():
        page.select_option("#game", name)
        shown = about.inner_text()
        if g["summary"]:
            assert g["summary"] in shown
        if g["minutes"][1]:
            assert f"{g['minutes'][1]} min" in shown


# --- 4. options in words ---------------------------------------------------------------------
def test_options_are_asked_with_labels_help_and_fitting_inputs(base, watcher):
    games = catalog(base)
    page = watcher.page()
    open_lobby(page, base)
    for name, g in games.items():
        page.select_option("#game", name)
        labels = page.locator("#create label, #create legend").all_inner_texts()
        assert not [text for text in labels if RULE_ID.search(text)], (name, labels)
        assert page.locator("#players-label").inner_text() == (
            g["options"]["num_players"]["label"] if g["options"]["num_players"]["label"]
            != "num_players" else "Players")
        for option, spec in g["options"].items():
            if option == "num_players":
                continue
            field = page.locator(f'[data-option="{option}"]')
            if spec["choices"] is None and spec["remote"] == [spec["default"]]:
                assert field.count() == 0  # a server takes one value: nothing to ask
                continue
            if spec["label"] != option:
                assert spec["label"] in page.locator("#options").inner_text()
            if spec["about"]:  # visible help, not a tooltip
                assert page.locator(f"#option-{option}-about").is_visible()
                assert page.locator(f"#option-{option}-about").inner_text() == spec["about"]
            if isinstance(spec["default"], bool):
                assert field.get_attribute("type") == "checkbox"
            elif spec["choices"]:
                assert field.evaluate("e => e.tagName") == "SELECT"
            elif spec["minimum"] is not None and spec["maximum"] is not None:
                assert field.get_attribute("type") == "number"
                assert field.get_attribute("min") == str(spec["minimum"])
                assert field.get_attribute("max") == str(spec["maximum"])
    # Aztec Market's options, as chosen, reach the server with their types
    page.select_option("#game", "aztec_market")
    page.select_option("#players", "2")
    page.select_option('[data-option="setup"]', label="random")
    page.fill('[data-option="removed"]', "8")
    page.locator('[data-option="luck"]').uncheck()
    page.click("#create-button")
    game = summary(base, created_id(page))
    assert game["options"] == {"num_players": 2, "setup": "random", "removed": 8,
                               "luck": False}


# --- 5. bots by level ------------------------------------------------------------------------
LEVELS = ["Bot: Easy", "Bot: Medium", "Bot: Hard"]


def test_bots_are_offered_as_easy_medium_hard_or_a_spec(base, watcher):
    games = catalog(base)
    page = watcher.page()
    open_lobby(page, base)
    for name in games:
        page.select_option("#game", name)
        choices = page.locator('select[data-seat="1"] option').all_text_contents()
        assert choices == ["You", "Open: an invite link", *LEVELS,
                           "Bot: advanced (a spec)…"], (name, choices)
        assert page.locator('select[data-seat="1"]').input_value() == "bot:greedy"  # Medium
        assert page.locator('select[data-seat="0"]').input_value() == "taken"
    # each level makes the bot it says, on the server; the hard one searches for 2 seconds
    for name, players in (("grand_bazaar", 4), ("axio", 4)):
        page.select_option("#game", name)
        page.select_option("#players", str(players))
        page.select_option('select[data-seat="0"]', "open")  # so that the lobby stays
        page.select_option('select[data-seat="1"]', label="Bot: Easy")
        page.select_option('select[data-seat="2"]', label="Bot: Hard")
        page.select_option('select[data-seat="3"]', label="Bot: advanced (a spec)…")
        spec = page.locator('[data-seat-spec="3"]')
        assert spec.is_visible() and not page.locator('[data-seat-spec="2"]').is_visible()
        spec.fill("mcts:iterations=50")
        page.click("#create-button")
        game = summary(base, created_id(page))
        search = "ismcts" if games[name]["information"] == "imperfect" else "mcts"
        assert [s["bot"] for s in game["seats"]] == [
            None, "random", f"{search}:time=2", "mcts:iterations=50"], name
        page.locator("#created").evaluate("e => e.replaceChildren()")
    # an empty spec is refused in the page, before the server is asked
    page.select_option('select[data-seat="3"]', label="Bot: advanced (a spec)…")
    page.fill('[data-seat-spec="3"]', "")
    page.click("#create-button")
    page.locator("#error").wait_for()
    assert "seat 4" in page.locator("#error").inner_text()  # the fourth seat, counted from 1
    assert page.locator("#created h3").count() == 0


# --- 6. the lists: winners, dates, ages ------------------------------------------------------
def test_the_lists_show_winners_dates_and_ages(base, watcher):
    finished = finish_a_game(base)
    status, running = call(base, "POST", "/api/games", {
        "game": "axio", "options": {"num_players": 2}, "seats": ["taken", "bot:random"],
        "name": "Ana"})
    assert status == 201
    page = watcher.page()

    def five_minutes_ago(route: Any) -> None:  # as the server would say it
        response = route.fetch()
        began = (dt.datetime.now(dt.UTC) - dt.timedelta(minutes=5)).isoformat()
        route.fulfill(response=response, json=[dict(g, started_at=began)
                                               for g in response.json()])

    page.route("**/api/games?status=running*", five_minutes_ago)
    open_lobby(page, base)
    row = page.locator(f'#finished-games tr[data-game="{finished["id"]}"]')
    row.wait_for()
    entry = next(g for g in call(base, "GET", "/api/games?status=finished")[1]
                 if g["id"] == finished["id"])
    winners = entry["winners"]
    text = row.inner_text()
    if len(winners) == 1:
        assert f"Winner: {winners[0]}" in text
    else:
        assert "Winners: " in text or "Draw" in text
    date = page.evaluate(f"new Date({json.dumps(entry['finished_at'])})"
                         ".toLocaleDateString('en', {year: 'numeric', month: 'short',"
                         " day: 'numeric'})")
    assert f"finished {date}" in text
    assert row.get_by_role("link", name="Replay").get_attribute("href") == \
        f"/games/{finished['id']}/replay"
    running_row = page.locator(f'#running-games tr[data-game="{running["id"]}"]')
    running_row.wait_for()
    assert "started 5 minutes ago" in running_row.inner_text()
    assert running_row.locator("time").get_attribute("datetime")


# --- 7. spectating -----------------------------------------------------------------------------
def test_games_this_browser_only_watches_carry_a_spectating_badge(base, watcher):
    finished = finish_a_game(base)
    status, open_game = call(base, "POST", "/api/games", {
        "game": "grand_bazaar", "options": {"num_players": 2}, "seats": ["taken", "open"]})
    assert status == 201
    page = watcher.page()
    open_lobby(page, base)
    page.select_option("#game", "axio")
    page.click("#create-button")
    mine = created_id(page)  # on the game's page now: back to the lobby after this
    # the game page remembers what it watches; a game with a seat here is not "watched"
    page.evaluate(f"""() => localStorage.setItem('{WATCHED_KEY}', JSON.stringify([
        {{id: '{finished["id"]}', game: 'grand_bazaar', at: Date.now()}},
        {{id: '{open_game["id"]}', game: 'grand_bazaar', at: Date.now() - 1000}},
        {{id: 'gone9876', game: 'axio', at: 1}}, {{id: '{mine}', at: 2}}]))""")
    open_lobby(page, base)
    watched = page.locator(f'#my-games tr[data-game="{open_game["id"]}"]')
    watched.wait_for()
    assert watched.locator(".badge.spectating").inner_text() == "Spectating"
    assert watched.get_by_role("link", name="Watch").get_attribute("href") == \
        f"/games/{open_game['id']}"
    held = page.locator(f'#my-games tr[data-game="{mine}"]')
    assert held.get_by_role("link", name="Resume").count() == 1
    assert held.locator(".badge").count() == 0
    listed = page.locator(f'#finished-games tr[data-game="{finished["id"]}"]')
    listed.wait_for()
    assert listed.locator(".badge.spectating").count() == 1
    assert page.locator(f'#open-games tr[data-game="{open_game["id"]}"] .badge').count() == 1
    # a watched game the server no longer has is forgotten; forgetting one is kept
    page.wait_for_function(f"() => !localStorage.getItem('{WATCHED_KEY}').includes('gone9876')")
    page.locator(f'#my-games tr[data-game="{finished["id"]}"]').get_by_role(
        "button", name="forget").click()
    left = page.evaluate(f"JSON.parse(localStorage.getItem('{WATCHED_KEY}')).map((e) => e.id)")
    assert left == [open_game["id"], mine]
    # the other shape the game page may write, {id: {game, at}}
    page.evaluate(f"""() => localStorage.setItem('{WATCHED_KEY}', JSON.stringify(
        {{'{finished["id"]}': {{game: 'grand_bazaar', at: Date.now()}}}}))""")
    page.reload()
    page.locator(f'#my-games tr[data-game="{finished["id"]}"] .badge.spectating').wait_for()


# --- 8. Spanish ------------------------------------------------------------------------------
def test_the_lobby_speaks_spanish_and_switches_language(browser, base):
    finished = finish_a_game(base)
    watcher = Watcher(browser)
    watcher.context.close()
    watcher.context = browser.new_context(locale="es-MX", viewport={"width": 1200, "height": 900})
    page = watcher.page()
    open_lobby(page, base)
    page.wait_for_function("() => document.documentElement.lang === 'es'")
    assert page.locator("h1").inner_text() == "Sala"
    assert page.locator("#create-button").inner_text() == "Crear partida"
    assert page.title() == "Tlatelolco — sala"
    assert page.get_attribute("#name", "placeholder") == "Jugador 1"
    english = page.evaluate("[...document.querySelectorAll('[data-i18n]')]"
                            ".filter((e) => e.textContent === e.dataset.i18n)"
                            ".map((e) => e.dataset.i18n)")
    assert english == [], english
    page.select_option("#game", "axio")
    levels = page.locator('select[data-seat="1"] option').all_text_contents()
    assert levels[2:5] == ["Bot: fácil", "Bot: medio", "Bot: difícil"]
    row = page.locator(f'#finished-games tr[data-game="{finished["id"]}"]')
    row.wait_for()
    text = row.inner_text()
    assert "Ganador" in text or "Empate" in text
    assert "terminada el" in text and row.get_by_role("link", name="Repetición").count() == 1
    # the switch: English, remembered for the next page
    page.locator(".language-switch button", has_text="English").click()
    page.wait_for_function("() => document.querySelector('h1').textContent === 'Lobby'")
    assert page.evaluate("localStorage.getItem('tlatelolco:lang')") == "en"
    assert watcher.problems == [], watcher.problems
    watcher.close()


# --- 9. a phone ------------------------------------------------------------------------------
def test_the_lobby_fits_a_phone(browser, base):
    finish_a_game(base)
    status, _ = call(base, "POST", "/api/games", {
        "game": "axio", "options": {"num_players": 2}, "seats": ["taken", "open"],
        "name": "Ana Lucía Fernández de la Vega"})
    assert status == 201
    watcher = Watcher(browser)
    watcher.context.close()
    watcher.context = browser.new_context(viewport={"width": 390, "height": 844},
                                          is_mobile=True, has_touch=True)
    page = watcher.page()
    open_lobby(page, base)
    page.select_option("#game", "aztec_market")
    page.select_option('select[data-seat="1"]', label="Bot: advanced (a spec)…")
    page.click("#create-button")
    created_id(page)
    open_lobby(page, base)
    page.locator("#my-games tr").first.wait_for()
    page.locator("#finished-games tr").first.wait_for()
    page.select_option("#game", "aztec_market")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    # every control a finger aims at: at least 32 px each way (a checkbox: its label)
    small = page.evaluate("""() => [...document.querySelectorAll(
            'a, button, select, input, textarea, summary')]
        .filter((e) => e.offsetParent !== null && e.type !== 'hidden')
        .map((e) => e.type === 'checkbox' ? e.closest('label') || e : e)
        .map((e) => [e.outerHTML.slice(0, 80), e.getBoundingClientRect()])
        .filter(([, r]) => r.width < 32 || r.height < 32 || r.right > 390)
        .map(([html, r]) => `${html} ${Math.round(r.width)}x${Math.round(r.height)}`)""")
    assert small == [], small
    assert watcher.problems == [], watcher.problems
    watcher.close()
