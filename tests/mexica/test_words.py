"""The game log in words: every kind of Mexica action told in English and Spanish, with what it
brings about (points, tokens spent, areas cut off, tiles leaving, the scorings).

`describe` must never fail for a legal action, so random games describe every action played,
and now and then every legal action, in both languages. The Spanish catalogue must translate
every message the game's sources mark, and the lobby's words for the game.
"""

from __future__ import annotations

import glob
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po
from tests.mexica.positions import COAST, ELEVEN, ELEVEN_CANALS, NS, act, position, state_at

import tlatelolco
from tlatelolco import i18n
from tlatelolco.chance import sample_chance
from tlatelolco.games.mexica import MexicaGame, MexicaState, words
from tlatelolco.games.mexica.actions import DRAW, K_MOVE_BRIDGE, decode
from tlatelolco.games.mexica.board import AXIS_NAMES, NAMES
from tlatelolco.i18n import Plural, render

SEATS = ["Ana", "Bo", "Cy"]
PACKAGE = Path(i18n.__file__).parent
CATALOGUE = PACKAGE / "locale" / "es" / "LC_MESSAGES" / "mexica.po"


def told(state: MexicaState, text: str, lang: str = "en") -> str:
    """The words for the move `text` (legal now) in `lang`."""
    action = state.string_to_action(text)
    return render(state.describe_action(action), lang, SEATS)


def new_state(num_players: int = 2) -> MexicaState:
    state = tlatelolco.load("mexica", num_players=num_players).new_initial_state()
    assert isinstance(state, MexicaState)
    return state


def drawn(num_players: int = 2) -> MexicaState:
    """A new game with its 8 part-1 tiles drawn (the smallest sizes first)."""
    state = new_state(num_players)
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    return state


# --- set-up ------------------------------------------------------------------------------------

def test_a_drawn_tile_is_told_with_its_count() -> None:
    state = new_state()
    assert render(state.describe_action(DRAW + 7 - 3), "en") == \
        "Calpulli tile 7 was drawn for part 1 (1 of 8)"
    state.apply_action(DRAW + 7 - 3)
    assert render(state.describe_action(DRAW + 3 - 3), "es") == \
        "Se sacó la ficha Calpulli 3 para la parte 1 (2 de 8)"


def test_placing_a_mexica() -> None:
    state = drawn()
    assert told(state, "start at I7") == "Ana placed their Mexica on the starting square I7"
    assert told(state, "start at I7", "es") == \
        "Ana colocó su Mexica en el cuadrado de comienzo I7"


# --- a turn ------------------------------------------------------------------------------------

def test_ending_the_turn_and_taking_a_token() -> None:
    state = state_at(position(2))
    assert told(state, "end") == "Ana ended the turn"
    assert told(state, "token") == "Ana took an action token"
    assert told(state, "token", "es") == "Ana tomó una ficha de acción"


def test_walking_on_land_and_over_a_bridge() -> None:
    state = state_at(position(2))  # seat 0 on I7
    assert told(state, "walk N") == "Ana walked north to I6"
    assert told(state, "walk N", "es") == "Ana caminó hacia el norte a I6"
    state = state_at(position(2, mexica=("E3", "K5"), canals=("E4",), bridges={"E4": NS}))
    assert told(state, "walk S") == "Ana stepped south onto the bridge at E4"
    state.apply_action(state.string_to_action("walk S"))
    assert told(state, "walk S") == "Ana stepped south off the bridge to E5"


def test_boat_and_teleport() -> None:
    state = state_at(position(2, mexica=("D10", "K5"), canals=COAST,
                              bridges={"D10": NS, "V8": NS}))
    assert told(state, "boat to V8") == "Ana went by boat to the bridge at V8 (1 AP)"
    state = state_at(position(2, canals=COAST, bridges={"D10": NS, "V8": NS}))
    assert told(state, "teleport C3") == "Ana teleported to C3 (5 AP)"
    assert told(state, "teleport V8") == "Ana teleported to the bridge at V8 (5 AP)"
    assert told(state, "teleport V8", "es") == "Ana se teletransportó al puente de V8 (5 AP)"


def test_canals_and_the_areas_they_cut_off() -> None:
    state = state_at(position(2, canals=("E3",)))
    assert told(state, "canal K5") == "Ana placed a canal tile on K5"
    # C4-D4 closes the corner C2, C3, D3 (B3 and B2 are lake, E3 a canal)
    assert told(state, "canal C4-D4") == \
        "Ana placed a double canal tile on C4 and D4, cutting off an area of 3 squares"
    assert told(state, "canal C4-D4", "es") == ("Ana colocó una ficha de canal doble en C4 y D4, "
                                                "separando un distrito de 3 cuadrados")


