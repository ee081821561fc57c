"""The report's charts, each rendered to PNG bytes for embedding in the page.

Figures are built with `matplotlib.figure.Figure` directly (no pyplot): no global state, no
display backend, safe in worker threads and test runs. Every chart shows one series per bot
kind, each kind in the same colour throughout, so kinds can be compared side by side.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence

from tlatelolco.extras import missing
from tlatelolco.report.stats import Rate, Stats

try:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure
    from matplotlib.patches import Patch
except ImportError as err:  # the `report` extra: say how to install it
    raise missing("matplotlib", "report") from err

PALETTE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
           "#7f7f7f", "#bcbd22", "#17becf")
SIZE = (8.0, 4.2)


def colour(index: int) -> str:
    return PALETTE[index % len(PALETTE)]


def to_png(figure: Figure) -> bytes:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=100)
    return buffer.getvalue()


def new_figure(columns: int = 1) -> tuple[Figure, list[Axes]]:
    figure = Figure(figsize=SIZE, layout="constrained")
    axes = figure.subplots(1, columns, squeeze=False)[0]
    for ax in axes:
        ax.grid(axis="y", alpha=0.3)
        ax.set_axisbelow(True)
    return figure, list(axes)


def offsets(kinds: int, width: float = 0.8) -> tuple[float, list[float]]:
    """Bar width and each kind's offset from a group's centre."""
    bar = width / kinds
    return bar, [(k - (kinds - 1) / 2) * bar for k in range(kinds)]


def error_bars(rates: Sequence[Rate]) -> list[list[float]]:
    """Whisker lengths; clamped at 0 as rounding can put a bound a hair past the share."""
    return [[max(0.0, r.share - r.low) for r in rates], [max(0.0, r.high - r.share) for r in rates]]


def rate_bars(ax: Axes, xs: Sequence[float], rates: Sequence[Rate], width: float,
              kind: int) -> None:
    """Bars with interval whiskers, each share written above its whisker (so a share of 0,
    which draws no bar, still reads as 0)."""
    ax.bar(xs, [r.share for r in rates], width, color=colour(kind), yerr=error_bars(rates),
           capsize=3, ecolor="#333333")
    for x, r in zip(xs, rates, strict=True):
        ax.annotate(f"{r.share:.2f}", (x, r.high), xytext=(0, 2), textcoords="offset points",
                    ha="center", va="bottom", fontsize=7, color="#333333")


def seat_labels(stats: Stats) -> list[str]:
    """`seat 0`, or `seat 0` over `side 1` when seats play in partnerships."""
    if all(len(side) == 1 for side in stats.sides):
        return [f"seat {seat}" for seat in range(stats.num_players)]
    side_of = {seat: i + 1 for i, side in enumerate(stats.sides) for seat in side}
    return [f"seat {seat}\nside {side_of[seat]}" for seat in range(stats.num_players)]


def kinds_legend(figure: Figure, stats: Sequence[Stats], extra: Sequence = ()) -> None:
    handles = [Patch(color=colour(k), label=s.bot) for k, s in enumerate(stats)]
    handles += list(extra)
    figure.legend(handles=handles, loc="outside lower center", ncols=min(len(handles), 5),
                  frameon=False)


def win_rate_plot(stats: Sequence[Stats]) -> bytes:
    """Per seat, each kind's mean return with its 95% interval, against the even share."""
    figure, (ax,) = new_figure()
    seats = stats[0].num_players
    bar, shift = offsets(len(stats))
    for k, s in enumerate(stats):
        xs = [seat + shift[k] for seat in range(seats)]
        rate_bars(ax, xs, s.win_rate, bar, k)
    even = stats[0].even_share
    line = ax.axhline(even, color="black", linestyle="--", linewidth=1,
                      label=f"even share ({even:.3g})")
    ax.set_xticks(range(seats), seat_labels(stats[0]))
    ax.set_ylim(0, 1.1)
    ax.set_ylabel("win rate (shared wins count their share)")
    ax.set_title("Win rate by seat, 95% Wilson intervals")
    kinds_legend(figure, stats, [line])
    return to_png(figure)


def score_plot(stats: Sequence[Stats]) -> bytes:
    """Box plots of the primary score per seat, one box per kind."""
    figure, (ax,) = new_figure()
    seats = stats[0].num_players
    bar, shift = offsets(len(stats))
    for k, s in enumerate(stats):
        boxes = ax.boxplot(s.scores, positions=[seat + shift[k] for seat in range(seats)],
                           widths=bar * 0.85, patch_artist=True, manage_ticks=False,
                           flierprops={"marker": ".", "markersize": 3, "alpha": 0.5})
        for box in boxes["boxes"]:
            box.set(facecolor=colour(k), alpha=0.75)
        for median in boxes["medians"]:
            median.set(color="black")
    ax.set_xticks(range(seats), seat_labels(stats[0]))
    ax.set_xlim(-0.5, seats - 0.5)
    ax.set_ylabel("final score (scores())")
    ax.set_title("Final score by seat (box: quartiles, line: median)")
    kinds_legend(figure, stats)
    return to_png(figure)


def length_plot(stats: Sequence[Stats]) -> bytes:
    """Histograms of the decisions per game and of all steps (chance included)."""
    figure, axes = new_figure(2)
    for ax, field, title in ((axes[0], "decisions", "Decisions per game (no chance)"),
                             (axes[1], "steps", "Steps per game (with chance)")):
        values = [getattr(s, field) for s in stats]
        low, high = min(map(min, values)), max(map(max, values))
        bins = max(1, min(30, high - low + 1))
        for k, series in enumerate(values):
            ax.hist(series, bins=bins, range=(low - 0.5, high + 0.5), histtype="step",
                    linewidth=2, color=colour(k))
        ax.set_title(title)
        ax.set_xlabel("length")
        ax.set_ylabel("games")
    figure.suptitle("Game length")
    kinds_legend(figure, stats)
    return to_png(figure)


def outcome_plot(stats: Sequence[Stats]) -> bytes:
    """Share of games decided by a tie-break, and of shared victories, per kind."""
    figure, (ax,) = new_figure()
    bar, shift = offsets(len(stats))
    for k, s in enumerate(stats):
        rates = [s.tie_break, s.shared]
        rate_bars(ax, [0 + shift[k], 1 + shift[k]], rates, bar, k)
    ax.set_xticks([0, 1], ["decided by a tie-break", "shared victory"])
    top = max(max(s.tie_break.high, s.shared.high) for s in stats)
    ax.set_ylim(0, min(1.1, max(0.1, top * 1.2)))
    ax.set_ylabel("share of games")
    ax.set_title("Ties: tie-breaks and shared victories, 95% Wilson intervals")
    kinds_legend(figure, stats)
    return to_png(figure)


PLOTS: dict[str, Callable[[Sequence[Stats]], bytes]] = {
    "win_rate": win_rate_plot,
    "scores": score_plot,
    "length": length_plot,
    "ties": outcome_plot,
}


def render_all(stats: Sequence[Stats]) -> dict[str, bytes]:
    """Every chart of the report, by section name."""
    return {name: plot(stats) for name, plot in PLOTS.items()}
