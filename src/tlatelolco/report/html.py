"""The report as one self-contained HTML page: charts as base64 `data:` URIs, inline CSS, no
external asset, so the file can be mailed, attached or opened offline. Every chart has a table
of its numbers beside it, so the page is readable without images too."""

from __future__ import annotations

import base64
from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from tlatelolco.report.stats import Rate, Stats, Summary

CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; color: #222;
       max-width: 60rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.45; }
h1 { margin-bottom: .2rem; }
h2 { margin-top: 2.4rem; border-bottom: 1px solid #ddd; padding-bottom: .2rem; }
.sub { color: #666; margin-top: 0; }
table { border-collapse: collapse; margin: .8rem 0; font-size: .92rem; }
th, td { border: 1px solid #ddd; padding: .25rem .6rem; text-align: right; }
th { background: #f4f4f4; }
td.l, th.l { text-align: left; }
tr:nth-child(even) td { background: #fafafa; }
td.off { font-weight: bold; color: #b00; }
code { background: #f4f4f4; padding: .1rem .3rem; border-radius: 3px; }
img { max-width: 100%; height: auto; border: 1px solid #eee; }
.note { color: #555; font-size: .9rem; }
"""


def page_start(title: str, css: str) -> list[str]:
    """The head of a self-contained page (its style inline) and its title as the heading;
    the body's end is `</body></html>`."""
    return ["<!DOCTYPE html>",
            '<html lang="en"><head><meta charset="utf-8">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f"<title>{escape(title)}</title><style>{css}</style></head><body>",
            f"<h1>{escape(title)}</h1>"]


EXPLAIN = {
    "win_rate": (
        "Every seat is played by the same bot, so each seat should win its even share of the "
        "games. A bar is a seat's mean return (a win counts 1, a win shared by k sides 1/k); "
        "the whiskers are 95% Wilson intervals. A seat whose interval misses the dashed line "
        "wins more or less than it should: a seat advantage (turn order, start player)."),
    "scores": (
        "The distribution of each seat's final primary score, the game's own scores(): "
        "Grand Bazaar grands, Aztec Market the side's total, Axio the lowest colour, Mexica "
        "points. The box spans the middle half of the games, the line is the median."),
    "length": (
        "How long games last: the decisions the seats took (left) and every step including "
        "chance draws (right). Stronger bots often end games sooner or later than random "
        "ones; a wide spread means games vary a lot in length."),
    "ties": (
        "Decided by a tie-break: the best primary score was shared by several sides but fewer "
        "of them won, because the rules' tie-break (Aztec Market coins then goods, Axio the "
        "next lowest colours, Mexica unused tokens) picked the winner. Shared victory: more "
        "than one side won. Grand Bazaar has no tie-break; its ties are always shared."),
}

TITLES = {"win_rate": "Win rate by seat", "scores": "Score distribution by seat",
          "length": "Game length", "ties": "Tie-breaks and shared victories"}


def fmt(value: float, digits: int = 3) -> str:
    return f"{value:.{digits}f}"


def number(value: float) -> str:
    return f"{value:g}"


def table(head: Sequence[str], rows: Sequence[Sequence[Any]], left: int = 1,
          marks: Sequence[Sequence[bool]] | None = None) -> str:
    """An escaped table; the first `left` columns are text, the rest numbers."""
    cls = [' class="l"' if i < left else "" for i in range(len(head))]
    out = ["<table><thead><tr>"]
    out += [f"<th{c}>{escape(str(h))}</th>" for c, h in zip(cls, head, strict=True)]
    out.append("</tr></thead><tbody>")
    for r, row in enumerate(rows):
        out.append("<tr>")
        for i, cell in enumerate(row):
            off = marks is not None and marks[r][i]
            attr = ' class="l"' if i < left else (' class="off"' if off else "")
            out.append(f"<td{attr}>{escape(str(cell))}</td>")
        out.append("</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def interval(r: Rate) -> str:
    return f"{fmt(r.share)} ({fmt(r.low)}–{fmt(r.high)})"


def misses(r: Rate, even: float) -> bool:
    return not r.low <= even <= r.high


def win_rate_table(stats: Sequence[Stats]) -> str:
    seats = stats[0].num_players
    even = stats[0].even_share
    rows = [[f"seat {seat}", *(interval(s.win_rate[seat]) for s in stats)]
            for seat in range(seats)]
    marks = [[False, *(misses(s.win_rate[seat], even) for s in stats)] for seat in range(seats)]
    return (table(["seat", *(s.bot for s in stats)], rows, marks=marks)
            + f'<p class="note">Win rate (95% interval); even share {fmt(even)}. Bold red: the '
            "interval does not contain the even share.</p>")


def summary_cells(summary: Summary) -> list[str]:
    return [f"{summary.mean:.2f}", number(summary.minimum), number(summary.q1),
            number(summary.median), number(summary.q3), number(summary.maximum)]


def score_table(stats: Sequence[Stats]) -> str:
    rows = [[s.bot, f"seat {seat}", *summary_cells(summary)]
            for s in stats for seat, summary in enumerate(s.score_summary)]
    return table(["bot", "seat", "mean", "min", "Q1", "median", "Q3", "max"], rows, left=2)


def length_table(stats: Sequence[Stats]) -> str:
    rows = [[s.bot, label, *summary_cells(summary)] for s in stats
            for label, summary in (("decisions", s.decisions_summary),
                                   ("steps", s.steps_summary))]
    return table(["bot", "count", "mean", "min", "Q1", "median", "Q3", "max"], rows, left=2)


def ties_table(stats: Sequence[Stats]) -> str:
    rows = [[s.bot, s.games, int(s.tie_break.total), interval(s.tie_break),
             int(s.shared.total), interval(s.shared)] for s in stats]
    return table(["bot", "games", "tie-break games", "share (95% interval)",
                  "shared victories", "share (95% interval)"], rows)


TABLES = {"win_rate": win_rate_table, "scores": score_table, "length": length_table,
          "ties": ties_table}


def image(png: bytes, alt: str) -> str:
    data = base64.b64encode(png).decode("ascii")
    return f'<img src="data:image/png;base64,{data}" alt="{escape(alt)}">'


def render_page(meta: Mapping[str, Any], stats: Sequence[Stats],
                plots: Mapping[str, bytes]) -> str:
    """The page: what was played and how, then one section per chart with its table.

    `meta` holds title, game, num_players, options, sides, games, bots, seed, command, date.
    """
    options = ", ".join(f"{k}={v}" for k, v in meta["options"].items()) or "none"
    facts = [
        ("game", f"{meta['title']} ({meta['game']})"),
        ("players", str(meta["num_players"])),
        ("sides", " vs ".join("+".join(f"seat {s}" for s in side) for side in meta["sides"])),
        ("options", options),
        ("games per bot kind", str(meta["games"])),
        ("bot kinds (self-play)", ", ".join(meta["bots"])),
        ("seed", str(meta["seed"])),
        ("made with", meta["command"]),
        ("date", meta["date"]),
    ]
    rows = "".join(
        f'<tr><th class="l">{escape(k)}</th><td class="l">'
        f"{'<code>' + escape(v) + '</code>' if k == 'made with' else escape(v)}</td></tr>"
        for k, v in facts)
    title = f"Balance report: {meta['title']}, {meta['num_players']} players"
    parts = [
        *page_start(title, CSS),
        f'<p class="sub">Self-play: in each run every seat is the same bot. '
        f"Generated {escape(meta['date'])}.</p>",
        f"<table>{rows}</table>",
    ]
    for name in ("win_rate", "scores", "length", "ties"):
        parts += [
            f'<section id="{name}"><h2>{escape(TITLES[name])}</h2>',
            f"<p>{escape(EXPLAIN[name])}</p>",
            image(plots[name], TITLES[name]),
            TABLES[name](stats),
            "</section>",
        ]
    parts.append("</body></html>\n")
    return "\n".join(parts)
