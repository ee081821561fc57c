"""Issue 21, hostile requests in process: every field typed and capped, every malformed input
a clear 4xx that changes nothing, rates per client, security headers, abandoned games.

The same findings against a real server process (slow headers, huge bodies, a killed server's
workers, two servers on one file) are in test_security.py.
"""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import update
from tests.web.apps import auth, create, serve, view

from tlatelolco.web.http.limits import CSP, RateLimits
from tlatelolco.web.storage.db import games
from tlatelolco.web.storage.store import now


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    with serve(tmp_path_factory.mktemp("limits")) as client:
        yield client


def new_game(client, **fields):
    body = {"game": "grand_bazaar", "options": {"num_players": 2}, **fields}
    return client.post("/api/games", json=body)


def refused(response, status=422, *words):
    assert response.status_code == status, response.text
    error = response.json()
    assert error["status"] == status and error["error"] and error["message"], error
    for word in words:
        assert word in error["message"], error
    return error


# --- types and lengths ---------------------------------------------------------------------

@pytest.mark.parametrize("bad", ["3", 1.0, True, None, [1], {"n": 1}])
def test_versions_and_actions_are_strictly_typed_over_http(client, bad):
    """Issue 21 (11): the WebSocket refused "3", 1.0 and true; HTTP now refuses them too."""
    game = create(client, "grand_bazaar", ["taken", "taken"], num_players=2)
    token, path = game["seats"][0]["token"], f"/api/games/{game['id']}/actions"
    before = view(client, game["id"], token)["version"]
    for body in ({"version": bad, "action": 0}, {"version": before, "action": bad}):
        if body["action"] is None:
            continue
        refused(client.post(path, json=body, headers=auth(token)), 422)
    assert view(client, game["id"], token)["version"] == before


@pytest.mark.parametrize(("options", "words"), [
    ({"self": 1}, ["unknown option 'self'", "allowed options"]),
    ({"cls": 1}, ["unknown option 'cls'"]),
    ({"x" * 33: 1}, ["options"]),
    ({"num_players": {"nested": [1, 2]}}, ["options"]),
    ({"num_players": 2.0}, ["num_players", "whole number"]),  # issue 33 (5): its type named
    ({"num_players": "2" * 65}, ["options"]),
    ({f"o{i}": 1 for i in range(17)}, ["options"]),
])
def test_option_keys_and_values_are_checked_before_any_work(client, options, words):
    """Issue 21 (8): option key `self` was a 500."""
    refused(client.post("/api/games", json={"game": "grand_bazaar", "options": options}),
            422, *words)


@pytest.mark.parametrize("path", ["/dev/zero", "/etc/passwd", "/nonexistent/tiles.json",
                                  "../../etc/passwd", "tiles.json"])
def test_axio_tiles_are_a_built_in_name_over_the_web_never_a_path(client, path):
    """Issue 21 (5): /dev/zero grew the server by gigabytes, a FIFO blocked the writer, and
    the messages told whether a path exists. Every path gets the same answer, at once."""
    error = refused(client.post("/api/games", json={"game": "axio",
                                                    "options": {"tiles": path}}), 422)
    message = error["message"].replace(repr(path), "PATH").replace(repr(path[:40]), "PATH")
    assert "'default'" in message
    assert message == refused(client.post("/api/games", json={
        "game": "axio", "options": {"tiles": "/dev/null"}}), 422)["message"].replace(
            "'/dev/null'", "PATH")
    assert create(client, "axio", ["taken", "bot:random"], num_players=2, tiles="default")


@pytest.mark.parametrize("name", ["Ana\x00", "Ana\x1b[31m", "\u202eanA", "A\u200bna",
                                  "Ana\x7f", "x" * 41, "", "   "])
def test_names_are_one_tidy_line(client, name):
    """Issue 21 (8): names kept control characters (terminal escapes, bidi overrides)."""
    refused(new_game(client, name=name), 422, "name")
    assert new_game(client, name="  Ana \t María\n").json()["seats"][0]["name"] == "Ana María"


