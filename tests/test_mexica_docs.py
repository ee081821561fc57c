"""The Mexica rules page (src/tlatelolco/docs/mexica.md) is checked like the code.

It ships with the package and `tlatelolco rules mexica` prints it; it cites every rule id of the
digest, calls out every ruling in its own Ruling box, is plain Markdown (rich renders it in the
terminal), its map and tables are the engine's board and components, its worked examples hold in
the engine, and every move it writes in `code` is the engine's notation.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable
from functools import cache
from importlib import resources
from pathlib import Path

import pytest
from tests import rules_pages
from tests.mexica.positions import position, state_at
from tests.rules_pages import code_spans, flat
from typer.testing import CliRunner

import tlatelolco
from tlatelolco.cli.app import app
from tlatelolco.cli.common import rules_page
from tlatelolco.contract import State, normalise
from tlatelolco.games.mexica import placement, rules
from tlatelolco.games.mexica.board import (
    COAT_OF_ARMS,
    COLUMNS,
    HEIGHT,
    IS_LAKE,
    NAMES,
    NEIGHBOURS,
    NUM_SQUARES,
    ROWS,
    STARTED,
    STARTING,
    WEST_EAST,
    WIDTH,
    parse_square,
)
from tlatelolco.games.mexica.city import OVER
from tlatelolco.games.mexica.components import (
    BUILDINGS,
    PART_ONE_BUILDINGS,
    PART_TWO_BUILDINGS,
    SIZES,
    TILE_COUNTS,
    place_points,
)
from tlatelolco.games.mexica.game import max_game_length
from tlatelolco.games.mexica.scoring import ranked_points, scoring

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "src" / "tlatelolco" / "docs" / "mexica.md"
GAME = "mexica"


@cache
def page() -> str:
    return PAGE.read_text(encoding="utf-8")


def section(heading: str) -> str:
    return rules_pages.section(page(), heading)


def text_blocks() -> list[str]:
    return rules_pages.text_blocks(page())


# --- the page ships and the CLI prints it ------------------------------------------------------

def test_page_is_package_data() -> None:
    assert PAGE.is_file()
    shipped = resources.files("tlatelolco") / "docs" / "mexica.md"
    assert shipped.read_text(encoding="utf-8") == page()
    assert rules_page(GAME) == page()
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "docs/*.md" in config["tool"]["setuptools"]["package-data"]["tlatelolco"]


def test_rules_command_prints_the_page() -> None:
    result = CliRunner().invoke(app, ["rules", GAME])
    assert result.exit_code == 0, result.output
    out = result.output
    for text in ("Mexica", "MX-4", "MX-13", "A B C D E F G H I J K L M N O P Q R S T U V W",
                 "~ ~ . . . . . S X S . . . . . C", "canal K5-K6", "found 7 at E5"):
        assert text in out, text


# --- rule ids, rulings, plain Markdown -------------------------------------------------------

@pytest.mark.parametrize("rule", [f"MX-{i}" for i in range(1, 14)])
def test_page_cites_every_rule(rule: str) -> None:
    assert re.search(rf"\b{rule}\b", page()), f"{PAGE.name} never cites {rule}"


def ruling_boxes() -> list[tuple[str, str]]:
    return rules_pages.ruling_boxes(page(), flat)


# (what the ruling is about, the rule id its box cites, phrases the box must contain)
RULINGS = [
    # the digest's rulings
    ("ending the turn", "MX-4", ("ends only when you say so", "end", "having done nothing")),
    ("a Mexica on a bridge", "MX-7",
     ("on a bridge is in no area", "cannot build or found", "does not count as present")),
    ("removing tiles in part 1", "MX-10",
     ("same holds in part 1", "placed or removed", "no unfounded area has k or more squares",
      "canal supply is empty", "exactly k squares could be founded")),
    ("an area that could be founded", "MX-10",
     ("free ordinary land square for the tile", "another square of the area",
      "founder's mexica must be in the area", "tile cannot go under it", "a starting square",
      "a square a mexica already stands on", "an area of 3 with two buildings and one free square",
      "e14, f14, e15")),
    ("nobody acts", "MX-10",
     ("nobody wants to take any more actions", "without taking any action",
      "founding a district is an action", "costs no ap", "end of that round")),
    ("every game ends", "MX-10",
     ("40th round", "far sooner", "random play and search", "8 + n + 2 × 40 × n × 19 + 15",
      "3,065", "4,586", "6,107")),
    # the engine's rulings
    ("tokens are spent implicitly", "MX-4",
     ("spends held tokens for the difference", "same as spending the token just before",
      "unused ap are lost", "paid with an ap, never with a token", "would do nothing")),
    ("founding with no AP", "MX-9", ("founding is free", "0 ap left")),
    ("the start player", "MX-2", ("seat 0", "first seat", "begins both parts")),
    ("the part-1 draws", "MX-2",
     ("one at a time", "chance event", "by size", "identical", "draw calpulli 7",
      "by elimination", "shows them")),
    ("what a free square is", "MX-10",
     ("without a building or calpulli tile", "does not take it", "step off",
      "after every action", "start of part 2")),
    ("the first turn", "MX-7",
     ("first turn of the game", "last square to step onto", "already stuck")),
    ("the part-1 tiles left over", "MX-10", ("leave the game", "only the 7 part-2 tiles")),
    ("the end of part 2", "MX-10", ("all 18", "supply of buildings is empty")),
    ("a bridge's axis", "MX-6",
     ("both axes", "player picks", "names it", "bridge i6 n-s", "bridge i6 w-e")),
    ("moving a bridge", "MX-6",
     ("no longer counts as a neighbour", "joined", "next to the one it leaves",
      "move bridge k5 to k6")),
    ("one thing per square", "MX-13",
     ("a mexica may stand on a bridge", "which itself stands on a canal")),
    ("one lake", "MX-3",
     ("one body of water", "every square on the edge of the board is lake",
      "adds no connection")),
]


def test_page_calls_out_every_ruling() -> None:
    rules_pages.assert_rulings_called_out(ruling_boxes(), RULINGS)


def test_page_is_plain_markdown() -> None:
    text = page()
    rules_pages.assert_plain_markdown(text)
    outside = re.sub(r"^```.*?^```$", "", text, flags=re.MULTILINE | re.DOTALL)
    for line in outside.splitlines():
        assert line.count("`") % 2 == 0, f"a code span broken across lines near: {line!r}"


# --- the board -----------------------------------------------------------------------------------

def page_map() -> tuple[list[str], list[tuple[int, list[str]]]]:
    """The column letters and the numbered rows of the page's map."""
    block = next(b for b in text_blocks() if "A B C D E" in b)
    lines = block.splitlines()
    letters = lines[0].split()
    rows = []
    for line in lines[1:]:
        number, *cells = line.split()
        rows.append((int(number), cells))
    return letters, rows


