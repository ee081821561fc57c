"""Ratings: a finished game between accounts (or against reference bots) is rated once, by
openskill as the arena rates, leavers and forfeits last; a game with a guest is not rated."""

from __future__ import annotations

import multiprocessing
import random
from typing import Any

import pytest
from sqlalchemy import func, select
from tests.web.apps import claim, serve, wait_for
from tests.web.social_helpers import create, join, person, play_out, profile, rated

from tlatelolco.web.accounts import users
from tlatelolco.web.accounts.identity import Account
from tlatelolco.web.play.service import Service
from tlatelolco.web.social import ratings
from tlatelolco.web.social.ratings import (
    LAST,
    Entrant,
    Seat,
    bot_level,
    entrants,
    places,
    rate,
    rate_game,
    references,
    shown,
)
from tlatelolco.web.storage.db import make_engine, rated_games, rating_history, upgrade
from tlatelolco.web.storage.db import ratings as ratings_table
from tlatelolco.web.storage.store import Store

START = shown(25.0, 25.0 / 3.0)  # a new account's shown rating


@pytest.fixture
def client(tmp_path):
    with serve(tmp_path) as c:
        yield c


def engine_of(client: Any) -> Any:
    return client.app.state.hub.service.store.engine


def settled(client: Any, game_id: str) -> bool:
    with engine_of(client).connect() as db:
        return db.execute(select(rated_games.c.game_id)
                          .where(rated_games.c.game_id == game_id)).first() is not None


def decisive_game(client: Any, a: dict[str, str], b: dict[str, str], seed: int
                  ) -> dict[str, Any]:
    """A two-account Axio game played to the end through the API, retried on a draw."""
    for attempt in range(5):
        game = create(client, a, "axio", ["taken", "open"], num_players=2)
        join(client, b, game["id"], 1)
        final = play_out(client, game["id"], [a, b], seed=seed + attempt)
        if sorted(final["result"]["returns"]) == [0.0, 1.0]:
            return final
        wait_for(lambda g=game: settled(client, g["id"]), what="the draw settled")
    raise AssertionError("five draws in a row")


def test_a_game_between_two_accounts_moves_both_ratings_winner_up(client):
    ana, bea = person(client, "Ana"), person(client, "Bea")
    final = decisive_game(client, ana, bea, seed=1)
    winner, loser = ("Ana", "Bea") if final["result"]["returns"][0] == 1.0 else ("Bea", "Ana")
    won, lost = rated(client, winner, "axio"), rated(client, loser, "axio")
    assert won["games"]["axio"]["rating"] > START > lost["games"]["axio"]["rating"]
    assert won["games"]["axio"]["won"] >= 1 and lost["games"]["axio"]["played"] >= 1
    assert [p["rating"] for p in won["history"]["axio"]][-1] == won["games"]["axio"]["rating"]
    mine = won["recent"][0]
    assert (mine["id"], mine["result"], mine["rank"], mine["rated"]) == (
        final["id"], "won", 1, True)
    assert lost["recent"][0]["result"] == "lost" and lost["recent"][0]["rank"] == 2
    board = client.get("/api/leaderboard/axio").json()
    assert [p["name"] for p in board["players"]][:2] == [winner, loser]
    # the numbers are openskill's own: the same update by hand
    expected = rate("axio", [Entrant(1, None, 1.0), Entrant(2, None, 0.0)], {})
    assert won["games"]["axio"]["rating"] == shown(*expected[1][:2]) or \
        won["games"]["axio"]["rated"] > 1


def test_a_game_with_a_guest_is_not_rated(client):
    ana = person(client, "Ana")
    game = create(client, ana, "axio", ["taken", "open"], num_players=2)
    guest = claim(client, game, 1, "Guest")
    guest_headers = {"Authorization": f"Bearer {guest}"}
    play_out(client, game["id"], [ana, guest_headers], seed=3)
    wait_for(lambda: settled(client, game["id"]), what="the game settled")
    found = profile(client, "Ana")
    assert found["games"]["axio"]["played"] == 1
    assert found["games"]["axio"]["rated"] == 0 and found["games"]["axio"]["rating"] is None
    assert found["history"] == {} and found["recent"][0]["rated"] is False
    with engine_of(client).connect() as db:
        assert db.execute(select(func.count()).select_from(ratings_table)).scalar_one() == 0


