"""Chat belongs to the table (issue 33, point 7; the cap of point 4): the players' channel is for
seated players, spectators talk in their own (unless the game turns it off), a player mutes a
spectator, and a game keeps a bounded number of messages. Against a real `tlatelolco serve`."""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, insert
from tests.web.services import Server, hello
from websockets.sync.client import ClientConnection, connect

from tlatelolco.web.realtime.chat import GAME_MAX, chat


@pytest.fixture
def server(servers, tmp_path) -> Server:
    return servers(f"sqlite:///{tmp_path / 'chat.db'}")


def create(server: Server, **extra: Any) -> tuple[str, str]:
    """A two-seat Grand Bazaar game: its id and the credential of seat 0 (seat 1 is a bot)."""
    body = {"game": "grand_bazaar", "options": {"num_players": 2}, "name": "Ana",
            "seats": ["taken", "bot:random"], **extra}
    created = httpx.post(f"{server.url}/api/games", json=body, timeout=10)
    assert created.status_code == 201, created.text
    game = created.json()
    return game["id"], game["seats"][0]["token"]


@contextmanager
def socket(server: Server, game_id: str, token: str | None = None
           ) -> Iterator[ClientConnection]:
    with connect(server.ws_url(game_id), open_timeout=10) as ws:
        ws.send(hello(token))
        assert receive(ws)["type"] == "view"
        yield ws


def receive(ws: ClientConnection) -> dict[str, Any]:
    return dict(json.loads(ws.recv(timeout=10)))


def answer(ws: ClientConnection) -> dict[str, Any]:
    """The next message that is not a view (views follow the bot's moves and presence)."""
    while (message := receive(ws))["type"] == "view":
        pass
    return message


def say(ws: ClientConnection, text: str, **fields: Any) -> dict[str, Any]:
    ws.send(json.dumps({"type": "chat", "text": text, **fields}))
    return answer(ws)


def stored(server: Server, game_id: str) -> list[dict[str, Any]]:
    got = httpx.get(f"{server.url}/api/games/{game_id}/chat", timeout=10)
    assert got.status_code == 200, got.text
    return list(got.json()["messages"])


def test_a_spectator_talks_in_the_spectators_channel_never_at_the_table(server):
    """Before, anyone who clicked Watch posted into the players' chat."""
    gid, token = create(server)
    with socket(server, gid, token) as player, socket(server, gid) as watcher:
        refused = say(watcher, "let me play", channel="players")
        assert (refused["type"], refused["status"], refused["error"], refused["about"]) == (
            "error", 403, "players_only", "chat")
        assert "for the players" in refused["message"]
        assert stored(server, gid) == []  # nothing stored ...
        table = say(player, "good luck")  # ... nor sent: the next chat anyone gets is this
        assert [m["text"] for m in table["messages"]] == ["good luck"]
        assert table["messages"][0]["channel"] == "players"
        assert table["messages"][0]["author"] is None
        assert answer(watcher) == table  # spectators read the table chat

        heard = say(watcher, "nice move", channel="spectators", name="Lupe")["messages"]
        assert [(m["text"], m["channel"], m["seat"], m["name"]) for m in heard] == [
            ("nice move", "spectators", None, "Lupe")]
        assert re.fullmatch(r"[0-9a-f]{12}", heard[0]["author"])  # a pseudonym, not the address
        assert answer(player)["messages"] == heard  # players read the spectators' channel
        default = say(watcher, "no channel given")["messages"][0]
        assert default["channel"] == "spectators" and default["author"] == heard[0]["author"]
        assert answer(player)["messages"] == [default]

        misplaced = say(player, "hello watchers", channel="spectators")
        assert misplaced["error"] == "spectators_only" and misplaced["about"] == "chat"
        bad = say(player, "hi", channel="everyone")
        assert bad["status"] == 422 and "players or spectators" in bad["message"]
    history = stored(server, gid)
    assert [(m["text"], m["channel"]) for m in history] == [
        ("good luck", "players"), ("nice move", "spectators"), ("no channel given", "spectators")]
    with socket(server, gid) as late:  # a new connection's recent messages carry them too
        recent = answer(late)
        assert recent["type"] == "chat" and recent["messages"] == history


def test_spectator_chat_off_refuses_spectators_and_keeps_the_table(server):
    gid, token = create(server, spectator_chat=False)
    with socket(server, gid, token) as player, socket(server, gid) as watcher:
        refused = say(watcher, "hello?")
        assert (refused["status"], refused["error"]) == (403, "spectator_chat_off")
        assert "turned spectator chat off" in refused["message"]
        assert say(player, "quiet game")["messages"][0]["text"] == "quiet game"
    assert [m["text"] for m in stored(server, gid)] == ["quiet game"]
    wrong = httpx.post(f"{server.url}/api/games", timeout=10, json={
        "game": "grand_bazaar", "spectator_chat": "no"})
    assert wrong.status_code == 422 and "spectator_chat" in wrong.text


def test_a_player_mutes_a_spectator_whose_next_message_nobody_receives(server):
    gid, token = create(server)
    with socket(server, gid, token) as player, socket(server, gid) as watcher:
        said = say(watcher, "you play badly")["messages"][0]
        assert answer(player)["messages"] == [said]
        watcher.send(json.dumps({"type": "mute", "author": said["author"]}))
        assert answer(watcher)["error"] == "players_only"  # spectators mute nobody
        player.send(json.dumps({"type": "mute", "author": "0123456789ab"}))
        assert answer(player)["error"] == "no_such_author"
        player.send(json.dumps({"type": "mute", "author": said["author"]}))
        assert answer(player) == {"type": "muted", "author": said["author"]}

        refused = say(watcher, "still here")
        assert (refused["status"], refused["error"], refused["about"]) == (403, "chat_muted",
                                                                           "chat")
        assert "you are muted in this game" in refused["message"]
        assert say(player, "thanks")["messages"][0]["text"] == "thanks"  # not "still here"
        assert answer(watcher)["messages"][0]["text"] == "thanks"
    with socket(server, gid) as again:  # a new connection from the same address: still muted
        answer(again)  # the recent messages
        assert say(again, "new tab")["error"] == "chat_muted"
    assert [m["text"] for m in stored(server, gid)] == ["you play badly", "thanks"]


def test_a_game_keeps_at_most_its_cap_of_messages(server):
    gid, token = create(server)
    engine = create_engine(server.db)
    stamp = dt.datetime.now(dt.UTC)
    with engine.begin() as db:  # fill the chat up to the cap without waiting out rate limits
        db.execute(insert(chat), [
            {"game_id": gid, "version": 0, "seat": 0, "name": "Ana", "text": f"line {n}",
             "created_at": stamp, "channel": "players"} for n in range(GAME_MAX - 1)])
    engine.dispose()
    with socket(server, gid, token) as player:
        answer(player)  # the recent messages
        assert say(player, "the last one")["messages"][0]["text"] == "the last one"
        full = say(player, "one too many")
        assert (full["status"], full["error"], full["about"]) == (409, "chat_full", "chat")
        assert f"at most {GAME_MAX} messages" in full["message"]
    texts = [m["text"] for m in stored(server, gid)]
    assert "one too many" not in texts and texts[-1] == "the last one"
