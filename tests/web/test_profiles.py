"""Profiles and leaderboards: what they show, what they never show, and hostile names."""

from __future__ import annotations

import time

import pytest
from tests.web.apps import serve, wait_for
from tests.web.social_helpers import join, person, play_out, profile, rated

from tlatelolco.web.accounts import users
from tlatelolco.web.http.limits import RateLimits
from tlatelolco.web.social.ratings import bot_ratings


@pytest.fixture
def client(tmp_path):
    with serve(tmp_path) as c:
        yield c


def finished(client, a, b, listed=True, seed=0):
    response = client.post("/api/games", headers=a, json={
        "game": "axio", "options": {"num_players": 2}, "seats": ["taken", "open"],
        "listed": listed})
    assert response.status_code == 201, response.text
    game = response.json()
    if listed:
        join(client, b, game["id"], 1)
        tokens = []
    else:  # an unlisted game's seats go by invite
        invite = game["seats"][1]["invite"]
        claimed = client.post(f"/api/games/{game['id']}/claim", json={},
                              headers={**b, "Authorization": f"Bearer {invite}"})
        assert claimed.status_code == 200, claimed.text
        tokens = [claimed.json()["token"]]
    return play_out(client, game["id"], [a, b], seed=seed), game, tokens


def test_a_profile_shows_games_ratings_history_and_recent_games(client):
    ana, bea = person(client, "Ana"), person(client, "Bea")
    first, _, _ = finished(client, ana, bea, seed=1)
    second, _, _ = finished(client, ana, bea, seed=2)
    found = rated(client, "ana", "axio", times=2)  # any capitals
    assert found["name"] == "Ana" and found["created_at"].endswith("+00:00")
    entry = found["games"]["axio"]
    assert entry["played"] == 2 and entry["rated"] == 2 and 0 <= entry["won"] <= 2
    assert isinstance(entry["rating"], float) and entry["rank_display"].startswith("rated ")
    assert "provisional: 2 rated games so far" in entry["rank_display"]
    assert [b["level"] for b in entry["bots"]] == ["easy", "medium", "hard"]
    assert [b["name"] for b in entry["bots"]] == ["Easy bot", "Medium bot", "Hard bot"]
    assert len(found["history"]["axio"]) == 2
    assert found["history"]["axio"][-1]["rating"] == entry["rating"]
    assert [g["id"] for g in found["recent"]] == [second["id"], first["id"]]
    latest = found["recent"][0]
    assert latest["replay_url"] == f"/games/{second['id']}/replay"
    assert latest["review_url"] == f"/games/{second['id']}/replay?review=1"
    assert latest["players"] == ["Ana", "Bea"] and latest["result"] in ("won", "lost")
    assert client.get(latest["replay_url"]).status_code == 200  # the page is there
    # Spanish words, by ?lang= or by the browser's language
    es = profile(client, "Ana", lang="es")["games"]["axio"]
    assert es["rank_display"].startswith(("por encima", "entre", "por debajo"))
    assert "provisional: 2 partidas puntuadas" in es["rank_display"]
    assert es["bots"][2]["name"] == "Bot difícil"
    heard = client.get("/api/players/Ana", headers={"Accept-Language": "es-MX,es;q=0.9"})
    assert heard.json()["games"]["axio"]["rank_display"] == es["rank_display"]


def test_the_leaderboard_ranks_players_and_shows_the_bots_fixed_levels(client):
    ana, bea = person(client, "Ana"), person(client, "Bea")
    finished(client, ana, bea, seed=3)
    rated(client, "Ana", "axio")
    rated(client, "Bea", "axio")
    board = client.get("/api/leaderboard/axio").json()
    assert board["game"] == "axio" and len(board["players"]) == 2
    assert board["players"][0]["rating"] >= board["players"][1]["rating"]
    assert set(board["players"][0]) == {"name", "rating", "played", "won"}
    assert [(b["level"], b["rating"]) for b in board["bots"]] == [
        (b["level"], b["rating"]) for b in bot_ratings("axio")]
    assert client.get("/api/leaderboard/axio?limit=1").json()["players"] == board["players"][:1]
    assert client.get("/api/leaderboard/mexica").json()["players"] == []
    for page in ("/leaderboard", "/players/Ana", "/players/nobody"):
        response = client.get(page)
        assert response.status_code == 200 and "text/html" in response.headers["content-type"]
        assert "script-src 'self'" in response.headers["content-security-policy"]


