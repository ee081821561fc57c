"""Mexica in the terminal, drawn only from `MexicaState.observation`.

The island is drawn as the printed grid, 3 characters a square: column letters A-W (West to
East) above and below, row numbers 1-16 (North to South) on the left. Every piece has a glyph as
well as a colour, so the board reads without colour:

    ~  lake               ≈≈≈  canal            ═══ / ║  bridge (axis W-E / N-S)
    R3 building of seat R with 3 levels     (R)  seat R's Mexica (═R═ / ║R║ on a bridge)
    #8 calpulli tile of size 8              S / X  starting square / coat of arms
    ░  free land of a founded district      ·  free land of an unfounded area
    12 (italic) the size of an unfounded area, on one of its free squares

Areas are always bounded by water, so the canals and the lake are their outlines; founded
districts are also tinted. Beside the map (below it on a console narrower than 120 columns) come
the turn, the supplies, the seats and the calpulli tiles.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rich import box
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.measure import Measurement
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from tlatelolco.cli.boards.common import Say, flow
from tlatelolco.i18n import DEFAULT_LANGUAGE, N_, N_n

CHANCE_LABEL = N_("calpulli draw")
COLUMNS = "ABCDEFGHIJKLMNOPQRSTUVW"
WIDTH, HEIGHT = 23, 16
CELL = 3  # characters a square
LABEL = 2  # characters of a row number
SIDE_BY_SIDE = 120  # console width from which the panel goes beside the map
INFO_WIDTH = 42  # the side panel's width when it is beside the map
PART_ONE_TILES = 8
AP_PER_TURN = 6
TOKENS_PER_TURN = 2
START_BONUS = 5

# Seat colours as in the Axio board: a letter and a style for each.
SEAT_COLOURS = ("red", "blue", "green", "purple")
SEAT_LETTERS = "RBGP"
SEAT_STYLES = ("bold red", "bold bright_blue", "bold green", "bold magenta")
CHIP_STYLES = ("bold white on red", "bold white on blue", "bold black on green",
               "bold white on magenta")
LAKE_STYLE = "blue"
CANAL_STYLE = "bold bright_cyan"
BRIDGE_STYLE = "bold yellow"
TILE_STYLE = "bold black on bright_yellow"
ARMS_STYLE = "bold bright_yellow on red"
START_STYLE = "bold yellow"
DISTRICT_TINT = "on grey23"
SIZE_STYLE = "italic bright_white"
MATCH_STYLE = "italic bold green"  # an unfounded area whose size matches an available tile
MOVER = "▶"
LAKE, CANAL, LAND, DISTRICT = " ~ ", "≈≈≈", " · ", " ░ "
BRIDGES = {"W-E": "═", "N-S": "║"}
PHASES = {
    "drawing calpulli tiles": N_("set-up: drawing the part-1 calpulli tiles"),
    "placing the Mexica": N_("set-up: each seat places its Mexica on a starting square"),
    "playing": N_("playing"),
    "over": N_("game over"),
}

Square = tuple[int, int]  # (row, column), both from 0


# --- small pieces -------------------------------------------------------------------------------

def parse(name: str) -> Square:
    """'K5' -> (4, 10)."""
    return int(name[1:]) - 1, COLUMNS.index(name[0].upper())


def seat_letter(seat: int) -> str:
    return SEAT_LETTERS[seat] if 0 <= seat < len(SEAT_LETTERS) else str(seat)


def seat_style(seat: int) -> str:
    return SEAT_STYLES[seat] if 0 <= seat < len(SEAT_STYLES) else "bold"


def chip_style(seat: int) -> str:
    return CHIP_STYLES[seat] if 0 <= seat < len(CHIP_STYLES) else "reverse"


def seat_text(seat: int, viewer: int | None, say: Say) -> Text:
    """'seat 0 (you) R' with the letter in the seat's colour."""
    text = Text(say(N_("seat {seat} (you)") if seat == viewer else N_("seat {seat}"), seat=seat)
                + " ")
    text.append(seat_letter(seat), style=seat_style(seat))
    return text


