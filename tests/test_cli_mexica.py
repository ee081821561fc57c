"""Mexica in the terminal: the board drawn from observations, and `tlatelolco play`."""

from __future__ import annotations

import io
import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

import tlatelolco
from tlatelolco.cli.app import app
from tlatelolco.cli.boards import chance_label, render_board
from tlatelolco.contract import State
from tlatelolco.match import play_match
from tlatelolco.records import load_record

runner = CliRunner()
COLUMNS = "ABCDEFGHIJKLMNOPQRSTUVW"
LETTERS = "RBGP"  # the seats' letters, seat 0 first
BRIDGE = {"W-E": "═", "N-S": "║"}


def invoke(*args: str, input: str | None = None) -> Any:
    return runner.invoke(app, list(args), input=input)


def draw(obs: dict[str, Any], viewer: int | None, width: int = 80) -> str:
    """The board as plain text, drawn from a JSON round trip of the observation (plain data)."""
    obs = json.loads(json.dumps(obs))
    console = Console(record=True, width=width, color_system=None, file=io.StringIO())
    console.print(render_board("mexica", obs, viewer))
    return console.export_text()


@cache
def history(num_players: int, seed: int) -> tuple[int, ...]:
    game = tlatelolco.load("mexica", num_players=num_players)
    return tuple(play_match(game, ["random"] * num_players, seed=seed)["history"])


def replay(num_players: int, actions: tuple[int, ...]) -> State:
    return tlatelolco.load("mexica", num_players=num_players).replay(list(actions))


def first(num_players: int, seed: int, test: Any) -> State:
    """The first position of a seeded random game whose observation passes `test`."""
    state = tlatelolco.load("mexica", num_players=num_players).new_initial_state()
    for action in history(num_players, seed):
        if test(state.observation(0)):
            return state
        state.apply_action(action)
    assert test(state.observation(0)), "no such position in this game"
    return state


def check_fits(out: str, width: int) -> None:
    lines = out.splitlines()
    assert all(len(line) <= width for line in lines), out
    assert lines[0].startswith("╭") and lines[-1].startswith("╰"), out


def squares(out: str) -> dict[str, str]:
    """Each square's three characters, found under its column letter on its row's line."""
    lines = out.splitlines()
    top = next(i for i, line in enumerate(lines) if re.search(r"A  B  C  D .* V  W", line))
    heading = lines[top]
    start = heading.index("A  B  C")
    centre = {c: start + 3 * i for i, c in enumerate(COLUMNS)}
    assert all(heading[centre[c]] == c for c in COLUMNS), heading
    assert lines[top + 17][start:centre["W"] + 1] == heading[start:centre["W"] + 1], out
    cells = {}
    for row, line in enumerate(lines[top + 1:top + 17], start=1):
        m = re.match(r"^│\s*(\d+) ", line)
        assert m is not None and int(m.group(1)) == row, out
        for c in COLUMNS:
            cells[f"{c}{row}"] = line[centre[c] - 1:centre[c] + 2]
    assert len(cells) == 23 * 16, out
    return cells


def panel(out: str) -> str:
    """The panel's text as one line of words; on a wide console only what is beside the map."""
    lines = out.splitlines()
    heading = next(line for line in lines if re.search(r"A  B  C  D .* V  W", line))
    offset = heading.index("A  B  C") + 3 * 22 + 2
    if heading[offset:].strip("│ "):  # the panel is beside the map
        lines = [line[offset:] for line in lines]
    return " ".join(" ".join(lines).replace("│", " ").split())


def seat_row(out: str, seat: int) -> list[str]:
    """The words of a seat's row in the seats table (after the map, where one is beside it)."""
    pattern = re.compile(rf"(?:^|\s)[▶ ] {LETTERS[seat]} {seat}\b(.*)")
    for line in out.splitlines():
        m = pattern.search(line.rstrip("│ "))
        if m:
            return m.group(0).replace("▶", " ").split()
    raise AssertionError(f"no row for seat {seat}:\n{out}")


