"""`tlatelolco bench server` on a small scale: a real server subprocess, real sockets.

Why: the benchmark is how issue 6's bar (no error, no lost move at 100 concurrent games) is
checked, so its own accounting must be right: moves are made, acknowledged and found stored.
Speed is not asserted here (a loaded CI machine would make that flaky); the figures are only
checked for shape.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from tlatelolco.web.benchmark import Bench, Game, Seat, percentiles, run_server_bench
from tlatelolco.web.storage.db import make_engine, upgrade
from tlatelolco.web.storage.store import GameRow, SeatRow, Store

KEYS = {"games", "moves", "seconds", "moves_per_s", "latency_ms", "errors", "lost"}


def test_small_run_plays_and_loses_nothing() -> None:
    result = run_server_bench(games=4, game="grand_bazaar", players=2, moves=150, seconds=60)
    assert set(result) >= KEYS, result
    assert result["errors"] == 0, result["error_samples"]
    assert result["lost"] == 0, result
    assert result["checked"] == "database"  # the stored histories were read, not only the API
    assert result["games"] == 4 and result["games_played"] >= 4
    assert 0 < result["moves"] <= 150
    assert result["seconds"] > 0 and result["moves_per_s"] > 0
    latency = result["latency_ms"]
    assert set(latency) >= {"p50", "p95", "p99", "max"}
    assert 0 < latency["p50"] <= latency["p95"] <= latency["p99"] <= latency["max"]


def test_a_game_the_server_refuses_fails_at_once() -> None:
    """A wrong game or player count is the caller's mistake, not 20 s of counted errors."""
    with pytest.raises(ValueError, match=r"refuses.*num_players"):
        run_server_bench(games=2, game="grand_bazaar", players=9, seconds=30)


def test_percentiles_are_nearest_rank_in_milliseconds() -> None:
    values = [i / 1000 for i in range(1, 101)]  # 1 ms .. 100 ms
    assert percentiles(values) == {"p50": 50.0, "p95": 95.0, "p99": 99.0, "max": 100.0,
                                   "mean": 50.5}
    assert percentiles([])["p95"] is None


@pytest.mark.parametrize("bad", [{"games": 0}, {"moves": 0}, {"seconds": 0}, {"players": 0}])
def test_bad_arguments_fail_before_starting_a_server(bad: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        run_server_bench(**bad)


def test_the_lost_move_check_finds_missing_and_wrong_steps(tmp_path: Path) -> None:
    """The check is not vacuous: a step past the stored history, or stored with another
    action, is lost; one the API's version does not cover is lost too."""
    url = f"sqlite:///{tmp_path / 'lost.db'}"
    engine = make_engine(url)
    upgrade(engine)
    store = Store(engine)
    for game_id in ("a", "b"):
        store.create_game(GameRow(id=game_id, game="grand_bazaar", options={}, seed="1",
                                  status="running", version=0, listed=False,
                                  seats=[SeatRow(0, "human", "x"), SeatRow(1, "human", "y")]))
        assert store.commit_actions(game_id, 0, [(5, 0), (7, 1), (9, 0)], "running", None)
    engine.dispose()
    bench = Bench("http://127.0.0.1:1", "grand_bazaar", 2, 1, None, 1.0, 0, None, None)
    seats = [Seat(0, "t", random.Random(0))]
    a, b = Game("a", seats), Game("b", seats)
    a.acked = [(0, 5), (1, 7), (2, 9)]  # all stored as acknowledged
    b.acked = [(0, 5), (1, 8), (2, 9), (3, 4)]  # step 1 stored as 7; step 3 never stored
    bench.played = [a, b]
    bench.api_versions = {"a": 3, "b": 3}
    assert bench.check_database(url) == 2
    bench.api_versions = {"a": 2, "b": 3}  # the server itself says game a is at step 2
    assert bench.check_database(url) == 3
