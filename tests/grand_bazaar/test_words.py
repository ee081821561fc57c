"""The game log in words: every kind of Grand Bazaar action told in English and Spanish.

`describe` must never fail for a legal action, so random games (biased towards buying, selling
or ending, to reach full hands and stuck players) describe every action in both languages.
The Spanish catalogue must translate every message the game's sources mark.
"""

from __future__ import annotations

import glob
import random
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.grand_bazaar.positions import (
    EMERALD,
    END_TURN,
    RUBY,
    SAPPHIRE,
    buy,
    position,
    sell,
    state_at,
)

import tlatelolco
from tlatelolco import i18n
from tlatelolco.games.grand_bazaar import GrandBazaarGame, GrandBazaarState, words
from tlatelolco.games.grand_bazaar.cards import PRICE_CARDS, SELL
from tlatelolco.i18n import render

NAMES = ["Ana", "Bea", "Cy"]
PACKAGE = Path(i18n.__file__).parent
CATALOGUE = PACKAGE / "locale" / "es" / "LC_MESSAGES" / "grand_bazaar.po"


def told(state: GrandBazaarState, action: int, lang: str = "en") -> str:
    return render(state.describe_action(action), lang, NAMES)


def card(*changes: int) -> int:
    return PRICE_CARDS.index(changes)


def at_reveal(round_before: int, **fields: object) -> GrandBazaarState:
    """A position where the price card of round `round_before + 1` is due (3 players)."""
    b = position(3, round=round_before, turn=3, **fields)
    return state_at(b)


# --- each kind of action ----------------------------------------------------------------------

def test_a_buy_names_the_player_the_gem_and_the_price_paid() -> None:
    state = state_at(position(3, prices=[10, 11, 1]))
    assert told(state, buy(RUBY)) == "Ana bought a ruby for 11 grands"
    assert told(state, buy(EMERALD)) == "Ana bought an emerald for 1 grand"
    assert told(state, buy(SAPPHIRE)) == "Ana bought a sapphire for 10 grands"


def test_a_sale_names_the_price_received() -> None:
    state = state_at(position(3, prices=[12, 9, 10], hands=[[1, 1, 0], [0] * 3, [0] * 3]))
    assert told(state, sell(SAPPHIRE)) == "Ana sold a sapphire for 12 grands"
    assert told(state, sell(RUBY)) == "Ana sold a ruby for 9 grands"


def test_ending_the_turn_says_whether_the_player_could_buy_nothing() -> None:
    bought = state_at(position(3, bought=1 << RUBY))
    assert told(bought, END_TURN) == "Ana ended the turn"
    # stuck: no money and nothing to sell, so the turn ends without the mandatory buy
    stuck = state_at(position(3, money=[0, 30, 30]))
    assert stuck.illegal_reason(END_TURN) is None
    assert told(stuck, END_TURN) == "Ana could not buy any gem and ended the turn"


def test_the_seat_that_trades_is_the_one_named() -> None:
    state = state_at(position(3, round=5, turn=0))  # round 5's start player: seat 4 mod 3
    assert state.current_player() == 1
    assert told(state, buy(RUBY)) == "Bea bought a ruby for 10 grands"


def test_a_price_card_tells_each_new_price() -> None:
    state = at_reveal(4, prices=[10, 10, 10])
    assert state.is_chance_node()
    assert told(state, card(1, -1, 0)) == (
        "Price card +1 -1 0 for round 5: sapphire up to 11, ruby down to 9 and emerald stays "
        "at 10")


def test_the_first_price_card_opens_round_one() -> None:
    state = tlatelolco.load("grand_bazaar", num_players=2).new_initial_state()
    assert told(state, card(0, 0, -1)) == (  # type: ignore[arg-type]
        "Price card 0 0 -1 for round 1: sapphire stays at 10, ruby stays at 10 and emerald down "
        "to 9")


def test_the_last_price_card_tells_the_payout() -> None:
    last = card(-1, 1, 0)
    state = at_reveal(26, prices=[11, 9, 10], deck=1 << last)
    assert told(state, last) == (
        "Last price card -1 +1 0: sapphire down to 10, ruby up to 10 and emerald stays at 10. "
        "Each gem still held pays 10 grands")


def test_the_state_uses_the_words_module() -> None:
    state = state_at(position(3))
    assert state.describe_action(buy(RUBY)) == words.describe(state, buy(RUBY))
    assert state.describe_action(buy(RUBY)) != ("{text}", {"text": "buy ruby"})


