"""The pieces behind issue 33's fair bot time and bounded storage, one at a time: the quota's
setting and its counts, the idle budget of games of bots only, the expiry of finished games
of bots, and `BotPool` serving waiting jobs in fair order. (tests/web/test_fair_bots.py
shows them together against a real server.)"""

from __future__ import annotations

import asyncio
import datetime as dt

import pytest
from tests.web import slow_jobs
from tests.web.apps import auth, create, my_turn, serve, view, wait_for
from typer.testing import CliRunner

from tlatelolco.cli.app import app
from tlatelolco.web.http.errors import ApiError
from tlatelolco.web.play.quota import Quota, check_quota
from tlatelolco.web.storage.db import make_engine, upgrade
from tlatelolco.web.storage.store import GameRow, SeatRow, Store
from tlatelolco.web.workers.bots import MAX_SPEC_LENGTH, BotPool, idle_spec
from tlatelolco.web.workers.fairness import HINT, IDLE, PERSON, Ticket


def test_quota_settings_parse_and_bad_ones_say_what_is_allowed():
    assert Quota.parse("") == Quota(20, 200)
    assert Quota.parse("games=5, daily=0") == Quota(5, 0)
    for bad in ("games=x", "games", "weekly=3", "daily=-1"):
        with pytest.raises(ValueError, match=r"KIND=N .* games, daily"):
            Quota.parse(bad)
    result = CliRunner().invoke(app, ["serve", "--quota", "games=many"])
    assert result.exit_code != 0 and "KIND=N" in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize(("spec", "cut"), [
    ("mcts:time=10", "mcts:time=1.0"),
    ("mcts", "mcts:time=1.0"),  # no time= at all: the search's default is no bound here
    ("ismcts:iterations=100000", "ismcts:iterations=100000,time=1.0"),
    ("mcts:c=0.3,time=10", "mcts:c=0.3,time=1.0"),
    ("mcts:time=0.5", "mcts:time=0.5"),  # within the budget already
    ("greedy", "greedy"), ("random", "random"),  # no search: they answer at once
])
def test_a_game_of_bots_only_cuts_each_search_to_the_idle_budget(spec, cut):
    assert idle_spec(spec, 1.0) == cut
    assert idle_spec(spec, 0.0) == spec  # 0: no cut


def test_an_idle_spec_never_outgrows_a_seat():
    long = "mcts:c=0.75,depth=10,widen=1.5,prior=0.25,rollout=greedy,reuse=1"
    assert len(long) <= MAX_SPEC_LENGTH
    assert len(idle_spec(long, 1.0)) <= MAX_SPEC_LENGTH


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request, tmp_path) -> Store:
    """A store on a new database: SQLite, and PostgreSQL (whose dates come back with their
    zone and whose correlated NOT EXISTS is planned differently)."""
    url = (f"sqlite:///{tmp_path / 'q.db'}" if request.param == "sqlite"
           else request.getfixturevalue("postgres_url"))
    engine = make_engine(url)
    upgrade(engine)
    yield Store(engine)
    engine.dispose()


def game(game_id: str, kinds: list[str], status: str, client: str | None = "1.2.3.4"
         ) -> GameRow:
    seats = [SeatRow(i, kind, f"s{i}", bot="random" if kind == "bot" else None)
             for i, kind in enumerate(kinds)]
    return GameRow(id=game_id, game="axio", options={"num_players": 2}, seed="1",
                   status=status, version=0, listed=True, seats=seats, client=client)


def test_the_quota_counts_an_addresses_unfinished_and_recent_games(db):
    for i, status in enumerate(["open", "running", "finished"]):
        db.create_game(game(f"g{i}", ["human", "bot"], status))
    db.create_game(game("other", ["human", "open"], "open", client="5.6.7.8"))
    db.create_game(game("old", ["human", "open"], "open", client=None))
    since = dt.datetime.now(dt.UTC) - dt.timedelta(days=1)
    unfinished, recent, oldest = db.client_games("1.2.3.4", since)
    assert (unfinished, recent) == (2, 3) and oldest is not None
    check_quota(db, Quota(3, 4), "1.2.3.4", 0.0)  # room for one more of each
    check_quota(db, Quota(1, 1), None, 0.0)  # not from the network: not counted
    with pytest.raises(ApiError, match="2 unfinished games stored, at most 2") as full:
        check_quota(db, Quota(2, 0), "1.2.3.4", 86_400.0 * 14)
    assert full.value.status == 429 and "deleted after 14 days without a move" in str(full.value)
    with pytest.raises(ApiError, match="created 3 games in the last 24 hours, at most 3"):
        check_quota(db, Quota(0, 3), "1.2.3.4", 0.0)


