"""Accounts in the lobby and on the game page, in a real browser against the real server.

Sign up, log out and in again (a wrong password answered in words), the account bar with the
account's name linking to its profile, its settings saved, "your turn in N games" in a badge
and in the tab title once a game waits for the account, the account's games with "your turn"
first, a guest seat of this browser attached to the account at login, an e-mail address
verified through the link mailed to it (a real SMTP server) and said so in the settings and
the lobby, friends and a seat filled by a friend's name, the lists' filters kept in the
address, the create form's speed controls, Spanish, keyboard use and a phone (390x844) without
sideways scrolling. The pages run under the server's Content-Security-Policy: a violation or a
script error fails the test.
The filters' API: test_lobby_filters.py.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from tests.web.accounts import PASSWORD, same_origin, signup
from tests.web.apps import live_server, wait_for
from tests.web.browsers import PHONE, browser
from tests.web.inboxes import Inbox, mail_server
from tests.web.test_browser_seats import SEATS_KEY, Watcher, call, stored

__all__ = ["browser"]  # the fixture, shared with the other browser tests


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


# --- helpers ---------------------------------------------------------------------------------
def open_lobby(page: Any, base: str, query: str = "") -> None:
    page.goto(base + "/" + query)
    page.wait_for_function("() => document.querySelectorAll('#game option').length > 0"
                           " && document.querySelectorAll('#account button, #account a')"
                           ".length > 0")


def sign_up(page: Any, name: str, password: str = PASSWORD, email: str = "") -> None:
    """Make an account with the lobby's dialog, as a person would."""
    page.click("#signup-open")
    page.get_by_label("Name", exact=True).fill(name)
    page.get_by_label("Password", exact=True).fill(password)
    if email:
        page.get_by_label("E-mail (optional)").fill(email)
    page.click("#signup-dialog button[type=submit]")
    page.wait_for_selector("#account-name")


def follow_verification(page: Any, base: str, inbox: Inbox, address: str, public: str) -> None:
    """Open the link of the latest mail verifying `address` in this browser, as its owner
    would (the link names the public URL, `public`, which the test serves at `base`): the
    lobby says the address is verified, and the address bar keeps no trace of it."""
    page.goto(inbox.verification_link(address).replace(public, base))
    note = page.locator("#verified-note")
    note.wait_for()
    assert note.text_content() == "Your e-mail address is verified."
    page.wait_for_function("() => location.pathname === '/' && location.search === ''")


def log_in(page: Any, name: str, password: str = PASSWORD) -> None:
    page.click("#login-open")
    page.fill("#login-name", name)
    page.fill("#login-password", password)
    page.click("#login-dialog button[type=submit]")


def account_of(page: Any, base: str) -> dict[str, Any] | None:
    """GET /api/account with this browser's cookies."""
    return page.request.get(base + "/api/account").json()["user"]  # type: ignore[no-any-return]


def account_games(page: Any, base: str) -> dict[str, Any]:
    return page.request.get(base + "/api/account/games").json()  # type: ignore[no-any-return]


def create_with_session(page: Any, base: str, seats: list[str], game: str = "grand_bazaar",
                        **extra: Any) -> dict[str, Any]:
    """A game created with this browser's session (the page's origin, as its fetch sends)."""
    response = page.request.post(base + "/api/games", headers={"Origin": base}, data={
        "game": game, "options": {"num_players": len(seats)}, "seats": seats, **extra})
    assert response.status == 201, response.text()
    return response.json()  # type: ignore[no-any-return]


def no_sideways_scroll(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width} px wide on a {PHONE['width']} px phone"


def other_account(base: str, name: str) -> httpx.Client:
    """Another person's logged-in client, outside the browser."""
    client = httpx.Client(base_url=base, timeout=30)
    signup(client, name)
    return same_origin(client)