def test_another_accounts_private_data_is_never_in_a_profile(client):
    ana = person(client, "Ana", email="ana.secret@example.com", lang="es")
    bea = person(client, "Bea")
    assert client.post("/api/account/settings", headers=ana,
                       json={"notify_email": True}).status_code == 200
    _, game, tokens = finished(client, ana, bea, listed=False, seed=4)
    public, _, _ = finished(client, bea, ana, seed=5)
    rated(client, "Ana", "axio", times=2)
    mine = profile(client, "Ana", who=ana)
    theirs = profile(client, "Ana", who=bea)
    anyone = profile(client, "Ana")
    assert mine["me"] is True and theirs["me"] is False and anyone["friend"] is None
    # the unlisted game shows on Ana's own profile only
    assert game["id"] in [g["id"] for g in mine["recent"]]
    assert game["id"] not in [g["id"] for g in theirs["recent"] + anyone["recent"]]
    assert theirs["games"]["axio"]["played"] == 2  # counted, not shown
    secrets = ["ana.secret@example.com", "notify", "email", "password", "token", "invite",
               "seed", "lang", game["seats"][0]["token"], *tokens,
               game["seats"][1]["invite"]]
    for seen in (theirs, anyone, client.get("/api/leaderboard/axio").json()):
        text = str(seen)
        assert not [s for s in secrets if s in text], text
    assert set(theirs) == {"name", "created_at", "me", "friend", "games", "recent", "history"}
    assert public["id"] in [g["id"] for g in anyone["recent"]]


def test_unknown_and_disabled_players_are_404(client):
    person(client, "Ana")
    for name in ("Nobody", "An", "Ana ", "Anna"):
        response = client.get(f"/api/players/{name}")
        assert response.status_code == 404 and response.json()["error"] == "unknown_player"
    engine = client.app.state.hub.service.store.engine
    users.set_disabled(engine, users.find(engine, "Ana").id, True)
    assert client.get("/api/players/Ana").status_code == 404
    assert client.get("/api/leaderboard/nogame").json()["error"] == "unknown_game"


@pytest.mark.parametrize(("name", "status"), [
    ("ＡＮＡ", 200),  # full-width letters are the same name (NFKC)
    ("aNa", 200),
    ("x" * 41, 422),  # longer than any account's name
    ("x" * 5000, 422),
    ("' OR 1=1 --", 404),
    ("Ana'; DROP TABLE users; --", 404),
    ("<script>alert(1)</script>", 404),
    ("..%2F..%2Fetc%2Fpasswd", 404),
    ("%00", 404),
    ("A\u202ena", 404),  # a bidi override
    ("Ana\u200d", 404),  # a zero-width joiner
    ("\U0001f600", 404),
])
def test_hostile_names_get_a_clear_answer(client, name, status):
    person(client, "Ana")
    started = time.monotonic()
    response = client.get(f"/api/players/{name}")
    assert response.status_code == status, response.text
    assert time.monotonic() - started < 5
    body = response.json()
    if status != 200:
        assert body["status"] == status and body["message"]
    else:
        assert body["name"] == "Ana"
    assert client.get("/api/leaderboard/axio").status_code == 200  # still answering


@pytest.mark.parametrize("query", ["limit=0", "limit=101", "limit=x", "limit=1e9", "lang=fr",
                                   "lang=" + "e" * 500])
def test_hostile_leaderboard_queries_are_422(client, query):
    response = client.get(f"/api/leaderboard/axio?{query}")
    assert response.status_code == 422, response.text
    assert client.get("/api/leaderboard/" + "a" * 33).status_code == 422


def test_lookups_are_rate_limited_per_address(tmp_path):
    with serve(tmp_path, rate_limits=RateLimits(joins=2)) as client:  # 8 look-ups a minute
        answers = [client.get("/api/leaderboard/axio").status_code for _ in range(8)]
        assert answers == [200] * 8
        over = client.get("/api/players/anybody")
        assert over.status_code == 429 and int(over.headers["retry-after"]) > 0
        assert over.json()["error"] == "rate_limited"
        wait_for(lambda: client.get("/healthz").status_code == 200)  # the rest still answers
