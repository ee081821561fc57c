"""The Axio rules page (src/tlatelolco/docs/axio.md) is checked like the code.

It cites every rule id of the digest, calls out every ruling in its own Ruling box, is plain
Markdown (rich renders it in the terminal), its diagrams, tables and worked examples say what the
engine does, and every move it writes in `code` is the engine's notation.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

import pytest
from tests import rules_pages
from tests.rules_pages import code_spans, flat

import tlatelolco
from tlatelolco.contract import State, normalise
from tlatelolco.games.axio import AxioGame
from tlatelolco.games.axio.table import DRAW, DRAW_EXTRA, DRAW_STACK, OVER, START
from tlatelolco.games.axio.tiles import COLOURS, NUM_TILES, load_tiles, turned

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "src" / "tlatelolco" / "docs" / "axio.md"
TILE_DATA = ROOT / "src" / "tlatelolco" / "games" / "axio" / "data" / "axio_tiles.json"
GAME = "axio"


@cache
def page() -> str:
    return PAGE.read_text(encoding="utf-8")


def section(heading: str) -> str:
    return rules_pages.section(page(), heading)


def text_blocks() -> list[str]:
    return rules_pages.text_blocks(page())


# --- rule ids, rulings, plain Markdown -------------------------------------------------------

@pytest.mark.parametrize("rule", [f"AX-{i}" for i in range(1, 8)])
def test_page_cites_every_rule(rule: str) -> None:
    assert re.search(rf"\b{rule}\b", page()), f"{PAGE.name} never cites {rule}"


def ruling_boxes() -> list[tuple[str, str]]:
    return rules_pages.ruling_boxes(page(), flat)


# (what the ruling is about, the rule id its box cites, phrases the box must contain)
RULINGS = [
    # the digest's rulings
    ("the start square", "AX-2",
     ("other tiles keep the orientation", "random", "chance event", "empty corner")),
    ("two colours to 12 with one tile", "AX-4",
     ("two colours to 12", "two extra turns", "one after the other")),
    # the engine's rulings
    ("draws", "AX-6",
     ("every draw", "chance event", "nobody has seen", "face down", "shuffled",
      "same as drawing")),
    ("an empty corner names a colour", "AX-3",
     ("empty corner", "always names a colour", "empty=blue", "no other tile")),
    ("when extra turns are played", "AX-4",
     ("right after the tile that earned them", "before the draw from the own stack")),
    ("one player", "AX-2", ("1 player", "the same", "solo")),
    ("an unbounded display", "AX-3", ("no edges", "coordinates grow in any direction")),
    ("the start player", "AX-3", ("seat 0", "first tile")),
]


def test_page_calls_out_every_ruling() -> None:
    rules_pages.assert_rulings_called_out(ruling_boxes(), RULINGS)


def test_page_is_plain_markdown() -> None:
    text = page()
    rules_pages.assert_plain_markdown(text)
    outside = re.sub(r"^```.*?^```$", "", text, flags=re.MULTILINE | re.DOTALL)
    for line in outside.splitlines():
        assert line.count("`") % 2 == 0, f"a code span broken across lines near: {line!r}"


# --- the tile set ------------------------------------------------------------------------------

def test_provenance_is_quoted_and_other_sets_are_explained() -> None:
    provenance = json.loads(TILE_DATA.read_text(encoding="utf-8"))["provenance"]
    components = flat(section("## Components (AX-1)"))
    assert flat(provenance) in components, "the page quotes the tile set's provenance"
    for phrase in ("tiles=path", "60 tiles", "4 corners", "at most one empty corner",
                   "red, green, blue, orange, purple or null", "tiles=default"):
        assert phrase in components, phrase


def test_default_set_facts() -> None:
    tiles = load_tiles()
    assert len(tiles) == NUM_TILES
    assert sum(5 in tile for tile in tiles) == 10
    assert "10 tiles have an empty corner" in flat(page())
    for colour in range(len(COLOURS)):
        assert sum(tile.count(colour) for tile in tiles) == 46
    assert "46 quadrants" in flat(page())


def write_set(tmp_path: Path, name: str, tiles: list[list[str | None]]) -> str:
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps({"tiles": tiles}), encoding="utf-8")
    return str(path)


def test_another_tile_set_is_validated(tmp_path: Path) -> None:
    """The page's constraints on `tiles=PATH`: 60 tiles, 4 corners, known colours, one empty."""
    data = json.loads(TILE_DATA.read_text(encoding="utf-8"))
    good: list[list[str | None]] = [list(reversed(t)) for t in data["tiles"]]
    game = AxioGame(num_players=2, tiles=write_set(tmp_path, "good", good))
    assert game.tiles[0] == tuple(COLOURS.index(c) for c in reversed(data["tiles"][0]))
    tlatelolco.play_match(game, ["random", "random"], seed=3)
    bad = {
        "59 tiles": good[:59],
        "3 corners": [good[0][:3], *good[1:]],
        "a pink corner": [["pink", "red", "green", "blue"], *good[1:]],
        "two empty corners": [[None, None, "green", "blue"], *good[1:]],
    }
    for what, tiles in bad.items():
        with pytest.raises(ValueError, match="tiles"):
            AxioGame(num_players=2, tiles=write_set(tmp_path, what.replace(" ", "_"), tiles))