# --- sign up, log out, log in ----------------------------------------------------------------
def test_sign_up_log_out_and_log_in_from_the_account_bar(base, watcher):
    page = watcher.page()
    open_lobby(page, base)
    assert page.locator("#login-open").text_content() == "Log in"
    assert page.locator("#signup-open").text_content() == "Sign up"

    # a name outside the rules is explained before the server is asked
    page.click("#signup-open")
    dialog = page.locator("#signup-dialog")
    assert dialog.get_attribute("aria-labelledby") == "signup-dialog-title"
    page.fill("#signup-name", "A")
    page.fill("#signup-password", PASSWORD)
    page.click("#signup-dialog button[type=submit]")
    assert "2 to 24 letters" in dialog.locator(".dialog-message").text_content()
    page.fill("#signup-name", "Ana")
    page.fill("#signup-password", "short")
    page.click("#signup-dialog button[type=submit]")
    assert "at least 8 characters" in dialog.locator(".dialog-message").text_content()
    page.keyboard.press("Escape")  # a dialog closes with the keyboard
    page.wait_for_function("() => !document.getElementById('signup-dialog')")  # once closed

    sign_up(page, "Ana")
    name = page.locator("#account-name")
    assert name.text_content() == "Ana" and name.get_attribute("href") == "/players/Ana"
    assert account_of(page, base)["name"] == "Ana"
    cookie = next(c for c in page.context.cookies() if c["name"] == "tlatelolco_session")
    assert cookie["httpOnly"] and cookie["sameSite"] == "Lax"
    assert "tlatelolco_session" not in page.evaluate("document.cookie")  # no script reads it
    assert "Ana" not in page.evaluate("JSON.stringify(localStorage)")  # nothing kept here
    page.reload()  # the session outlives the page
    page.wait_for_selector("#account-name")

    page.click("#logout")
    page.wait_for_selector("#login-open")
    assert account_of(page, base) is None

    # a wrong password: the dialog says so in words and stays open for another try
    log_in(page, "Ana", "not the password")
    message = page.locator("#login-dialog .dialog-message")
    message.wait_for()
    assert message.text_content() == "Wrong name or password."
    assert message.get_attribute("role") == "alert"
    log_in_again = page.locator("#login-dialog")
    assert log_in_again.is_visible()
    page.fill("#login-password", PASSWORD)
    page.click("#login-dialog button[type=submit]")
    page.wait_for_selector("#account-name")
    assert page.locator("#login-dialog").count() == 0

    # the same name twice is refused in words
    second = watcher.page()
    second.context.clear_cookies()
    open_lobby(second, base)
    second.click("#signup-open")
    second.fill("#signup-name", "ana")
    second.fill("#signup-password", PASSWORD)
    second.click("#signup-dialog button[type=submit]")
    refused = second.locator("#signup-dialog .dialog-message")
    refused.wait_for()
    assert refused.text_content() == "That name is taken: choose another one."


def test_the_dialogs_work_from_the_keyboard(base, watcher):
    page = watcher.page()
    open_lobby(page, base)
    page.focus("#login-open")
    page.keyboard.press("Enter")
    page.wait_for_selector("#login-dialog[open]")
    assert page.evaluate("document.activeElement.id") == "login-name"  # focus in the form
    page.keyboard.type("Nobody")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "login-password"
    page.keyboard.type("whatever it is")
    page.keyboard.press("Enter")  # submits
    message = page.locator("#login-dialog .dialog-message")
    message.wait_for()
    assert message.text_content() == "Wrong name or password."  # an unknown name: the same
    # every field of every dialog has a label
    page.keyboard.press("Escape")
    page.click("#signup-open")
    unlabelled = page.evaluate(
        "() => [...document.querySelectorAll('dialog input, dialog select')]"
        ".filter((i) => !i.labels || i.labels.length === 0).map((i) => i.id)")
    assert unlabelled == []


# --- guest seats follow the person -----------------------------------------------------------
def test_a_guest_seat_of_this_browser_becomes_the_accounts_at_login(base, watcher):
    page = watcher.page()
    open_lobby(page, base)
    status, game = call(base, "POST", "/api/games", {
        "game": "grand_bazaar", "options": {"num_players": 2}, "seats": ["taken", "open"]})
    assert status == 201
    token = game["seats"][0]["token"]
    page.evaluate("([key, id, token]) => localStorage.setItem(key, JSON.stringify("
                  "{[id]: {token, seat: 0, game: 'grand_bazaar', at: Date.now()}}))",
                  [SEATS_KEY, game["id"], token])
    page.reload()
    sign_up(page, "Bea")
    wait_for(lambda: account_games(page, base)["games"], timeout=15, what="the seat attached")
    games = account_games(page, base)["games"]
    assert [(g["id"], g["my_seat"]) for g in games] == [(game["id"], 0)]
    assert call(base, "GET", f"/api/games/{game['id']}")[1]["seats"][0]["name"] == "Bea"
    # offered once: the browser notes it, and keeps the credential (it still works)
    assert stored(page)[game["id"]]["attached"] == {token: account_of(page, base)["id"]}
    assert page.evaluate("window.TlatelolcoSeats.unattached(window.TlatelolcoAccount.user.id)"
                         ) == []
    page.locator(f'#account-games tr[data-game="{game["id"]}"]').wait_for()
    # on another device, the same account finds the seat without any credential
    other = watcher.page()
    other.context.clear_cookies()  # (same context: the cookie jar is shared; log in again)
    open_lobby(other, base)
    log_in(other, "Bea")
    other.wait_for_selector(f'#account-games tr[data-game="{game["id"]}"]')


