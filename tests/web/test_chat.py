"""Chat per game: live to every seat and spectator, checked, rate-limited, stored for replays.
Its two channels and mutes: test_chat_channels.py."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import func, select
from tests.web.apps import live_server, serve, socket
from tests.web.browsers import browser
from tests.web.services import Client
from tests.web.services import hello as hello_text
from websockets.sync.client import connect

from tlatelolco.web.http.errors import ApiError
from tlatelolco.web.realtime import chat

__all__ = ["browser"]  # the fixture, shared with test_browser.py
STATIC = Path(chat.__file__).parents[1] / "static"


@pytest.fixture
def client(tmp_path):
    with serve(tmp_path) as client:
        yield client


def said(ws) -> dict:
    """The next message that is not a view (views also follow presence changes)."""
    while True:
        message = ws.receive_json()
        if message["type"] != "view":
            return message


def heard(ws, text: str) -> dict:
    """The chat entry saying `text`, once it comes (an error first fails)."""
    while True:
        message = said(ws)
        assert message["type"] == "chat", message
        found = [m for m in message["messages"] if m["text"] == text]
        if found:
            return found[0]


def two_seats(client) -> tuple[str, list[str]]:
    """A two-seat game whose both seats are held here (seat 0 is called Ana)."""
    response = client.post("/api/games", json={"game": "grand_bazaar", "name": "Ana",
                                               "options": {"num_players": 2},
                                               "seats": ["taken", "taken"]})
    assert response.status_code == 201, response.text
    game = response.json()
    return game["id"], [s["token"] for s in game["seats"]]


def test_a_message_reaches_the_other_seat_and_a_spectator_as_typed(client):
    gid, tokens = two_seats(client)
    with socket(client, gid, tokens[0]) as ws0, socket(client, gid, tokens[1]) as ws1, \
            socket(client, gid) as watcher:
        first = ws0.receive_json()
        version = first["version"]
        ws1.receive_json()
        watcher.receive_json()
        html = "  <img src=x onerror=alert(1)> & <b>hola</b>  "
        ws0.send_json({"type": "chat", "text": html, "name": "Ignored"})
        got = [said(ws) for ws in (ws0, ws1, watcher)]
        assert all(m["type"] == "chat" and len(m["messages"]) == 1 for m in got), got
        entry = got[0]["messages"][0]
        assert all(m["messages"][0] == entry for m in got)
        assert entry["text"] == html.strip()  # stored and sent as typed: the page escapes
        assert entry["seat"] == 0 and entry["name"] == first["players"][0]["name"] == "Ana"
        assert entry["version"] == version and isinstance(entry["id"], int) and entry["at"]
        assert entry["channel"] == "players" and entry["author"] is None
        watcher.send_json({"type": "chat", "text": "hello"})  # to the spectators' channel
        heard_by = [said(ws)["messages"][0] for ws in (ws0, ws1, watcher)]
        assert [(m["name"], m["channel"]) for m in heard_by] == [("Spectator", "spectators")] * 3
        watcher.send_json({"type": "chat", "text": "me again", "name": "  Lupe  "})
        spoken = said(ws1)["messages"][0]
        assert (spoken["seat"], spoken["name"]) == (None, "Lupe")


def test_a_spectator_name_is_checked_like_a_player_name(client):
    gid, _ = two_seats(client)
    with socket(client, gid) as watcher:
        watcher.receive_json()
        for name in ("x" * 41, "Ana\u202e", 7):
            watcher.send_json({"type": "chat", "text": "hi", "name": name})
            error = said(watcher)
            assert (error["type"], error["error"], error["about"]) == ("error", "bad_name",
                                                                     "chat")


def test_a_message_over_the_limit_is_refused_naming_it(client):
    gid, tokens = two_seats(client)
    with socket(client, gid, tokens[0]) as ws:
        ws.receive_json()
        ws.send_json({"type": "chat", "text": "x" * 301})
        error = said(ws)
        assert error["type"] == "error" and error["status"] == 422
        assert error["error"] == "chat_too_long" and error["about"] == "chat"
        assert "at most 300 characters" in error["message"] and "301" in error["message"]
        ws.send_json({"type": "chat", "text": " " * 5 + "y" * 300 + " " * 5})  # trimmed: fits
        assert said(ws)["messages"][0]["text"] == "y" * 300


@pytest.mark.parametrize("text", ["ring\x07", "two\nlines", "a\u202egnp.exe", "zero\u200bwidth",
                                  "line\u2028break", "\x00"])
def test_control_and_format_characters_are_refused(client, text):
    gid, tokens = two_seats(client)
    with socket(client, gid, tokens[0]) as ws:
        ws.receive_json()
        ws.send_json({"type": "chat", "text": text})
        error = said(ws)
        assert error["error"] == "chat_bad_character" and error["status"] == 422, error
        assert "U+" in error["message"]
    assert client.get(f"/api/games/{gid}/chat").json()["messages"] == []


@pytest.mark.parametrize(("message", "code"), [
    ({"text": "   "}, "chat_empty"), ({"text": ""}, "chat_empty"), ({}, "bad_chat"),
    ({"text": 5}, "bad_chat"), ({"text": ["hi"]}, "bad_chat"),
    ({"text": "hi", "seat": 1}, "bad_chat"),
])
def test_malformed_chat_messages_are_answered_and_the_socket_stays(client, message, code):
    gid, tokens = two_seats(client)
    with socket(client, gid, tokens[1]) as ws:
        ws.receive_json()
        ws.send_json({"type": "chat", **message})
        assert said(ws)["error"] == code
        ws.send_json({"type": "ping"})
        assert said(ws) == {"type": "pong"}


def test_a_connection_may_send_five_messages_in_ten_seconds(client, monkeypatch):
    monkeypatch.setattr(chat, "WINDOW", 1.0)  # the same window, shorter to wait out
    gid, tokens = two_seats(client)
    with socket(client, gid, tokens[0]) as ws, socket(client, gid, tokens[1]) as other:
        ws.receive_json()
        other.receive_json()
        for n in range(chat.PER_SOCKET):
            ws.send_json({"type": "chat", "text": f"message {n}"})
            assert said(ws)["type"] == "chat"
        started = time.monotonic()
        ws.send_json({"type": "chat", "text": "one too many"})
        error = said(ws)
        assert (error["status"], error["error"], error["about"]) == (429, "rate_limited",
                                                                     "chat")
        assert "at most 5 every 1 s" in error["message"] and error["retry_after"] >= 1
        other.send_json({"type": "chat", "text": "another connection is not slowed"})
        heard(other, "another connection is not slowed")
        time.sleep(max(0.0, 1.05 - (time.monotonic() - started)))
        ws.send_json({"type": "chat", "text": "after the window"})
        texts = [said(ws)["messages"][0]["text"] for _ in range(2)]
        assert texts == ["another connection is not slowed", "after the window"]
    stored = [m["text"] for m in client.get(f"/api/games/{gid}/chat").json()["messages"]]
    assert "one too many" not in stored and len(stored) == chat.PER_SOCKET + 2


def test_the_window_counts_only_messages_it_lets_through():
    window = chat.Window(count=2, seconds=10.0)
    window.check(now=0.0)
    window.check(now=1.0)
    with pytest.raises(ApiError) as refused:
        window.check(now=9.5)
    assert refused.value.extra["retry_after"] == 1
    window.check(now=10.0)  # the first one left the window
    with pytest.raises(ApiError):
        window.check(now=10.5)


def test_one_address_is_limited_over_all_its_connections(tmp_path, monkeypatch):
    monkeypatch.setattr(chat, "PER_ADDRESS_PER_MINUTE", 3)
    with serve(tmp_path) as client:
        gid, tokens = two_seats(client)
        with socket(client, gid, tokens[0]) as ws0, socket(client, gid, tokens[1]) as ws1:
            ws0.receive_json()
            ws1.receive_json()
            for ws in (ws0, ws1, ws0):
                ws.send_json({"type": "chat", "text": "hi"})
                assert said(ws)["type"] == "chat"
            ws1.send_json({"type": "chat", "text": "one too many"})
            while (error := said(ws1))["type"] == "chat":
                pass  # ws0's last message may come first
            assert error["status"] == 429 and "from your address" in error["message"]
            assert error["about"] == "chat"


def test_messages_are_stored_with_the_version_and_served_for_replays(client):
    gid, tokens = two_seats(client)
    with socket(client, gid, tokens[0]) as ws0, socket(client, gid, tokens[1]) as ws1:
        first = [ws0.receive_json(), ws1.receive_json()]
        version = first[0]["version"]
        mover = next(i for i, v in enumerate(first) if v["legal"])
        ws0.send_json({"type": "chat", "text": "before"})
        assert said(ws0)["type"] == "chat"
        [ws0, ws1][mover].send_json({"type": "action", "action": first[mover]["legal"][0]["id"],
                                     "version": version})
        while ws0.receive_json().get("version", -1) <= version:
            pass
        ws1.send_json({"type": "chat", "text": "<i>after</i>"})
        assert heard(ws1, "<i>after</i>")["version"] > version
    every = client.get(f"/api/games/{gid}/chat").json()
    assert [(m["text"], m["seat"]) for m in every["messages"]] == [("before", 0),
                                                                    ("<i>after</i>", 1)]
    upto = client.get(f"/api/games/{gid}/chat", params={"upto": version}).json()
    assert [m["text"] for m in upto["messages"]] == ["before"] and upto["upto"] == version
    assert client.get("/api/games/nothing/chat").status_code == 404
    assert client.get(f"/api/games/{gid}/chat", params={"upto": -1}).status_code == 422


def test_a_new_connection_gets_the_last_messages_after_its_first_view(client, monkeypatch):
    monkeypatch.setattr(chat, "RECENT", 2)
    gid, tokens = two_seats(client)
    with socket(client, gid) as ws:  # nothing said yet: no chat message at all
        ws.receive_json()
        ws.send_json({"type": "ping"})
        assert said(ws) == {"type": "pong"}
    with socket(client, gid, tokens[0]) as ws:
        ws.receive_json()
        for text in ("one", "two", "three"):
            ws.send_json({"type": "chat", "text": text})
            said(ws)
    with socket(client, gid) as ws:
        assert ws.receive_json()["type"] == "view"
        recent = ws.receive_json()
        assert recent["type"] == "chat"
        assert [m["text"] for m in recent["messages"]] == ["two", "three"]


def test_messages_go_with_their_game(client):
    gid, tokens = two_seats(client)
    with socket(client, gid, tokens[0]) as ws:
        ws.receive_json()
        ws.send_json({"type": "chat", "text": "bye"})
        said(ws)
    hub = client.app.state.hub
    table = chat.chat
    with hub.service.store.engine.connect() as db:
        count = select(func.count()).select_from(table).where(table.c.game_id == gid)
        assert db.execute(count).scalar_one() == 1
        assert hub.service.expire(-60.0) == [gid]  # abandoned games are deleted
        assert db.execute(count).scalar_one() == 0
    assert client.get(f"/api/games/{gid}/chat").status_code == 404


def test_messages_survive_a_server_restart(tmp_path):
    with serve(tmp_path) as client:
        gid, tokens = two_seats(client)
        with socket(client, gid, tokens[1]) as ws:
            ws.receive_json()
            ws.send_json({"type": "chat", "text": "see you later"})
            said(ws)
    with serve(tmp_path) as client:  # a new app on the same database file
        listed = client.get(f"/api/games/{gid}/chat").json()["messages"]
        assert [(m["text"], m["seat"]) for m in listed] == [("see you later", 1)]
        with socket(client, gid) as ws:
            ws.receive_json()
            assert said(ws)["messages"] == listed


def test_a_seat_given_up_no_longer_speaks_under_its_name(client):
    gid, tokens = two_seats(client)
    with socket(client, gid, tokens[0]) as ws:
        ws.receive_json()
        left = client.post(f"/api/games/{gid}/leave",
                           headers={"Authorization": f"Bearer {tokens[0]}"})
        assert left.status_code == 200, left.text
        ws.send_json({"type": "chat", "text": "still here?"})
        error = said(ws)
        assert error["status"] == 403 and error["about"] == "chat"
    assert client.get(f"/api/games/{gid}/chat").json()["messages"] == []


# --- every server process (Redis) --------------------------------------------------------------

def test_a_message_said_to_one_process_reaches_the_sockets_of_another(servers, redis_url,
                                                                       tmp_path):
    """Two processes on one database and one Redis: the chat travels like the moves do."""
    db = f"sqlite:///{tmp_path / 'shared.db'}"
    a, b = servers(db, redis_url), servers(db, redis_url)
    game_id = Client(a).create("grand_bazaar", ["taken", "taken"], num_players=2)
    with connect(a.ws_url(game_id)) as on_a, connect(b.ws_url(game_id)) as on_b:
        for ws in (on_a, on_b):
            ws.send(hello_text(None))
            assert json.loads(ws.recv(timeout=10))["type"] == "view"
        on_a.send(json.dumps({"type": "chat", "text": "from A", "name": "Lupe"}))
        deadline = time.monotonic() + 5.0
        while True:
            message = json.loads(on_b.recv(timeout=max(0.1, deadline - time.monotonic())))
            if message["type"] == "chat":
                break
        assert [(m["text"], m["name"], m["seat"]) for m in message["messages"]] == [
            ("from A", "Lupe", None)]


# --- the page (Debian's Chromium driven by Playwright) -----------------------------------------

def test_the_page_shows_what_was_said_as_text_and_replays_it_step_by_step(browser, tmp_path):
    trap = "<img src=x onerror=\"window.pwned=1\"><b>bold?</b>"
    with live_server(tmp_path) as base:
        http = httpx.Client(base_url=base, timeout=10)
        created = http.post("/api/games", json={
            "game": "grand_bazaar", "name": "Ana", "options": {"num_players": 2},
            "seats": ["taken", "taken"]}).json()
        gid, tokens = created["id"], [s["token"] for s in created["seats"]]
        ws_url = base.replace("http", "ws") + f"/ws/games/{gid}"

        def say(token: str, text: str) -> dict:
            with connect(ws_url) as ws:
                ws.send(hello_text(token))
                ws.send(json.dumps({"type": "chat", "text": text}))
                while True:  # views, what was said before, then this
                    message = json.loads(ws.recv(timeout=10))
                    assert message["type"] in ("view", "chat"), message
                    for entry in message.get("messages", []):
                        if entry["text"] == text:
                            return dict(entry)

        first = say(tokens[0], trap)
        views = [http.get(f"/api/games/{gid}/view",
                          headers={"Authorization": f"Bearer {t}"}).json() for t in tokens]
        mover = next(i for i, v in enumerate(views) if v["legal"])
        moved = http.post(f"/api/games/{gid}/actions",
                          headers={"Authorization": f"Bearer {tokens[mover]}"},
                          json={"version": views[mover]["version"],
                                "action": views[mover]["legal"][0]["id"]})
        assert moved.status_code == 200, moved.text
        second = say(tokens[1], "after the move")
        assert second["version"] > first["version"]

        context = browser.new_context(viewport={"width": 1360, "height": 940})
        problems: list[str] = []
        page = context.new_page()
        page.on("pageerror", lambda err: problems.append(str(err)))
        page.on("console", lambda msg: problems.append(msg.text)
                if "Content Security Policy" in msg.text else None)
        page.goto(base + "/")
        page.add_script_tag(url="/static/chat.js")
        page.add_style_tag(url="/static/chat.css")
        page.evaluate("""async ([gid, step]) => {
            const box = document.createElement("section");
            box.id = "chat";
            document.body.append(box);
            TlatelolcoChat.mount(box, {gameId: gid, replay: true, lang: "en"});
            await TlatelolcoChat.showUpTo(step);
        }""", [gid, first["version"]])
        texts = page.locator("#chat .chat-text")
        assert texts.all_text_contents() == [trap]  # shown as typed ...
        assert page.locator("#chat img, #chat b").count() == 0  # ... never as HTML
        assert page.locator("#chat .chat-name").all_text_contents() == ["Ana"]
        assert page.locator("#chat input").count() == 0  # nobody talks in a replay
        page.evaluate("(step) => TlatelolcoChat.showUpTo(step)", second["version"])
        assert texts.all_text_contents() == [trap, "after the move"]
        assert not page.evaluate("window.pwned") and problems == []
        context.close()


def chat_alone(browser, width: int, height: int) -> tuple[Any, Any, list[str]]:
    """A page of `width` x `height` holding the chat box and its scripts, nothing else; the
    errors its scripts raise."""
    context = browser.new_context(viewport={"width": width, "height": height})
    problems: list[str] = []
    page = context.new_page()
    page.on("pageerror", lambda err: problems.append(str(err)))
    page.set_content("<section id='chat'></section>")
    for script in ("shell.js", "chat.js"):
        page.add_script_tag(path=str(STATIC / script))
    return context, page, problems


def test_the_page_sends_with_enter_keeps_a_refused_text_and_folds_on_phones(browser):
    context, page, problems = chat_alone(browser, 390, 800)
    page.evaluate("""() => {
        window.sent = [];
        TlatelolcoChat.mount(document.getElementById("chat"), {
            gameId: "g1", lang: "en", seated: () => true,
            send: (m) => { window.sent.push(m); return true; }});
    }""")
    body, toggle = page.locator("#chat .chat-body"), page.locator("#chat .chat-toggle")
    assert body.is_hidden() and toggle.get_attribute("aria-expanded") == "false"  # a phone
    said_html = {"id": 1, "seat": 1, "name": "<i>Bo</i>", "text": "<b>hi</b>", "version": 3,
                 "at": "2026-12-03T10:00:00+00:00", "channel": "players", "author": None}
    spectator = {**said_html, "id": 2, "seat": None, "name": "Lupe", "text": "hello",
                 "channel": "spectators", "author": "0123456789ab"}
    page.evaluate("(m) => TlatelolcoChat.receive({type: 'chat', messages: m})",
                  [said_html, spectator])
    assert page.locator("#chat .chat-unread").text_content() == "2 new"
    toggle.click()
    assert body.is_visible() and page.locator("#chat .chat-unread").text_content() == ""
    page.evaluate("(m) => TlatelolcoChat.receive({type: 'chat', messages: m})", [said_html])
    assert page.locator("#chat .chat-name").all_text_contents() == ["<i>Bo</i>"]  # the table
    assert page.locator("#chat .chat-text").all_text_contents() == ["<b>hi</b>"]
    page.click("#chat .chat-tab[data-channel=spectators]")
    assert page.locator("#chat .chat-name").all_text_contents() == ["Lupe (spectator)"]
    assert page.locator("#chat .chat-text").all_text_contents() == ["hello"]
    page.click("#chat .chat-tab[data-channel=players]")
    assert page.locator("#chat .chat-list i, #chat .chat-list b").count() == 0
    field = page.locator("#chat input")
    assert field.get_attribute("maxlength") == "300"
    field.fill("  too fast  ")
    field.press("Enter")
    assert page.evaluate("window.sent") == [{"type": "chat", "text": "too fast",
                                             "channel": "players"}]
    assert field.input_value() == ""
    page.evaluate("""() => TlatelolcoChat.receive({type: "error", error: "rate_limited",
        status: 429, about: "chat", retry_after: 4, message: "too many chat messages"})""")
    assert page.locator("#chat .chat-status").text_content() == \
        "Too many messages: wait 4 s before sending again."
    assert field.input_value() == "too fast"  # given back to send again
    assert problems == []
    context.close()


def test_the_page_has_a_tab_per_channel_and_a_player_mutes_from_a_message(browser):
    """Issue 33 (7): the table's chat for players, the spectators' apart, mutes."""
    context, page, problems = chat_alone(browser, 1360, 900)
    mount = """(seated) => {
        window.sent = [];
        window.seated = seated;
        TlatelolcoChat.mount(document.getElementById("chat"), {
            gameId: "g1", lang: "en", seated: () => window.seated,
            send: (m) => { window.sent.push(m); return true; }});
    }"""
    watcher = {"id": 5, "seat": None, "name": "Lupe", "text": "boo", "version": 1,
               "at": "2026-12-03T10:00:00+00:00", "channel": "spectators",
               "author": "0123456789ab"}
    form, rule = page.locator("#chat .chat-form"), page.locator("#chat .chat-rule")
    tabs = page.locator("#chat .chat-tab")

    page.evaluate(mount, False)  # a spectator: told the table is for players
    assert tabs.all_text_contents() == ["Table", "Spectators"]
    assert form.is_hidden() and "for the players" in rule.text_content()
    page.click("#chat .chat-tab[data-channel=spectators]")
    assert form.is_visible() and rule.is_hidden()
    page.fill("#chat input", "hi all")
    page.press("#chat input", "Enter")
    assert page.evaluate("window.sent") == [{"type": "chat", "text": "hi all",
                                             "channel": "spectators"}]
    page.evaluate("(m) => TlatelolcoChat.receive({type: 'chat', messages: [m]})", watcher)
    assert page.locator("#chat .chat-mute").count() == 0  # spectators mute nobody
    page.evaluate("""() => TlatelolcoChat.receive({type: "error", error: "chat_muted",
        status: 403, about: "chat", message: "you are muted in this game"})""")
    assert page.locator("#chat .chat-status").text_content() == "You are muted in this game."

    page.evaluate(mount, True)  # a player: writes at the table, reads the spectators
    assert form.is_visible() and rule.is_hidden()
    page.evaluate("(m) => TlatelolcoChat.receive({type: 'chat', messages: [m]})", watcher)
    assert page.locator("#chat .chat-text").count() == 0  # not at the table
    page.click("#chat .chat-tab[data-channel=spectators]")
    assert form.is_hidden() and "read the spectators" in rule.text_content()
    page.click("#chat .chat-mute")
    assert page.evaluate("window.sent") == [{"type": "mute", "author": "0123456789ab"}]
    page.evaluate("() => TlatelolcoChat.receive({type: 'muted', author: '0123456789ab'})")
    assert page.locator("#chat .chat-muted").text_content() == "muted"
    assert page.locator("#chat .chat-mute").count() == 0
    assert problems == []
    context.close()
