"""Issue 35, done when: two accounts play a turn-based game in real browsers over a short clock.

Ana and Beto sign up in the lobby and verify their addresses through the links mailed to them;
Beto adds Ana as a friend, which lets her seat him by name
at her turn-based Axio table (40 s a turn; a timeout loses). The server is real and so are the
far ends of its reminders: an SMTP server receives the mails and a push service of the test's
own checks each push's VAPID signature and decrypts it with the browser's keys. Each gets the
invite and the reminder of their turn by mail and by push, with the game's link, while their
page does not show the game (and not when it does); Beto follows his mail's link and plays his
turn by clicking; Ana lets her clock run out and loses on time: her page shows the result;
both ratings move (the winner's up) and the game is on both profile pages.
With TLATELOLCO_SCREENSHOTS=1 it saves Beto's lobby, game and profile pages to
docs/screenshots/play-over-days-*.png for the README.
"""

from __future__ import annotations

import email.message
import os
import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.web.apps import live_server, wait_for
from tests.web.browsers import browser
from tests.web.inboxes import Browser as PushKeys
from tests.web.inboxes import PushService, check_vapid, mail_server
from tests.web.test_browser import click_move, wait_turn
from tests.web.test_browser_accounts import follow_verification, open_lobby, sign_up

__all__ = ["browser"]  # the fixture, shared with the other browser tests

PUBLIC = "https://games.example.org"  # the address the mails link to; the test maps it here
MOVE_TIME = 40  # seconds a turn: room for a loaded machine, short enough to time out
SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
SHOOT = bool(os.environ.get("TLATELOLCO_SCREENSHOTS"))  # the README's pictures of all this


@pytest.fixture
def world(tmp_path):
    """The server with its mail server and push service; (base URL, inbox, push service)."""
    with mail_server() as inbox, PushService() as pushes, live_server(
            tmp_path, smtp=f"smtp://127.0.0.1:{inbox.port}", public_url=PUBLIC,
            push_allow_http=True, min_move_time=1, clock_check=0.5) as base:
        yield base, inbox, pushes


def post(page: Any, base: str, path: str, data: dict[str, Any]) -> dict[str, Any]:
    """A write with the page's session cookie, from the page's origin (as its fetch sends)."""
    answer = page.request.post(base + path, headers={"Origin": base}, data=data)
    assert answer.ok, f"{path}: {answer.status} {answer.text()}"
    return answer.json()  # type: ignore[no-any-return]


def person(context: Any, base: str, inbox: Any, pushes: PushService, name: str
           ) -> tuple[Any, PushKeys]:
    """A person signed up in the lobby, reminded by mail (the address verified through the
    link mailed to it, opened in this browser) and by push in this browser; the lobby page
    and the browser's push keys. Headless Chromium has no push service, so the subscription a
    browser would make is made by the test, with keys it keeps to decrypt."""
    page = context.new_page()
    open_lobby(page, base)
    sign_up(page, name, email=f"{name.lower()}@example.net")
    post(page, base, "/api/account/settings", {"notify_email": True, "notify_push": True})
    follow_verification(page, base, inbox, f"{name.lower()}@example.net", PUBLIC)
    keys = PushKeys(f"{pushes.url}/{name.lower()}")
    post(page, base, "/api/account/push", keys.subscription())
    return page, keys


def mails(inbox: Any, address: str, subject: str) -> list[email.message.EmailMessage]:
    return [m for m in inbox.to(address) if subject in m["Subject"]]


def push_of(base: str, pushes: PushService, keys: PushKeys, title: str) -> dict[str, Any]:
    """The decrypted push whose title holds `title`, its signature checked."""
    key = httpx.get(base + "/api/push/key").json()["public_key"]
    for request in pushes.at("/" + keys.endpoint.rsplit("/", 1)[1]):
        payload = keys.decrypt(request["body"])
        if title in payload["title"]:
            check_vapid(request, key, pushes.url)
            return payload
    raise AssertionError(f"no push titled {title!r}")