def check_map(out: str, obs: dict[str, Any]) -> None:
    """Every piece of the observation is drawn on its square, and the terrain around it."""
    cells = squares(out)
    on_bridge = {b["square"]: b["axis"] for b in obs["bridges"]}
    seat_at = {square: seat for seat, square in enumerate(obs["mexica"]) if square}
    for b in obs["buildings"]:
        assert cells[b["square"]] == f" {LETTERS[b['owner']]}{b['levels']}", (b, out)
    for t in obs["calpulli"]:
        assert cells[t["square"]].strip() == f"#{t['size']}", (t, out)
    for square, axis in on_bridge.items():
        if square in seat_at:
            mark = BRIDGE[axis]
            assert cells[square] == f"{mark}{LETTERS[seat_at[square]]}{mark}", out
        else:
            assert cells[square].strip() == BRIDGE[axis] * (3 if axis == "W-E" else 1), out
    for square, seat in seat_at.items():
        if square not in on_bridge:
            assert cells[square] == f"({LETTERS[seat]})", (square, out)
    for square in obs["canals"]:
        if square not in on_bridge:
            assert cells[square] == "≈≈≈", (square, out)
    occupied = set(on_bridge) | set(seat_at) | set(obs["canals"]) | {
        p["square"] for p in obs["buildings"] + obs["calpulli"]}
    for r, line in enumerate(obs["terrain"]):
        for c, terrain in enumerate(line):
            name = f"{COLUMNS[c]}{r + 1}"
            if name in occupied:
                continue
            if terrain == "~":
                assert cells[name] == " ~ ", (name, out)
            elif terrain in "SX":
                assert cells[name] == f" {terrain} ", (name, out)
    founded = {s for a in obs["areas"] if a["tile"] for s in a["squares"]}
    for name in founded - occupied:
        if obs["terrain"][int(name[1:]) - 1][COLUMNS.index(name[0])] == ".":
            assert cells[name] == " ░ ", (name, out)
    # Every unfounded area with free land has its size written on one free square, a dot on
    # the others.
    for area in obs["areas"]:
        if area["tile"]:
            continue
        free = [s for s in area["squares"] if s not in occupied
                and obs["terrain"][int(s[1:]) - 1][COLUMNS.index(s[0])] in ".C"]
        written = [s for s in free if cells[s].strip() == str(area["size"])]
        assert len(written) == min(1, len(free)), (area, out)
        assert all(cells[s] == " · " for s in free if s not in written), (area, out)


def check_panel(out: str, obs: dict[str, Any], viewer: int | None) -> None:
    flat = panel(out)
    supply = obs["supply"]
    assert (f"{supply['single_canals']} single, {supply['double_canals']} double"
            in flat), out
    bridges = supply["bridges"]
    assert f"supply: {bridges} bridge{'' if bridges == 1 else 's'}" in flat, out
    for seat in range(len(obs["mexica"])):
        row = seat_row(out, seat)
        assert row[:2] == [LETTERS[seat], str(seat)], row
        if seat == viewer:
            assert row[2] == "you", row
            row = row[:2] + row[3:]
        numbers = [w for w in row[2:] if w.isdigit()]
        assert numbers[:2] == [str(obs["scores"][seat]), str(obs["tokens"][seat])], row
        assert "/".join(map(str, obs["buildings_left"][seat])) in row, row
    if viewer is None:
        assert "you" not in out
    unfounded = sorted(a["size"] for a in obs["areas"] if not a["tile"])
    listed = re.search(r"unfounded areas: ([\d ]+)", flat)
    assert listed is not None and [int(n) for n in listed.group(1).split()] == unfounded, flat
    for t in obs["calpulli"]:
        assert f"{t['size']} at {t['square']}" in flat, flat
    removed = obs["tiles"]["removed"]
    assert "removed: " + (" ".join(map(str, sorted(removed))) if removed else "—") in flat


# --- the board ----------------------------------------------------------------------------------

@pytest.mark.parametrize("width", [80, 120])
def test_a_fresh_game_shows_the_printed_island(width: int) -> None:
    state = tlatelolco.load("mexica", num_players=3).new_initial_state()
    obs = state.observation(0)
    out = draw(obs, 0, width)
    check_fits(out, width)
    check_map(out, obs)
    check_panel(out, obs, 0)
    cells = squares(out)
    assert cells["I8"] == " X "
    assert [cells[s] for s in ("I7", "H8", "J8", "I9")] == [" S "] * 4
    assert [cells[f"P{r}"] for r in (7, 8, 9, 10)] == ["≈≈≈"] * 4  # the started canal
    assert cells["A1"] == " ~ " and cells["C2"] == " · "
    assert "192" in cells.values()  # the whole island is one area of 192 dry squares
    flat = panel(out)
    assert "calpulli draw: the part-1 tiles are drawn (0 of 8)" in flat
    assert "supply: 11 bridges · 12 action tokens" in flat
    assert "canals: 6 single, 35 double" in flat
    assert "not drawn yet: 3 3 4 4 5 5 6 6 7 8 9 10 11 12 13" in flat
    assert "Mexica · 3 players · set-up" in out