def joined_text(say: Say, items: list[Text], style: str = "") -> Text:
    """'A and B and C' of styled pieces, in the reader's language."""
    text = items[0] if items else Text()
    for item in items[1:]:
        text = say.text(N_("{a} and {b}"), style, a=text, b=item)
    return text


def labelled(line: str) -> Text:
    """'districts: none yet' with its label, up to the first colon, in bold."""
    text = Text(line)
    head, colon, _ = line.partition(":")
    if colon:
        text.stylize("bold", 0, len(head) + 1)
    return text


def sizes_text(sizes: Iterable[int], highlight: set[int] | frozenset[int] = frozenset()) -> Text:
    """'3 4 7 13' (a dash for none), some sizes highlighted."""
    text = Text()
    for i, size in enumerate(sorted(sizes)):
        if i:
            text.append(" ")
        text.append(str(size), style="bold green" if size in highlight else "")
    return text if text.plain else Text("—", style="dim")


def counts(levels: list[int]) -> str:
    """Buildings by levels 1..4 as '3/3/2/1'."""
    return "/".join(str(n) for n in levels)


# --- the map ------------------------------------------------------------------------------------

class Pieces:
    """The observation's pieces by square, and which areas are founded."""

    def __init__(self, obs: dict[str, Any]) -> None:
        self.terrain: list[str] = list(obs.get("terrain") or [])
        self.canals = {parse(s) for s in obs.get("canals", [])}
        self.bridges = {parse(b["square"]): str(b["axis"]) for b in obs.get("bridges", [])}
        self.buildings = {parse(b["square"]): (int(b["owner"]), int(b["levels"]))
                          for b in obs.get("buildings", [])}
        self.tiles = {parse(t["square"]): int(t["size"]) for t in obs.get("calpulli", [])}
        self.mexica = {parse(s): seat for seat, s in enumerate(obs.get("mexica", [])) if s}
        self.areas: list[dict[str, Any]] = list(obs.get("areas", []))
        self.area_of: dict[Square, int] = {
            parse(s): i for i, area in enumerate(self.areas) for s in area["squares"]}
        self.founded = {i for i, area in enumerate(self.areas) if area.get("tile")}
        available = set((obs.get("tiles") or {}).get("available", []))
        self.matching = {i for i, area in enumerate(self.areas)
                         if i not in self.founded and area["size"] in available}
        self.labels: dict[Square, int] = {}
        for i in range(len(self.areas)):
            square = None if i in self.founded else self.label_square(i)
            if square is not None:
                self.labels[square] = i

    def terrain_at(self, square: Square) -> str:
        row, column = square
        if row < len(self.terrain) and column < len(self.terrain[row]):
            return self.terrain[row][column]
        return "~"

    def free(self, square: Square) -> bool:
        """Ordinary land with nothing on it: where an area's size is written."""
        return (self.terrain_at(square) in ".C" and square not in self.canals
                and square not in self.buildings and square not in self.tiles
                and square not in self.mexica)

    def piece(self, square: Square) -> bool:
        """A building, Mexica, calpulli tile or bridge: text a size beside it would run into."""
        return (square in self.buildings or square in self.mexica or square in self.tiles
                or square in self.bridges)

    def label_square(self, index: int) -> Square | None:
        """Where the area's size is written: a free square, with no piece beside it to the West
        or East if possible, nearest the middle of the area (the first in reading order on a
        tie); None if the area has no free square."""
        squares = [parse(s) for s in self.areas[index]["squares"]]
        free = [s for s in squares if self.free(s)]
        if not free:
            return None
        mid_row = sum(r for r, _ in squares) / len(squares)
        mid_column = sum(c for _, c in squares) / len(squares)

        def key(s: Square) -> tuple[bool, float, Square]:
            crowded = self.piece((s[0], s[1] - 1)) or self.piece((s[0], s[1] + 1))
            return crowded, (s[0] - mid_row) ** 2 + (s[1] - mid_column) ** 2, s

        return min(free, key=key)

    def cell(self, square: Square) -> Text:
        """One square, CELL characters wide."""
        area = self.area_of.get(square)
        tint = DISTRICT_TINT if area is not None and area in self.founded else ""
        seat = self.mexica.get(square)
        if square in self.bridges:
            deck = BRIDGES.get(self.bridges[square], "?")
            if seat is None:
                return Text(deck * 3 if deck == "═" else f" {deck} ", style=BRIDGE_STYLE)
            text = Text(deck, style=BRIDGE_STYLE)
            text.append(seat_letter(seat), style=seat_style(seat))
            text.append(deck, style=BRIDGE_STYLE)
            return text
        if square in self.canals:
            return Text(CANAL, style=CANAL_STYLE)
        terrain = self.terrain_at(square)
        if terrain == "~":
            return Text(LAKE, style=LAKE_STYLE)
        if seat is not None:
            text = Text("(", style=f"bold {tint}")
            text.append(seat_letter(seat), style=f"{seat_style(seat)} {tint}")
            text.append(")", style=f"bold {tint}")
            return text
        if square in self.buildings:
            owner, levels = self.buildings[square]
            text = Text(" ", style=tint)
            text.append(f"{seat_letter(owner)}{levels}", style=chip_style(owner))
            return text
        if square in self.tiles:
            return Text(f"#{self.tiles[square]}".center(CELL), style=TILE_STYLE)
        if terrain == "X":
            return Text(" X ", style=ARMS_STYLE)
        if terrain == "S":
            return Text(" S ", style=f"{START_STYLE} {tint}")
        if square in self.labels:
            index = self.labels[square]
            style = MATCH_STYLE if index in self.matching else SIZE_STYLE
            return Text(str(self.areas[index]["size"]).center(CELL), style=f"{style} {tint}")
        if tint:
            return Text(DISTRICT, style=f"dim {tint}")
        return Text(LAND, style="dim")


