"""The JSON API: the lobby, the action pipeline and its errors, replays, records."""

from __future__ import annotations

import random

import pytest
from tests.web.apps import auth, create, my_turn, serve, view, wait_for


@pytest.fixture
def client(tmp_path):
    with serve(tmp_path) as client:
        yield client


def test_catalog_lists_every_game_with_options_and_bots(client):
    catalog = {g["name"]: g for g in client.get("/api/catalog").json()}
    assert sorted(catalog) == ["axio", "aztec_market", "grand_bazaar", "mexica"]
    assert catalog["mexica"]["players"] == [2, 4]
    assert "num_players" in catalog["grand_bazaar"]["options"]
    assert catalog["axio"]["bots"] == ["random", "greedy", "mcts", "ismcts"]


@pytest.mark.parametrize(("body", "words"), [
    ({"game": "chess"}, ["unknown game 'chess'", "grand_bazaar"]),
    ({"game": "mexica", "options": {"num_players": 9}}, ["num_players", "2 to 4"]),
    ({"game": "mexica", "options": {"colour": "red"}}, ["colour"]),
    ({"game": "mexica", "seats": ["taken"]}, ["4 seats", "1 seat choices"]),
    ({"game": "mexica", "options": {"num_players": 2}, "seats": ["taken", "robot"]},
     ["'robot'", "bot:NAME"]),
    ({"game": "mexica", "options": {"num_players": 2}, "seats": ["taken", "bot:deep"]},
     ["deep", "greedy"]),
    ({"game": "mexica", "surprise": 1}, ["surprise"]),
    ({"options": {}}, ["game"]),
])
def test_creating_a_bad_game_says_what_is_wrong(client, body, words):
    response = client.post("/api/games", json=body)
    assert response.status_code == 422
    error = response.json()
    assert error["status"] == 422 and error["error"]
    for word in words:
        assert word in error["message"]


def test_a_new_game_has_invite_links_and_a_spectator_link(client):
    game = create(client, "grand_bazaar", ["taken", "open", "bot:greedy"], num_players=3)
    mine, friend, bot = game["seats"]
    assert mine["token"] and mine["url"].endswith(f"/games/{game['id']}")  # no secret in it
    assert friend["token"] is None and friend["invite_url"].endswith(f"#invite={friend['invite']}")
    assert mine["invite"] is None and friend["invite"] != mine["token"]
    assert bot["kind"] == "bot" and bot["token"] is None and bot["invite_url"] is None
    assert game["spectator_url"].endswith(f"/games/{game['id']}")
    assert game["status"] == "open"
    listed = client.get("/api/games", params={"status": "open"}).json()
    assert [g["id"] for g in listed] == [game["id"]]
    assert "token" not in str(listed) and "seed" not in str(listed)


def test_chance_is_resolved_on_the_server_and_its_seed_never_sent(client):
    game = create(client, "grand_bazaar", ["taken", "bot:random"], num_players=2)
    seen = view(client, game["id"], game["seats"][0]["token"])
    assert seen["version"] > 0  # the opening draws are already made
    assert all(e["seat"] == -1 for e in seen["log"])
    assert "seed" not in seen and "seed" not in str(client.get(f"/api/games/{game['id']}").json())


