"""`tlatelolco replay`: a saved game move by move, or printed whole."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.text import Text

from tlatelolco.cli.boards import render_board
from tlatelolco.cli.common import move_line, move_text, print_result, seat_name
from tlatelolco.cli.human import Reader
from tlatelolco.contract import Game, State
from tlatelolco.i18n import DEFAULT_LANGUAGE, N_, N_n, Plural, gettext, render

KEYS = N_("Enter/n next · b back · j N jump to move N · q quit")


def print_header(console: Console, record: dict[str, Any], game: Game,
                 lang: str = DEFAULT_LANGUAGE) -> None:
    seat = gettext(N_("seat {seat} {player}"), lang)
    players = ", ".join(seat.format(seat=i, player=p) for i, p in enumerate(record["players"]))
    seed = record.get("meta", {}).get("seed") if isinstance(record.get("meta"), dict) else None
    extra = gettext(N_(", seed {seed}"), lang).format(seed=seed) if seed is not None else ""
    console.print(Text(f"{game.info.title} {game!r}{extra}: {players}", style="bold"))


def print_ending(console: Console, state: State, players: list[str],
                 lang: str = DEFAULT_LANGUAGE) -> None:
    if state.is_terminal():
        print_result(console, state, players, lang)
    else:
        console.print(Text(render((Plural(N_n("Unfinished game: stopped after {n} move.",
                                               "Unfinished game: stopped after {n} moves."),
                                          state.move_number()), {}), lang),
                           style="yellow"))


def print_all(console: Console, record: dict[str, Any], game: Game, seat: int,
              lang: str = DEFAULT_LANGUAGE) -> None:
    """Every move, then the final board and the result (for pipes and files)."""
    print_header(console, record, game, lang)
    hidden = game.replay(record["history"]).hidden_steps(seat)  # what `seat` never saw
    state = game.new_initial_state()
    names = [seat_name(i, record["players"], lang) for i in range(len(record["players"]))]
    for step, action in enumerate(record["history"]):
        line = move_line(state, action, record["players"], step in hidden, lang)
        if step not in hidden:  # the move in words too
            words = render(state.describe_action(action), lang, names)
            if words != state.action_to_string(action):
                line += f"  · {words}"
        console.print(line, markup=False, highlight=False)
        state.apply_action(action)
    console.print(render_board(game.info.name, state.observation(seat), seat, lang))
    print_ending(console, state, record["players"], lang)


def position(game: Game, history: list[int], k: int, players: list[str],
             hidden: frozenset[int] = frozenset(),
             lang: str = DEFAULT_LANGUAGE) -> tuple[State, str]:
    """The state after `k` moves and the line for move k (rebuilt from the history each time);
    `hidden` are the moves the viewing seat may not see."""
    if k == 0:
        return game.new_initial_state(), gettext(N_("start of the game"), lang)
    before = game.replay(history[:k - 1])
    line = move_text(before, history[k - 1], players, k - 1 in hidden, lang)
    before.apply_action(history[k - 1])
    return before, line


def step_through(console: Console, read: Reader, record: dict[str, Any], game: Game,
                 seat: int, lang: str = DEFAULT_LANGUAGE) -> None:
    """Interactive stepping: the board as `seat` saw it after each move."""
    history, players = record["history"], record["players"]
    last, k = len(history), 0
    hidden = game.replay(history).hidden_steps(seat)  # what `seat` never saw
    print_header(console, record, game, lang)
    while True:
        state, line = position(game, history, k, players, hidden, lang)
        console.print(render_board(game.info.name, state.observation(seat), seat, lang))
        console.print(Text(gettext(N_("move {k}/{last}: {line}"), lang).format(
            k=k, last=last, line=line), style="bold"))
        if k == last:
            print_ending(console, state, players, lang)
        while True:
            try:
                answer = read(f"{gettext(KEYS, lang)} > ").strip().lower()
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