def board_file_rows() -> list[str]:
    text = (resources.files("tlatelolco.games.mexica") / "data" / "mexica_board.txt").read_text(
        encoding="utf-8")
    return [line for line in text.splitlines() if line and not line.startswith("#")]


def test_board_map_is_the_board_file() -> None:
    letters, rows = page_map()
    assert letters == list(COLUMNS) and len(letters) == WIDTH == 23
    assert [number for number, _ in rows] == list(range(1, HEIGHT + 1)) and HEIGHT == 16
    grid = ["".join(cells) for _, cells in rows]
    assert grid == list(ROWS) == board_file_rows()


def test_board_facts() -> None:
    terrain = "".join(ROWS)
    assert (terrain.count("."), terrain.count("S") + terrain.count("X"), terrain.count("C")) \
        == (187, 5, 4)
    assert sum(t != "~" for t in terrain) == 196
    assert [NAMES[s] for s in STARTING] == ["I7", "H8", "J8", "I9"]
    assert NAMES[COAT_OF_ARMS] == "I8"
    assert [NAMES[s] for s in STARTED] == ["P7", "P8", "P9", "P10"]
    text = flat(section("## The board (MX-1, MX-3)"))
    for phrase in ("| s | starting square (palace): i7, h8, j8, i9 |",
                   "| x | the coat of arms (palace): i8 |",
                   "| c | the started canal: p7, p8, p9, p10 |",
                   "187 ordinary land squares, 5 palace squares and the 4 squares of the started "
                   "canal: 196 land squares",
                   "no lake square ever holds a bridge, not even t7 (between s7 and u7) or c10 "
                   "(between c9 and c11), which have land on both sides: bridges stand only on "
                   "canal tiles (mx-6)"):
        assert phrase in text, phrase
    state = playing_state()
    assert state.city.area_size == [192]
    assert "one area of 192 squares" in flat(page())


