"""The game pages in a real browser (Debian's Chromium driven by Playwright).

For each game: create it in the lobby against a bot, open your seat, play it to the end by
clicking the board's pieces and squares (buttons only for moves with no place on the board),
one move with the keyboard, a page reload mid-game and a dropped connection that comes back;
then step through the replay. The pages run under the server's Content-Security-Policy: any
violation it reports on the console fails the test. Seats, invites and the credentials the
browser keeps: tests/web/test_browser_seats.py.
With TLATELOLCO_SCREENSHOTS=1 the mid-game board is saved to docs/screenshots/ for the README.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from tests.web.apps import live_server
from tests.web.browsers import browser

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
GAMES = [("grand_bazaar", 2), ("aztec_market", 2), ("axio", 2), ("mexica", 2)]
__all__ = ["browser"]  # the shared fixture, used here
SHOT_AT = {"grand_bazaar": 12, "aztec_market": 12, "axio": 6, "mexica": 12}  # a full board


def csp_violations(page) -> list[str]:
    """The console messages of `page` about the Content-Security-Policy (kept as they come)."""
    found: list[str] = []
    page.on("console", lambda msg: found.append(msg.text)
            if "Content Security Policy" in msg.text else None)
    return found


def page_view(page):
    return page.evaluate("window.TlatelolcoPage && window.TlatelolcoPage.view")


def wait_turn(page, timeout=60_000):
    """Until it is this seat's turn (legal moves shown) or the game is over."""
    page.wait_for_function(
        "() => { const v = window.TlatelolcoPage && window.TlatelolcoPage.view;"
        " return v && (v.status === 'finished' || (v.legal.length > 0 &&"
        " !document.querySelector('#picker .note')?.textContent.startsWith('Sending'))); }",
        timeout=timeout)
    return page_view(page)


def wait_moved(page, version, move):
    try:
        page.wait_for_function(
            f"() => {{ const v = window.TlatelolcoPage.view; return v && v.version > {version}; }}",
            timeout=30_000)
    except Exception as err:  # say what the page was doing
        state = page.evaluate("({version: TlatelolcoPage.view.version, sending:"
                              " TlatelolcoPage.sending, socket: TlatelolcoPage.socket.readyState,"
                              " connection: document.getElementById('connection').textContent,"
                              " picker: document.getElementById('picker').innerText.slice(0, 300),"
                              " error: document.getElementById('error').textContent})")
        raise AssertionError(f"{move['text']!r} was not played: {state}") from err


PLAY_AREA = ("#board-content", "#dock-game", "#extras")  # where a renderer's pieces are


def pickable(page, key):
    """The clickable piece `key` wherever the renderer put it (board, dock or extras)."""
    return page.locator(", ".join(f'{area} .pick[data-key="{key}"]' for area in PLAY_AREA))


def click_move(page, game, move, version, keyboard=False):
    """Pick `move` as a person would: its pieces on the board in order, else its button."""
    keys = page.evaluate("([g, m]) => window.Tlatelolco.renderers[g].keys(m.move,"
                         " window.TlatelolcoPage.view)", [game, move])
    for key in keys:
        target = pickable(page, key)
        if target.count():
            assert target.first.get_attribute("aria-label"), f"{key} has no aria-label"
            if keyboard:
                target.first.focus()
                page.keyboard.press("Enter")
            else:
                target.first.click()
        else:
            break
    else:
        if page.evaluate(f"window.TlatelolcoPage.sending || "
                         f"window.TlatelolcoPage.view.version > {version}"):
            return  # the last key sent the move
    # the move is complete on the board, or its next step has no place on it: its button in
    # the dock, else in the list of every legal move below the board
    button = page.locator("#picker .moves").get_by_role("button", name=move["text"], exact=True)
    if not button.count():
        page.locator("#all-moves summary").click()
        page.fill("#all-moves input[type=search]", move["text"])
        button = page.locator("#all-moves .moves").get_by_role(
            "button", name=move["text"], exact=True)
    button.first.click()


