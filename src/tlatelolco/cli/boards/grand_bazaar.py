"""Grand Bazaar in the terminal, drawn only from `GrandBazaarState.observation`.

Gems are shown as coloured letters (S, R, E) so the board still reads without colour.
"""

from __future__ import annotations

from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

CHANCE_LABEL = "price card"
GEM_STYLE = {"sapphire": "blue", "ruby": "red", "emerald": "green"}
PRICE_SCALE = 19  # the bar's length: with the GB-1 deck a price stays within 1..19
SCALE_TICKS = "1   5    10   15 19"  # labels under cells 1, 5, 10, 15 and 19
MOVER, START = "▶", "★"


def gem_chip(gem: str) -> Text:
    return Text(gem[0].upper(), style=f"bold white on {GEM_STYLE.get(gem, 'magenta')}")


def gem_name(gem: str) -> Text:
    return Text(gem, style=f"bold {GEM_STYLE.get(gem, 'magenta')}")


def price_bar(gem: str, price: int) -> Text:
    filled = max(0, min(price, PRICE_SCALE))
    bar = Text("█" * filled, style=GEM_STYLE.get(gem, "magenta"))
    bar.append("·" * (PRICE_SCALE - filled), style="dim")
    return bar


def price_board(obs: dict[str, Any]) -> Table:
    """One bar per gem with its price and what the bazaar has left of it."""
    table = Table(box=None, show_header=True, header_style="dim", pad_edge=False)
    table.add_column("gem")
    table.add_column(SCALE_TICKS, no_wrap=True)
    table.add_column("price", justify="right")
    table.add_column("bazaar", justify="right")
    for gem, price in obs["prices"].items():
        table.add_row(gem_name(gem), price_bar(gem, price), Text(str(price), style="bold"),
                      f"{obs['bazaar'].get(gem, 0)} left")
    return table


def hand(gems: dict[str, int]) -> Text:
    text = Text()
    for gem, count in gems.items():
        for _ in range(count):
            text.append_text(gem_chip(gem))
            text.append(" ")
    return text if text.plain else Text("—", style="dim")


def result_text(share: float) -> Text:
    if share >= 1.0:
        return Text("winner", style="bold green")
    if share > 0.0:
        return Text(f"shared win ({share:.2g})", style="bold green")
    return Text("")


def players_table(obs: dict[str, Any], viewer: int | None) -> Table:
    """Seats with their grands and gems; marks for the start player and the player to move."""
    terminal = obs.get("terminal", False)
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, header_style="bold")
    table.add_column("", no_wrap=True)
    table.add_column("seat")
    table.add_column("grands", justify="right")
    table.add_column("gems")
    table.add_column("hand", justify="right")
    table.add_column("result" if terminal else "this turn", min_width=26)
    returns = obs.get("returns") or []
    for player in obs["players"]:
        seat = player["seat"]
        marks = (MOVER if seat == obs["to_move"] else " ") + (
            START if seat == obs["start_player"] and obs["round"] else " ")
        name = Text(str(seat))
        if seat == viewer:
            name.append(" (you)", style="dim")
        if terminal:
            last = result_text(returns[seat]) if seat < len(returns) else Text("")
        elif seat == obs["to_move"]:
            last = this_turn(obs["this_turn"])
        else:
            last = Text("")
        table.add_row(marks, name, str(player["grands"]), hand(player["gems"]),
                      f"{sum(player['gems'].values())}/{obs['hand_limit']}", last)
    return table


def this_turn(trades: dict[str, list[str]]) -> Text:
    text = Text()
    for verb in ("bought", "sold"):
        gems = trades.get(verb, [])
        if gems:
            if text.plain:
                text.append("; ")
            text.append(f"{verb} ")
            text.append_text(Text(", ").join(gem_name(g) for g in gems))
    return text if text.plain else Text("nothing yet", style="dim")


def card_text(card: str | None, gems: list[str]) -> Text:
    """'+1 -1 0' as coloured per-gem changes."""
    if card is None:
        return Text("none yet", style="dim")
    text = Text()
    for gem, change in zip(gems, card.split(), strict=False):
        text.append_text(gem_chip(gem))
        text.append(f"{change} ")
    return text


def status(obs: dict[str, Any]) -> Text:
    if obs.get("terminal"):
        return Text("Game over: every gem paid out 10 grands.", style="bold")
    if obs["to_move"] < 0:
        return Text("A price card is due.", style="italic")
    return Text(f"Seat {obs['to_move']} to move.", style="bold")


def render(obs: dict[str, Any], viewer: int | None = None) -> RenderableType:
    """The whole table as one panel."""
    gems = list(obs["prices"])
    footer = Text("last price card: ")
    footer.append_text(card_text(obs.get("last_card"), gems))
    footer.append(f"   price cards left: {len(obs.get('price_cards_left', []))}")
    legend = Text(f"{MOVER} to move  {START} start player", style="dim")
    title = f"Grand Bazaar · round {obs['round']}/{obs.get('rounds', '?')}"
    body = Group(price_board(obs), Text(""), footer, players_table(obs, viewer), status(obs),
                 legend)
    return Panel(body, title=title, title_align="left", expand=False)
