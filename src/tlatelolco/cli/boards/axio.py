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

from tlatelolco.cli.boards.common import result_word

CHANCE_LABEL = "tiles"
COLOURS = ("red", "green", "blue", "orange", "purple")
LETTERS = {"red": "R", "green": "G", "blue": "B", "orange": "O", "purple": "P"}
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

def letter(colour: str | None) -> Text:
    """'R' in red, ... ; a dim '·' for an empty corner."""
    if colour is None:
        return Text(EMPTY_MARK, style="dim")
    return Text(LETTERS.get(colour, colour[:1].upper()), style=STYLES.get(colour, "bold"))


def colour_word(colour: str | None) -> Text:
    if colour is None:
        return Text(f"{EMPTY_MARK} empty", style="dim")
    return Text(colour, style=STYLES.get(colour, "bold"))


def turned(corners: list[str | None], degrees: int) -> list[str | None]:
    """The corners (clockwise from the top-left) after turning the tile clockwise."""
    r = (degrees // 90) % 4
    return corners[-r:] + corners[:-r] if r else list(corners)


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def seat_text(seat: int, viewer: int | None) -> str:
    return f"seat {seat} (you)" if seat == viewer else f"seat {seat}"


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


def display_grid(obs: dict[str, Any], width: int = WIDTH) -> tuple[Text, list[str]]:
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
        notes.append(f"the display is cropped: x {x0}..{x1} of {min(xs)}..{max(xs)}, "
                     f"y {y0}..{y1} of {min(ys)}..{max(ys)} shown")

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
                                          half, inner))
            row.append("│" if vertical(x1 + 1, y) else " ",
                       style="" if near_tile((x1, y), (x1 + 1, y)) else "dim")
            lines.append(row)
    for line in lines:
        line.rstrip()
    grid = Text("\n").join(lines)
    grid.no_wrap, grid.overflow = True, "crop"
    return grid, notes


def cell_half(cell: Cell, tiles: dict[Cell, list[str | None]], free: set[Cell], half: int,
              inner: int) -> Text:
    """One line inside a cell: a tile's top (half 0) or bottom corners, a free cell, or blank."""
    corners = tiles.get(cell)
    if corners is None:
        if cell in free:
            return Text(f" {FREE_MARK * (inner - 2)} ", style="dim")
        return Text(" " * inner)
    left, right = (corners[0], corners[1]) if half == 0 else (corners[3], corners[2])
    out = letter(left)
    out.append(" " * (inner - 2))
    out.append_text(letter(right))
    return out


# --- the hand -----------------------------------------------------------------------------------

def hand_block(obs: dict[str, Any], viewer: int | None) -> RenderableType | None:
    """The viewer's hand tile, large, and in each of its four rotations (the notation's rot)."""
    hand = obs.get("hand")
    whose = "Your" if viewer is not None else "The observing seat's"
    if hand is None:
        if viewer is None or obs.get("terminal"):
            return None
        return Text("You hold no tile now.", style="dim")
    corners: list[str | None] = list(hand["corners"])
    tl, tr, br, bl = corners
    big = [Text("┌" + "─" * BIG + "┐")]
    for left, right, middle in ((tl, tr, ""), (None, None, f"tile {hand['tile']}"),
                                (bl, br, "")):
        line = Text("│ ")
        if middle:
            line.append(middle.center(BIG - 2), style="dim")
        else:
            line.append_text(colour_word(left))
            gap = BIG - 2 - len(colour_word(left)) - len(colour_word(right))
            line.append(" " * gap)
            line.append_text(colour_word(right))
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
            small[2 + i].append_text(letter(left))
            small[2 + i].append(" ")
            small[2 + i].append_text(letter(right))
            small[2 + i].append("│    ")
        small[4].append("└───┘    ")
    body = Text("\n").join(
        [Text.assemble(b, "   ", s) for b, s in zip(big, small, strict=True)])
    body.rstrip()
    title = Text(f"{whose} hand tile, tile {hand['tile']} (rot 0 as drawn; turned clockwise "
                 "by rot)", style="bold")
    if None not in corners:
        return Group(title, body)
    hint = Text(f"It has an empty corner ({EMPTY_MARK}): name a colour for it when you place "
                "it, e.g. empty=blue.", style="dim")
    return Group(title, body, hint)


# --- the score boards ---------------------------------------------------------------------------