def choose(rng, legal):
    """A random move; half the time the end of the turn when there is one, so that Mexica's
    long turns (up to six action points of bridge moves) do not make the game last ~1,000
    clicks."""
    ends = [m for m in legal if m["move"].get("kind") == "end"]
    if ends and rng.random() < 0.5:
        return ends[0]
    return rng.choice(legal)


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_play_a_game_against_a_bot_by_clicking(browser, tmp_path, game, players):
    rng = random.Random(game)
    with live_server(tmp_path) as base:
        page = browser.new_page(viewport={"width": 1360, "height": 940})
        errors: list[str] = []
        page.on("pageerror", lambda err: errors.append(str(err)))
        violations = csp_violations(page)
        page.goto(base + "/")
        page.select_option("#game", game)
        page.select_option("#players", str(players))
        page.fill("#name", "Ana")
        page.click("#create-button")  # the creator's seat is taken: straight to the game
        wait_turn(page)
        assert "#" not in page.url and "token" not in page.url  # the credential stays stored
        moves = 0
        clicks_on_board = 0
        while True:
            current = wait_turn(page)
            if current["status"] == "finished":
                break
            assert page.locator("#turn").text_content() == "Your turn"
            unlabelled = page.evaluate(
                "document.querySelectorAll('#board .pick:not([aria-label]),"
                " #dock-game .pick:not([aria-label])').length")
            assert unlabelled == 0
            move = choose(rng, current["legal"])
            before = current["version"]
            board_targets = page.locator("#board .pick, #dock-game .pick").count()
            click_move(page, game, move, before, keyboard=moves == 1)
            clicks_on_board += board_targets > 0
            wait_moved(page, before, move)
            moved = page.evaluate("window.TlatelolcoPage.log")[before]
            assert moved["text"] == move["text"], "the click made a different move"
            if moves == 1:  # after a move made with the keyboard, the focus stays on the board
                wait_turn(page)
                assert page.evaluate("!!document.activeElement.closest('#board, #dock-game')"), \
                    page.evaluate("document.activeElement.outerHTML.slice(0, 120)")
            moves += 1
            if moves == SHOT_AT[game] and os.environ.get("TLATELOLCO_SCREENSHOTS"):
                SHOTS.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(SHOTS / f"{game}.png"), full_page=True)
            if moves == 12:
                page.reload()  # the page comes back where it was
                again = wait_turn(page)
                assert again["version"] >= before
                assert len(page.evaluate("window.TlatelolcoPage.log")) == again["version"]
            if moves == 20:  # the connection drops: the page reconnects by itself
                page.evaluate("window.droppedSocket = window.TlatelolcoPage.socket;"
                              " window.droppedSocket.close()")
                page.wait_for_function("() => window.TlatelolcoPage.socket !== window.droppedSocket"
                                       " && window.TlatelolcoPage.socket.readyState === 1"
                                       " && document.getElementById('connection').textContent"
                                       " === 'live'", timeout=15_000)
        assert page.locator("#result").is_visible()
        assert page.locator("#result").text_content().strip() != "Result"
        assert moves > 0 and clicks_on_board > 0
        final = page_view(page)
        # the replay: step back from the end, jump to the start, forward again
        page.click("#links a:has-text('Replay move by move')")
        page.wait_for_function(f"() => window.TlatelolcoPage?.view?.version === {final['version']}")
        page.click("#replay button:has-text('Back')")
        page.wait_for_function(
            f"() => window.TlatelolcoPage.view.version === {final['version'] - 1}")
        assert page.locator("#turn").text_content().startswith(
            f"Step {final['version'] - 1} of {final['version']}")
        page.click("#replay button:has-text('Start')")
        page.wait_for_function("() => window.TlatelolcoPage.view.version === 0")
        page.keyboard.press("ArrowRight")
        page.wait_for_function("() => window.TlatelolcoPage.view.version === 1")
        assert errors == [], errors
        assert violations == [], violations
        page.close()