def test_one_lake() -> None:
    """Every edge square is lake, and all lake squares are connected through their sides."""
    edge = [s for s in range(NUM_SQUARES)
            if s < WIDTH or s >= NUM_SQUARES - WIDTH or s % WIDTH in (0, WIDTH - 1)]
    assert all(IS_LAKE[s] for s in edge)
    lake = {s for s in range(NUM_SQUARES) if IS_LAKE[s]}
    seen, todo = {edge[0]}, [edge[0]]
    for square in todo:
        for n in NEIGHBOURS[square]:
            if n in lake and n not in seen:
                seen.add(n)
                todo.append(n)
    assert seen == lake


# --- components --------------------------------------------------------------------------------

def test_calpulli_table() -> None:
    rows = re.findall(r"^\| (\d+) \| (\d) \| (\d+) \| (\d+) \| (\d+) \|$",
                      section("### The calpulli tiles"), re.MULTILINE)
    assert [int(r[0]) for r in rows] == list(SIZES)
    for size, count, *points in rows:
        assert int(count) == TILE_COUNTS[int(size)], size
        assert tuple(map(int, points)) == place_points(int(size)), size
    assert sum(TILE_COUNTS.values()) == 15


def test_building_table() -> None:
    rows = re.findall(r"^\| ([1-4]) \| (\d) \| (\d) \| (\d) \|$", section("### Buildings"),
                      re.MULTILINE)
    assert [int(r[0]) for r in rows] == [1, 2, 3, 4]
    assert tuple(int(r[1]) for r in rows) == BUILDINGS
    assert tuple(int(r[2]) for r in rows) == PART_ONE_BUILDINGS
    assert tuple(int(r[3]) for r in rows) == PART_TWO_BUILDINGS
    assert sum(BUILDINGS) == 18 and sum(PART_ONE_BUILDINGS) == 9


def test_component_numbers() -> None:
    state = playing_state()
    city = state.city
    assert (city.singles, city.doubles, city.bridges, city.token_supply) == (6, 35, 11, 12)
    text = flat(section("## Components (MX-1)"))
    for phrase in ("43: 6 single (1 square) and 37 double", "| bridges | 11 |",
                   "| action tokens | 12,", "num_players sets the number of players: 2 to 4, "
                   "default 4"):
        assert phrase in text, phrase
    set_up = flat(section("## Set-up (MX-2)"))
    assert "the supply keeps 6 single and 35 double canal tiles" in set_up
    info = tlatelolco.load(GAME).info
    assert (info.min_players, info.max_players, tlatelolco.load(GAME).num_players()) == (2, 4, 4)


# --- positions -----------------------------------------------------------------------------------

PART_ONE_DRAWS = (3, 4, 5, 5, 6, 8, 10, 12)


def placing_state(num_players: int = 2) -> State:
    state = tlatelolco.load(GAME, num_players=num_players).new_initial_state()
    for size in PART_ONE_DRAWS:
        state.apply_action(state.string_to_action(f"draw calpulli {size}"))
    return state


def playing_state(*starts: str) -> State:
    state = placing_state()
    for square in starts or ("I7", "I9"):
        state.apply_action(state.string_to_action(f"start at {square}"))
    return state


def play(state: State, moves: Iterable[str]) -> None:
    for move in moves:
        state.apply_action(state.string_to_action(move))


def refused(state: State, move: str, message: str) -> None:
    with pytest.raises(tlatelolco.IllegalActionError, match=re.escape(message)):
        state.string_to_action(move)


def all_bridges_out() -> State:
    """A hand-built position with the 11 bridges on the board, one on K5 (W-E) over the canal
    K5-K6. Canal supplies are not adjusted: they do not matter here."""
    city = playing_state().city.copy()
    squares = [parse_square(n) for n in ("K5", "K6", "D4", "H4", "D7", "D10", "G11", "D13",
                                         "H13", "L12", "N9", "R9")]
    for square in squares:
        assert square is not None
        city.canal[square] = 1
    rules.derive(city)
    for square in [s for s in squares if NAMES[s] != "K6"]:
        assert square is not None
        axes = placement.dry_axes(city, square)
        axis = WEST_EAST if NAMES[square] == "K5" else axes[0]
        assert axis in axes and placement.why_not_bridge(city, square, axis) is None
        city.bridge[square] = axis
    city.bridges = 0
    rules.derive(city)
    return tlatelolco.load(GAME, num_players=2).state_from_position(city)


# --- notation ------------------------------------------------------------------------------------

