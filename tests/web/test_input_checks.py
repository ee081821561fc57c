"""The low-severity input checks of issue 33 (point 5), against a real `tlatelolco serve`:
option values of the wrong JSON type, versions out of range, a second Axio seat by invite,
unchecked bot parameters, and a database of a newer schema."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import httpx
import pytest
from alembic.script import ScriptDirectory
from sqlalchemy import text
from tests.web.browsers import browser
from tests.web.services import Client, Server, free_port, hello
from websockets.sync.client import connect

from tlatelolco.web.storage.db import MIGRATIONS, make_engine, upgrade

__all__ = ["browser"]  # the fixture, shared with test_browser.py
BIG = 2**70


@pytest.fixture
def server(servers, tmp_path) -> Server:
    return servers(f"sqlite:///{tmp_path / 'checks.db'}")


@pytest.fixture
def http(server) -> httpx.Client:
    with httpx.Client(base_url=server.url, timeout=10) as client:
        yield client


def refused(response: httpx.Response, status: int, *words: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    body = response.json()
    for word in words:
        assert word in body["message"], (word, body)
    return dict(body)


# --- option types ------------------------------------------------------------------------------

@pytest.mark.parametrize(("game", "options", "words"), [
    ("grand_bazaar", {"num_players": "3"}, ["num_players", "whole number", "from 2 to 7"]),
    ("grand_bazaar", {"num_players": 3.0}, ["num_players", "whole number", "from 2 to 7"]),
    ("grand_bazaar", {"num_players": True}, ["num_players", "whole number", "not true/false"]),
    ("aztec_market", {"luck": "true"}, ["luck", "true or false", "not text"]),
    ("aztec_market", {"removed": "4"}, ["removed", "whole number", "from 0 to 76"]),
    ("aztec_market", {"setup": 1}, ["setup", "text", "'build', 'random'"]),
])
def test_an_option_of_the_wrong_json_type_is_refused_naming_it(http, game, options, words):
    """Before, `"num_players": "3"` was converted and the game created (201)."""
    body = refused(http.post("/api/games", json={"game": game, "options": options}), 422,
                   *words)
    assert body["error"] == "bad_game"
    assert http.get("/api/games").json() == []  # nothing was created
    made = http.post("/api/games", json={"game": "grand_bazaar", "options": {"num_players": 3}})
    assert made.status_code == 201, made.text


# --- versions ----------------------------------------------------------------------------------

@pytest.mark.parametrize("version", [BIG, 2**31, -1])
def test_a_version_out_of_range_is_refused_over_http(server, http, version):
    """Before, 2^70 was taken for a stale version of the game (409)."""
    client = Client(server)
    gid = client.create("grand_bazaar", ["taken", "taken"], num_players=2)
    view = client.view(gid, 0)
    seat = next(s for s in (0, 1) if client.view(gid, s)["legal"])
    action = client.view(gid, seat)["legal"][0]["id"]
    for route, body in (("actions", {"version": version, "action": action}),
                        ("undo", {"version": version})):
        answer = refused(http.post(f"/api/games/{gid}/{route}", json=body,
                                   headers=client.auth(seat)),
                         422, "from 0 to 2147483647")
        assert answer["error"] == "bad_version"
    assert client.view(gid, 0)["version"] == view["version"]  # nothing moved
    client.close()


def test_a_version_out_of_range_is_refused_over_the_websocket(server):
    client = Client(server)
    gid = client.create("grand_bazaar", ["taken", "taken"], num_players=2)
    seat = next(s for s in (0, 1) if client.view(gid, s)["legal"])
    with connect(server.ws_url(gid), open_timeout=10) as ws:
        ws.send(hello(client.tokens[seat]))
        view = json.loads(ws.recv(timeout=10))
        for message in ({"type": "action", "action": view["legal"][0]["id"], "version": BIG},
                        {"type": "undo", "version": BIG}):
            ws.send(json.dumps(message))
            while (answer := json.loads(ws.recv(timeout=10)))["type"] == "view":
                pass
            assert (answer["type"], answer["status"], answer["error"]) == ("error", 422,
                                                                           "bad_version")
            assert "from 0 to 2147483647" in answer["message"]
    assert client.view(gid, seat)["version"] == view["version"]
    client.close()


# --- one person, one Axio seat -----------------------------------------------------------------

def test_a_seat_holder_cannot_claim_a_second_axio_seat_by_its_invite(http):
    """docs/web.md: a browser that holds a seat is not given a second one where seats hide
    things; before, the invite gave it one."""
    created = http.post("/api/games", json={"game": "axio", "options": {"num_players": 2},
                                            "seats": ["taken", "open"]}).json()
    gid, mine, invite = created["id"], created["seats"][0]["token"], created["seats"][1]["invite"]
    body = refused(http.post(f"/api/games/{gid}/claim", json={"token": mine},
                             headers={"Authorization": f"Bearer {invite}"}),
                   409, "you hold seat 1", "one seat")
    assert body["error"] == "one_seat"
    friend = http.post(f"/api/games/{gid}/claim", json={"name": "Bo"},
                       headers={"Authorization": f"Bearer {invite}"})  # still good for a friend
    assert friend.status_code == 200 and friend.json()["seat"] == 1, friend.text


def test_a_seat_holder_may_claim_another_seat_where_nothing_is_hidden(http):
    created = http.post("/api/games", json={"game": "grand_bazaar", "seats": ["taken", "open",
                                                                              "open"]}).json()
    gid, mine, invite = created["id"], created["seats"][0]["token"], created["seats"][1]["invite"]
    claimed = http.post(f"/api/games/{gid}/claim", json={"token": mine},
                        headers={"Authorization": f"Bearer {invite}"})
    assert claimed.status_code == 200, claimed.text


# --- bot parameters ----------------------------------------------------------------------------

@pytest.mark.parametrize(("spec", "words"), [
    ("bot:mcts:depth=1e9", ["depth", "whole number from 0 to 50"]),
    ("bot:mcts:depth=-1", ["depth", "whole number from 0 to 50"]),
    ("bot:mcts:c=1e308", ["c=", "from 0 to 10"]),
    ("bot:ismcts:c=nan", ["from 0 to 10"]),
    ("bot:mcts:prior=1", ["prior", "not including"]),
    ("bot:mcts:rollout=x", ["greedy or random"]),
    ("bot:mcts:warp=9", ["no parameter 'warp'", "depth: a whole number from 0 to 50",
                         "c: a number from 0 to 10"]),
    ("bot:random:depth=3", ["no parameter 'depth'", "allowed: none"]),
    ("bot:greedy:caution=1e300", ["caution", "from -100 to 100"]),
])
def test_bot_parameters_are_checked_with_their_ranges(http, spec, words):
    """Before, `depth=1e9` and `c=1e308` were stored and searched with."""
    body = refused(http.post("/api/games", json={"game": "grand_bazaar",
                                                 "options": {"num_players": 2},
                                                 "seats": ["taken", spec]}), 422, *words)
    assert body["error"] == "bad_seats"
    assert http.get("/api/games").json() == []


def test_bot_parameters_in_range_are_taken(http):
    made = http.post("/api/games", json={"game": "grand_bazaar", "options": {"num_players": 2},
                                         "seats": ["taken", "bot:mcts:depth=3.0,c=0.5,time=1"]})
    assert made.status_code == 201, made.text
    assert made.json()["seats"][1]["kind"] == "bot"


# --- a newer database --------------------------------------------------------------------------

def test_a_database_of_a_newer_schema_stops_the_server_with_one_line(tmp_path):
    """Before, the server printed Alembic's traceback ("Can't locate revision")."""
    url = f"sqlite:///{tmp_path / 'newer.db'}"
    engine = make_engine(url)
    upgrade(engine)
    with engine.begin() as db:
        db.execute(text("UPDATE alembic_version SET version_num = '0099'"))
    engine.dispose()
    done = subprocess.run(
        [sys.executable, "-c", "from tlatelolco.cli.app import main; main()", "serve",
         "--host", "127.0.0.1", "--port", str(free_port()), "--db", url,
         "--log-level", "warning"],
        capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert done.returncode != 0
    errors = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(errors) == 1, done.stderr
    newest = ScriptDirectory(str(MIGRATIONS)).get_current_head()
    assert "0099" in errors[0] and f"newest is {newest}" in errors[0]
    assert "upgrade Tlatelolco" in errors[0]
    assert "Traceback" not in done.stderr + done.stdout


def test_the_game_page_sends_the_seat_it_holds_when_claiming(browser, server, http):
    """The page claims with the credential this browser holds, so its own invite link to a
    second Axio seat is refused and stays good for a friend."""
    created = http.post("/api/games", json={"game": "axio", "options": {"num_players": 2},
                                            "seats": ["taken", "open"]}).json()
    gid, mine, invite = created["id"], created["seats"][0]["token"], created["seats"][1]["invite"]
    context = browser.new_context(viewport={"width": 1360, "height": 900})
    problems: list[str] = []
    page = context.new_page()
    page.on("pageerror", lambda err: problems.append(str(err)))
    seated = ("() => { const v = window.TlatelolcoPage && window.TlatelolcoPage.view;"
              " return v && v.viewer === 0; }")
    page.goto(f"{server.url}/games/{gid}#token={mine}")  # the seat this browser holds
    page.wait_for_function(seated, timeout=20_000)
    page.goto(f"{server.url}/games/{gid}#invite={invite}")  # then its own invite link
    page.wait_for_function(seated, timeout=20_000)
    page.fill("#claim-name", "Again")
    page.click("#claim-button")
    page.wait_for_selector("#claim .claim-refused", timeout=20_000)
    assert "you hold seat 1" in page.locator("#claim .claim-refused").text_content()
    assert http.get(f"/api/games/{gid}").json()["seats"][1]["kind"] == "open"
    assert problems == []
    context.close()
