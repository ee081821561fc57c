"""Invite by name: a player of a game seats a friend's account in an open seat at once, and
the friend is told (a real SMTP server receives the notice)."""

from __future__ import annotations

import random

import pytest
from tests.web.apps import auth, wait_for
from tests.web.inboxes import PUBLIC, client, inbox, verify
from tests.web.social_helpers import create, join, move, person, play_out, view

__all__ = ["client", "inbox"]  # the fixtures, shared with the other reminder tests


def invite(client, who, game_id, seat, user):
    return client.post(f"/api/games/{game_id}/invite", headers=who,
                       json={"seat": seat, "user": user})


def befriend(client, who, name):
    assert client.post("/api/friends", headers=who, json={"name": name}).status_code == 201


def test_a_friend_is_seated_by_name_at_once_and_told(client, inbox):
    ana = person(client, "Ana")
    bea = person(client, "Bea", email="bea@example.com", lang="es")
    assert client.post("/api/account/settings", headers=bea,
                       json={"notify_email": True}).status_code == 200
    verify(client, inbox, "bea@example.com")  # notices go by mail to verified addresses only
    befriend(client, bea, "Ana")  # Bea lets Ana seat her
    game = create(client, ana, "axio", ["taken", "open"], num_players=2)
    response = invite(client, ana, game["id"], 1, "bea")
    assert response.status_code == 200, response.text
    assert response.json() == {"game_id": game["id"], "seat": 1, "user": "Bea", "invite": None,
                               "invite_url": None}
    summary = client.get(f"/api/games/{game['id']}").json()
    assert summary["status"] == "running"
    assert summary["seats"][1]["name"] == "Bea" and summary["seats"][1]["kind"] == "human"
    # the seat follows Bea's account: her own view, her moves
    mine = view(client, game["id"], bea)
    assert mine["viewer"] == 1
    rng = random.Random(0)
    wait_for(lambda: move(client, game["id"], ana, rng) or move(client, game["id"], bea, rng),
             what="a move")
    # the old invite link to that seat is spent
    used = client.post(f"/api/games/{game['id']}/claim", json={},
                       headers=auth(game["seats"][1]["invite"]))
    assert used.status_code in (403, 409)
    # and Bea is told, in her language, with the link to the game
    mail = wait_for(lambda: inbox.reminders("bea@example.com"), what="the invite mail")[0]
    assert "Ana" in mail["Subject"] and mail["Subject"].startswith("Ana te")
    assert f"{PUBLIC}/games/{game['id']}" in mail.get_body(("plain",)).get_content()


def test_only_a_friends_consent_lets_a_player_be_seated_by_name(client):
    ana, bea = person(client, "Ana"), person(client, "Bea")
    game = create(client, ana, "axio", ["taken", "open"], num_players=2)
    refused = invite(client, ana, game["id"], 1, "Bea")  # Bea never added Ana
    assert refused.status_code == 403 and refused.json()["error"] == "not_their_friend"
    befriend(client, ana, "Bea")  # Ana adding Bea is not Bea's consent
    assert invite(client, ana, game["id"], 1, "Bea").status_code == 403
    assert client.get(f"/api/games/{game['id']}").json()["seats"][1]["kind"] == "open"
    befriend(client, bea, "Ana")
    assert invite(client, ana, game["id"], 1, "Bea").status_code == 200


def test_who_may_invite_and_where(client):
    ana, bea, cid = person(client, "Ana"), person(client, "Bea"), person(client, "Cid")
    for who in (bea, cid):
        befriend(client, who, "Ana")
    befriend(client, cid, "Bea")
    game = create(client, ana, "axio", ["taken", "open", "open"], num_players=3)
    gid = game["id"]
    # not a player of the game: refused, logged in or not
    outsider = invite(client, cid, gid, 1, "Bea")
    assert outsider.status_code == 403 and outsider.json()["error"] == "no_seat"
    client.cookies.clear()
    nobody = client.post(f"/api/games/{gid}/invite", json={"seat": 1, "user": "Bea"})
    assert nobody.status_code == 401
    # a guest holding a seat by its credential has no account a friend could have added
    guest = create(client, None, "axio", ["taken", "open"], num_players=2)
    as_guest = client.post(f"/api/games/{guest['id']}/invite", json={"seat": 1, "user": "Bea"},
                           headers=auth(guest["seats"][0]["token"]))
    assert as_guest.status_code == 401 and as_guest.json()["error"] == "login_needed"
    # unknown players, taken seats, seats outside the game
    assert invite(client, ana, gid, 1, "Nobody").json()["error"] == "unknown_player"
    assert invite(client, ana, gid, 0, "Bea").json()["error"] == "seat_taken"
    assert invite(client, ana, gid, 5, "Bea").json()["error"] == "bad_seat"
    # where seats hide things, one account holds one seat
    assert invite(client, ana, gid, 1, "Bea").status_code == 200
    twice = invite(client, ana, gid, 2, "Bea")
    assert twice.status_code == 409 and twice.json()["error"] == "one_seat"
    yourself = invite(client, ana, gid, 2, "Ana")
    assert yourself.status_code == 409 and yourself.json()["error"] == "one_seat"
    assert invite(client, bea, gid, 2, "Cid").status_code == 200  # any player may
    assert client.get(f"/api/games/{gid}").json()["status"] == "running"


def test_not_into_a_finished_game(client):
    ana, bea = person(client, "Ana"), person(client, "Bea")
    befriend(client, bea, "Ana")
    game = create(client, ana, "axio", ["taken", "open"], num_players=2)
    join(client, bea, game["id"], 1)
    assert client.post(f"/api/games/{game['id']}/leave", headers=bea).status_code == 200
    assert invite(client, ana, game["id"], 1, "Bea").status_code == 200  # back in
    play_out(client, game["id"], [ana, bea])
    over = invite(client, ana, game["id"], 1, "Bea")
    assert over.status_code == 409 and over.json()["error"] == "finished"


@pytest.mark.parametrize("user", ["", "x" * 41, 3, True, ["Bea"], {"name": "Bea"}, None])
def test_hostile_invite_bodies(client, user):
    ana = person(client, "Ana")
    game = create(client, ana, "axio", ["taken", "open"], num_players=2)
    response = client.post(f"/api/games/{game['id']}/invite", headers=ana,
                           json={"seat": 1, "user": user})
    if user is None:  # no name: the plain invite link, as before
        assert response.status_code == 200 and response.json()["invite"]
    else:
        assert response.status_code == 422 and response.json()["error"] == "malformed"
    for name in ("' OR 1=1 --", "<b>Bea</b>", "Bea\u202e", "..%2F"):
        assert invite(client, ana, game["id"], 1, name).json()["error"] == "unknown_player"
