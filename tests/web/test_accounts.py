"""Issue 35, accounts: sign up, log in and out, sessions, settings, seats that follow the
account from device to device, guest seats attached to it, and its list of games."""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, update
from tests.web.accounts import PASSWORD, login, same_origin, signup
from tests.web.apps import auth, claim, create, live_server, serve, view

from tlatelolco.web.accounts.identity import SESSION_COOKIE
from tlatelolco.web.storage.db import games, sessions, users


@pytest.fixture
def client(tmp_path) -> Iterator[TestClient]:
    with serve(tmp_path) as client:
        yield client


def engine(client: TestClient) -> Any:
    return client.app.state.hub.service.store.engine


def session_cookie(client: TestClient) -> str:
    return str(client.cookies[SESSION_COOKIE])


def use_session(client: TestClient, session_id: str | None) -> TestClient:
    """Make `client` the browser holding `session_id` (None: no cookie at all)."""
    client.cookies.clear()
    if session_id is not None:
        client.cookies.set(SESSION_COOKIE, session_id)
    return client


def me(client: TestClient) -> dict[str, Any] | None:
    response = client.get("/api/account")
    assert response.status_code == 200, response.text
    return response.json()["user"]


def seats_of(client: TestClient, game_id: str) -> list[Any]:
    return client.app.state.hub.service.store.load_seats(game_id)


# --- sign up, log in, log out ----------------------------------------------------------------

def test_signing_up_logs_in_with_a_strict_cookie_and_stores_only_an_argon2id_hash(client):
    response = same_origin(client).post("/api/account/signup", json={
        "name": "Ana", "password": PASSWORD, "email": "ana@example.org", "lang": "es"})
    assert response.status_code == 201, response.text
    user = response.json()["user"]
    assert set(user) == {"id", "name", "email", "email_verified", "lang", "notify_email",
                         "notify_push", "created_at"}
    assert (user["name"], user["email"], user["lang"]) == ("Ana", "ana@example.org", "es")
    assert user["email_verified"] is False  # until the link mailed to it is opened
    assert dt.datetime.fromisoformat(user["created_at"]).utcoffset() == dt.timedelta(0)
    cookie = response.headers["set-cookie"]
    flags = {part.strip().split("=")[0].lower() for part in cookie.split(";")}
    assert {"httponly", "path", "samesite", "max-age"} <= flags and "secure" not in flags
    assert "Path=/;" in cookie + ";" and "samesite=lax" in cookie.lower()
    assert me(client) == user
    with engine(client).connect() as db:
        stored, = db.execute(select(users.c.password_hash)).scalars()
        kept = db.execute(select(sessions.c.id_hash)).scalars().all()
    assert stored.startswith("$argon2id$") and PASSWORD not in stored
    assert kept and session_cookie(client) not in kept  # only the id's hash is stored


def test_a_guest_is_told_null_never_401(client):
    assert me(client) is None
    use_session(client, "not-a-session")
    response = client.get("/api/account")
    assert response.status_code == 200 and response.json() == {"user": None,
                                                               "mail_server": False}
    assert SESSION_COOKIE in response.headers.get("set-cookie", "")  # the stale one cleared
    for path in ("/api/account/games",):
        refused = client.get(path)
        assert refused.status_code == 401 and refused.json()["error"] == "login_needed"


def test_every_failed_login_gets_the_same_answer_after_the_same_work(client):
    """An unknown name, a wrong password and a disabled account: one 401 body, and each
    verifies an argon2id hash (the unknown name a dummy one), so neither the answer nor the
    time it takes tells which names have accounts."""
    signup(client, "Ana")
    signup(client, "Bea")
    with engine(client).begin() as db:
        db.execute(update(users).where(users.c.name == "Bea").values(disabled=True))
    use_session(client, None)
    tries = {"unknown": ("Nobody", PASSWORD), "wrong": ("Ana", "not the password"),
             "disabled": ("Bea", PASSWORD)}
    answers, work = {}, {}
    for kind, (name, password) in tries.items():
        costs = []
        for _ in range(3):
            start = time.process_time()  # CPU time of every thread: the hashing's, not the wait
            response = client.post("/api/account/login", json={"name": name,
                                                                "password": password})
            costs.append(time.process_time() - start)
            answers.setdefault(kind, set()).add((response.status_code, response.text))
        work[kind] = min(costs)
    assert len({frozenset(a) for a in answers.values()}) == 1
    (status, text), = answers["unknown"]
    assert status == 401 and '"error":"bad_login"' in text.replace(" ", "")
    assert "wrong name or password" in text
    assert work["unknown"] > 0.5 * work["wrong"] and work["disabled"] > 0.5 * work["wrong"]
    assert login(client, "ana")["name"] == "Ana"  # names in any capitals


