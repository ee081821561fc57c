"""Issue 35, accounts attacked: cross-site writes with the cookie, a foreign page's WebSocket,
guessing passwords and names (rate limits, against a real server process), and the password
kept out of logs, answers and the database."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from tests.web.accounts import ORIGIN, PASSWORD, login, same_origin, signup
from tests.web.apps import auth, create, serve

from tlatelolco.web.accounts.identity import SESSION_COOKIE

FOREIGN = "https://evil.example"
UNSAFE = {"POST", "PUT", "PATCH", "DELETE"}


@pytest.fixture
def client(tmp_path) -> Iterator[TestClient]:
    with serve(tmp_path) as client:
        yield client


def unsafe_routes(client: TestClient, game_id: str) -> list[tuple[str, str]]:
    """(method, path) of every write the application documents, whoever added it, with a
    real game's id in it."""
    found = []
    for template, operations in client.app.openapi()["paths"].items():
        path = template.replace("{game_id}", game_id).replace("{step}", "0")
        while "{" in path:
            start, end = path.index("{"), path.index("}")
            path = path[:start] + "someone" + path[end + 1:]
        found += [(method.upper(), path) for method in sorted(operations)
                  if method.upper() in UNSAFE]
    return found


# --- cross-site request forgery ----------------------------------------------------------------

def test_every_cookie_write_needs_this_servers_origin(client):
    signup(client, "Ana")
    game = create(client, "grand_bazaar", ["taken", "open"], num_players=2)
    routes = unsafe_routes(client, game["id"])
    assert len(routes) >= 12 and ("POST", f"/api/games/{game['id']}/actions") in routes
    assert ("POST", "/api/account/logout") in routes
    forged = [{}, {"origin": FOREIGN}, {"origin": "null"}, {"origin": "http://testserver.evil"},
              {"origin": "http://testserver:8080"}, {"origin": "https://testserver"},
              {"referer": f"{FOREIGN}/games/x"},
              {"origin": ORIGIN, "sec-fetch-site": "cross-site"}]
    del client.headers["origin"]
    session = client.cookies[SESSION_COOKIE]
    for method, path in routes:
        client.cookies.set(SESSION_COOKIE, session)  # a logout on the way cleared it
        for headers in forged:
            response = client.request(method, path, headers=headers, json={})
            assert response.status_code == 403, (method, path, headers, response.text)
            assert response.json()["error"] == "cross_site", (method, path, headers)
            assert "Origin" in response.json()["message"]
            assert "content-security-policy" in response.headers  # Guard's headers too
        for headers in ({"origin": ORIGIN}, {"referer": f"{ORIGIN}/games/x"},
                        {"origin": "HTTP://TESTSERVER:80", "sec-fetch-site": "same-origin"}):
            response = client.request(method, path, headers=headers, json={})
            assert response.json().get("error") != "cross_site", (method, path, headers)
            client.cookies.set(SESSION_COOKIE, session)
    client.cookies.clear()
    login(client, "Ana")
    assert client.get("/api/account", headers={"origin": FOREIGN}).json()["user"]  # reads pass
    response = client.post("/api/games", headers={"origin": ORIGIN}, json={
        "game": "grand_bazaar", "options": {"num_players": 2}, "seats": ["taken", "bot:random"]})
    assert response.status_code == 201 and response.json()["seats"][0]["name"] == "Ana"


