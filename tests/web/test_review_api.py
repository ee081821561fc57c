"""Reviews on the server: asked for a finished game, queued, computed in the review workers in
batches, stored with the game; what each viewer may see of them; the replay's `then=` view.

Games are played by the server's own bots (greedy against random). Budgets are small (a few
search iterations per decision) except where a review must keep a worker busy.
"""

from __future__ import annotations

import json
import os
import statistics
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from tests.web.apps import auth, create, my_turn, serve, view, wait_for

from tlatelolco.registry import load
from tlatelolco.review import Settings, review_record
from tlatelolco.web.play.views import HIDDEN_TEXT
from tlatelolco.web.storage.db import make_engine
from tlatelolco.web.workers.reviews import reviews as reviews_table

ITERATIONS = 12
WORDS = ("played_words", "best_words")


def finished(client: TestClient, game: str, seats: list[str] | None = None) -> str:
    """A game of `game` (2 players) played to its end by the server's bots; its id."""
    created = create(client, game, seats or ["bot:greedy", "bot:random"], num_players=2)
    game_id = created["id"]
    wait_for(lambda: client.get(f"/api/games/{game_id}").json()["status"] == "finished",
             timeout=120, what=f"the bots to finish {game}")
    return str(game_id)


def review_url(game_id: str) -> str:
    return f"/api/games/{game_id}/review"


def another(client: TestClient, host: str) -> TestClient:
    """A client of the same running app (on its event loop) from another address."""
    other = TestClient(client.app, client=(host, 50_000))
    other.portal = client.portal
    return other


def wait_state(client: TestClient, game_id: str, states: tuple[str, ...], timeout: float = 120
               ) -> dict[str, Any]:
    def look() -> dict[str, Any] | None:
        found = client.get(review_url(game_id)).json()
        return found if found["state"] in states else None

    return wait_for(look, timeout, f"the review of {game_id} to be {' or '.join(states)}")


def without_words(review: dict[str, Any]) -> list[dict[str, Any]]:
    return [{k: v for k, v in d.items() if k not in WORDS} for d in review["decisions"]]


def test_only_a_finished_game_is_reviewed(tmp_path):
    with serve(tmp_path) as client:
        game = create(client, "grand_bazaar", ["taken", "bot:greedy"], num_players=2)
        refused = client.post(review_url(game["id"]))
        assert refused.status_code == 409 and refused.json()["error"] == "not_finished"
        assert "only a finished game can be reviewed" in refused.json()["message"]
        none = client.get(review_url(game["id"]))
        assert none.status_code == 200
        assert none.json() == {"state": "none", "done": 0, "total": 0, "percent": 0,
                               "position": None, "review": None, "error": None}
        tried = client.get(f"/api/games/{game['id']}/replay/1?then=28")
        assert tried.status_code == 409 and "once the game is over" in tried.json()["message"]


def test_queued_running_done_and_equal_to_the_terminals_review(tmp_path):
    """Two reviews from two clients: the first runs (its percent rising batch by batch) while
    the second waits in the queue at position 1; each ends equal to `review_record` of the
    game's record with the same settings, computed here."""
    with serve(tmp_path, review_workers=1, review_iterations=ITERATIONS) as client:
        first, second = finished(client, "grand_bazaar"), finished(client, "axio")
        asked = client.post(review_url(first))
        assert asked.status_code == 202 and asked.json()["state"] in ("queued", "running")
        assert asked.json()["total"] > 100  # Grand Bazaar's decisions
        wait_state(client, first, ("running",))
        other = another(client, "10.0.0.2")
        queued = other.post(review_url(second))
        assert queued.status_code == 202, queued.text
        assert queued.json()["state"] == "queued" and queued.json()["position"] == 1
        seen = []
        while True:
            state = client.get(review_url(first)).json()
            seen.append((state["state"], state["percent"], state["done"]))
            if state["state"] not in ("queued", "running"):
                break
            time.sleep(0.02)
        assert state["state"] == "done", state
        running = [p for s, p, _ in seen if s == "running"]
        assert running == sorted(running), "the percent never goes back"
        assert any(0 < p < 100 for p in running), seen  # progress is real, batch by batch
        assert state["percent"] == 100 and state["done"] == state["total"]
        done = wait_state(other, second, ("done", "failed"))
        assert done["state"] == "done", done
        for game_id, got in ((first, state["review"]), (second, done["review"])):
            record = client.get(f"/api/games/{game_id}/record").json()
            mine = review_record(record, Settings(iterations=ITERATIONS), workers=1)
            assert without_words(got) == mine["decisions"]
            assert got["luck"] == mine["luck"] or game_id == second  # Axio's draws: below
            for key in ("key", "summary", "returns", "labels", "settings", "length", "players"):
                assert got[key] == mine[key], key
            assert all(d["played_words"] for d in got["decisions"])
        # asked again: the stored review, at once
        again = client.post(review_url(first))
        assert again.status_code == 200 and again.json()["review"] == state["review"]