def test_logging_out_ends_the_session_on_the_server(client):
    signup(client, "Ana")
    old = session_cookie(client)
    response = client.post("/api/account/logout")
    assert response.status_code == 200 and response.json() == {"user": None}
    assert 'tlatelolco_session=""' in response.headers["set-cookie"] or \
        "Max-Age=0" in response.headers["set-cookie"]
    use_session(client, old)  # a copy of the cookie kept somewhere
    assert me(client) is None
    assert client.get("/api/account/games").status_code == 401


def test_a_new_login_never_keeps_the_session_the_browser_had(client):
    signup(client, "Ana")
    first = session_cookie(client)
    login(client, "Ana")
    second = session_cookie(client)
    assert second != first
    assert me(use_session(client, first)) is None
    assert me(use_session(client, second))["name"] == "Ana"


def test_changing_the_password_logs_out_the_other_sessions(client):
    signup(client, "Ana")
    laptop = session_cookie(client)
    login(use_session(client, None), "Ana")
    phone = session_cookie(client)
    use_session(client, laptop)
    wrong = client.post("/api/account/password", json={"old": "not it at all",
                                                       "new": "a new passphrase"})
    assert wrong.status_code == 403 and wrong.json()["error"] == "wrong_password"
    assert me(use_session(client, phone))["name"] == "Ana"  # nothing changed
    use_session(client, laptop)
    changed = client.post("/api/account/password", json={"old": PASSWORD,
                                                         "new": "a new passphrase"})
    assert changed.status_code == 200, changed.text
    assert me(client)["name"] == "Ana"  # this session stays
    assert me(use_session(client, phone)) is None  # the other one is gone
    use_session(client, None)
    refused = client.post("/api/account/login", json={"name": "Ana", "password": PASSWORD})
    assert refused.status_code == 401
    login(client, "Ana", "a new passphrase")


def test_an_expired_session_is_refused(client):
    signup(client, "Ana")
    expired = session_cookie(client)
    with engine(client).begin() as db:
        db.execute(update(sessions).values(
            expires_at=dt.datetime.now(dt.UTC) - dt.timedelta(seconds=1)))
    assert me(client) is None
    game = create(use_session(client, expired), "grand_bazaar", ["taken", "bot:random"],
                  num_players=2)
    assert game["seats"][0]["name"] == "Player"  # a guest's seat: the session counted not


def test_a_disabled_accounts_sessions_are_refused_at_once(client):
    signup(client, "Ana")
    game = create(client, "grand_bazaar", ["taken", "bot:random"], num_players=2)
    assert view(client, game["id"])["viewer"] == 0  # by the cookie
    with engine(client).begin() as db:
        db.execute(update(users).values(disabled=True))
    assert me(client) is None
    assert view(client, game["id"])["viewer"] is None
    moved = client.post(f"/api/games/{game['id']}/actions", json={"version": 1, "action": 27})
    assert moved.status_code == 401


# --- settings ----------------------------------------------------------------------------------

def test_settings_change_only_what_is_sent(client):
    signup(client, "Ana")
    post = client.post
    user = post("/api/account/settings", json={"email": "ana@example.org",
                                              "notify_email": True}).json()["user"]
    assert (user["email"], user["notify_email"], user["notify_push"], user["lang"]) == (
        "ana@example.org", True, False, None)
    user = post("/api/account/settings", json={"lang": "es", "notify_push": True}).json()["user"]
    assert (user["email"], user["notify_email"], user["notify_push"], user["lang"]) == (
        "ana@example.org", True, True, "es")
    user = post("/api/account/settings", json={"email": None}).json()["user"]
    assert user["email"] is None and user["notify_email"] is False  # no address, no mails
    refused = post("/api/account/settings", json={"notify_email": True})
    assert refused.status_code == 422 and refused.json()["error"] == "no_email"
    assert me(client)["lang"] == "es"
    use_session(client, None)
    assert post("/api/account/settings", json={"lang": "en"}).status_code == 401


