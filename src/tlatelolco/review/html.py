"""A review as one self-contained HTML page: inline CSS and an inline SVG chart, no external
asset and no script, so the file can be mailed or opened offline (like the balance reports).

The chart: x is the step of the game, y every seat's share of victory (0 to 100 %), one line
per seat through each decision's `before` (what the position was worth) and ending at the
result; mistakes and blunders are marked on the mover's line with a tooltip naming the move
and the better one, and each run of chance steps is a shaded band, darker the more it moved
the shares. Every string from the record is escaped: player names are user input.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any

from tlatelolco.report.html import page_start
from tlatelolco.review.text import (
    explanation,
    facts,
    flagged_rows,
    game_title,
    percent,
    seat_label,
    sides,
    summary_rows,
)

# one colour per seat (up to 7 in Grand Bazaar), told apart in print and by most colour-blind
COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#17becf")
LABEL_COLOURS = {"mistake": "#e69f00", "blunder": "#c00000"}
MARGIN = (44, 12, 12, 30)  # left, right, top, bottom: room for the axes' labels

CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; color: #222;
       max-width: 62rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.45; }
h1 { margin-bottom: .2rem; }
h2 { margin-top: 2.2rem; border-bottom: 1px solid #ddd; padding-bottom: .2rem; }
table { border-collapse: collapse; margin: .8rem 0; font-size: .92rem; }
th, td { border: 1px solid #ddd; padding: .25rem .6rem; text-align: right; }
th { background: #f4f4f4; }
td.l, th.l { text-align: left; }
tr.marked td { font-weight: bold; }
td.mistake { color: #a86f00; } td.blunder { color: #c00000; font-weight: bold; }
.note { color: #555; font-size: .9rem; }
.legend span { display: inline-block; margin-right: 1.2rem; }
.legend i { display: inline-block; width: 1.6rem; height: .25rem; vertical-align: middle;
            margin-right: .35rem; }
svg { max-width: 100%; height: auto; font-size: 11px; }
svg text { fill: #555; }
"""


def _share_y(share: float, top: float, height: float) -> float:
    """The y of a share (clamped to 0..1: returns of odd games must not leave the chart)."""
    return top + (1.0 - min(1.0, max(0.0, share))) * height


