"""Axio's log in words (games/axio/words.py), in English and Spanish, and the lobby's metadata."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tlatelolco
from tlatelolco.bots.greedy.axio import AxioGreedy
from tlatelolco.chance import sample_chance
from tlatelolco.games.axio import AxioGame, AxioState, rules
from tlatelolco.games.axio.table import (
    DEAL,
    DRAW,
    DRAW_EXTRA,
    DRAW_STACK,
    NUM_ACTIONS,
    PLACING,
    START,
    place_action,
)
from tlatelolco.games.axio.tiles import EMPTY, load_tiles
from tlatelolco.i18n import gettext, render

RED, GREEN, BLUE, ORANGE, PURPLE = range(5)
NAMES = ["Ana", "Bo", "Cy", "Di"]
HAND, HAND_EMPTY = 5, 6
# Tiles made for these tests: the display's tiles show one colour each, the hands mix them.
TILES = ((RED,) * 4, (RED,) * 4, (RED,) * 4, (GREEN,) * 4, (RED,) * 4,
         (RED, BLUE, ORANGE, GREEN), (EMPTY, BLUE, ORANGE, GREEN), *load_tiles()[7:])
# The start square (tiles 0..3) and tile 4 east of its top-right tile. A tile at (2,0) then
# meets red, red and green at its top-left point and green at its bottom-left point.
DISPLAY = {(0, 1): 0, (1, 1): 1, (1, 0): 3, (0, 0): 2, (2, 1): 4}
GAMES_PER_COUNT = 30  # x 4 player counts, each action told in both languages


def position(phase: int = PLACING, player: int = 0, hand: int = HAND, **fields: object
             ) -> AxioState:
    """Two players; `player` holds `hand` (or is about to draw, in a draw phase)."""
    t = rules.set_up(2)
    for cell, tile in DISPLAY.items():
        rules.put_on_display(t, cell, tile, 0)
        t.pool.remove(tile)
    if phase == PLACING:
        t.hands[player] = hand
        t.pool.remove(hand)
    t.stack_left = [10, 10]
    t.phase, t.player = phase, player
    for name, value in fields.items():
        setattr(t, name, value)
    return AxioState(AxioGame(num_players=2), TILES, t)


def told(state: AxioState, action: int, lang: str = "en") -> str:
    return render(state.describe_action(action), lang, NAMES)


def test_a_start_tile_says_where_it_goes_and_how_it_is_turned() -> None:
    state = tlatelolco.load("axio").new_initial_state()
    assert told(state, START + 0 * 4 + 1) == (
        "The start square gets red/green/blue/orange at (0,1), turned 90° clockwise")
    assert told(state, START + 0 * 4 + 1, "es") == (
        "El cuadrado inicial recibe la ficha rojo/verde/azul/naranja en (0,1), "
        "girada 90° en sentido horario")
    assert told(state, START + 0 * 4) == (
        "The start square gets red/green/blue/orange at (0,1), not turned")
    tiles = load_tiles()
    gap = next(i for i, tile in enumerate(tiles) if EMPTY in tile)
    forced = next(a for a, _ in state.chance_outcomes() if (a - START) // 4 == gap)
    assert told(state, forced).endswith("at (0,1), its empty corner turned to the centre")


@pytest.mark.parametrize(("phase", "english", "spanish"), [
    (DEAL, "Bo draws a first tile from their stack: red/blue/orange/green",
     "Bo roba una primera ficha de su pila: rojo/azul/naranja/verde"),
    (DRAW_STACK, "Bo draws a tile from their stack: red/blue/orange/green",
     "Bo roba una ficha de su pila: rojo/azul/naranja/verde"),
    (DRAW_EXTRA, "Bo draws a tile from the general supply for an extra turn: "
     "red/blue/orange/green",
     "Bo roba una ficha del suministro general para un turno extra: rojo/azul/naranja/verde"),
])
def test_a_draw_says_where_the_tile_comes_from(phase: int, english: str, spanish: str) -> None:
    state = position(phase, player=1)
    assert state.legal_actions()  # a chance node drawing for seat 1
    assert told(state, DRAW + HAND) == english
    assert told(state, DRAW + HAND, "es") == spanish


def test_a_placement_says_what_it_scores() -> None:
    state = position()
    scoring = place_action(2, 0, 0, 0)
    assert told(state, scoring) == ("Ana places red/blue/orange/green at (2,0), not turned, "
                                    "and scores 2 points in red and 1 point in green")
    assert told(state, scoring, "es") == (
        "Ana coloca la ficha rojo/azul/naranja/verde en (2,0), sin girar, "
        "y obtiene 2 puntos para el rojo y 1 punto para el verde")
    # turned by 180°: orange and blue meet only red and green, red and green meet nothing
    assert told(state, place_action(2, 0, 2, 0)) == (
        "Ana places red/blue/orange/green at (2,0), turned 180° clockwise, and scores nothing")
    state.apply_action(scoring)
    assert state.table.scores[0] == [2, 1, 0, 0, 0]  # what the words said


def test_a_colour_named_for_the_empty_corner_is_told() -> None:
    state = position(hand=HAND_EMPTY)
    action = place_action(2, 0, 0, 1 + RED)
    assert told(state, action) == (
        "Ana places –/blue/orange/green at (2,0), not turned, names red for the empty corner "
        "and scores 2 points in red and 1 point in green")
    assert told(state, action, "es") == (
        "Ana coloca la ficha –/azul/naranja/verde en (2,0), sin girar, nombra el rojo para la "
        "esquina vacía y obtiene 2 puntos para el rojo y 1 punto para el verde")
    assert told(state, place_action(-1, 0, 0, 1 + PURPLE)).endswith(
        "names purple for the empty corner and scores nothing")


def test_axio_an_extra_turn_and_an_empty_supply_are_told() -> None:
    scores = [[11, 11, 3, 3, 3], [0] * 5]
    action = place_action(2, 0, 0, 0)
    state = position(scores=[s[:] for s in scores])
    assert told(state, action) == (
        "Ana places red/blue/orange/green at (2,0), not turned, and scores 1 point in red and "
        "1 point in green. AXIO! red and green reach 12")
    assert told(state, action, "es") == (
        "Ana coloca la ficha rojo/azul/naranja/verde en (2,0), sin girar, y obtiene 1 punto "
        "para el rojo y 1 punto para el verde. ¡AXIO! rojo y verde llegan a 12")
    single = position(scores=[[11, 0, 0, 0, 0], [0] * 5], supply_left=0, in_extra=True)
    assert told(single, action) == (
        "Extra turn: Ana places red/blue/orange/green at (2,0), not turned, and scores 1 point "
        "in red and 1 point in green. AXIO! red reaches 12, but the general supply is empty: "
        "no extra turn")
    assert told(single, action, "es") == (
        "Turno extra: Ana coloca la ficha rojo/azul/naranja/verde en (2,0), sin girar, y "
        "obtiene 1 punto para el rojo y 1 punto para el verde. ¡AXIO! rojo llega a 12, pero "
        "el suministro general está vacío: no hay turno extra")
    state.apply_action(action)
    assert state.table.extra_taken[0] == 2 and state.table.scores[0][:2] == [12, 12]


def test_an_action_that_makes_no_sense_now_is_told_by_its_notation() -> None:
    state = position()
    assert told(state, DRAW + 9) == state.action_to_string(DRAW + 9)
    assert told(state, NUM_ACTIONS + 5) == state.action_to_string(NUM_ACTIONS + 5)


def check_told(state: AxioState, action: int) -> str:
    """The action's words in both languages (non-empty, every field filled); the English."""
    english = ""
    for lang in ("en", "es"):
        text = told(state, action, lang)
        assert text.strip() and "{" not in text and "}" not in text, (lang, text)
        english = english or text
    return english


