"""What several commands share: error exits, move log lines, results and the rules page."""

from __future__ import annotations

from importlib import resources
from typing import NoReturn

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from tlatelolco.cli.boards import chance_label
from tlatelolco.cli.boards.common import Say, joined
from tlatelolco.contract import State
from tlatelolco.i18n import DEFAULT_LANGUAGE, LANGUAGES, N_, N_n

USAGE_ERROR = 2  # bad game, option or seat: the same code Typer uses for a bad command line
FAILURE = 1  # a command that could not do its work (corrupt record, missing page)


def fail(message: str, code: int = USAGE_ERROR) -> NoReturn:
    """A red one-line error on stderr and a clean exit: people need the reason, not a traceback."""
    Console(stderr=True, soft_wrap=True).print(Text(f"error: {message}", style="bold red"))
    raise typer.Exit(code)


def bench_game(game: list[str] | None, players: int | None) -> tuple[str, int]:
    """The one game a server benchmark plays (default Grand Bazaar, 2 players); a one-line
    failure for several games or a player count the game does not take."""
    from tlatelolco.registry import load

    if game is not None and len(game) > 1:
        fail("bench server measures one game at a time; give --game once")
    name = game[0] if game else "grand_bazaar"
    count = 2 if players is None else players
    try:
        load(name, num_players=count)
    except ValueError as err:
        fail(str(err))
    return name, count


def language(lang: str | None, default: str) -> str:
    """The --lang of a command (`default`, from $LANG, when not given); an unknown one is a
    usage error that lists the languages there are."""
    if lang is None:
        return default
    if lang not in LANGUAGES:
        fail(f"--lang: no language {lang[:20]!r}; the languages are {', '.join(LANGUAGES)}")
    return lang


def seat_name(seat: int, players: list[str], lang: str = DEFAULT_LANGUAGE) -> str:
    say = Say(lang)
    if seat < len(players):
        return say(N_("seat {seat} ({player})"), seat=seat, player=players[seat])
    return say(N_("seat {seat}"), seat=seat)


def move_text(before: State, action: int, players: list[str], hidden: bool = False,
              lang: str = DEFAULT_LANGUAGE) -> str:
    """Who did what, e.g. `seat 0 (human): buy ruby` or `price card: reveal +1 -1 0`.

    Notation is taken from the state before the move because in some games it depends on the
    position; it stays as typed at the prompt, in every language. A `hidden` action (another
    seat's private draw) is shown without its outcome.
    """
    actor = before.current_player()
    game = before.get_game()
    if actor < 0:
        what = Say(lang)(N_("(hidden)")) if hidden else before.action_to_string(action)
        return f"{chance_label(game.info.name, lang)}: {what}"
    return f"{seat_name(actor, players, lang)}: {before.action_to_string(action)}"


def move_line(before: State, action: int, players: list[str], hidden: bool = False,
              lang: str = DEFAULT_LANGUAGE) -> str:
    """A numbered log line, e.g. `   12. seat 0 (human): buy ruby`."""
    return f"{before.move_number() + 1:>5}. {move_text(before, action, players, hidden, lang)}"


def winners(state: State) -> list[int]:
    """Seats with the best return (ties share the victory)."""
    returns = state.returns()
    best = max(returns)
    return [seat for seat, r in enumerate(returns) if r == best and r > 0]


def print_result(console: Console, state: State, players: list[str],
                 lang: str = DEFAULT_LANGUAGE) -> None:
    """Final scores and the winner or winners of a finished game."""
    say = Say(lang)
    table = Table(title=say(N_("Final scores")), title_justify="left")
    table.add_column(say(N_("seat")), justify="right")
    table.add_column(say(N_("player")))
    table.add_column(say(N_("score")), justify="right")
    table.add_column(say(N_("return")), justify="right")
    scores, returns, won = state.scores(), state.returns(), winners(state)
    for seat in range(len(scores)):
        style = "bold green" if seat in won else ""
        table.add_row(str(seat), players[seat] if seat < len(players) else "?",
                      f"{scores[seat]:g}", f"{returns[seat]:.3g}", style=style)
    console.print(table)
    sides = [team for team in state.get_game().teams() if team[0] in won]
    names = [joined(say, [seat_name(s, players, lang) for s in team]) for team in sides]
    if len(names) == 1:
        console.print(Text(say.n(N_n("Winner: {names}", "Winners: {names}"), len(sides[0]),
                                 names=names[0]), style="bold green"))
    elif names:
        console.print(Text(say(N_("Shared victory: {names}"), names="; ".join(names)),
                           style="bold green"))
    else:
        console.print(Text(say(N_("Nobody won.")), style="bold"))


def games_progress(console: Console) -> Progress:
    """The progress bar of commands that play many games (arena, report): one task per row,
    its description, done of total, elapsed and remaining time."""
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                    TimeElapsedColumn(), TimeRemainingColumn(), console=console)


def rules_page(game_name: str, lang: str = DEFAULT_LANGUAGE) -> str | None:
    """The project's rules page for a game in `lang` (package data: docs/ in English, docs/es/
    in Spanish), or None if it is not shipped yet."""
    folder = resources.files("tlatelolco") / "docs"
    page = folder / f"{game_name}.md" if lang == DEFAULT_LANGUAGE else folder / lang / (
        f"{game_name}.md")
    try:
        return page.read_text(encoding="utf-8")
    except (FileNotFoundError, NotADirectoryError):
        return None


def missing_rules_message(game_name: str, lang: str = DEFAULT_LANGUAGE) -> str:
    folder = "docs" if lang == DEFAULT_LANGUAGE else f"docs/{lang}"
    return Say(lang)(N_("no rules page for {game} yet: tlatelolco/{folder}/{game}.md is not "
                        "installed"), game=game_name, folder=folder)