# --- an account's games ------------------------------------------------------------------------

def test_the_account_lists_its_unfinished_games_with_its_turn_first(client):
    signup(client, "Bea")
    bea = session_cookie(client)
    login(use_session(client, None), "Bea")
    use_session(client, None)
    signup(client, "Ana")
    ana = session_cookie(client)
    waiting = create(client, "grand_bazaar", ["taken", "open"], num_players=2)["id"]
    mine = create(client, "grand_bazaar", ["taken", "bot:random"], num_players=2)["id"]
    theirs = create(client, "grand_bazaar", ["open", "taken"], num_players=2)["id"]
    over = create(client, "grand_bazaar", ["taken", "bot:random"], num_players=2)["id"]
    with engine(client).begin() as db:
        db.execute(update(games).where(games.c.id == over).values(status="finished"))
    use_session(client, bea)
    assert client.post(f"/api/games/{theirs}/join", json={"seat": 0}).status_code == 200

    use_session(client, ana)
    listed = client.get("/api/account/games").json()
    assert listed["games"][0]["id"] == mine and listed["your_turn"] == 1
    assert {g["id"] for g in listed["games"]} == {waiting, mine, theirs}
    first = listed["games"][0]
    assert (first["my_seat"], first["your_turn"], first["deadline"]) == (0, True, None)
    assert first["seats"][0]["name"] == "Ana" and first["status"] == "running"
    assert dt.datetime.fromisoformat(first["updated_at"]).utcoffset() == dt.timedelta(0)
    others = {g["id"]: g for g in listed["games"][1:]}
    assert not others[theirs]["your_turn"] and others[theirs]["my_seat"] == 1
    assert not others[waiting]["your_turn"] and others[waiting]["status"] == "open"

    use_session(client, bea)
    hers = client.get("/api/account/games").json()
    assert [g["id"] for g in hers["games"]] == [theirs] and hers["your_turn"] == 1
    assert "ana@" not in str(hers)


# --- seats that follow the account -------------------------------------------------------------

def device(url: str) -> httpx.Client:
    """A browser of its own (its own cookie jar) on a real server."""
    return same_origin(httpx.Client(base_url=url, timeout=30.0), url)


def test_a_seat_follows_the_account_to_another_device(tmp_path):
    """Created logged in on the laptop, played from the phone by its cookie alone; a third
    account gets nothing; a guest's credential still works; a guest seat attached to an
    account is then played from another device too."""
    with live_server(tmp_path) as url:
        laptop, phone, stranger, guest, guest_phone = (device(url) for _ in range(5))
        signup(laptop, "Ana")
        made = laptop.post("/api/games", json={"game": "grand_bazaar",
                                               "options": {"num_players": 2},
                                               "seats": ["taken", "open"]}).json()
        gid = made["id"]
        bea = guest.post(f"/api/games/{gid}/claim", headers=auth(made["seats"][1]["invite"]),
                         json={"name": "Bea"}).json()["token"]
        login(phone, "Ana")
        seen = phone.get(f"/api/games/{gid}/view").json()
        assert seen["viewer"] == 0 and seen["players"][0]["name"] == "Ana"
        moved = phone.post(f"/api/games/{gid}/actions",
                           json={"version": seen["version"], "action": seen["legal"][0]["id"]})
        assert moved.status_code == 200, moved.text

        signup(stranger, "Cara")
        assert stranger.get(f"/api/games/{gid}/view").json()["viewer"] is None
        refused = stranger.post(f"/api/games/{gid}/actions", json={"version": 0, "action": 0})
        assert refused.status_code == 403 and refused.json()["error"] == "no_seat"
        assert stranger.post(f"/api/games/{gid}/leave").status_code == 403

        def play_as(client: httpx.Client, seat: int, headers: dict[str, str]) -> None:
            for _ in range(50):  # a turn may take several actions
                now = client.get(f"/api/games/{gid}/view", headers=headers).json()
                if now["viewer"] != seat or now["to_move"] != seat:
                    return
                response = client.post(f"/api/games/{gid}/actions", headers=headers, json={
                    "version": now["version"], "action": now["legal"][0]["id"]})
                assert response.status_code == 200, response.text

        play_as(phone, 0, {})
        assert guest.get(f"/api/games/{gid}/view", headers=auth(bea)).json()["to_move"] == 1
        signup(guest, "Bea")  # the guest's browser makes an account, and attaches her seat
        attached = guest.post("/api/account/attach", json={"game_id": gid, "token": bea})
        assert attached.status_code == 200 and attached.json() == {"game_id": gid, "seat": 1}
        login(guest_phone, "Bea")
        seen = guest_phone.get(f"/api/games/{gid}/view").json()
        assert seen["viewer"] == 1 and seen["players"][1]["name"] == "Bea"
        play_as(guest_phone, 1, {})  # by her cookie alone
        assert guest.get(f"/api/games/{gid}/view", headers=auth(bea)).json()["viewer"] == 1
        games_of_bea = guest_phone.get("/api/account/games").json()["games"]
        assert [g["id"] for g in games_of_bea] == [gid]
        for client in (laptop, phone, stranger, guest, guest_phone):
            client.close()