@pytest.mark.parametrize("num_players", [1, 2, 3, 4])
@settings(max_examples=GAMES_PER_COUNT, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**64 - 1))
def test_every_action_of_random_games_is_told(num_players: int, seed: int) -> None:
    """Every action played (chance outcomes, and placements half random, half greedy so that
    colours reach 12 now and then) is told in both languages and agrees with the engine: a
    placement scores nothing exactly when the board stays as it was, AXIO! exactly when a
    colour reaches 12. An action that is not legal now is told without failing too."""
    rng = random.Random(seed)
    game = tlatelolco.load("axio", num_players=num_players)
    bots = [AxioGreedy(game, seat, seed) for seat in range(num_players)]
    state = game.new_initial_state()
    assert isinstance(state, AxioState)
    while not state.is_terminal():
        chance = state.is_chance_node()
        if chance:
            action = sample_chance(state, rng)
        elif rng.random() < 0.5:
            action = bots[state.current_player()].step(state)
        else:
            action = rng.choice(state.legal_actions())
        check_told(state, rng.randrange(NUM_ACTIONS))
        english = check_told(state, action)
        t = state.table
        seat, extra_turn = t.player, t.in_extra
        before, extras = t.scores[seat][:], t.extra_taken[seat]
        state.apply_action(action)
        if not chance:
            who = ("Extra turn: " if extra_turn else "") + f"{NAMES[seat]} places "
            assert english.startswith(who)
            assert ("scores nothing" in english) == (state.table.scores[seat] == before)
            assert ("AXIO!" in english) == (state.table.extra_taken[seat] > extras)


def test_the_lobby_metadata_is_filled_and_translated() -> None:
    info = AxioGame.info
    assert info.summary and info.minutes == (15, 30)
    assert gettext(info.summary, "es").startswith("Coloca fichas cuadradas")
    labels = {o.name: (gettext(o.label, "es"), gettext(o.about, "es")) for o in info.options}
    assert labels["num_players"][0] == "Jugadores"
    assert labels["tiles"][0] == "Juego de fichas"
    for option in info.options:
        assert option.about and "AX-" not in option.about
        assert gettext(option.about, "es") != option.about
