"""A whole arena run reviewed: how much each bot kind gives away, and how much of the results
the draws decided (luck against skill, docs/luck-and-skill.md).

Every game of the run gets its review (`review_record`'s, cached in the run's `reviews/`
folder), then:

- per **bot kind** (the spec in the record's `players`, marked `(sighted)` if the run handed it
  the true state): its games, its decisions, the mean share of victory lost per decision,
  mistakes and blunders per 100 decisions, its win share, and its mean luck per game with a
  95% interval. Draws favour nobody: a seat's true share changes by nothing on average at a
  chance step, so a mean luck clearly away from 0 says the review misjudges that bot's
  positions (what its moves lose comes back, or goes, at the next draws), not that it was lucky;
- per run, the **share of the result explained by chance**. In one game, `luck` is the share of
  victory that chance moved between the sides, net over the game: half the sum over sides of
  |the side's luck| (a side's luck is its seats' mean; the half counts each share moved once,
  as it leaves one side and reaches another). `lost` is the share of victory that the seats'
  moves gave away, summed over every decision. The game's chance share is
  `luck / (luck + lost)`; the run's is the mean over its games (a game where neither moved
  anything is left out) with a 95% Student-t interval.

Limits: both parts are the search's estimates at a fixed budget. A loss is never negative, so
the search's noise adds to `lost` at every decision, while good and bad draws of one side cancel
within a game in `luck`; so a long game between equal players reads as more skill than it is.
What moved between two decisions with no chance step between them (the two searches' views
differ) counts as neither. The figure compares the run's players with the search: it says
little about a game played by better players than the search.
"""

from __future__ import annotations

import os
import textwrap
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from html import escape
from math import sqrt
from pathlib import Path
from statistics import fmean, stdev
from typing import Any

from tlatelolco.arena.storage import RECORDS, load_run
from tlatelolco.records import RecordError, replay_record
from tlatelolco.registry import load
from tlatelolco.report.html import page_start
from tlatelolco.review.analysis import (
    Settings,
    analyse_steps,
    assemble,
    decision_steps,
    review_key,
)
from tlatelolco.review.runner import ReviewCache, review_record, spread
from tlatelolco.review.thresholds import labels_for

VERSION = 1
REVIEWS = "reviews"  # the cache folder inside the run folder
MAX_BATCH = 16  # decisions sent to a worker at once (it replays the record once per batch)
Progress = Callable[[int, int], None]  # (games reviewed, games in the run)

# Student's t, 97.5% quantile, for 1..30 degrees of freedom
T975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179,
        2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
        2.060, 2.056, 2.052, 2.048, 2.045, 2.042)


def review_run(folder: str | Path, settings: Settings | None = None, *,
               workers: int | None = None, ray_address: str | None = None,
               progress: Progress | None = None) -> dict[str, Any]:
    """Every game of the arena run in `folder` reviewed (cached in `folder/reviews/`, so asking
    again costs nothing), summed up per bot kind and for the run (see the module's docstring).

    With more than one worker the decisions of all games not yet reviewed share one pool, so
    no core waits for the end of a game; each game is assembled and cached as soon as its last
    decision is in. The reviews are those `review_record` gives (each decision has its own
    seed), whatever the workers. `progress(done, total)` counts games. A missing or damaged run
    raises `RecordError` (a `ValueError`) naming the file and line.
    """
    started = time.perf_counter()
    path = Path(folder)
    records = _records(path)
    game = records[0]["game"]
    settings = (settings or Settings()).for_game(game)
    if workers is not None and (type(workers) is not int or workers < 1):
        raise ValueError(f"workers must be a whole number of at least 1, not {workers!r}")
    cache = ReviewCache(path / REVIEWS)
    reviews: list[dict[str, Any] | None] = [cache.get(review_key(r, settings)) for r in records]
    cached = sum(r is not None for r in reviews)
    total = len(records)
    if progress is not None:
        progress(cached, total)
    missing = [i for i, r in enumerate(reviews) if r is None]
    count = workers or os.cpu_count() or 1
    tracker = _Tracker(records, reviews, settings, cache, progress)
    if missing and ray_address is None and count == 1:
        for i in missing:  # one process: simply one game after the other
            tracker.done(i, review_record(records[i], settings, workers=1))
    elif missing:
        _spread(tracker, missing, count, ray_address)
    done = [r for r in reviews if r is not None]
    result = _summarise_run(records, done, settings)
    result.update(folder=str(path), reviewed=len(missing), cached=cached,
                  cache_error=tracker.cache_error,
                  seconds=round(time.perf_counter() - started, 2))
    return result


