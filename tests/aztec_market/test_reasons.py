"""The engine's reasons for an illegal move are `Reason`s: the same English as ever, and a
message the web page shows in Spanish (rule ids from the Aztec Market rules digest)."""

from __future__ import annotations

import random

import pytest
from tests.aztec_market.positions import BLACK, BLUE, GREEN, RED, buy, free, market, sq, state_at
from tests.reasons import spanish_of

import tlatelolco
from tlatelolco import IllegalActionError
from tlatelolco.chance import sample_chance
from tlatelolco.games.aztec_market import AztecMarketState, rules
from tlatelolco.games.aztec_market.components import (
    KING_BUYS,
    NUM_ACTIONS,
    PASS,
    PLACE,
    PLAY,
)
from tlatelolco.games.aztec_market.market import CHOOSE, OVER, PASS_KING
from tlatelolco.i18n import Reason, in_words

POSITIONS_PER_COUNT = 120  # x 3 player counts, every action of each (288, and 3 out of range)


def _positions(num_players: int, rng: random.Random) -> list[AztecMarketState]:
    """Positions of seeded random games, every phase included, the last one terminal."""
    found: list[AztecMarketState] = []
    while len(found) < POSITIONS_PER_COUNT:
        game = tlatelolco.load("aztec_market", num_players=num_players,
                               setup=rng.choice(["build", "random"]),
                               removed=rng.choice([4, 40, 72]), luck=rng.random() < 0.5)
        state = game.new_initial_state()
        while not state.is_terminal():
            if rng.random() < 0.15:
                found.append(state.clone())
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
                continue
            legal = state.legal_actions()
            state.apply_action(PLAY if PLAY in legal and rng.random() < 0.7
                               else rng.choice(legal))
        found.append(state)
    return found


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_every_reason_is_english_and_spanish(num_players: int) -> None:
    rng = random.Random(num_players)
    texts: dict[str, str] = {}
    templates: set[str] = set()
    for state in _positions(num_players, rng):
        legal = set(state.legal_actions())
        if state.is_chance_node():
            legal = {a for a, _ in state.chance_outcomes()}
        for action in [-1, *range(NUM_ACTIONS), NUM_ACTIONS, 10**9]:
            why = state.illegal_reason(action)
            assert (why is None) == (action in legal), (action, why)
            if why is None:
                continue
            spanish = spanish_of(why, ["Ana", "Bea", "Carmen", "Dora"])
            texts[str(why)] = spanish
            templates.add(str(why.message[0]))
    differ = sum(en != es for en, es in texts.items()) / len(texts)
    print(f"{num_players} players: {len(texts)} reasons from {len(templates)} messages, "
          f"{differ:.0%} differ in Spanish")
    assert differ >= 0.95, [en for en, es in texts.items() if en == es]
    assert len(templates) >= 15, templates  # the random games reach most kinds of reason


# --- exact sentences, built on purpose ---------------------------------------------------------


def _both(why: str | None) -> tuple[str, str]:
    assert isinstance(why, Reason)
    return str(why), in_words(why, "es")


def test_am3_a_taken_square_in_spanish() -> None:
    state = tlatelolco.load("aztec_market", num_players=2).new_initial_state()
    state.apply_action(state.string_to_action("place king at A1"))
    assert _both(state.illegal_reason(PLACE + 4 * 16 + sq("A1"))) == (
        "that square is already taken", "esa casilla ya está ocupada")
    assert _both(state.illegal_reason(PLACE + 9 * 16 + sq("B1"))) == (
        "every tile of that kind is already on the market",
        "todas las losetas de ese tipo ya están en el mercado")