@pytest.mark.parametrize(("spec", "words"), [
    ("bot:mcts:time=inf", ["time"]),
    ("bot:mcts:time=nan", ["time"]),
    ("bot:mcts:time=-1", ["time"]),
    ("bot:mcts:iterations=0", ["iterations"]),
    ("bot:mcts:iterations=10" + ",time=1" * 10, ["64 characters"]),  # 88 for a String(64)
])
def test_bot_specs_are_bounded(client, spec, words):
    """Issue 21 (7, 8): `time=inf` pinned the bot worker for good; 90 characters went into a
    64-character column."""
    refused(new_game(client, seats=["taken", spec]), 422, *words)


def test_bot_budgets_above_the_limit_are_cut_to_it(client):
    game = new_game(client, seats=["taken", "bot:mcts:time=1e9,iterations=1e11"]).json()
    assert game["seats"][1]["kind"] == "bot"
    bot = view(client, game["id"])["players"][1]["bot"]
    assert bot == "mcts:time=10.0,iterations=100000", bot


def test_a_body_over_the_limit_is_refused_before_it_is_read(client):
    """Issue 21 (8): a 200 MB body took the server to 676 MB."""
    big = b'{"game": "grand_bazaar", "name": "' + b"x" * 70_000 + b'"}'
    refused(client.post("/api/games", content=big,
                        headers={"Content-Type": "application/json"}), 413, "bytes")

    def chunks():  # no Content-Length: counted as it comes
        for _ in range(100):
            yield b"x" * 10_000

    refused(client.post("/api/games", content=chunks(),
                        headers={"Content-Type": "application/json"}), 413)


@pytest.mark.parametrize("raw", [
    '{"game": "grand_bazaar", "options": {"a": ' + "[" * 3000 + "]" * 3000 + "}}",
    "[" * 30_000, '{"game": ', "\xff\xfe", '{"game": "axio", "options": NaN}'])
def test_broken_or_deeply_nested_json_is_a_4xx(client, raw):
    response = client.post("/api/games", content=raw,
                           headers={"Content-Type": "application/json"})
    assert response.status_code in (400, 422), response.text
    assert response.json()["message"]


st_option_name = st.sampled_from(["num_players", "tiles", "setup", "removed", "luck", "self",
                                  "cls", "__class__", "options", "", "kwargs"]) | st.text(
    max_size=40)
st_option_value = (st.none() | st.booleans() | st.integers(-10**30, 10**30)
                   | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=80)
                   | st.sampled_from(["/dev/zero", "/etc/passwd", "default", "random",
                                      "build", "{}", "."])
                   | st.lists(st.integers(), max_size=3)
                   | st.dictionaries(st.text(max_size=5), st.integers(), max_size=2))


@given(game=st.sampled_from(["axio", "aztec_market", "grand_bazaar", "mexica", "chess", ""]),
       options=st.dictionaries(st_option_name, st_option_value, max_size=5))
@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck),
          database=None)
def test_any_options_get_a_game_or_a_clear_4xx_never_a_500(client, game, options):
    """The contents of `options`, generated: the server answers 201 or a 4xx JSON error."""
    response = client.post("/api/games", json={"game": game, "options": options,
                                               "seats": None})
    assert response.status_code in (201, 422), response.text
    body = response.json()
    if response.status_code == 422:
        assert body["error"] and len(body["message"]) < 1000, body


# --- headers -------------------------------------------------------------------------------

@pytest.mark.parametrize("path", ["/", "/games/abc", "/games/abc/replay", "/api/catalog",
                                  "/api/games/nothing", "/static/lobby.js", "/rules/axio",
                                  "/healthz", "/nowhere"])
