"""The Aztec Market rules page (src/tlatelolco/docs/aztec_market.md) is checked like the code.

It cites every rule id of the digest, calls out every ruling in its own Ruling box, is plain
Markdown (rich renders it in the terminal), its diagrams and tables say what the rules say, its
worked examples hold in the engine, and every move it writes in `code` is the engine's notation.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest
from tests import rules_pages
from tests.rules_pages import flat

import tlatelolco

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "src" / "tlatelolco" / "docs" / "aztec_market.md"
GAME = "aztec_market"


@cache
def page() -> str:
    return PAGE.read_text(encoding="utf-8")


def section(heading: str) -> str:
    return rules_pages.section(page(), heading)


def text_blocks() -> list[str]:
    return rules_pages.text_blocks(page())


# --- rule ids, rulings, plain Markdown -------------------------------------------------------

@pytest.mark.parametrize("rule", [f"AM-{i}" for i in range(1, 10)])
def test_page_cites_every_rule(rule: str) -> None:
    assert re.search(rf"\b{rule}\b", page()), f"{PAGE.name} never cites {rule}"


def ruling_boxes() -> list[tuple[str, str]]:
    return rules_pages.ruling_boxes(page(), flat)


# (what the ruling is about, the rule id its box cites, phrases the box must contain)
RULINGS = [
    # the digest's rulings
    ("a vendor must hold a good", "AM-6", ("empty vendor", "at least one good")),
    ("fewer than 4 goods left", "AM-5", ("fewer than 4", "draws all")),
    ("the second PASS move", "AM-5", ("second move", "same tile back")),
    ("porters and governors", "AM-6",
     ("acts once", "porters act first", "then the governors", "never take back the last good")),
    ("no dead ends", "AM-6", ("no dead ends", "reachable", "get stuck")),
    ("the errand boy", "AM-6", ("errand boy", "twice in a row")),
    # the lead's engine rulings
    ("goods removed without looking", "AM-3",
     ("without looking", "last n goods", "not yet seen", "only n unseen goods",
      "exactly equivalent in chance", "luck=false", "openly")),
    ("the start player", "AM-3", ("seat 0", "first market tile", "first turn")),
    ("paid moves name the buyer", "AM-6",
     ("names the buyer", "cannot buy", "errand boy", "never for a coin")),
    ("the king skips automatically", "AM-5", ("king's row or column", "skipped automatically")),
    ("teams and ties", "AM-7",
     ("both partners", "1 each", "0.5 each", "most coins", "most goods")),
    ("a random market", "AM-3", ('setup="random"', "chance")),
]


def test_page_calls_out_every_ruling() -> None:
    rules_pages.assert_rulings_called_out(ruling_boxes(), RULINGS)


def test_page_is_plain_markdown() -> None:
    text = page()
    rules_pages.assert_plain_markdown(text)


# --- what the page's diagrams and tables say --------------------------------------------------


def test_seat_diagram() -> None:
    """Columns A-D West to East, rows 1-4 South to North, every buyer where AM-2 puts it."""
    names = [f"{c}{r}" for c in "ABCD" for r in "1234"]
    buyers = [f"{s}{k}" for s in "SWNE" for k in "1234"]
    diagrams = [b for b in text_blocks() if all(n in b for n in names + buyers)]
    assert diagrams, "no diagram shows all 16 squares and all 16 buyers"
    lines = diagrams[0].splitlines()
    row = {r: next(i for i, line in enumerate(lines) if f"A{r}" in line) for r in "1234"}
    assert row["4"] < row["3"] < row["2"] < row["1"], "row 4 is at the top (North)"
    for r in "1234":
        line = lines[row[r]]
        cols = [line.index(f"{c}{r}") for c in "ABCD"]
        assert cols == sorted(cols), "columns A to D run West to East"
        assert line.index(f"W{r}") < cols[0] < cols[-1] < line.index(f"E{r}")
    top = next(i for i, line in enumerate(lines) if "N1" in line)
    bottom = next(i for i, line in enumerate(lines) if "S1" in line)
    assert top < row["4"] and bottom > row["1"]
    for k, c in enumerate("ABCD", start=1):
        for side in ("N", "S"):
            line = lines[top if side == "N" else bottom]
            assert line.index(f"{side}{k}") == pytest.approx(lines[row["1"]].index(f"{c}1"),
                                                             abs=4)
    joined = " ".join(diagrams[0].split())
    for side in ("South (seat 0)", "North (seat 2)"):
        assert side in joined
    assert "West" in joined and "(seat 1)" in joined and "East" in joined and "(seat 3)" in joined


def test_buyer_lines_and_seats() -> None:
    text = page()
    for row in ("| S2 | B1, B2, B3, B4 |", "| N2 | B4, B3, B2, B1 |",
                "| W3 | A3, B3, C3, D3 |", "| E3 | D3, C3, B3, A3 |"):
        assert row in text, f"the buyer-line table lacks {row}"
    seats = flat(section("## The market and the seats (AM-2)"))
    assert "| 2 | south (seat 0), west (seat 1): side by side, never opposite |" in seats
    assert "| 3 | south (seat 0), west (seat 1), north (seat 2) |" in seats
    assert "south + north against west + east" in seats
    assert any(all(f"{n} players" in b for n in (2, 3, 4)) for b in text_blocks()), \
        "a diagram shows the seats for 2, 3 and 4 players"


SCORING_ROW = re.compile(r"^\| (Yolanda|Victor|Laura|Raquel|king) \|(.*)$", re.MULTILINE)


def test_rulebook_scoring_example() -> None:
    """The table of the rulebook's example adds up to 53 against 60 (AM-7)."""
    rows = {}
    for name, rest in SCORING_ROW.findall(page()):
        cells = [c.strip() for c in rest.split("|")]
        rows[name] = cells
    assert set(rows) == {"Yolanda", "Victor", "Laura", "Raquel", "king"}
    king = [int(c) for c in rows["king"][1:5]]
    assert king == [2, 4, 3, 1]
    goods = {n: [int(c.split()[0]) for c in rows[n][1:5]] for n in rows if n != "king"}
    assert goods == {"Yolanda": [9, 0, 0, 6], "Victor": [5, 5, 3, 0],
                     "Laura": [3, 6, 4, 4], "Raquel": [0, 0, 8, 6]}
    teams = {"A": ("Yolanda", "Victor"), "B": ("Laura", "Raquel")}
    for team, members in teams.items():
        assert all(rows[m][0] == team for m in members)
    totals = {team: sum(max(goods[m][c] for m in members) * king[c] for c in range(4))
              for team, members in teams.items()}
    assert totals == {"A": 53, "B": 60}
    for name, cells in rows.items():
        if name == "king":
            continue
        partner = next(m for ms in teams.values() if name in ms for m in ms if m != name)
        shown = [cells[c + 1].split()[1] for c in range(4)]
        for c in range(4):
            # 0* marks goods that do not count because the partner has more of the colour
            held, other = goods[name][c], goods[partner][c]
            expected = "(0)" if not held else f"({held * king[c]})" if held > other else "(0*)"
            assert shown[c] == expected, (name, c)
        assert int(cells[5]) == sum(goods[name])
        points = sum(int(s.strip("()*")) for s in shown)
        assert int(cells[6]) == points, name
    assert "**53**" in page() and "**60**" in page()