def test_ask_for_a_hint_and_play_it(browser, tmp_path):
    """Against a bot the page offers a hint: the search's best moves, each with a button that
    plays it. Against people it offers none."""
    with live_server(tmp_path) as base:
        page = browser.new_page(viewport={"width": 1360, "height": 940})
        errors: list[str] = []
        page.on("pageerror", lambda err: errors.append(str(err)))
        page.goto(base + "/")
        page.select_option("#game", "grand_bazaar")
        page.select_option("#players", "2")
        page.click("#create-button")  # the creator's seat is taken: straight to the game
        current = wait_turn(page)
        page.click("#hint button:has-text('Hint')")
        page.wait_for_selector("#hint .hint-moves li", timeout=30_000)
        said = page.locator("#hint").text_content()
        assert "games in 10" in said or "All about equal" in said or "only one move" in said
        first = page.locator("#hint .hint-moves li").first
        text = first.locator(".text").get_attribute("title")  # the notation; shown in words
        assert text in [m["text"] for m in current["legal"]]
        assert first.locator(".text").text_content().strip()
        first.get_by_role("button", name="Play").click()
        wait_moved(page, current["version"], {"text": text})
        assert page.evaluate("window.TlatelolcoPage.log")[current["version"]]["text"] == text
        again = wait_turn(page)  # a new position: the old hint is gone, the button is back
        if again["status"] != "finished":
            assert page.locator("#hint .hint-moves").count() == 0
            assert page.locator("#hint button:has-text('Hint')").is_visible()
        # a game against a person: no hint button (an API client's link: the credential in
        # the fragment, which the page stores and takes out of the address)
        response = page.request.post(base + "/api/games", data={
            "game": "grand_bazaar", "options": {"num_players": 2}, "seats": ["taken", "taken"]})
        seat = response.json()["seats"][0]
        page.goto(seat["url"] + "#token=" + seat["token"])
        assert wait_turn(page)["status"] == "running"
        assert page.locator("#turn").text_content() == "Your turn"
        assert page.locator("#hint").is_hidden()
        assert errors == [], errors
        page.close()


STUB_ALERTS = """
window.__asked = 0; window.__notified = []; window.__hidden = false; window.__beeps = 0;
Object.defineProperty(document, 'hidden', {get: () => window.__hidden});
class FakeNotification {
  constructor(title, options) { window.__notified.push(title); }
  close() {}
}
FakeNotification.permission = 'default';
FakeNotification.requestPermission = () => {
  window.__asked++; FakeNotification.permission = 'granted'; return Promise.resolve('granted');
};
window.Notification = FakeNotification;
window.AudioContext = class {
  constructor() { this.currentTime = 0; this.destination = {}; }
  createOscillator() {
    return {frequency: {value: 0}, connect: (g) => g, start() { window.__beeps++; }, stop() {}};
  }
  createGain() {
    return {gain: {setValueAtTime() {}, exponentialRampToValueAtTime() {}}, connect: (d) => d};
  }
};
"""


def test_your_turn_alerts_a_hidden_tab_and_asks_only_after_a_click(browser, tmp_path):
    """The notification permission is asked once, after the player's own click (never on
    page load); a hidden tab gets a notification when the turn comes back; the sound is off
    until switched on, and stays on."""
    with live_server(tmp_path, bot_delay=0.3) as base:
        context = browser.new_context(viewport={"width": 1200, "height": 900})
        context.add_init_script(STUB_ALERTS)
        page = context.new_page()
        response = page.request.post(base + "/api/games", data={
            "game": "grand_bazaar", "options": {"num_players": 2},
            "seats": ["taken", "bot:greedy"]})
        seat = response.json()["seats"][0]
        page.goto(seat["url"] + "#token=" + seat["token"])
        current = wait_turn(page)
        assert page.evaluate("window.__asked") == 0  # not on page load
        assert page.locator("#sound").text_content() == "Sound: off"
        page.click("#sound")
        assert page.locator("#sound").text_content() == "Sound: on"
        assert page.evaluate("localStorage.getItem('tlatelolco:sound')") == "on"
        assert page.evaluate("window.__beeps") == 1  # switching it on plays it once
        buy = next(m for m in current["legal"] if m["text"].startswith("buy"))
        click_move(page, "grand_bazaar", buy, current["version"])
        wait_moved(page, current["version"], buy)
        assert page.evaluate("window.__asked") == 1  # after the click
        page.evaluate("window.__hidden = true")
        now = page_view(page)
        end = next(m for m in now["legal"] if m["text"] == "end turn")
        click_move(page, "grand_bazaar", end, now["version"])
        page.wait_for_function("() => window.__notified.length > 0", timeout=30_000)
        assert page.evaluate("window.__notified")[0] == "Your turn in Grand Bazaar"
        assert page.evaluate("window.__asked") == 1  # asked once only
        assert page.evaluate("window.__beeps") == 2  # and again when the turn came back
        page.reload()
        wait_turn(page)
        assert page.locator("#sound").text_content() == "Sound: on"
        context.close()


