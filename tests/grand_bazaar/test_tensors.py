"""Grand Bazaar's observation and information state tensors (docs/tensors/grand_bazaar.md).

Everything is public except the order of the face-down price cards (GB-6), and the engine never
holds that order: a card is drawn by chance only when it is revealed. So the no-leak checks are
that the observation tensor reads nothing but the seat's view (a state rebuilt from the view
dict alone gives the same tensor, and so do states reached by different histories with the same
view), and the converse is that it decodes back to exactly that view. The information state
adds the order the cards came in and every turn's trades, checked against a replay.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from functools import cache
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.grand_bazaar.positions import EMERALD, RUBY, SAPPHIRE, buy, position, sell, state_at

import tlatelolco
from tlatelolco import CHANCE, TERMINAL
from tlatelolco.games.grand_bazaar import GrandBazaarState, rules
from tlatelolco.games.grand_bazaar.board import Bazaar
from tlatelolco.games.grand_bazaar.cards import (
    BUY,
    CARD_TEXT,
    END_TURN,
    GEMS,
    NUM_CARDS,
    PRICE_CARDS,
    SELL,
    card_text,
)
from tlatelolco.games.grand_bazaar.tensors import MAX_GRANDS, MAX_PRICE, PHASES
from tlatelolco.tensors import Layout

PLAYER_COUNTS = range(2, 8)


def load(num_players: int) -> tlatelolco.Game:
    return tlatelolco.load("grand_bazaar", num_players=num_players)


def play(num_players: int, seed: int) -> Iterator[GrandBazaarState]:
    """Every state of a seeded random game. Each game leans its own way towards buying, selling
    or ending turns, so full hands, empty stacks and stuck players all turn up."""
    rng = random.Random(seed)
    lean = [rng.uniform(0.05, 1.0) for _ in range(3)]
    state = load(num_players).new_initial_state()
    assert isinstance(state, GrandBazaarState)
    while True:
        yield state
        if state.is_terminal():
            return
        legal = state.legal_actions()
        weights = [lean[0] if a < SELL else lean[1] if a < END_TURN else lean[2] for a in legal]
        state = state.clone()
        state.apply_action(legal[0] if len(legal) == 1 else rng.choices(legal, weights)[0])


@cache
def positions(num_players: int) -> tuple[GrandBazaarState, ...]:
    """Two whole random games per player count, shared by the tests (none changes a state)."""
    return tuple(s for seed in (1, 2) for s in play(num_players, 100 * num_players + seed))


def obs(state: GrandBazaarState, player: int) -> Any:
    return state.observation_tensor(player)


def info(state: GrandBazaarState, player: int) -> Any:
    return state.information_state_tensor(player)


def views(state: GrandBazaarState, tensor: Any) -> dict[str, Any]:
    game = state.get_game()
    layout = (game.observation_tensor_layout() if tensor.size == game.observation_tensor_shape()[0]
              else game.information_state_tensor_layout())
    return layout.views(tensor)


def one(section: Any) -> int:
    """The index of a one-hot section's single 1."""
    assert sorted(section.ravel().tolist()) == [0.0] * (section.size - 1) + [1.0], section
    return int(section.argmax())


def gems(row: Any, scale: int) -> dict[str, int]:
    return {gem: round(float(v) * scale) for gem, v in zip(GEMS, row, strict=True)}


