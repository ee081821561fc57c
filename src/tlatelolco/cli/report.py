"""`tlatelolco report`: a balance report of self-play games per bot kind, with a progress bar."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from tlatelolco.cli.arena import split_bots
from tlatelolco.cli.common import FAILURE, fail, games_progress
from tlatelolco.cli.play import load_game, split_pairs
from tlatelolco.report import SEARCH_ITERATIONS, default_bots


def command_line(game: str, games: int, players: int | None, specs: list[str], seed: int,
                 workers: int | None, ray: str | None, out: Path | None,
                 options: list[tuple[str, str]]) -> str:
    """The command that makes this report again, defaults spelt out (shown on the page)."""
    words = ["tlatelolco", "report", game, "--games", str(games)]
    if players is not None:
        words += ["--players", str(players)]
    words += ["--bots", ",".join(specs), "--seed", str(seed)]
    for flag, value in (("--workers", workers), ("--ray", ray), ("--out", out)):
        if value is not None:
            words += [flag, str(value)]
    for key, value in options:
        words += ["--option", f"{key}={value}"]
    return shlex.join(words)


def report(
    game: Annotated[str, typer.Argument(help="Game name (see `tlatelolco list`).")],
    games: Annotated[int, typer.Option(
        "--games", help="Self-play games per bot kind.")] = 100,
    players: Annotated[int | None, typer.Option(
        "--players", "-n", help="Number of players (default: the game's default).")] = None,
    bots: Annotated[list[str] | None, typer.Option(
        "--bots", "-b", metavar="SPEC[,SPEC...]",
        help="Bot kinds to compare, comma-separated (random,greedy) or repeated (--bots "
        f"mcts:iterations=50,depth=4 --bots greedy); default: random, greedy and the game's "
        f"search bot (ismcts where hands are hidden, else mcts) at iterations="
        f"{SEARCH_ITERATIONS}.",
    )] = None,
    seed: Annotated[int, typer.Option(help="Seed of the whole report.")] = 0,
    workers: Annotated[int | None, typer.Option(
        help="Worker processes (default: one per core).")] = None,
    ray: Annotated[str | None, typer.Option(
        "--ray", metavar="ADDRESS",
        help="Play on Ray: local (a Ray instance here), auto or ray://HOST:10001.")] = None,
    out: Annotated[Path | None, typer.Option(
        help="Where to write the HTML (default: reports/GAME-Np.html; the JSON goes beside "
        "it).")] = None,
    option: Annotated[list[str] | None, typer.Option(
        "--option", "-o", metavar="KEY=VALUE",
        help="A game option, e.g. setup=random; repeat as needed.")] = None,
) -> None:
    """Balance report: win rate by seat, scores, game length and tie-breaks in self-play."""
    from tlatelolco.arena.runner import ArenaError  # imported here: other commands start fast
    from tlatelolco.report.build import build_report, check_bots

    if games < 1:
        fail(f"--games {games}: give at least 1 game per bot kind")
    if workers is not None and workers < 1:
        fail(f"--workers {workers}: give at least 1 worker")
    loaded = load_game(game, option or [], players)
    specs = split_bots(bots) if bots else list(default_bots(loaded))
    try:
        check_bots(loaded, specs)
    except ValueError as err:
        fail(f"--bots: {err}")
    options = {k: v for k, v in loaded.options.items() if k != "num_players"}
    command = command_line(loaded.info.name, games, players, specs, seed, workers, ray, out,
                           split_pairs(option or [], "--option", "setup=random"))
    console = Console()
    try:
        with games_progress(console) as bar:
            tasks = {spec: bar.add_task(spec, total=games, start=False) for spec in specs}

            def advance(spec: str, done: int, total: int) -> None:
                bar.start_task(tasks[spec])  # its clock runs from its first game on
                bar.update(tasks[spec], completed=done, total=total)

            path = build_report(loaded.info.name, games, loaded.num_players(), specs, seed,
                                workers=workers, ray_address=ray, out=out, progress=advance,
                                options=options, command=command)
    except OSError as err:
        fail(f"cannot write the report: {err}", FAILURE)
    except ArenaError as err:
        fail(str(err), FAILURE)
    except ValueError as err:  # what only the runner checks, e.g. an empty Ray address
        fail(str(err))
    console.print(f"Report written to {path} (numbers in {path.with_suffix('.json')})",
                  markup=False, highlight=False, soft_wrap=True)
