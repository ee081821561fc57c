"""Axio in the terminal, drawn only from `AxioState.observation`.

The display is a grid of tiles with x growing East (left to right) and y growing North (bottom to
top), as the engine numbers the cells. Each tile shows its four quadrants in its four corners as
coloured letters (R G B O P, "·" for an empty corner), so the four quadrants of a circle sit
around the grid point where the tiles meet, and the board still reads without colour. Free cells
(edge-adjacent to the display, where a tile may go) are shaded. Below come the viewer's hand tile,
drawn large and in its four rotations, and every seat's five colour tracks.
"""

from __future__ import annotations

from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from tlatelolco.cli.boards.common import Say, flow, joined, result_word
from tlatelolco.i18n import DEFAULT_LANGUAGE, N_, N_n

CHANCE_LABEL = N_("tiles")
COLOURS = ("red", "green", "blue", "orange", "purple")
COLOUR_NAMES = {"red": N_("red"), "green": N_("green"), "blue": N_("blue"),
                "orange": N_("orange"), "purple": N_("purple")}
# a colour's letter is its name's initial in the reader's language (English: R G B O P)
STYLES = {"red": "bold red", "green": "bold green", "blue": "bold bright_blue",
          "orange": "bold dark_orange", "purple": "bold magenta"}
EMPTY_MARK, FREE_MARK, MOVER = "·", "░", "▶"
TRACK_TOP = 12  # AX-1: a colour track runs 0..12
STACK = 12
START_CELLS = ((0, 0), (1, 0), (0, 1), (1, 1))
WIDTH = 76  # what an 80-column terminal leaves inside the panel
WIDE, COMPACT = 5, 3  # characters inside a cell: "R   G" or "R G"
MAX_ROWS = 14  # rows of cells drawn before the display is cropped top and bottom
BIG = 20  # characters inside the large hand tile

# Box-drawing junctions by the arms they have: (up, down, left, right).
JUNCTIONS = {
    (False, False, False, False): " ",
    (True, True, True, True): "┼",
    (False, True, False, True): "┌", (False, True, True, False): "┐",
    (True, False, False, True): "└", (True, False, True, False): "┘",
    (True, True, False, True): "├", (True, True, True, False): "┤",
    (False, True, True, True): "┬", (True, False, True, True): "┴",
    (True, True, False, False): "│", (False, False, True, True): "─",
    (True, False, False, False): "╵", (False, True, False, False): "╷",
    (False, False, True, False): "╴", (False, False, False, True): "╶",
}

Cell = tuple[int, int]


# --- small pieces -------------------------------------------------------------------------------

def letter(colour: str | None, say: Say) -> Text:
    """'R' in red, ... ; a dim '·' for an empty corner."""
    if colour is None:
        return Text(EMPTY_MARK, style="dim")
    return Text(colour_name(colour, say)[:1].upper(), style=STYLES.get(colour, "bold"))


def colour_name(colour: str, say: Say) -> str:
    return say.word(COLOUR_NAMES.get(colour, colour))


def colour_word(colour: str | None, say: Say) -> Text:
    if colour is None:
        return Text(EMPTY_MARK + " " + say(N_("empty")), style="dim")
    return Text(colour_name(colour, say), style=STYLES.get(colour, "bold"))


