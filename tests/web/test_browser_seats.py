"""Seats in a real browser: credentials kept in localStorage and never in an address.

An invite link (`/games/ID#invite=CODE`) is claimed once: the page takes the fragment out of
the address bar, watches until the seat is taken, and stores the personal credential it gets
in exchange; a second claim of the same link is told the link was used. The lobby lists the
games this browser holds a seat in and gets back into them; a rematch goes straight to the
new game as the right seat; the pages run under the server's Content-Security-Policy without
a single violation; an address copied from the address bar makes a spectator.
"""

from __future__ import annotations

import json
import random
import urllib.error
import urllib.request
from typing import Any

import pytest
from tests.web.apps import live_server
from tests.web.browsers import browser

__all__ = ["browser"]  # the fixture, shared with test_browser.py

SEATS_KEY = "tlatelolco:seats"


# --- helpers ---------------------------------------------------------------------------------
def call(base: str, method: str, path: str, body: Any = None, token: str | None = None
         ) -> tuple[int, Any]:
    """An API request outside the browser: (status, JSON body)."""
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read() or b"null")


class Watcher:
    """A browser context whose pages are watched for script errors and CSP violations."""

    def __init__(self, browser: Any) -> None:
        self.context = browser.new_context(viewport={"width": 1360, "height": 940})
        self.problems: list[str] = []

    def page(self) -> Any:
        page = self.context.new_page()
        page.on("pageerror", lambda err: self.problems.append(f"page error: {err}"))
        page.on("console", lambda msg: self.problems.append(f"console: {msg.text}")
                if "Content Security Policy" in msg.text else None)
        return page

    def close(self) -> None:
        self.context.close()


def stored(page: Any) -> dict[str, Any]:
    """The seat credentials the page's browser keeps."""
    return page.evaluate(f"JSON.parse(localStorage.getItem('{SEATS_KEY}') || '{{}}')") or {}


def wait_viewer(page: Any, viewer: int | None, timeout: float = 20_000) -> dict[str, Any]:
    """Until the page's live view is `viewer`'s (None: a spectator's); that view."""
    expected = "null" if viewer is None else str(viewer)
    page.wait_for_function(
        f"() => {{ const v = window.TlatelolcoPage && window.TlatelolcoPage.view;"
        f" return v && v.viewer === {expected} &&"
        f" document.getElementById('connection').textContent === 'live'; }}", timeout=timeout)
    return page.evaluate("window.TlatelolcoPage.view")


def game_path(base: str, game_id: str) -> str:
    return f"{base}/games/{game_id}"


def create_in_lobby(page: Any, base: str, game: str, seats: list[str], players: int = 2,
                    name: str = "Ana", listed: bool = True) -> str:
    """Create a game with the lobby's form; its id. With a seat of its own ("taken") the page
    goes straight to the game; without, the lobby shows the game's links."""
    response = page.goto(base + "/")
    assert_csp(response)
    page.select_option("#game", game)
    page.select_option("#players", str(players))
    page.fill("#name", name)
    for seat, choice in enumerate(seats):
        page.select_option(f'select[data-seat="{seat}"]', choice)
    if not listed:
        page.uncheck("#listed")
    page.click("#create-button")
    if "taken" in seats:
        page.wait_for_url(f"{base}/games/*")
        return page.url.rsplit("/", 1)[1]
    page.wait_for_selector("#created h3")
    return page.locator("#created h3").text_content().split()[1]


def assert_csp(response: Any) -> None:
    policy = response.headers.get("content-security-policy", "")
    assert "script-src 'self'" in policy, f"no Content-Security-Policy on the page: {policy!r}"