# --- your turn ---------------------------------------------------------------------------------
def test_your_turn_shows_in_a_badge_in_the_title_and_first_in_your_games(base, watcher):
    page = watcher.page()
    open_lobby(page, base)
    sign_up(page, "Cy")
    assert page.locator("#your-turn").is_hidden()
    assert not page.title().startswith("(")
    waiting = create_with_session(page, base, ["taken", "open"])  # not started: nobody's turn
    against = create_with_session(page, base, ["taken", "bot:random"])
    wait_for(lambda: account_games(page, base)["your_turn"] == 1, timeout=60,
             what="the bot to hand the turn over")

    page.reload()  # a new page looks at once
    badge = page.locator("#your-turn")
    badge.wait_for()
    assert badge.text_content() == "Your turn in 1 game"
    assert badge.get_attribute("href") == "/#mine"
    page.wait_for_function("() => document.title === '(1) Tlatelolco — lobby'")
    rows = page.locator("#account-games tr[data-game]")
    rows.first.wait_for()
    assert [rows.nth(i).get_attribute("data-game") for i in range(rows.count())] == [
        against["id"], waiting["id"]]
    assert "your-turn" in rows.first.get_attribute("class")
    assert rows.first.locator(".badge.your-turn").text_content() == "Your turn"
    assert rows.nth(1).locator(".badge.your-turn").count() == 0

    # another game comes to the account's turn: the page looks again when it is shown again
    third = create_with_session(page, base, ["bot:random", "taken"])
    wait_for(lambda: account_games(page, base)["your_turn"] == 2, timeout=60,
             what="the second bot to hand the turn over")
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    page.wait_for_function("() => document.getElementById('your-turn').textContent"
                           " === 'Your turn in 2 games'")
    page.wait_for_function("() => document.title.startsWith('(2) ')")
    ids = [rows.nth(i).get_attribute("data-game") for i in range(rows.count())]
    assert set(ids[:2]) == {against["id"], third["id"]} and ids[2] == waiting["id"]

    # the game page: the same bar, and the count before the title the game sets at every move
    page.click(f'#account-games tr[data-game="{against["id"]}"] a.button')
    page.wait_for_function("() => window.TlatelolcoPage && window.TlatelolcoPage.view"
                           " && window.TlatelolcoPage.view.legal.length > 0")
    page.wait_for_function("() => document.title.startsWith('(2) ')"
                           " && document.title.includes('Grand Bazaar')")
    assert page.locator("#account-name").text_content() == "Cy"
    page.evaluate("document.title = 'Set by the page'")  # as the game page does at a move
    page.wait_for_function("() => document.title === '(2) Set by the page'")


