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

from tlatelolco.cli.boards.common import Beside, Say, joined, result_word
from tlatelolco.i18n import DEFAULT_LANGUAGE, N_, N_n

CHANCE_LABEL = N_("bag")
COLOURS = ("black", "blue", "red", "green")
COLOUR_NAMES = {"black": N_("black"), "blue": N_("blue"), "red": N_("red"), "green": N_("green")}
SIDE_NAMES = {"South": N_("South"), "West": N_("West"), "North": N_("North"), "East": N_("East")}
# Goods as text (counts on buyers and in tables) and vendor tiles as coloured chips.
GOODS_STYLE = {"black": "bold white on grey23", "blue": "bold bright_blue", "red": "bold red",
               "green": "bold green"}
VENDOR_STYLE = {"black": "bold white on grey23", "blue": "bold white on blue",
                "red": "bold white on red", "green": "bold black on green"}
# The grey tiles: (label, what it does to a purchase through it, style).
TILES = {
    "crowd": (N_("CROWD"), N_("blocks"), "bold"),
    "porter": (N_("porter"), N_("returns 1"), "cyan"),
    "governor": (N_("governor"), N_("1 to king"), "cyan"),
    "ambassador": (N_("ambassador"), N_("keeps coin"), "cyan"),
    "errand boy": (N_("errand boy"), N_("moves free"), "cyan"),
}
# what a square says when the words above do not fit in it (only ever in a translation)
SHORT_EFFECTS = {N_("moves free"): N_("free")}
KING_STYLE = "bold black on yellow"
COIN, NO_COIN, MOVER = "●", "○", "▶"
HOLE_FILL = "░"
COLUMNS, ROWS = "ABCD", "1234"
CELL = 11  # characters inside a square
SIDE_BLOCK = 9  # characters for a West or East buyer ("20 black")
PHASES = {
    "build": N_("building the market"),
    "random build": N_("set-up: a random market"),
    "start coin": N_("set-up: a starting coin on a buyer"),
    "choose": N_("choose PASS or PLAY"),
    "restock": N_("PASS: restocking the vendors"),
    "pass moves": N_("PASS: moving the market"),
    "pass coin": N_("PASS: taking a coin"),
    "pass king": N_("PASS: the king may buy"),
    "play": N_("PLAY: market moves and purchases"),
    "over": N_("game over"),
}
# the phase as the title names it (the observation's own word)
PHASE_WORDS = {
    "build": N_("build"), "random build": N_("random build"), "start coin": N_("start coin"),
    "choose": N_("choose"), "restock": N_("restock"), "pass moves": N_("pass moves"),
    "pass coin": N_("pass coin"), "pass king": N_("pass king"), "play": N_("play"),
    "over": N_("over"),
}


# --- small pieces -------------------------------------------------------------------------------

def fit(text: Text | str, width: int, justify: AlignMethod = "center") -> Text:
    """`text` padded (or cut) to exactly `width` cells; its style stays on its own characters
    (a Text's base style would otherwise run on into whatever is appended to it)."""
    out = Text()
    out.append_text(Text(text) if isinstance(text, str) else text)
    out.truncate(width, overflow="ellipsis")  # only a long translation is ever cut
    out.align(justify, width)
    return out


def goods_text(count: int, colour: str | None, say: Say) -> Text:
    """'12 red' in red; a dim dash for nothing."""
    if not count or colour is None:
        return Text("—", style="dim")
    return Text(f"{count} {say.word(COLOUR_NAMES.get(colour, colour))}",
                style=GOODS_STYLE.get(colour, "bold"))


def side_of(obs: dict[str, Any], seat: int) -> str:
    """The seat's side as the observation names it (the key of its buyers)."""
    for player in obs["players"]:
        if player["seat"] == seat:
            return str(player["side"])
    return f"seat {seat}"