def play_to_the_end(base: str, game_id: str, tokens: list[str], seed: int = 1) -> None:
    """Random legal moves through the API, for whichever of `tokens` is to move."""
    rng = random.Random(seed)
    for _ in range(2000):
        status, summary = call(base, "GET", f"/api/games/{game_id}")
        assert status == 200, summary
        if summary["status"] == "finished":
            return
        for token in tokens:
            status, view = call(base, "GET", f"/api/games/{game_id}/view", token=token)
            assert status == 200, view
            if view["legal"]:
                move = rng.choice(view["legal"])
                call(base, "POST", f"/api/games/{game_id}/actions",
                     {"version": view["version"], "action": move["id"]}, token)
                break
    raise AssertionError("the game did not end")


# --- (a) an invite is claimed once; (e) a copied address makes a spectator --------------------
def test_an_invite_link_is_claimed_once_and_no_secret_stays_in_the_address(browser, tmp_path):
    with live_server(tmp_path) as base:
        host, friend, late, stranger = (Watcher(browser) for _ in range(4))
        page = host.page()
        game_id = create_in_lobby(page, base, "axio", ["taken", "open"])
        wait_viewer(page, 0)  # straight into the game as seat 0, no secret in the address
        assert page.url == game_path(base, game_id)
        # the open seat's invite link, made on the game page
        page.click("#players .seat-1 button:has-text('Invite')")
        field = page.locator("#players .seat-1 .copy-box input")
        field.wait_for()
        invite_url = field.input_value()
        invite = invite_url.split("#invite=", 1)[1]
        assert invite_url == f"{game_path(base, game_id)}#invite={invite}"
        mine = stored(page)[game_id]
        assert mine["seat"] == 0 and mine["token"] and mine["token"] != invite

        # the friend opens the invite link: the fragment leaves the address bar at once,
        # the page watches and offers the seat
        fpage = friend.page()
        response = fpage.goto(invite_url)
        assert_csp(response)
        assert wait_viewer(fpage, None)["game_id"] == game_id
        assert fpage.url == game_path(base, game_id)
        assert fpage.locator("#claim").is_visible()
        assert stored(fpage) == {}
        assert fpage.evaluate(f"sessionStorage.getItem('tlatelolco:invite:{game_id}')") == invite
        fpage.fill("#claim-name", "Bea")
        fpage.click("#claim-button")
        view = wait_viewer(fpage, 1)
        assert view["players"][1]["name"] == "Bea"
        assert fpage.url == game_path(base, game_id)
        assert fpage.locator("#claim").is_hidden()
        credential = stored(fpage)[game_id]
        assert credential["seat"] == 1
        assert credential["token"] not in (invite, mine["token"])
        assert fpage.evaluate(f"sessionStorage.getItem('tlatelolco:invite:{game_id}')") is None
        page.wait_for_function("() => window.TlatelolcoPage.view.players[1].name === 'Bea'")
        # the invite is no credential; the stored one is
        assert call(base, "GET", f"/api/games/{game_id}/view", token=invite)[0] == 403
        status, seen = call(base, "GET", f"/api/games/{game_id}/view", token=credential["token"])
        assert (status, seen["viewer"]) == (200, 1)
        fpage.reload()  # the stored credential brings the seat back
        wait_viewer(fpage, 1)

        # the same link again, in another browser: used already; keep watching
        lpage = late.page()
        lpage.goto(invite_url)
        wait_viewer(lpage, None)
        assert lpage.url == game_path(base, game_id)
        lpage.fill("#claim-name", "Cy")
        lpage.click("#claim-button")
        lpage.wait_for_selector("#claim .claim-refused")
        assert "used already" in lpage.locator("#claim .claim-refused").text_content()
        lpage.click("#keep-watching")
        assert lpage.locator("#claim").is_hidden()
        assert wait_viewer(lpage, None)["players"][1]["name"] == "Bea"
        assert stored(lpage) == {}
        assert lpage.evaluate(f"sessionStorage.getItem('tlatelolco:invite:{game_id}')") is None

        # (e) what the address bar shows hands over no seat
        for seated in (page, fpage):
            spage = stranger.page()
            spage.goto(seated.url)
            assert wait_viewer(spage, None)["game_id"] == game_id
            assert spage.locator("#claim").is_hidden()
            assert stored(spage) == {}
            spage.close()
        problems = host.problems + friend.problems + late.problems + stranger.problems
        assert problems == [], problems
        for w in (host, friend, late, stranger):
            w.close()