def _tick_steps(length: int) -> list[int]:
    """About eight round steps along the x axis."""
    rough = max(1, length // 8)
    size = next(s * 10 ** e for e in range(7) for s in (1, 2, 5) if s * 10 ** e >= rough)
    return list(range(0, length + 1, size))


def _luck_title(review: dict[str, Any], event: dict[str, Any]) -> str:
    steps = (f"step {event['from']}" if event["to"] - event["from"] == 1
             else f"steps {event['from']}–{event['to'] - 1}")
    texts = ", ".join(event["texts"])
    if event["to"] - event["from"] > len(event["texts"]):
        texts += ", …"
    changes = ", ".join(f"{seat_label(review, seat)} {percent(change, signed=True)}"
                        for seat, change in enumerate(event["change"]))
    return f"chance, {steps}: {texts}\n{changes}"


def _flag_title(review: dict[str, Any], d: dict[str, Any]) -> str:
    seat = d["seat"]
    return (f"step {d['step']}, {seat_label(review, seat)}: {d['label']}, lost "
            f"{percent(d['loss'])}\nplayed {d['played_text']} ({percent(d['after'][seat])})"
            f"\nbetter {d['best_text']} ({percent(d['before'][seat])})")


def share_chart_svg(review: dict[str, Any], width: int = 720, height: int = 300) -> str:
    """The share-of-victory chart as an inline `<svg>` element (for an HTML page: it carries
    no namespace declaration, which only a standalone .svg file needs)."""
    left, right, top, bottom = MARGIN
    plot_w, plot_h = width - left - right, height - top - bottom
    length = max(1, int(review["length"]))

    def x(step: float) -> float:
        return left + step / length * plot_w

    def y(share: float) -> float:
        return _share_y(share, top, plot_h)

    seats = len(review["returns"])
    parts = [f'<svg width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
             f'role="img" aria-label="{escape(chart_caption(review))}">']
    for event in review["luck"]:  # bands first: lines and marks are drawn over them
        moved = max((abs(c) for c in event["change"]), default=0.0)
        opacity = 0.06 + min(0.4, moved)
        parts.append(f'<rect class="luck" x="{x(event["from"]):.1f}" y="{top}" '
                     f'width="{max(1.0, x(event["to"]) - x(event["from"])):.1f}" '
                     f'height="{plot_h}" fill="#888" fill-opacity="{opacity:.2f}">'
                     f"<title>{escape(_luck_title(review, event))}</title></rect>")
    for share in (0.0, 0.25, 0.5, 0.75, 1.0):
        parts.append(f'<line x1="{left}" x2="{left + plot_w}" y1="{y(share):.1f}" '
                     f'y2="{y(share):.1f}" stroke="#ddd"/>'
                     f'<text x="{left - 6}" y="{y(share) + 4:.1f}" text-anchor="end">'
                     f"{share * 100:.0f}%</text>")
    for step in _tick_steps(length):
        parts.append(f'<text x="{x(step):.1f}" y="{top + plot_h + 16}" '
                     f'text-anchor="middle">{step}</text>')
    parts.append(f'<text x="{left + plot_w}" y="{height - 2}" text-anchor="end">step</text>')
    decisions = review["decisions"]
    # partners share one line: a later partner's is dashed so that both colours show
    dashed = {seat for side in sides(review) for seat in side[1:]}
    for seat in range(seats):
        points = [(d["step"], d["before"][seat]) for d in decisions]
        points.append((length, review["returns"][seat]))
        path = " ".join(f"{x(s):.1f},{y(v):.1f}" for s, v in points)
        dash = ' stroke-dasharray="6 6"' if seat in dashed else ""
        parts.append(f'<polyline class="seat" data-seat="{seat}" points="{path}" fill="none" '
                     f'stroke="{COLOURS[seat % len(COLOURS)]}" stroke-width="2"{dash} '
                     f'stroke-linejoin="round"><title>{escape(seat_label(review, seat))}'
                     "</title></polyline>")
    for d in decisions:
        if d.get("label") is None:
            continue
        seat = d["seat"]
        colour = LABEL_COLOURS.get(d["label"], "#000")
        parts.append(f'<line class="drop" x1="{x(d["step"]):.1f}" x2="{x(d["step"]):.1f}" '
                     f'y1="{y(d["before"][seat]):.1f}" y2="{y(d["after"][seat]):.1f}" '
                     f'stroke="{colour}" stroke-width="2" stroke-dasharray="3 2"/>')
        parts.append(f'<circle class="flag {d["label"]}" cx="{x(d["step"]):.1f}" '
                     f'cy="{y(d["before"][seat]):.1f}" r="{6 if d["label"] == "blunder" else 4.5}"'
                     f' fill="{colour}" stroke="'
                     f'{COLOURS[seat % len(COLOURS)]}" stroke-width="2">'
                     f"<title>{escape(_flag_title(review, d))}</title></circle>")
    parts.append("</svg>")
    return "".join(parts)


def chart_caption(review: dict[str, Any]) -> str:
    return (f"Share of victory of every seat over {review['length']} steps of "
            f"{game_title(review)}")


def _table(head: Sequence[str], rows: Sequence[Sequence[str]], left: set[int],
           classes: Sequence[str] = (), cell_classes: dict[tuple[int, int], str] | None = None
           ) -> str:
    """An escaped table; columns in `left` are text, the others numbers."""
    cls = [' class="l"' if i in left else "" for i in range(len(head))]
    out = ["<table><thead><tr>"]
    out += [f"<th{c}>{escape(h)}</th>" for c, h in zip(cls, head, strict=True)]
    out.append("</tr></thead><tbody>")
    for r, row in enumerate(rows):
        row_class = classes[r] if r < len(classes) and classes[r] else ""
        out.append(f'<tr class="{row_class}">' if row_class else "<tr>")
        for i, cell in enumerate(row):
            names = [name for name in ("l" if i in left else "",
                                       (cell_classes or {}).get((r, i), "")) if name]
            attr = f' class="{" ".join(names)}"' if names else ""
            out.append(f"<td{attr}>{escape(cell)}</td>")
        out.append("</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def summary_html(review: dict[str, Any], seat: int | None = None) -> str:
    rows = summary_rows(review, seat)
    cells = [[str(r.seat), r.player, str(r.decisions), str(r.mistakes), str(r.blunders),
              percent(r.lost), percent(r.luck, signed=True), percent(r.mean_loss)]
             for r in rows]
    head = ["seat", "player", "decisions", "mistakes", "blunders", "lost", "luck",
            "mean loss per decision"]
    return (_table(head, cells, {1}, ["marked" if r.marked else "" for r in rows])
            + f'<p class="note">{escape(explanation(review))}.</p>')


def flagged_html(review: dict[str, Any], seat: int | None = None) -> str:
    rows = flagged_rows(review, seat)
    if not rows:
        return (f"<p>No flagged moves: no move gave away more than "
                f"{escape(percent(review['labels']['mistake']))} of its share of victory.</p>")
    cells = [[str(r.step), seat_label(review, r.seat), r.label, r.played,
              percent(r.played_share), r.best, percent(r.best_share), percent(r.loss)]
             for r in rows]
    marks = {(i, 2): r.label for i, r in enumerate(rows)}
    head = ["step", "seat", "label", "move played", "share after", "better move",
            "share after", "loss"]
    return (_table(head, cells, {1, 2, 3, 5}, cell_classes=marks)
            + '<p class="note">Share after: the mover\'s share of victory after that move, '
            "as the search estimated it from the mover's information only.</p>")


def legend_html(review: dict[str, Any]) -> str:
    seats = [f'<span><i style="background:{COLOURS[seat % len(COLOURS)]}"></i>'
             f"{escape(seat_label(review, seat))}</span>"
             for seat in range(len(review["returns"]))]
    marks = [f'<span><i style="background:{colour}; height:.6rem; width:.6rem; '
             f'border-radius:50%"></i>{label}</span>'
             for label, colour in LABEL_COLOURS.items()]
    band = ('<span><i style="background:#888; opacity:.35; height:.8rem"></i>chance '
            "(darker: moved the shares more)</span>")
    return f'<p class="legend">{"".join(seats + marks)}{band}</p>'


def review_html(review: dict[str, Any], seat: int | None = None) -> str:
    """The page: facts, summary per seat, the chart, the flagged moves (`seat`'s only, when
    given; its summary row is marked)."""
    players = " vs ".join(str(p) for p in review["players"])
    title = f"Game review: {game_title(review)}, {players}"
    rows = "".join(f'<tr><th class="l">{escape(k)}</th><td class="l">{escape(v)}</td></tr>'
                   for k, v in facts(review))
    parts = [
        *page_start(title, CSS),
        f"<table>{rows}</table>",
        '<section id="summary"><h2>Summary per seat</h2>',
        summary_html(review, seat),
        "</section>",
        '<section id="chart"><h2>Share of victory over the game</h2>',
        "<p>What the search thought each seat's share of victory was before every decision, "
        "up to the result. A marked point is a mistake or a blunder, its dashed line the drop "
        "to the move played (hover for the move and the better one); a shaded band is a run of "
        "draws (hover for what they did).</p>",
        share_chart_svg(review, width=920, height=320),
        legend_html(review),
        "</section>",
        '<section id="flagged"><h2>Flagged moves</h2>',
        flagged_html(review, seat),
        "</section>",
        "</body></html>\n",
    ]
    return "\n".join(parts)


__all__ = ["review_html", "share_chart_svg"]