def side_name(obs: dict[str, Any], seat: int, say: Say) -> str:
    """The seat's side for the reader: 'South', 'Sur'."""
    side = side_of(obs, seat)
    if side.startswith("seat "):
        return say(N_("seat {seat}"), seat=seat)
    return say.word(SIDE_NAMES.get(side, side))


def who(obs: dict[str, Any], seat: int, viewer: int | None, say: Say) -> str:
    """'South (seat 0, you)'."""
    message = N_("{side} (seat {seat}, you)") if seat == viewer else N_("{side} (seat {seat})")
    return say(message, side=side_name(obs, seat, say), seat=seat)


# --- the market ---------------------------------------------------------------------------------

def square_lines(obs: dict[str, Any], square: str, say: Say) -> tuple[Text, Text]:
    """The two lines inside a square: the tile and its goods or what it does."""
    tile = obs["market"].get(square)
    if tile is None:
        if obs.get("hole") == square:
            fill = HOLE_FILL * CELL
            word = " " + say(N_("HOLE")) + " "
            left = (CELL - len(word) + 1) // 2
            hole = Text(HOLE_FILL * left + word + HOLE_FILL * (CELL - len(word) - left),
                        style="bold")
            return fit(hole, CELL), Text(fill, style="dim")
        return fit(Text("·", style="dim"), CELL), fit("", CELL)
    if tile.endswith(" vendor"):
        colour = tile.removesuffix(" vendor")
        count = obs["vendors"].get(colour, 0)
        name = say.word(COLOUR_NAMES.get(colour, colour)).upper()
        chip = Text(f" {name} {count} ", style=VENDOR_STYLE.get(colour, "bold"))
        return fit(chip, CELL), fit(Text(say(N_("vendor")), style="dim"), CELL)
    if tile == "king":
        total = sum(obs["king"].values())
        # the unit on its own: Spanish calls them fichas here, as "mercancías" would not fit
        goods = str(total) + " " + say.n(N_n("good", "goods"), total)
        return (fit(Text(" " + say(N_("KING")) + " ", style=KING_STYLE), CELL),
                fit(Text(goods, style="yellow"), CELL))
    label, effect, style = TILES.get(tile, (tile, "", "bold"))
    words = say.word(effect) if effect else ""
    if len(words) > CELL and effect in SHORT_EFFECTS:
        words = say.word(SHORT_EFFECTS[effect])
    return fit(Text(say.word(label), style=style), CELL), fit(Text(words, style="dim"), CELL)


def buyer_lines(buyer: dict[str, Any] | None, bold: bool, say: Say) -> tuple[Text, Text]:
    """'S2 ●' and '12 red': the buyer's name, its coin and its goods (blank if nobody sits)."""
    if buyer is None:
        return Text(""), Text("")
    name = Text()
    name.append(buyer["name"], style="bold" if bold else "")
    name.append(" ")
    name.append(COIN if buyer["coin"] else NO_COIN,
                style="bold yellow" if buyer["coin"] else "dim")
    return name, goods_text(buyer["goods"], buyer["colour"], say)


def market_grid(obs: dict[str, Any], say: Say) -> Text:
    """The grid with column letters, row numbers and the buyers of the seated sides."""
    buyers: dict[str, list[dict[str, Any]]] = {p["side"]: p["buyers"] for p in obs["players"]}
    mover = side_of(obs, obs["to_move"]) if obs["to_move"] >= 0 else None

    def side_buyer(side: str, k: int) -> tuple[Text, Text]:
        row = buyers.get(side)
        return buyer_lines(row[k] if row and k < len(row) else None, side == mover, say)

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
        name = say.word(SIDE_NAMES.get(side, side))
        return Text(f"{MOVER} {name}" if side == mover else name,
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
        squares = [square_lines(obs, COLUMNS[c] + ROWS[r], say) for c in range(4)]
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

def goods_table(obs: dict[str, Any], say: Say) -> Table:
    """Where the goods are, by colour: on the vendors, on the king, still unseen."""
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, header_style="bold", padding=(0, 1),
                  collapse_padding=True, pad_edge=False)
    table.add_column(say(N_("goods")), style="dim")
    for colour in COLOURS:
        table.add_column(Text(say.word(COLOUR_NAMES[colour]), style=GOODS_STYLE[colour]),
                         justify="right")
    table.add_row(say(N_("vendors")), *(str(obs["vendors"].get(c, 0)) for c in COLOURS))
    table.add_row(Text(say(N_("king")), style="bold yellow"),
                  *(Text(str(obs["king"].get(c, 0)), style="bold yellow") for c in COLOURS))
    table.add_row(say(N_("unseen")), *(str(obs["unseen"].get(c, 0)) for c in COLOURS))
    openly = obs.get("removed", {}).get("openly", {})
    if any(openly.values()):
        table.add_row(say(N_("removed")), *(str(openly.get(c, 0)) for c in COLOURS))
    return table


