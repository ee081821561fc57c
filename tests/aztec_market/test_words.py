"""Aztec Market's log in words (games/aztec_market/words.py), its Spanish catalogue and the lobby's
metadata: every kind of action told on hand-built positions, exact English and Spanish
sentences, and random games whose every action is told in both languages."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po
from tests.aztec_market.positions import (
    BLACK,
    BLUE,
    GREEN,
    RED,
    buy,
    free,
    market,
    paid,
    sq,
    state_at,
)

import tlatelolco
from tlatelolco.chance import sample_chance
from tlatelolco.games.aztec_market import AztecMarketState
from tlatelolco.games.aztec_market.components import (
    COIN,
    DRAW,
    END_TURN,
    HOLE_AT,
    KING,
    KING_BUYS,
    KING_SKIPS,
    NUM_ACTIONS,
    PASS,
    PLACE,
    PLAY,
    SQUARES,
    TILE_COUNTS,
)
from tlatelolco.games.aztec_market.market import (
    CHOOSE,
    PASS_COIN,
    PASS_KING,
    PASS_MOVES,
    RESTOCK,
    START_COIN,
)
from tlatelolco.i18n import JS_KEYWORDS, LOCALE, PYTHON_KEYWORDS, gettext, render

NAMES = ["Ana", "Bea", "Cy", "Dan"]
PACKAGE = Path(tlatelolco.__file__).parent

# Every effect of the tiles between a buyer and a vendor (rows North first, columns A..D):
# S1 looks up column A past a porter, a governor and the ambassador to the red vendor; S2 past a
# governor and a porter to the blue vendor; S3 past the hole to the green vendor.
EFFECTS = """
    Rd Bk Ki Cr
    Am Bl Eb Cr
    Go Po Gn Cr
    Po Go .. Cr