# --- (b) the lobby's "Your games" gets back into the seat ------------------------------------
def test_your_games_in_the_lobby_resumes_the_seat(browser, tmp_path):
    with live_server(tmp_path) as base:
        me = Watcher(browser)
        page = me.page()
        game_id = create_in_lobby(page, base, "axio", ["open", "taken"], listed=False)
        wait_viewer(page, 1)  # straight into the game as its seat
        # a game this browser remembers that the server no longer has: dropped from the list
        page.evaluate(f"""() => {{
            const all = JSON.parse(localStorage.getItem('{SEATS_KEY}'));
            all.gone1234 = {{token: 'x'.repeat(24), seat: 0, game: 'axio', at: 1}};
            localStorage.setItem('{SEATS_KEY}', JSON.stringify(all)); }}""")
        page.close()  # the tab is closed

        page = me.page()
        page.goto(base + "/")
        row = page.locator(f'#my-games tr[data-game="{game_id}"]')
        row.wait_for()
        assert page.locator("#mine").is_visible()
        text = row.text_content()
        assert "Axio" in text and "Ana (you)" in text and "open" in text
        page.wait_for_function(f"() => !('gone1234' in JSON.parse("
                               f"localStorage.getItem('{SEATS_KEY}')))")
        assert page.locator('#my-games tr[data-game="gone1234"]').count() == 0
        resume = row.get_by_role("link", name="Resume")
        assert resume.get_attribute("href") == f"/games/{game_id}"
        resume.click()
        view = wait_viewer(page, 1)
        assert view["game_id"] == game_id
        assert page.url == game_path(base, game_id)
        # an open seat: the seated player makes a new invite link for it
        page.click("#players .seat-0 button:has-text('Invite')")
        field = page.locator("#players .seat-0 .copy-box input")
        field.wait_for()
        link = field.input_value()
        assert link.startswith(f"{game_path(base, game_id)}#invite=")
        friend = Watcher(browser)
        fpage = friend.page()
        fpage.goto(link)
        wait_viewer(fpage, None)
        fpage.click("#claim-button")
        wait_viewer(fpage, 0)
        page.wait_for_function("() => window.TlatelolcoPage.view.players[0].kind === 'human'")
        assert page.locator("#players .seat-0 .copy-box").count() == 0
        assert me.problems == [] and friend.problems == [], me.problems + friend.problems
        me.close()
        friend.close()