# --- the engine --------------------------------------------------------------------------------

# The worked PLAY turn's market, built with real moves.
WORKED_LAYOUT = {
    "A4": "crowd", "B4": "red vendor", "C4": "king", "D4": "crowd",
    "A3": "black vendor", "B3": "governor", "C3": "green vendor", "D3": "porter",
    "A2": "ambassador", "B2": "porter", "C2": "governor", "D2": "blue vendor",
    "A1": "errand boy", "B1": "crowd", "D1": "crowd",
}
# Then South and West each pass once, so that South holds coins on S2 and S4 and the vendors
# hold black 2, blue 1, red 3, green 0 (each PASS puts a tile back: the second move may).
TO_WORKED_TURN = (
    "coin on S2", "coin on W1",
    "pass", "draw red", "draw red", "draw red", "draw green",
    "move crowd from B1", "move crowd from C1", "coin on S4", "king buys green",
    "pass", "draw black", "draw black", "draw blue", "draw red",
    "move errand boy from A1", "move errand boy from C1", "coin on W2", "king buys red",
)


def apply(state: tlatelolco.State, *moves: str) -> Iterator[tlatelolco.State]:
    """Apply the moves by their notation, yielding the state before each one."""
    for move in moves:
        yield state
        state.apply_action(state.string_to_action(move))


def worked_turn_start() -> tuple[tlatelolco.State, list[tlatelolco.State]]:
    state = tlatelolco.load(GAME, num_players=2).new_initial_state()
    seen = list(apply(state, *(f"place {tile} at {sq}" for sq, tile in WORKED_LAYOUT.items()),
                      *TO_WORKED_TURN))
    return state, seen


