"""The engine's reasons for an illegal move are `Reason`s: the same English text as ever, and a
message the web page shows in Spanish too (rule ids from the Mexica digest)."""

from __future__ import annotations

import random

import pytest
from tests.mexica.positions import NS, act, play, position, sq, state_at
from tests.reasons import spanish_of

import tlatelolco
from tlatelolco.chance import sample_chance
from tlatelolco.games.mexica import MexicaState, placement, rules
from tlatelolco.games.mexica.actions import (
    BOAT,
    BRIDGE,
    BUILD,
    CANAL,
    DOUBLE,
    DRAW,
    END,
    FOUND,
    MOVE_BRIDGE,
    NUM_ACTIONS,
    START,
    TELEPORT,
    TOKEN,
    WALK,
)
from tlatelolco.games.mexica.board import DIRECTIONS, NUM_SQUARES
from tlatelolco.games.mexica.city import PLAYING
from tlatelolco.games.mexica.components import SIZES
from tlatelolco.i18n import Reason, in_words

# Every kind's range of action numbers; the few small ranges are tried whole, the big ones
# sampled (moving a bridge alone has 2 * 368 * 368 numbers).
RANGES = ((END, WALK), (WALK, START), (START, CANAL), (CANAL, DOUBLE), (DOUBLE, BRIDGE),
          (BRIDGE, MOVE_BRIDGE), (MOVE_BRIDGE, BOAT), (BOAT, TELEPORT), (TELEPORT, BUILD),
          (BUILD, FOUND), (FOUND, DRAW), (DRAW, NUM_ACTIONS))
PER_RANGE = 25  # about 300 action numbers per position
SNAPSHOT_EVERY = 12  # moves between the positions examined: ~100 per random game
SEEDS = {2: (1, 2), 3: (3,), 4: (4,)}


def sample(rng: random.Random) -> list[int]:
    """Action numbers to ask about: out of range at both ends, then some of every kind."""
    actions = [-1, NUM_ACTIONS, NUM_ACTIONS + 10**6]
    for low, high in RANGES:
        span = range(low, high)
        actions += span if len(span) <= PER_RANGE else rng.sample(span, PER_RANGE)
    return actions


def positions(num_players: int, seed: int) -> list[MexicaState]:
    """Every set-up position and every `SNAPSHOT_EVERY`th one of a seeded random game, and
    its end."""
    rng = random.Random(seed)
    state = tlatelolco.load("mexica", num_players=num_players).new_initial_state()
    assert isinstance(state, MexicaState)
    seen: list[MexicaState] = []
    moves = 0
    while not state.is_terminal():
        if state.city.phase != PLAYING or moves % SNAPSHOT_EVERY == 0:
            seen.append(state.clone())
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        moves += 1
    return [*seen, state]


@pytest.mark.parametrize("num_players", sorted(SEEDS))
def test_every_reason_is_a_message_with_its_spanish(num_players: int) -> None:
    """For any action number in any position: a reason is a `Reason` whose English is its text,
    and whose Spanish is filled in and (but for a rare borrowed word) differs from it."""
    rng = random.Random(num_players)
    templates: set[str] = set()
    checked = differs = 0
    for seed in SEEDS[num_players]:
        for state in positions(num_players, seed):
            for action in sample(rng):
                why = state.illegal_reason(action)
                if why is None:
                    continue
                es = spanish_of(why)
                templates.add(str(why.message[0]))
                checked += 1
                differs += es != str(why)
            for square in range(NUM_SQUARES):  # the quick test agrees with the reason
                assert placement.can_dig(state.city, square) == \
                    (placement.why_not_canal(state.city, square) is None)
    share = differs / checked
    print(f"\n{num_players} players: {checked} reasons from {len(templates)} templates, "
          f"{share:.1%} differ in Spanish")
    assert checked > 10_000 and len(templates) >= 25
    assert share >= 0.95


def test_the_reasons_name_directions_by_the_letters_of_the_notation() -> None:
    assert "".join(rules.DIRECTION_LETTERS) == DIRECTIONS


def spanish(state: tlatelolco.State, text: str) -> tuple[str, str]:
    """Why the move `text` is illegal now, in English and in Spanish."""
    why = state.illegal_reason(act(state, text))
    assert isinstance(why, Reason), f"{text} is legal"
    return str(why), in_words(why, "es")


