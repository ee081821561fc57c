"""`tlatelolco play`: seats from the command line, the match runner, a move log, a saved record."""

from __future__ import annotations

import secrets
from datetime import datetime
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

from tlatelolco.bots import Bot, bot_names, make_bot, parse_spec
from tlatelolco.cli.boards import render_board
from tlatelolco.cli.boards.common import Say
from tlatelolco.cli.common import FAILURE, fail, move_line, print_result, seat_name
from tlatelolco.cli.human import HumanSeat, QuitGame, Reader
from tlatelolco.contract import Game, State
from tlatelolco.i18n import DEFAULT_LANGUAGE, N_, N_n, render
from tlatelolco.match import play_match
from tlatelolco.records import make_record, save_record
from tlatelolco.registry import load

HUMAN = "human"


def split_pairs(items: list[str], flag: str, example: str) -> list[tuple[str, str]]:
    """'KEY=VALUE' items as pairs; anything else is a usage error naming the flag."""
    pairs = []
    for item in items:
        key, eq, value = item.partition("=")
        if not eq or not key.strip() or not value.strip():
            fail(f"{flag} {item!r} is not KEY=VALUE; write it like {flag} {example}")
        pairs.append((key.strip(), value.strip()))
    return pairs


def player_count(options: dict[str, Any], players: int | None) -> int | None:
    """The player count given by `--players` or `--option num_players=…` (taken out of
    `options`), or None; both may be given only if they agree."""
    named = options.pop("num_players", None)
    if named is None:
        return players
    try:
        count = int(named)
    except ValueError:
        fail(f"--option num_players={named}: the player count is a whole number")
    if players is not None and players != count:
        fail(f"--players {players} and --option num_players={named} disagree; "
             "give the player count once")
    return count


def load_game(name: str, options: list[str], players: int | None) -> Game:
    """The configured game; option values stay strings for the game's own validation."""
    given: dict[str, Any] = dict(split_pairs(options, "--option", "num_players=3"))
    count = player_count(given, players)
    if count is not None:
        given["num_players"] = count
    try:
        return load(name, **given)
    except ValueError as err:
        fail(str(err))


def seat_specs(game: Game, seats: list[str]) -> list[str]:
    """One spec per seat: seat 0 human, the rest greedy where the game has it, else random."""
    n = game.num_players()
    allowed = ", ".join([HUMAN, *bot_names(game)])
    default = "greedy" if "greedy" in bot_names(game) else "random"
    specs = [HUMAN] + [default] * (n - 1)
    for key, spec in split_pairs(seats, "--seat", "1=greedy"):
        if not key.isdigit():
            fail(f"--seat {key}={spec}: the seat must be a number from 0 to {n - 1}")
        seat = int(key)
        if seat >= n:
            fail(f"--seat {key}={spec}: seat {seat} is out of range; {game.info.name} with "
                 f"{n} players has seats 0 to {n - 1}")
        specs[seat] = spec
    for seat, spec in enumerate(specs):
        if spec == HUMAN:
            continue
        name = parse_spec(spec)[0]
        if name == HUMAN:
            fail(f"--seat {seat}={spec}: a human seat takes no parameters; write {seat}=human")
        if name not in bot_names(game):
            fail(f"--seat {seat}={spec}: unknown player {name!r}; allowed: {allowed}")
        try:
            make_bot(spec, game, seat, 0)  # only to check the spec before the game starts
        except ValueError as err:
            fail(f"--seat {seat}={spec}: {err}")
    return specs


class MatchLog:
    """The on_action callback: prints and keeps a line per move, and tracks the true state.

    It replays every action on its own state, which gives the notation from the position before
    the move and the position to save if the game is stopped half-way.
    """

    def __init__(self, game: Game, players: list[str], console: Console,
                 lang: str = DEFAULT_LANGUAGE) -> None:
        self.players = players
        self.console = console
        self.lang = lang
        self.state = game.new_initial_state()
        self.lines: list[str] = []
        self.say = Say(lang)
        self.names = [seat_name(seat, players, lang) for seat in range(len(players))]

    def __call__(self, state: State, action: int, actor: int) -> None:
        before = self.state.clone()
        step = self.state.move_number()
        self.state.apply_action(action)
        # What no person at this terminal may see stays hidden (bots-only games show all).
        humans = [seat for seat, spec in enumerate(self.players) if spec == HUMAN]
        hidden = any(step in self.state.hidden_steps(seat) for seat in humans)
        line = move_line(before, action, self.players, hidden, self.lang)
        if not hidden:  # the move in words too
            words = render(before.describe_action(action), self.lang, self.names)
            if words != before.action_to_string(action):
                line += f"  · {words}"
        self.lines.append(line)
        self.console.print(line, markup=False, highlight=False)

    def undo(self, state: State) -> None:
        """A person took back their last move: so does the log."""
        self.state = state.clone()
        if self.lines:
            taken = self.lines.pop()
            self.console.print(self.say(N_("taken back: {line}"), line=taken.strip()),
                               markup=False, highlight=False)


def default_record_path(game: Game, seed: int) -> Path:
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    return Path("records") / f"{game.info.name}-{stamp}-{seed}.json"


def save(record: dict[str, Any], path: Path, lang: str = DEFAULT_LANGUAGE) -> None:
    record.setdefault("meta", {})["date"] = datetime.now().isoformat(timespec="seconds")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        save_record(record, path)
    except OSError as err:
        fail(Say(lang)(N_("cannot save the record to {path}: {error}"), path=path, error=err),
             FAILURE)


def run_play(game: Game, specs: list[str], seed: int | None, record_path: Path | None,
             console: Console, read: Reader | None = None, echo: bool = False,
             lang: str = DEFAULT_LANGUAGE) -> None:
    """Play one game to the end (or until a person quits) and save its record."""
    if seed is None:
        seed = secrets.randbelow(1_000_000)
    path = record_path or default_record_path(game, seed)
    log = MatchLog(game, specs, console, lang)
    bots: list[Bot | str] = [
        HumanSeat(game, seat, console=console, read=read, log=log.lines, echo=echo, lang=lang)
        if spec == HUMAN else spec for seat, spec in enumerate(specs)]
    say = Say(lang)
    seats = ", ".join(say(N_("seat {seat}"), seat=i) + f" {spec}" for i, spec in enumerate(specs))
    console.print(Text(say.n(N_n("{title}, {n} player, seed {seed}: {seats}",
                                 "{title}, {n} players, seed {seed}: {seats}"),
                             game.num_players(), title=say.word(game.info.title), seed=seed,
                             seats=seats), style="bold"))
    try:
        record = play_match(game, bots, seed, on_action=log, on_undo=log.undo)
    except (QuitGame, KeyboardInterrupt):
        record = make_record(log.state, specs, meta={"seed": seed})
        save(record, path, lang)
        console.print(Text(say.n(N_n("Game stopped after {n} move; the unfinished record is "
                                     "saved to {path}",
                                     "Game stopped after {n} moves; the unfinished record is "
                                     "saved to {path}"), log.state.move_number(), path=path),
                           style="yellow"))
        return
    viewer = specs.index(HUMAN) if HUMAN in specs else None  # nobody to call "you"
    view = log.state.observation(0 if viewer is None else viewer)
    console.print(render_board(game.info.name, view, viewer, lang))
    print_result(console, log.state, specs, lang)
    save(record, path, lang)
    console.print(Text(say(N_("Record saved to {path}"), path=path)))
