"""Undo within your own turn: the server checks it, stores it, and the record keeps it."""

from __future__ import annotations

from typing import Any

import pytest
from tests.web.apps import auth, claim, create, serve, socket, view

from tlatelolco.turns import undoable


@pytest.fixture
def table(tmp_path):
    """Grand Bazaar for two people; seat 0 starts (its turn: buy, maybe sell, then end)."""
    with serve(tmp_path) as client:
        game = create(client, "grand_bazaar", ["open", "open"], num_players=2)
        tokens = [claim(client, game, 0, "Ana"), claim(client, game, 1, "Bea")]
        yield client, game["id"], tokens


def mover(client, game_id, tokens) -> tuple[int, str, dict[str, Any]]:
    current = view(client, game_id)
    seat = current["to_move"]
    return seat, tokens[seat], view(client, game_id, tokens[seat])


def act(client, game_id, token, version, text) -> dict[str, Any]:
    response = client.post(f"/api/games/{game_id}/actions", headers=auth(token),
                           json={"version": version, "text": text})
    assert response.status_code == 200, response.text
    return response.json()


def undo(client, game_id, token, version):
    return client.post(f"/api/games/{game_id}/undo", headers=auth(token),
                       json={"version": version})


def until(ws, predicate) -> dict[str, Any]:
    """The next message that `predicate` accepts (presence updates come in between)."""
    for _ in range(20):
        message = ws.receive_json()
        if predicate(message):
            return message
    raise AssertionError("the expected message never came")


def buy(current: dict[str, Any]) -> str:
    return next(m["text"] for m in current["legal"] if m["text"].startswith("buy"))


def test_the_rule_counts_your_own_steps_since_anybody_else_acted() -> None:
    assert undoable([0, 0, -1, 1], 0, 0) == 2  # newest first: two of seat 0, then chance
    assert undoable([0, 0], 0, 1) == 0  # not your turn any more
    assert undoable([-1, 0], 0, 0) == 0  # a draw since: it may have revealed something
    assert undoable([1, 0], 0, 0) == 0  # another seat moved since
    assert undoable([], 0, 0) == 0


def test_a_move_of_your_turn_is_taken_back_and_every_seat_sees_it(table):
    client, game_id, tokens = table
    seat, token, current = mover(client, game_id, tokens)
    assert current["undo"] == 0  # nothing of this turn yet
    bought = act(client, game_id, token, current["version"], buy(current))
    assert bought["undo"] == 1
    other = view(client, game_id, tokens[1 - seat])
    assert other["version"] == bought["version"] and other["undo"] == 0  # only the mover's
    with socket(client, game_id, tokens[1 - seat]) as ws:
        assert ws.receive_json()["version"] == bought["version"]
        response = undo(client, game_id, token, bought["version"])
        assert response.status_code == 200, response.text
        back = response.json()
        assert back["version"] == current["version"] and back["undo"] == 0
        assert back["observation"] == current["observation"]
        pushed = ws.receive_json()  # the other seat is sent the whole view again
        while pushed["version"] == bought["version"]:  # its own arrival announced first
            pushed = ws.receive_json()
        assert pushed["version"] == current["version"] and pushed["log_from"] == 0
        assert len(pushed["log"]) == current["version"]


def test_nothing_else_can_be_taken_back(table):
    client, game_id, tokens = table
    seat, token, current = mover(client, game_id, tokens)
    refused = undo(client, game_id, token, current["version"])  # nothing of this turn
    assert refused.status_code == 409 and refused.json()["error"] == "cannot_undo"
    assert "only your own moves of this turn" in refused.json()["message"]
    bought = act(client, game_id, token, current["version"], buy(current))
    other = undo(client, game_id, tokens[1 - seat], bought["version"])  # not its turn
    assert other.status_code == 409 and other.json()["error"] == "not_your_turn"
    stale = undo(client, game_id, token, current["version"])
    assert stale.status_code == 409 and stale.json()["error"] == "stale_version"
    spectator = undo(client, game_id, None, bought["version"])
    assert spectator.status_code == 401
    ended = act(client, game_id, token, bought["version"], "end turn")
    assert ended["undo"] == 0  # the turn is over: the other seat moves now
    late = undo(client, game_id, token, ended["version"])
    assert late.status_code == 409 and late.json()["error"] == "not_your_turn"
    assert view(client, game_id)["version"] == ended["version"]  # nothing changed


def test_the_record_keeps_what_was_taken_back_and_replays_the_final_line(table, tmp_path):
    client, game_id, tokens = table
    seat, token, current = mover(client, game_id, tokens)
    first = buy(current)
    bought = act(client, game_id, token, current["version"], first)
    assert undo(client, game_id, token, bought["version"]).status_code == 200
    # play the game out with the first legal move everywhere
    taken_step = current["version"]
    while True:
        now = view(client, game_id)
        if now["status"] == "finished":
            break
        seat = now["to_move"]
        mine = view(client, game_id, tokens[seat])
        act(client, game_id, tokens[seat], mine["version"], mine["legal"][-1]["text"])
    record = client.get(f"/api/games/{game_id}/record").json()
    taken = record["meta"]["taken_back"]
    assert [(t["step"], t["text"], t["undo"]) for t in taken] == [(taken_step, first, 1)]
    from tlatelolco.records import replay_record

    assert replay_record(record).is_terminal()  # the history is the final line