def test_the_log_in_words_marks_your_last_turn_and_shows_moves_on_the_board(browser, tmp_path):
    """The log tells moves in words with their notation; a line marks what happened since your
    last move; a click on an entry marks its move on the board; in the replay the current step
    is highlighted, a click on an entry goes to its step, the buttons are SVG icons with words;
    a game watched without a seat gets the lobby's Spectating badge."""
    with live_server(tmp_path) as base:
        page = browser.new_page(viewport={"width": 1360, "height": 940})
        errors: list[str] = []
        page.on("pageerror", lambda err: errors.append(str(err)))
        game = page.request.post(base + "/api/games", data={
            "game": "grand_bazaar", "options": {"num_players": 2},
            "seats": ["taken", "bot:greedy"]}).json()
        seat = game["seats"][0]
        page.goto(seat["url"] + "#token=" + seat["token"])
        for _ in range(2):  # two turns of ours: buy, end; the bot answers in between
            current = wait_turn(page)
            buy = next(m for m in current["legal"] if m["text"].startswith("buy"))
            click_move(page, "grand_bazaar", buy, current["version"])
            wait_moved(page, current["version"], buy)
            now = wait_turn(page)
            end = next(m for m in now["legal"] if m["text"] == "end turn")
            click_move(page, "grand_bazaar", end, now["version"])
            wait_moved(page, now["version"], end)
        wait_turn(page)
        words = page.locator("#log li .words").all_text_contents()
        assert any(w.startswith("Player bought a") and "grands" in w for w in words), words
        assert page.locator("#log li .notation").first.text_content()
        marker = page.locator("#log li.since-mine")
        assert marker.count() == 1 and marker.text_content() == "Since your last turn"
        after = page.evaluate("[...document.querySelectorAll('#log li')]"
                              ".map((li) => li.className)")
        mine = max(i for i, c in enumerate(after) if c == "seat-0")
        assert after[mine + 1] == "since-mine"  # right after our own last move
        # a click on our purchase marks its stack on the board
        bought = page.locator("#log li.seat-0", has_text="bought").last
        bought.click()
        page.wait_for_selector("#board .highlight")
        assert page.locator("#log li.current").count() == 1
        # the replay: the current step is highlighted; a click on an entry goes to its step
        page.click("#links a:has-text('Replay move by move')")
        page.wait_for_function("() => window.TlatelolcoPage?.view?.type === 'replay'")
        assert page.locator("#replay button.icon svg").count() == 4
        assert page.locator("#replay button.icon .label").all_text_contents() == [
            "Start", "Back", "Forward", "End"]
        page.locator("#log li[data-step='2']").click()
        page.wait_for_function("() => window.TlatelolcoPage.view.version === 3")
        assert page.locator("#log li.current").get_attribute("data-step") == "2"
        page.click("#replay button:has-text('Start')")
        page.wait_for_function("() => window.TlatelolcoPage.view.version === 0")
        assert page.locator("#turn").text_content().startswith("Step 0 of ")
        assert "before the first move" in page.locator("#turn").text_content()
        # a spectator: the lobby lists the game as watched
        other = browser.new_page()
        other.goto(f"{base}/games/{game['id']}")
        other.wait_for_function("() => window.TlatelolcoPage?.view")
        other.goto(base + "/")
        other.wait_for_selector("text=Spectating")
        assert errors == [], errors
        other.close()
        page.close()


def test_the_board_zooms_and_the_zoom_is_kept_per_game(browser, tmp_path):
    with live_server(tmp_path) as base:
        page = browser.new_page(viewport={"width": 390, "height": 844})
        games = {}
        for name in ("grand_bazaar", "aztec_market"):
            games[name] = page.request.post(base + "/api/games", data={
                "game": name, "options": {"num_players": 2},
                "seats": ["taken", "bot:greedy"]}).json()["seats"][0]
        seat = games["grand_bazaar"]
        page.goto(seat["url"] + "#token=" + seat["token"])
        wait_turn(page)
        width = page.evaluate("document.querySelector('#board svg').getBoundingClientRect().width")
        page.click("#zoom-in")
        page.click("#zoom-in")
        assert page.locator("#zoom-level").text_content() == "200%"
        wider = page.evaluate("document.querySelector('#board svg').getBoundingClientRect().width")
        assert wider > 1.5 * width
        page.reload()
        wait_turn(page)
        assert page.locator("#zoom-level").text_content() == "200%"  # kept for this game
        other = games["aztec_market"]
        page.goto(other["url"] + "#token=" + other["token"])
        wait_turn(page)
        assert page.locator("#zoom-level").text_content() == "100%"  # another game: its own
        assert page.evaluate("window.TlatelolcoPage.zoom") == "fit"  # (the whole board fits)
        page.click("#zoom-out")
        assert page.locator("#zoom-level").text_content() == "75%"
        page.close()