def score_table(obs: dict[str, Any], viewer: int | None) -> Table:
    """Each seat's five tracks; the lowest colour, the seat's result, is [bracketed] (AX-5)."""
    terminal = bool(obs.get("terminal"))
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, header_style="bold",
                  padding=0, pad_edge=False)
    table.add_column("seat", no_wrap=True)
    for colour in COLOURS:
        table.add_column(Text(colour, style=STYLES[colour]), justify="right", no_wrap=True)
    table.add_column("lowest", justify="right")
    table.add_column("AXIO!", justify="right")
    table.add_column("stack", justify="right")
    table.add_column("placed", justify="right")
    if terminal:
        table.add_column("result")
    else:
        table.add_column("hand")
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
            name.append(" you", style="bold")
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
            row.append(result_word(returns[seat]) if seat < len(returns) else "")
        elif seat < len(holding) and holding[seat]:
            row.append("yours" if seat == viewer else "yes")
        else:
            row.append(Text("—", style="dim"))
        table.add_row(*row)
    return table


# --- the lines under it -------------------------------------------------------------------------

def turn_text(obs: dict[str, Any], viewer: int | None) -> Text:
    if obs.get("terminal"):
        return result_text(obs, viewer)
    text = Text()
    mover = obs.get("to_move", -1)
    turn_of = int(obs.get("turn_of", 0))
    if mover >= 0:
        text.append(f"{MOVER} {seat_text(mover, viewer)} to place a tile", style="bold")
        if obs.get("extra_turn"):
            text.append("\nAXIO! extra turn with a tile from the general supply",
                        style="bold yellow")
    elif len(obs.get("display", [])) < len(START_CELLS):
        text.append(f"{CHANCE_LABEL}: laying out the start square "
                    f"({len(obs.get('display', []))} of {len(START_CELLS)} tiles)",
                    style="italic")
    else:
        text.append(f"{CHANCE_LABEL}: a tile is drawn for {seat_text(turn_of, viewer)}",
                    style="italic")
    pending = int(obs.get("extra_turns_pending", 0))
    if pending:
        text.append(f"\n{seat_text(turn_of, viewer)}: {plural(pending, 'extra turn')} pending "
                    "(before the draw from the own stack)", style="yellow")
    return text


def result_text(obs: dict[str, Any], viewer: int | None) -> Text:
    """'Game over: seat 1 wins with 3 in the lowest colour' (ties: see the score boards)."""
    scores = obs.get("scores", [])
    returns = obs.get("returns") or []
    lows = [min(int(board.get(c, 0)) for c in COLOURS) for board in scores]
    text = Text("Game over: ", style="bold")
    if len(scores) == 1:
        text.append(f"solo game, {seat_text(0, viewer)} ends with {lows[0]} in the lowest "
                    "colour", style="bold green")
        return text
    best = max(returns) if returns else 0
    won = [s for s, r in enumerate(returns) if r == best and r > 0]
    if len(won) == 1:
        text.append(f"{seat_text(won[0], viewer)} wins with {lows[won[0]]} in the lowest colour",
                    style="bold green")
    elif won:
        text.append("shared victory of " + " and ".join(seat_text(s, viewer) for s in won),
                    style="bold green")
        text.append(" (equal in all five colours)")
    else:
        text.append("nobody wins", style="bold")
    return text


def counts_text(obs: dict[str, Any]) -> Text:
    tiles = display_cells(obs)
    text = Text("x grows East (right), y grows North (up)\n", style="dim")
    text.append(f"general supply: {plural(int(obs.get('supply', 0)), 'tile')} face down",
                style="bold")
    text.append(f" · display: {plural(len(tiles), 'tile')}")
    free = free_cells(tiles)
    if free:
        text.append(f", {plural(len(free), 'free cell')} {FREE_MARK}")
    return text


def legend() -> Text:
    text = Text()
    for colour in COLOURS:
        text.append_text(letter(colour))
        text.append(f" {colour}  ", style="dim")
    text.append(f"{EMPTY_MARK} empty  {FREE_MARK} free cell  [n] lowest", style="dim")
    return text


def render(obs: dict[str, Any], viewer: int | None = None) -> RenderableType:
    """The whole table as one panel: the display, the hand, the score boards and the turn."""
    grid, notes = display_grid(obs)
    parts: list[RenderableType] = [grid]
    parts += [Text(note, style="dim italic") for note in notes]
    parts.append(counts_text(obs))
    hand = hand_block(obs, viewer)
    if hand is not None:
        parts += [Text(""), hand]
    parts += [Text(""), score_table(obs, viewer), turn_text(obs, viewer), legend()]
    n = len(obs.get("scores", []))
    players = "1 player (solo)" if n == 1 else f"{n} players"
    title = f"Axio · {players}" + (" · game over" if obs.get("terminal") else "")
    return Panel(Group(*parts), title=title, title_align="left", expand=False)
