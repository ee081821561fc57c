"""Live play over WebSocket: views pushed to every seat and spectator, moves, errors."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.websockets import WebSocketDisconnect
from tests.web.apps import create, serve, socket


@pytest.fixture
def client(tmp_path):
    with serve(tmp_path) as client:
        yield client


def next_view(ws, after: int) -> dict:
    """The first view newer than version `after` (views of seat changes may come first)."""
    while True:
        message = ws.receive_json()
        assert message["type"] != "error", message
        if message["type"] == "view" and message["version"] > after:
            return message


def reply(ws) -> dict:
    """The next message that is not a view (views also follow presence changes)."""
    while True:
        message = ws.receive_json()
        if message["type"] != "view":
            return message


def test_a_move_reaches_the_other_seat_and_a_spectator_with_log_deltas(client):
    game = create(client, "grand_bazaar", ["taken", "taken"], num_players=2)
    gid, tokens = game["id"], [s["token"] for s in game["seats"]]
    with socket(client, gid, tokens[0]) as ws0, \
            socket(client, gid, tokens[1]) as ws1, \
            socket(client, gid) as watcher:
        first = [ws0.receive_json(), ws1.receive_json(), watcher.receive_json()]
        assert [v["viewer"] for v in first] == [0, 1, None]
        assert all(v["log_from"] == 0 and len(v["log"]) == v["version"] for v in first)
        mover = next(i for i, v in enumerate(first[:2]) if v["legal"])
        assert first[1 - mover]["legal"] == [] and first[2]["legal"] == []
        version = first[mover]["version"]
        move = first[mover]["legal"][0]
        [ws0, ws1][mover].send_json({"type": "action", "action": move["id"],
                                     "version": version})
        for ws in (ws0, ws1, watcher):
            new = next_view(ws, version)
            assert new["log_from"] == version  # only what is new
            assert new["log"][0]["text"] == move["text"]


def test_errors_come_back_on_the_socket_and_change_nothing(client):
    game = create(client, "grand_bazaar", ["taken", "taken"], num_players=2)
    gid, tokens = game["id"], [s["token"] for s in game["seats"]]
    with socket(client, gid, tokens[0]) as ws:
        current = ws.receive_json()
        ws.send_text("not json")
        assert reply(ws)["status"] == 422
        ws.send_json({"type": "dance"})
        assert "allowed: action, undo, why, chat, mute, sync or ping" in reply(ws)["message"]
        ws.send_json({"type": "action", "action": 0})
        assert reply(ws)["error"] == "bad_version"
        ws.send_json({"type": "action", "action": 0, "version": current["version"],
                      "cheat": 1})
        assert "cheat" in reply(ws)["message"]
        ws.send_json({"type": "action", "action": 0, "version": current["version"] + 9})
        error = reply(ws)
        assert error["status"] == 409
        ws.send_json({"type": "ping"})
        assert reply(ws) == {"type": "pong"}
        ws.send_json({"type": "sync"})
        again = ws.receive_json()
        assert again["version"] == current["version"] and again["log"] == current["log"]


def test_spectators_cannot_move_and_bad_credentials_are_refused(client):
    game = create(client, "grand_bazaar", ["taken", "taken"], num_players=2)
    gid = game["id"]
    with socket(client, gid) as watcher:
        current = watcher.receive_json()
        watcher.send_json({"type": "action", "action": 0, "version": current["version"]})
        assert reply(watcher)["status"] == 401
    with socket(client, gid, "forged") as ws:
        error = ws.receive_json()
        assert error["status"] == 403
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4403
    with socket(client, "nothing") as ws:
        assert ws.receive_json()["status"] == 404


def test_a_reconnecting_seat_gets_the_whole_view_again(client):
    game = create(client, "mexica", ["taken", "bot:random"], num_players=2)
    gid, token = game["id"], game["seats"][0]["token"]
    with socket(client, gid, token) as ws:
        first = ws.receive_json()
        move = first["legal"][0]
        ws.send_json({"type": "action", "action": move["id"], "version": first["version"]})
        after = next_view(ws, first["version"])
    with socket(client, gid, token) as ws:
        again = ws.receive_json()
        assert again["log_from"] == 0 and again["version"] >= after["version"]
        assert again["log"][first["version"]]["text"] == move["text"]


def test_credentials_go_in_the_first_message_never_the_url(client):
    """Issue 21 (3): `?token=` would land in access logs; it is refused with the reason."""
    game = create(client, "grand_bazaar", ["taken", "taken"], num_players=2)
    gid, token = game["id"], game["seats"][0]["token"]
    with client.websocket_connect(f"/ws/games/{gid}?token={token}") as ws:
        error = ws.receive_json()
        assert error["error"] == "credential_in_url" and "first message" in error["message"]
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4400
    with client.websocket_connect(f"/ws/games/{gid}") as ws:  # not a hello first
        ws.send_json({"type": "sync"})
        assert ws.receive_json()["error"] == "bad_message"
    with client.websocket_connect(f"/ws/games/{gid}") as ws:
        ws.send_json({"type": "hello", "token": 5})
        assert "credential" in ws.receive_json()["message"]
    with socket(client, gid, token) as ws:
        assert ws.receive_json()["viewer"] == 0


@pytest.mark.parametrize("raw", [
    "[" * 5000 + "]" * 5000,  # nesting: RecursionError in json once dropped the socket
    '{"type": "action", "a": ' + "[" * 1500 + "]" * 1500 + "}",
    '{"type": "action", "text": "' + "1," + "1" * 12_000 + '", "version": 0}',
    "x" * 100_000,
    '{"type": 7}', "[]", "null", '"hello"', "",
])
def test_malformed_and_oversized_messages_get_an_error_and_the_socket_stays(client, raw):
    """Issue 21 (6, 8): every message is capped and parsed safely; the answer is an error."""
    game = create(client, "axio", ["taken", "open"], num_players=2)
    with socket(client, game["id"], game["seats"][0]["token"]) as ws:
        ws.receive_json()
        ws.send_text(raw)
        error = reply(ws)
        assert error["type"] == "error" and error["status"] == 422, error
        ws.send_bytes(b"\x00binary")
        assert reply(ws)["status"] == 422
        ws.send_json({"type": "ping"})
        assert reply(ws) == {"type": "pong"}  # still connected and answering


def test_action_fields_are_strictly_typed_on_the_socket(client):
    game = create(client, "grand_bazaar", ["taken", "taken"], num_players=2)
    with socket(client, game["id"], game["seats"][0]["token"]) as ws:
        current = ws.receive_json()
        for bad in ({"action": "3"}, {"action": 1.0}, {"action": True}):
            ws.send_json({"type": "action", "version": current["version"], **bad})
            assert reply(ws)["error"] == "bad_action"
        for version in ("3", 1.0, True):
            ws.send_json({"type": "action", "action": 0, "version": version})
            assert reply(ws)["error"] == "bad_version"
        ws.send_json({"type": "action", "text": "x" * 201, "version": current["version"]})
        assert "at most 200" in reply(ws)["message"]


def test_a_flood_of_messages_is_slowed_down_not_served(client):
    game = create(client, "grand_bazaar", ["taken", "taken"], num_players=2)
    with socket(client, game["id"], game["seats"][0]["token"]) as ws:
        ws.receive_json()
        for _ in range(300):
            ws.send_json({"type": "ping"})
        answers = [reply(ws) for _ in range(300)]
        assert {"type": "pong"} in answers
        assert any(a.get("error") == "rate_limited" for a in answers)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=False)
    | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=4),
    max_leaves=12)
messages = st.one_of(
    st.fixed_dictionaries(
        {"type": st.sampled_from(["action", "sync", "ping", "hello", "dance", ""])},
        optional={"action": json_values, "text": json_values, "version": json_values,
                  "token": json_values, "extra": json_values}).map(json.dumps),
    json_values.map(json.dumps),
    st.text(max_size=200),
    st.integers(1, 60).map(lambda depth: "[" * depth * 50 + "]" * depth * 50),
    st.integers(4_000, 20_000).map(lambda n: '{"type": "action", "text": "' + "9" * n + '"}'),
)


def kind_of(raw: str) -> str | None:
    """The `type` the server reads in `raw`, or None when it is no JSON object with one."""
    try:
        message = json.loads(raw)
    except (ValueError, RecursionError):
        return None
    return message.get("type") if isinstance(message, dict) else None


@given(batch=st.lists(messages, min_size=1, max_size=8))
@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck),
          database=None)
def test_websocket_fuzz_every_message_gets_an_answer_and_the_game_stays_whole(fuzz, batch):
    """Issue 21: malformed, oversized, deeply nested and wrongly typed messages of every
    type; each is answered (an error, or for ping and sync their answer), the socket stays
    open, and the game moves only by legal actions of the seat to move. A ping after each
    message marks where its answers end (the server answers in order)."""
    client, game_id, token = fuzz
    with socket(client, game_id, token) as ws:
        first = ws.receive_json()
        for raw in batch:
            ws.send_text(raw)
            ws.send_json({"type": "ping"})
            kind = kind_of(raw)
            pongs, answers = 2 if kind == "ping" else 1, []
            while pongs:
                message = ws.receive_json()
                pongs -= message["type"] == "pong"
                answers.append(message)
            errors = [m for m in answers if m["type"] == "error"]
            assert all(m["type"] in ("view", "error", "pong") for m in answers), answers
            assert all(400 <= e["status"] < 500 and e["message"] for e in errors), errors
            if kind not in ("ping", "sync", "action"):
                assert len(errors) == 1, (raw[:200], answers)
    after = client.get(f"/api/games/{game_id}/view", headers={
        "Authorization": f"Bearer {token}"}).json()
    assert after["version"] >= first["version"] and len(after["log"]) == after["version"]
    assert all(entry["seat"] in (0, 1, -1) for entry in after["log"])  # no stranger moved


@pytest.fixture(scope="module")
def fuzz(tmp_path_factory):
    with serve(tmp_path_factory.mktemp("fuzz")) as client:
        game = create(client, "axio", ["taken", "bot:random"], num_players=2)
        yield client, game["id"], game["seats"][0]["token"]


def test_a_flood_of_malformed_messages_counts_against_the_rate_too(client):
    game = create(client, "grand_bazaar", ["taken", "taken"], num_players=2)
    with socket(client, game["id"], game["seats"][0]["token"]) as ws:
        ws.receive_json()
        for _ in range(300):
            ws.send_text("{not json")
        answers = [reply(ws) for _ in range(300)]
        assert any(a.get("error") == "rate_limited" for a in answers)
        assert any(a.get("error") == "bad_message" for a in answers)


def test_the_hello_may_name_a_language_and_nothing_else(client):
    """The log's words come in the language of the hello; any other value is refused with the
    languages there are, and an unknown field is still refused."""
    game = create(client, "grand_bazaar", ["taken", "taken"], num_players=2)
    gid, token = game["id"], game["seats"][0]["token"]
    with client.websocket_connect(f"/ws/games/{gid}") as ws:
        ws.send_json({"type": "hello", "token": token, "lang": "es"})
        view = ws.receive_json()
        assert view["log"][0]["words"].startswith("Carta de precio")
        assert view["log"][0]["text"].startswith("reveal")  # notation stays as it is
    for bad in ("fr", "../es", "e" * 100, 1, None):
        with client.websocket_connect(f"/ws/games/{gid}") as ws:
            ws.send_json({"type": "hello", "token": token, "lang": bad})
            answer = ws.receive_json()
            assert answer["error"] == "bad_message" and "'lang' is one of en, es" in \
                answer["message"]
    with client.websocket_connect(f"/ws/games/{gid}") as ws:
        ws.send_json({"type": "hello", "token": token, "language": "es"})
        assert "no other field" in ws.receive_json()["message"]


def test_the_catalogues_are_served_for_known_languages_only(client):
    es = client.get("/i18n/es.json")
    assert es.status_code == 200 and es.json()["messages"]["Your turn"] == "Tu turno"
    assert client.get("/i18n/en.json").json()["messages"] == {}  # English is the message id
    for bad in ("fr", "..", "es.json%00", "x" * 300):
        response = client.get(f"/i18n/{bad}.json")
        assert response.status_code == 404, bad
        assert "the languages are en, es" in response.json()["message"]
