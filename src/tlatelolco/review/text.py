"""A review in words: the facts of the game, one summary row per seat and one row per flagged
move, as plain data (the terminal and the HTML page show the same numbers) and as rich tables.

Shares of victory are fractions in a review; people read them as percentages, so every share
here is formatted by `percent`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rich import box
from rich.table import Table
from rich.text import Text

from tlatelolco.registry import game_class, load

MARK = "►"  # before the seat chosen with --seat


@dataclass(frozen=True, slots=True)
class SummaryRow:
    """One seat's account: what its moves gave away and what the draws did to it."""

    seat: int
    player: str
    decisions: int
    mistakes: int
    blunders: int
    lost: float
    luck: float
    mean_loss: float  # lost per decision: comparable between long and short games
    marked: bool


@dataclass(frozen=True, slots=True)
class FlaggedRow:
    """A move labelled mistake or blunder, with the better move the search found."""

    step: int
    seat: int
    player: str
    label: str
    played: str
    played_share: float  # the mover's share after the move played
    best: str
    best_share: float  # the mover's share after the better move
    loss: float


def percent(share: float, signed: bool = False) -> str:
    """0.1234 -> '12.3%' (with a sign for luck, where the direction matters)."""
    return f"{share * 100:+.1f}%" if signed else f"{share * 100:.1f}%"


def player_name(review: dict[str, Any], seat: int) -> str:
    players = review.get("players") or []
    return str(players[seat]) if seat < len(players) else "?"


def seat_label(review: dict[str, Any], seat: int) -> str:
    return f"seat {seat} ({player_name(review, seat)})"


def game_title(review: dict[str, Any]) -> str:
    """'Axio (axio)', or the bare name of a game that is not registered here."""
    name = str(review["game"])
    try:
        return f"{game_class(name).info.title} ({name})"
    except ValueError:
        return name


def sides(review: dict[str, Any]) -> tuple[tuple[int, ...], ...]:
    """The sides that win together (partners in Aztec Market's team game), one per seat
    when the game cannot be loaded here."""
    try:
        return load(str(review["game"]), **review.get("options", {})).teams()
    except (TypeError, ValueError):
        return tuple((seat,) for seat in range(len(review["returns"])))


def result_text(review: dict[str, Any]) -> str:
    """Who won, from the returns: ties share the victory."""
    returns = review["returns"]
    best = max(returns, default=0.0)
    won = [side for side in sides(review) if returns[side[0]] == best and best > 0]
    if not won:
        return "nobody won"
    names = [" and ".join(seat_label(review, seat) for seat in side) for side in won]
    return f"{names[0]} won" if len(won) == 1 else f"shared victory: {'; '.join(names)}"


def settings_text(review: dict[str, Any]) -> str:
    """The search budget per decision and the seed: what makes the review what it is."""
    settings = review["settings"]
    budget = []
    if settings.get("iterations") is not None:
        budget.append(f"{settings['iterations']} iterations")
    if settings.get("time") is not None:
        budget.append(f"{settings['time']:g} s")
    return f"{' or '.join(budget) or 'default budget'} per decision, seed {settings['seed']}"


def facts(review: dict[str, Any]) -> list[tuple[str, str]]:
    """The header of a review: game, players, result, settings, time."""
    options = ", ".join(f"{k}={v}" for k, v in review.get("options", {}).items()) or "none"
    players = ", ".join(seat_label(review, seat) for seat in range(len(review["returns"])))
    returns = " / ".join(f"{r:g}" for r in review["returns"])
    decisions = len(review["decisions"])
    return [
        ("game", f"{game_title(review)}, options {options}"),
        ("players", players),
        ("result", f"{result_text(review)}; returns {returns}; {review['length']} steps"),
        ("search", settings_text(review)),
        ("time", f"{decisions} decisions analysed in {review['seconds']:g} s"),
    ]