def test_set_up_phases_are_spelled_out() -> None:
    placing = first(3, 1, lambda o: o["phase"] == "placing the Mexica")
    obs = placing.observation(1)
    out = draw(obs, 1)
    check_map(out, obs)
    assert "▶ seat 0 R places the Mexica on a starting square" in out
    assert len(obs["tiles"]["available"]) == 8
    flat = panel(out)
    assert "calpulli tiles, part 1: " + " ".join(map(str, sorted(obs["tiles"]["available"]))) \
        in flat
    assert "part 2 (face down): " in flat
    assert "part 2 adds 3/2/2/2 to each seat" in flat
    playing = first(3, 1, lambda o: o["phase"] == "playing")
    obs = playing.observation(0)
    out = draw(obs, 0)
    check_map(out, obs)
    assert "▶ seat 0 (you) R to move" in out
    assert re.search(r"AP left: 6 of 6 +│", out), out
    assert "action tokens taken this turn: 0 of 2" in out
    assert "first turn: may not block a rival Mexica" in out
    assert "S: on a starting square, +5 at a scoring" in out
    for seat, square in enumerate(obs["mexica"]):
        assert seat_row(out, seat)[2 + (seat == 0)] == square
        assert squares(out)[square] == f"({LETTERS[seat]})"


@pytest.mark.parametrize(("num_players", "seed"), [(2, 1), (3, 2), (4, 3)])
def test_mid_game_positions(num_players: int, seed: int) -> None:
    actions = history(num_players, seed)
    for moves in (len(actions) // 3, len(actions) // 2, len(actions) * 4 // 5):
        state = replay(num_players, actions[:moves])
        for viewer in (0, num_players - 1, None):
            obs = state.observation(0 if viewer is None else viewer)
            for width in (80, 120):
                out = draw(obs, viewer, width)
                check_fits(out, width)
                check_map(out, obs)
                check_panel(out, obs, viewer)
                assert f"part {obs['part']}, round {obs['round']}" in out
                if obs["phase"] == "playing":
                    assert f"AP left: {obs['ap']} of 6" in out
                    assert f"▶ seat {obs['to_move']}" in out


def test_a_wide_console_puts_the_panel_beside_the_map() -> None:
    actions = history(3, 2)
    obs = replay(3, actions[:len(actions) // 2]).observation(0)
    narrow, wide = draw(obs, 0, 80), draw(obs, 0, 120)
    assert len(wide.splitlines()) < len(narrow.splitlines()) - 10
    assert max(len(line) for line in wide.splitlines()) > 100
    assert max(len(line) for line in narrow.splitlines()) <= 80
    heading = next(line for line in wide.splitlines() if "A  B  C" in line)
    mover = obs["to_move"]
    assert f"▶ seat {mover} {LETTERS[mover]} to move" in heading  # the panel's first line
    huge = draw(obs, 0, 200)
    assert max(len(line) for line in huge.splitlines()) <= 120


def test_pieces_drawn_from_a_hand_made_observation() -> None:
    """Every kind of piece, placed by hand, lands on its square with its glyph."""
    obs = tlatelolco.load("mexica", num_players=4).new_initial_state().observation(0)
    obs.update(
        phase="playing", to_move=2, turn_of=2, ap=3, tokens=[0, 1, 2, 0], tokens_taken=1,
        canals=["K5", "K6", "D4"],
        bridges=[{"square": "K5", "axis": "W-E"}, {"square": "D4", "axis": "N-S"}],
        buildings=[{"square": "C3", "owner": 3, "levels": 4},
                   {"square": "E5", "owner": 1, "levels": 2}],
        calpulli=[{"square": "C12", "size": 13}],
        mexica=["K5", "D4", "I7", None],
    )
    out = draw(obs, 2)
    cells = squares(out)
    assert cells["K5"] == "═R═" and cells["D4"] == "║B║"
    assert cells["K6"] == "≈≈≈"
    assert cells["C3"] == " P4" and cells["E5"] == " B2"
    assert cells["C12"] == "#13"
    assert cells["I7"] == "(G)"
    assert "▶ seat 2 (you) G to move" in out
    assert "AP left: 3 of 6 (+2 tokens held)" in out
    assert "action tokens taken this turn: 1 of 2" in out
    assert seat_row(out, 3)[2] == "—"  # a Mexica not placed yet
    assert "I7 S" in " ".join(seat_row(out, 2))


def test_the_end_of_the_game() -> None:
    actions = history(3, 2)
    end = replay(3, actions)
    assert end.is_terminal()
    obs = end.observation(0)
    for width in (80, 120):
        out = draw(obs, 0, width)
        check_fits(out, width)
        check_map(out, obs)
        check_panel(out, obs, 0)
        assert "Mexica · 3 players · game over" in out
        assert "Game over: " in out
        flat = panel(out)
        for i, word in enumerate(("first", "second")):
            expected = " · ".join(f"{LETTERS[s]} +{p}" for s, p in enumerate(obs["scorings"][i]))
            assert f"{word} scoring: {expected}" in flat, flat
        best = max(obs["returns"])
        for seat, share in enumerate(obs["returns"]):
            word = "won" if share >= 1 else "shared" if share > 0 else "lost"
            assert seat_row(out, seat)[-1] == word
            if share == best == 1.0:
                assert f"seat {seat}" in flat.split("Game over:")[1].split("wins")[0]


@pytest.mark.parametrize(("returns", "words"), [
    ([0.5, 0.5, 0.0], ["shared victory of seat 0 (you) R and seat 1 B", "shared", "lost"]),
    ([0.0, 0.0, 1.0], ["seat 2 G wins with", "won", "lost"]),
])
def test_results_read_from_the_returns(returns: list[float], words: list[str]) -> None:
    obs = replay(3, history(3, 2)).observation(0)
    obs["returns"] = returns
    out = draw(obs, 0)
    for word in words:
        assert word in out, (word, out)


def test_chance_is_called_the_calpulli_draw() -> None:
    assert chance_label("mexica") == "calpulli draw"


# --- `tlatelolco play` ---------------------------------------------------------------------------

def test_bots_play_to_the_end_and_the_record_replays(tmp_path: Path) -> None:
    path = tmp_path / "mexica.json"
    result = invoke("play", "mexica", "--players", "3", "--seat", "0=random", "--seat",
                    "1=random", "--seat", "2=random", "--seed", "5", "--record", str(path))
    assert result.exit_code == 0, result.output
    out = result.output
    assert "calpulli draw: draw calpulli" in out
    assert "seat 1 (random): start at" in out
    assert "Mexica · 3 players · game over" in out  # the final board
    assert "Game over" in out
    assert "Final scores" in out
    record, state = load_record(path)
    assert state.is_terminal()
    assert record["players"] == ["random"] * 3
    assert record["meta"]["seed"] == 5
    again = tlatelolco.load("mexica", num_players=3).replay(record["history"])
    assert again.returns() == state.returns()


def test_human_seat_plays_to_the_end(tmp_path: Path) -> None:
    """Seat 0 is a person: bad input first, then a start square, a token, and always move 1
    (`end`) afterwards, against a random bot."""
    path = tmp_path / "human.json"
    answers = ["help", "fly to the moon", "999", "start at I8", "start at H8", "token", "board",
               "end"] + ["1"] * 400
    result = invoke("play", "mexica", "--players", "2", "--seat", "1=random", "--seed", "3",
                    "--record", str(path), input="\n".join(answers) + "\n")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Commands: help" in out
    assert "'fly to the moon' is not a move of Mexica" in out
    assert "there is no move 999" in out
    assert "seat 0 (you) R places the Mexica on a starting square" in out
    assert "seat 0 (human): start at H8" in out
    assert "seat 0 (human): token" in out
    assert "AP left: 5 of 6 (+1 token held)" in out
    assert "action tokens taken this turn: 1 of 2" in out
    assert "Your moves, seat 0:" in out
    assert "Final scores" in out
    record, state = load_record(path)
    assert state.is_terminal()
    assert record["players"] == ["human", "random"]
    again = tlatelolco.load("mexica", num_players=2).replay(record["history"])
    assert again.returns() == state.returns()
    assert again.observation(0)["tokens"][0] == 1  # the token is never spent


def test_quitting_saves_an_unfinished_record(tmp_path: Path) -> None:
    path = tmp_path / "stopped.json"
    result = invoke("play", "mexica", "--players", "2", "--seat", "1=random", "--seed", "4",
                    "--record", str(path), input="start at J8\nquit\n")
    assert result.exit_code == 0, result.output
    assert "Game stopped after" in result.output
    _, state = load_record(path)
    assert not state.is_terminal()
    assert state.observation(0)["mexica"][0] == "J8"
