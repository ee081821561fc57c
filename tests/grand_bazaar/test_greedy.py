"""The Grand Bazaar greedy bot: legal, deterministic, sensible on hand-built positions, strong."""

from __future__ import annotations

import pytest

import tlatelolco
from tlatelolco.bots import make_bot
from tlatelolco.bots.evaluate import head_to_head, wilson_interval
from tlatelolco.bots.greedy.grand_bazaar import GrandBazaarGreedy, expected_next_prices
from tlatelolco.games.grand_bazaar import Bazaar, GrandBazaarGame, GrandBazaarState
from tlatelolco.games.grand_bazaar.cards import GEMS_PER_TYPE, NUM_GEMS, PRICE_CARDS, ROUNDS
from tlatelolco.testing.bots import check_bot_in_random_play

SAPPHIRE, RUBY, EMERALD = range(NUM_GEMS)
Change = tuple[int, int, int]


def position(face_down: list[Change], hands: list[list[int]], money: list[int],
             seat: int = 0) -> GrandBazaarState:
    """A consistent position with `seat` to trade and exactly the `face_down` cards left.

    Prices follow from the deck (each gem's changes over the whole deck sum to 0, GB-1), the
    round from how many cards are left, the supply from the hands.
    """
    deck = 0
    for change in face_down:
        deck |= 1 << PRICE_CARDS.index(change)
    assert deck.bit_count() == len(face_down), "a card is listed twice"
    n = len(hands)
    round_ = ROUNDS - len(face_down)
    prices = [10 - sum(c[g] for c in face_down) for g in range(NUM_GEMS)]
    supply = [GEMS_PER_TYPE - sum(h[g] for h in hands) for g in range(NUM_GEMS)]
    bazaar = Bazaar(n, prices, supply, money, hands, deck, round_,
                    turn=(seat - (round_ - 1)) % n, bought=0, sold=0)
    state = GrandBazaarGame(num_players=n).state_from_position(bazaar)
    assert state.current_player() == seat
    return state


def play_turn(bot: GrandBazaarGreedy, state: GrandBazaarState) -> list[int]:
    """Let `bot` finish its trading turn; the actions it took."""
    seat, taken = state.current_player(), []
    while state.current_player() == seat:
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        taken.append(action)
    return taken


# --- always legal -----------------------------------------------------------------------------

@pytest.mark.parametrize("num_players", range(2, 8))
def test_greedy_plays_only_legal_actions_in_whole_games(num_players: int) -> None:
    game = tlatelolco.load("grand_bazaar", num_players=num_players)
    for seed in range(6):
        bots = ["greedy" if (seat + seed) % 2 == 0 else "random" for seat in range(num_players)]
        record = tlatelolco.play_match(game, bots, seed=seed)  # raises on an illegal action
        assert record["result"] is not None


@pytest.mark.parametrize("num_players", range(2, 8))
def test_greedy_answers_legally_in_positions_random_play_reaches(num_players: int) -> None:
    """Random play reaches corners greedy play avoids: empty purses, full hands, sold-out gems."""
    game = tlatelolco.load("grand_bazaar", num_players=num_players)
    bots = [GrandBazaarGreedy(game, seat, seed=seat) for seat in range(num_players)]
    assert check_bot_in_random_play(game, bots, games=4, seed=num_players) > 0


# --- deterministic ----------------------------------------------------------------------------

def test_greedy_is_deterministic_for_a_seed() -> None:
    game = tlatelolco.load("grand_bazaar", num_players=3)
    first = tlatelolco.play_match(game, ["greedy", "random", "greedy"], seed=42)
    second = tlatelolco.play_match(game, ["greedy", "random", "greedy"], seed=42)
    assert first["history"] == second["history"]
    state = game.replay(first["history"][:40])
    seat = state.current_player()
    one, two = make_bot("greedy", game, seat, 7), make_bot("greedy", game, seat, 7)
    assert one.step(state) == two.step(state) == one.step(state.clone())


# --- sensible on hand-built positions ---------------------------------------------------------

# Seven cards left, sapphire moved by -1, -1, -1, -1, -1, 0, +1: at 14 it is due to fall by 4.
SAPPHIRE_FALLS = [(-1, -1, -1), (-1, -1, 0), (-1, -1, 1), (-1, 0, -1), (-1, 0, 0),
                  (0, 0, 0), (1, 0, 0)]
# Last card: sapphire -1, ruby 0, emerald +1; the final prices are certain (all 10).
LAST_CARD = [(-1, 0, 1)]


@pytest.mark.parametrize("face_down", [SAPPHIRE_FALLS, LAST_CARD], ids=["mid-game", "last-round"])
def test_greedy_sells_gems_expected_to_lose_value(face_down: list[Change]) -> None:
    state = position(face_down, hands=[[2, 0, 0], [0, 0, 0]], money=[20, 30])
    # The premise: sapphire is expected to fall before the bot's next turn.
    assert expected_next_prices(state.bazaar)[SAPPHIRE] < state.bazaar.prices[SAPPHIRE]
    bot = GrandBazaarGreedy(state.get_game(), 0, seed=0)
    play_turn(bot, state)
    assert state.bazaar.hands[0][SAPPHIRE] == 0