def test_an_ended_turn_carries_its_trades_for_the_board() -> None:
    """The log keeps `action_to_dict` of each move: an ended turn names the gems traded, so
    the board marks the stacks of a seat's whole turn, not nothing."""
    state = state_at(position(3, bought=1 << RUBY, sold=1 << SAPPHIRE | 1 << EMERALD))
    assert state.action_to_dict(END_TURN) == {
        "kind": "end_turn", "bought": ["ruby"], "sold": ["sapphire", "emerald"]}


def test_an_action_outside_the_game_falls_back_to_the_notation() -> None:
    state = state_at(position(3))
    assert told(state, 99) == state.action_to_string(99)


# --- Spanish ----------------------------------------------------------------------------------

def test_trades_in_spanish() -> None:
    state = state_at(position(3, prices=[10, 11, 1], hands=[[1, 0, 1], [0] * 3, [0] * 3]))
    assert told(state, buy(RUBY), "es") == "Ana compró un rubí por 11 grands"
    assert told(state, sell(EMERALD), "es") == "Ana vendió una esmeralda por 1 grand"
    stuck = state_at(position(3, money=[0, 30, 30]))
    assert told(stuck, END_TURN, "es") == "Ana no pudo comprar ninguna gema y terminó su turno"
    assert told(state_at(position(3, bought=1)), END_TURN, "es") == "Ana terminó su turno"


def test_price_cards_in_spanish() -> None:
    state = at_reveal(4, prices=[10, 10, 10])
    assert told(state, card(1, -1, 0), "es") == (
        "Carta de precio +1 -1 0 de la ronda 5: zafiro sube a 11, rubí baja a 9 y esmeralda "
        "se queda en 10")
    last = card(0, 0, 1)
    final = at_reveal(26, prices=[10, 10, 9], deck=1 << last)
    assert told(final, last, "es") == (
        "Última carta de precio 0 0 +1: zafiro se queda en 10, rubí se queda en 10 y esmeralda "
        "sube a 10. Cada gema que queda en la mano se paga a 10 grands")


def test_lobby_texts_are_set_and_translated() -> None:
    info = GrandBazaarGame.info
    assert info.summary and info.minutes[0] > 0 and info.minutes[0] <= info.minutes[1]
    players = info.options[0]
    assert (players.label, i18n.gettext(players.label, "es")) == ("Players", "Jugadores")
    assert players.about and "GB-" not in players.about
    assert i18n.gettext(info.summary, "es").startswith("Comerciantes medievales")


def marked_messages() -> set[str]:
    """Every message the game's sources mark (the ids a PO entry is keyed by)."""
    found: set[str] = set()
    for pattern in i18n.DOMAINS["grand_bazaar"]:
        for path in glob.glob(str(PACKAGE / pattern)):
            method, keywords = (("python", i18n.PYTHON_KEYWORDS) if path.endswith(".py")
                                else ("javascript", i18n.JS_KEYWORDS))
            for _, message, _, _ in extract_from_file(method, path, keywords=keywords):
                found.add(message if isinstance(message, str) else message[0])
    return found


def test_the_spanish_catalogue_translates_every_marked_message() -> None:
    with CATALOGUE.open("rb") as f:
        catalogue = read_po(f, locale="es")
    translated = {m.id if isinstance(m.id, str) else m.id[0]
                  for m in catalogue if m.id and not m.fuzzy
                  and all(m.string if isinstance(m.string, tuple) else [m.string])}
    marked = marked_messages()
    assert {"sapphire", "{player} bought {good} for {price}", "End turn"} <= marked
    assert marked - translated == set()
    assert catalogue.num_plurals == 2


# --- every action of random games -------------------------------------------------------------

def choose(legal: list[int], weights: tuple[float, float, float], rng: random.Random) -> int:
    kinds = [weights[0] if a < SELL else weights[1] if a < END_TURN else weights[2]
             for a in legal]
    return rng.choices(legal, kinds)[0]


@pytest.mark.parametrize("num_players", range(2, 8))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**64 - 1), weights=st.tuples(*[st.floats(0.05, 1.0)] * 3))
def test_every_action_of_random_games_is_told_in_both_languages(
        num_players: int, seed: int, weights: tuple[float, float, float]) -> None:
    rng = random.Random(seed)
    state = tlatelolco.load("grand_bazaar", num_players=num_players).new_initial_state()
    names = [f"P{k}" for k in range(num_players)]
    while not state.is_terminal():
        legal = state.legal_actions()
        action = (rng.choice(legal) if state.is_chance_node()
                  else choose(legal, weights, rng))
        message = state.describe_action(action)
        for lang in ("en", "es"):
            text = render(message, lang, names)
            assert text.strip() and "{" not in text and "}" not in text, (lang, text)
            if not state.is_chance_node():
                assert text.startswith(names[state.current_player()]), text
        state.apply_action(action)