class TestActionPipeline:
    """credential -> well-formed -> right seat and turn -> current version -> legal -> stored."""

    @pytest.fixture
    def table(self, client):
        game = create(client, "grand_bazaar", ["taken", "taken"], num_players=2)
        tokens = [s["token"] for s in game["seats"]]
        return client, game["id"], tokens

    def post(self, client, game_id, body, token):
        return client.post(f"/api/games/{game_id}/actions", json=body, headers=auth(token))

    def mover(self, client, game_id, tokens):
        for seat, token in enumerate(tokens):
            current = view(client, game_id, token)
            if current["legal"]:
                return seat, token, current
        raise AssertionError("nobody to move")

    def assert_unchanged(self, client, game_id, before):
        after = view(client, game_id)
        assert after["version"] == before["version"]
        assert after["log"] == view(client, game_id)["log"]

    def test_a_legal_move_is_applied_and_each_seat_sees_it(self, table):
        client, game_id, tokens = table
        seat, token, current = self.mover(client, game_id, tokens)
        move = current["legal"][0]
        response = self.post(client, game_id, {"version": current["version"],
                                               "action": move["id"]}, token)
        assert response.status_code == 200, response.text
        new = response.json()
        assert new["version"] > current["version"]
        entry = new["log"][0]
        assert {k: entry[k] for k in ("step", "seat", "text", "move")} == {
            "step": current["version"], "seat": seat, "text": move["text"], "move": move["move"]}
        assert entry["words"] and "{" not in entry["words"]  # the move told in words
        other = view(client, game_id, tokens[1 - seat])
        assert other["version"] == new["version"]

    def test_a_move_in_notation_is_accepted(self, table):
        client, game_id, tokens = table
        _, token, current = self.mover(client, game_id, tokens)
        text = current["legal"][-1]["text"]
        response = self.post(client, game_id, {"version": current["version"], "text": text},
                             token)
        assert response.status_code == 200, response.text

    def test_no_credential_is_401(self, table):
        client, game_id, _ = table
        before = view(client, game_id)
        response = self.post(client, game_id, {"version": before["version"], "action": 0}, None)
        assert response.status_code == 401
        assert "Bearer" in response.json()["message"]
        response = client.post(f"/api/games/{game_id}/actions", headers={"Authorization": "x"},
                               json={"version": 0, "action": 0})
        assert response.status_code == 401
        self.assert_unchanged(client, game_id, before)

    def test_a_credential_of_no_seat_here_is_403(self, table):
        client, game_id, _ = table
        other = create(client, "grand_bazaar", ["taken", "taken"], num_players=2)
        before = view(client, game_id)
        response = self.post(client, game_id, {"version": before["version"], "action": 0},
                             other["seats"][0]["token"])
        assert response.status_code == 403
        assert game_id in response.json()["message"]
        self.assert_unchanged(client, game_id, before)

    def test_not_your_turn_is_409(self, table):
        client, game_id, tokens = table
        seat, _, current = self.mover(client, game_id, tokens)
        response = self.post(client, game_id, {"version": current["version"],
                                               "action": current["legal"][0]["id"]},
                             tokens[1 - seat])
        assert response.status_code == 409
        assert response.json()["error"] == "not_your_turn"
        assert f"seat {seat + 1}'s turn" in response.json()["message"]  # words count from 1
        self.assert_unchanged(client, game_id, current)

    def test_a_stale_version_is_409(self, table):
        client, game_id, tokens = table
        _, token, current = self.mover(client, game_id, tokens)
        response = self.post(client, game_id, {"version": current["version"] - 1,
                                               "action": current["legal"][0]["id"]}, token)
        assert response.status_code == 409
        assert response.json()["error"] == "stale_version"
        assert f"version {current['version']}" in response.json()["message"]
        self.assert_unchanged(client, game_id, current)

    def test_an_illegal_move_is_409_and_names_the_legal_ones(self, table):
        client, game_id, tokens = table
        _, token, current = self.mover(client, game_id, tokens)
        legal = {m["id"] for m in current["legal"]}
        illegal = next(a for a in range(10_000) if a not in legal)
        for body in ({"version": current["version"], "action": illegal},
                     {"version": current["version"], "action": -5},
                     {"version": current["version"], "text": "steal everything"}):
            response = self.post(client, game_id, body, token)
            assert response.status_code == 409, body
            # the message is the rules' reason in words; the engine's text names the legal moves
            detail = response.json()["detail"]
            assert response.json()["message"] and "Legal now" not in response.json()["message"]
            assert "Legal now" in detail or "legal" in detail
            assert current["legal"][0]["text"] in detail
        self.assert_unchanged(client, game_id, current)

    @pytest.mark.parametrize("body", [
        {"action": 1}, {"version": "one", "action": 1}, {"version": 0},
        {"version": 0, "action": 1, "text": "buy ruby"}, {"version": 0, "action": "1x"},
        {"version": 0, "action": 1, "extra": True}, [], "buy",
    ])
    def test_a_malformed_body_is_422(self, table, body):
        client, game_id, tokens = table
        _, token, current = self.mover(client, game_id, tokens)
        response = self.post(client, game_id, body, token)
        assert response.status_code == 422, response.text
        assert response.json()["message"]
        self.assert_unchanged(client, game_id, current)

    def test_an_unknown_game_is_404(self, table):
        client, _, tokens = table
        response = self.post(client, "nosuchgame", {"version": 0, "action": 0}, tokens[0])
        assert response.status_code == 404
        assert "nosuchgame" in response.json()["message"]


def test_a_game_waits_for_its_open_seats_then_starts(client):
    game = create(client, "grand_bazaar", ["taken", "open"], num_players=2)
    game_id, mine = game["id"], game["seats"][0]["token"]
    invite = game["seats"][1]["invite"]
    current = view(client, game_id, mine)
    assert current["status"] == "open" and current["legal"] == []
    refused = client.post(f"/api/games/{game_id}/actions", headers=auth(mine),
                          json={"version": current["version"], "action": 0})
    assert refused.status_code == 409 and refused.json()["error"] == "waiting"
    not_yet = client.post(f"/api/games/{game_id}/actions", headers=auth(invite),
                          json={"version": current["version"], "action": 0})
    assert not_yet.status_code == 403 and "claim the seat" in not_yet.json()["message"]
    claimed = client.post(f"/api/games/{game_id}/claim", headers=auth(invite),
                          json={"name": "Bea"})
    assert claimed.status_code == 200 and claimed.json()["seat"] == 1
    current = view(client, game_id, claimed.json()["token"])
    assert current["status"] == "running"
    assert current["players"][1]["name"] == "Bea"