def test_the_queue_and_the_per_client_limit_say_so(tmp_path):
    with serve(tmp_path, review_workers=1, review_queue=2, review_iterations=5000) as client:
        games = [finished(client, "axio") for _ in range(3)]
        assert client.post(review_url(games[0])).status_code == 202
        second = client.post(review_url(games[1]))
        assert second.status_code == 429 and second.json()["error"] == "review_pending"
        assert "you have a review queued or running already" in second.json()["message"]
        assert games[0] in second.json()["message"]
        assert second.headers["retry-after"] == "60"
        assert client.post(review_url(games[0])).status_code == 202  # the same one: its state
        b = another(client, "10.0.0.2")
        assert b.post(review_url(games[1])).json()["state"] == "queued"
        full = another(client, "10.0.0.3").post(review_url(games[2]))
        assert full.status_code == 429 and full.json()["error"] == "review_queue_full"
        assert full.json()["message"] == ("the review queue is full (2 reviews are queued or "
                                          "running); try again in a minute")
        assert full.headers["retry-after"] == "60"
        assert another(client, "10.0.0.3").get(review_url(games[2])).json()["state"] == "none"


def replied(client: TestClient, game_id: str, token: str, version: int) -> bool:
    """Whether the bot has moved since `version` and it is our turn again (or the end)."""
    now = view(client, game_id, token)
    return now["version"] > version and (bool(now["legal"]) or now["status"] == "finished")


def bot_reply_seconds(client: TestClient, game_id: str, token: str, turns: int) -> list[float]:
    """How long the bot takes to answer each of `turns` of ours (we end our turn as soon as we
    may)."""
    times: list[float] = []
    while len(times) < turns:
        current = wait_for(lambda: my_turn(client, game_id, token), what="my turn")
        if current["status"] == "finished":
            break
        end = next((m for m in current["legal"] if m["text"] == "end turn"), current["legal"][0])
        started = time.perf_counter()
        answer = client.post(f"/api/games/{game_id}/actions", headers=auth(token),
                             json={"version": current["version"], "action": end["id"]})
        assert answer.status_code == 200, answer.text
        after = answer.json()
        if after["legal"] or after["status"] == "finished":
            continue  # still our turn: nothing for the bot to answer yet
        wait_for(lambda: replied(client, game_id, token, after["version"]),  # noqa: B023
                 what="the bot's reply")
        times.append(time.perf_counter() - started)
    return times