# --- diagrams and tables -----------------------------------------------------------------------

def test_start_square_diagram() -> None:
    """(0,1) and (1,1) on top, (0,0) and (1,0) below: y grows North, x grows East."""
    block = next(b for b in text_blocks() if all(c in b for c in ("(0,0)", "(1,0)", "(0,1)",
                                                                  "(1,1)")))
    lines = block.splitlines()
    top = next(i for i, line in enumerate(lines) if "(0,1)" in line)
    bottom = next(i for i, line in enumerate(lines) if "(0,0)" in line)
    assert top < bottom
    assert lines[top].index("(0,1)") < lines[top].index("(1,1)")
    assert lines[bottom].index("(0,0)") < lines[bottom].index("(1,0)")
    assert any("-o-" in line for line in lines[top:bottom]), "the centre point between the rows"


def test_circle_diagram() -> None:
    """The circle of grid point (x, y): the four quadrants that touch it, as the engine counts."""
    from tlatelolco.games.axio.rules import AROUND_POINT

    block = next(b for b in text_blocks() if "bottom-right" in b and "(x-1, y-1)" in b)
    lines = block.splitlines()

    def where(text: str) -> tuple[int, int]:
        row = next(i for i, line in enumerate(lines) if text in line)
        return row, lines[row].index(text)

    point = next((i, line.index("-o-") + 1) for i, line in enumerate(lines) if "-o-" in line)
    corner_names = ("top-left", "top-right", "bottom-right", "bottom-left")
    cell_names = {(-1, 0): "(x-1, y)", (0, 0): "(x, y)", (-1, -1): "(x-1, y-1)",
                  (0, -1): "(x, y-1)"}
    for (dx, dy), corner in AROUND_POINT:
        cell_row, cell_col = where(cell_names[(dx, dy)])
        quad_row, quad_col = where(corner_names[corner])
        for row, col, what in ((cell_row, cell_col, cell_names[(dx, dy)]),
                               (quad_row, quad_col, corner_names[corner])):
            assert (row < point[0]) == (dy == 0), what
            assert (col < point[1]) == (dx == -1), what