def island(obs: dict[str, Any]) -> Text:
    """The grid with column letters above and below and row numbers on the left."""
    pieces = Pieces(obs)
    letters = Text(" " * (LABEL + 1))
    for column in COLUMNS[:WIDTH]:
        letters.append(column.center(CELL), style="bold")
    lines = [letters]
    for row in range(HEIGHT):
        line = Text(str(row + 1).rjust(LABEL) + " ", style="bold")
        for column in range(WIDTH):
            line.append_text(pieces.cell((row, column)))
        lines.append(line)
    lines.append(letters.copy())
    for line in lines:
        line.rstrip()
    grid = Text("\n").join(lines)
    grid.no_wrap, grid.overflow = True, "crop"  # a narrow console loses the East edge, no more
    return grid


def legend(say: Say) -> Text:
    """What the glyphs mean, in as many lines of the map's width as the words need (three in
    English): a line breaks between entries, never inside one, and the area sizes come last on
    a line of their own."""
    entries = [
        Text.assemble(glyph, (" " + say.word(words), "dim")) for glyph, words in (
            (("~", LAKE_STYLE), N_("lake")), (("≈", CANAL_STYLE), N_("canal")),
            (("═ ║", BRIDGE_STYLE), N_("bridge W-E, N-S")),
            (("R3", chip_style(0)), N_("building, levels")), (("(R)", seat_style(0)), N_("Mexica")),
            (("#8", TILE_STYLE), N_("calpulli tile")), (("S", START_STYLE), N_("starting square")),
            (("X", ARMS_STYLE), N_("coat of arms")), (("░", "dim"), N_("founded district")))]
    sizes = Text.assemble(
        ("12", SIZE_STYLE), (" " + say(N_("size of an unfounded area")) + " (", "dim"),
        ("12", MATCH_STYLE), (" " + say(N_("green: equal to an available tile")) + ")", "dim"))
    return Text("\n").join([flow(entries, LABEL + 1 + CELL * WIDTH), sizes])


# --- the panel ----------------------------------------------------------------------------------

