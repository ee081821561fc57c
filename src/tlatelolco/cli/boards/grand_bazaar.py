"""Grand Bazaar in the terminal, drawn only from `GrandBazaarState.observation`.

Gems are shown as coloured letters (S, R, E; Z, R, E in Spanish: the initial of the gem's name)
so the board still reads without colour.
"""

from __future__ import annotations

from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from tlatelolco.cli.boards.common import Say
from tlatelolco.i18n import DEFAULT_LANGUAGE, N_, N_n

CHANCE_LABEL = N_("price card")
GEM_NAMES = {"sapphire": N_("sapphire"), "ruby": N_("ruby"), "emerald": N_("emerald")}
GEM_STYLE = {"sapphire": "blue", "ruby": "red", "emerald": "green"}
PRICE_SCALE = 19  # the bar's length: with the GB-1 deck a price stays within 1..19
SCALE_TICKS = "1   5    10   15 19"  # labels under cells 1, 5, 10, 15 and 19
MOVER, START = "▶", "★"


def gem_chip(gem: str, say: Say) -> Text:
    return Text(say.word(GEM_NAMES.get(gem, gem))[0].upper(),
                style=f"bold white on {GEM_STYLE.get(gem, 'magenta')}")


def gem_name(gem: str, say: Say) -> Text:
    return Text(say.word(GEM_NAMES.get(gem, gem)), style=f"bold {GEM_STYLE.get(gem, 'magenta')}")


def price_bar(gem: str, price: int) -> Text:
    filled = max(0, min(price, PRICE_SCALE))
    bar = Text("█" * filled, style=GEM_STYLE.get(gem, "magenta"))
    bar.append("·" * (PRICE_SCALE - filled), style="dim")
    return bar


def price_board(obs: dict[str, Any], say: Say) -> Table:
    """One bar per gem with its price and what the bazaar has left of it."""
    table = Table(box=None, show_header=True, header_style="dim", pad_edge=False)
    table.add_column(say(N_("gem")))
    table.add_column(SCALE_TICKS, no_wrap=True)
    table.add_column(say(N_("price")), justify="right")
    table.add_column(say(N_("bazaar")), justify="right")
    for gem, price in obs["prices"].items():
        table.add_row(gem_name(gem, say), price_bar(gem, price), Text(str(price), style="bold"),
                      say.n(N_n("{n} left", "{n} left"), obs["bazaar"].get(gem, 0)))
    return table


def hand(gems: dict[str, int], say: Say) -> Text:
    text = Text()
    for gem, count in gems.items():
        for _ in range(count):
            text.append_text(gem_chip(gem, say))
            text.append(" ")
    return text if text.plain else Text("—", style="dim")


def result_text(share: float, say: Say) -> Text:
    if share >= 1.0:
        return Text(say(N_("winner")), style="bold green")
    if share > 0.0:
        return Text(say(N_("shared win ({share})"), share=f"{share:.2g}"), style="bold green")
    return Text("")


def players_table(obs: dict[str, Any], viewer: int | None, say: Say) -> Table:
    """Seats with their grands and gems; marks for the start player and the player to move."""
    terminal = obs.get("terminal", False)
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, header_style="bold")
    table.add_column("", no_wrap=True)
    table.add_column(say(N_("seat")))
    table.add_column(say(N_("grands")), justify="right")
    table.add_column(say(N_("gems")))
    table.add_column(say(N_("hand")), justify="right")
    table.add_column(say(N_("result")) if terminal else say(N_("this turn")), min_width=26)
    returns = obs.get("returns") or []
    for player in obs["players"]:
        seat = player["seat"]
        marks = (MOVER if seat == obs["to_move"] else " ") + (
            START if seat == obs["start_player"] and obs["round"] else " ")
        name = Text(str(seat))
        if seat == viewer:
            name.append(" " + say(N_("(you)")), style="dim")
        if terminal:
            last = result_text(returns[seat], say) if seat < len(returns) else Text("")
        elif seat == obs["to_move"]:
            last = this_turn(obs["this_turn"], say)
        else:
            last = Text("")
        table.add_row(marks, name, str(player["grands"]), hand(player["gems"], say),
                      f"{sum(player['gems'].values())}/{obs['hand_limit']}", last)
    return table


# what a seat did this turn, by the observation's key
TRADES = {"bought": N_("bought {gems}"), "sold": N_("sold {gems}")}


def this_turn(trades: dict[str, list[str]], say: Say) -> Text:
    text = Text()
    for verb, message in TRADES.items():
        gems = trades.get(verb, [])
        if gems:
            if text.plain:
                text.append("; ")
            text.append_text(say.text(message, gems=Text(", ").join(gem_name(g, say)
                                                                     for g in gems)))
    return text if text.plain else Text(say(N_("nothing yet")), style="dim")


def card_text(card: str | None, gems: list[str], say: Say) -> Text:
    """'+1 -1 0' as coloured per-gem changes."""
    if card is None:
        return Text(say(N_("none yet")), style="dim")
    text = Text()
    for gem, change in zip(gems, card.split(), strict=False):
        text.append_text(gem_chip(gem, say))
        text.append(f"{change} ")
    return text


def status(obs: dict[str, Any], say: Say) -> Text:
    if obs.get("terminal"):
        return Text(say(N_("Game over: every gem paid out 10 grands.")), style="bold")
    if obs["to_move"] < 0:
        return Text(say(N_("A price card is due.")), style="italic")
    return Text(say(N_("Seat {seat} to move."), seat=obs["to_move"]), style="bold")


def render(obs: dict[str, Any], viewer: int | None = None,
           lang: str = DEFAULT_LANGUAGE) -> RenderableType:
    """The whole table as one panel."""
    say = Say(lang)
    gems = list(obs["prices"])
    footer = say.text(N_("last price card: {card}"),
                      card=card_text(obs.get("last_card"), gems, say))
    footer.append("   " + say(N_("price cards left: {n}"),
                              n=len(obs.get("price_cards_left", []))))
    legend = Text(MOVER + " " + say(N_("to move")) + "  " + START + " " + say(N_("start player")),
                  style="dim")
    title = "Grand Bazaar · " + say(N_("round {round}/{rounds}"), round=obs["round"],
                                    rounds=obs.get("rounds", "?"))
    body = Group(price_board(obs, say), Text(""), footer, players_table(obs, viewer, say),
                 status(obs, say), legend)
    return Panel(body, title=title, title_align="left", expand=False)