def decode(layout: Layout, tensor: Any, player: int) -> dict[str, Any]:
    """`state.observation(player)` read back from the observation tensor alone."""
    v = layout.views(tensor)
    n = v["seat"].size
    assert one(v["seat"]) == player
    phase = PHASES[one(v["phase"])]
    mover = {"card_due": CHANCE, "game_over": TERMINAL}.get(phase)
    if mover is None:
        mover = (player + one(v["to_move"])) % n
    else:
        assert not v["to_move"].any()
    last = (PRICE_CARDS.index(tuple(one(row) - 1 for row in v["last_card"]))
            if v["last_card"].any() else None)
    view: dict[str, Any] = {
        "game": "grand_bazaar", "round": one(v["round"]), "rounds": 27, "hand_limit": 4,
        "start_player": (player + one(v["start_player"])) % n, "to_move": mover,
        "prices": gems(v["prices"], MAX_PRICE), "bazaar": gems(v["bazaar"], 10),
        "players": [{"seat": (player + r) % n, "grands": round(float(g) * MAX_GRANDS),
                     "gems": gems(hand, 4)}
                    for r, (g, hand) in enumerate(zip(v["grands"], v["gems"], strict=True))],
        "last_card": None if last is None else card_text(last),
        "price_cards_left": [CARD_TEXT[c] for c in np.flatnonzero(v["cards_left"])],
        "this_turn": {kind: [g for g, on in zip(GEMS, row, strict=True) if on]
                      for kind, row in zip(("bought", "sold"), v["this_turn"], strict=True)},
        "terminal": phase == "game_over",
    }
    view["players"].sort(key=lambda p: p["seat"])
    if phase == "game_over":
        view["returns"] = [float(v["returns"][(s - player) % n]) for s in range(n)]
    else:
        assert not v["returns"].any()
    return view


def bazaar_from_view(view: dict[str, Any], n: int) -> Bazaar:
    """The whole position, rebuilt from nothing but a seat's view."""
    to_move, start = view["to_move"], view["start_player"]
    turn = ((to_move - start) % n if to_move >= 0
            else n if to_move == CHANCE and view["round"] else 0)
    last = view["last_card"]
    return Bazaar(
        num_players=n, prices=list(view["prices"].values()), supply=list(view["bazaar"].values()),
        money=[p["grands"] for p in view["players"]],
        hands=[list(p["gems"].values()) for p in view["players"]],
        deck=sum(1 << CARD_TEXT.index(text) for text in view["price_cards_left"]),
        round=view["round"], turn=turn,
        bought=sum(1 << GEMS.index(g) for g in view["this_turn"]["bought"]),
        sold=sum(1 << GEMS.index(g) for g in view["this_turn"]["sold"]),
        last_card=-1 if last is None else CARD_TEXT.index(last))


# --- layouts, shape, dtype, range -----------------------------------------------------------


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_layouts_are_shared_fixed_and_the_information_state_extends_the_observation(
        n: int) -> None:
    game = load(n)
    layout, full = game.observation_tensor_layout(), game.information_state_tensor_layout()
    assert layout is game.observation_tensor_layout() is load(n).observation_tensor_layout()
    assert full is game.information_state_tensor_layout()
    assert game.observation_tensor_shape() == (88 + 9 * n,)  # the sizes docs give
    assert game.information_state_tensor_shape() == (88 + 9 * n + 243 + 156 * n,)
    assert full.sections[:len(layout.sections)] == layout.sections
    assert [name for name, _ in full.sections[len(layout.sections):]] == [
        "card_history", "trade_history"]


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_tensors_are_float32_fixed_in_zero_one_and_deterministic(n: int) -> None:
    game = load(n)
    for state in positions(n)[::7]:
        for player in range(n):
            o, i = obs(state, player), info(state, player)
            assert o.dtype == i.dtype == np.float32
            assert o.shape == game.observation_tensor_shape()
            assert i.shape == game.information_state_tensor_shape()
            assert o.min() >= 0.0 and i.min() >= 0.0 and o.max() <= 1.0 and i.max() <= 1.0
            assert np.array_equal(o, obs(state, player)) and np.array_equal(i, info(state, player))
            assert np.array_equal(i[:o.size], o), "the observation leads the information state"


def test_a_seat_that_does_not_exist_is_refused() -> None:
    state = load(3).new_initial_state()
    for bad in (-1, 3):
        with pytest.raises(ValueError, match="does not exist"):
            state.observation_tensor(bad)
        with pytest.raises(ValueError, match="does not exist"):
            state.information_state_tensor(bad)