def test_rotation_table() -> None:
    rows = re.findall(r"^\| (0|90|180|270) \| (\w+) \| (\w+) \| (\w+) \| (\w+) \|$",
                      page(), re.MULTILINE)
    assert [int(r[0]) for r in rows] == [0, 90, 180, 270]
    tile = load_tiles()[0]
    for degrees, *corners in rows:
        assert [COLOURS[c] for c in turned(tile, int(degrees) // 90)] == corners, degrees


# --- the engine --------------------------------------------------------------------------------

def chance(state: State, text: str) -> None:
    """Apply the chance outcome the log writes as `text`."""
    assert state.is_chance_node()
    outcomes = [a for a, _ in state.chance_outcomes() if state.action_to_string(a) == text]
    assert outcomes, f"{text!r} is not a possible outcome now"
    state.apply_action(outcomes[0])


def play(state: State, move: str) -> None:
    state.apply_action(state.string_to_action(move))


def worked_moves() -> tuple[list[str], list[str]]:
    """The chance events and the two placements of the worked example, as the page writes them."""
    text = section("### A worked example")
    events = [s for s in code_spans(text) if s.startswith(("start tile", "draw tile"))]
    places = [s for s in code_spans(text) if s.startswith("place")]
    return events, places


def worked_example() -> tuple[State, State, State]:
    """The position before seat 0's placement, before seat 1's placement, and after it."""
    events, places = worked_moves()
    assert len(events) == 6 and len(places) == 2
    state = AxioGame(num_players=2).new_initial_state()
    for event in events:
        chance(state, event)
    before0 = state.clone()
    play(state, places[0])
    # seat 0 draws from their stack: any unseen tile (the page does not say which)
    state.apply_action(state.chance_outcomes()[0][0])
    before1 = state.clone()
    play(state, places[1])
    return before0, before1, state


def scores(state: State, seat: int) -> dict[str, int]:
    return {c: v for c, v in state.observation(seat)["scores"][seat].items() if v}


def test_worked_example() -> None:
    before0, before1, after = worked_example()
    assert before0.current_player() == 0
    assert before1.current_player() == 1
    assert scores(before1, 0) == {"blue": 1, "purple": 1}
    assert scores(after, 1) == {"red": 1, "green": 1, "blue": 2}
    text = flat(section("### A worked example"))
    assert "seat 0 has blue 1, purple 1 and seat 1 has red 1, green 1, blue 2" in text
    # naming blue instead of red: the empty corner scores nothing
    other = before1.clone()
    play(other, "place at (2,0) rot 90 empty=blue")
    assert scores(other, 1) == {"green": 1, "blue": 2}
    # the start tile with an empty corner was turned to point to the centre
    cells = {(t["x"], t["y"]): t["corners"] for t in after.observation(0)["display"]}
    assert cells[(0, 1)][2] is None


def test_worked_example_display_diagram() -> None:
    """The page's picture of the display is the engine's display, row by row."""
    _, _, after = worked_example()
    cells = {(t["x"], t["y"]): t["corners"] for t in after.observation(0)["display"]}

    def mark(colour: str | None) -> str:
        return "·" if colour is None else colour[0].upper()

    block = next(b for b in text_blocks() if "x = 2" in b)
    expected = []
    for y in (1, 0):
        expected.append("| " + " | ".join(f"{mark(cells[(x, y)][0])}     {mark(cells[(x, y)][1])}"
                                          for x in range(3)) + " |")
        expected.append("| " + " | ".join(f"{mark(cells[(x, y)][3])}     {mark(cells[(x, y)][2])}"
                                          for x in range(3)) + " |")
    found = [line[line.index("|"):].rstrip() for line in block.splitlines()
             if re.search(r"\| [A-Z·] ", line)]
    assert found == expected


def test_error_messages_on_the_page() -> None:
    _, before1, after = worked_example()
    text = flat(section("## Playing in the terminal"))
    for move, message in (
            ("place at (2,5) rot 0 empty=red", "(2,5) does not touch the display along an edge"),
            ("place at (0,0) rot 0 empty=red", "(0,0) already holds a tile"),
            ("place at (2,0) rot 0", "your tile has an empty corner: name a colour for it")):
        assert message in text
        with pytest.raises(tlatelolco.IllegalActionError, match=re.escape(message)):
            before1.string_to_action(move)
    after.apply_action(after.chance_outcomes()[0][0])  # seat 1 draws; seat 0 plays next
    assert after.current_player() == 0
    assert None not in after.observation(0)["hand"]["corners"]
    message = "your tile has no empty corner to name a colour for"
    assert message in text
    with pytest.raises(tlatelolco.IllegalActionError, match=message):
        after.string_to_action("place at (3,0) rot 0 empty=red")


def test_empty_corner_names_a_colour_even_with_nothing_around() -> None:
    """Seat 1's tile 50 at (-1,1), empty corner top-left at point (-1,2): nobody there."""
    _, before1, _ = worked_example()
    with pytest.raises(tlatelolco.IllegalActionError, match="name a colour"):
        before1.string_to_action("place at (-1,1) rot 0")
    results = []
    for colour in COLOURS:
        state = before1.clone()
        play(state, f"place at (-1,1) rot 0 empty={colour}")
        results.append(scores(state, 1))
    assert all(r == results[0] for r in results)


def test_extra_turns_right_after_the_tile_and_two_at_once() -> None:
    """One tile takes red (11 + 1) and blue (10 + 2) to 12: two extra turns from the supply,
    one after the other, before seat 1 draws from their stack."""
    _, before1, _ = worked_example()
    table = before1.table.copy()  # type: ignore[attr-defined]
    table.scores[1] = [11, 0, 10, 0, 0]
    state = AxioGame(num_players=2).state_from_position(table)
    stack, supply = table.stack_left[1], table.supply_left
    play(state, "place at (2,0) rot 90 empty=red")
    t = state.table  # type: ignore[attr-defined]
    assert t.scores[1][0] == t.scores[1][2] == 12
    for extra in range(2):
        assert t.phase == DRAW_EXTRA and t.player == 1, extra
        state.apply_action(state.chance_outcomes()[0][0])
        assert state.current_player() == 1 and state.observation(1)["extra_turn"]
        state.apply_action(state.legal_actions()[0])
        t = state.table  # type: ignore[attr-defined]
        assert t.stack_left[1] == stack, "no draw from the own stack before the extra turns"
    assert t.supply_left == supply - 2
    assert t.extra_taken[1] == 2
    assert t.phase == DRAW_STACK and t.player == 1  # now the own-stack draw
    state.apply_action(state.chance_outcomes()[0][0])
    assert state.table.stack_left[1] == stack - 1  # type: ignore[attr-defined]
    assert state.current_player() == 0


def test_points_above_12_are_lost() -> None:
    """'with blue at 11, a tile scoring 2 blue puts the track at 12 and earns an extra turn'."""
    assert "with blue at 11, a tile scoring 2 blue puts the track at 12" in flat(page())
    _, before1, _ = worked_example()
    table = before1.table.copy()  # type: ignore[attr-defined]
    table.scores[1] = [0, 0, 11, 0, 0]
    state = AxioGame(num_players=2).state_from_position(table)
    play(state, "place at (2,0) rot 90 empty=red")  # 2 blue, as in the worked example
    t = state.table  # type: ignore[attr-defined]
    assert t.scores[1][2] == 12
    assert t.phase == DRAW_EXTRA and t.extra_taken[1] == 1


def test_tie_break_table() -> None:
    """The ranking example of AX-5: all lowest 3, the next-lowest decides; seat 2 wins."""
    rows = re.findall(r"^\| (\d) \| (\d+) \| (\d+) \| (\d+) \| (\d+) \| (\d+) \| ([\d, ]+) \|$",
                      section("## End and scoring (AX-5)"), re.MULTILINE)
    assert len(rows) == 3
    game = AxioGame(num_players=3)
    table = game.new_initial_state().table  # type: ignore[attr-defined]
    for seat, *values, ordered in rows:
        table.scores[int(seat)] = [int(v) for v in values]
        assert sorted(int(v) for v in values) == [int(v) for v in ordered.split(",")]
    table.phase = OVER
    state = game.state_from_position(table)
    assert state.returns() == [0.0, 0.0, 1.0]
    assert "so seat 2 wins" in flat(page())
    # equal after all five colours (in other colours): a shared victory
    table = table.copy()
    table.scores[0] = table.scores[2][::-1]
    assert game.state_from_position(table).returns() == [0.5, 0.0, 0.5]


def test_solo_game() -> None:
    game = AxioGame(num_players=1)
    record = tlatelolco.play_match(game, ["random"], seed=5)
    end = game.replay(record["history"])
    assert end.is_terminal() and end.returns() == [1.0]
    t = end.table  # type: ignore[attr-defined]
    assert t.placed_from_stack == [12] and t.supply_left <= 44
    assert game.new_initial_state().table.supply_left == 44  # type: ignore[attr-defined]
    assert "44, 32, 20 or 8 tiles for 1, 2, 3 or 4 players" in flat(page())
    for n, supply in ((2, 32), (3, 20), (4, 8)):
        start = AxioGame(num_players=n).new_initial_state()
        assert start.table.supply_left == supply  # type: ignore[attr-defined]


def test_draws_are_over_every_unseen_tile() -> None:
    state = AxioGame(num_players=2).new_initial_state()
    starts = state.chance_outcomes()
    assert abs(sum(p for _, p in starts) - 1) < 1e-9
    assert {a for a, _ in starts} >= {START + 55 * 4 + 2}
    assert START + 55 * 4 + 0 not in {a for a, _ in starts}  # its empty corner must face the centre
    while state.is_chance_node() and len(state.observation(0)["display"]) < 4:
        state.apply_action(state.chance_outcomes()[0][0])
    draws = state.chance_outcomes()
    assert len(draws) == NUM_TILES - 4
    assert all(DRAW <= a < START for a, _ in draws)
    assert len({p for _, p in draws}) == 1


def test_the_display_has_no_border() -> None:
    """A line of tiles running West from the start square: x goes as negative as it likes."""
    _, before1, _ = worked_example()
    state = before1.clone()
    x = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
            continue
        x -= 1
        hand = state.observation(state.current_player())["hand"]["corners"]
        play(state, f"place at ({x},0) rot 0" + (" empty=red" if None in hand else ""))
    assert min(t["x"] for t in state.observation(0)["display"]) == x < -15


# --- notation ------------------------------------------------------------------------------------

PLACE_SPAN = re.compile(r"^(place\b|\(?-?\d+,-?\d+\)? \d+)")
CHANCE_SPAN = re.compile(r"^(start tile|draw tile) ")
LEADS_NOTATION = (
    "place at (2,1) rot 180", "(2,1) 180", "2,1 180",
    "place at (2,0) rot 90 empty=red", "(2,0) 90 red", "2,0 90 red",
    "start tile 55 (–/red/orange/purple) rot 180", "draw tile 13 (red/blue/purple/green)",
)


def chance_spellings(state: State) -> set[str]:
    """Every start-tile and draw string of the game (they depend on the tile set only)."""
    spellings = {state.action_to_string(DRAW + tile) for tile in range(NUM_TILES)}
    spellings |= {state.action_to_string(START + tile * 4 + r) for tile in range(NUM_TILES)
                  for r in range(4)}
    return spellings


def test_notation_is_the_engines() -> None:
    """Every move written in `code` on the page is a spelling the engine accepts."""
    if GAME not in tlatelolco.list_games():
        pytest.skip("the axio engine is not registered yet")
    state = tlatelolco.load(GAME, num_players=2).new_initial_state()
    notation = code_spans(section("## Playing in the terminal"))
    for required in LEADS_NOTATION:
        assert required in notation, f"the notation section does not show `{required}`"
    spans = code_spans(page())
    places = [s for s in spans if PLACE_SPAN.match(s)]
    chances = [s for s in spans if CHANCE_SPAN.match(s)]
    assert len(places) >= 10 and len(chances) >= 6
    for span in places:
        action = state.parse_action(normalise(span))
        assert action is not None, f"the engine cannot read `{span}`"
        spellings = {normalise(s) for s in (state.action_to_string(action),
                                            *state.action_aliases(action))}
        assert normalise(span) in spellings, f"`{span}` is not how the engine spells it"
    known = chance_spellings(state)
    unknown = [s for s in chances if s not in known]
    assert not unknown, f"chance events on the page the engine does not write: {unknown}"
    # the worked example's placements are legal where the page plays them
    _, before1, _ = worked_example()
    for short in ("(2,0) 90 red", "2,0 90 red", "place at (2,0) rot 90 empty=red"):
        assert before1.string_to_action(short) == before1.string_to_action(
            "place at (2,0) rot 90 empty=red")