def test_every_response_carries_the_security_headers(client, path):
    """Issue 21 (11): a CSP without inline script that forbids framing, nosniff, a
    Referrer-Policy."""
    headers = client.get(path).headers
    csp = headers["content-security-policy"]
    assert csp == CSP and "script-src 'self'" in csp and "unsafe-inline" not in csp.split(
        "script-src")[1].split(";")[0]
    assert "frame-ancestors 'none'" in csp
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == "no-referrer"


def test_no_page_loads_scripts_from_elsewhere_or_inline(client):
    """The CSP allows only the server's own scripts: the pages must need nothing else (the
    API docs pages loaded Swagger from a CDN: they are off; the schema stays)."""
    assert client.get("/docs").status_code == 404 and client.get("/redoc").status_code == 404
    assert client.get("/openapi.json").status_code == 200
    for page in ("/", "/games/abc"):
        html = client.get(page).text
        assert "<script>" not in html and " on" not in html.replace("\n", " ").split(
            "<body")[1].split(">")[0]
        assert "http://" not in html and "https://" not in html


# --- rates and expiry ----------------------------------------------------------------------

def test_creates_joins_and_hints_are_limited_per_client(tmp_path):
    """Issue 21 (9): 2,000 anonymous creates in two minutes pushed every game out of the
    lobby."""
    limits = RateLimits(creates=3, joins=2, hints=1, sockets=2)
    with serve(tmp_path, rate_limits=limits) as client:
        made = [new_game(client, seats=["taken", "open"]) for _ in range(3)]
        assert all(r.status_code == 201 for r in made)
        over = new_game(client)
        error = refused(over, 429, "at most 3 a minute")
        assert int(over.headers["retry-after"]) >= 1 and error["retry_after"] >= 1
        gid = made[0].json()["id"]
        assert client.post(f"/api/games/{gid}/join", json={}).status_code == 200
        joins = [client.post(f"/api/games/{made[1].json()['id']}/join", json={})
                 for _ in range(2)]
        assert [r.status_code for r in joins] == [200, 429]
        with client.websocket_connect(f"/ws/games/{gid}") as ws:
            ws.send_json({"type": "hello", "token": None})
            assert ws.receive_json()["type"] == "view"
        with client.websocket_connect(f"/ws/games/{gid}") as ws:
            ws.send_json({"type": "hello", "token": None})
        with client.websocket_connect(f"/ws/games/{gid}") as ws:
            assert ws.receive_json()["status"] == 429
    assert RateLimits.parse("creates=5, hints=0") == RateLimits(creates=5, hints=0)
    for bad in ("creates", "creates=-1", "games=3", "creates=1e9"):
        with pytest.raises(ValueError, match="KIND=N"):
            RateLimits.parse(bad)


def test_abandoned_games_are_deleted_and_finished_ones_kept(tmp_path):
    """Issue 21 (9): unfinished games nobody moved for `expire_after` leave the lobby and the
    database; finished games are records and stay."""
    with serve(tmp_path) as client:
        hub = client.app.state.hub
        old = create(client, "grand_bazaar", ["taken", "open"], num_players=2)["id"]
        fresh = create(client, "grand_bazaar", ["taken", "open"], num_players=2)["id"]
        done = create(client, "grand_bazaar", ["taken", "open"], num_players=2)["id"]
        store = hub.service.store
        with store.engine.begin() as db:
            db.execute(update(games).where(games.c.id == done).values(status="finished"))
            db.execute(update(games).where(games.c.id.in_([old, done])).values(
                updated_at=now() - dt.timedelta(days=30)))
        assert hub.service.expire(14 * 86_400.0) == [old]
        assert client.get(f"/api/games/{old}").status_code == 404
        assert client.get(f"/api/games/{fresh}").status_code == 200
        assert store.load_game(done) is not None
        assert store.load_seats(old) == [] and store.steps_since(old, 0) == (-1, [])  # cascaded
        listed = [g["id"] for g in client.get("/api/games").json()]
        assert old not in listed and fresh in listed