# --- everything the seat sees, and nothing else ---------------------------------------------


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_the_observation_decodes_to_the_seats_view(n: int) -> None:
    """The converse of no-leak: every section reads back to the dict view, so the tensor carries
    all the seat may know (and an all-zero or constant tensor fails at once)."""
    layout = load(n).observation_tensor_layout()
    for state in positions(n)[::2]:
        for player in range(n):
            tensor, view = obs(state, player), state.observation(player)
            decoded = decode(layout, tensor, player)
            assert decoded.pop("returns", None) == pytest.approx(view.pop("returns", None))
            assert decoded == view
            check_derived_sections(layout.views(tensor), state, player)


def check_derived_sections(v: dict[str, Any], state: GrandBazaarState, player: int) -> None:
    """traded and next_card_odds, which the view implies rather than lists."""
    b, n = state.bazaar, state.bazaar.num_players
    done = {(rules.start_player(b) + i) % n for i in range(b.turn)} if b.round else set()
    assert v["traded"].tolist() == [float((player + r) % n in done) for r in range(n)]
    left = rules.price_cards_left(b)
    for gem in range(3):
        for change in (-1, 0, 1):
            share = sum(PRICE_CARDS[c][gem] == change for c in left) / len(left) if left else 0
            assert v["next_card_odds"][gem, change + 1] == pytest.approx(share, abs=1e-6)


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_the_observation_is_a_function_of_the_view_alone(n: int) -> None:
    """No leak (GB-6): a position rebuilt from a seat's view, with no history, has the same
    tensor for that seat, and the same legal actions (the view is enough to play)."""
    game = load(n)
    for state in positions(n)[::3]:
        for player in range(n):
            rebuilt = game.state_from_position(bazaar_from_view(state.observation(player), n))
            assert np.array_equal(obs(rebuilt, player), obs(state, player))
            assert rebuilt.legal_actions() == state.legal_actions()


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_distinct_views_give_distinct_observations(n: int) -> None:
    for player in range(n):
        seen: dict[bytes, str] = {}
        for state in positions(n):
            key = repr(sorted(state.observation(player).items()))
            assert seen.setdefault(obs(state, player).tobytes(), key) == key


@settings(max_examples=20, deadline=None)
@given(n=st.integers(2, 5), pair=st.data(), last=st.integers(0, NUM_CARDS - 1))
def test_gb2_the_order_of_past_cards_is_recalled_but_not_observed(
        n: int, pair: st.DataObject, last: int) -> None:
    """Two games whose first two price cards came in swapped order, with sapphire (which both
    cards move alike) bought every turn, reach the same view: same observation for every seat;
    the information states differ exactly in card_history's first two rows."""
    first = pair.draw(st.sampled_from([c for c in range(NUM_CARDS) if c != last]))
    second = pair.draw(st.sampled_from(
        [c for c in range(NUM_CARDS) if c not in (first, last)
         and PRICE_CARDS[c][SAPPHIRE] == PRICE_CARDS[first][SAPPHIRE]]))
    a, b = (load(n).replay([*cards[:1], *[buy(SAPPHIRE), END_TURN] * n,
                            cards[1], *[buy(SAPPHIRE), END_TURN] * n, last])
            for cards in ((first, second), (second, first)))
    for player in range(n):
        assert a.observation(player) == b.observation(player)
        assert np.array_equal(obs(a, player), obs(b, player))
        recalled = [views(s, info(s, player))["card_history"] for s in (a, b)]
        assert np.array_equal(recalled[0][[1, 0]], recalled[1][:2])
        assert np.array_equal(recalled[0][2:], recalled[1][2:])
        assert not np.array_equal(info(a, player), info(b, player))


@pytest.mark.parametrize("n", [2, 7])
def test_resampling_from_the_information_state_changes_no_tensor(n: int) -> None:
    """The deck's order is decided when a card turns, so a resampled state is the same state
    (GB-6) and no tensor may differ."""
    rng = random.Random(n)
    for state in positions(n)[::50]:
        for player in range(n):
            other = state.resample_from_infostate(player, rng)
            assert np.array_equal(obs(other, player), obs(state, player))
            assert np.array_equal(info(other, player), info(state, player))