# --- (c) a rematch lands in the new game as the right seat ------------------------------------
def test_a_rematch_goes_straight_to_the_new_game_as_the_right_seat(browser, tmp_path):
    with live_server(tmp_path) as base:
        status, game = call(base, "POST", "/api/games", {
            "game": "axio", "options": {"num_players": 2}, "seats": ["taken", "open"],
            "name": "Ana"})
        assert status == 201, game
        old = game["id"]
        token0 = game["seats"][0]["token"]
        status, claimed = call(base, "POST", f"/api/games/{old}/claim", {"name": "Bea"},
                               game["seats"][1]["invite"])
        assert status == 200, claimed
        token1 = claimed["token"]
        play_to_the_end(base, old, [token0, token1])

        ana, bea = Watcher(browser), Watcher(browser)
        apage, bpage = ana.page(), bea.page()
        # an API client's link: the credential in the fragment (the old form), taken out of
        # the address and kept
        apage.goto(f"{game_path(base, old)}#token={token0}")
        assert wait_viewer(apage, 0)["status"] == "finished"
        assert apage.url == game_path(base, old)
        assert stored(apage)[old]["token"] == token0
        bpage.goto(f"{game_path(base, old)}#token={token1}")
        wait_viewer(bpage, 1)
        assert bpage.url == game_path(base, old)

        visited: list[str] = []
        apage.on("framenavigated",
                 lambda frame: visited.append(frame.url) if frame == apage.main_frame else None)
        apage.click("#rematch")
        apage.wait_for_url(lambda url: url.rstrip("/") != game_path(base, old))
        view = wait_viewer(apage, 1)  # seats rotate: seat 0 plays seat 1 now
        new = view["game_id"]
        assert new != old and view["status"] == "running"
        assert apage.url == game_path(base, new)
        assert visited == [game_path(base, new)], visited  # not the old game again first
        assert stored(apage)[new]["token"] == token0 and stored(apage)[new]["seat"] == 1

        ready = bpage.locator("#rematch-ready")
        ready.wait_for()
        assert ready.get_attribute("href") == f"/games/{new}"
        ready.click()
        bpage.wait_for_url(game_path(base, new))
        assert wait_viewer(bpage, 0)["game_id"] == new
        assert stored(bpage)[new]["token"] == token1 and stored(bpage)[new]["seat"] == 0

        # the lobby: the finished game to replay or forget, the new one to resume
        apage.goto(base + "/")
        finished = apage.locator(f'#my-games tr[data-game="{old}"]')
        finished.wait_for()
        assert finished.get_by_role("link", name="Replay").get_attribute("href") == \
            f"/games/{old}/replay"
        running = apage.locator(f'#my-games tr[data-game="{new}"]')
        running.wait_for()
        assert running.get_by_role("link", name="Resume").get_attribute("href") == \
            f"/games/{new}"
        finished.get_by_role("button", name="forget").click()
        assert finished.count() == 0
        assert old not in stored(apage) and new in stored(apage)
        assert ana.problems == [] and bea.problems == [], ana.problems + bea.problems
        ana.close()
        bea.close()


# --- (d) no CSP violation anywhere in a game, and the seat controls ---------------------------
def test_the_pages_run_under_the_csp_and_seats_come_and_go(browser, tmp_path):
    """Hot seat (two seats of a game with perfect information in one browser), joining from
    the lobby, leaving, a credential the server no longer knows: no CSP violation reported."""
    with live_server(tmp_path) as base:
        me, other = Watcher(browser), Watcher(browser)
        page = me.page()
        game_id = create_in_lobby(page, base, "grand_bazaar", ["taken", "taken"])
        wait_viewer(page, 0)  # straight into the game as its first seat; both are kept
        held = stored(page)[game_id]
        assert held["seat"] == 0 and sorted(held["seats"]) == ["0", "1"]
        page.goto(game_path(base, game_id) + "#seat=1")
        wait_viewer(page, 1)  # #seat= picks the seat; it leaves the address too
        assert page.url == game_path(base, game_id)
        # the buttons count seats from 1, as people do
        page.click("#players .seat-0 button:has-text('Play as seat 1')")
        wait_viewer(page, 0)
        page.click("#players .seat-1 button:has-text('Play as seat 2')")
        wait_viewer(page, 1)
        # some moves by clicking, as the seats to move
        for _ in range(4):
            page.wait_for_function("() => { const v = TlatelolcoPage.view;"
                                   " return v.legal.length > 0 || v.to_move !== v.viewer; }")
            view = page.evaluate("TlatelolcoPage.view")
            if not view["legal"]:
                page.click(f"#players .seat-{view['to_move']} button:has-text('Play as')")
                wait_viewer(page, view["to_move"])
                continue
            page.click("#all-moves details.all-moves summary")  # below the dock since 06580dc
            page.locator("#all-moves details.all-moves .moves button").first.click()
            page.wait_for_function(f"() => TlatelolcoPage.view.version > {view['version']}")

        # a listed game with open seats, joined from the lobby by another browser
        page2 = me.page()
        axio = create_in_lobby(page2, base, "axio", ["taken", "open", "open"], players=3)
        opage = other.page()
        opage.on("dialog", lambda dialog: dialog.accept("Cy"))
        opage.goto(base + "/")
        opage.click(f'#open-games button[data-join="{axio}"]')
        opage.wait_for_url(game_path(base, axio))
        assert wait_viewer(opage, 1)["players"][1]["name"] == "Cy"
        assert stored(opage)[axio]["seat"] == 1
        # one seat per person where seats hide things: the stored credential goes along
        status, answer = call(base, "POST", f"/api/games/{axio}/join", {"name": "Cy again"},
                              stored(opage)[axio]["token"])
        assert status == 409 and answer["error"] == "one_seat", answer
        opage.goto(base + "/")
        opage.click(f'#open-games button[data-join="{axio}"]')
        opage.locator("#error").wait_for()
        assert stored(opage)[axio]["seat"] == 1
        # leaving forgets the credential
        opage.goto(game_path(base, axio))
        wait_viewer(opage, 1)
        token = stored(opage)[axio]["token"]
        opage.click("#links button:has-text('Leave the seat')")
        opage.wait_for_url(base + "/")
        assert axio not in stored(opage)
        # a credential that holds no seat any more: forgotten, the page watches instead
        opage.evaluate(f"""() => localStorage.setItem('{SEATS_KEY}', JSON.stringify(
            {{'{axio}': {{token: '{token}', seat: 1, game: 'axio', at: Date.now()}}}}))""")
        opage.goto(game_path(base, axio))
        wait_viewer(opage, None)
        assert "no longer yours" in opage.locator("#banner").text_content()
        assert axio not in stored(opage)
        problems = me.problems + other.problems
        assert problems == [], problems
        me.close()
        other.close()