def test_two_accounts_play_a_turn_based_game_with_reminders_a_timeout_and_ratings(browser,
                                                                                world):
    base, inbox, pushes = world
    contexts = [browser.new_context(viewport={"width": 1360, "height": 940}) for _ in range(2)]
    problems: list[str] = []
    for context in contexts:
        context.on("page", lambda page: page.on("pageerror", lambda e: problems.append(str(e))))
    try:
        ana, ana_keys = person(contexts[0], base, inbox, pushes, "Ana")
        beto, beto_keys = person(contexts[1], base, inbox, pushes, "Beto")
        post(beto, base, "/api/friends", {"name": "Ana"})  # Beto lets Ana seat him

        made = post(ana, base, "/api/games", {
            "game": "axio", "options": {"num_players": 2}, "seats": ["taken", "open"],
            "speed": "turn", "move_time": MOVE_TIME, "on_timeout": "lose"})
        gid = made["id"]
        post(ana, base, f"/api/games/{gid}/invite", {"seat": 1, "user": "Beto"})
        link = f"{PUBLIC}/games/{gid}"

        # Beto is told he was seated, by mail and by push, with the link
        invited = wait_for(lambda: mails(inbox, "beto@example.net", "invited you"),
                           what="Beto's invite mail")
        assert link in invited[0].get_content()
        assert wait_for(lambda: push_of(base, pushes, beto_keys, "invited you"),
                        what="Beto's invite push")["url"] == link

        # the table is full: it is Ana's turn, and her lobby page does not show the game
        assert link in wait_for(lambda: mails(inbox, "ana@example.net", "Your turn"),
                                what="Ana's turn mail")[0].get_content()
        assert wait_for(lambda: push_of(base, pushes, ana_keys, "Your turn"),
                        what="Ana's turn push")["url"] == link

        # Ana plays her turn by clicking, her clock running on the page
        ana.goto(base + f"/games/{gid}")
        view = wait_turn(ana)
        assert view["clock"]["seat"] == 0 and view["clock"]["move_time"] == MOVE_TIME
        ana.wait_for_selector(".clock-left")
        click_move(ana, "axio", view["legal"][0], view["version"])
        ana.wait_for_function("() => window.TlatelolcoPage.view.to_move === 1")

        # Beto, not watching, gets "your turn" by mail and push; he follows the mail's link
        turn = wait_for(lambda: mails(inbox, "beto@example.net", "Your turn"),
                        what="Beto's turn mail")
        assert len(turn) == 1 and link in turn[0].get_content()
        pushed = wait_for(lambda: push_of(base, pushes, beto_keys, "Your turn"),
                          what="Beto's turn push")
        assert pushed["url"] == link and "Axio" in pushed["title"]
        followed = re.search(r"https://\S+", turn[0].get_content()).group(0)  # type: ignore[union-attr]
        assert followed == link
        if SHOOT:  # his lobby first: the badge, and the game marked "your turn"
            beto.goto(base + "/?lang=en#mine")
            beto.wait_for_selector("#account-games .badge.your-turn", timeout=10_000)
            beto.screenshot(path=str(SHOTS / "play-over-days-lobby.png"))
        beto.goto(followed.replace(PUBLIC, base))
        view = wait_turn(beto)
        assert view["viewer"] == 1  # his seat by his account's cookie, with no token here
        if SHOOT:
            beto.wait_for_selector(".clock-left")
            beto.screenshot(path=str(SHOTS / "play-over-days-game.png"))
        click_move(beto, "axio", view["legal"][0], view["version"])

        # Ana's turn again: she is watching, so no mail; she lets the clock run out and loses
        ana.wait_for_function("() => window.TlatelolcoPage.view.to_move === 0")
        ana.wait_for_function(
            "() => window.TlatelolcoPage.view.status === 'finished'",
            timeout=(MOVE_TIME + 30) * 1000)
        result = ana.evaluate("window.TlatelolcoPage.view.result")
        assert result["forfeit"] == 0 and result["returns"][1] > result["returns"][0]
        # her first turn was reminded (her page was not open yet), never this one
        assert len(mails(inbox, "ana@example.net", "Your turn")) == 1
        assert sum("Your turn" in ana_keys.decrypt(r["body"])["title"]
                   for r in pushes.at("/ana")) == 1

        # both ratings moved, the winner's up, and the game is on both profiles
        profiles = {name: page.request.get(f"{base}/api/players/{name}").json()
                    for name, page in (("Ana", ana), ("Beto", beto))}
        ana_axio, beto_axio = profiles["Ana"]["games"]["axio"], profiles["Beto"]["games"]["axio"]
        assert ana_axio["rating"] is not None and beto_axio["rating"] is not None
        assert beto_axio["rating"] > ana_axio["rating"]
        assert beto_axio["won"] == 1 and ana_axio["won"] == 0
        for name, page in (("Ana", ana), ("Beto", beto)):
            assert [g["id"] for g in profiles[name]["recent"]] == [gid]
            assert profiles[name]["recent"][0]["review_url"] is None  # ended on time: no review
            assert len(profiles[name]["history"]["axio"]) == 1
            page.goto(f"{base}/players/{name}")
            page.wait_for_selector(f'a[href*="/games/{gid}/replay"]')
            page.wait_for_selector("svg")  # the rating chart
            if SHOOT and name == "Beto":
                page.screenshot(path=str(SHOTS / "play-over-days-profile.png"), full_page=True)
    finally:
        for context in contexts:
            context.close()
    assert problems == [], problems
