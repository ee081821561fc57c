"""Hints on the server: a search bot's best moves for a person's seat, in games against bots."""

from __future__ import annotations

import pytest
from tests.web.apps import auth, create, my_turn, serve, view, wait_for


@pytest.fixture
def client(tmp_path):
    with serve(tmp_path) as client:
        yield client


def hint(client, game_id, token):
    return client.post(f"/api/games/{game_id}/hint", headers=auth(token))


@pytest.mark.parametrize(("game", "searcher"), [("grand_bazaar", "mcts"),
                                                ("axio", "ismcts")])
def test_a_hint_is_the_search_bots_best_legal_moves_and_changes_nothing(client, game,
                                                                        searcher):
    created = create(client, game, ["taken", "bot:greedy"], num_players=2)
    game_id, token = created["id"], created["seats"][0]["token"]
    before = wait_for(lambda: my_turn(client, game_id, token), what="my turn")
    response = hint(client, game_id, token)
    assert response.status_code == 200, response.text
    found = response.json()
    assert found["version"] == before["version"] and found["seat"] == 0
    assert found["bot"].startswith(f"{searcher}:")  # Axio hides hands: never the true state
    assert found["why"] == "searched" and found["iterations"] > 0
    legal = {m["id"]: m["text"] for m in before["legal"]}
    moves = found["moves"]
    assert 1 <= len(moves) <= 5
    for move in moves:
        assert legal[move["action"]] == move["text"]
        assert 0.0 <= move["value"] <= 1.0
    visits = [m["visits"] for m in moves]
    assert visits == sorted(visits, reverse=True) and visits[0] > 0
    after = view(client, game_id, token)
    assert after["version"] == before["version"] and after["legal"] == before["legal"]
    # asking again for the same position gives the same search, not a second one
    assert hint(client, game_id, token).json() == found


def test_hints_are_refused_with_a_reason(client):
    people = create(client, "grand_bazaar", ["taken", "taken"], num_players=2)
    game_id = people["id"]
    first, second = (s["token"] for s in people["seats"])
    refused = hint(client, game_id, first)
    assert refused.status_code == 409 and refused.json()["error"] == "no_hints"
    assert "against bots only" in refused.json()["message"]
    assert "seat(s) 2" in refused.json()["message"]  # seat 1 of the API: people count from 1
    not_mine = hint(client, game_id, second)
    assert not_mine.status_code == 409 and not_mine.json()["error"] == "not_your_turn"
    assert hint(client, game_id, None).status_code == 401
    assert hint(client, game_id, "not-a-token").status_code == 403
    assert hint(client, "nosuchgame", first).status_code == 404
    waiting = create(client, "axio", ["taken", "open"], num_players=2)
    answer = hint(client, waiting["id"], waiting["seats"][0]["token"])
    assert answer.status_code == 409 and answer.json()["error"] == "waiting"


def test_a_hint_that_does_not_come_in_time_says_so_and_can_be_asked_again(client,
                                                                          monkeypatch):
    created = create(client, "mexica", ["taken", "bot:random"], num_players=2)
    game_id, token = created["id"], created["seats"][0]["token"]
    wait_for(lambda: my_turn(client, game_id, token), what="my turn")
    monkeypatch.setattr("tlatelolco.web.realtime.hub.HINT_TIME", -4.999)  # 1 ms to answer
    late = hint(client, game_id, token)
    assert late.status_code == 503 and late.json()["error"] == "busy"
    assert "ask again" in late.json()["message"]
    monkeypatch.undo()
    again = hint(client, game_id, token)
    assert again.status_code == 200 and again.json()["moves"]