def test_finished_games_of_bots_only_expire_and_the_rest_stay(db):
    db.create_game(game("bots", ["bot", "bot"], "finished"))
    db.create_game(game("person", ["human", "bot"], "finished"))
    db.create_game(game("running", ["bot", "bot"], "running"))
    assert db.expire_games(0.0, 3600.0) == []  # ended just now: kept for an hour
    assert db.expire_games(0.0, -1.0) == ["bots"]
    assert db.load_game("person") is not None and db.load_game("running") is not None
    assert sorted(db.expire_games(-1.0, 0.0)) == ["running"]  # abandoned, as before
    assert db.load_game("person") is not None


def test_the_pool_serves_waiting_jobs_in_fair_order_not_as_they_came():
    """One worker busy; an attacker's many jobs wait, then a person's, then a hint: the hint
    goes first, then the person's game, then the attacker's games of bots."""
    async def main() -> list[str]:
        pool = BotPool(1)
        served: list[str] = []

        async def job(name: str, ticket: Ticket) -> None:
            await pool.run(slow_jobs.sleep, {"seconds": 0.05}, 10.0, ticket)
            served.append(name)

        try:
            await pool.run(slow_jobs.pid, {}, 30.0)  # started: its imports are done
            busy = asyncio.create_task(pool.run(slow_jobs.sleep, {"seconds": 0.5}, 10.0))
            await asyncio.sleep(0.1)
            tasks = [asyncio.create_task(job(f"idle{i}", Ticket(IDLE, "attacker", f"g{i}")))
                     for i in range(4)]
            await asyncio.sleep(0)
            tasks.append(asyncio.create_task(job("person", Ticket(PERSON, "victim", "v"))))
            await asyncio.sleep(0)
            tasks.append(asyncio.create_task(job("hint", Ticket(HINT, "victim", "v"))))
            await asyncio.gather(busy, *tasks)
        finally:
            pool.close()
        return served

    assert asyncio.run(main())[:2] == ["hint", "person"]


def test_a_closed_pool_fails_the_jobs_waiting_for_it():
    async def main() -> None:
        pool = BotPool(0)
        running = [asyncio.create_task(pool.run(slow_jobs.sleep, {"seconds": 0.3}, 5.0))
                   for _ in range(2)]
        waiting = asyncio.create_task(pool.run(slow_jobs.pid, {}, 5.0))
        await asyncio.sleep(0.05)
        pool.close()
        with pytest.raises(RuntimeError, match="closed"):
            await asyncio.wait_for(waiting, 2.0)
        await asyncio.gather(*running, return_exceptions=True)

    asyncio.run(main())


def test_a_rematch_counts_against_the_daily_quota_and_is_refused_beyond_it(tmp_path):
    with serve(tmp_path, quota=Quota(games=0, daily=2)) as client:
        made = create(client, "axio", ["taken", "bot:random"], num_players=2)
        game_id, token = made["id"], made["seats"][0]["token"]
        create(client, "axio", ["taken", "open"], num_players=2)  # the second of the day
        while (seen := wait_for(lambda: my_turn(client, game_id, token)))["legal"]:
            client.post(f"/api/games/{game_id}/actions", headers=auth(token),
                        json={"action": seen["legal"][0]["id"], "version": seen["version"]})
        refused = client.post(f"/api/games/{game_id}/rematch", headers=auth(token))
        assert refused.status_code == 429, refused.text
        assert "rematches count" in refused.json()["message"]
        assert view(client, game_id, token)["rematch_id"] is None  # nothing was linked
