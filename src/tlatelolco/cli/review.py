"""`tlatelolco review`: a finished game's review in the terminal (summary per seat, flagged moves
with the better move), optionally as a self-contained HTML page or JSON; or a whole arena run.

The search is costly, so reviews are computed on every core with a progress bar on stderr and
cached beside the record (`reviews/<key>.json`): asking again with the same settings is instant.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from tlatelolco.cli.common import FAILURE, fail, games_progress
from tlatelolco.extras import require
from tlatelolco.records import RecordError, load_record
from tlatelolco.review.analysis import MAX_ITERATIONS, MAX_TIME, Settings, review_key
from tlatelolco.review.runner import ReviewCache, ReviewError, review_record
from tlatelolco.review.text import explanation, facts, flagged_table, summary_table

CACHE_FOLDER = "reviews"  # beside the record


def review(
    record: Annotated[Path, typer.Argument(
        help="A finished game's record (JSON, as `tlatelolco play` saves it), or an arena run "
        "folder (with records.jsonl) to review all its games.")],
    seat: Annotated[int | None, typer.Option(
        help="Show only this seat's flagged moves and mark its row (every seat is analysed "
        "anyway).")] = None,
    time: Annotated[float | None, typer.Option(
        help=f"Seconds of search per decision (above 0, at most {MAX_TIME:g}): quicker to "
        "choose than --iterations, but the review then depends on the machine.")] = None,
    iterations: Annotated[int | None, typer.Option(
        help="Search iterations per decision (default: per game, e.g. 800 for axio); the same "
        "iterations and seed give the same review.")] = None,
    seed: Annotated[int, typer.Option(help="Seed of the search.")] = 0,
    workers: Annotated[int | None, typer.Option(
        help="Processes analysing at once (default: one per CPU).")] = None,
    ray: Annotated[str | None, typer.Option(
        "--ray", metavar="ADDRESS", help="Analyse on Ray: local (start one here), auto (the "
        "running cluster) or ray://host:10001.")] = None,
    html: Annotated[Path | None, typer.Option(
        "--html", metavar="OUT", help="Also write the review as a self-contained HTML page "
        "with the chart of every seat's share of victory.")] = None,
    json_path: Annotated[Path | None, typer.Option(
        "--json", metavar="OUT", help="Also write the review's data to this JSON file.")] = None,
    no_cache: Annotated[bool, typer.Option(
        "--no-cache", help="Compute the review again and do not store it (default: read and "
        f"write {CACHE_FOLDER}/ beside the record).")] = False,
) -> None:
    """Review a finished game: each seat's mistakes, blunders and luck, and the better moves."""
    settings = checked_settings(iterations, time, seed)
    if workers is not None and workers < 1:
        fail(f"--workers {workers}: use at least 1 worker process")
    if ray is not None and not ray.strip():
        fail("--ray needs an address: local, auto or ray://host:10001")
    for flag, out in (("--html", html), ("--json", json_path)):
        if out is not None:
            check_output(flag, out)
    if ray is not None:
        require("ray", "cluster")  # refused with the install command before any search
    if record.is_dir():
        if seat is not None:
            fail("--seat picks a seat of one game; an arena run folder is reviewed per bot, "
                 "so leave --seat out or give one record")
        if no_cache:
            fail("--no-cache: an arena run's reviews are always cached in its reviews/ folder; "
                 "delete that folder to compute them again")
        review_folder(record, settings, workers, ray, html, json_path)
        return
    review_file(record, settings, seat, workers, ray, html, json_path, no_cache)


def checked_settings(iterations: int | None, time: float | None, seed: int) -> Settings:
    """The search settings, or a usage error naming the option and what it allows."""
    if iterations is not None and not 1 <= iterations <= MAX_ITERATIONS:
        fail(f"--iterations {iterations}: give a whole number of search iterations per "
             f"decision from 1 to {MAX_ITERATIONS}")
    if time is not None and not 0 < time <= MAX_TIME:
        fail(f"--time {time:g}: give the seconds of search per decision, above 0 and at most "
             f"{MAX_TIME:g}")
    try:
        return Settings(iterations, time, seed)
    except ValueError as err:  # anything the options above did not already rule out
        fail(str(err))


def check_output(flag: str, out: Path) -> None:
    """Refused before the search rather than after it: a review takes minutes."""
    if out.is_dir():
        fail(f"{flag} {out} is a directory; give a file name, e.g. {out / 'review'}"
             f"{'.html' if flag == '--html' else '.json'}")
    if not out.parent.is_dir():
        fail(f"{flag} {out}: the folder {out.parent} does not exist; create it or write "
             "elsewhere")