# --- settings ----------------------------------------------------------------------------------
def test_settings_are_saved_and_the_language_followed(base, watcher):
    page = watcher.page()
    open_lobby(page, base)
    sign_up(page, "Dee")
    page.click("#settings-open")
    page.wait_for_selector("#settings-dialog[open]")
    page.get_by_label("E-mail", exact=True).fill("dee@example.org")
    page.check("#settings-notify-email")
    page.click("#settings-dialog form:not(.password-form) button[type=submit]")
    saved = page.locator("#settings-dialog .dialog-message").first
    saved.wait_for()
    assert saved.text_content() == "Saved."
    user = account_of(page, base)
    assert (user["email"], user["notify_email"]) == ("dee@example.org", True)
    # a server without a mail server cannot verify the address, and says so
    assert page.locator("#settings-email-status").text_content() == (
        "This server sends no mail, so the address cannot be verified.")
    assert page.locator("#settings-verify-again").is_hidden()

    # mail reminders without an address: said before anything is sent
    page.get_by_label("E-mail", exact=True).fill("")
    page.click("#settings-dialog form:not(.password-form) button[type=submit]")
    assert saved.text_content() == "Write an e-mail address to be reminded by e-mail."
    assert account_of(page, base)["email"] == "dee@example.org"

    # the password: a wrong current one is said in words, a right one changes it
    page.fill("#password-old", "not it at all")
    page.fill("#password-new", "another long one")
    page.click(".password-form button[type=submit]")
    said = page.locator(".password-form .dialog-message")
    said.wait_for()
    page.wait_for_function("() => document.querySelector('.password-form .dialog-message')"
                           ".textContent === 'The current password is not right.'")
    page.fill("#password-old", PASSWORD)
    page.fill("#password-new", "another long one")
    page.click(".password-form button[type=submit]")
    page.wait_for_function("() => document.querySelector('.password-form .dialog-message')"
                           ".textContent === 'The password is changed.'")

    # the language: the account's (for its mails) and the pages'
    page.select_option("#settings-lang", "es")
    page.fill("#settings-email", "dee@example.org")
    page.click("#settings-dialog form:not(.password-form) button[type=submit]")
    page.wait_for_function("() => document.documentElement.lang === 'es'"
                           " && document.getElementById('settings-open')"
                           " && document.getElementById('settings-open').textContent"
                           " === 'Ajustes'")
    assert account_of(page, base)["lang"] == "es"
    assert page.locator("#logout").text_content() == "Salir"


def test_an_address_is_verified_through_the_link_mailed_to_it(tmp_path, watcher):
    public = "https://games.example.org"
    with mail_server() as inbox, live_server(
            tmp_path, smtp=f"smtp://127.0.0.1:{inbox.port}", public_url=public) as base:
        page = watcher.page()
        open_lobby(page, base)
        sign_up(page, "Gil", email="gil@example.org")
        wait_for(lambda: inbox.to("gil@example.org"), what="the first link")
        page.click("#settings-open")
        status = page.locator("#settings-email-status")
        status.wait_for()
        assert status.text_content() == "Not verified yet: we sent you a link"
        page.click("#settings-verify-again")
        page.wait_for_function("() => document.getElementById('settings-email-status')"
                               ".textContent === 'Not verified yet: we sent you the link again'")
        assert len(inbox.to("gil@example.org")) == 2
        # a typed address that is not saved yet: nothing said of it
        page.fill("#settings-email", "gil@example.net")
        assert status.is_hidden()
        # a link that does not work: the lobby says so, and nothing changes
        page.goto(base + "/api/account/verify?token=" + "A" * 64)
        note = page.locator("#verified-note")
        note.wait_for()
        assert note.text_content().startswith("That link did not work")
        page.wait_for_function("() => location.search === ''")
        assert account_of(page, base)["email_verified"] is False
        # the mail's link
        follow_verification(page, base, inbox, "gil@example.org", public)
        assert account_of(page, base)["email_verified"] is True
        page.wait_for_selector("#settings-open")
        page.click("#settings-open")
        status.wait_for()
        assert status.text_content() == "Verified"
        assert page.locator("#settings-verify-again").is_hidden()


def test_notifications_refused_by_the_browser_are_said_and_the_rest_is_saved(base, browser):
    context = browser.new_context(viewport={"width": 1360, "height": 940})
    problems: list[str] = []
    page = context.new_page()
    page.on("pageerror", lambda err: problems.append(str(err)))
    try:
        open_lobby(page, base)
        sign_up(page, "Eve")
        page.click("#settings-open")
        box = page.locator("#settings-notify-push")
        box.wait_for()
        if box.is_disabled():  # a browser without the Push API: said so, nothing to tick
            assert "cannot receive" in page.locator("#settings-notify-push-help").text_content()
            return
        page.fill("#settings-email", "eve@example.org")
        box.check()  # a headless browser's owner never allows notifications
        page.click("#settings-dialog form:not(.password-form) button[type=submit]")
        page.wait_for_function("() => /blocked|could not/.test(document.querySelector("
                               "'#settings-dialog .dialog-message').textContent)")
        assert not box.is_checked()
        user = account_of(page, base)
        assert (user["email"], user["notify_push"]) == ("eve@example.org", False)
    finally:
        context.close()
    assert problems == []