def turned(corners: list[str | None], degrees: int) -> list[str | None]:
    """The corners (clockwise from the top-left) after turning the tile clockwise."""
    r = (degrees // 90) % 4
    return corners[-r:] + corners[:-r] if r else list(corners)


def seat_text(seat: int, viewer: int | None, say: Say) -> str:
    return say(N_("seat {seat} (you)") if seat == viewer else N_("seat {seat}"), seat=seat)


def window(low: int, high: int, size: int, centre: float) -> tuple[int, int]:
    """At most `size` consecutive values of low..high, centred on `centre` where possible."""
    if high - low + 1 <= size:
        return low, high
    start = round(centre - (size - 1) / 2)
    start = max(low, min(start, high - size + 1))
    return start, start + size - 1


# --- the display --------------------------------------------------------------------------------

def display_cells(obs: dict[str, Any]) -> dict[Cell, list[str | None]]:
    return {(int(t["x"]), int(t["y"])): list(t["corners"]) for t in obs.get("display", [])}


def free_cells(tiles: dict[Cell, Any]) -> set[Cell]:
    """Cells edge-adjacent to the display (AX-3), once the start square is complete."""
    if len(tiles) < len(START_CELLS):
        return set()
    return {(x + dx, y + dy) for x, y in tiles for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
            } - set(tiles)


def display_grid(obs: dict[str, Any], say: Say, width: int = WIDTH) -> tuple[Text, list[str]]:
    """The display as a grid of tiles with coordinates, and notes on what is not shown."""
    tiles = display_cells(obs)
    free = free_cells(tiles)
    drawn = set(tiles) | free
    if len(tiles) < len(START_CELLS):
        drawn |= set(START_CELLS)  # the start square is being laid out: show where it goes
    xs = [x for x, _ in drawn]
    ys = [y for _, y in drawn]
    label = max(len(str(y)) for y in ys)
    inner = WIDE
    columns = (width - label - 2) // (inner + 1)
    if columns < max(xs) - min(xs) + 1:
        inner = COMPACT
        columns = (width - label - 2) // (inner + 1)
    centre_x = (min(x for x, _ in tiles) + max(x for x, _ in tiles)) / 2 if tiles else 0.5
    centre_y = (min(y for _, y in tiles) + max(y for _, y in tiles)) / 2 if tiles else 0.5
    x0, x1 = window(min(xs), max(xs), columns, centre_x)
    y0, y1 = window(min(ys), max(ys), MAX_ROWS, centre_y)
    notes = []
    if (x0, x1) != (min(xs), max(xs)) or (y0, y1) != (min(ys), max(ys)):
        notes.append(say(N_("the display is cropped: x {x0}..{x1} of {x_min}..{x_max}, "
                            "y {y0}..{y1} of {y_min}..{y_max} shown"),
                         x0=x0, x1=x1, x_min=min(xs), x_max=max(xs),
                         y0=y0, y1=y1, y_min=min(ys), y_max=max(ys)))

    def shown(cell: Cell) -> bool:
        return cell in drawn and x0 <= cell[0] <= x1 and y0 <= cell[1] <= y1

    def near_tile(*cells: Cell) -> bool:
        return any(c in tiles for c in cells)

    def vertical(v: int, y: int) -> bool:  # the line at x = v beside row y
        return shown((v - 1, y)) or shown((v, y))

    def horizontal(h: int, x: int) -> bool:  # the line at y = h above cell (x, h - 1)
        return shown((x, h)) or shown((x, h - 1))

    pad = " " * (label + 1)
    lines: list[Text] = []
    heading = Text(pad)
    for x in range(x0, x1 + 1):
        heading.append(" ")
        heading.append(str(x).center(inner), style="bold")
    lines.append(heading)
    for h in range(y1 + 1, y0 - 1, -1):  # the border above each row, and the bottom border
        border = Text(pad)
        for v in range(x0, x1 + 2):
            arms = (y0 <= h <= y1 and vertical(v, h), y0 <= h - 1 <= y1 and vertical(v, h - 1),
                    v - 1 >= x0 and horizontal(h, v - 1), v <= x1 and horizontal(h, v))
            solid = near_tile((v - 1, h), (v, h), (v - 1, h - 1), (v, h - 1))
            border.append(JUNCTIONS[arms], style="" if solid else "dim")
            if v <= x1:
                edge = horizontal(h, v)
                border.append(("─" if edge else " ") * inner,
                              style="" if near_tile((v, h), (v, h - 1)) else "dim")
        lines.append(border)
        y = h - 1
        if y < y0:
            break
        for half in (0, 1):  # the top corners of the row's tiles, then the bottom corners
            row = Text(str(y).rjust(label) if half == 0 else " " * label, style="bold")
            row.append(" ")
            for x in range(x0, x1 + 1):
                edge = vertical(x, y)
                row.append("│" if edge else " ",
                           style="" if near_tile((x - 1, y), (x, y)) else "dim")
                row.append_text(cell_half((x, y), tiles, free if shown((x, y)) else set(),
                                          half, inner, say))
            row.append("│" if vertical(x1 + 1, y) else " ",
                       style="" if near_tile((x1, y), (x1 + 1, y)) else "dim")
            lines.append(row)
    for line in lines:
        line.rstrip()
    grid = Text("\n").join(lines)
    grid.no_wrap, grid.overflow = True, "crop"
    return grid, notes


def cell_half(cell: Cell, tiles: dict[Cell, list[str | None]], free: set[Cell], half: int,
              inner: int, say: Say) -> Text:
    """One line inside a cell: a tile's top (half 0) or bottom corners, a free cell, or blank."""
    corners = tiles.get(cell)
    if corners is None:
        if cell in free:
            return Text(f" {FREE_MARK * (inner - 2)} ", style="dim")
        return Text(" " * inner)
    left, right = (corners[0], corners[1]) if half == 0 else (corners[3], corners[2])
    out = letter(left, say)
    out.append(" " * (inner - 2))
    out.append_text(letter(right, say))
    return out


# --- the hand -----------------------------------------------------------------------------------

def hand_block(obs: dict[str, Any], viewer: int | None, say: Say) -> RenderableType | None:
    """The viewer's hand tile, large, and in each of its four rotations (the notation's rot)."""
    hand = obs.get("hand")
    if hand is None:
        if viewer is None or obs.get("terminal"):
            return None
        return Text(say(N_("You hold no tile now.")), style="dim")
    corners: list[str | None] = list(hand["corners"])
    tl, tr, br, bl = corners
    big = [Text("┌" + "─" * BIG + "┐")]
    for left, right, middle in ((tl, tr, ""), (None, None, say(N_("tile {tile}"),
                                                               tile=hand["tile"])),
                                (bl, br, "")):
        line = Text("│ ")
        if middle:
            line.append(middle.center(BIG - 2), style="dim")
        else:
            line.append_text(colour_word(left, say))
            gap = BIG - 2 - len(colour_word(left, say)) - len(colour_word(right, say))
            line.append(" " * gap)
            line.append_text(colour_word(right, say))
        line.append(" │")
        big.append(line)
    big.append(Text("└" + "─" * BIG + "┘"))
    small = [Text(""), Text(""), Text(""), Text(""), Text("")]
    for degrees in (0, 90, 180, 270):
        t = turned(corners, degrees)
        small[0].append(f"rot {degrees}".ljust(9), style="bold")
        small[1].append("┌───┐    ")
        for i, (left, right) in enumerate(((t[0], t[1]), (t[3], t[2]))):
            small[2 + i].append("│")
            small[2 + i].append_text(letter(left, say))
            small[2 + i].append(" ")
            small[2 + i].append_text(letter(right, say))
            small[2 + i].append("│    ")
        small[4].append("└───┘    ")
    body = Text("\n").join(
        [Text.assemble(b, "   ", s) for b, s in zip(big, small, strict=True)])
    body.rstrip()
    whose = (N_("Your hand tile, tile {tile} (rot 0 as drawn; turned clockwise by rot)")
             if viewer is not None else
             N_("The observing seat's hand tile, tile {tile} (rot 0 as drawn; turned clockwise "
                "by rot)"))
    title = Text(say(whose, tile=hand["tile"]), style="bold")
    if None not in corners:
        return Group(title, body)
    hint = Text(say(N_("It has an empty corner ({mark}): name a colour for it when you place "
                       "it, e.g. empty=blue."), mark=EMPTY_MARK), style="dim")
    return Group(title, body, hint)


# --- the score boards ---------------------------------------------------------------------------

def score_table(obs: dict[str, Any], viewer: int | None, say: Say) -> Table:
    """Each seat's five tracks; the lowest colour, the seat's result, is [bracketed] (AX-5)."""
    terminal = bool(obs.get("terminal"))
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, header_style="bold",
                  padding=0, pad_edge=False)
    table.add_column(say(N_("seat")), no_wrap=True)
    for colour in COLOURS:
        table.add_column(Text(colour_name(colour, say), style=STYLES[colour]), justify="right",
                         no_wrap=True)
    table.add_column(say(N_("lowest")), justify="right")
    table.add_column(say(N_("AXIO!")), justify="right")
    table.add_column(say(N_("stack")), justify="right")
    table.add_column(say(N_("placed")), justify="right")
    if terminal:
        table.add_column(say(N_("result")))
    else:
        table.add_column(say(N_("hand")))
    returns = obs.get("returns") or []
    holding = obs.get("holding") or []
    stacks = obs.get("stacks") or []
    placed = obs.get("placed_from_stack") or []
    mover = obs.get("to_move", -1)
    for seat, board in enumerate(obs.get("scores", [])):
        values = [int(board.get(c, 0)) for c in COLOURS]
        low = min(values)
        name = Text(f"{MOVER if seat == mover else ' '} {seat}",
                    style="bold" if seat == mover else "")
        if seat == viewer:
            name.append(" " + say(N_("you")), style="bold")
        row: list[Text | str] = [name]
        for value in values:
            if value == low:
                row.append(Text(f"[{value}]", style="bold yellow"))
            elif value >= TRACK_TOP:
                row.append(Text(str(value), style="bold green"))
            else:
                row.append(str(value))
        row.append(Text(str(low), style="bold"))
        row.append(str(sum(v >= TRACK_TOP for v in values)))
        row.append(str(stacks[seat]) if seat < len(stacks) else "?")
        row.append(f"{placed[seat]}/{STACK}" if seat < len(placed) else "?")
        if terminal:
            row.append(result_word(returns[seat], say) if seat < len(returns) else "")
        elif seat < len(holding) and holding[seat]:
            row.append(say(N_("yours")) if seat == viewer else say(N_("yes")))
        else:
            row.append(Text("—", style="dim"))
        table.add_row(*row)
    return table