def review_file(path: Path, settings: Settings, seat: int | None, workers: int | None,
                ray: str | None, html: Path | None, json_path: Path | None,
                no_cache: bool) -> None:
    """One record: load, check, review (or read back), print, write what was asked for."""
    try:
        record, state = load_record(path)
    except RecordError as err:
        message = str(err)
        fail(message if str(path) in message else f"{path}: {message}", FAILURE)
    if not state.is_terminal():
        fail(f"{path}: the game is unfinished (stopped after {state.move_number()} steps); "
             "only a finished game can be reviewed", FAILURE)
    seats = state.get_game().num_players()
    if seat is not None and not 0 <= seat < seats:
        fail(f"--seat {seat} is out of range; this game has seats 0 to {seats - 1}")
    settings = settings.for_game(record["game"])
    cache = None if no_cache else ReviewCache(path.parent / CACHE_FOLDER)
    key = review_key(record, settings)
    result = None if cache is None else cache.get(key)
    said = "" if cache is None else f"Review read back from the cache: {cache.path(key)}"
    if result is not None:  # names are not part of the key: the same game may be renamed
        result["players"] = list(record["players"])
    else:
        result = compute(record, settings, workers, ray)
        if cache is not None:  # stored at once: a failure further on must not cost the search
            said = store(cache, result)
    out = Console()
    print_review(out, result, seat)
    write_outputs(out, result, html, json_path, seat)
    if said:
        note(out, said)


def store(cache: ReviewCache, result: dict[str, Any]) -> str:
    """The review put in the cache: where it is, or "" after a warning (a read-only folder
    costs the cache, not the review)."""
    try:
        return f"Review cached in {cache.put(result)}"
    except OSError as err:
        note(Console(stderr=True), f"warning: the review could not be cached in "
             f"{cache.folder}: {err}")
        return ""


def compute(record: dict[str, Any], settings: Settings, workers: int | None,
            ray: str | None) -> dict[str, Any]:
    """The review, with a progress bar of decisions on stderr."""
    status = Console(stderr=True)
    processes = workers or os.cpu_count() or 1
    where = (f"on Ray ({ray})" if ray else "in this process" if processes == 1
             else f"in {processes} worker processes")
    budget = " or ".join(part for part in (
        f"{settings.iterations} iterations" if settings.iterations is not None else "",
        f"{settings.time:g} s" if settings.time is not None else "") if part)
    note(status, f"Reviewing a game of {record['game']} {where}, {budget} per decision "
         f"(seed {settings.seed}) ...")
    try:
        with games_progress(status) as bar:
            task = bar.add_task("decisions", total=None)
            return review_record(
                record, settings, workers=workers, ray_address=ray,
                progress=lambda done, total: bar.update(task, completed=done, total=total))
    except ReviewError as err:
        fail(str(err), FAILURE)
    except ValueError as err:  # what only the runner checks, e.g. a Ray address
        fail(str(err))


def print_review(console: Console, result: dict[str, Any], seat: int | None) -> None:
    """The facts of the game, the summary table and the flagged moves."""
    head = Table.grid(padding=(0, 2))
    head.add_column(style="bold")
    head.add_column(overflow="fold")
    for name, value in facts(result):
        head.add_row(name, Text(value))  # Text: player names are not rich markup
    console.print(Text("Game review", style="bold"))
    console.print(head)
    console.print()
    console.print(summary_table(result, seat))
    note(console, explanation(result))  # one line, however wide the terminal
    console.print()
    console.print(flagged_table(result, seat))


def write_outputs(console: Console, result: dict[str, Any], html: Path | None,
                  json_path: Path | None, seat: int | None) -> None:
    """The HTML page (`seat` marked, as in the terminal) and the JSON data, if asked for."""
    if html is not None:
        from tlatelolco.review.html import review_html  # only this option needs it

        write(console, html, review_html(result, seat), "HTML page")
    if json_path is not None:
        write(console, json_path, json.dumps(result, indent=1) + "\n", "Review data")


def write(console: Console, path: Path, text: str, what: str) -> None:
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as err:
        fail(f"cannot write {path}: {err}", FAILURE)
    note(console, f"{what} written to {path}")


def note(console: Console, message: str) -> None:
    """A whole line, so that a long path can be copied in one piece."""
    console.print(message, markup=False, highlight=False, soft_wrap=True)


def review_folder(folder: Path, settings: Settings, workers: int | None, ray: str | None,
                  html: Path | None, json_path: Path | None) -> None:
    """An arena run: every game reviewed (cached in the run's reviews/ folder), then per bot
    kind its loss per decision and luck, and the share of the results chance explains."""
    from tlatelolco.arena.storage import RECORDS
    from tlatelolco.review.runs import REVIEWS, format_run, review_run, run_html

    if not (folder / RECORDS).is_file():  # said before a progress bar is drawn
        fail(f"{folder} is a folder without {RECORDS}; give a record file (JSON) or an arena "
             "run folder, as `tlatelolco arena` writes it", FAILURE)
    status = Console(stderr=True)
    try:
        with games_progress(status) as bar:
            task = bar.add_task("games", total=None)
            result = review_run(
                folder, settings, workers=workers, ray_address=ray,
                progress=lambda done, total: bar.update(task, completed=done, total=total))
    except ReviewError as err:
        fail(str(err), FAILURE)
    except ValueError as err:  # not a run folder, a record that does not replay, a Ray address
        message = str(err)
        fail(message if str(folder) in message else f"{folder}: {message}", FAILURE)
    except OSError as err:
        fail(f"cannot cache the reviews in {folder / REVIEWS}: {err}", FAILURE)
    console = Console()
    console.print(format_run(result), markup=False, highlight=False)
    if html is not None:
        write(console, html, run_html(result), "HTML page")
    if json_path is not None:
        write(console, json_path, json.dumps(result, indent=1) + "\n", "Run review data")
    note(console, f"Reviews cached in {folder / REVIEWS}")


__all__ = ["review"]
