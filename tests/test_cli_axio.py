"""Axio in the terminal: the board drawn from observations, and `tlatelolco play`."""

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
from tlatelolco.cli.boards import chance_label, render_board
from tlatelolco.contract import State
from tlatelolco.games.axio import AxioGame
from tlatelolco.match import play_match
from tlatelolco.records import load_record

runner = CliRunner()
COLOURS = ("red", "green", "blue", "orange", "purple")
PLAYERS = [1, 2, 3, 4]


def draw(obs: dict[str, Any], viewer: int | None, width: int = 80) -> str:
    """The board as plain text, drawn from a JSON round trip of the observation (plain data)."""
    obs = json.loads(json.dumps(obs))
    console = Console(record=True, width=width, color_system=None, file=io.StringIO())
    console.print(render_board("axio", obs, viewer))
    return console.export_text()


@cache
def history(num_players: int, seed: int) -> tuple[int, ...]:
    game = AxioGame(num_players=num_players)
    return tuple(play_match(game, ["random"] * num_players, seed=seed)["history"])


def replay(num_players: int, actions: tuple[int, ...]) -> State:
    return AxioGame(num_players=num_players).replay(actions)


def inside(out: str) -> list[str]:
    """The panel's lines without its border."""
    lines = out.splitlines()
    return [line[2:-2] if line.startswith("│") else line for line in lines[1:-1]]


def check_fits(out: str, width: int = 80) -> None:
    lines = out.splitlines()
    assert all(len(line) <= width for line in lines), out
    assert lines[0].startswith("╭") and lines[-1].startswith("╰"), out


def check_display(out: str, obs: dict[str, Any]) -> None:
    """Every tile's four letters sit in the right corners under its x label, on its y row; every
    free cell is shaded."""
    lines = inside(out)
    heading = lines[0]
    centres = {int(m.group()): m.start() + len(m.group()) // 2
               for m in re.finditer(r"-?\d+", heading)}
    assert centres, out
    xs = sorted(centres)
    assert xs == list(range(xs[0], xs[-1] + 1)), "x grows to the East, one label per column"
    rows: dict[int, int] = {}
    for i, line in enumerate(lines):
        m = re.match(r"^\s*(-?\d+) [│ ]", line)
        if m and i > 0 and ("│" in line):
            rows[int(m.group(1))] = i
    ys = sorted(rows, reverse=True)
    assert ys == list(range(ys[0], ys[-1] - 1, -1)), "y grows to the North, top row first"

    def interior(line: str, x: int) -> str:
        """The inside of the cell under x's label: between the two bars around the label."""
        left, right = line.rindex("│", 0, centres[x]), line.index("│", centres[x])
        assert right - left - 1 in (3, 5), line  # compact "R G" or wide "R   G"
        return line[left + 1:right]

    def mark(colour: str | None) -> str:
        return "·" if colour is None else colour[0].upper()

    cells = {(t["x"], t["y"]): t["corners"] for t in obs["display"]}
    for (x, y), corners in cells.items():
        if x not in centres or y not in rows:
            continue  # cropped
        top, bottom = interior(lines[rows[y]], x), interior(lines[rows[y] + 1], x)
        assert top[0] + top[-1] == mark(corners[0]) + mark(corners[1]), (x, y)
        assert bottom[0] + bottom[-1] == mark(corners[3]) + mark(corners[2]), (x, y)
        assert set(top[1:-1] + bottom[1:-1]) == {" "}
    if len(cells) >= 4:
        free = {(x + dx, y + dy) for x, y in cells
                for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))} - set(cells)
        for x, y in free:
            if x in centres and y in rows:
                assert "░" in interior(lines[rows[y]], x), (x, y)
        assert f"{len(free)} free cell" in out


def check_scores(out: str, obs: dict[str, Any]) -> None:
    """Each seat's row: five tracks, the lowest ones [bracketed], then the lowest colour."""
    for seat, board in enumerate(obs["scores"]):
        row = next(line for line in inside(out) if re.match(rf"^[▶ ] {seat}\b", line))
        values = [board[c] for c in COLOURS]
        low = min(values)
        cells = row.split()[2 if "▶" in row else 1:]
        if cells and cells[0] == "you":
            cells = cells[1:]
        assert cells[:6] == [f"[{v}]" if v == low else str(v) for v in values] + [str(low)], row