"""


def told(state: AztecMarketState, action: int, lang: str = "en") -> str:
    return render(state.describe_action(action), lang, NAMES)


def at(phase: int = -1, picture: str = EFFECTS, num_players: int = 2, **fields: Any
       ) -> AztecMarketState:
    """A hand-built position (PLAY for seat 0 unless `phase` or `fields` say otherwise)."""
    given = {"vendor_goods": [2, 1, 5, 2], "coins": [1, 1, 1, 0] + [0] * 4 * (num_players - 1),
             **fields}
    m = market(num_players, picture, **given)
    if phase >= 0:
        m.phase = phase
    return state_at(m)


# --- every kind of action, in English ---------------------------------------------------------


def test_building_the_market_and_the_tile_that_completes_it() -> None:
    state = tlatelolco.load("aztec_market", num_players=2).new_initial_state()
    assert told(state, PLACE + KING * SQUARES + sq("B2")) == "Ana placed the king on B2"
    tiles = [kind for kind, count in enumerate(TILE_COUNTS) for _ in range(count)]
    assert tiles.pop() == KING
    for square, kind in enumerate(tiles):  # A1 .. B4; C4 and D4 stay empty
        state.apply_action(PLACE + kind * SQUARES + square)
    assert told(state, PLACE + KING * SQUARES + sq("D4")) == (
        "Ana placed the king on D4; the market is complete and C4 is the hole")


def test_a_random_market_is_told_square_by_square() -> None:
    state = tlatelolco.load("aztec_market", num_players=2, setup="random").new_initial_state()
    assert state.is_chance_node()
    assert told(state, PLACE + 4 * SQUARES + 0) == "The random market puts a crowd on A1"
    assert told(state, HOLE_AT + 0) == "The random market leaves A1 empty: it is the hole"


def test_coins_at_set_up_and_during_a_pass() -> None:
    assert told(at(START_COIN), COIN + 0) == "Ana put the starting coin on buyer S1"
    assert told(at(PASS_COIN), COIN + 3) == "Ana took a coin from the reserve for buyer S4"


def test_pass_or_play_and_an_empty_bag() -> None:
    assert told(at(CHOOSE), PASS) == "Ana chose to pass"
    assert told(at(CHOOSE), PLAY) == "Ana chose to play"
    empty = at(CHOOSE, unseen=[1, 1, 1, 1], hidden_removed=4)
    assert empty.market.bag() == 0
    assert told(empty, PASS) == "Ana chose to pass; the bag is empty, so no goods are drawn"


def test_restocking_names_the_good_and_the_last_one_of_the_bag() -> None:
    state = at(RESTOCK, draws_left=4)
    assert told(state, DRAW + RED) == "Restock: a red good from the bag goes onto the red vendor"
    last = at(RESTOCK, draws_left=1, unseen=[0, 0, 1, 0], hidden_removed=0)
    assert told(last, DRAW + RED) == ("Restock: a red good, the last one in the bag, goes onto "
                                      "the red vendor")


def test_market_moves_say_where_the_tile_goes() -> None:
    assert told(at(PASS_MOVES, moves_left=2), free("D4")) == (
        "Ana moved a crowd from D4 into the hole at C1")
    play = at()
    assert play.illegal_reason(free("C3")) is None
    assert told(play, free("C3")) == "Ana moved the errand boy from C3 to C1 for free"
    assert play.illegal_reason(paid("B2", 0)) is None
    assert told(play, paid("B2", 0)) == ("Ana paid the coin of buyer S1 to move a porter from B2 "
                                         "to C1")


def test_a_purchase_tells_what_the_tiles_between_did() -> None:
    state = at()
    for action in (buy(0, RED), buy(1, BLUE), buy(2, GREEN)):
        assert state.illegal_reason(action) is None
    assert told(state, buy(2, GREEN)) == ("Ana bought 2 green goods from the green vendor with "
                                          "buyer S3")
    assert told(state, buy(0, RED)) == (
        "Ana bought 3 red goods from the red vendor with buyer S1; a porter gave 1 good back to "
        "the vendor; a governor gave 1 good to the king; the ambassador let the buyer keep the "
        "coin")
    assert told(state, buy(1, BLUE)) == (
        "Ana bought from the blue vendor with buyer S2 but kept no goods; a governor gave 1 good "
        "to the king")


def test_the_kings_purchase_and_the_end_of_a_turn() -> None:
    state = at(PASS_KING)
    assert KING_BUYS + BLACK in state.legal_actions()
    assert told(state, KING_BUYS + BLACK) == "Ana had the king buy a good from the black vendor"
    assert told(state, KING_SKIPS) == "Ana let the king go without a purchase"
    assert told(at(bought=True), END_TURN) == "Ana ended their turn"


def test_with_four_players_each_partner_is_named_by_seat() -> None:
    state = at(CHOOSE, num_players=4, player=2)
    assert told(state, PASS) == "Cy chose to pass"
    play = at(num_players=4, player=3, coins=[0] * 12 + [1, 0, 0, 0])
    assert told(play, buy(0, BLACK)).startswith("Dan bought")


def test_actions_that_make_no_sense_fall_back_to_the_notation() -> None:
    state = at(CHOOSE)
    for action in (-1, NUM_ACTIONS, COIN + 1, buy(0, RED), HOLE_AT + 2):
        assert told(state, action) == state.action_to_string(action)


# --- Spanish ----------------------------------------------------------------------------------


def test_sentences_in_spanish() -> None:
    state = at()
    assert told(state, buy(0, RED), "es") == (
        "Ana compró 3 mercancías rojas al vendedor rojo con el comprador S1; un cargador devolvió "
        "1 mercancía al vendedor; un gobernador puso 1 mercancía sobre el rey; el embajador hizo "
        "que el comprador conservara la moneda")
    assert told(state, paid("B2", 0), "es") == (
        "Ana pagó la moneda del comprador S1 para mover un cargador de B2 a C1")
    assert told(state, free("C3"), "es") == "Ana movió gratis al recadero de C3 a C1"
    last = at(RESTOCK, draws_left=1, unseen=[0, 0, 1, 0], hidden_removed=0)
    assert told(last, DRAW + RED, "es") == (
        "Reponer mercancías: una mercancía roja, la última de la bolsa, va al vendedor rojo")
    assert told(at(CHOOSE), PASS, "es") == "Ana decidió pasar"
    random_market = tlatelolco.load("aztec_market", num_players=2, setup="random")
    assert told(random_market.new_initial_state(), PLACE + 4 * SQUARES + 0, "es") == (
        "El mercado al azar pone una aglomeración en A1")


def test_the_spanish_catalogue_translates_every_marked_message() -> None:
    """Every message marked in the game's package and its renderer has a Spanish text."""
    with (LOCALE / "es" / "LC_MESSAGES" / "aztec_market.po").open("rb") as f:
        catalogue = read_po(f, locale="es")
    assert catalogue.num_plurals == 2
    translated = {m.id if isinstance(m.id, str) else m.id[0]: m.string for m in catalogue
                  if m.id}
    files = sorted((PACKAGE / "games" / "aztec_market").glob("*.py"))
    files.append(PACKAGE / "web" / "static" / "games" / "aztec_market.js")
    found = 0
    for path in files:
        method = "python" if path.suffix == ".py" else "javascript"
        keywords = PYTHON_KEYWORDS if method == "python" else JS_KEYWORDS
        for _, message, _, _ in extract_from_file(method, str(path), keywords=keywords):
            msgid = message if isinstance(message, str) else message[0]
            text = translated.get(msgid)
            assert text and all(text if isinstance(text, tuple) else (text,)), (path.name, msgid)
            found += 1
    assert found > 150


