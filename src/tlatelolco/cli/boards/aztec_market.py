"""Aztec Market in the terminal, drawn only from `AztecMarketState.observation`.

The 4x4 market is drawn as a grid (columns A-D West to East, rows 1-4 South to North) with each
seated side's buyers just outside it: South below, West left, North above, East right. Every
square and buyer carries a word or a number as well as a colour, so the board reads without
colour and fits in 80 columns.
"""

from __future__ import annotations

from typing import Any

from rich import box
from rich.align import AlignMethod
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from tlatelolco.cli.boards.common import result_word

CHANCE_LABEL = "bag"
COLOURS = ("black", "blue", "red", "green")
# Goods as text (counts on buyers and in tables) and vendor tiles as coloured chips.
GOODS_STYLE = {"black": "bold white on grey23", "blue": "bold bright_blue", "red": "bold red",
               "green": "bold green"}
VENDOR_STYLE = {"black": "bold white on grey23", "blue": "bold white on blue",
                "red": "bold white on red", "green": "bold black on green"}
# The grey tiles: (label, what it does to a purchase through it, style).
TILES = {
    "crowd": ("CROWD", "blocks", "bold"),
    "porter": ("porter", "returns 1", "cyan"),
    "governor": ("governor", "1 to king", "cyan"),
    "ambassador": ("ambassador", "keeps coin", "cyan"),
    "errand boy": ("errand boy", "moves free", "cyan"),
}
KING_STYLE = "bold black on yellow"
COIN, NO_COIN, MOVER = "●", "○", "▶"
HOLE_FILL = "░"
COLUMNS, ROWS = "ABCD", "1234"
CELL = 11  # characters inside a square
SIDE_BLOCK = 9  # characters for a West or East buyer ("20 black")
PHASES = {
    "build": "building the market",
    "random build": "set-up: a random market",
    "start coin": "set-up: a starting coin on a buyer",
    "choose": "choose PASS or PLAY",
    "restock": "PASS: restocking the vendors",
    "pass moves": "PASS: moving the market",
    "pass coin": "PASS: taking a coin",
    "pass king": "PASS: the king may buy",
    "play": "PLAY: market moves and purchases",
    "over": "game over",
}


# --- small pieces -------------------------------------------------------------------------------

def fit(text: Text | str, width: int, justify: AlignMethod = "center") -> Text:
    """`text` padded (or cut) to exactly `width` cells; its style stays on its own characters
    (a Text's base style would otherwise run on into whatever is appended to it)."""
    out = Text()
    out.append_text(Text(text) if isinstance(text, str) else text)
    out.truncate(width)
    out.align(justify, width)
    return out


def goods_text(count: int, colour: str | None) -> Text:
    """'12 red' in red; a dim dash for nothing."""
    if not count or colour is None:
        return Text("—", style="dim")
    return Text(f"{count} {colour}", style=GOODS_STYLE.get(colour, "bold"))


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def side_of(obs: dict[str, Any], seat: int) -> str:
    for player in obs["players"]:
        if player["seat"] == seat:
            return str(player["side"])
    return f"seat {seat}"


def who(obs: dict[str, Any], seat: int, viewer: int | None) -> str:
    """'South (seat 0, you)'."""
    you = ", you" if seat == viewer else ""
    return f"{side_of(obs, seat)} (seat {seat}{you})"


# --- the market ---------------------------------------------------------------------------------

def square_lines(obs: dict[str, Any], square: str) -> tuple[Text, Text]:
    """The two lines inside a square: the tile and its goods or what it does."""
    tile = obs["market"].get(square)
    if tile is None:
        if obs.get("hole") == square:
            fill = HOLE_FILL * CELL
            hole = Text(HOLE_FILL * 3 + " HOLE " + HOLE_FILL * 2, style="bold")
            return fit(hole, CELL), Text(fill, style="dim")
        return fit(Text("·", style="dim"), CELL), fit("", CELL)
    if tile.endswith(" vendor"):
        colour = tile.removesuffix(" vendor")
        count = obs["vendors"].get(colour, 0)
        chip = Text(f" {colour.upper()} {count} ", style=VENDOR_STYLE.get(colour, "bold"))
        return fit(chip, CELL), fit(Text("vendor", style="dim"), CELL)
    if tile == "king":
        total = sum(obs["king"].values())
        return (fit(Text(" KING ", style=KING_STYLE), CELL),
                fit(Text(plural(total, "good"), style="yellow"), CELL))
    label, effect, style = TILES.get(tile, (tile, "", "bold"))
    return fit(Text(label, style=style), CELL), fit(Text(effect, style="dim"), CELL)


def buyer_lines(buyer: dict[str, Any] | None, bold: bool) -> tuple[Text, Text]:
    """'S2 ●' and '12 red': the buyer's name, its coin and its goods (blank if nobody sits)."""
    if buyer is None:
        return Text(""), Text("")
    name = Text()
    name.append(buyer["name"], style="bold" if bold else "")
    name.append(" ")
    name.append(COIN if buyer["coin"] else NO_COIN,
                style="bold yellow" if buyer["coin"] else "dim")
    return name, goods_text(buyer["goods"], buyer["colour"])