def test_bridges_placed_and_moved() -> None:
    state = state_at(position(2, canals=("E4",)))
    assert told(state, "bridge E4 N-S") == "Ana placed a bridge on E4 (north–south)"
    assert told(state, "bridge E4 W-E", "es") == "Ana colocó un puente en E4 (oeste–este)"
    state = state_at(position(2, canals=(*ELEVEN_CANALS, "C7"), bridges=ELEVEN))
    moves = [a for a in state.legal_actions() if decode(a)[0] == K_MOVE_BRIDGE]
    assert moves
    _, source, target, axis = decode(moves[0])
    words_of_axis = {"N-S": "north–south", "W-E": "west–east"}[AXIS_NAMES[axis]]
    assert render(state.describe_action(moves[0]), "en", SEATS) == \
        f"Ana moved the bridge on {NAMES[source]} to {NAMES[target]} ({words_of_axis})"


def test_buildings_and_first_place_in_a_district() -> None:
    state = state_at(position(2))
    assert told(state, "build 1 at K5") == "Ana built a building of 1 level at K5"
    assert told(state, "build 2 at K5") == "Ana built a building of 2 levels at K5"
    # a district of 5 in the north-west corner (tile on C2), Bo has 2 levels on D3
    district = {"canals": ("E3", "E4", "B4", "C5", "D5"), "tiles": {"C2": 5},
                "mexica": ("C3", "K6", "K7"), "buildings": {"D3": (1, 2)}}
    state = state_at(position(3, **district))
    assert told(state, "build 1 at C4") == "Ana built a building of 1 level at C4 in district 5"
    assert told(state, "build 2 at C4") == \
        "Ana built a building of 2 levels at C4 and ties for first place in district 5"
    assert told(state, "build 3 at C4") == \
        "Ana built a building of 3 levels at C4 and takes first place in district 5"
    assert told(state, "build 3 at C4", "es") == \
        "Ana construyó un edificio de 3 niveles en C4 y pasa al primer puesto del barrio 5"


def test_founding_tells_the_points_of_everyone_there() -> None:
    corner = ("E3", "E4", "B4", "C5", "D5")  # cuts off C2, C3, D3, C4, D4
    alone = state_at(position(3, canals=corner, mexica=("C3", "K6", "K7"), available=(5,)))
    assert told(alone, "found 5 at C4") == "Ana founded district 5 at C4 and scored 3 points"
    one = state_at(position(3, canals=corner, mexica=("C3", "D3", "K7"), available=(5,)))
    assert told(one, "found 5 at C4") == \
        "Ana founded district 5 at C4 and scored 3 points; Bo, also there, scored 2 points"
    assert told(one, "found 5 at C4", "es") == ("Ana estableció el barrio 5 en C4 y ganó 3 puntos; "
                                                "Bo, que también estaba allí, ganó 2 puntos")
    two = state_at(position(3, canals=corner, mexica=("C3", "D3", "D4"), available=(5,)))
    assert told(two, "found 5 at C2") == ("Ana founded district 5 at C2 and scored 3 points; "
                                          "Bo and Cy, also there, scored 2 points each")


def test_action_tokens_spent_on_an_action() -> None:
    state = state_at(position(2, ap=0, tokens=[2, 0], token_supply=10))
    assert told(state, "build 2 at K5") == \
        "Ana built a building of 2 levels at K5, spending 2 action tokens"
    state = state_at(position(2, ap=1, tokens=[2, 0], token_supply=10))
    assert told(state, "build 2 at K5", "es") == \
        "Ana construyó un edificio de 2 niveles en K5, gastando 1 ficha de acción"


def test_tiles_that_leave_the_game() -> None:
    """With the last canal placed, no area of exactly 12 or 13 squares can ever be made."""
    state = state_at(position(2, available=(12, 13), singles=1, doubles=0))
    assert told(state, "canal K5") == ("Ana placed a canal tile on K5. Calpulli tiles 12 and 13 "
                                       "leave the game: no area can take them")
    state = state_at(position(2, available=(13,), singles=1, doubles=0))
    assert told(state, "canal K5", "es") == ("Ana colocó una ficha de canal en K5. La ficha "
                                             "Calpulli 13 sale del juego: ningún distrito puede "
                                             "recibirla")