def players_table(obs: dict[str, Any], viewer: int | None, say: Say) -> Table:
    """The sides with their coins and scores (and, at the end, the result)."""
    terminal = bool(obs.get("terminal"))
    team_play = any(len(team) > 1 for team in obs.get("teams", []))
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, header_style="bold", padding=(0, 1),
                  collapse_padding=True, pad_edge=False)
    table.add_column(say(N_("side")), no_wrap=True)
    if team_play:
        table.add_column(say(N_("team")))
    table.add_column(say(N_("coins")), justify="right")
    table.add_column(say(N_("score")), justify="right")
    if terminal:
        table.add_column(say(N_("result")))
    team_of = {seat: "+".join(side_name(obs, s, say)[0] for s in team)
               for team in obs.get("teams", []) for seat in team}
    returns = obs.get("returns") or []
    scores = obs.get("scores") or []
    for player in obs["players"]:
        seat = player["seat"]
        name = Text(f"{MOVER if seat == obs['to_move'] else ' '} "
                    f"{side_name(obs, seat, say)} {seat}",
                    style="bold" if seat == obs["to_move"] else "")
        if seat == viewer:
            name.append(" " + say(N_("you")), style="bold")
        row: list[Text | str] = [name]
        if team_play:
            row.append(team_of.get(seat, ""))
        row.append(str(sum(1 for b in player["buyers"] if b["coin"])))
        row.append(f"{scores[seat]:g}" if seat < len(scores) else "?")
        if terminal:
            row.append(result_word(returns[seat], say) if seat < len(returns) else "")
        table.add_row(*row)
    return table


def turn_text(obs: dict[str, Any], viewer: int | None, say: Say) -> Text:
    """Whose turn it is, the phase and, on a second line, how far the turn has got."""
    if obs.get("terminal"):
        return result_text(obs, say)
    phase = obs["phase"]
    turn = obs.get("turn", {})
    text = Text()
    if obs["to_move"] >= 0:
        text.append(MOVER + " " + say(N_("{name} to move"),
                                      name=who(obs, obs["to_move"], viewer, say)), style="bold")
    elif phase == "restock":
        text.append(say.n(N_n("bag: {n} good still to draw", "bag: {n} goods still to draw"),
                          turn.get("goods_to_draw", 0)), style="italic")
    else:
        text.append(say(N_("bag: the next tile is drawn")), style="italic")
    text.append(" · ")
    text.append(say.word(PHASES[phase]) if phase in PHASES else phase)
    if phase == "build":
        placed = sum(1 for tile in obs["market"].values() if tile is not None)
        text.append(": " + say(N_("{placed} of {total} tiles placed"), placed=placed,
                               total=len(obs["market"]) - 1))
    notes = []
    if phase == "pass moves":
        notes.append(say.n(N_n("{n} market move owed", "{n} market moves owed"),
                           turn.get("market_moves_owed", 0)))
    if phase == "play":
        notes.append(say(N_("purchase made, may end the turn")) if turn.get("bought")
                     else say(N_("no purchase yet, one is due")))
        if turn.get("errand_boy_just_moved"):
            notes.append(say(N_("errand boy just moved")))
    if notes:
        text.append("\n" + say(N_("this turn: {notes}"), notes="; ".join(notes)))
    return text