def test_attaching_moves_a_guest_seat_and_refusals_change_nothing(client):
    one = create(client, "grand_bazaar", ["taken", "open"], num_players=2)
    other = create(client, "grand_bazaar", ["taken", "taken"], num_players=2)
    guest, invite = one["seats"][0]["token"], one["seats"][1]["invite"]
    signup(client, "Ana")
    ana_game = create(client, "axio", ["taken", "open"], num_players=2)
    ana_token = ana_game["seats"][0]["token"]
    use_session(client, None)
    axio_guest = claim(client, ana_game, 1, "Guest")  # this browser, before logging in
    before = {gid: seats_of(client, gid) for gid in (one["id"], other["id"], ana_game["id"])}

    def attach(game_id: str, token: str) -> httpx.Response:
        return client.post("/api/account/attach", json={"game_id": game_id, "token": token})

    assert attach(one["id"], guest).status_code == 401  # no account
    signup(client, "Bea")
    refusals = [
        (one["id"], other["seats"][0]["token"], 403),  # another game's credential
        (one["id"], invite, 403),  # an invite is no seat
        (ana_game["id"], ana_token, 403),  # another account's seat
        ("nosuchgame", guest, 404),
    ]
    for game_id, token, status in refusals:
        response = attach(game_id, token)
        assert response.status_code == status, (game_id, response.text)
    login(client, "Ana")
    response = attach(ana_game["id"], axio_guest)  # Axio hides hands: one seat an account
    assert response.status_code == 409 and response.json()["error"] == "one_seat"
    assert {gid: seats_of(client, gid) for gid in before} == before

    login(client, "Bea")
    response = attach(one["id"], guest)
    assert response.status_code == 200 and response.json()["seat"] == 0
    assert attach(one["id"], guest).status_code == 200  # again: nothing more to do
    seat = seats_of(client, one["id"])[0]
    assert seat.name == "Bea" and seat.user_id is not None
    assert view(client, one["id"])["viewer"] == 0  # by the cookie now
    assert view(use_session(client, None), one["id"], guest)["viewer"] == 0  # and the token


# --- names and hostile input -------------------------------------------------------------------

def test_names_are_one_account_whatever_the_capitals_or_widths(client):
    signup(client, "Ana María")
    for taken in ("ANA MARÍA", "ana maría", "Ａｎａ Ｍａｒíａ", "Ana Mari\u0301a"):
        response = client.post("/api/account/signup", json={"name": taken,
                                                            "password": PASSWORD})
        assert response.status_code == 409, taken
        assert response.json()["error"] == "name_taken"
    assert login(client, "ＡＮＡ ＭＡＲÍＡ")["name"] == "Ana María"
    assert signup(client, "Ｊｏｓé_42")["name"] == "José_42"  # stored as it reads
    assert signup(client, "Νίκος")["name"] == "Νίκος"  # letters of any one script
    assert signup(client, "山田たろう")["name"] == "山田たろう"