def test_out_of_range_actions_are_explained_in_spanish() -> None:
    state = state_at(position(2))
    why = state.illegal_reason(NUM_ACTIONS)
    assert isinstance(why, Reason)
    assert in_words(why, "es") == f"las acciones van numeradas del 0 al {NUM_ACTIONS - 1}"


def test_mx2_set_up_reasons_in_spanish() -> None:
    """MX-2: the tiles are drawn first, then each Mexica goes on a free starting square."""
    state = tlatelolco.load("mexica", num_players=2).new_initial_state()
    assert in_words(state.illegal_reason(END), "es") == \
        "se están sacando las fichas Calpulli de la parte 1"  # type: ignore[arg-type]
    for size in (3, 3, 4, 5, 6, 7, 8, 9):
        state.apply_action(DRAW + size - SIZES[0])
    assert spanish(state, "start at K5") == (
        "K5 is not a starting square (I7, H8, J8, I9)",
        "K5 no es un cuadrado de comienzo (I7, H8, J8, I9)")
    state.apply_action(START + sq("I7"))
    assert spanish(state, "start at I7")[1] == "ya hay un Mexica en I7"


def test_mx4_what_an_action_costs_in_spanish() -> None:
    """MX-4: the AP of the turn and the tokens held pay for an action; at most 2 tokens a
    turn."""
    state = state_at(position(2, ap=2, tokens=[1, 0]))
    assert spanish(state, "teleport C3") == (
        "it costs 5 AP and you have 2 AP and 1 action tokens",
        "cuesta 5 AP y tienes 2 AP más 1 AP en fichas de acción")
    state = state_at(position(2, taken=2))
    assert in_words(state.illegal_reason(TOKEN), "es") == \
        "se pueden tomar como mucho 2 fichas de acción por turno"  # type: ignore[arg-type]
    state = state_at(position(2, token_supply=0))
    assert in_words(state.illegal_reason(TOKEN), "es") == \
        "la reserva de fichas de acción está vacía"  # type: ignore[arg-type]


def test_mx5_no_canal_on_the_palace_or_a_calpulli_tile_in_spanish() -> None:
    state = state_at(position(2, tiles={"C2": 5}))
    assert spanish(state, "canal J8") == ("J8 is a palace square",
                                          "J8 es un cuadrado de palacio")
    assert spanish(state, "canal C2")[1] == "en C2 hay una ficha Calpulli"


def test_mx6_bridge_reasons_in_spanish() -> None:
    """MX-6: on a canal tile, never the lake, with dry land at both ends of its axis."""
    state = state_at(position(2, canals=("K5", "K6")))
    assert spanish(state, "bridge A1 N-S")[1] == \
        "A1 es mar; los puentes solo pueden colocarse en fichas de canal"
    assert spanish(state, "bridge K5 N-S") == (
        "the squares north and south of K5 are not both dry land",
        "los cuadrados al norte y sur de K5 no son ambos tierra seca")


def test_mx7_walking_and_the_first_turn_in_spanish() -> None:
    """MX-7: buildings are obstacles, and in a first turn no rival Mexica may be blocked."""
    state = state_at(position(2, buildings={"H7": (1, 1)}))
    assert spanish(state, "walk W") == ("your Mexica cannot step W from I7",
                                        "tu Mexica no puede dar un paso hacia el O desde I7")
    state = state_at(position(2, first_turn=True))
    play(state, "canal G8", "build 1 at H7")
    assert spanish(state, "build 1 at H9")[1] == \
        "en tu primer turno no puedes dejar a un Mexica rival sin ningún cuadrado al que moverse"


def test_mx7_ruling_a_mexica_on_a_bridge_builds_nothing_in_spanish() -> None:
    state = state_at(position(2, canals=("I6",), bridges={"I6": NS}, mexica=("I6", "H8")))
    assert spanish(state, "build 1 at H6") == (
        "your Mexica stands on a bridge, which is in no area",
        "tu Mexica está sobre un puente, que no está en ningún distrito")


def test_mx9_found_only_an_area_of_the_tile_size_in_spanish() -> None:
    state = state_at(position(2, available=(5,)))
    assert spanish(state, "found 5 at K5") == (
        "your Mexica's area has 192 squares, not 5",
        "el distrito de tu Mexica es de tamaño 192, no 5")
    assert spanish(state, "found 6 at K5")[1] == \
        "no hay ninguna ficha Calpulli de tamaño 6 disponible en esta parte"