def team_name(obs: dict[str, Any], team: list[int], say: Say) -> str:
    return "+".join(side_name(obs, s, say) for s in team)


def result_text(obs: dict[str, Any], say: Say) -> Text:
    """'Game over: South+North win · South+North 91, West+East 15'."""
    returns = obs.get("returns") or []
    scores = obs.get("scores") or []
    teams = obs.get("teams") or [[p["seat"]] for p in obs["players"]]
    names = [team_name(obs, team, say) for team in teams]
    totals = [scores[team[0]] if team and team[0] < len(scores) else 0 for team in teams]
    best = max(returns) if returns else 0
    won = [i for i, team in enumerate(teams)
           if team and team[0] < len(returns) and returns[team[0]] == best and best > 0]
    if len(won) == 1:
        verb = N_("{sides} win") if len(teams[won[0]]) > 1 else N_("{side} wins")
        result = Text(say(verb, sides=names[won[0]], side=names[won[0]]), style="bold green")
    elif won:
        result = Text(say(N_("shared victory of {names}"),
                          names=joined(say, [names[i] for i in won])), style="bold green")
    else:
        result = Text(say(N_("nobody wins")), style="bold")
    text = say.text(N_("Game over: {result}"), "bold", result=result)
    text.append(" · " + ", ".join(f"{n} {t:g}" for n, t in zip(names, totals, strict=False)))
    return text


def reserve_text(obs: dict[str, Any], say: Say) -> Text:
    removed = obs.get("removed", {})
    text = Text()
    text.append(say.n(N_n("bag: {n} good left", "bag: {n} goods left"), obs["bag"]),
                style="bold")
    text.append(" · ")
    text.append_text(say.text(N_("{coins} coins in reserve"),
                              coins=Text(f"{obs['coin_reserve']} {COIN}", style="bold yellow")))
    hidden = removed.get("unseen", 0)
    if hidden:
        text.append(" · " + say(N_("{n} goods removed unseen"), n=hidden))
    openly = sum(removed.get("openly", {}).values())
    if openly:
        text.append(" · " + say(N_("{n} removed openly"), n=openly))
    return text


def legend(say: Say) -> Text:
    words = ((COIN, N_("coin")), (NO_COIN, N_("no coin")), (HOLE_FILL, N_("hole")),
             (MOVER, N_("to move")))
    return Text("  ".join(f"{mark} {say.word(word)}" for mark, word in words), style="dim")


def render(obs: dict[str, Any], viewer: int | None = None,
           lang: str = DEFAULT_LANGUAGE) -> RenderableType:
    """The whole table as one panel: the market with its buyers, then goods, sides and turn."""
    say = Say(lang)
    teams = obs.get("teams") or []
    info = Beside(goods_table(obs, say), players_table(obs, viewer, say))
    parts: list[RenderableType] = [market_grid(obs, say), Text(""), info,
                                   reserve_text(obs, say)]
    if any(len(team) > 1 for team in teams):
        sides = [team_name(obs, team, say) for team in teams]
        versus = sides[0]
        for side in sides[1:]:
            versus = say(N_("{a} vs {b}"), a=versus, b=side)
        parts.append(Text(say(N_("teams: {teams}"), teams=versus), style="dim"))
    parts.append(turn_text(obs, viewer, say))
    parts.append(legend(say))
    phase = say.word(PHASE_WORDS[obs["phase"]]) if obs["phase"] in PHASE_WORDS else obs["phase"]
    title = " · ".join((say.word(N_("Aztec Market")),
                        say.n(N_n("{n} player", "{n} players"), len(obs["players"])), phase))
    return Panel(Group(*parts), title=title, title_align="left", expand=False)