def positions(num_players: int, seed: int) -> list[State]:
    """A few positions of one random game: the first placement, the middle, late, the end."""
    actions = history(num_players, seed)
    game = AxioGame(num_players=num_players)
    first = next(k for k in range(len(actions))
                 if not game.replay(actions[:k]).is_chance_node())
    return [replay(num_players, actions[:k])
            for k in (first, len(actions) // 2, len(actions) * 3 // 4, len(actions))]


# --- the board ---------------------------------------------------------------------------------

@pytest.mark.parametrize("num_players", PLAYERS)
def test_start_of_a_game(num_players: int) -> None:
    state = AxioGame(num_players=num_players).new_initial_state()
    out = draw(state.observation(0), 0)
    check_fits(out)
    assert "laying out the start square (0 of 4 tiles)" in out
    assert re.search(r"^\s+0\s+1\s*$", inside(out)[0]), "the start square's columns 0 and 1"
    assert "1 player (solo)" in out if num_players == 1 else f"{num_players} players" in out
    supply = 60 - 4 - 12 * num_players
    assert f"general supply: {supply} tiles face down" in out
    assert "You hold no tile now." in out
    for _ in range(4):
        state.apply_action(state.chance_outcomes()[0][0])
    out = draw(state.observation(0), 0)
    check_display(out, state.observation(0))
    assert "8 free cells" in out


@pytest.mark.parametrize("num_players", PLAYERS)
def test_mid_game_and_terminal_positions(num_players: int) -> None:
    *playing, end = positions(num_players, seed=num_players)
    for state in playing:
        for seat in range(num_players):
            obs = state.observation(seat)
            out = draw(obs, seat)
            check_fits(out)
            check_display(out, obs)
            check_scores(out, obs)
            assert f"general supply: {obs['supply']} tile" in out
            assert f"display: {len(obs['display'])} tiles" in out
            mover = state.current_player()
            if mover >= 0:
                you = " (you)" if mover == seat else ""
                assert f"▶ seat {mover}{you} to place a tile" in out
            else:
                assert "tiles: a tile is drawn for seat" in out
    assert end.is_terminal()
    for seat in range(num_players):
        obs = end.observation(seat)
        out = draw(obs, seat)
        check_fits(out)
        check_display(out, obs)
        check_scores(out, obs)
        assert "Game over" in out and "game over" in out
        assert "hand tile" not in out
        if num_players == 1:
            assert "solo game, seat 0 (you) ends with" in out
        else:
            assert ("wins with" in out) or ("shared victory" in out)
            assert "won" in out and "lost" in out


@pytest.mark.parametrize("num_players", PLAYERS)
def test_only_the_viewers_hand_is_drawn(num_players: int) -> None:
    for state in positions(num_players, seed=10 + num_players)[:3]:
        hands = state.table.hands  # type: ignore[attr-defined]
        for seat in range(num_players):
            out = draw(state.observation(seat), seat)
            shown = re.findall(r"\btile (\d+)\b", out)
            if hands[seat] >= 0:
                assert "Your hand tile" in out
                assert set(shown) == {str(hands[seat])}, out
                corners = state.observation(seat)["hand"]["corners"]
                for colour in corners:
                    assert (colour or "· empty") in out
                for degrees in (0, 90, 180, 270):
                    assert f"rot {degrees}" in out
            else:
                assert not shown and "hand tile" not in out
            others = {hands[s] for s in range(num_players) if s != seat and hands[s] >= 0}
            assert not {str(t) for t in others} & set(shown)


def test_the_hand_in_its_four_rotations() -> None:
    """Tile 0 (red/green/blue/orange): rot 90 has orange top-left, red top-right, ..."""
    state = AxioGame(num_players=2).new_initial_state()
    while len(state.observation(0)["display"]) < 4:
        state.apply_action(state.chance_outcomes()[-1][0])  # tiles 59, 58, ... for the start
    state.apply_action(next(a for a, _ in state.chance_outcomes()
                            if state.action_to_string(a).startswith("draw tile 0 ")))
    out = draw(state.observation(0), 0)
    lines = [line for line in inside(out) if "┌───┐" in line or "│" in line]
    minis = [line for line in inside(out) if line.count("│") >= 8]
    assert lines
    tops = re.findall(r"│(\S) (\S)│", minis[0])
    bottoms = re.findall(r"│(\S) (\S)│", minis[1])
    assert tops == [("R", "G"), ("O", "R"), ("B", "O"), ("G", "B")]
    assert bottoms == [("O", "B"), ("B", "G"), ("G", "R"), ("R", "O")]
    assert re.search(r"│ red\s+green │", out) and re.search(r"│ orange\s+blue │", out)


def test_extra_turns_and_results_are_spelled_out() -> None:
    state = positions(2, seed=2)[1]
    obs = state.observation(0)
    obs.update(to_move=0, turn_of=0, extra_turn=True, extra_turns_pending=1)
    out = draw(obs, 0)
    assert "AXIO! extra turn with a tile from the general supply" in out
    assert "seat 0 (you): 1 extra turn pending (before the draw from the own stack)" in out
    obs["scores"][1] = dict.fromkeys(COLOURS, 12)
    out = draw(obs, None)
    assert "you" not in out
    row = next(line for line in inside(out) if re.match(r"^[▶ ] 1\b", line))
    assert row.split()[1:7] == ["[12]"] * 5 + ["12"]
    assert row.split()[7] == "5"  # five tracks at 12: five AXIO! extra turns
    end = positions(3, seed=3)[-1].observation(0)
    for returns, words in (([0.5, 0.5, 0.0], ["shared victory of seat 0 (you) and seat 1",
                                              "shared (0.5)", "lost"]),
                           ([0.0, 0.0, 1.0], ["seat 2 wins with", "won", "lost"])):
        end["returns"] = returns
        out = draw(end, 0)
        for word in words:
            assert word in out, (word, out)


def test_a_large_display_is_shrunk_then_cropped() -> None:
    """A line of tiles running West: compact cells first, then a window with a note."""
    game = AxioGame(num_players=2)
    state = game.new_initial_state()
    x, sizes = 0, []
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
            continue
        x -= 1
        hand = state.observation(state.current_player())["hand"]["corners"]
        state.apply_action(state.string_to_action(
            f"place at ({x},0) rot 0" + (" empty=red" if None in hand else "")))
        obs = state.observation(0)
        out = draw(obs, 0)
        check_fits(out)
        check_display(out, obs)
        wide = "┌─────┬" in out or "├─────┼" in out
        sizes.append((-x, wide, "cropped" in out))
    assert any(wide for _, wide, _ in sizes) and not all(wide for _, wide, _ in sizes)
    assert any(cropped for _, _, cropped in sizes)
    assert all(not cropped for n, _, cropped in sizes if n <= 12), "10x8 tiles fit uncropped"
    out = draw(state.observation(0), 0, width=120)
    assert max(len(line) for line in out.splitlines()) <= 80


def test_chance_is_called_tiles() -> None:
    assert chance_label("axio") == "tiles"


# --- `tlatelolco play` -------------------------------------------------------------------------

def registered() -> None:
    if "axio" not in tlatelolco.list_games():
        pytest.skip("the axio engine is not registered yet")


def test_bots_play_to_the_end_and_the_record_validates(tmp_path: Path) -> None:
    registered()
    from tlatelolco.cli.app import app

    path = tmp_path / "axio.json"
    result = runner.invoke(app, ["play", "axio", "--players", "2", "--seat", "0=random",
                                 "--seat", "1=random", "--seed", "1", "--record", str(path)])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "tiles: start tile" in out
    assert "tiles: draw tile" in out  # bots only: nothing is hidden
    assert "seat 1 (random): place at" in out
    assert "Game over" in out
    assert "Final scores" in out
    record, state = load_record(path)
    assert state.is_terminal()
    assert record["players"] == ["random", "random"]
    assert record["meta"]["seed"] == 1


def test_another_tile_set_from_the_command_line(tmp_path: Path) -> None:
    registered()
    from tlatelolco.cli.app import app

    source = Path(tlatelolco.__file__).parent / "games" / "axio" / "data" / "axio_tiles.json"
    data = json.loads(source.read_text(encoding="utf-8"))
    data["tiles"] = [list(reversed(tile)) for tile in data["tiles"]]
    tiles = tmp_path / "tiles.json"
    tiles.write_text(json.dumps(data), encoding="utf-8")
    result = runner.invoke(app, ["play", "axio", "--players", "1", "--seat", "0=random",
                                 "--seed", "2", "--option", f"tiles={tiles}",
                                 "--record", str(tmp_path / "solo.json")])
    assert result.exit_code == 0, result.output
    assert "solo game" in result.output
    data["tiles"] = data["tiles"][:59]
    tiles.write_text(json.dumps(data), encoding="utf-8")
    result = runner.invoke(app, ["play", "axio", "--players", "1", "--seat", "0=random",
                                 "--option", f"tiles={tiles}"])
    assert result.exit_code != 0
    assert "59 tiles" in result.output