def summary_rows(review: dict[str, Any], seat: int | None = None) -> list[SummaryRow]:
    """One row per seat from the review's summary; `seat` is marked."""
    rows = []
    for entry in review["summary"]:
        count = entry["decisions"]
        rows.append(SummaryRow(
            seat=entry["seat"], player=player_name(review, entry["seat"]), decisions=count,
            mistakes=entry["mistakes"], blunders=entry["blunders"], lost=entry["lost"],
            luck=entry["luck"], mean_loss=entry["lost"] / count if count else 0.0,
            marked=entry["seat"] == seat))
    return rows


def flagged_rows(review: dict[str, Any], seat: int | None = None) -> list[FlaggedRow]:
    """The decisions with a label, in game order; only `seat`'s when given."""
    rows = []
    for d in review["decisions"]:
        if d.get("label") is None or (seat is not None and d["seat"] != seat):
            continue
        mover = d["seat"]
        rows.append(FlaggedRow(
            step=d["step"], seat=mover, player=player_name(review, mover), label=d["label"],
            played=d["played_text"], played_share=d["after"][mover], best=d["best_text"],
            best_share=d["before"][mover], loss=d["loss"]))
    return rows


def explanation(review: dict[str, Any]) -> str:
    """What the summary's words mean, in one line."""
    labels = review["labels"]
    return (f"lost: the share of victory a seat's moves gave away against the best moves "
            f"found (one move losing over {percent(labels['mistake'])} is a mistake, over "
            f"{percent(labels['blunder'])} a blunder); luck: what the draws did to its share")


def summary_table(review: dict[str, Any], seat: int | None = None) -> Table:
    table = Table(title="Summary per seat", title_justify="left", box=box.SIMPLE_HEAD,
                  pad_edge=False)
    table.add_column("seat", justify="right", no_wrap=True)
    table.add_column("player", overflow="fold")
    for column in ("decisions", "mistakes", "blunders", "lost", "luck", "mean loss"):
        table.add_column(column, justify="right", no_wrap=True)
    for row in summary_rows(review, seat):
        table.add_row(f"{MARK} {row.seat}" if row.marked else str(row.seat), Text(row.player),
                      str(row.decisions), str(row.mistakes), str(row.blunders),
                      percent(row.lost), percent(row.luck, signed=True),
                      percent(row.mean_loss), style="bold" if row.marked else "")
    return table


def flagged_table(review: dict[str, Any], seat: int | None = None) -> Table | Text:
    """The flagged moves, or one line saying there are none."""
    rows = flagged_rows(review, seat)
    whose = "" if seat is None else f" of {seat_label(review, seat)}"
    if not rows:
        return Text(f"No flagged moves{whose}: no move gave away more than "
                    f"{percent(review['labels']['mistake'])} of its share of victory.")
    table = Table(title=Text(f"Flagged moves{whose}", "italic"), title_justify="left",
                  box=box.SIMPLE_HEAD, pad_edge=False, caption_justify="left",
                  caption="share: the mover's share of victory after that move; step N is "
                  "move N+1 in `tlatelolco replay`")
    for column, right in (("step", True), ("seat", True), ("player", False), ("label", False),
                          ("played", False), ("share", True), ("better", False),
                          ("share", True), ("loss", True)):
        table.add_column(column, justify="right" if right else "left",
                         no_wrap=column not in ("player", "played", "better"),
                         overflow="fold")
    for row in rows:
        style = "red" if row.label == "blunder" else "yellow"
        table.add_row(str(row.step), str(row.seat), Text(row.player), Text(row.label, style),
                      Text(row.played), percent(row.played_share), Text(row.best),
                      percent(row.best_share), percent(row.loss))
    return table


__all__ = ["FlaggedRow", "SummaryRow", "explanation", "facts", "flagged_rows", "flagged_table",
           "game_title", "percent", "result_text", "settings_text", "sides", "summary_rows",
           "summary_table"]