def test_programs_with_a_credential_and_no_cookie_are_not_concerned(client):
    """No cookie, no Origin: a bot script with its seat's credential plays on; and no page
    of another site can log a visitor in (the account routes check a foreign Origin even
    without a cookie)."""
    made = client.post("/api/games", json={"game": "grand_bazaar", "options": {
        "num_players": 2}, "seats": ["taken", "bot:random"]})
    assert made.status_code == 201
    gid, token = made.json()["id"], made.json()["seats"][0]["token"]
    seen = client.get(f"/api/games/{gid}/view", headers=auth(token)).json()
    moved = client.post(f"/api/games/{gid}/actions", headers={**auth(token), "origin": FOREIGN},
                        json={"version": seen["version"], "action": seen["legal"][0]["id"]})
    assert moved.status_code == 200, moved.text
    made = client.post("/api/account/signup", json={"name": "Ana", "password": PASSWORD})
    assert made.status_code == 201  # a program, no Origin: allowed
    client.cookies.clear()
    for path, body in (("login", {"name": "Ana", "password": PASSWORD}),
                       ("signup", {"name": "Bea", "password": PASSWORD})):
        forced = client.post(f"/api/account/{path}", headers={"origin": FOREIGN}, json=body)
        assert forced.status_code == 403 and forced.json()["error"] == "cross_site"
        assert SESSION_COOKIE not in forced.headers.get("set-cookie", "")


def test_a_foreign_pages_websocket_does_not_get_the_accounts_seat(client):
    signup(client, "Ana")
    gid = create(client, "axio", ["taken", "open"], num_players=2)["id"]
    del client.headers["origin"]
    for headers, viewer in (({"origin": FOREIGN}, None), ({}, None),
                            ({"origin": "http://testserver.evil"}, None),
                            ({"origin": ORIGIN}, 0)):
        with client.websocket_connect(f"/ws/games/{gid}", headers=headers) as ws:
            ws.send_json({"type": "hello", "token": None})
            first = ws.receive_json()
            assert first["type"] == "view" and first["viewer"] == viewer, headers
            if viewer is None:
                assert first["observation"].get("hand") is None  # not her hidden tile
                ws.send_json({"type": "action", "version": first["version"], "action": 0})
                refused = ws.receive_json()
                assert refused["type"] == "error" and refused["status"] == 401


# --- guessing, on a real server process --------------------------------------------------------

def from_address(address: str, proto: str = "http") -> dict[str, str]:
    """Headers of a request a trusted proxy forwarded from `address`."""
    return {"X-Forwarded-For": address, "X-Forwarded-Proto": proto}


def attempt(http: httpx.Client, address: str, name: str, password: str,
            path: str = "login") -> httpx.Response:
    return http.post(f"/api/account/{path}", headers=from_address(address),
                     json={"name": name, "password": password})


def test_logins_and_signups_are_rate_limited_per_address_and_per_name(servers, tmp_path):
    server = servers(f"sqlite:///{tmp_path / 'limits.db'}",
                     limits="logins=3,name_logins=4,signups=2",
                     args=("--forwarded-allow-ips", "127.0.0.1"))
    with same_origin(httpx.Client(base_url=server.url, timeout=30), server.url) as http:
        made = [attempt(http, "198.51.100.1", name, PASSWORD, "signup")
                for name in ("Ana", "Bea", "Cara")]
        assert [r.status_code for r in made] == [201, 201, 429]
        assert int(made[2].headers["retry-after"]) > 60  # five an hour: a slow refill
        assert "at most 2 an hour" in made[2].json()["message"]
        http.cookies.clear()
        assert attempt(http, "198.51.100.2", "Cara", PASSWORD, "signup").status_code == 201
        http.cookies.clear()

        tries = [attempt(http, "198.51.100.3", "Ana", "wrong guess") for _ in range(4)]
        assert [r.status_code for r in tries] == [401, 401, 401, 429]
        assert 1 <= int(tries[3].headers["retry-after"]) <= 60
        assert tries[3].json()["error"] == "rate_limited"

        # one name from many addresses: 4 an hour, then even the right password waits
        spread = [attempt(http, f"203.0.113.{i}", "BEA", "wrong guess") for i in range(4)]
        assert [r.status_code for r in spread] == [401] * 4
        blocked = attempt(http, "203.0.113.99", "bea", PASSWORD)
        assert blocked.status_code == 429 and "logins to that account" in blocked.text
        assert int(blocked.headers["retry-after"]) > 60
        nobody = [attempt(http, f"192.0.2.{i}", "Nobody", "guess") for i in range(5)]
        assert [r.status_code for r in nobody] == [401] * 4 + [429]  # names without accounts too
        assert attempt(http, "203.0.113.99", "Cara", PASSWORD).status_code == 200
        assert http.get("/healthz").status_code == 200