# --- the lines under it -------------------------------------------------------------------------

def turn_text(obs: dict[str, Any], viewer: int | None, say: Say) -> Text:
    if obs.get("terminal"):
        return result_text(obs, viewer, say)
    text = Text()
    mover = obs.get("to_move", -1)
    turn_of = int(obs.get("turn_of", 0))
    if mover >= 0:
        text.append(MOVER + " " + say(N_("{seat} to place a tile"),
                                      seat=seat_text(mover, viewer, say)), style="bold")
        if obs.get("extra_turn"):
            text.append("\n" + say(N_("AXIO! extra turn with a tile from the general supply")),
                        style="bold yellow")
    elif len(obs.get("display", [])) < len(START_CELLS):
        text.append(say(N_("tiles: laying out the start square ({n} of {total} tiles)"),
                        n=len(obs.get("display", [])), total=len(START_CELLS)), style="italic")
    else:
        text.append(say(N_("tiles: a tile is drawn for {seat}"),
                        seat=seat_text(turn_of, viewer, say)), style="italic")
    pending = int(obs.get("extra_turns_pending", 0))
    if pending:
        text.append("\n" + say.n(N_n("{seat}: {n} extra turn pending (before the draw from the "
                                     "own stack)",
                                     "{seat}: {n} extra turns pending (before the draw from the "
                                     "own stack)"),
                                 pending, seat=seat_text(turn_of, viewer, say)), style="yellow")
    return text