def turn_text(obs: dict[str, Any], viewer: int | None, say: Say) -> Text:
    """Whose turn, the phase, and the turn's AP and tokens."""
    if obs.get("terminal"):
        return result_text(obs, viewer, say)
    phase = str(obs.get("phase", ""))
    mover = int(obs.get("to_move", -1))
    if phase == "drawing calpulli tiles":
        drawn = len((obs.get("tiles") or {}).get("available", []))
        return Text(say(N_("calpulli draw: the part-1 tiles are drawn ({drawn} of {total})"),
                        drawn=drawn, total=PART_ONE_TILES), style="italic")
    text = Text()
    name = Text()
    if mover >= 0:
        text.append(f"{MOVER} ", style="bold")
        name = seat_text(mover, viewer, say)
        name.stylize("bold")
    if phase == "placing the Mexica":
        text.append_text(say.text(N_("{name} places the Mexica on a starting square"),
                                  name=name))
        return text
    text.append_text(say.text(N_("{seat} to move"), seat=name))
    ap = int(obs.get("ap", 0))
    tokens = obs.get("tokens") or []
    held = int(tokens[mover]) if 0 <= mover < len(tokens) else 0
    text.append("\n")
    text.append_text(say.text(N_("AP left: {ap} of {most}"),
                              ap=Text(str(ap), style="bold yellow"), most=str(AP_PER_TURN)))
    if held:
        text.append(" " + say.n(N_n("(+{n} token held)", "(+{n} tokens held)"), held))
    text.append("\n" + say(N_("action tokens taken this turn: {taken} of {most}"),
                           taken=obs.get("tokens_taken", 0), most=TOKENS_PER_TURN))
    if obs.get("first_turn"):
        text.append("\n" + say(N_("first turn: may not block a rival Mexica")), style="yellow")
    return text


def result_text(obs: dict[str, Any], viewer: int | None, say: Say) -> Text:
    """'Game over: seat 2 (you) R wins with 45 points'."""
    returns = obs.get("returns") or []
    scores = obs.get("scores") or []
    best = max(returns) if returns else 0
    won = [s for s, r in enumerate(returns) if r == best and r > 0]
    if len(won) == 1:
        points = scores[won[0]] if won[0] < len(scores) else "?"
        result = say.text(N_("{seat} wins with {points} points"), "bold green",
                          seat=seat_text(won[0], viewer, say), points=str(points))
    elif won:
        names = joined_text(say, [seat_text(seat, viewer, say) for seat in won], "bold green")
        result = say.text(N_("shared victory of {names}"), "bold green", names=names)
    else:
        result = Text(say(N_("nobody wins")))
    text = say.text(N_("Game over: {result}"), "bold", result=result)
    tops = [scores[s] for s in range(len(scores))]
    if len(won) == 1 and tops.count(scores[won[0]]) > 1:
        text.append(" " + say(N_("(most action tokens on a tie)")))
    return text


def seats_table(obs: dict[str, Any], viewer: int | None, say: Say,
                narrow: bool = False) -> Table:
    """Each seat: where its Mexica stands, score, action tokens held, buildings left by levels
    1/2/3/4 and, at the end, the result. `narrow`: the table must fit in INFO_WIDTH."""
    terminal = bool(obs.get("terminal"))
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, header_style="bold",
                  padding=0 if narrow and terminal else (0, 1, 0, 0), pad_edge=False)
    table.add_column(say(N_("seat")), no_wrap=True)
    table.add_column(say(N_("Mexica")), no_wrap=True)
    table.add_column(say(N_("pts")), justify="right", no_wrap=True)
    table.add_column(say(N_("tok")), justify="right", no_wrap=True)
    table.add_column(say(N_("left")), no_wrap=True)
    if terminal:
        table.add_column(say(N_("result")), no_wrap=True)
    mover = int(obs.get("to_move", -1))
    scores = obs.get("scores") or []
    tokens = obs.get("tokens") or []
    left = obs.get("buildings_left") or []
    returns = obs.get("returns") or []
    starts = {(r, c) for r, line in enumerate(obs.get("terrain") or [])
              for c, t in enumerate(line) if t == "S"}
    for seat, square in enumerate(obs.get("mexica", [])):
        name = Text(f"{MOVER if seat == mover else ' '} ", style="bold")
        name.append(seat_letter(seat), style=chip_style(seat))
        name.append(f" {seat}", style="bold" if seat == mover else "")
        if seat == viewer:
            name.append(" " + say(N_("you")), style="bold")
        where = Text(square or "—", style="" if square else "dim")
        if square and parse(square) in starts:
            where.append(" S", style=START_STYLE)
        row: list[Text | str] = [name, where]
        row.append(Text(str(scores[seat]) if seat < len(scores) else "?", style="bold"))
        row.append(str(tokens[seat]) if seat < len(tokens) else "?")
        row.append(counts(left[seat]) if seat < len(left) else "?")
        if terminal:
            row.append(short_result(returns[seat], say) if seat < len(returns) else "")
        table.add_row(*row)
    return table