# --- one test per section -------------------------------------------------------------------


def test_gb2_seat_and_seat_relative_rows() -> None:
    """The observer's own row comes first, then the seats after it in turn order."""
    state = state_at(position(4, money=[11, 22, 33, 44], hands=[[1, 0, 0], [0, 2, 0],
                                                              [0, 0, 3], [1, 1, 1]]))
    for player in range(4):
        v = views(state, obs(state, player))
        assert one(v["seat"]) == player
        order = [(player + r) % 4 for r in range(4)]
        assert v["grands"].tolist() == pytest.approx([(11 * (s + 1)) / MAX_GRANDS for s in order])
        assert v["gems"].tolist() == [[h / 4 for h in state.bazaar.hands[s]] for s in order]


def test_gb3_phase_round_start_player_to_move_and_traded_through_a_round() -> None:
    state = load(3).new_initial_state()
    v = views(state, obs(state, 1))
    assert PHASES[one(v["phase"])] == "card_due" and one(v["round"]) == 0
    assert one(v["start_player"]) == 2  # seat 0 starts round 1, two seats after seat 1
    assert not v["to_move"].any() and not v["traded"].any() and not v["last_card"].any()
    state.apply_action(13)  # card 13 changes nothing: round 1 starts
    for turn in range(3):
        v = views(state, obs(state, 1))
        assert PHASES[one(v["phase"])] == "trading" and one(v["round"]) == 1
        assert one(v["to_move"]) == (turn - 1) % 3
        assert v["traded"].tolist() == [float((r + 1) % 3 < turn) for r in range(3)]
        state.apply_action(buy(RUBY))
        state.apply_action(END_TURN)
    v = views(state, obs(state, 1))
    assert PHASES[one(v["phase"])] == "card_due" and v["traded"].tolist() == [1.0] * 3
    state.apply_action(0)
    v = views(state, obs(state, 1))
    assert one(v["round"]) == 2 and one(v["start_player"]) == 0 == one(v["to_move"])
    assert one(v["last_card"][SAPPHIRE]) == 0  # card 0 lowers every price (-1 -> column 0)


def test_gb3_gb5_the_end_shows_game_over_and_the_returns() -> None:
    end = positions(4)[-1]
    assert end.is_terminal()
    for player in range(4):
        v = views(end, obs(end, player))
        assert PHASES[one(v["phase"])] == "game_over" and one(v["round"]) == 27
        assert not v["to_move"].any() and not v["traded"].any()
        shares = end.returns()
        assert v["returns"].tolist() == pytest.approx([shares[(player + r) % 4] for r in range(4)])
        assert v["prices"].tolist() == pytest.approx([10 / MAX_PRICE] * 3)


def test_gb4_this_turn_marks_the_gem_types_bought_and_sold() -> None:
    state = state_at(position(2, hands=[[0, 2, 0], [0, 0, 0]]))
    state.apply_action(buy(SAPPHIRE))
    state.apply_action(sell(RUBY))
    v = views(state, obs(state, 1))  # the other seat sees the trader's turn too
    assert v["this_turn"].tolist() == [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]
    state.apply_action(buy(EMERALD))
    assert views(state, obs(state, 0))["this_turn"].tolist() == [[1, 0, 1], [0, 1, 0]]
    state.apply_action(END_TURN)
    assert not views(state, obs(state, 0))["this_turn"].any()