def test_the_cookie_is_secure_behind_a_tls_proxy(servers, tmp_path):
    server = servers(f"sqlite:///{tmp_path / 'tls.db'}",
                     args=("--forwarded-allow-ips", "127.0.0.1"))
    with httpx.Client(base_url=server.url, timeout=30) as http:
        made = http.post("/api/account/signup", headers=from_address("198.51.100.1", "https"),
                         json={"name": "Ana", "password": PASSWORD})
        assert made.status_code == 201
        cookie = made.headers["set-cookie"]
        assert "; Secure" in cookie and "HttpOnly" in cookie and "SameSite=lax" in cookie
        session = cookie.split(";")[0]
        proxied = {**from_address("198.51.100.1", "https"), "cookie": session,
                   "host": "games.example"}
        ok = http.post("/api/account/logout",
                       headers={**proxied, "origin": "https://games.example"})
        assert ok.status_code == 200
        plain = http.post("/api/account/logout",  # the page was https; http is another origin
                          headers={**proxied, "origin": "http://games.example"})
        assert plain.status_code == 403


# --- the password kept secret ------------------------------------------------------------------

SECRET = "Zebra-Quartz-0xC0FFEE"  # a password nobody else would write


def test_the_password_is_in_no_answer_and_no_log_line(client, caplog):
    caplog.set_level(logging.DEBUG)
    said: list[str] = []

    def keep(response: Any) -> Any:
        said.append(response.text + str(response.headers))
        return response

    same_origin(client)
    keep(client.post("/api/account/signup", json={"name": "Ana", "password": SECRET}))
    keep(client.post("/api/account/login", json={"name": "Ana", "password": SECRET + "x"}))
    keep(client.post("/api/account/login", json={"name": "Ana", "password": SECRET}))
    keep(client.post("/api/account/login", json={"name": "Ana", "password": SECRET * 10}))
    keep(client.post("/api/account/login", json={"name": SECRET, "password": 5}))
    keep(client.get("/api/account"))
    keep(client.post("/api/account/password", json={"old": SECRET, "new": SECRET[::-1]}))
    keep(client.post("/api/account/password", json={"old": SECRET, "new": SECRET}))
    keep(client.post("/api/account/signup", json={"name": "Bea", "password": "Bea"}))
    assert len(said) == 9 and all(SECRET not in text and SECRET[::-1] not in text
                                  for text in said)
    assert all(SECRET not in record.getMessage() for record in caplog.records)


def test_a_real_server_logs_no_password_and_stores_none(servers, tmp_path):
    """The access log at level info, every line of it, and the database's bytes."""
    db = tmp_path / "secret.db"
    server = servers(f"sqlite:///{db}", args=("--log-level", "info"))
    with httpx.Client(base_url=server.url, timeout=30) as http:
        same_origin(http, server.url)
        assert http.post("/api/account/signup", json={"name": "Ana",
                                                      "password": SECRET}).status_code == 201
        assert http.post("/api/account/login", json={"name": "Ana",
                                                     "password": SECRET[:-1]}).status_code == 401
        assert http.post("/api/account/login", json={"name": "Ana",
                                                     "password": SECRET}).status_code == 200
    server.stop()
    log = (tmp_path / "server.log").read_text()
    assert "POST /api/account/login" in log  # the access log was on
    assert SECRET not in log and SECRET[:-1] not in log
    stored = b"".join(p.read_bytes() for p in Path(tmp_path).glob("secret.db*"))
    assert b"$argon2id$" in stored and SECRET.encode() not in stored