def test_undo_over_the_socket_and_a_new_line_after_it(table):
    client, game_id, tokens = table
    _seat, token, _current = mover(client, game_id, tokens)
    with socket(client, game_id, token) as ws:
        first = ws.receive_json()
        ws.send_json({"type": "action", "text": buy(first), "version": first["version"]})
        after = until(ws, lambda m: m.get("version") == first["version"] + 1)
        assert after["undo"] == 1
        ws.send_json({"type": "undo", "version": after["version"]})
        back = until(ws, lambda m: m.get("version") == first["version"])
        assert back["log_from"] == 0 and len(back["log"]) == first["version"]
        ws.send_json({"type": "undo", "version": back["version"], "extra": 1})
        assert "unknown field 'extra'" in until(ws, lambda m: m["type"] == "error")["message"]
        other = [m for m in back["legal"] if m["text"].startswith("buy")][-1]
        ws.send_json({"type": "action", "action": other["id"], "version": back["version"]})
        again = until(ws, lambda m: m.get("version") == first["version"] + 1)
        assert again["log"][-1]["text"] == other["text"]  # a different line at that step
    assert view(client, game_id, token)["log"][-1]["text"] == other["text"]


def test_a_restarted_server_replays_the_line_after_an_undo(tmp_path):
    with serve(tmp_path) as client:
        game = create(client, "grand_bazaar", ["open", "open"], num_players=2)
        tokens = [claim(client, game, 0), claim(client, game, 1)]
        _seat, token, current = mover(client, game["id"], tokens)
        bought = act(client, game["id"], token, current["version"], buy(current))
        assert undo(client, game["id"], token, bought["version"]).status_code == 200
        before = view(client, game["id"], token)
    with serve(tmp_path) as client:  # the same database file
        assert view(client, game["id"], token) == before


def test_the_why_message_gives_the_engines_reason(table):
    client, game_id, tokens = table
    seat, token, current = mover(client, game_id, tokens)
    def why(ws, text):
        ws.send_json({"type": "why", "text": text})
        return until(ws, lambda m: m["type"] in ("why", "error"))

    with socket(client, game_id, token) as ws:
        ws.receive_json()
        answer = why(ws, "sell ruby")
        assert answer["type"] == "why" and "round 2" in answer["reason"]  # GB: sell from round 2
        assert why(ws, buy(current))["reason"] is None  # that one is legal
        assert why(ws, "x" * 500)["status"] == 422
        assert why(ws, 5)["status"] == 422
        # words, not the notation sent back (the page sends its guess, not the player's)
        assert why(ws, "fly to the moon")["reason"] == "that is not a move of this game"
    with socket(client, game_id, tokens[1 - seat]) as ws:
        ws.receive_json()
        assert "turn" in why(ws, "buy ruby")["reason"]
    with socket(client, game_id, None) as ws:  # a spectator is told, in its language
        ws.receive_json()
        assert why(ws, "buy ruby")["reason"] == "spectators do not move"


def test_another_process_replays_the_game_after_an_undo(tmp_path):
    """Two services on one database (two server processes): the one that did not see the
    undo notices the game's undo count, replays the final line, and refuses nothing wrongly
    nor appends to a line that was taken back."""
    from tlatelolco.web.play.service import Service
    from tlatelolco.web.storage.db import make_engine, upgrade
    from tlatelolco.web.storage.store import Store

    engine = make_engine(f"sqlite:///{tmp_path / 'two.db'}")
    upgrade(engine)
    first, second = Service(Store(engine)), Service(Store(engine))
    row, tokens, _ = first.create("grand_bazaar", {"num_players": 2}, ["taken", "taken"],
                                  "Ana", True)
    live = first.live(row.id)
    seat = live.state.current_player()
    token = tokens[seat]
    start = live.version
    legal = live.state.legal_actions()
    first.act(row.id, token, legal[0], None, start)
    assert second.live(row.id).version == start + 1  # the second process has the move
    first.undo(row.id, token, start + 1)
    # the second process plays another first move on the final line, not after the taken one
    other = next(a for a in legal if a != legal[0])
    second.act(row.id, token, other, None, start)
    assert second.live(row.id).state.history()[start:] == [other]
    first.refresh(first.live(row.id))
    assert first.live(row.id).state == second.live(row.id).state
    stale = second.store.commit_actions(row.id, start + 1, [(legal[0], seat)], "running", None,
                                        0)  # a writer that missed the undo count
    assert not stale