def test_a_running_review_does_not_starve_a_live_games_bot(tmp_path):
    """The bot of a live game (a 300-iteration search in the bot worker on each of its turns)
    answers as fast while a long review runs as before it: reviews have their own niced
    worker."""
    with serve(tmp_path, bot_workers=1, review_workers=1, review_iterations=400) as client:
        old = finished(client, "aztec_market")
        live = create(client, "axio", ["taken", "bot:ismcts:iterations=300"], num_players=2)
        game_id, token = live["id"], live["seats"][0]["token"]
        before = bot_reply_seconds(client, game_id, token, 4)
        assert client.post(review_url(old)).status_code == 202
        wait_for(lambda: client.get(review_url(old)).json()["done"] > 0, timeout=120,
                 what="the review to be under way")
        during = bot_reply_seconds(client, game_id, token, 6)
        workers = client.app.state.reviews._pool._all  # the review's own processes
        assert [os.getpriority(os.PRIO_PROCESS, w.process.pid) for w in workers] == [19]
        state = client.get(review_url(old)).json()
        assert state["state"] == "running", "the review ended before the bot was measured"
        print(f"bot replies without a review {[round(s, 2) for s in before]}, "
              f"with one running {[round(s, 2) for s in during]} (review at {state['percent']}%)")
        # a bot sharing the review's worker would wait for a batch (seconds: 4 decisions of
        # 400 iterations) on most turns; the machine's other load makes single turns noisy
        assert statistics.median(during) < 2 * statistics.median(before) + 0.5


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_review_is_stored_once_and_survives_a_restart(tmp_path, backend, request):
    db = (f"sqlite:///{tmp_path / 'games.db'}" if backend == "sqlite"
          else request.getfixturevalue("postgres_url"))
    with serve(tmp_path, db=db, review_workers=0, review_iterations=ITERATIONS) as client:
        game_id = finished(client, "axio")
        assert client.post(review_url(game_id)).status_code == 202
        first = wait_state(client, game_id, ("done", "failed"))
        assert first["state"] == "done", first
    with serve(tmp_path, db=db, review_workers=0, review_iterations=ITERATIONS) as client:
        again = client.get(review_url(game_id))
        assert again.status_code == 200 and again.json() == first
        asked = client.post(review_url(game_id))
        assert asked.status_code == 200 and asked.json() == first  # read, not computed
    with serve(tmp_path, db=db, review_workers=0, review_iterations=ITERATIONS + 1) as client:
        assert client.get(review_url(game_id)).json()["state"] == "none"  # other settings
    engine = make_engine(db)
    with engine.connect() as connection:
        rows = connection.execute(select(func.count()).select_from(reviews_table)).scalar_one()
    engine.dispose()
    assert rows == 1


def test_then_shows_the_better_move_on_the_board_and_refuses_the_illegal(tmp_path):
    with serve(tmp_path, review_iterations=ITERATIONS) as client:
        game_id = finished(client, "grand_bazaar")
        client.post(review_url(game_id))
        review = wait_state(client, game_id, ("done",))["review"]
        d = next(d for d in review["decisions"] if d["best"] != d["played"])
        url = f"/api/games/{game_id}/replay/{d['step']}"
        played = client.get(url).json()
        tried = client.get(f"{url}?then={d['best']}")
        assert tried.status_code == 200, tried.text
        alt = tried.json()
        assert alt["alternative"]["action"] == d["best"]
        assert alt["alternative"]["text"] == d["best_text"]
        assert alt["alternative"]["played_text"] == d["played_text"]
        assert alt["alternative"]["played_words"] == d["played_words"]
        assert alt["alternative"]["words"] == d["best_words"]
        assert alt["version"] == d["step"] and alt["log"][:-1] == played["log"]
        assert alt["log"][-1]["alternative"] is True and alt["log"][-1]["text"] == d["best_text"]
        game = load("grand_bazaar", **review["options"])
        record = client.get(f"/api/games/{game_id}/record").json()
        state = game.replay(record["history"][:d["step"]])
        state.apply_action(d["best"])
        assert alt["observation"] == json.loads(json.dumps(state.observation(0)))
        assert alt["observation"] != played["observation"]
        # not legal there
        illegal = next(a for a in range(game.num_distinct_actions())
                       if a not in game.replay(record["history"][:d["step"]]).legal_actions())
        refused = client.get(f"{url}?then={illegal}")
        assert refused.status_code == 400 and refused.json()["error"] == "illegal_alternative"
        assert f"action {illegal} is not a legal move at step {d['step']}" in \
            refused.json()["message"]
        assert d["played_text"] in refused.json()["message"]  # the legal moves are listed
        chance = next(s for s in range(len(record["history"]))
                      if s not in {x["step"] for x in review["decisions"]})
        at_chance = client.get(f"/api/games/{game_id}/replay/{chance}?then=0")
        assert at_chance.status_code == 400 and at_chance.json()["error"] == "not_a_decision"
        end = client.get(f"/api/games/{game_id}/replay/{len(record['history'])}?then=0")
        assert end.status_code == 400 and end.json()["error"] == "bad_step"
        for bad in ("-1", "x", "1.5", str(2**40), "true"):
            assert client.get(f"{url}?then={bad}").status_code == 422, bad


