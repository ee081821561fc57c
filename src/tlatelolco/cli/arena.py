"""`tlatelolco arena`: a seat-rotated tournament of bots, played in parallel, rated and saved.

The arena's modules (and openskill, and Ray when asked for) are imported inside the command, so
other commands start as fast as before.
"""

from __future__ import annotations

import json
import os
import re
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any

import typer
from rich import box
from rich.console import Console
from rich.table import Table

from tlatelolco.cli.common import FAILURE, fail, games_progress
from tlatelolco.cli.play import player_count, split_pairs
from tlatelolco.extras import require
from tlatelolco.registry import game_class

# a `key=value` part continues the spec before it; any other part starts a new bot
PARAMETER = re.compile(r"\s*[A-Za-z_]\w*\s*=")


def split_bots(values: list[str]) -> list[str]:
    """Bot specs from `--bots` values: `greedy,random` is two bots, but `mcts:time=1,c=0.7` is
    one, since a spec's own parameters are separated by commas too."""
    specs: list[str] = []
    for value in values:
        current: str | None = None
        for part in filter(str.strip, value.split(",")):
            if PARAMETER.match(part):
                if current is None:
                    fail(f"--bots {value!r}: {part.strip()!r} is a parameter without a bot "
                         "before it; write it like mcts:time=1,c=0.7")
                current += "," + part.strip()
            else:
                if current is not None:
                    specs.append(current)
                current = part.strip()
        if current is not None:
            specs.append(current)
    if not specs:
        fail("--bots names no bot; give specs like --bots greedy,random")
    return specs


def default_players(game: str, bots: int) -> int:
    """As many seats as bots, within what the game allows."""
    info = game_class(game).info
    return min(max(bots, info.min_players), info.max_players)


def arena(
    game: Annotated[str, typer.Argument(help="Game name (see `tlatelolco list`).")],
    bots: Annotated[list[str], typer.Option(
        "--bots", "-b", metavar="SPECS",
        help="Bot specs, comma-separated (greedy,random) or repeated (--bots mcts:time=1,c=0.7 "
        "--bots greedy).")],
    games: Annotated[int, typer.Option(help="Games to play.")] = 100,
    players: Annotated[int | None, typer.Option(
        "--players", "-n", help="Seats per game (default: one per bot, within the game's "
        "range). With fewer bots than seats some bots take several seats; with more, each "
        "game seats a subset and every pair meets.")] = None,
    seed: Annotated[int, typer.Option(help="Seed of the whole tournament.")] = 0,
    workers: Annotated[int | None, typer.Option(
        help="Processes playing at once (default: one per CPU; with --ray local, the CPUs "
        "of the Ray instance).")] = None,
    ray: Annotated[str | None, typer.Option(
        "--ray", metavar="ADDRESS", help="Play on Ray: local (start one here), auto (the "
        "running cluster) or ray://host:10001.")] = None,
    out: Annotated[Path | None, typer.Option(
        help="Directory for records.jsonl and summary.json (default: "
        "arena-runs/GAME-Np-UTCTIME).")] = None,
    option: Annotated[list[str] | None, typer.Option(
        "--option", "-o", metavar="KEY=VALUE", help="A game option, e.g. setup=random; repeat "
        "as needed.")] = None,
    json_path: Annotated[Path | None, typer.Option(
        "--json", metavar="PATH", help="Also write the summary to this JSON file.")] = None,
    sighted: Annotated[list[str] | None, typer.Option(
        "--sighted", metavar="SPECS", help="Research, not fair play: this bot (one of --bots; "
        "written as there) "
        "is handed the true state, hidden hands and all, to measure what seeing them is "
        "worth (Axio).")] = None,
) -> None:
    """Play a tournament of bots with seats rotated: win shares, ratings, saved records."""
    from tlatelolco.arena.results import summarize
    from tlatelolco.arena.runner import ArenaError, play_all
    from tlatelolco.arena.schedule import schedule
    from tlatelolco.arena.storage import RECORDS, SUMMARY, default_out, save_run

    specs = split_bots(bots)
    try:
        game_class(game)
    except ValueError as err:
        fail(str(err))
    options: dict[str, Any] = dict(split_pairs(option or [], "--option", "setup=random"))
    players = player_count(options, players)
    if games < 1:
        fail(f"--games {games}: play at least 1 game")
    if workers is not None and workers < 1:
        fail(f"--workers {workers}: use at least 1 worker process")
    if ray is not None and not ray.strip():
        fail("--ray needs an address: local, auto or ray://host:10001")
    if ray is not None:
        require("ray", "cluster")  # refused with the install command before any game is played
    count = default_players(game, len(specs)) if players is None else players
    try:
        matches = schedule(game, specs, games, count, seed, options,
                           split_bots(sighted) if sighted else None)
    except ValueError as err:
        fail(str(err))
    out = default_out(game, count) if out is None else out
    if (out / RECORDS).exists():
        fail(f"--out {out} already holds a run ({RECORDS}); choose another directory")
    try:  # before the games, not after them: a run that cannot be saved is not started
        out.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        fail(f"--out {out}: cannot create the directory: {err}")

    console = Console()
    processes = workers or os.cpu_count() or 1
    where = (f"on Ray ({ray})" if ray else "in this process" if processes == 1
             else f"in {processes} worker processes")
    console.print(f"{games} games of {game}, {count} players: {', '.join(specs)} "
                  f"(seed {seed}, {where})", markup=False, highlight=False)
    seeing = matches[0].sighted
    if seeing:
        console.print(f"sighted, handed the true state (not fair play): {', '.join(seeing)}",
                      markup=False, highlight=False)
    started = datetime.now(UTC)
    clock = time.perf_counter()
    try:
        with games_progress(console) as bar:
            task = bar.add_task("games", total=len(matches))
            records = play_all(matches, workers=workers, ray_address=ray,
                               progress=lambda done, _total: bar.update(task, completed=done))
    except ArenaError as err:
        if not any(out.iterdir()):
            out.rmdir()
        fail(str(err), FAILURE)
    seconds = time.perf_counter() - clock
    summary = summarize(matches, records, specs)
    run = {"game": game, "players": count, "options": options, "bots": specs, "games": games,
           "seed": seed, "sighted": list(seeing), "workers": workers, "ray": ray,
           "started": started.isoformat(),
           "seconds": round(seconds, 3)}
    data = {"run": run, **summary.as_dict()}
    try:
        save_run(out, records, data)
        if json_path is not None:
            json_path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    except OSError as err:
        fail(f"cannot save the run: {err}", FAILURE)
    console.print(results_table(summary, seeing))
    console.print(seats_table(summary))
    console.print(f"{games} games in {seconds:.1f} s", markup=False, highlight=False)
    for name in (RECORDS, SUMMARY):  # whole lines, so a long path can be copied in one piece
        console.print(f"{name.split('.')[0]}: {out / name}", markup=False, highlight=False,
                      soft_wrap=True)