def _records(path: Path) -> list[dict[str, Any]]:
    """The run's records, checked: one game, all finished."""
    if not path.is_dir():
        raise RecordError(f"{path} is not a folder; give an arena run folder (it holds "
                          f"{RECORDS}, as `tlatelolco arena` writes it)")
    if not (path / RECORDS).is_file():
        raise RecordError(f"{path} holds no {RECORDS}, so it is not an arena run folder; "
                          "give the folder `tlatelolco arena` wrote (arena-runs/...)")
    records = load_run(path).records  # replays every record; a bad line is named
    first = records[0]
    for number, record in enumerate(records, 1):
        if (record["game"], record["options"]) != (first["game"], first["options"]):
            raise RecordError(f"{path / RECORDS}: record {number} is {record['game']} with "
                              f"{record['options']}, record 1 {first['game']} with "
                              f"{first['options']}; a run folder holds games of one kind")
        if not replay_record(record).is_terminal():
            raise RecordError(f"{path / RECORDS}: record {number} is unfinished; only finished "
                              "games can be reviewed")
    return records


@dataclass
class _Tracker:
    """Analyses coming in from the workers in any order, put together game by game."""

    records: list[dict[str, Any]]
    reviews: list[dict[str, Any] | None]
    settings: Settings
    cache: ReviewCache
    progress: Progress | None
    cache_error: str | None = None  # why reviews could not be stored (the run goes on)
    found: dict[int, list[dict[str, Any]]] = field(default_factory=dict)
    seconds: dict[int, float] = field(default_factory=dict)
    wanted: dict[int, int] = field(default_factory=dict)

    def add(self, index: int, analyses: list[dict[str, Any]], seconds: float) -> None:
        self.found.setdefault(index, []).extend(analyses)
        self.seconds[index] = self.seconds.get(index, 0.0) + seconds
        if len(self.found[index]) < self.wanted[index]:
            return
        # a game's seconds are its workers' time, summed: the wall time is shared by many
        self.done(index, assemble(self.records[index], self.found.pop(index), self.settings,
                                  self.seconds.pop(index)))

    def done(self, index: int, review: dict[str, Any]) -> None:
        """A game's finished review: kept, cached (a read-only folder costs only the cache)."""
        self.reviews[index] = review
        try:
            self.cache.put(review)
        except OSError as err:
            self.cache_error = f"the reviews could not be cached in {self.cache.folder}: {err}"
        if self.progress is not None:
            self.progress(sum(r is not None for r in self.reviews), len(self.reviews))


Job = tuple[int, dict[str, Any], list[int], Settings]


