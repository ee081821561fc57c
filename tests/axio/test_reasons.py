"""Axio's reasons for an illegal move are English text (as every caller expects) and messages
the web page shows in Spanish too; tests named by the rule ids of the digest they cite."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from tests.reasons import spanish_of

import tlatelolco
from tlatelolco import IllegalActionError
from tlatelolco.chance import sample_chance
from tlatelolco.games.axio import AxioGame, AxioState, rules
from tlatelolco.games.axio.table import (
    DRAW,
    NAMES,
    NUM_ACTIONS,
    OVER,
    PLACING,
    START,
    Table,
    place_action,
)
from tlatelolco.games.axio.tiles import EMPTY, NUM_TILES, load_tiles
from tlatelolco.i18n import Reason, in_words

TILES = load_tiles()
FULL = next(i for i, tile in enumerate(TILES) if EMPTY not in tile)
WITH_EMPTY = next(i for i, tile in enumerate(TILES) if EMPTY in tile)
GAMES_PER_COUNT = 3
POSITIONS_PER_GAME = 25  # x 3 games x 4 player counts: 300 positions
RANDOM_ACTIONS = 150  # of the 357,000-odd action numbers, per position
# every reason Axio builds, by its English template
TEMPLATES = {
    "actions are numbered 0 to {last}",
    "the game is over",
    "a tile must be placed now",
    "the start square is being laid out",
    "that is not a possible outcome of this draw",
    "{cell} already holds a tile",
    "{cell} does not touch the display along an edge",
    "your tile has an empty corner: name a colour for it ({notation})",
    "your tile has no empty corner to name a colour for",
}


def positions(num_players: int, seed: int) -> list[AxioState]:
    """Copies of the states of one random game, start to end (the terminal one included)."""
    rng = random.Random(seed)
    state = tlatelolco.load("axio", num_players=num_players).new_initial_state()
    seen = [state.clone()]
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        seen.append(state.clone())
    return seen


def actions_to_try(state: AxioState, rng: random.Random) -> list[int]:
    """A random sample of the action space, plus the actions near the position that are the
    likeliest to be refused: every draw, every start tile, cells on and around the display."""
    near = {(x + dx, y + dy) for x, y in state.table.cells
            for dx in (-2, -1, 0, 1, 2) for dy in (-2, -1, 0, 1, 2)}
    placements = [place_action(x, y, rng.randrange(4), name)
                  for x, y in sorted(near) for name in range(NAMES)]
    return [-1, NUM_ACTIONS, NUM_ACTIONS + 7, *rng.sample(range(NUM_ACTIONS), RANDOM_ACTIONS),
            *range(DRAW, DRAW + NUM_TILES), *range(START, START + 4 * NUM_TILES, 3),
            *rng.sample(placements, min(len(placements), 200))]


def test_every_reason_is_a_message_that_reads_in_spanish() -> None:
    """Over 300 positions of random games with 1 to 4 players, every refused action's reason is
    a `Reason` whose message renders to its English, and to Spanish without a field left."""
    templates: Counter[str] = Counter()
    differs = total = 0
    for num_players in (1, 2, 3, 4):
        for game in range(GAMES_PER_COUNT):
            rng = random.Random(num_players * 100 + game)
            states = positions(num_players, rng.randrange(2**32))
            picked = rng.sample(states, min(len(states), POSITIONS_PER_GAME - 1))
            for state in [*picked, states[-1]]:
                for action in actions_to_try(state, rng):
                    why = state.illegal_reason(action)
                    if why is None:
                        continue
                    spanish = spanish_of(why)
                    templates[str(why.message[0])] += 1
                    differs += spanish != str(why)
                    total += 1
    assert set(templates) == TEMPLATES, f"reasons never met: {TEMPLATES - set(templates)}"
    share = differs / total
    print(f"\n{total} reasons, {share:.1%} read differently in Spanish; by template: "
          f"{dict(templates)}")
    assert share == 1.0


# --- reasons built on purpose ------------------------------------------------------------------


def table(cells: dict[tuple[int, int], tuple[int, int]], hand: int) -> Table:
    """A two-player position in which seat 0 holds `hand` and may place it next to `cells`."""
    t = rules.set_up(2)
    for cell, (tile, rotation) in cells.items():
        rules.put_on_display(t, cell, tile, rotation)
        t.pool.remove(tile)
    t.hands[0] = hand
    t.pool.remove(hand)
    t.stack_left = [11, 11]
    t.phase, t.player = PLACING, 0
    return t


def placing(hand: int) -> AxioState:
    other = next(i for i in range(NUM_TILES) if i not in (hand, FULL))
    return AxioState(AxioGame(), TILES, table({(0, 0): (other, 0)}, hand))


def both(state: AxioState, action: int) -> tuple[str, str]:
    why = state.illegal_reason(action)
    assert isinstance(why, Reason)
    return str(why), in_words(why, "es")


def test_ax3_the_cell_must_be_free() -> None:
    assert both(placing(FULL), place_action(0, 0, 0, 0)) == (
        "(0,0) already holds a tile", "la casilla (0,0) ya tiene una ficha")


def test_ax3_the_cell_must_touch_the_display_along_an_edge() -> None:
    assert both(placing(FULL), place_action(1, 1, 2, 0)) == (
        "(1,1) does not touch the display along an edge",
        "la casilla (1,1) no toca la pantalla por ningún lado")


def test_ax3_an_empty_corner_needs_a_named_colour() -> None:
    assert both(placing(WITH_EMPTY), place_action(1, 0, 0, 0)) == (
        "your tile has an empty corner: name a colour for it (empty=<colour>)",
        "tu ficha tiene una esquina vacía: nombra un color para ella (empty=<colour>)")
    assert both(placing(FULL), place_action(-1, 0, 3, 2)) == (
        "your tile has no empty corner to name a colour for",
        "tu ficha no tiene ninguna esquina vacía a la que nombrar un color")


def test_ax3_a_tile_is_placed_not_drawn_on_a_turn() -> None:
    assert both(placing(FULL), DRAW + 5) == (
        "a tile must be placed now", "ahora hay que colocar una ficha")


def test_ax2_the_start_square_is_a_chance_event() -> None:
    state = tlatelolco.load("axio").new_initial_state()
    assert both(state, place_action(2, 0, 0, 0)) == (
        "the start square is being laid out", "se está colocando el cuadrado inicial")
    forced = next(a for a, p in state.chance_outcomes()
                  if EMPTY in TILES[(a - START) // 4])  # turned to the centre: one turn only
    wrong = START + (forced - START) // 4 * 4 + ((forced - START) % 4 + 1) % 4
    assert both(state, wrong) == ("that is not a possible outcome of this draw",
                                  "ese no es un resultado posible de este robo")


def test_ax5_nothing_is_played_once_the_game_is_over() -> None:
    t = table({(0, 0): (FULL, 0)}, WITH_EMPTY)
    t.phase = OVER
    assert both(AxioState(AxioGame(), TILES, t), place_action(1, 0, 0, 1)) == (
        "the game is over", "la partida ha terminado")


@pytest.mark.parametrize("action", [-1, NUM_ACTIONS])
def test_action_numbers_outside_the_space(action: int) -> None:
    assert both(placing(FULL), action) == (
        f"actions are numbered 0 to {NUM_ACTIONS - 1}",
        f"las acciones van numeradas del 0 al {NUM_ACTIONS - 1}")


def test_callers_still_read_english() -> None:
    """The contract's error message quotes the reason in English, byte for byte."""
    with pytest.raises(IllegalActionError, match=r"is not legal: \(0,0\) already holds a tile\. "):
        placing(FULL).apply_action(place_action(0, 0, 0, 0))