def market_grid(obs: dict[str, Any]) -> Text:
    """The grid with column letters, row numbers and the buyers of the seated sides."""
    buyers: dict[str, list[dict[str, Any]]] = {p["side"]: p["buyers"] for p in obs["players"]}
    mover = side_of(obs, obs["to_move"]) if obs["to_move"] >= 0 else None

    def side_buyer(side: str, k: int) -> tuple[Text, Text]:
        row = buyers.get(side)
        return buyer_lines(row[k] if row and k < len(row) else None, side == mover)

    margin = " " * (SIDE_BLOCK + 4)  # West block, two spaces, row number, space
    lines: list[Text] = []

    def across(cells: list[Text]) -> Text:
        """A line of four column-wide pieces, aligned with the squares."""
        line = Text(margin + " ")
        for cell in cells:
            line.append_text(fit(cell, CELL))
            line.append(" ")
        return line

    def side_label(side: str) -> Text:
        if side not in buyers:
            return Text("")
        return Text(f"{MOVER} {side}" if side == mover else side,
                    style="bold" if side == mover else "dim")

    def letters() -> Text:
        return across([Text(c, style="bold") for c in COLUMNS])

    def rule(left: str, mid: str, right: str) -> Text:
        return Text(margin + left + mid.join(["─" * CELL] * 4) + right)

    if "North" in buyers:
        lines.append(across([side_label("North"), Text(""), Text(""), Text("")]))
        north = [side_buyer("North", k) for k in range(4)]
        lines += [across([b[0] for b in north]), across([b[1] for b in north])]
    top = fit(side_label("West"), SIDE_BLOCK, "right")
    top.append_text(letters()[SIDE_BLOCK:])
    top.append("   ")
    top.append_text(side_label("East"))
    lines += [top, rule("┌", "┬", "┐")]
    for r in reversed(range(4)):
        squares = [square_lines(obs, COLUMNS[c] + ROWS[r]) for c in range(4)]
        west, east = side_buyer("West", r), side_buyer("East", r)
        for i in range(2):
            line = fit(west[i], SIDE_BLOCK, "right")
            line.append(f"  {ROWS[r] if i == 0 else ' '} │")
            for sq in squares:
                line.append_text(sq[i])
                line.append("│")
            line.append(f" {ROWS[r] if i == 0 else ' '}  ")
            line.append_text(east[i])
            lines.append(line)
        if r:
            lines.append(rule("├", "┼", "┤"))
    lines += [rule("└", "┴", "┘"), letters()]
    if "South" in buyers:
        south = [side_buyer("South", k) for k in range(4)]
        lines += [across([b[0] for b in south]), across([b[1] for b in south]),
                  across([side_label("South"), Text(""), Text(""), Text("")])]
    for line in lines:
        line.rstrip()
    grid = Text("\n").join(lines)
    grid.no_wrap, grid.overflow = True, "crop"  # a narrow terminal loses the East edge, no more
    return grid


# --- the panel beside it ------------------------------------------------------------------------

def goods_table(obs: dict[str, Any]) -> Table:
    """Where the goods are, by colour: on the vendors, on the king, still unseen."""
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, header_style="bold", padding=(0, 1),
                  collapse_padding=True, pad_edge=False)
    table.add_column("goods", style="dim")
    for colour in COLOURS:
        table.add_column(Text(colour, style=GOODS_STYLE[colour]), justify="right")
    table.add_row("vendors", *(str(obs["vendors"].get(c, 0)) for c in COLOURS))
    table.add_row(Text("king", style="bold yellow"),
                  *(Text(str(obs["king"].get(c, 0)), style="bold yellow") for c in COLOURS))
    table.add_row("unseen", *(str(obs["unseen"].get(c, 0)) for c in COLOURS))
    openly = obs.get("removed", {}).get("openly", {})
    if any(openly.values()):
        table.add_row("removed", *(str(openly.get(c, 0)) for c in COLOURS))
    return table