# --- the lobby's metadata -----------------------------------------------------------------------


def test_options_and_summary_are_told_for_players_in_both_languages() -> None:
    info = tlatelolco.load("aztec_market").info
    assert info.summary and info.minutes[0] < info.minutes[1]
    texts = [info.summary]
    for option in info.options:
        assert option.label and option.about, option.name
        assert "AM-" not in option.about and option.about.endswith(".")
        texts += [option.label, option.about]
    for text in texts:
        assert gettext(text, "es") != text, text


# --- the board's hints in action_to_dict ---------------------------------------------------------


def test_moves_and_purchases_name_the_squares_a_board_marks() -> None:
    state = at()
    assert state.action_to_dict(paid("B2", 0)) == {
        "kind": "move", "square": "B2", "tile": "porter", "to": "C1", "paid_by": "S1"}
    assert state.action_to_dict(free("C3"))["to"] == "C1"
    assert state.action_to_dict(buy(0, RED)) == {
        "kind": "buy", "buyer": "S1", "vendor": "red", "square": "A4"}
    assert state.action_to_dict(KING_BUYS + BLUE) == {
        "kind": "king_buys", "vendor": "blue", "square": "B3", "king": "C4"}


# --- every action of random games, in both languages -----------------------------------------


@pytest.mark.parametrize("num_players", [2, 3, 4])
@pytest.mark.parametrize("setup", ["build", "random"])
def test_every_action_of_random_games_is_told(num_players: int, setup: str) -> None:
    rng = random.Random(f"{num_players}{setup}")
    kinds: set[str] = set()
    for game_number in range(6):
        game = tlatelolco.load("aztec_market", num_players=num_players, setup=setup,
                               removed=rng.choice([0, 4, 40]), luck=rng.random() < 0.5)
        state = game.new_initial_state()
        play_bias = game_number / 5
        while not state.is_terminal():
            if state.is_chance_node():
                action = sample_chance(state, rng)
            else:
                legal = state.legal_actions()
                action = (PLAY if PLAY in legal and rng.random() < play_bias
                          else rng.choice(legal))
            kinds.add(state.action_to_dict(action)["kind"])
            notation = state.action_to_string(action)
            for lang in ("en", "es"):
                text = render(state.describe_action(action), lang, NAMES[:num_players])
                assert text and "{" not in text and "}" not in text, (lang, notation, text)
                assert text != notation, (lang, notation)
            state.apply_action(action)
    expected = {"place" if setup == "build" else "hole", "coin", "pass", "play", "draw", "move",
                "buy", "end_turn", "king_buys", "king_skips"}
    assert expected <= kinds