def test_a_game_against_a_bot_is_rated_against_its_fixed_reference(client):
    ana = person(client, "Ana")
    before = client.get("/api/leaderboard/axio").json()["bots"]
    game = create(client, ana, "axio", ["taken", "bot:random"], num_players=2)
    final = play_out(client, game["id"], [ana], seed=5)
    found = rated(client, "Ana", "axio")
    mine = final["result"]["returns"][0]
    field = [Entrant(7, None, mine), Entrant(None, "easy", final["result"]["returns"][1])]
    mu, sigma, _ = rate("axio", field, {})[7]
    assert found["games"]["axio"]["rating"] == shown(mu, sigma)
    after = client.get("/api/leaderboard/axio").json()["bots"]
    assert before == after  # the bot's rating never moves
    assert [b["rating"] for b in after] == [shown(*references("axio")[level])
                                            for level in ("easy", "medium", "hard")]
    # a second game against it: the bot is still where it was
    game = create(client, ana, "axio", ["taken", "bot:random"], num_players=2)
    play_out(client, game["id"], [ana], seed=6)
    rated(client, "Ana", "axio", times=2)
    assert client.get("/api/leaderboard/axio").json()["bots"] == before


def test_a_weakened_bot_is_no_reference_and_its_game_is_not_rated(client):
    ana = person(client, "Ana")
    game = create(client, ana, "axio", ["taken", "bot:ismcts:iterations=2"], num_players=2)
    play_out(client, game["id"], [ana], seed=7)
    wait_for(lambda: settled(client, game["id"]), what="the game settled")
    assert profile(client, "Ana")["games"]["axio"]["rated"] == 0


def test_a_leaver_ranks_last(client):
    ana, bea, cid = person(client, "Ana"), person(client, "Bea"), person(client, "Cid")
    game = create(client, ana, "axio", ["taken", "open"], num_players=2)
    join(client, bea, game["id"], 1)
    rng = random.Random(0)
    from tests.web.social_helpers import move
    wait_for(lambda: move(client, game["id"], ana, rng) or move(client, game["id"], bea, rng),
             what="a first move")
    assert client.post(f"/api/games/{game['id']}/leave", headers=ana).status_code == 200
    join(client, cid, game["id"], 0)  # Cid plays Ana's seat on
    play_out(client, game["id"], [bea, cid], seed=8)
    left = rated(client, "Ana", "axio")
    assert left["games"]["axio"]["rating"] < START
    assert left["recent"][0]["result"] == "left"
    with engine_of(client).connect() as db:
        ranks = dict(db.execute(select(rating_history.c.user_id, rating_history.c.rank)
                                .where(rating_history.c.game_id == game["id"])).all())
    assert len(ranks) == 3
    ana_id = users.find(engine_of(client), "Ana").id
    assert ranks[ana_id] == 3 and sorted(ranks.values())[:2] in ([1, 2], [1, 1])


# --- who is rated, and how: the rules without a server -------------------------------------

def seat(n: int, kind: str, bot: str | None = None, user: int | None = None,
         forfeited: bool = False, timeouts: int = 0) -> Seat:
    return Seat(n, kind, bot, user, forfeited, timeouts)


def test_who_is_an_entrant():
    two = {"num_players": 2}
    result = {"returns": [0.0, 1.0]}
    assert entrants("axio", two, [seat(0, "human", user=1), seat(1, "human", user=2)],
                    result, {}) == [Entrant(1, None, 0.0), Entrant(2, None, 1.0)]
    # a guest, an open seat, a bot away from the lobby's levels: not rated
    assert entrants("axio", two, [seat(0, "human", user=1), seat(1, "human")], result, {}) \
        is None
    assert entrants("axio", two, [seat(0, "human", user=1), seat(1, "open")], result, {}) \
        is None
    assert entrants("axio", two, [seat(0, "human", user=1), seat(1, "bot", "greedy:x=3")],
                    result, {}) is None
    # bots alone, or one account against itself: nothing to learn
    assert entrants("axio", two, [seat(0, "bot", "random"), seat(1, "bot", "greedy")],
                    result, {}) is None
    assert entrants("mexica", two, [seat(0, "human", user=1), seat(1, "human", user=1)],
                    result, {}) is None
    # a forfeit is last whatever the returns say; a bot that plays it on is no entrant
    assert entrants("axio", two, [seat(0, "human", user=1, forfeited=True),
                                  seat(1, "human", user=2)], {"returns": [1.0, 0.0]}, {}) == [
        Entrant(1, None, LAST), Entrant(2, None, 0.0)]
    # dropped on time: the seat went to a bot and the account counts as a leaver
    assert entrants("axio", two, [seat(0, "bot", "greedy", timeouts=3),
                                  seat(1, "human", user=2)], result, {1: 0}) == [
        Entrant(2, None, 1.0), Entrant(1, None, LAST)]
    # ... but a guest dropped the same way leaves a game a guest played: not rated
    assert entrants("axio", two, [seat(0, "bot", "greedy", timeouts=3),
                                  seat(1, "human", user=2)], result, {}) is None
    # an account holding two seats is one entrant, placed by their mean
    assert entrants("mexica", {"num_players": 3}, [
        seat(0, "human", user=1), seat(1, "human", user=1), seat(2, "bot", "mcts:time=2")],
        {"returns": [1.0, 0.0, 0.0]}, {}) == [Entrant(1, None, 0.5), Entrant(None, "hard", 0.0)]