def short_result(share: float, say: Say) -> Text:
    """won, shared or lost (the line above the table names the shares)."""
    if share >= 1.0:
        return Text(say(N_("won")), style="bold green")
    if share > 0.0:
        return Text(say(N_("shared")), style="bold green")
    return Text(say(N_("lost")), style="dim")


def seats_note(obs: dict[str, Any], say: Say) -> Text:
    """The table's abbreviations (S only when some Mexica stands on a starting square) and, in
    part 1, the buildings each seat gets for part 2."""
    text = Text(say(N_("tok")) + ": " + say(N_("action tokens held")) + "\n" + say(N_("left"))
                + ": " + say(N_("buildings by levels 1/2/3/4")), style="dim")
    reserve = obs.get("buildings_part_two") or []
    if obs.get("part", 1) == 1 and any(any(r) for r in reserve):
        if all(r == reserve[0] for r in reserve):
            text.append("\n" + say(N_("part 2 adds {counts} to each seat"),
                                   counts=counts(reserve[0])), style="dim")
        else:
            text.append("\n" + say(N_("part 2 adds {counts}"), counts=", ".join(
                f"{seat_letter(seat)} {counts(r)}" for seat, r in enumerate(reserve))),
                style="dim")
    starts = {f"{COLUMNS[c]}{r + 1}" for r, line in enumerate(obs.get("terrain") or [])
              for c, t in enumerate(line) if t == "S"}
    if starts.intersection(s for s in obs.get("mexica", []) if s):
        text.append("\n" + say(N_("S: on a starting square, +{n} at a scoring"), n=START_BONUS),
                    style="dim")
    return text


def supply_text(obs: dict[str, Any], say: Say) -> Text:
    supply = obs.get("supply") or {}
    text = Text(say(N_("supply")) + ": ", style="bold")
    text.append(say.n(N_n("{n} bridge", "{n} bridges"), int(supply.get("bridges", 0))) + " · "
                + say.n(N_n("{n} action token", "{n} action tokens"),
                        int(supply.get("action_tokens", 0))))
    text.append("\n" + say(N_("canals: {single} single, {double} double"),
                           single=supply.get("single_canals", 0),
                           double=supply.get("double_canals", 0)))
    return text


def tiles_text(obs: dict[str, Any], pieces: Pieces, say: Say) -> Text:
    """The calpulli tiles (this part's, part 2's face down, removed), districts and areas."""
    tiles = obs.get("tiles") or {}
    part = int(obs.get("part", 1))
    drawing = obs.get("phase") == "drawing calpulli tiles"
    unfounded = [a["size"] for i, a in enumerate(pieces.areas) if i not in pieces.founded]
    available = tiles.get("available", [])
    text = Text(say(N_("calpulli tiles")), style="bold")
    text.append(", " + (say(N_("drawn")) if drawing else say(N_("part {part}"), part=part))
                + ": ")
    text.append_text(sizes_text(available, set(unfounded)))
    if part == 1:
        text.append("\n" + (say(N_("not drawn yet")) if drawing
                            else say(N_("part 2 (face down)"))) + ": ")
        text.append_text(sizes_text(tiles.get("face_down", [])))
    text.append("\n" + say(N_("removed")) + ": ")
    text.append_text(sizes_text(tiles.get("removed", [])))
    text.append("\n")
    districts = sorted((size, f"{COLUMNS[c]}{r + 1}") for (r, c), size in pieces.tiles.items())
    if districts:
        text.append(say(N_("districts")) + ": ", style="bold")
        text.append(", ".join(say(N_("{size} at {square}"), size=size, square=square)
                              for size, square in districts))
    else:
        text.append_text(labelled(say(N_("districts: none yet"))))
    text.append("\n" + say(N_("unfounded areas")) + ": ", style="bold")
    text.append_text(sizes_text(unfounded, set(available)))
    return text