@pytest.mark.parametrize("fragment", ["#invite=", "#token="])
def test_an_unknown_secret_in_the_fragment_leaves_a_spectator(browser, tmp_path, fragment):
    with live_server(tmp_path) as base:
        status, game = call(base, "POST", "/api/games", {
            "game": "axio", "options": {"num_players": 2}, "seats": ["taken", "open"]})
        assert status == 201, game
        me = Watcher(browser)
        page = me.page()
        page.goto(f"{game_path(base, game['id'])}{fragment}{'y' * 24}")
        assert page.url == game_path(base, game["id"])
        wait_viewer(page, None)
        if fragment == "#invite=":
            page.click("#claim-button")
            page.wait_for_selector("#claim .claim-refused")
        else:
            page.wait_for_function("() => document.getElementById('banner').textContent.length > 0")
        assert stored(page) == {}
        assert me.problems == [], me.problems
        me.close()


SLOW_RUNNING_LIST = """
const fetched = window.fetch;
window.fetch = (url, ...rest) => String(url).includes("status=running")
  ? new Promise((done) => setTimeout(() => done(fetched(url, ...rest)), 5000))
  : fetched(url, ...rest);
"""


def test_a_join_button_works_as_soon_as_it_is_drawn(browser, tmp_path):
    """Regression: the lobby bound its join buttons only after all three lists had loaded, so
    a click while the running or finished games were still loading did nothing."""
    with live_server(tmp_path) as base:
        status, game = call(base, "POST", "/api/games", {
            "game": "grand_bazaar", "options": {"num_players": 2}, "seats": ["taken", "open"]})
        assert status == 201
        watcher = Watcher(browser)
        page = watcher.page()
        page.add_init_script(SLOW_RUNNING_LIST)  # the running list takes 5 s to come
        page.on("dialog", lambda dialog: dialog.accept("Dee"))
        page.goto(base + "/")
        page.click(f'#open-games button[data-join="{game["id"]}"]', timeout=4_000)
        page.wait_for_url(game_path(base, game["id"]), timeout=4_000)
        assert stored(page)[game["id"]]["seat"] == 1
        assert not watcher.problems, watcher.problems
        watcher.close()
