"""A person at the terminal, seated like any bot so the match runner treats every seat alike."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.columns import Columns
from rich.console import Console
from rich.markdown import Markdown
from rich.text import Text

from tlatelolco.bots.base import Bot
from tlatelolco.cli.boards import render_board
from tlatelolco.cli.boards.common import Say
from tlatelolco.cli.common import missing_rules_message, rules_page
from tlatelolco.contract import MAX_ACTION_TEXT, Game, IllegalActionError, State
from tlatelolco.i18n import DEFAULT_LANGUAGE, N_, gettext, in_words
from tlatelolco.match import TakeBack

Reader = Callable[[str], str]
MOST_LISTED = 40  # longer lists of legal moves are cut short (the rest by `moves`)

HELP = N_(
    "Type the number of a move from the list, or its notation (e.g. `{example}`). "
    "Short forms work too: {aliases}.\n"
    "Commands: help (this text), board (the board and moves again), moves (every legal move), "
    "log (the moves so far), rules (the rules page), hint (what a search bot would play, "
    "thinking 2 seconds on what this seat can see), undo (take back your last move of this "
    "turn, before anything is drawn and before another seat moves), quit (save the "
    "unfinished game and stop)."
)
HINT_SECONDS = 2.0
HINTS_SHOWN = 5
# the commands, by what they may be called in English and Spanish
COMMANDS = {
    "quit": ("quit", "exit", "q", "salir"),
    "undo": ("undo", "deshacer", "u"),
    "help": ("help", "h", "?", "ayuda"),
    "board": ("board", "tablero"),
    "moves": ("moves", "jugadas"),
    "log": ("log", "historial"),
    "hint": ("hint", "pista"),
    "rules": ("rules", "reglas"),
}


class QuitGame(Exception):
    """The person asked to stop; the caller saves the unfinished record."""


class HumanSeat(Bot):
    """Shows the seat's own observation and asks for a move until one is legal.

    Only `state.observation(self.seat)` is drawn, so a person sees what the seat may know and no
    more. Nothing is applied here: the runner applies the returned action to the real state.
    """

    name = "human"

    def __init__(self, game: Game, seat: int, seed: int | str | None = None, *,
                 console: Console | None = None, read: Reader | None = None,
                 log: Sequence[str] = (), echo: bool = False,
                 lang: str = DEFAULT_LANGUAGE) -> None:
        super().__init__(game, seat, seed)
        self.lang = lang
        self.say = Say(lang)
        self.console = console or Console()
        self.read = read or self.console.input
        self.log = log  # the match's log lines, shared with whoever writes them
        self.echo = echo  # repeat what was read when input is piped, so transcripts read well

    def step(self, state: State) -> int:
        self.show(state)
        while True:
            line = self.ask()
            word = line.strip().lower()
            if not word:
                continue
            command = next((c for c, names in COMMANDS.items() if word in names), None)
            if command == "quit":
                raise QuitGame
            if command == "undo":
                raise TakeBack
            if command == "help":
                self.console.print(self.help_text(state))
            elif command == "board":
                self.show(state)
            elif command == "moves":
                self.show_moves(state)
            elif command == "log":
                self.show_log()
            elif command == "hint":
                self.show_hint(state)
            elif command == "rules":
                self.show_rules()
            else:
                action = self.parse(state, line.strip())
                if action is not None:
                    return action

    def ask(self) -> str:
        try:
            line = self.read(self.say(N_("seat {seat}"), seat=self.seat) + "> ")
        except EOFError:
            self.console.print(Text(self.say(N_("(end of input)")), style="dim"))
            raise QuitGame from None
        if self.echo:
            self.console.print(line, markup=False, highlight=False)
        return line

    def parse(self, state: State, text: str) -> int | None:
        """The chosen legal action, or None after saying what is wrong."""
        legal = state.legal_actions()
        if text.isdigit():
            number = int(text)
            if 1 <= number <= len(legal):
                return legal[number - 1]
            self.error(self.say(N_("there is no move {number}; choose 1 to {count} or type a "
                                   "move (help lists the commands)"),
                                number=number, count=len(legal)))
            return None
        try:
            return state.string_to_action(text)
        except IllegalActionError as err:  # says what is wrong and what is legal
            if self.lang == DEFAULT_LANGUAGE or err.reason is None:
                self.error(str(err))
            else:  # the rules' reason in the player's language; the moves are notation
                self.error(self.say(N_("'{move}' is not legal now: {reason}. Legal now: "
                                       "{legal}"), move=text[:MAX_ACTION_TEXT],
                                    reason=in_words(err.reason, self.lang),
                                    legal=", ".join(state.legal_action_strings()[:24])))
            return None
        except ValueError as err:
            self.error(str(err))
            return None

    def error(self, message: str) -> None:
        self.console.print(Text(message, style="red"))

    def refused(self, message: str) -> None:
        """The runner's answer to an `undo` it cannot grant (an `N_` message)."""
        self.error(gettext(message, self.lang))

    def show(self, state: State) -> None:
        self.console.print(render_board(self.game.info.name, state.observation(self.seat),
                                        self.seat, self.lang))
        self.show_moves(state, MOST_LISTED)

    def show_moves(self, state: State, most: int | None = None) -> None:
        """The numbered legal moves; a long list (building a market: 160) is cut short."""
        legal = state.legal_actions()
        listed = legal if most is None else legal[:most]
        moves = [Text.assemble((f"{i:>2}", "bold cyan"), " ", state.action_to_string(a))
                 for i, a in enumerate(listed, 1)]
        self.console.print(Text(self.say(N_("Your moves, seat {seat}:"), seat=self.seat),
                                style="bold"))
        self.console.print(Columns(moves, padding=(0, 3)))
        if len(listed) < len(legal):
            self.console.print(Text(self.say(N_("… and {n} more: type a move in full, or "
                                                "`moves` to list them all"),
                                             n=len(legal) - len(listed)), style="dim"))

    def show_hint(self, state: State) -> None:
        """The moves a search from this seat's view likes best: how often it tried each and the
        share of victory it expects after it (ISMCTS where seats hide things, so a hint never
        uses what the seat cannot see)."""
        from tlatelolco.bots import make_bot, search_spec  # built only when asked for

        kind = search_spec(self.game)
        bot = make_bot(f"{kind}:time={HINT_SECONDS}", self.game, self.seat,
                       seed=self.rng.getrandbits(32))
        say = self.say
        with self.console.status(say(N_("thinking…"))):
            result = bot.search(state)  # type: ignore[attr-defined]
        self.console.print(Text(say(N_("Hint ({kind}, {n} iterations in {seconds} s):"),
                                    kind=kind, n=result.iterations,
                                    seconds=f"{result.seconds:.1f}"), style="bold"))
        if result.why == "only move":
            self.console.print("  " + say(N_("the only move: {move}"),
                                          move=state.action_to_string(result.action)),
                               markup=False, highlight=False)
        elif result.why == "settled":
            self.console.print("  " + say(N_("a move the bot's knowledge settles without "
                                             "searching:")), markup=False, highlight=False)
        for stats in result.actions[:HINTS_SHOWN]:
            self.console.print(Text.assemble(
                (f"  {stats.value:6.1%}", "bold green"), f"  {stats.text}",
                ("  " + say(N_("({n} visits)"), n=stats.visits), "dim")))

    def show_rules(self) -> None:
        name = self.game.info.name
        page = rules_page(name, self.lang)
        self.console.print(Markdown(page) if page is not None
                           else Text(missing_rules_message(name, self.lang)))

    def show_log(self) -> None:
        if not self.log:
            self.console.print(Text(self.say(N_("(no moves yet)")), style="dim"))
        for line in self.log:
            self.console.print(line, markup=False, highlight=False)

    def help_text(self, state: State) -> Text:
        legal = state.legal_actions()
        aliases = [f"{alias} = {state.action_to_string(a)}"
                   for a in legal for alias in state.action_aliases(a)[:1]]
        example = state.action_to_string(legal[0]) if legal else "?"
        return Text(self.say(HELP, example=example,
                             aliases="; ".join(aliases) or self.say(N_("none"))))


__all__ = ["HumanSeat", "QuitGame"]