# --- friends and invites by name -----------------------------------------------------------------
def test_friends_their_open_tables_and_a_seat_filled_by_name(base, watcher):
    fay = other_account(base, "Fay")
    page = watcher.page()
    open_lobby(page, base)
    sign_up(page, "Gus")
    page.wait_for_selector("#friends:not([hidden])")

    page.fill("#friend-name", "Nobody Here")
    page.click("#add-friend-button")
    page.wait_for_function("() => document.getElementById('error').textContent"
                           " === 'There is no player named Nobody Here.'")
    page.fill("#friend-name", "Fay")
    page.click("#add-friend-button")
    friend = page.locator("#friend-list a", has_text="Fay")
    friend.wait_for()
    assert friend.get_attribute("href") == "/players/Fay"

    # Fay's open table shows among the friends' tables, with a button to join it
    response = fay.post("/api/games", json={"game": "mexica", "options": {"num_players": 2},
                                            "seats": ["taken", "open"]})
    assert response.status_code == 201, response.text
    fays = response.json()["id"]
    page.reload()
    page.wait_for_selector(f'#friend-tables tr[data-game="{fays}"] button[data-join]')

    # Gus invites Fay to his open table: refused until she has added him, then seated
    mine = create_with_session(page, base, ["taken", "open"])
    page.reload()
    invite = page.locator(f'#account-games tr[data-game="{mine["id"]}"] button',
                          has_text="Invite a friend")
    invite.click()
    page.wait_for_selector("#invite-dialog[open]")
    page.get_by_label("Player's name").fill("Fay")
    page.click("#invite-dialog button[type=submit]")
    note = page.locator("#invite-dialog .dialog-message")
    page.wait_for_function("() => document.querySelector('#invite-dialog .dialog-message')"
                           ".textContent.startsWith('Fay has not added you as a friend')")
    assert fay.post("/api/friends", json={"name": "Gus"}).status_code == 201
    page.click("#invite-dialog button[type=submit]")
    page.wait_for_function("() => document.querySelector('#invite-dialog .dialog-message')"
                           ".textContent === 'Fay now holds seat 2.'")
    assert "good" in note.get_attribute("class")
    seat = call(base, "GET", f"/api/games/{mine['id']}")[1]["seats"][1]
    assert (seat["kind"], seat["name"]) == ("human", "Fay")
    page.keyboard.press("Escape")

    page.click('#friend-list button[aria-label="Remove Fay from your friends"]')
    page.wait_for_function("() => !document.querySelector('#friend-list a')")
    fay.close()


# --- filters and the create form -----------------------------------------------------------------
def test_the_filters_choose_the_lists_and_stay_in_the_address(base, watcher):
    made = {}
    for game, n in (("grand_bazaar", 2), ("mexica", 3), ("mexica", 2)):
        status, found = call(base, "POST", "/api/games", {
            "game": game, "options": {"num_players": n}, "seats": ["taken"] + ["open"] * (n - 1)})
        assert status == 201
        made[(game, n)] = found["id"]
    status, slow = call(base, "POST", "/api/games", {
        "game": "mexica", "options": {"num_players": 2}, "seats": ["taken", "open"],
        "speed": "turn", "move_time": 86400, "on_timeout": "bot"})
    assert status == 201, slow

    def shown() -> set[str]:
        return set(page.eval_on_selector_all("#open-games tr[data-game]",
                                             "(rows) => rows.map((r) => r.dataset.game)"))

    page = watcher.page()
    open_lobby(page, base)
    page.wait_for_function("() => document.querySelectorAll('#open-games tr[data-game]')"
                           ".length === 4")
    page.select_option("#filter-game", "mexica")
    page.wait_for_url("**/?game=mexica")
    page.wait_for_function("() => document.querySelectorAll('#open-games tr[data-game]')"
                           ".length === 3")
    page.select_option("#filter-players", "2")
    page.wait_for_url("**/?game=mexica&players=2")
    page.wait_for_function("() => document.querySelectorAll('#open-games tr[data-game]')"
                           ".length === 2")
    assert shown() == {made[("mexica", 2)], slow["id"]}
    page.select_option("#filter-speed", "turn")
    page.wait_for_function("() => document.querySelectorAll('#open-games tr[data-game]')"
                           ".length === 1")
    assert shown() == {slow["id"]}
    assert "turn-based, 1 day a move" in page.locator("#open-games td.details").inner_text()

    # the address brings the filters back (a shared link, a reload)
    page.reload()
    page.wait_for_function("() => document.querySelectorAll('#open-games tr[data-game]')"
                           ".length === 1")
    assert [page.input_value(f"#filter-{n}") for n in ("game", "players", "speed")] == [
        "mexica", "2", "turn"]
    # a filter the lobby does not offer is dropped from the address, the others kept
    open_lobby(page, base, "?players=99&speed=live&game=chess")
    page.wait_for_url("**/?speed=live")
    page.wait_for_function("() => document.querySelectorAll('#open-games tr[data-game]')"
                           ".length === 3")
    page.select_option("#filter-game", "grand_bazaar")
    page.wait_for_function("() => document.querySelectorAll('#open-games tr[data-game]')"
                           ".length === 1")
    page.select_option("#filter-game", "mexica")
    page.select_option("#filter-players", "4")
    page.wait_for_function("() => /No game fits these filters/.test("
                           "document.getElementById('open-games').textContent)")