def test_join_takes_an_open_seat_and_leave_gives_it_back(client):
    game = create(client, "mexica", ["taken", "open", "bot:random"], num_players=3)
    game_id = game["id"]
    joined = client.post(f"/api/games/{game_id}/join", json={"name": "  Carla  "}).json()
    assert joined["seat"] == 1 and joined["url"].endswith(f"/games/{game_id}")
    assert view(client, game_id)["players"][1]["name"] == "Carla"
    again = client.post(f"/api/games/{game_id}/join", json={"seat": 1})
    assert again.status_code == 409 and again.json()["error"] == "seat_taken"
    nowhere = client.post(f"/api/games/{game_id}/join", json={"seat": 7})
    assert nowhere.status_code == 422 and "0 to 2" in nowhere.json()["message"]
    left = client.post(f"/api/games/{game_id}/leave", headers=auth(joined["token"]))
    assert left.status_code == 200 and left.json()["status"] == "open"
    assert client.get(f"/api/games/{game_id}/view", headers=auth(joined["token"])
                      ).status_code == 403  # the old credential no longer holds the seat
    assert client.post(f"/api/games/{game_id}/join", json={"name": "x" * 41}).status_code == 422


def play_out(client, game_id, token, seed=0):
    """Play random legal moves for `token`'s seat until the game ends (bots move themselves)."""
    rng = random.Random(seed)
    while True:
        current = wait_for(lambda: my_turn(client, game_id, token), what="my turn")
        if current["status"] == "finished":
            return current
        move = rng.choice(current["legal"])
        response = client.post(f"/api/games/{game_id}/actions", headers=auth(token),
                               json={"version": current["version"], "action": move["id"]})
        assert response.status_code == 200, response.text


def test_a_game_against_a_bot_ends_with_a_record_a_replay_and_a_rematch(client):
    game = create(client, "grand_bazaar", ["taken", "bot:greedy"], num_players=2)
    game_id, token = game["id"], game["seats"][0]["token"]
    assert client.get(f"/api/games/{game_id}/record").status_code == 409
    final = play_out(client, game_id, token)
    assert final["result"]["returns"] in ([1.0, 0.0], [0.0, 1.0], [0.5, 0.5])
    record = client.get(f"/api/games/{game_id}/record").json()
    assert record["game"] == "grand_bazaar" and len(record["history"]) == final["version"]
    assert record["result"] == final["result"]
    # replays: every step, each as this seat saw it
    first = client.get(f"/api/games/{game_id}/replay/0", headers=auth(token)).json()
    last = client.get(f"/api/games/{game_id}/replay/{final['version']}").json()
    assert first["version"] == 0 and first["log"] == [] and first["length"] == final["version"]
    assert last["result"] == final["result"] and len(last["log"]) == final["version"]
    bad = client.get(f"/api/games/{game_id}/replay/{final['version'] + 1}")
    assert bad.status_code == 422 and "steps 0 to" in bad.json()["message"]
    # rematch: seats rotate, the credential carries over, a second call finds the same game
    rematch = client.post(f"/api/games/{game_id}/rematch", headers=auth(token)).json()
    assert rematch["seat"] == 1
    assert client.post(f"/api/games/{game_id}/rematch", headers=auth(token)).json() == rematch
    new = view(client, rematch["game_id"], token)
    assert new["viewer"] == 1 and new["players"][0]["kind"] == "bot"
    assert view(client, game_id)["rematch_id"] == rematch["game_id"]


@pytest.mark.parametrize("game", ["axio", "mexica", "aztec_market"])
def test_bots_alone_play_a_game_to_the_end(client, game):
    created = create(client, game, ["bot:greedy", "bot:random"], num_players=2)
    final = wait_for(lambda: (v := view(client, created["id"]))["status"] == "finished" and v,
                     timeout=120, what="the bots to finish")
    assert final["result"] is not None and sum(final["result"]["returns"]) == pytest.approx(1)


def test_openapi_describes_the_api(client):
    spec = client.get("/openapi.json").json()
    assert {"/api/games", "/api/games/{game_id}/actions", "/api/catalog"} <= set(spec["paths"])
