"""No message to a seat or spectator carries another seat's private information or the future.

Every view pushed over the WebSockets (and every replay view) is checked against the engine:
it must equal what the viewer may know at that version, computed from the history up to that
version only (so nothing from a later chance event can be in it), with the observation of that
seat (Axio's other hands absent) and the log's hidden draws masked. The chance seed appears in
no message.
"""

from __future__ import annotations

import json
import random
import sqlite3
import threading

import pytest
from tests.web.apps import auth, claim, create, serve, socket, view, wait_for

import tlatelolco
from tlatelolco.web.play.views import HIDDEN_TEXT


def collect(client, game_id: str, token: str | None, into: list, stop: threading.Event
            ) -> threading.Thread:
    def run() -> None:
        with socket(client, game_id, token) as ws:
            while not stop.is_set():
                message = ws.receive_json()
                into.append(message)
                if message.get("status") == "finished":
                    return

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def expected_observation(state, viewer):
    raw = state.public_observation() if viewer is None else state.observation(viewer)
    return json.loads(json.dumps(raw))


def check_message(message, game, history, viewer, texts):
    version = message["version"]
    state = game.replay(history[:version])  # the past only
    assert message["observation"] == expected_observation(state, viewer), version
    hidden = state.public_hidden_steps() if viewer is None else state.hidden_steps(viewer)
    for entry in message["log"]:
        step = entry["step"]
        assert entry["text"] == (HIDDEN_TEXT if step in hidden else texts[step]), entry
    if game.info.name == "axio":
        hand = message["observation"]["hand"]
        if viewer is None:
            assert hand is None
        else:
            others = {t for s, t in enumerate(state._t.hands) if s != viewer and t >= 0}
            assert hand is None or hand["tile"] not in others


@pytest.mark.parametrize(("name", "players"), [
    ("axio", 2), ("axio", 3), ("axio", 4), ("aztec_market", 2), ("grand_bazaar", 3)])
def test_no_view_leaks_private_information_or_the_future(tmp_path, name, players):
    seats = ["taken", "open"] + ["bot:random"] * (players - 2)
    rng = random.Random(players)
    with serve(tmp_path) as client:
        game_info = create(client, name, seats, num_players=players)
        gid = game_info["id"]
        # seat 1 is a friend's: claimed with the invite the creator also received
        tokens = [game_info["seats"][0]["token"], claim(client, game_info, 1)]
        invite = game_info["seats"][1]["invite"]
        stop = threading.Event()
        inboxes: dict = {0: [], 1: [], None: [], "invite": []}
        threads = [collect(client, gid, tokens[0], inboxes[0], stop),
                   collect(client, gid, tokens[1], inboxes[1], stop),
                   collect(client, gid, None, inboxes[None], stop)]
        with socket(client, gid, invite) as ws:  # the used invite sees nothing at all
            refused = ws.receive_json()
        assert refused["type"] == "error" and refused["status"] == 403
        assert client.get(f"/api/games/{gid}/view", headers=auth(invite)).status_code == 403
        while True:
            current = wait_for(lambda: next((v for t in tokens
                                             if (v := view(client, gid, t))["legal"]
                                             or v["status"] == "finished"), None),
                               timeout=60, what="a seat to move")
            if current["status"] == "finished":
                break
            token = tokens[current["viewer"]]
            move = rng.choice(current["legal"])
            response = client.post(f"/api/games/{gid}/actions", headers=auth(token),
                                   json={"version": current["version"], "action": move["id"]})
            assert response.status_code == 200, response.text
        for thread in threads:
            thread.join(timeout=30)
        stop.set()
        record = client.get(f"/api/games/{gid}/record").json()
        replays = {v: [client.get(f"/api/games/{gid}/replay/{step}",
                                  headers=auth(tokens[v]) if v is not None else {}).json()
                       for step in range(0, len(record["history"]) + 1, 7)]
                   for v in (0, 1, None)}
    seed = sqlite3.connect(tmp_path / "web.db").execute(
        "select seed from games where id = ?", (gid,)).fetchone()[0]
    game = tlatelolco.load(name, **record["options"])
    history = record["history"]
    texts, state = [], game.new_initial_state()
    for action in history:
        texts.append(state.action_to_string(action))
        state.apply_action(action)
    del inboxes["invite"]
    for viewer, messages in inboxes.items():
        views = [m for m in messages if m["type"] == "view"]
        assert views and views[-1]["status"] == "finished"
        for message in views + replays[viewer]:
            assert seed not in json.dumps(message)
            check_message(message, game, history, viewer, texts)
    # the hidden draws really were there to leak (the test would notice them)
    if name == "axio":
        assert any(e["text"] == HIDDEN_TEXT for m in inboxes[0] for e in m.get("log", []))