def test_am6_purchase_conditions_in_spanish() -> None:
    # STANDARD: S1 looks A1 (porter), A2 (crowd), A3 (black vendor); S3 looks C1, C2, C3 (red).
    m = market(vendor_goods=[3, 3, 0, 3], coins=[1, 0, 1, 0, 0, 0, 0, 0],
               buyer_colour=[-1, -1, BLUE, -1, -1, -1, -1, -1],
               buyer_goods=[0, 0, 2, 0, 0, 0, 0, 0])
    assert _both(rules.why_cannot_buy(m, 0, 0, BLACK)) == (
        "a crowd stands between S1 and the black vendor",
        "hay una aglomeración entre el comprador S1 y el vendedor negro")
    assert _both(rules.why_cannot_buy(m, 0, 1, BLUE)) == (
        "S2 has no coin", "el comprador S2 no tiene moneda")
    assert _both(rules.why_cannot_buy(m, 0, 2, RED)) == (
        "S3 holds blue goods only", "el comprador S3 solo tiene mercancías de color azul")
    assert _both(rules.why_cannot_buy(m, 0, 0, RED)) == (
        "the red vendor has no goods", "el vendedor rojo no tiene mercancías")
    assert _both(rules.why_cannot_buy(m, 0, 0, GREEN)) == (
        "the green vendor is not on S1's line",
        "el vendedor verde no está en la misma vertical que el comprador S1")


def test_am6_ruling_the_errand_boy_never_moves_twice_in_a_row_in_spanish() -> None:
    state = state_at(market(vendor_goods=[3, 3, 3, 3], coins=[1, 1, 1, 1, 0, 0, 0, 0],
                            last_errand=True))
    assert _both(state.illegal_reason(free("C2"))) == (
        "the errand boy may not move twice in a row",
        "el recadero no puede moverse dos veces seguidas")
    assert _both(state.illegal_reason(free("A1"))) == (
        "only the errand boy moves for free in PLAY; name the buyer who pays",
        "en JUGAR solo el recadero se mueve gratis; indica el comprador que paga")


def test_am5_step_4_the_king_buys_in_his_row_or_column_in_spanish() -> None:
    # The king at D2 sees the green vendor at D3; the red vendor at C3 is on neither line.
    state = state_at(market(phase=PASS_KING, vendor_goods=[3, 3, 3, 3]))
    assert state.illegal_reason(KING_BUYS + GREEN) is None
    assert _both(state.illegal_reason(KING_BUYS + RED)) == (
        "the king can only buy from a vendor with goods in his row or column",
        "el rey solo puede comprar a un vendedor con mercancías situado en su misma horizontal "
        "o vertical")


def test_am4_the_phase_says_what_it_expects_in_spanish() -> None:
    choose = state_at(market(phase=CHOOSE, coins=[1, 0, 0, 0, 0, 0, 0, 0]))
    assert _both(choose.illegal_reason(buy(0, RED))) == (
        "now is the time for choosing to pass or to play",
        "ahora toca elegir pasar o jugar")
    playing = state_at(market(vendor_goods=[3, 3, 3, 3], coins=[1, 1, 1, 1, 0, 0, 0, 0]))
    assert _both(playing.illegal_reason(PASS)) == (
        "during your turn the moves are market moves, purchases and ending the turn",
        "en tu turno las jugadas son movimientos del mercado, compras y terminar el turno")
    over = state_at(market(phase=OVER))
    assert _both(over.illegal_reason(PASS)) == (
        "now is the time for nothing: the game is over",
        "ya no toca nada: la partida ha terminado")
    assert _both(over.illegal_reason(NUM_ACTIONS)) == (
        "actions are numbered 0 to 287", "las acciones van numeradas del 0 al 287")


def test_the_english_error_of_an_illegal_move_is_unchanged() -> None:
    state = state_at(market(vendor_goods=[3, 3, 3, 3], coins=[1, 1, 1, 1, 0, 0, 0, 0],
                            last_errand=True))
    with pytest.raises(IllegalActionError) as error:
        state.apply_action(free("C2"))
    assert "is not legal: the errand boy may not move twice in a row. Legal now: " in str(
        error.value)


def test_am4_the_phase_is_named_in_words_never_in_notation() -> None:
    """Issue 34, point 9: a wrong click once read "now is the time for placing a market tile
    ('place crowd at B3')". Every phase's description is words, in both languages."""
    from tlatelolco.games.aztec_market.state import _PHASE_ACTIONS
    from tlatelolco.i18n import reason

    for template, fields in _PHASE_ACTIONS.values():
        for text in _both(reason(template, **fields)):
            assert "('" not in text and "')" not in text, text
            assert "'" not in text.replace("king's", ""), text  # no quoted move