MALFORMED = [  # (route, body): refused 422 by the body's types and limits
    ("signup", {"name": "Ana", "password": PASSWORD, "admin": True}),
    ("signup", {"name": 5, "password": PASSWORD}),
    ("signup", {"name": "Ana", "password": None}),
    ("signup", {"name": "Ana", "password": 12345678}),
    ("signup", {"name": "A" * 101, "password": PASSWORD}),
    ("signup", {"name": "Ana", "password": "x" * 201}),
    ("signup", {"name": "Ana", "password": PASSWORD, "email": "a@" + "b" * 250 + ".org"}),
    ("signup", {"name": "Ana", "password": PASSWORD, "lang": "fr"}),
    ("signup", {"name": ["Ana"], "password": PASSWORD}),
    ("signup", ["Ana", PASSWORD]),
    ("login", {"name": "Ana"}),
    ("login", {"name": "Ana", "password": PASSWORD, "remember": True}),
    ("login", {"name": {"$ne": ""}, "password": PASSWORD}),
    ("login", {"name": "Ana", "password": "x" * 201}),
    ("password", {"old": PASSWORD}),
    ("password", {"old": PASSWORD, "new": 123456789}),
    ("settings", {"notify_email": "yes"}),
    ("settings", {"notify_push": 1}),
    ("settings", {"email": 7}),
    ("settings", {"theme": "dark"}),
    ("attach", {"game_id": "x" * 17, "token": "t"}),
    ("attach", {"game_id": "../etc", "token": "t"}),
    ("attach", {"game_id": "abc", "token": "t" * 65}),
    ("attach", {"game_id": "abc", "token": 5}),
]

BAD_NAMES = [
    ("Ana\u202e", "U+202E"),  # a bidi override
    ("\u202eanA", "U+202E"),
    ("A\u200bna", "U+200B"),  # zero-width space
    ("An\u200da", "U+200D"),  # zero-width joiner
    ("Ana\x00", "U+0000"),
    ("Ana\nBea", "U+000A"),
    ("\u0410na", "cyrillic and latin"),  # a Cyrillic А among Latin letters
    ("Ana!", "U+0021"),
    ("Ana\U0001f600", "U+1F600"),
    ("A", "2 to 24"),
    ("A" * 25, "2 to 24"),
    (" Ana", "begin or end"),
    ("Ana ", "begin or end"),
    ("Ana  Bea", "two spaces"),
    ("Ana\u3000", "begin or end"),  # an ideographic space is a space
    ("A\u0301\u0301\u0301\u0301na", "accents"),  # one composes with the A: 3 left
    ("\u0301Ana", "accents"),
    ("Ana\u0663", "U+0663"),  # an Arabic-Indic digit
    ("\ufdfa\ufdfa\ufdfa", "has 54 in Unicode's compatibility form"),  # a ligature
    ("\u00df" * 21, "too long once normalised"),  # each ß casefolds to ss
]


def test_hostile_bodies_are_refused_with_clear_422s(client):
    signup(client, "Ana")
    for route, body in MALFORMED:
        response = client.post(f"/api/account/{route}", json=body)
        assert response.status_code == 422, (route, body, response.text)
        assert response.json()["error"] == "malformed" and response.json()["message"]
    for name, why in BAD_NAMES:
        response = client.post("/api/account/signup", json={"name": name, "password": PASSWORD})
        assert response.status_code == 422, (name, response.text)
        assert response.json()["error"] == "bad_name" and why in response.json()["message"], (
            name, response.json())
    for password, why in (("short", "8 to 200"), ("ana bea", "8 to 200"),
                          ("Ana Bea Cara", "cannot be the account's name")):
        response = client.post("/api/account/signup", json={"name": "Ana Bea Cara",
                                                            "password": password})
        assert response.status_code == 422 and why in response.json()["message"], password
    for email in ("no-at-sign", "a@b", "a b@example.org", "a@exa\u202emple.org", "@x.org"):
        response = client.post("/api/account/signup", json={"name": "Dora", "password":
                                                            PASSWORD, "email": email})
        assert response.status_code == 422 and response.json()["error"] == "bad_email", email
    response = client.post("/api/account/password", json={"old": PASSWORD, "new": "short"})
    assert response.status_code == 422 and response.json()["error"] == "bad_password"
    assert me(client)["name"] == "Ana"  # and the server answers on
    with engine(client).connect() as db:
        assert db.execute(select(users.c.name)).scalars().all() == ["Ana"]


def test_an_accounts_games_are_counted_as_look_ups(tmp_path):
    """Each answer looks at up to 100 games: one client may not ask it without end."""
    from tlatelolco.web.http.limits import RateLimits

    with serve(tmp_path, rate_limits=RateLimits(joins=1)) as client:  # 4 look-ups a minute
        signup(client, "Ana")
        answers = [client.get("/api/account/games").status_code for _ in range(5)]
        assert answers == [200] * 4 + [429]
        assert client.get("/api/account").status_code == 200  # who one is: still answered
