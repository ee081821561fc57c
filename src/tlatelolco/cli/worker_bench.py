"""`tlatelolco bench server --workers N`: bot moves per second on N remote workers (see
`tlatelolco.web.worker_benchmark`)."""

from __future__ import annotations

import json
from pathlib import Path

from rich.console import Console
from rich.table import Table

from tlatelolco.cli.common import FAILURE, bench_game, fail
from tlatelolco.extras import require

DEFAULT_GAMES = 8
DEFAULT_SECONDS = 20.0


def bench_workers(workers: int, redis: str | None, game: list[str] | None,
                  seconds: float | None, players: int | None, games: int | None,
                  url: str | None, json_path: Path | None) -> None:
    """Start Redis (unless given), a server in remote mode and `workers` workers; play games
    of bots only; print bot moves per second."""
    from tlatelolco.web.worker_benchmark import MAX_WORKERS, run_worker_bench

    if not 1 <= workers <= MAX_WORKERS:
        fail(f"--workers {workers}: give a number of worker processes from 1 to {MAX_WORKERS}")
    if url is not None:
        fail("--workers starts its own server and workers: it cannot measure --url")
    if games is not None and games < 1:
        fail(f"--games {games}: give at least 1")
    name, count = bench_game(game, players)
    require("rq", "server")
    console = Console()
    games = DEFAULT_GAMES if games is None else games
    seconds = DEFAULT_SECONDS if seconds is None else seconds
    console.print(f"Playing {games} {name} games of bots only on {workers} remote worker"
                  f"{'s' if workers > 1 else ''} for {seconds:g} s ...", markup=False)
    try:
        row = run_worker_bench(workers, redis, name, count, games, seconds)
    except (ValueError, RuntimeError, OSError) as err:
        fail(str(err), FAILURE)
    table = Table(title="Bot moves on remote workers", title_justify="left",
                  caption=f"each seat {row['bot']}; moves: the games' steps, bots' moves and "
                  "chance draws", caption_justify="left")
    for column in ("game", "workers", "games", "moves", "seconds", "moves/s"):
        table.add_column(column, justify="left" if column == "game" else "right")
    table.add_row(name, str(workers), str(games), f"{row['moves']:,}", f"{row['seconds']:g}",
                  f"{row['moves_per_s']:,.1f}")
    console.print(table)
    if json_path is not None:
        try:
            json_path.write_text(json.dumps(row, indent=1) + "\n", encoding="utf-8")
        except OSError as err:
            fail(f"cannot write {json_path}: {err}", FAILURE)