def test_garbage_and_oversize_requests_are_refused(tmp_path):
    with serve(tmp_path) as client:
        game_id = finished(client, "axio")
        assert client.post(review_url("nosuchgame")).status_code == 404
        assert client.get(review_url("nosuchgame")).status_code == 404
        assert client.post(review_url("x" * 17)).status_code == 422
        assert client.post("/api/games/bad%20id/review").status_code == 422
        assert client.post(review_url(game_id) + "?lang=xx").status_code == 422
        assert client.post(review_url(game_id), headers={"Authorization": "Basic x"}
                           ).status_code == 401
        assert client.post(review_url(game_id), headers=auth("not-a-seat")).status_code == 403
        big = client.post(review_url(game_id), content=b"{" + b" " * 70_000 + b"}",
                          headers={"Content-Type": "application/json"})
        assert big.status_code == 413
        for response in (client.post(review_url("x" * 17)), big):
            assert set(response.json()) == {"error", "message", "status"}
        assert client.get(review_url(game_id)).json()["state"] == "none"  # nothing queued


def test_a_review_shows_each_viewer_only_what_its_replay_shows(tmp_path, monkeypatch):
    """Axio: the draws into other seats' hands are "a hidden draw" in luck's texts, as in the
    log. Its moves keep no secret (the hand tile is the tile placed), so every viewer sees the
    better moves; in a game whose moves did (here: Axio taken out of OPEN_MOVES) only the
    mover sees its own, and only the mover may try them on the board."""
    with serve(tmp_path, review_iterations=ITERATIONS) as client:
        created = create(client, "axio", ["taken", "bot:greedy"], num_players=2)
        game_id, token = created["id"], created["seats"][0]["token"]
        while (current := wait_for(lambda: my_turn(client, game_id, token)))["status"] != \
                "finished":
            client.post(f"/api/games/{game_id}/actions", headers=auth(token),
                        json={"version": current["version"], "action": current["legal"][0]["id"]})
        client.post(review_url(game_id))
        wait_state(client, game_id, ("done",))
        record = client.get(f"/api/games/{game_id}/record").json()
        end = load("axio", **record["options"]).replay(record["history"])
        for viewer, headers in ((None, {}), (0, auth(token))):
            review = client.get(review_url(game_id), headers=headers).json()["review"]
            assert review["viewer"] == viewer
            hidden = end.public_hidden_steps() if viewer is None else end.hidden_steps(viewer)
            assert hidden  # the other seat's draws at least
            texts = {e["from"] + i: text for e in review["luck"]
                     for i, text in enumerate(e["texts"])}
            replayed = client.get(f"/api/games/{game_id}/replay/{len(record['history'])}",
                                  headers=headers).json()["log"]
            for step, text in texts.items():
                assert text == replayed[step]["text"]  # what the replay's log says
                assert (text == HIDDEN_TEXT) == (step in hidden)
            assert all(d["best"] is not None for d in review["decisions"])
        monkeypatch.setattr("tlatelolco.web.workers.reviews.OPEN_MOVES", frozenset())
        spectator = client.get(review_url(game_id)).json()["review"]
        assert all(d["best"] is None and d["best_text"] is None and d["legal"] is None
                   for d in spectator["decisions"])
        mine = client.get(review_url(game_id), headers=auth(token)).json()["review"]
        for d in mine["decisions"]:
            assert (d["best"] is not None) == (d["seat"] == 0)
        theirs = next(d for d in mine["decisions"] if d["seat"] == 1)
        ours = next(d for d in mine["decisions"] if d["seat"] == 0)
        url = f"/api/games/{game_id}/replay/{{}}?then={{}}"
        refused = client.get(url.format(theirs["step"], theirs["played"]), headers=auth(token))
        assert refused.status_code == 403 and refused.json()["error"] == "hidden"
        assert client.get(url.format(ours["step"], ours["best"]), headers=auth(token)
                          ).status_code == 200
        assert client.get(url.format(ours["step"], ours["best"])).status_code == 403