def _spread(tracker: _Tracker, missing: list[int], workers: int,
            ray_address: str | None) -> None:
    """The decisions of the `missing` games in batches over a process pool or Ray, game after
    game, so that the first games finish (and are cached) first."""
    jobs: list[Job] = []
    for index in missing:
        record = tracker.records[index]
        steps = decision_steps(record)
        tracker.wanted[index] = len(steps)
        if not steps:  # nobody decided anything: nothing to search
            tracker.add(index, [], 0.0)
            continue
        size = max(1, min(MAX_BATCH, len(steps) // (workers * 2)))
        count = -(-len(steps) // size)
        jobs += [(index, record, steps[i::count], tracker.settings) for i in range(count)]
    spread(_job, jobs, workers, ray_address, lambda result: tracker.add(*result),
           "the games reviewed so far are cached, the others not")


def _job(job: Job) -> tuple[int, list[dict[str, Any]], float]:
    index, record, steps, settings = job
    started = time.perf_counter()
    analyses = analyse_steps(record, steps, settings)
    return index, analyses, time.perf_counter() - started


def _kind_of(record: dict[str, Any], seat: int) -> str:
    """The bot kind at `seat`: its spec, marked if the run handed it the true state."""
    spec = str(record["players"][seat])
    sighted = (record.get("meta") or {}).get("sighted") or ()
    return f"{spec} (sighted)" if spec in sighted else spec


def _game_figures(record: dict[str, Any], review: dict[str, Any],
                 sides: Sequence[Sequence[int]]) -> dict[str, Any]:
    """One game's luck (share moved by chance, net), lost (share given away) and chance share."""
    rows = review["summary"]
    side_luck = [fmean(rows[s]["luck"] for s in side) for side in sides]
    luck = sum(abs(x) for x in side_luck) / 2
    lost = sum(row["lost"] for row in rows)
    moved = luck + lost
    return {"match": (record.get("meta") or {}).get("match"),
            "players": [_kind_of(record, s) for s in range(len(rows))],
            "returns": review["returns"], "decisions": len(review["decisions"]),
            "luck": round(luck, 4), "lost": round(lost, 4),
            "chance": round(luck / moved, 4) if moved > 0 else None}


def _mean_interval(values: Sequence[float]) -> dict[str, Any]:
    """The mean with its 95% Student-t interval (none for fewer than 2 values)."""
    n = len(values)
    if n == 0:
        return {"mean": None, "low": None, "high": None, "games": 0}
    mean = fmean(values)
    if n < 2:
        return {"mean": round(mean, 4), "low": None, "high": None, "games": n}
    df = n - 1
    z = 1.959964
    t = T975[df - 1] if df <= len(T975) else z + (z ** 3 + z) / (4 * df)
    half = t * stdev(values) / sqrt(n)
    return {"mean": round(mean, 4), "low": round(mean - half, 4),
            "high": round(mean + half, 4), "games": n}


def _summarise_run(records: Sequence[dict[str, Any]], reviews: Sequence[dict[str, Any]],
                  settings: Settings) -> dict[str, Any]:
    """The run's figures from its records and their reviews (in the same order)."""
    game = load(records[0]["game"], **records[0]["options"])
    sides = game.teams()
    mistake, blunder = labels_for(game.info.name)
    kinds: dict[str, dict[str, Any]] = {}
    games = []
    for record, review in zip(records, reviews, strict=True):
        games.append(_game_figures(record, review, sides))
        rows = review["summary"]
        held: dict[str, list[Sequence[int]]] = {}
        for side in sides:
            held.setdefault(_kind_of(record, side[0]), []).append(side)
        for kind, its in held.items():
            k = kinds.setdefault(kind, {"games": 0, "decisions": 0, "lost": 0.0,
                                        "mistakes": 0, "blunders": 0, "luck": [],
                                        "share": []})
            k["games"] += 1
            seats = [s for side in its for s in side]
            for s in seats:
                k["decisions"] += rows[s]["decisions"]
                k["lost"] += rows[s]["lost"]
            # labelled by today's thresholds: a cached review keeps those of its day
            losses = [d["loss"] for d in review["decisions"] if d["seat"] in seats]
            k["blunders"] += sum(loss > blunder for loss in losses)
            k["mistakes"] += sum(blunder >= loss > mistake for loss in losses)
            k["luck"].append(fmean(rows[s]["luck"] for s in seats))
            k["share"].append(fmean(review["returns"][side[0]] for side in its))
    bots = []
    for kind, k in kinds.items():
        n = k["decisions"]
        luck = _mean_interval(k["luck"])
        bots.append({
            "bot": kind, "games": k["games"], "decisions": n,
            "lost_per_decision": round(k["lost"] / n, 4) if n else None,
            "mistakes_per_100": round(100 * k["mistakes"] / n, 2) if n else None,
            "blunders_per_100": round(100 * k["blunders"] / n, 2) if n else None,
            "luck_per_game": luck["mean"], "luck_low": luck["low"], "luck_high": luck["high"],
            "win_share": round(fmean(k["share"]), 4)})
    return {
        "version": VERSION, "game": game.info.name, "num_players": game.num_players(),
        "options": {k: v for k, v in records[0]["options"].items() if k != "num_players"},
        "games": len(records), "settings": settings.as_dict(),
        "labels": {"mistake": mistake, "blunder": blunder},
        "bots": bots,
        "chance": _mean_interval([g["chance"] for g in games if g["chance"] is not None]),
        "luck_per_game": round(fmean(g["luck"] for g in games), 4),
        "lost_per_game": round(fmean(g["lost"] for g in games), 4),
        "decisions_per_game": round(fmean(g["decisions"] for g in games), 1),
        "review_seconds": round(sum(r.get("seconds", 0.0) for r in reviews), 1),
        "per_game": games,
    }


DEFINITION = ("Chance share of a game: luck / (luck + lost), where luck is the share of victory "
              "that chance events moved between the sides over the game (half the sum of "
              "|each side's luck|) and lost is the share of victory given away by every move "
              "(best move's value less the played move's, summed). The run's figure is the "
              "mean over its games, with a 95% Student-t interval. Both parts are the search's "
              "estimates: its noise adds to every loss, so long games read as more skill.")

HEAD = ("bot", "games", "decisions", "win share", "lost per decision", "mistakes per 100",
        "blunders per 100", "luck per game", "luck: 95% interval")
TEXT_HEAD = (("bot", ""), ("games", ""), ("decisions", ""), ("win", "share"), ("lost per",
             "decision"), ("mistakes", "per 100"), ("blunders", "per 100"), ("luck per", "game"))
WIDTH = 78  # the text fits a terminal of 80 columns


def _num(value: float | None, digits: int = 3) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


def _budget(settings: dict[str, Any]) -> str:
    parts = [f"{settings['iterations']} iterations" if settings.get("iterations") else "",
             f"{settings['time']:g} s" if settings.get("time") else ""]
    return " or ".join(p for p in parts if p) + f" a decision, seed {settings['seed']}"


def _bot_rows(result: dict[str, Any], interval: bool = False) -> list[list[str]]:
    rows = []
    for b in result["bots"]:
        row = [b["bot"], str(b["games"]), str(b["decisions"]), _num(b["win_share"]),
               _num(b["lost_per_decision"], 4), _num(b["mistakes_per_100"], 1),
               _num(b["blunders_per_100"], 1), f"{b['luck_per_game']:+.3f}"]
        if interval:
            low, high = b.get("luck_low"), b.get("luck_high")
            row.append("–" if low is None else f"{low:+.3f} to {high:+.3f}")
        rows.append(row)
    return rows


def _chance_text(result: dict[str, Any]) -> str:
    c = result["chance"]
    if c["mean"] is None:
        return "– (no game moved any share of victory)"
    interval = "" if c["low"] is None else f"95% interval {c['low']:.3f}–{c['high']:.3f}, "
    return f"{c['mean']:.3f} of the result ({interval}{c['games']} games)"


def _title(result: dict[str, Any]) -> str:
    return (f"Review of an arena run: {result['game']}, {result['num_players']} players, "
            f"{result['games']} games")


def _facts(result: dict[str, Any]) -> list[tuple[str, str]]:
    labels = result["labels"]
    options = ", ".join(f"{k}={v}" for k, v in result["options"].items()) or "none"
    facts = [("run", str(result.get("folder", "–"))), ("options", options),
             ("search", _budget(result["settings"])),
             ("labels", f"a move losing over {labels['mistake']:g} is a mistake, over "
                        f"{labels['blunder']:g} a blunder"),
             ("chance", _chance_text(result)),
             ("per game", f"luck {result['luck_per_game']:.3f}, share lost "
                          f"{result['lost_per_game']:.3f}, "
                          f"{result['decisions_per_game']:g} decisions")]
    if result.get("cache_error"):
        facts.append(("warning", result["cache_error"]))
    if "reviewed" in result:
        facts.append(("reviews", f"{result['reviewed']} computed, {result['cached']} from "
                                 f"the cache; {result['seconds']:.1f} s "
                                 f"({result['review_seconds']:.1f} s of search in all)"))
    return facts


def format_run(result: dict[str, Any]) -> str:
    """The run's review as plain text: the facts, then one row per bot kind."""
    heads = [[top for top, _ in TEXT_HEAD], [low for _, low in TEXT_HEAD]]
    rows = [*heads, *_bot_rows(result)]
    widths = [max(len(r[i]) for r in rows) for i in range(len(TEXT_HEAD))]
    lines = [_title(result), ""]
    width = max(len(k) for k, _ in _facts(result))
    lines += [f"{k + ':':<{width + 1}} {v}" for k, v in _facts(result)]
    lines.append("")
    for number, row in enumerate(rows):
        cells = [row[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(row[1:], widths[1:],
                                                                         strict=True)]
        lines.append(" ".join(cells).rstrip())
        if number == len(heads) - 1:
            lines.append(" ".join("-" * w for w in widths))
    lines += ["", textwrap.fill(DEFINITION, WIDTH, break_on_hyphens=False)]
    return "\n".join(lines)


CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; color: #222;
       max-width: 60rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.45; }
table { border-collapse: collapse; margin: .8rem 0; font-size: .92rem; }
th, td { border: 1px solid #ddd; padding: .25rem .6rem; text-align: right; }
th { background: #f4f4f4; }
.l { text-align: left; }
tr:nth-child(even) td { background: #fafafa; }
.note { color: #555; font-size: .9rem; }
"""


def _table(head: Sequence[str], rows: Sequence[Sequence[str]], left: int = 1) -> str:
    def cells(tag: str, row: Sequence[str]) -> str:
        marks = [' class="l"' if i < left else "" for i in range(len(row))]
        return "".join(f"<{tag}{m}>{escape(str(c))}</{tag}>"
                       for m, c in zip(marks, row, strict=True))
    body = "".join(f"<tr>{cells('td', row)}</tr>" for row in rows)
    return f"<table><thead><tr>{cells('th', head)}</tr></thead><tbody>{body}</tbody></table>"


def run_html(result: dict[str, Any]) -> str:
    """The run's review as one self-contained page (inline CSS, every string escaped)."""
    title = _title(result)
    facts = "".join(f'<tr><th class="l">{escape(k)}</th><td class="l">{escape(v)}</td></tr>'
                    for k, v in _facts(result))
    games = [[str(g["match"]), " vs ".join(g["players"]),
              " / ".join(f"{r:g}" for r in g["returns"]), str(g["decisions"]),
              _num(g["luck"]), _num(g["lost"]), _num(g["chance"])]
             for g in result["per_game"]]
    return "\n".join([
        *page_start(title, CSS),
        f"<table>{facts}</table>",
        "<h2>Per bot kind</h2>",
        _table(HEAD, _bot_rows(result, interval=True)),
        "<h2>Per game</h2>",
        _table(("match", "players", "result", "decisions", "luck", "lost", "chance share"),
               games, left=2),
        f'<p class="note">{escape(DEFINITION)}</p>',
        "</body></html>\n"])


__all__ = ["REVIEWS", "format_run", "review_run", "run_html"]