def num(value: float | None, digits: int = 3) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


def results_table(summary: Any, sighted: tuple[str, ...] = ()) -> Table:
    """Best bot first (by conservative rating), with everything needed to judge the gap; a
    sighted bot is marked as such."""
    table = Table(title=f"Arena: {summary.game}, {summary.num_players} players, "
                  f"{summary.games} games", title_justify="left", box=box.SIMPLE_HEAD,
                  pad_edge=False, collapse_padding=True)
    longest = max(len(b.bot) for b in summary.bots)
    table.add_column("bot", min_width=min(longest, 12), overflow="fold")
    for column in ("games", "win\nshare", "95%\ninterval", "even\nshare", "rating\nμ ± σ",
                   "ordinal\n(μ-3σ)", "mean\nscore"):
        table.add_column(column, justify="right", no_wrap=True)
    for b in summary.ranked():
        interval = "–" if b.ci95 is None else f"{b.ci95[0]:.3f}–{b.ci95[1]:.3f}"
        rated = b.rated_games > 0
        name = f"{b.bot} (sighted)" if b.bot in sighted else b.bot
        table.add_row(name, str(b.games), num(b.win_share), interval, num(b.even_share),
                      f"{b.mu:.1f} ± {b.sigma:.1f}" if rated else "–",
                      num(b.ordinal, 1) if rated else "–", num(b.mean_score, 1))
    return table


def seats_table(summary: Any) -> Table:
    """Each bot's win share in each seat: a seat advantage shows as a slope along a row."""
    table = Table(title="Win share by seat", title_justify="left", box=box.SIMPLE_HEAD,
                  pad_edge=False, collapse_padding=True)
    table.add_column("bot", min_width=min(max(len(b.bot) for b in summary.bots), 24),
                     overflow="fold")
    for seat in range(summary.num_players):
        table.add_column(f"seat {seat}", justify="right", no_wrap=True)
    for b in summary.ranked():
        shares = {s.seat: num(s.win_share) for s in b.by_seat}
        table.add_row(b.bot, *(shares.get(seat, "–") for seat in range(summary.num_players)))
    return table