def test_a_turn_based_game_is_created_with_its_time_and_timeout(base, watcher):
    page = watcher.page()
    open_lobby(page, base)
    assert page.locator("#turn-options").is_hidden()
    page.select_option("#game", "grand_bazaar")
    page.select_option("#players", "2")
    page.select_option('select[data-seat="1"]', "open")
    page.select_option("#speed", "turn")
    assert page.locator("#turn-options").is_visible()
    assert [o.strip() for o in page.locator("#move-time option").all_text_contents()] == [
        "5 minutes", "1 hour", "12 hours", "1 day", "3 days"]
    page.get_by_label("Time per move").select_option("3600")
    page.get_by_label("On timeout").select_option("drop")
    assert "after the third" in page.locator("#on-timeout-about").text_content()
    page.click("#create-button")
    page.wait_for_url(f"{base}/games/*")
    game_id = page.url.rsplit("/", 1)[1]
    clock = call(base, "GET", f"/api/games/{game_id}")[1]["clock"]
    assert (clock["speed"], clock["move_time"], clock["on_timeout"]) == ("turn", 3600, "drop")


# --- Spanish, a phone --------------------------------------------------------------------------
def test_in_spanish_on_a_phone_nothing_scrolls_sideways(base, browser):
    context = browser.new_context(viewport=PHONE, locale="es-ES", is_mobile=True,
                                  has_touch=True)
    problems: list[str] = []
    page = context.new_page()
    page.on("pageerror", lambda err: problems.append(str(err)))
    page.on("console", lambda msg: problems.append(msg.text)
            if "Content Security Policy" in msg.text else None)
    try:
        open_lobby(page, base)
        page.wait_for_function("() => document.getElementById('login-open').textContent"
                               " === 'Entrar'")
        assert page.locator("#signup-open").text_content() == "Crear cuenta"
        assert page.locator("#filters legend").text_content() == "Mostrar solo"
        assert page.locator("nav.site-links a").text_content() == "Clasificación"
        assert page.locator("nav.site-links a").get_attribute("href") == "/leaderboard"
        no_sideways_scroll(page)

        page.click("#signup-open")
        assert page.locator("#signup-dialog h2").text_content() == "Crear cuenta"
        page.get_by_label("Nombre", exact=True).fill("Hugo Sánchez")
        page.get_by_label("Contraseña", exact=True).fill(PASSWORD)
        no_sideways_scroll(page)
        page.click("#signup-dialog button[type=submit]")
        page.wait_for_selector("#account-name")
        assert page.locator("#logout").text_content() == "Salir"
        assert page.locator("#playing-as").text_content() == "Juegas como Hugo Sánchez."
        create_with_session(page, base, ["taken", "bot:random"])
        wait_for(lambda: account_games(page, base)["your_turn"] == 1, timeout=60,
                 what="the bot to hand the turn over")
        page.reload()
        badge = page.locator("#your-turn")
        badge.wait_for()
        assert badge.text_content() == "Te toca en 1 partida"
        assert page.locator("#account-games .badge.your-turn").text_content() == "Tu turno"
        no_sideways_scroll(page)

        page.click("#settings-open")
        page.wait_for_selector("#settings-dialog[open]")
        assert page.get_by_label("Avisarme por correo cuando me toque").count() == 1
        no_sideways_scroll(page)
        page.keyboard.press("Escape")

        page.select_option("#speed", "turn")
        assert page.get_by_label("Tiempo por jugada").is_visible()
        no_sideways_scroll(page)

        page.click("#account-games tr[data-game] a.button")
        page.wait_for_function("() => window.TlatelolcoPage && window.TlatelolcoPage.view")
        page.wait_for_selector("#account-name")
        page.wait_for_function("() => document.title.startsWith('(1) ')")
        no_sideways_scroll(page)
    finally:
        context.close()
    assert problems == []