def result_text(obs: dict[str, Any], viewer: int | None, say: Say) -> Text:
    """'Game over: seat 1 wins with 3 in the lowest colour' (ties: see the score boards)."""
    scores = obs.get("scores", [])
    returns = obs.get("returns") or []
    lows = [min(int(board.get(c, 0)) for c in COLOURS) for board in scores]
    best = max(returns) if returns else 0
    won = [s for s, r in enumerate(returns) if r == best and r > 0]
    if len(scores) == 1:
        result = Text(say(N_("solo game, {seat} ends with {low} in the lowest colour"),
                          seat=seat_text(0, viewer, say), low=lows[0]), style="bold green")
    elif len(won) == 1:
        result = Text(say(N_("{seat} wins with {low} in the lowest colour"),
                          seat=seat_text(won[0], viewer, say), low=lows[won[0]]),
                      style="bold green")
    elif won:
        result = Text(say(N_("shared victory of {names}"),
                          names=joined(say, [seat_text(s, viewer, say) for s in won])),
                      style="bold green")
        result.append(" " + say(N_("(equal in all five colours)")), style="bold")
    else:
        result = Text(say(N_("nobody wins")), style="bold")
    return say.text(N_("Game over: {result}"), "bold", result=result)


def counts_text(obs: dict[str, Any], say: Say) -> Text:
    tiles = display_cells(obs)
    supply = Text(say.n(N_n("general supply: {n} tile face down",
                            "general supply: {n} tiles face down"), int(obs.get("supply", 0))),
                  style="bold")
    display = Text(say.n(N_n("display: {n} tile", "display: {n} tiles"), len(tiles)))
    free = free_cells(tiles)
    if free:
        display.append(", " + say.n(N_n("{n} free cell", "{n} free cells"), len(free))
                       + f" {FREE_MARK}")
    text = Text(say(N_("x grows East (right), y grows North (up)")) + "\n", style="dim")
    text.append_text(flow([supply, display], WIDTH, " · "))
    return text


def legend(say: Say) -> Text:
    """What the letters and marks mean, on one line in English (two where words are longer)."""
    entries = [Text.assemble(letter(colour, say), (" " + colour_name(colour, say), "dim"))
               for colour in COLOURS]
    words = ((EMPTY_MARK, N_("empty")), (FREE_MARK, N_("free cell")), ("[n]", N_("lowest")))
    entries += [Text(mark + " " + say.word(word), style="dim") for mark, word in words]
    return flow(entries, WIDTH, style="dim")


def render(obs: dict[str, Any], viewer: int | None = None,
           lang: str = DEFAULT_LANGUAGE) -> RenderableType:
    """The whole table as one panel: the display, the hand, the score boards and the turn."""
    say = Say(lang)
    grid, notes = display_grid(obs, say)
    parts: list[RenderableType] = [grid]
    parts += [Text(note, style="dim italic") for note in notes]
    parts.append(counts_text(obs, say))
    hand = hand_block(obs, viewer, say)
    if hand is not None:
        parts += [Text(""), hand]
    parts += [Text(""), score_table(obs, viewer, say), turn_text(obs, viewer, say), legend(say)]
    n = len(obs.get("scores", []))
    players = say(N_("1 player (solo)")) if n == 1 else say.n(N_n("{n} player", "{n} players"),
                                                               n)
    title = "Axio · " + players + (" · " + say(N_("game over")) if obs.get("terminal") else "")
    return Panel(Group(*parts), title=title, title_align="left", expand=False)
