"""The terminal in Spanish: `--lang es` translates the boards, prompts, messages, the result
table and the rules page; move notation stays as typed (English), and English stays the
default."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from tests.grand_bazaar.positions import position, state_at
from typer.testing import CliRunner

import tlatelolco
from tlatelolco.cli.app import app
from tlatelolco.cli.boards import chance_label, render_board
from tlatelolco.cli.common import print_result, rules_page
from tlatelolco.cli.human import MOST_LISTED, HumanSeat
from tlatelolco.match import play_match
from tlatelolco.records import load_record
from tlatelolco.registry import list_games

runner = CliRunner()
SPANISH = "--lang", "es"


def invoke(*args: str, input: str | None = None, env: dict[str, str] | None = None) -> Any:
    return runner.invoke(app, list(args), input=input, env=env)


def drawn(game: str, state: Any, seat: int | None, lang: str, width: int = 80) -> str:
    console = Console(record=True, width=width, color_system=None)
    console.print(render_board(game, state.observation(0 if seat is None else seat), seat, lang))
    return console.export_text()


def test_a_whole_game_in_spanish(tmp_path: Path) -> None:
    path = tmp_path / "es.json"
    answers = ["99", "ayuda", "historial", "b r"] + ["1"] * 3000
    result = invoke("play", "grand_bazaar", "--players", "2", "--seat", "1=random",
                    "--seed", "5", "--record", str(path), *SPANISH,
                    input="\n".join(answers) + "\n")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Grand Bazaar, 2 jugadores, semilla 5: asiento 0 human, asiento 1 random" in out
    # the prompt, a bad number, the help and the log
    assert "asiento 0> " in out
    assert "no hay jugada 99; elige de 1 a 3" in out
    assert "Comandos: ayuda o help" in out
    # the log names the chance event in Spanish; `historial` shows it again
    assert sum(line.startswith("    1. carta de precio: reveal") for line in out.splitlines()) == 2
    # the notation stays as typed, the words around it are Spanish
    assert "asiento 0 (human): buy ruby  · asiento 0 (human) compró un rubí" in out
    # the board
    for words in ("zafiro", "esmeralda", "gema", "precio", "bazar", "quedan", "gemas",
                  "última carta de precio:", "cartas de precio restantes:", "jugador inicial",
                  "Tus jugadas, asiento 0:", "Le toca al asiento 0.", "(tú)",
                  "Fin de la partida: cada gema se pagó a 10 grands."):
        assert words in out, words
    # the result table
    for words in ("Puntuaciones finales", "asiento", "jugador", "puntos", "retorno",
                  "Registro guardado en"):
        assert words in out, words
    assert any(words in out for words in ("Ganador: asiento", "Victoria compartida: asiento",
                                          "Nadie ganó."))
    for english in ("Final scores", "Your moves", "seat 0>", "price card", "Record saved",
                    "start player", "there is no move", "Seat 0 to move", "Game over"):
        assert english not in out, english
    record, state = load_record(path)
    assert state.is_terminal()
    assert state.get_game().replay(record["history"][:1]).action_to_string(
        record["history"][1]) == "buy ruby"  # nothing was applied for the bad answers


def test_spanish_commands_quit_and_end_of_input(tmp_path: Path) -> None:
    quit_path, eof_path = tmp_path / "salir.json", tmp_path / "eof.json"
    result = invoke("play", "grand_bazaar", "--players", "2", "--seat", "1=random", "--seed",
                    "9", "--record", str(quit_path), *SPANISH, input="tablero\njugadas\nsalir\n")
    assert result.exit_code == 0, result.output
    assert result.output.count("Tus jugadas, asiento 0:") == 3  # shown, board, moves
    assert "Partida detenida tras 1 jugada; el registro sin terminar se guardó en" in \
        result.output
    assert load_record(quit_path)[0]["result"] is None
    result = invoke("play", "grand_bazaar", "--players", "2", "--seat", "1=random",
                    "--record", str(eof_path), *SPANISH, input="")
    assert "(fin de la entrada)" in result.output


BOARD_WORDS = {
    "grand_bazaar": (["ronda", "zafiro", "asiento", "gemas"], ["round", "sapphire", "seat"]),
    "aztec_market": (["El mercado azteca", "jugadores", "bolsa:", "monedas en la reserva",
                      "Sur", "mercancías"], ["Aztec Market", "bag:", "South", "goods"]),
    "axio": (["jugadores", "suministro general:", "pantalla:", "asiento", "rojo", "mínimo"],
             ["players", "general supply", "seat", "red", "lowest"]),
    "mexica": (["jugadores", "reserva:", "fichas Calpulli", "mar", "puente O-E, N-S",
                "asiento"], ["players", "supply:", "calpulli tiles", "lake", "seat"]),
}


@pytest.mark.parametrize("game", sorted(BOARD_WORDS))
@pytest.mark.parametrize("moves", [0, 40, None])
def test_every_board_in_spanish(game: str, moves: int | None) -> None:
    """Spanish words and no English ones, nothing cut short by a longer translation at 80
    columns; English stays the default."""
    loaded = tlatelolco.load(game, num_players=4 if game != "axio" else 3)
    history = play_match(loaded, ["random"] * loaded.num_players(), seed=4)["history"]
    state = loaded.replay(history if moves is None else history[:moves])
    spanish = drawn(game, state, 0, "es")
    wanted, unwanted = BOARD_WORDS[game]
    for words in wanted:
        assert words in spanish, (words, spanish)
    for words in unwanted:
        assert words not in spanish, (words, spanish)
    assert "…" not in spanish, spanish
    if moves is None:
        assert "Fin de la partida" in spanish or "fin de la partida" in spanish
    console = Console(record=True, width=80, color_system=None)
    console.print(render_board(game, state.observation(0), 0))
    assert console.export_text() == drawn(game, state, 0, "en")


def test_chance_has_a_spanish_name() -> None:
    assert chance_label("grand_bazaar", "es") == "carta de precio"
    assert chance_label("aztec_market", "es") == "bolsa"
    assert chance_label("no_such_game", "es") == "azar"
    assert chance_label("grand_bazaar") == "price card"


def test_a_team_victory_in_the_spanish_result_table() -> None:
    game = tlatelolco.load("aztec_market", num_players=4)
    state = game.replay(play_match(game, ["greedy"] * 4, seed=3)["history"])
    returns = state.returns()
    assert returns[0] == returns[2] and returns[1] == returns[3] and returns[0] != returns[1]
    console = Console(record=True, width=100, color_system=None)
    print_result(console, state, ["greedy"] * 4, "es")
    out = console.export_text()
    first = 0 if returns[0] > returns[1] else 1
    assert f"Ganadores: asiento {first} (greedy) y asiento {first + 2} (greedy)" in out
    assert "Puntuaciones finales" in out


def test_the_moves_list_and_a_hint_in_spanish() -> None:
    game = tlatelolco.load("aztec_market", num_players=2)
    state = game.new_initial_state()  # building the market: far more moves than are listed
    console = Console(record=True, width=100, color_system=None)
    HumanSeat(game, 0, console=console, lang="es").show_moves(state, MOST_LISTED)
    more = len(state.legal_actions()) - MOST_LISTED
    assert f"… y {more} más: escribe una jugada completa, o `jugadas` para verlas todas" in \
        console.export_text()
    # Seat 0 leads by 10 grands and trades after its rival: the bot settles the move at once.
    state = state_at(position(round=6, turn=1, hands=[[1, 0, 0], [0, 0, 2]], money=[40, 20],
                              supply=[9, 10, 8]))
    console = Console(record=True, width=100, color_system=None)
    HumanSeat(state.get_game(), 0, seed=1, console=console, lang="es").show_hint(state)
    shown = console.export_text()
    assert "Pista (" in shown and "0 iteraciones en" in shown
    assert "una jugada que lo que sabe el bot decide sin buscar:" in shown
    assert "sell sapphire  (0 visitas)" in shown


def test_rules_in_spanish() -> None:
    for game in list_games():
        spanish, english = rules_page(game, "es"), rules_page(game)
        assert spanish is not None and english is not None and spanish != english, game
    result = invoke("rules", "grand_bazaar", *SPANISH)
    assert result.exit_code == 0, result.output
    assert "Sois comerciantes medievales" in result.output
    assert "Sois comerciantes medievales" not in invoke("rules", "grand_bazaar",
                                                        "--lang", "en").output


def test_the_language_comes_from_LANG_unless_given() -> None:
    result = invoke("rules", "grand_bazaar", env={"LANG": "es_MX.UTF-8"})
    assert "Sois comerciantes medievales" in result.output
    result = invoke("rules", "grand_bazaar", "--lang", "en", env={"LANG": "es_MX.UTF-8"})
    assert "Sois comerciantes medievales" not in result.output


@pytest.mark.parametrize("command", [["play", "grand_bazaar"], ["rules", "grand_bazaar"]])
def test_an_unknown_language_is_refused(command: list[str]) -> None:
    result = invoke(*command, "--lang", "fr")
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit)
    lines = result.output.strip().splitlines()
    assert lines == ["error: --lang: no language 'fr'; the languages are en, es"]


def test_an_illegal_move_is_refused_with_the_rules_reason_in_spanish(tmp_path: Path) -> None:
    """GB-4: selling waits for round 2; the reason comes from the rules, in the player's
    language, and the moves stay in notation."""
    record = tmp_path / "r.json"
    result = invoke("play", "grand_bazaar", "-n", "2", "--seed", "4", "--record", str(record),
                    "--lang", "es", input="sell ruby\nsalir\n")
    assert result.exit_code == 0, result.output
    flat = " ".join(result.output.split())
    assert ("'sell ruby' no es válida ahora: solo se puede vender a partir de la ronda 2. "
            "Válidas ahora: buy sapphire, buy ruby, buy emerald") in flat
    english = invoke("play", "grand_bazaar", "-n", "2", "--seed", "4", "--record",
                     str(record), "--lang", "en", input="sell ruby\nquit\n")
    assert "'sell ruby' is not legal now: selling is allowed from round 2 on" in \
        " ".join(english.output.split())


def test_replay_tells_the_moves_in_spanish(tmp_path: Path) -> None:
    record = tmp_path / "r.json"
    invoke("play", "grand_bazaar", "-n", "2", "--seed", "4", "--record", str(record),
           "--lang", "es", input="buy ruby\nend\nsalir\n")
    shown = " ".join(invoke("replay", str(record), "--all", "--lang", "es").output.split())
    assert "asiento 0 (human): buy ruby · asiento 0 (human) compró un rubí por" in shown
    assert "Partida sin terminar: se detuvo tras" in shown
    refused = invoke("replay", str(record), "--lang", "fr")
    assert refused.exit_code == 2 and "the languages are en, es" in refused.output
