"""`tlatelolco replay`: a saved game move by move, or printed whole."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.text import Text

from tlatelolco.cli.boards import render_board
from tlatelolco.cli.common import move_line, move_text, print_result
from tlatelolco.cli.human import Reader
from tlatelolco.contract import Game, State

KEYS = "Enter/n next · b back · j N jump to move N · q quit"


def print_header(console: Console, record: dict[str, Any], game: Game) -> None:
    players = ", ".join(f"seat {i} {p}" for i, p in enumerate(record["players"]))
    seed = record.get("meta", {}).get("seed") if isinstance(record.get("meta"), dict) else None
    extra = f", seed {seed}" if seed is not None else ""
    console.print(Text(f"{game.info.title} {game!r}{extra}: {players}", style="bold"))


def print_ending(console: Console, state: State, players: list[str]) -> None:
    if state.is_terminal():
        print_result(console, state, players)
    else:
        console.print(Text(f"Unfinished game: stopped after {state.move_number()} moves.",
                           style="yellow"))


def print_all(console: Console, record: dict[str, Any], game: Game, seat: int) -> None:
    """Every move, then the final board and the result (for pipes and files)."""
    print_header(console, record, game)
    hidden = game.replay(record["history"]).hidden_steps(seat)  # what `seat` never saw
    state = game.new_initial_state()
    for step, action in enumerate(record["history"]):
        console.print(move_line(state, action, record["players"], step in hidden),
                      markup=False, highlight=False)
        state.apply_action(action)
    console.print(render_board(game.info.name, state.observation(seat), seat))
    print_ending(console, state, record["players"])


def position(game: Game, history: list[int], k: int, players: list[str],
             hidden: frozenset[int] = frozenset()) -> tuple[State, str]:
    """The state after `k` moves and the line for move k (rebuilt from the history each time);
    `hidden` are the moves the viewing seat may not see."""
    if k == 0:
        return game.new_initial_state(), "start of the game"
    before = game.replay(history[:k - 1])
    line = move_text(before, history[k - 1], players, k - 1 in hidden)
    before.apply_action(history[k - 1])
    return before, line


def step_through(console: Console, read: Reader, record: dict[str, Any], game: Game,
                 seat: int) -> None:
    """Interactive stepping: the board as `seat` saw it after each move."""
    history, players = record["history"], record["players"]
    last, k = len(history), 0
    hidden = game.replay(history).hidden_steps(seat)  # what `seat` never saw
    print_header(console, record, game)
    while True:
        state, line = position(game, history, k, players, hidden)
        console.print(render_board(game.info.name, state.observation(seat), seat))
        console.print(Text(f"move {k}/{last}: {line}", style="bold"))
        if k == last:
            print_ending(console, state, players)
        while True:
            try:
                answer = read(f"{KEYS} > ").strip().lower()
            except EOFError:
                return
            target = parse_key(answer, k, last)
            if target == "quit":
                return
            if isinstance(target, int):
                k = target
                break
            console.print(Text(target, style="red"))


def parse_key(answer: str, k: int, last: int) -> int | str:
    """The move to show next, "quit", or a message saying what is wrong."""
    if answer in ("", "n", "next"):
        return k + 1 if k < last else "this is the end of the game (b = back, q = quit)"
    if answer in ("b", "back"):
        return k - 1 if k > 0 else "this is the start of the game (n = next, q = quit)"
    if answer in ("q", "quit"):
        return "quit"
    word, _, arg = answer.partition(" ")
    if word in ("j", "jump"):
        if arg.strip().isdigit() and int(arg) <= last:
            return int(arg)
        return f"jump to a move from 0 to {last}, like: j 10"
    return f"unknown key {answer!r}; {KEYS}"