def test_places_share_ties_and_bots_are_read_by_level():
    assert places([1.0, 0.5, 0.5, 0.0, LAST, LAST]) == [1, 2, 2, 4, 5, 5]
    assert [bot_level(s) for s in ("random", "greedy", "mcts", "mcts:time=2", "ismcts:time=0.5",
                                   "mcts:time=0.2", "mcts:iterations=50", "mcts:time=2,c=9",
                                   "greedy:cover=1", "nonsense:", None)] == [
        "easy", "medium", "hard", "hard", "hard", None, None, None, None, None, "easy"]
    for game in ("aztec_market", "axio", "grand_bazaar", "mexica"):
        levels = references(game)
        assert levels["easy"][0] < levels["medium"][0] < levels["hard"][0]


# --- once: the same game settled twice, in two processes at once ---------------------------

def finished_game(url: str) -> tuple[str, list[int]]:
    """A two-account Axio game played to its end by the service alone (no server, so nobody
    rated it yet); its id and the accounts."""
    engine = make_engine(url)
    upgrade(engine)
    try:
        made = [users.create(engine, name, "not a password hash") for name in ("Ana", "Bea")]
        service = Service(Store(engine))
        ana, bea = (Account(u.id, u.name) for u in made)
        row, _, _ = service.create("axio", {"num_players": 2}, ["taken", "open"], None, True,
                                   account=ana)
        service.join(row.id, 1, None, account=bea)
        rng = random.Random(4)
        live = service.live(row.id)
        while not live.state.is_terminal():
            who = ana if live.state.current_player() == 0 else bea
            service.act(row.id, who, rng.choice(live.state.legal_actions()), None, live.version)
        return row.id, [u.id for u in made]
    finally:
        engine.dispose()


def settle_in_process(url: str, game_id: str, start: Any, out: Any) -> None:
    engine = make_engine(url)
    start.wait(30)
    out.put(rate_game(engine, game_id))
    engine.dispose()


def settled_once(url: str) -> None:
    game_id, people = finished_game(url)
    context = multiprocessing.get_context("spawn")
    start, out = context.Barrier(2), context.Queue()
    workers = [context.Process(target=settle_in_process, args=(url, game_id, start, out))
               for _ in range(2)]
    for w in workers:
        w.start()
    for w in workers:
        w.join(60)
        assert w.exitcode == 0
    assert sorted([out.get(timeout=5), out.get(timeout=5)]) == [False, True]
    engine = make_engine(url)
    try:
        assert rate_game(engine, game_id) is False  # and a listener that runs again
        with engine.connect() as db:
            history = db.execute(select(rating_history.c.user_id)
                                 .where(rating_history.c.game_id == game_id)).scalars().all()
            played = db.execute(select(ratings_table.c.played)).scalars().all()
        assert sorted(history) == sorted(people) and played == [1, 1]
    finally:
        engine.dispose()


def test_a_game_is_rated_once_by_two_processes_at_once_on_sqlite(tmp_path):
    settled_once(f"sqlite:///{tmp_path / 'once.db'}")


def test_a_game_is_rated_once_by_two_processes_at_once_on_postgres(postgres_url):
    settled_once(postgres_url)


def test_games_finished_while_no_server_ran_are_rated_at_start(tmp_path):
    url = f"sqlite:///{tmp_path / 'web.db'}"
    game_id, _ = finished_game(url)
    with serve(tmp_path) as client:
        found = rated(client, "Ana", "axio")
        assert found["games"]["axio"]["rated"] == 1 and settled(client, game_id)


def test_the_listener_settles_a_game_once_however_often_it_hears_of_it(client):
    ana, bea = person(client, "Ana"), person(client, "Bea")
    final = decisive_game(client, ana, bea, seed=11)
    rated(client, "Ana", "axio")
    hub = client.app.state.hub
    listener = client.app.state.ratings
    fresh = ratings.Ratings(hub)  # as another listener (another process) would

    async def hear_twice() -> None:
        from tlatelolco.web.play.service import Change
        change = Change(final["id"], final["version"], final["version"])
        for heard in (listener, fresh, fresh):
            await heard.on_change(change)
        await fresh.wait()
        await listener.wait()

    client.portal.call(hear_twice)
    with engine_of(client).connect() as db:
        assert db.execute(select(func.count()).select_from(rating_history)
                          .where(rating_history.c.game_id == final["id"])).scalar_one() == 2
    assert profile(client, "Ana")["games"]["axio"]["rated"] == 1