def test_greedy_keeps_gems_expected_to_gain() -> None:
    """The mirror image: sapphire at 6 with four rises to come is not dumped."""
    rising = [(-change[0], *change[1:]) for change in SAPPHIRE_FALLS]
    state = position(rising, hands=[[2, 0, 0], [0, 0, 0]], money=[20, 30])
    assert state.bazaar.prices[SAPPHIRE] == 6
    play_turn(GrandBazaarGreedy(state.get_game(), 0, seed=0), state)
    assert state.bazaar.hands[0][SAPPHIRE] >= 2


def test_greedy_buys_a_sure_bargain_on_the_last_round() -> None:
    # Emerald costs 9 and the last card lifts it to 10: three emeralds are all 30 grands buy.
    state = position(LAST_CARD, hands=[[0, 0, 0], [0, 0, 0]], money=[30, 30])
    assert state.bazaar.prices == [11, 10, 9]
    play_turn(GrandBazaarGreedy(state.get_game(), 0, seed=0), state)
    assert state.bazaar.hands[0] == [0, 0, 3]


def test_greedy_buys_a_gem_that_is_clearly_cheap() -> None:
    # Thirteen cards left; ruby moves +1 seven times, 0 four times, -1 twice: at 5, due to 10.
    ruby_rises = [(-1, 1, -1), (-1, 1, 0), (-1, 1, 1), (0, 1, -1), (0, 1, 0), (0, 1, 1), (1, 1, -1),
                  (-1, 0, -1), (0, 0, 0), (1, 0, 1), (1, 0, -1), (-1, -1, 1), (1, -1, -1)]
    state = position(ruby_rises, hands=[[0, 0, 0], [0, 0, 0]], money=[30, 30])
    assert state.bazaar.prices[RUBY] == 5
    taken = play_turn(GrandBazaarGreedy(state.get_game(), 0, seed=0), state)
    assert state.action_to_string(taken[0]) == "buy ruby"
    assert state.bazaar.hands[0][RUBY] >= 2


# Thirteen cards left (round 14: seat 1 trades first); ruby at 5 is due to rise.
RUBY_RISES = [(-1, 1, -1), (-1, 1, 0), (-1, 1, 1), (0, 1, -1), (0, 1, 0), (0, 1, 1), (1, 1, -1),
              (-1, 0, -1), (0, 0, 0), (1, 0, 1), (1, 0, -1), (-1, -1, 1), (1, -1, -1)]


def test_a_covering_leader_takes_the_gems_its_rival_holds() -> None:
    # Seat 0 trades second, 10 grands ahead at today's prices; seat 1 holds two emeralds.
    state = position(RUBY_RISES, hands=[[1, 0, 0], [0, 0, 2]], money=[40, 20])
    plain = state.clone()
    play_turn(GrandBazaarGreedy(state.get_game(), 0, seed=0, cover=1), state)
    assert state.bazaar.hands[0] == [0, 0, 2]  # every later card moves both alike
    play_turn(GrandBazaarGreedy(plain.get_game(), 0, seed=0), plain)
    assert plain.bazaar.hands[0][RUBY] > 0  # the plain bot buys the cheap ruby instead


def test_a_covering_leader_that_trades_first_foresees_its_rivals_turn() -> None:
    state = position(RUBY_RISES, hands=[[0, 0, 2], [1, 0, 0]], money=[20, 40], seat=1)
    play_turn(GrandBazaarGreedy(state.get_game(), 1, seed=0, cover=1), state)
    play_turn(GrandBazaarGreedy(state.get_game(), 0, seed=0), state)  # the rival's turn
    assert state.bazaar.hands[1] == state.bazaar.hands[0]


def test_a_covering_bot_behind_plays_as_the_plain_one() -> None:
    state = position(RUBY_RISES, hands=[[1, 0, 0], [0, 0, 2]], money=[20, 40])
    plain = state.clone()
    taken = play_turn(GrandBazaarGreedy(state.get_game(), 0, seed=0, cover=1), state)
    assert taken == play_turn(GrandBazaarGreedy(plain.get_game(), 0, seed=0), plain)
    with pytest.raises(ValueError, match="cover must be 0 or 1"):
        GrandBazaarGreedy(state.get_game(), 0, cover=2)


# --- strong -----------------------------------------------------------------------------------

def test_greedy_beats_random_heads_up() -> None:
    result = head_to_head("grand_bazaar", "greedy", "random", games=300, seed=2024)
    assert result["games"] == 300
    assert result["win_share"] >= 0.9, result
    assert result["ci95"][0] > 0.5


def test_covering_a_lead_wins_heads_up_against_the_plain_bot() -> None:
    result = head_to_head("grand_bazaar", "greedy:cover=1", "greedy", games=200, seed=7)
    assert result["ci95"][0] > 0.55, result  # 0.73 over 400 arena games


def test_head_to_head_reports_a_share_and_its_interval() -> None:
    result = head_to_head("grand_bazaar", "random", "random", games=12, seed=1, num_players=3)
    low, high = result["ci95"]
    assert 0.0 <= low <= result["win_share"] <= high <= 1.0
    assert result["fair_share"] == pytest.approx(1 / 3)
    assert len(result["by_seat"]) == 3
    assert wilson_interval(1.0, 100)[1] == pytest.approx(1.0)
    assert 0.95 < wilson_interval(1.0, 100)[0] < 1.0