def players_table(obs: dict[str, Any], viewer: int | None) -> Table:
    """The sides with their coins and scores (and, at the end, the result)."""
    terminal = bool(obs.get("terminal"))
    team_play = any(len(team) > 1 for team in obs.get("teams", []))
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, header_style="bold", padding=(0, 1),
                  collapse_padding=True, pad_edge=False)
    table.add_column("side", no_wrap=True)
    if team_play:
        table.add_column("team")
    table.add_column("coins", justify="right")
    table.add_column("score", justify="right")
    if terminal:
        table.add_column("result")
    team_of = {seat: "+".join(side_of(obs, s)[0] for s in team)
               for team in obs.get("teams", []) for seat in team}
    returns = obs.get("returns") or []
    scores = obs.get("scores") or []
    for player in obs["players"]:
        seat = player["seat"]
        name = Text(f"{MOVER if seat == obs['to_move'] else ' '} {player['side']} {seat}",
                    style="bold" if seat == obs["to_move"] else "")
        if seat == viewer:
            name.append(" you", style="bold")
        row: list[Text | str] = [name]
        if team_play:
            row.append(team_of.get(seat, ""))
        row.append(str(sum(1 for b in player["buyers"] if b["coin"])))
        row.append(f"{scores[seat]:g}" if seat < len(scores) else "?")
        if terminal:
            row.append(result_word(returns[seat]) if seat < len(returns) else "")
        table.add_row(*row)
    return table


def turn_text(obs: dict[str, Any], viewer: int | None) -> Text:
    """Whose turn it is, the phase and, on a second line, how far the turn has got."""
    if obs.get("terminal"):
        return result_text(obs)
    phase = obs["phase"]
    turn = obs.get("turn", {})
    text = Text()
    if obs["to_move"] >= 0:
        text.append(f"{MOVER} {who(obs, obs['to_move'], viewer)} to move", style="bold")
    elif phase == "restock":
        text.append(f"{CHANCE_LABEL}: {plural(turn.get('goods_to_draw', 0), 'good')} still to "
                    "draw", style="italic")
    else:
        text.append(f"{CHANCE_LABEL}: the next tile is drawn", style="italic")
    text.append(" · ")
    text.append(PHASES.get(phase, phase))
    if phase == "build":
        placed = sum(1 for tile in obs["market"].values() if tile is not None)
        text.append(f": {placed} of {len(obs['market']) - 1} tiles placed")
    notes = []
    if phase == "pass moves":
        notes.append(f"{plural(turn.get('market_moves_owed', 0), 'market move')} owed")
    if phase == "play":
        notes.append("purchase made, may end the turn" if turn.get("bought")
                     else "no purchase yet, one is due")
        if turn.get("errand_boy_just_moved"):
            notes.append("errand boy just moved")
    if notes:
        text.append("\nthis turn: " + "; ".join(notes))
    return text


def result_text(obs: dict[str, Any]) -> Text:
    """'Game over: South+North win · South+North 91, West+East 15'."""
    returns = obs.get("returns") or []
    scores = obs.get("scores") or []
    teams = obs.get("teams") or [[p["seat"]] for p in obs["players"]]
    names = ["+".join(side_of(obs, s) for s in team) for team in teams]
    totals = [scores[team[0]] if team and team[0] < len(scores) else 0 for team in teams]
    best = max(returns) if returns else 0
    won = [i for i, team in enumerate(teams)
           if team and team[0] < len(returns) and returns[team[0]] == best and best > 0]
    text = Text()
    text.append("Game over: ", style="bold")
    if len(won) == 1:
        verb = "win" if len(teams[won[0]]) > 1 else "wins"
        text.append(f"{names[won[0]]} {verb}", style="bold green")
    elif won:
        text.append("shared victory of " + " and ".join(names[i] for i in won),
                    style="bold green")
    else:
        text.append("nobody wins", style="bold")
    text.append(" · " + ", ".join(f"{n} {t:g}" for n, t in zip(names, totals, strict=False)))
    return text


def reserve_text(obs: dict[str, Any]) -> Text:
    removed = obs.get("removed", {})
    text = Text()
    text.append(f"bag: {plural(obs['bag'], 'good')} left", style="bold")
    text.append(" · ")
    text.append(f"{obs['coin_reserve']} {COIN}", style="bold yellow")
    text.append(" coins in reserve")
    hidden = removed.get("unseen", 0)
    if hidden:
        text.append(f" · {hidden} goods removed unseen")
    openly = sum(removed.get("openly", {}).values())
    if openly:
        text.append(f" · {openly} removed openly")
    return text


def render(obs: dict[str, Any], viewer: int | None = None) -> RenderableType:
    """The whole table as one panel: the market with its buyers, then goods, sides and turn."""
    teams = obs.get("teams") or []
    info = Table.grid(padding=(0, 3))
    info.add_column()
    info.add_column()
    info.add_row(goods_table(obs), players_table(obs, viewer))
    parts: list[RenderableType] = [market_grid(obs), Text(""), info, reserve_text(obs)]
    if any(len(team) > 1 for team in teams):
        parts.append(Text("teams: " + " vs ".join(
            "+".join(side_of(obs, s) for s in team) for team in teams), style="dim"))
    parts.append(turn_text(obs, viewer))
    parts.append(Text(f"{COIN} coin  {NO_COIN} no coin  {HOLE_FILL} hole  "
                      f"{MOVER} to move", style="dim"))
    title = f"Aztec Market · {len(obs['players'])} players · {obs['phase']}"
    return Panel(Group(*parts), title=title, title_align="left", expand=False)
