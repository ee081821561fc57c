"""Friends: an account's own list (login needed, writes from this site only), their open
tables, and the limits."""

from __future__ import annotations

import pytest
from tests.web.apps import serve
from tests.web.social_helpers import create, join, person

from tlatelolco.web.accounts import users
from tlatelolco.web.http.limits import RateLimits
from tlatelolco.web.social.friends import MAX_FRIENDS


@pytest.fixture
def client(tmp_path):
    with serve(tmp_path) as c:
        yield c


def friends(client, who):
    response = client.get("/api/friends", headers=who)
    assert response.status_code == 200, response.text
    return response.json()


def test_friends_need_a_login(client):
    client.headers["origin"] = "http://testserver"
    for method, url, body in (("GET", "/api/friends", None),
                              ("POST", "/api/friends", {"name": "Ana"}),
                              ("DELETE", "/api/friends/Ana", None)):
        response = client.request(method, url, json=body)
        assert response.status_code == 401, (method, response.text)
        assert response.json()["error"] == "login_needed"
    stale = {"Cookie": "tlatelolco_session=" + "x" * 43}
    assert client.get("/api/friends", headers=stale).status_code == 401


def test_adding_listing_and_removing_friends(client):
    ana, bea, _ = person(client, "Ana"), person(client, "Bea"), person(client, "Cid")
    assert friends(client, ana) == {"friends": [], "tables": []}
    added = client.post("/api/friends", headers=ana, json={"name": "bea"})  # any capitals
    assert added.status_code == 201 and added.json()["friends"] == [{"name": "Bea"}]
    again = client.post("/api/friends", headers=ana, json={"name": "BEA"})
    assert again.status_code == 200 and again.json()["friends"] == [{"name": "Bea"}]
    client.post("/api/friends", headers=ana, json={"name": "Cid"})
    assert [f["name"] for f in friends(client, ana)["friends"]] == ["Bea", "Cid"]
    assert client.get("/api/players/Bea", headers=ana).json()["friend"] is True
    # one-sided, like following: Bea has not added Ana
    assert client.get("/api/players/Ana", headers=bea).json()["friend"] is False
    gone = client.delete("/api/friends/Ana", headers=bea)
    assert gone.status_code == 404 and gone.json()["error"] == "not_a_friend"
    removed = client.delete("/api/friends/bea", headers=ana)
    assert removed.status_code == 200 and removed.json()["friends"] == [{"name": "Cid"}]
    assert client.delete("/api/friends/Bea", headers=ana).status_code == 404


def test_one_accounts_friends_are_not_in_anothers_answers(client):
    ana, bea = person(client, "Ana"), person(client, "Bea")
    person(client, "Cid")
    client.post("/api/friends", headers=ana, json={"name": "Cid"})
    assert friends(client, bea)["friends"] == []
    assert "Cid" not in str(client.get("/api/players/Ana", headers=bea).json())


def test_refusals_say_what_is_wrong(client):
    ana = person(client, "Ana")
    cases = [({"name": "Nobody"}, 404, "unknown_player"),
             ({"name": "ana"}, 422, "own_name"),
             ({"name": ""}, 422, "malformed"),
             ({"name": "x" * 41}, 422, "malformed"),
             ({"name": 3}, 422, "malformed"),
             ({"name": ["Ana"]}, 422, "malformed"),
             ({"name": "Bea", "admin": True}, 422, "malformed"),
             ({}, 422, "malformed")]
    for body, status, code in cases:
        response = client.post("/api/friends", headers=ana, json=body)
        assert (response.status_code, response.json()["error"]) == (status, code), body
    raw = client.post("/api/friends", headers={**ana, "Content-Type": "application/json"},
                      content=b"{not json")
    assert raw.status_code == 422
    assert client.delete("/api/friends/" + "x" * 41, headers=ana).status_code == 422
    assert client.delete("/api/friends/Nobody", headers=ana).json()["error"] == "unknown_player"


def test_cookie_writes_from_another_site_are_refused(client):
    ana = person(client, "Ana")
    person(client, "Bea")
    for origin in ("https://evil.example", "http://testserver.evil.example", "null"):
        response = client.post("/api/friends", json={"name": "Bea"},
                               headers={**ana, "Origin": origin})
        assert response.status_code == 403 and response.json()["error"] == "cross_site"
    del client.headers["origin"]
    response = client.delete("/api/friends/Bea", headers=ana)  # no Origin at all
    assert response.status_code == 403
    assert friends(client, ana)["friends"] == []


def test_friends_open_tables(client):
    ana, bea, cid = person(client, "Ana"), person(client, "Bea"), person(client, "Cid")
    client.post("/api/friends", headers=ana, json={"name": "Bea"})
    open_game = create(client, bea, "axio", ["taken", "open", "open"], num_players=3)
    unlisted = client.post("/api/games", headers=bea, json={
        "game": "axio", "options": {"num_players": 2}, "seats": ["taken", "open"],
        "listed": False}).json()
    running = create(client, bea, "axio", ["taken", "open"], num_players=2)
    join(client, cid, running["id"], 1)
    strangers = create(client, cid, "axio", ["taken", "open"], num_players=2)
    tables = friends(client, ana)["tables"]
    assert [t["id"] for t in tables] == [open_game["id"]]
    assert tables[0]["friends"] == ["Bea"] and tables[0]["status"] == "open"
    assert unlisted["id"] not in str(tables) and strangers["id"] not in str(tables)
    assert "token" not in str(tables) and "invite" not in str(tables)
    # a disabled friend's tables go with them
    engine = client.app.state.hub.service.store.engine
    users.set_disabled(engine, users.find(engine, "Bea").id, True)
    assert friends(client, ana) == {"friends": [], "tables": []}


def test_an_account_has_at_most_so_many_friends(client):
    ana = person(client, "Ana")
    engine = client.app.state.hub.service.store.engine
    for n in range(MAX_FRIENDS + 1):
        users.create(engine, f"Friend {n}", "not a password hash")
    for n in range(MAX_FRIENDS):
        assert client.post("/api/friends", headers=ana,
                           json={"name": f"Friend {n}"}).status_code == 201
    over = client.post("/api/friends", headers=ana, json={"name": f"Friend {MAX_FRIENDS}"})
    assert over.status_code == 409 and over.json()["error"] == "too_many_friends"
    assert len(friends(client, ana)["friends"]) == MAX_FRIENDS


def test_friend_changes_are_rate_limited(tmp_path):
    with serve(tmp_path, rate_limits=RateLimits(joins=3, logins=0, name_logins=0,
                                                signups=0)) as client:
        ana = person(client, "Ana")
        answers = [client.post("/api/friends", headers=ana, json={"name": "Nobody"}).status_code
                   for _ in range(4)]
        assert answers == [404, 404, 404, 429]