def test_the_end_of_each_part_tells_the_scoring() -> None:
    """A round in which nobody acted ends the part; both Mexica stand on starting squares."""
    state = state_at(position(2, player=1, idle=True))
    assert told(state, "end") == ("Bo ended the turn. Part 1 is over. First scoring: Ana +5 and "
                                  "Bo +5. Part 2 begins")
    assert told(state, "end", "es") == ("Bo terminó su turno. Termina la parte 1. Primera ronda "
                                        "de puntuación: Ana +5 y Bo +5. Empieza la parte 2")
    state = state_at(position(3, player=2, idle=True, part=2))
    assert told(state, "end") == ("Cy ended the turn. Part 2 is over. Second scoring: Ana +5, "
                                  "Bo +5 and Cy +5. The game is over")


def test_words_leave_the_state_as_it_was_and_fall_back_to_the_notation() -> None:
    state = state_at(position(2))
    before = state.city.key()
    for action in state.legal_actions():
        state.describe_action(action)
    assert state.city.key() == before
    illegal = act(state, "found 13 at C2")
    assert state.illegal_reason(illegal) is not None
    assert render(state.describe_action(illegal), "en") == "found 13 at C2"


# --- every action of random games, in both languages -------------------------------------------

def translated_ids() -> set[str]:
    with CATALOGUE.open("rb") as f:
        catalogue = read_po(f, locale="es")
    out = set()
    for message in catalogue:
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if message.id and all(strings):
            out.add(message.id if isinstance(message.id, str) else message.id[0])
    return out


def templates(message: Any) -> Iterator[str]:
    """Every template in a message, nested ones included."""
    template, fields = message
    yield template.forms[0] if isinstance(template, Plural) else template
    for value in fields.values():
        if isinstance(value, tuple) and len(value) == 2 and isinstance(value[1], dict):
            yield from templates(value)


def check_words(state: MexicaState, action: int, known: set[str]) -> None:
    message = state.describe_action(action)
    for template in templates(message):
        assert template in known or template == "{text}", f"{template!r} is not translated"
    for lang in ("en", "es"):
        text = render(message, lang, SEATS[:state.city.num_players])
        assert text.strip(), (state.action_to_string(action), lang)
        assert "{" not in text and "}" not in text, text


@pytest.mark.parametrize("num_players", [2, 3, 4])
@pytest.mark.parametrize("seed", range(8))
def test_every_action_of_random_games_is_told(num_players: int, seed: int) -> None:
    """Random play (ending the turn less often, so that turns do something) to the end; every
    action played is told, and every legal action now and then (`rules.why_illegal` aside,
    `describe` plays the action on a copy: a crash there would show)."""
    rng = random.Random(seed * 10 + num_players)
    known = translated_ids()
    state = new_state(num_players)
    step = 0
    while not state.is_terminal():
        if state.is_chance_node():
            action = sample_chance(state, rng)
        else:
            legal = state.legal_actions()
            if step % 97 == 0:
                for other in legal:
                    check_words(state, other, known)
            doing = [a for a in legal if a != 0]
            action = rng.choice(doing) if doing and rng.random() < 0.85 else legal[0]
        check_words(state, action, known)
        state.apply_action(action)
        step += 1


# --- the catalogue and the lobby ---------------------------------------------------------------

def test_the_spanish_catalogue_translates_every_marked_message() -> None:
    known = translated_ids()
    marked = set()
    for pattern in i18n.DOMAINS["mexica"]:
        for path in glob.glob(str(PACKAGE / pattern)):
            js = path.endswith(".js")
            keywords = i18n.JS_KEYWORDS if js else i18n.PYTHON_KEYWORDS
            for _, message, _, _ in extract_from_file("javascript" if js else "python", path,
                                                      keywords=keywords):
                marked.add(message if isinstance(message, str) else message[0])
    assert len(marked) > 150  # the renderer's words are found, not only the log's
    assert marked - known == set()


def test_the_lobby_describes_mexica_in_both_languages() -> None:
    info = MexicaGame.info
    assert info.summary and info.minutes[0] < info.minutes[1]
    (players,) = info.options
    assert (players.label, players.about) == ("Players", "How many people play: from 2 to 4.")
    assert i18n.gettext(players.about, "es") == "Cuántas personas juegan: de 2 a 4."
    assert i18n.gettext(info.summary, "es").startswith("Cava canales para dividir la isla")
    assert "MX-" not in info.summary + players.about  # no rule ids for players
    assert i18n.gettext(words.DIRECTION_NAMES[0], "es") == "norte"