def scorings_text(obs: dict[str, Any], say: Say) -> Text | None:
    scorings = obs.get("scorings") or []
    if not scorings:
        return None
    text = Text()
    for i, points in enumerate(scorings):
        if i:
            text.append("\n")
        text.append(say(N_("first scoring:") if i == 0 else N_("second scoring:")) + " ",
                    style="bold")
        for seat, won in enumerate(points):
            if seat:
                text.append(" · ")
            text.append(seat_letter(seat), style=seat_style(seat))
            text.append(f" +{won}")
    return text


def info(obs: dict[str, Any], viewer: int | None, say: Say, narrow: bool = False) -> Group:
    """Everything but the map: turn, seats, supplies, tiles, areas, scorings."""
    pieces = Pieces(obs)
    parts: list[RenderableType] = [turn_text(obs, viewer, say), Text(""),
                                   seats_table(obs, viewer, say, narrow),
                                   seats_note(obs, say), Text(""), supply_text(obs, say),
                                   tiles_text(obs, pieces, say)]
    scored = scorings_text(obs, say)
    if scored is not None:
        parts.append(scored)
    return Group(*parts)


def title(obs: dict[str, Any], say: Say) -> str:
    n = len(obs.get("mexica", []))
    where = say(N_("part {part}, round {round}"), part=obs.get("part", 1),
                round=obs.get("round", 1))
    if obs.get("terminal"):
        where = say(N_("game over"))
    elif obs.get("phase") != "playing":
        where = say(N_("set-up"))
    return " · ".join(("Mexica", say.n(N_n("{n} player", "{n} players"), n), where))


class Board:
    """The whole table as one panel: the map with the panel beside it when the console is at
    least SIDE_BY_SIDE columns wide, under it otherwise."""

    def __init__(self, obs: dict[str, Any], viewer: int | None,
                 lang: str = DEFAULT_LANGUAGE) -> None:
        self.obs = obs
        self.viewer = viewer
        self.say = Say(lang)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        left = Group(island(self.obs), legend(self.say))
        wide = options.max_width >= SIDE_BY_SIDE
        right = info(self.obs, self.viewer, self.say, narrow=wide)
        body: RenderableType
        if wide:
            grid = Table.grid(padding=(0, 2))
            grid.add_column(width=LABEL + 1 + CELL * WIDTH)
            grid.add_column(width=self.info_width(console, options))
            grid.add_row(left, right)
            body = grid
        else:
            body = Group(left, Text(""), right)
        yield Panel(body, title=title(self.obs, self.say), title_align="left", expand=False)

    def info_width(self, console: Console, options: ConsoleOptions) -> int:
        """INFO_WIDTH, or more where the console has room for a seats table that a translation
        made wider than that."""
        table = seats_table(self.obs, self.viewer, self.say, narrow=True)
        needed = Measurement.get(console, options, table).maximum
        if needed <= INFO_WIDTH:
            return INFO_WIDTH
        room = options.max_width - (LABEL + 1 + CELL * WIDTH) - 2 - 4  # gap, panel's edges
        return max(INFO_WIDTH, min(needed, room))


def render(obs: dict[str, Any], viewer: int | None = None,
           lang: str = DEFAULT_LANGUAGE) -> RenderableType:
    return Board(obs, viewer, lang)
