"""Names and words a person reads (issue 34, points 9 and 11): bots named by the level the
lobby offered them at, in the reader's language; seats counted from 1 in words (the API's
`seat` fields stay 0-based); a refused move told by the rules' reason in words, never the
engine's notation."""

from __future__ import annotations

import pytest
from tests.web.apps import auth, create, serve, view, wait_for

from tlatelolco.i18n import in_words
from tlatelolco.web.play.views import seat_names
from tlatelolco.web.storage.store import GameRow, SeatRow


@pytest.fixture
def client(tmp_path):
    with serve(tmp_path) as client:
        yield client


def service(client):
    return client.app.state.hub.service


def names(client, game_id: str, lang: str, token: str | None = None) -> list[str]:
    got = client.get(f"/api/games/{game_id}/view", params={"lang": lang}, headers=auth(token))
    assert got.status_code == 200, got.text
    return [p["name"] for p in got.json()["players"]]


def test_bots_are_named_by_level_in_the_readers_language(client):
    game = create(client, "mexica", ["bot:greedy", "bot:random", "bot:greedy",
                                     "bot:mcts:time=1"], num_players=4)
    assert names(client, game["id"], "en") == ["Medium bot 1", "Easy bot", "Medium bot 2",
                                               "Hard bot"]
    assert names(client, game["id"], "es") == ["Bot medio 1", "Bot fácil", "Bot medio 2",
                                               "Bot difícil"]
    # the log's words name them so too
    moved = wait_for(lambda: [e for e in view(client, game["id"])["log"] if e["seat"] == 0],
                     what="a bot's move")
    assert "Medium bot 1" in moved[0]["words"], moved[0]
    # the stored name (records, the lobby list's winners) is the English level name
    assert [s["name"] for s in game["seats"]] == ["Medium bot 1", "Easy bot", "Medium bot 2",
                                                  "Hard bot"]


def test_games_stored_with_older_names_show_the_levels():
    seats = [SeatRow(0, "bot", "Greedy bot 0", bot="greedy"),
             SeatRow(1, "bot", "Ismcts bot 1", bot="ismcts:time=2"),
             SeatRow(2, "open", "Open seat 2"), SeatRow(3, "human", "Ana")]
    assert seat_names(seats) == ["Medium bot", "Hard bot", "Open seat 3", "Ana"]
    assert seat_names(seats, "es") == ["Bot medio", "Bot difícil", "Asiento libre 3", "Ana"]
    row = GameRow(id="x", game="mexica", options={}, seed="0", status="open", version=0,
                  listed=False, seats=seats)
    assert seat_names(row.seats, "es")[0] == "Bot medio"


def test_seats_are_counted_from_one_in_words(client):
    game = create(client, "grand_bazaar", ["taken", "open"], num_players=2)
    mine = game["seats"][0]["token"]
    current = view(client, game["id"], mine)
    assert current["players"][1]["name"] == "Open seat 2"
    waiting = client.post(f"/api/games/{game['id']}/actions", headers=auth(mine),
                          json={"version": current["version"], "action": 0})
    assert waiting.json()["error"] == "waiting"
    assert waiting.json()["message"].endswith("seat(s) 2")
    joined = client.post(f"/api/games/{game['id']}/join", json={}).json()
    assert joined["seat"] == 1  # the API's field: from 0
    assert view(client, game["id"])["players"][1]["name"] == "Player 2"
    taken = client.post(f"/api/games/{game['id']}/join", json={"seat": 1})
    assert "seat 2 is not open" in taken.json()["message"]
    # not your turn: the seats in words from 1, the mover's name; `to_move` from 0
    current = view(client, game["id"], mine)
    mover = current["to_move"]
    other = joined["token"] if mover == 0 else mine
    refused = client.post(f"/api/games/{game['id']}/actions", headers=auth(other),
                          json={"version": current["version"], "action": 0})
    body = refused.json()
    assert body["error"] == "not_your_turn" and body["to_move"] == mover
    assert f"it is seat {mover + 1}'s turn" in body["message"]
    assert f"not yours (seat {2 - mover})" in body["message"]
    hint = client.post(f"/api/games/{game['id']}/hint", headers=auth(mine))
    assert "seat(s) 2 are for people" in hint.json()["message"]


def test_a_refused_move_is_the_rules_reason_in_words(client):
    game = create(client, "aztec_market", ["taken", "bot:random"], num_players=2)
    mine = game["seats"][0]["token"]
    current = view(client, game["id"], mine)
    legal = {m["id"] for m in current["legal"]}
    live = service(client).live(game["id"])
    illegal = next(a for a in range(live.game.num_distinct_actions()) if a not in legal)
    reason = live.state.illegal_reason(illegal)
    refused = client.post(f"/api/games/{game['id']}/actions", headers=auth(mine),
                          json={"version": current["version"], "action": illegal})
    body = refused.json()
    assert refused.status_code == 409 and body["error"] == "illegal_action"
    assert body["message"] == in_words(reason, "en")  # the rules' words, nothing more
    assert "Legal now" not in body["message"] and "action " not in body["message"]
    assert "Legal now" in body["detail"]  # the engine's text, for programs
    # in the reader's language (the page's socket passes its language to the service)
    with pytest.raises(Exception) as err:
        service(client).act(game["id"], mine, illegal, None, current["version"], "es")
    assert err.value.message == in_words(reason, "es") != in_words(reason, "en")
    # text that names no move, and a number outside the game: said so, not echoed
    for move in ({"text": "steal everything"}, {"action": 10**6}):
        refused = client.post(f"/api/games/{game['id']}/actions", headers=auth(mine),
                              json={"version": current["version"], **move})
        assert refused.json()["message"] == "that is not a move of this game", move
    why = service(client).why(game["id"], mine, "place crowd at Z99", "es")
    assert why == "eso no es una jugada de este juego"