def test_gb1_prices_gems_and_grands_are_scaled_to_their_largest_values() -> None:
    state = state_at(position(2, prices=[19, 1, 10], supply=[10, 0, 6], money=[MAX_GRANDS, 0],
                              hands=[[0, 4, 0], [0, 0, 4]]))
    v = views(state, obs(state, 0))
    assert v["prices"].tolist() == pytest.approx([1.0, 1 / 19, 10 / 19])
    assert v["bazaar"].tolist() == pytest.approx([1.0, 0.0, 0.6])
    assert v["grands"].tolist() == [1.0, 0.0]
    assert v["gems"].tolist() == [[0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]


def test_gb6_cards_left_and_the_next_cards_odds() -> None:
    start = load(2).new_initial_state()
    fresh = views(start, obs(start, 0))
    assert fresh["cards_left"].tolist() == [1.0] * 27
    assert fresh["next_card_odds"] == pytest.approx(np.full((3, 3), 1 / 3))
    ups = [c for c, card in enumerate(PRICE_CARDS) if card[SAPPHIRE] == 1 and card[RUBY] >= 0]
    state = state_at(position(2, deck=sum(1 << c for c in ups)))
    v = views(state, obs(state, 0))
    assert np.flatnonzero(v["cards_left"]).tolist() == ups
    assert v["next_card_odds"] == pytest.approx(
        np.array([[0, 0, 1], [0, 1 / 2, 1 / 2], [1 / 3, 1 / 3, 1 / 3]]))


@pytest.mark.parametrize("n", [3, 6])
def test_gb6_the_odds_are_the_engines_chance_outcomes(n: int) -> None:
    for state in positions(n):
        if not state.is_chance_node():
            continue
        expected = np.zeros((3, 3))
        for card, p in state.chance_outcomes():
            for gem, change in enumerate(PRICE_CARDS[card]):
                expected[gem, change + 1] += p
        assert views(state, obs(state, 0))["next_card_odds"] == pytest.approx(expected, abs=1e-6)


# --- the information state ------------------------------------------------------------------


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_the_information_state_recalls_the_card_order_and_every_turns_trades(n: int) -> None:
    """card_history and trade_history against a replay that asks the engine who traded."""
    for seed in (1, 2):
        cards, trades = np.zeros((27, 3, 3)), np.zeros((26, n, 2, 3))
        state = None
        for after in play(n, 100 * n + seed):
            if state is not None:  # the action that led from state to after
                action = after.history()[-1]
                if action < NUM_CARDS:
                    for gem, change in enumerate(PRICE_CARDS[action]):
                        cards[state.bazaar.round, gem, change + 1] = 1
                elif action != END_TURN:
                    kind, gem = divmod(action - BUY, 3)
                    trades[state.bazaar.round - 1, state.current_player(), kind, gem] += 1
            state = after
            if len(after.history()) % 5 and not after.is_terminal():
                continue
            for player in range(n):
                v = views(after, info(after, player))
                assert np.array_equal(v["card_history"], cards)
                assert np.array_equal(v["trade_history"] * 4, np.roll(trades, -player, axis=1))


@pytest.mark.parametrize("n", [2, 5])
def test_equal_information_state_strings_give_equal_tensors(n: int) -> None:
    """The string spells out the whole history (nothing is hidden), so replaying it rebuilds
    the information state; seats' strings differ, and so do their tensors."""
    game = load(n)
    for state in positions(n)[::40]:
        tensors = []
        for player in range(n):
            text = state.information_state_string(player)
            history = [int(a) for a in text.split(":", 1)[1].split(",") if a]
            again = game.replay(history)
            assert again.information_state_string(player) == text
            assert np.array_equal(info(again, player), info(state, player))
            tensors.append(info(state, player).tobytes())
        assert len(set(tensors)) == n


def test_the_order_of_trades_within_a_turn_is_not_recalled() -> None:
    """Documented: a turn is recalled as counts; the order of its buys and sells is not."""
    start = [13, buy(SAPPHIRE), END_TURN, buy(RUBY), END_TURN, 14]  # seat 1 starts round 2
    a = load(2).replay([*start, buy(EMERALD), sell(RUBY)])
    b = load(2).replay([*start, sell(RUBY), buy(EMERALD)])
    assert a.information_state_string(0) != b.information_state_string(0)
    assert np.array_equal(info(a, 0), info(b, 0))
    assert views(a, info(a, 0))["trade_history"][1, 1].tolist() == [[0, 0, 0.25], [0, 0.25, 0]]