MOVE_WORDS = {"end", "token", "take", "walk", "step", "move", "start", "canal", "bridge", "boat",
              "teleport", "build", "found", "draw"}
LEADS_NOTATION = (
    "canal K5", "canal K5-K6", "bridge O7", "bridge O7 N-S", "move bridge O7 to P9", "walk N",
    "teleport C3", "build 3 at D4", "found 7 at E5", "token", "end", "start at I7",
    "draw calpulli 7", "bridge I6 N-S", "bridge I6 W-E", "boat to K9",
)


def moves_in(text: str) -> list[str]:
    return [span for span in code_spans(text) if span.split()[0].lower() in MOVE_WORDS]


def spelling_states() -> list[State]:
    """Positions where every move on the page is written as the engine writes it: set-up, a
    turn, and a turn where I6 is a canal (both axes possible for a bridge)."""
    drawing = tlatelolco.load(GAME, num_players=2).new_initial_state()
    canal = playing_state()
    play(canal, ["canal I6"])
    return [drawing, placing_state(), playing_state(), canal]


def test_every_move_on_the_page_parses() -> None:
    moves = moves_in(page())
    assert len(moves) >= 40
    for state in spelling_states():
        for move in moves:
            assert state.parse_action(normalise(move)) is not None, f"cannot read `{move}`"


def notation_rows() -> list[tuple[list[str], list[str]]]:
    """(notation spans, also-accepted spans) of each row of the notation table."""
    rows = []
    for line in section("## Playing in the terminal").splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) == 4 and code_spans(cells[2]):
            rows.append((code_spans(cells[2]), code_spans(cells[3])))
    return rows


def test_notation_is_the_engines() -> None:
    notation = moves_in(section("## Playing in the terminal"))
    for required in LEADS_NOTATION:
        assert required in notation, f"the notation section does not show `{required}`"
    states = spelling_states()
    rows = notation_rows()
    assert len(rows) >= 14
    for spellings, aliases in rows:
        for span in spellings:
            written = {state.action_to_string(a) for state in states
                       if (a := state.parse_action(normalise(span))) is not None}
            assert span in written, f"`{span}` is not how the engine writes it: {written}"
        canal = states[-1]
        named = {canal.parse_action(normalise(span)) for span in spellings}
        for alias in aliases:
            assert canal.parse_action(normalise(alias)) in named, \
                f"`{alias}` is not {spellings}"


def test_bridge_axes_in_the_notation() -> None:
    state = playing_state()
    play(state, ["canal I6", "canal O7"])
    assert state.legal_action_strings().count("bridge O7") == 1
    assert state.string_to_action("bridge O7 N-S") == state.string_to_action("bridge O7")
    both = [s for s in state.legal_action_strings() if s.startswith("bridge I6")]
    assert both == ["bridge I6 N-S", "bridge I6 W-E"]
    assert state.string_to_action("bridge I6") == state.string_to_action("bridge I6 N-S")
    refused(state, "move bridge O7 to P9",
            "a bridge may be moved only when all 11 are on the board")


# --- worked examples -----------------------------------------------------------------------------

ROUND_1 = ["walk N"] * 5 + ["token", "end", "end"]
ROUND_2 = ["canal G3-H3", "canal I3-J3", "build 4 at H2", "canal K3", "found 5 at G2", "end",
           "end"]