def test_worked_play_turn() -> None:
    """The worked PLAY turn of AM-6, move by move, in the engine."""
    text = section("### A worked PLAY turn")
    state, _ = worked_turn_start()
    view = state.observation(0)
    assert state.current_player() == 0
    assert view["hole"] == "C1"
    assert view["vendors"] == {"black": 2, "blue": 1, "red": 3, "green": 0}
    assert view["king"] == {"black": 0, "blue": 0, "red": 1, "green": 1}
    assert view["coin_reserve"] == 12
    south = view["players"][0]["buyers"]
    assert [b["coin"] for b in south] == [False, True, False, True]
    assert all(b["goods"] == 0 for b in south)
    assert state.legal_action_strings() == ["pass", "play"]

    list(apply(state, "play"))
    step1 = text[text.index("1. `play`"):text.index("2. `")]
    shown = set(re.findall(r"`(move [^`]+)`", step1))
    legal_moves = {s for s in state.legal_action_strings() if s.startswith("move")}
    assert shown == legal_moves
    assert not any(s.startswith("buy") for s in state.legal_action_strings())
    with pytest.raises(tlatelolco.IllegalActionError, match="no dead ends"):
        state.string_to_action("move crowd from B1 paying S2")

    list(apply(state, "move crowd from B1 paying S4", "buy S2 from red"))
    view = state.observation(0)
    assert view["hole"] == "B1" and view["market"]["C1"] == "crowd"
    assert view["vendors"]["red"] == 1 and view["king"]["red"] == 2
    assert view["players"][0]["buyers"][1] == {"name": "S2", "coin": False, "goods": 1,
                                               "colour": "red"}
    assert view["coin_reserve"] == 14
    assert state.legal_action_strings() == ["move errand boy from A1", "end turn"]
    errand = state.clone()
    errand.apply_action(errand.string_to_action("move errand boy from A1"))
    assert errand.legal_action_strings() == ["end turn"]  # not twice in a row
    list(apply(state, "end turn"))
    assert state.current_player() == 1
    for move in ("play", "move crowd from B1 paying S4", "buy S2 from red", "end turn"):
        assert f"`{move}`" in text


def test_purchase_table() -> None:
    """The table of purchases (AM-6 ruling on porters and governors), recomputed by the rule."""
    rows = re.findall(r"^\| (\d) \| ([^|]+) \| (\d) \| (\d) \| (\d) \| ([^|]+) \|$",
                      section("### Buying"), re.MULTILINE)
    assert len(rows) >= 6
    words = {"a": 1, "the": 1, "two": 2}
    for holds, between, gets, back, king, coin in rows:
        tiles = {"porter": 0, "governor": 0, "ambassador": 0}
        for part in between.split(" and "):
            count, _, tile = part.strip().partition(" ")
            if count != "nothing":
                tiles[tile.rstrip("s")] += words[count]
        goods = int(holds)
        returned = min(tiles["porter"], goods - 1)
        to_king = min(tiles["governor"], goods - returned)
        assert (int(gets), int(back), int(king)) == (goods - returned - to_king, returned,
                                                     to_king), (holds, between)
        assert coin.strip() == ("stays on the buyer" if tiles["ambassador"]
                                else "back to the reserve")


MOVE_WORDS = {"place", "coin", "pass", "play", "move", "king", "buy", "end", "draw", "hole"}
LEADS_NOTATION = (
    "place red vendor at B3", "place crowd at A1", "place errand boy at C2", "place king at D4",
    "coin on S2", "pass", "play", "move crowd from B3", "king buys red", "king skips",
    "move porter from C1 paying S2", "move errand boy from A4", "buy S2 from red", "end turn",
    "draw red", "hole at C3",
)
# A market where the notation section's examples name the right tiles.
NOTATION_LAYOUT = {
    "A1": "crowd", "B1": "black vendor", "C1": "porter", "D1": "blue vendor",
    "A2": "governor", "B2": "crowd", "C2": "errand boy", "D2": "porter",
    "A3": "green vendor", "B3": "crowd", "C3": "governor", "D3": "ambassador",
    "A4": "red vendor", "B4": "crowd", "C4": "king",
}


def moves_in(text: str) -> list[str]:
    return [span for span in re.findall(r"`([^`\n]+)`", text)
            if span.split()[0].lower() in MOVE_WORDS]


def engine_spellings() -> set[str]:
    """Every spelling (notation and short forms) of every action in many positions."""
    from tlatelolco.contract import normalise

    spellings: set[str] = set()

    def collect(state: tlatelolco.State) -> None:
        for action in range(state.get_game().num_distinct_actions()):
            for text in (state.action_to_string(action), *state.action_aliases(action)):
                spellings.add(normalise(text))

    _, seen = worked_turn_start()
    for state in seen:
        collect(state)
    state = tlatelolco.load(GAME, num_players=2).new_initial_state()
    list(apply(state, *(f"place {tile} at {sq}" for sq, tile in NOTATION_LAYOUT.items())))
    collect(state)
    for num_players, setup in ((2, "build"), (3, "random"), (4, "build"), (4, "random")):
        game = tlatelolco.load(GAME, num_players=num_players, setup=setup)
        collect(game.new_initial_state())
        tlatelolco.play_match(game, ["random"] * num_players, seed=num_players,
                              on_action=lambda state, action, actor: collect(state))
    return spellings


def test_notation_is_the_engines() -> None:
    """Every move written in `code` on the page is a spelling the engine accepts."""
    pytest.importorskip("tlatelolco.games.aztec_market")
    if GAME not in tlatelolco.list_games():
        pytest.skip("the aztec_market engine is not registered yet")
    from tlatelolco.contract import normalise

    notation = moves_in(section("## Playing in the terminal"))
    assert len(notation) >= 20
    for required in LEADS_NOTATION:
        assert required in notation, f"the notation section does not show `{required}`"
    spellings = engine_spellings()
    unknown = [m for m in moves_in(page()) if normalise(m) not in spellings]
    assert not unknown, f"notation on the rules page the engine does not accept: {unknown}"