def test_worked_example() -> None:
    text = section("## A worked example")
    for move in {"start at I7", "start at I9", *ROUND_1, *ROUND_2}:
        assert f"`{move}`" in text, move
    flat_text = flat(text)
    for phrase in ("3, 4, 5, 5, 6, 8, 10 and 12", "part-2 tiles are 3, 4, 6, 7, 9, 11 and 13",
                   "the scores are now 8 for seat 0 and 5 for seat 1",
                   "(3, 4, 5, 6, 8, 10 and 12) leave the game",
                   "seat 0 now has 6, 5, 4 and 2 buildings of 1, 2, 3 and 4 levels, seat 1 has "
                   "6, 5, 4 and 3", "seat 0 begins part 2, with 6 ap"):
        assert phrase in flat_text, phrase

    state = playing_state()
    city = state.city
    assert [s for s, n in zip(SIZES, city.face_down, strict=True) for _ in range(n)] \
        == [3, 4, 6, 7, 9, 11, 13]
    play(state, ROUND_1[:6])
    city = state.city
    assert (city.ap, city.tokens, city.token_supply) == (0, [1, 0], 11)
    refused(state, "token", "taking a token costs an AP (not a token)")
    play(state, ROUND_1[6:])
    play(state, ROUND_2[:3])
    city = state.city
    assert (city.player, city.ap, city.tokens) == (0, 0, [1, 0])
    play(state, ["canal K3"])
    city = state.city
    assert (city.ap, city.tokens, city.token_supply) == (0, [0, 0], 12)
    area = city.area[parse_square("I2")]  # type: ignore[index]
    assert city.area_size[area] == 5
    play(state, ["found 5 at G2"])
    assert state.city.scores == [3, 0]
    play(state, ROUND_2[5:])
    assert state.city.round == 3
    play(state, ["end", "end"])  # round 3: nobody acts
    city = state.city
    assert city.part == 2 and city.round == 1
    assert city.scorings == [[5, 5]]
    assert city.scores == [8, 5]
    assert [s for s, n in zip(SIZES, city.available, strict=True) for _ in range(n)] \
        == [3, 4, 6, 7, 9, 11, 13]
    assert sorted(city.removed) == [3, 4, 5, 6, 8, 10, 12], "leftover part-1 tiles are removed"
    assert city.supply == [[6, 5, 4, 2], [6, 5, 4, 3]]
    assert (city.player, city.ap) == (0, 6)


def test_bridge_walk_example() -> None:
    text = flat(section("## Moving the Mexica (MX-7)"))
    for move in ("canal i6", "bridge i6 n-s", "walk n", "build 1 at h6", "teleport c3"):
        assert move in text
    state = playing_state()
    play(state, ["canal I6", "bridge I6 N-S", "walk N"])
    assert NAMES[state.city.mexica[0]] == "I6"
    refused(state, "build 1 at H6", "your Mexica stands on a bridge, which is in no area")
    play(state, ["walk N"])
    assert NAMES[state.city.mexica[0]] == "I5" and state.city.ap == 2
    refused(state, "teleport C3", "it costs 5 AP and you have 2 AP and 0 action tokens")


def test_first_turn_examples() -> None:
    state = playing_state("I7", "H8")
    play(state, ["canal G8", "build 1 at H7"])
    message = "in your first turn you may not leave a rival Mexica with nowhere to step"
    refused(state, "build 1 at H9", message)
    refused(state, "canal H9", message)
    # seat 0 walls itself in: nothing is forbidden to seat 1 because of it
    state = playing_state()
    play(state, ["build 1 at H7", "build 1 at J7", "canal I6", "end"])
    assert state.current_player() == 1 and state.city.turns == [1, 0]
    assert state.legal_actions() == rules._turn_actions(state.city)
    for move in ("canal G8", "build 1 at H7", "build 1 at H9", "canal H9", "build 1 at J7",
                 "canal I6"):
        assert f"`{move}`" in section("## Moving the Mexica (MX-7)"), move


def test_moving_a_bridge_next_to_where_it_stood() -> None:
    state = all_bridges_out()
    assert state.city.bridges == 0
    action = state.string_to_action("move bridge K5 to K6")
    assert state.action_to_string(action) == "move bridge K5 to K6"
    refused(state, "move bridge D4 to K6", "next to another bridge (bridges may not be joined)")
    with pytest.raises(tlatelolco.IllegalActionError, match="move one instead"):
        state.string_to_action("bridge E5")
    state.apply_action(action)
    assert state.city.bridge[parse_square("K6")] == WEST_EAST  # type: ignore[index]


# --- scoring --------------------------------------------------------------------------------------

def test_tie_examples() -> None:
    rows = re.findall(r"^\| ([0-3]) \| (\d) \| ([^|]+) \| (\d) \|$", section("## Scoring (MX-11)"),
                      re.MULTILINE)
    assert len(rows) == 4
    levels = [int(r[1]) for r in rows]
    assert ranked_points(levels, place_points(9)) == [int(r[3]) for r in rows] == [9, 9, 3, 0]
    assert ranked_points([7, 4, 4, 1], place_points(9)) == [9, 5, 5, 0]
    assert ranked_points([5, 5, 5, 1], place_points(9)) == [9, 9, 9, 0]
    text = flat(section("## Scoring (MX-11)"))
    assert "with levels 7, 4, 4 and 1 instead, seat 0 scores 9, the two tied for 2nd score 5 " \
           "each and the fourth nothing" in text
    for size in (10, 20, 2):
        big, middle, small = place_points(size)
        assert f"{size} squares scores {big}, {middle} and {small}" in text \
            or f"{size} squares {big}, {middle} and {small}" in text, size


def test_unfounded_areas_and_starting_squares_score() -> None:
    """At the second scoring the big unfounded area scores like a tile of its size; a Mexica on a
    starting square scores 5 at both scorings."""
    city = playing_state().city.copy()
    square = parse_square("C3")
    assert square is not None
    city.building[square] = 0 * 4 + 1  # seat 0, 1 level
    assert scoring(city) == [5, 5]
    city.part = 2
    assert scoring(city) == [192 + 5, 5]


def test_tie_break_by_action_tokens() -> None:
    city = playing_state().city.copy()
    city.phase = OVER
    city.scores = [40, 40]
    city.tokens = [1, 0]
    game = tlatelolco.load(GAME, num_players=2)
    assert game.state_from_position(city).returns() == [1.0, 0.0]
    city.tokens = [2, 2]
    assert game.state_from_position(city).returns() == [0.5, 0.5]
    assert "most unused action tokens wins; players still tied share the victory" \
        in flat(section("## Scoring (MX-11)"))


# --- the parts and the end ---------------------------------------------------------------------

def test_max_game_length() -> None:
    for players, length in ((2, 3065), (3, 4586), (4, 6107)):
        assert max_game_length(players) == 8 + players + 2 * 40 * players * 19 + 15 == length
        assert tlatelolco.load(GAME, num_players=players).max_game_length() == length


def test_part_two_ends_when_someone_built_everything() -> None:
    city = playing_state().city.copy()
    city.part, city.round, city.idle = 2, 5, False
    city.available = [0] * len(SIZES)
    city.supply = [[0, 0, 0, 1], [1, 0, 0, 0]]
    assert not rules.part_over(city)
    city.supply[0] = [0, 0, 0, 0]
    assert rules.part_over(city)
    city.available[0] = 1
    assert not rules.part_over(city)
    city.round = 40
    assert rules.part_over(city)


def test_an_area_that_could_be_founded() -> None:
    """The Ruling's two examples: E14, F14, E15 built on at E14 and F14 removes both 3s; the
    palace and I6 keep the 6, founded from a starting square."""
    text = flat(section("## The two parts (MX-10)"))
    assert "the area e14, f14, e15 built on at e14 and f14 removes both 3s" in text
    assert "an area of the palace and i6 can take a 6" in text
    no_canals_left = {"singles": 0, "doubles": 0}
    shape = ("D14", "G14", "E13", "F13", "D15", "F15")
    state = state_at(position(2, canals=shape, buildings={"E14": (1, 1)}, mexica=("E15", "K5"),
                              available=(3, 3), **no_canals_left))
    play(state, ["build 1 at F14"])  # E15, where seat 0 stands, is the only free square left
    assert state.city.removed == [3, 3] and not any(state.city.available)
    palace = ("H6", "J6", "I5", "H7", "J7", "G8", "K8", "H9", "J9", "I10")
    state = state_at(position(2, canals=palace, mexica=("I7", "K5"), available=(6, 3),
                              **no_canals_left))
    play(state, ["end", "build 1 at K6", "end"])  # seat 1 builds: the tiles are checked
    assert state.city.removed == [3] and state.city.available[6 - SIZES[0]] == 1
    play(state, ["found 6 at I6"])
    assert state.city.scores[0] == 3


def test_part_one_draws() -> None:
    state = tlatelolco.load(GAME, num_players=2).new_initial_state()
    outcomes = {state.action_to_string(a): p for a, p in state.chance_outcomes()}
    assert set(outcomes) == {f"draw calpulli {size}" for size in SIZES}
    assert outcomes["draw calpulli 3"] == pytest.approx(2 / 15)
    assert outcomes["draw calpulli 13"] == pytest.approx(1 / 15)
    assert "2 in 15 for a size 3 at the first draw, 1 in 15 for the 13" in flat(page())


def test_error_messages_on_the_page() -> None:
    text = flat(section("## Playing in the terminal"))
    for message in ("taking a token costs an ap (not a token)",
                    "your mexica stands on a bridge, which is in no area",
                    "a bridge may be moved only when all 11 are on the board",
                    "in your first turn you may not leave a rival mexica with nowhere to step",
                    "it costs 5 ap and you have 2 ap and 0 action tokens"):
        assert message in text, message
