"""Aztec Market's observation and information-state tensors (docs/tensors/aztec_market.md).

The tensor is decoded back, with the documented scales only, into the game's own dict view
(`state.observation(p)`, what the seat may see): so it carries all of it and, being a function
of it, nothing more. The one hidden thing (AM-8: the order of the bag) is decided by the engine
only when a good is drawn, so pairs of positions that differ only in it are built by swapping
two draws of a restock: the seats' observation tensors must not tell them apart.
"""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.aztec_market.positions import market, sq, state_at

import tlatelolco
from tlatelolco.chance import sample_chance
from tlatelolco.contract import CHANCE, TERMINAL, State
from tlatelolco.games.aztec_market import tensors
from tlatelolco.games.aztec_market.components import (
    BUY,
    BUYER_NAMES,
    COIN,
    COLOURS,
    CROWD,
    DRAW,
    KING,
    KING_BUYS,
    KING_SKIPS,
    MOVE,
    PAID_MOVE,
    PASS,
    PLAY,
    SIDES,
    SQUARE_NAMES,
    TEAMS,
    TILE_COUNTS,
    TILE_NAMES,
)
from tlatelolco.games.aztec_market.market import (
    BUILD,
    CHOOSE,
    OVER,
    PASS_KING,
    PASS_MOVES,
    PLAYING,
    RESTOCK,
)
from tlatelolco.games.aztec_market.state import PHASE_NAMES

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "tensors" / "aztec_market.md"

CONFIGS = [
    {"num_players": 2},
    {"num_players": 3, "setup": "random", "luck": False, "removed": 8},
    {"num_players": 4, "setup": "random"},
    {"num_players": 4, "removed": 0},
]
BLACK, BLUE, RED, GREEN = range(4)

# The documented scales (docs/tensors/aztec_market.md), written out again on purpose.
GOODS, SCORE, COINS_ALL, BAG, MOVES_OWED, DRAWS_OWED = 20, 400, 16, 80, 2, 4
EVENT_SCALES = (25, 80, 80, 25, 200, 20, 20, 20, 20)


def load(**options: Any) -> tlatelolco.Game:
    return tlatelolco.load("aztec_market", **options)


def play(game: tlatelolco.Game, rng: random.Random) -> Iterator[State]:
    """Every position of one random game, the start and the end included (the same object)."""
    state = game.new_initial_state()
    yield state
    while not state.is_terminal():
        state.apply_action(sample_chance(state, rng) if state.is_chance_node()
                           else rng.choice(state.legal_actions()))
        yield state


def random_history(game: tlatelolco.Game, seed: int) -> list[int]:
    *_, end = play(game, random.Random(seed))
    return end.history()


def seats_of(state: State) -> range:
    return range(state.get_game().num_players())


def count(x: Any, scale: float) -> int:
    value = float(x) * scale
    assert abs(value - round(value)) < 1e-3, f"{x} x {scale} is not a count"
    return round(value)


def flag(x: Any) -> bool:
    assert x in (0.0, 1.0), x
    return bool(x)


def one(x: Any) -> int | None:
    """The index of a one-hot vector's 1, None when it is all zero."""
    hot = np.flatnonzero(x)
    assert len(hot) <= 1 and set(x.ravel().tolist()) <= {0.0, 1.0}, x
    return int(hot[0]) if len(hot) else None


def decode(t: Any, layout: Any) -> dict[str, Any]:
    """`state.observation(seat)` read back from a tensor (either kind) and nothing else."""
    v = layout.views(t[:layout.size] if t.size > layout.size else t)
    n = v["observer"].size
    me = one(v["observer"])
    assert me is not None
    seat = [(me + r) % n for r in range(n)]  # relative -> absolute

    def absolute(rows: Any) -> list[Any]:
        return [rows[(s - me) % n] for s in range(n)]

    phase = PHASE_NAMES[one(v["phase"])]  # type: ignore[index]
    to_move = one(v["to_move"])
    squares = [one(cell) for cell in v["market"]]
    hole = one(v["hole"])
    turn_of = one(v["turn_of"])
    assert turn_of is not None
    bought, errand = (flag(f) for f in v["turn_flags"])
    returns = [float(x) for x in absolute(v["returns"])]
    assert phase == "over" or not any(returns), "no returns before the end"
    players = []
    for s, (coins, goods, colours) in enumerate(zip(
            absolute(v["buyer_coin"]), absolute(v["buyer_goods"]), absolute(v["buyer_colour"]),
            strict=True)):
        held = [one(c) for c in colours]
        players.append({"seat": s, "side": SIDES[s], "buyers": [
            {"name": BUYER_NAMES[s][b], "coin": flag(coins[b]),
             "goods": count(goods[b], GOODS),
             "colour": None if held[b] is None else COLOURS[held[b]]} for b in range(4)]})
    removed = v["removed"]
    return {
        "game": "aztec_market",
        "phase": phase,
        "to_move": seat[to_move] if to_move is not None
        else CHANCE if phase in ("random build", "restock") else TERMINAL,
        "turn_of": seat[turn_of],
        "tiles_to_place": {TILE_NAMES[k]: count(x, TILE_COUNTS[k])
                           for k, x in enumerate(v["tiles_to_place"]) if x},
        "market": {SQUARE_NAMES[s]: None if k == 10 else TILE_NAMES[k]  # type: ignore[index]
                   for s, k in enumerate(squares)},
        "hole": None if hole is None else SQUARE_NAMES[hole],
        "vendors": {c: count(x, GOODS) for c, x in zip(COLOURS, v["vendors"], strict=True)},
        "king": {c: count(x, GOODS) for c, x in zip(COLOURS, v["king"], strict=True)},
        "players": players,
        "teams": [list(team) for team in TEAMS[n]],
        "scores": [float(count(x, SCORE)) for x in absolute(v["scores"])],
        "coin_reserve": count(v["coin_reserve"][0], COINS_ALL),
        "bag": count(v["bag"][0], BAG),
        "unseen": {c: count(x, GOODS) for c, x in zip(COLOURS, v["unseen"], strict=True)},
        "removed": {"openly": {c: count(x, GOODS)
                               for c, x in zip(COLOURS, removed[:4], strict=True)},
                    "unseen": count(removed[4], BAG)},
        "turn": {"bought": bought, "errand_boy_just_moved": errand,
                 "market_moves_owed": count(v["owed"][0], MOVES_OWED),
                 "goods_to_draw": count(v["owed"][1], DRAWS_OWED)},
        "terminal": phase == "over",
        "returns": returns if phase == "over" else None,
    }


def recall(t: Any, layout: Any) -> tuple[list[int], list[list[int]]]:
    """The information state's recall: the colours drawn in order, and events per seat
    (absolute seats)."""
    v = layout.views(t)
    draws = [one(row) for row in v["draws"]]
    drawn = [d for d in draws if d is not None]
    assert drawn == draws[:len(drawn)], "the draws are written in order, with no gap"
    me = one(v["observer"])
    rows = v["events"]
    n = len(rows)
    events = [[count(x, k) for x, k in zip(rows[(s - me) % n], EVENT_SCALES, strict=True)]
              for s in range(n)]  # type: ignore[operator]
    return drawn, events


def replayed_recall(game: tlatelolco.Game, history: list[int]) -> tuple[list[int], list[list[int]]]:
    """The same, found by replaying the game and asking the state who acts at each step."""
    state = game.new_initial_state()
    draws: list[int] = []
    events = [[0] * 9 for _ in range(game.num_players())]
    for action in history:
        phase, actor = state.market.phase, state.current_player()  # type: ignore[attr-defined]
        column = None
        if phase == RESTOCK:
            draws.append(action - DRAW)
        elif phase == CHOOSE:
            column = 0 if action == PASS else 1
        elif phase == PLAYING and BUY <= action < KING_BUYS:
            column = 2
        elif phase == PLAYING and PAID_MOVE <= action < COIN:
            column = 3
        elif phase == PLAYING and MOVE <= action < PAID_MOVE:
            column = 4
        elif phase == PASS_KING and action != KING_SKIPS:
            column = 5 + action - KING_BUYS
        if column is not None:
            events[actor][column] += 1
        state.apply_action(action)
    return draws, events


def check_position(state: State) -> None:
    """Every tensor of every seat: shape, dtype, range, determinism and the decoded view."""
    game = state.get_game()
    obs_layout, info_layout = (game.observation_tensor_layout(),
                               game.information_state_tensor_layout())
    for p in seats_of(state):
        obs, info = state.observation_tensor(p), state.information_state_tensor(p)
        assert obs.dtype == np.float32 and obs.shape == game.observation_tensor_shape()
        assert info.dtype == np.float32 and info.shape == game.information_state_tensor_shape()
        assert obs.min() >= 0.0 and obs.max() <= 1.0 and info.min() >= 0.0 and info.max() <= 1.0
        assert np.array_equal(obs, state.observation_tensor(p)), "deterministic"
        assert np.array_equal(info[:obs.size], obs), "the information state starts with it"
        assert decode(obs, obs_layout) == state.observation(p)
        assert info_layout.size > obs_layout.size


# --- layouts --------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 3, 4])
def test_layouts_are_built_once_per_player_count(n: int) -> None:
    game, again = load(num_players=n), load(num_players=n, setup="random", removed=40)
    obs, info = game.observation_tensor_layout(), game.information_state_tensor_layout()
    assert obs is game.observation_tensor_layout() is again.observation_tensor_layout()
    assert info is game.information_state_tensor_layout() is again.information_state_tensor_layout()
    assert obs is tensors.plan(n).observation
    assert game.observation_tensor_shape() == (obs.size,) == (33 * n + 235,)
    assert info.sections[:len(obs.sections)] == obs.sections
    assert [name for name, _ in info.sections[len(obs.sections):]] == ["draws", "events"]
    assert info.size == obs.size + 80 * 4 + 9 * n == 42 * n + 555
    other = load(num_players=2 if n > 2 else 3).observation_tensor_layout()
    assert other is not obs and other.size != obs.size


def test_the_docs_page_names_every_section_and_its_example_runs() -> None:
    text = DOC.read_text(encoding="utf-8")
    for name, _ in load(num_players=4).information_state_tensor_layout().sections:
        assert f"`{name}`" in text, f"section {name} is not documented"
    blocks = re.findall(r"^```python\n(.*?)^```", text, re.MULTILINE | re.DOTALL)
    assert blocks
    namespace: dict[str, Any] = {}
    for block in blocks:
        exec(compile(block, str(DOC), "exec"), namespace)


def test_loading_the_game_does_not_import_numpy() -> None:
    code = ("import sys, tlatelolco; g = tlatelolco.load('aztec_market');"
            "g.new_initial_state(); g.observation_tensor_layout();"
            "assert 'numpy' not in sys.modules, 'numpy imported'")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


# --- everything the seat sees, nothing more -------------------------------------------------


@pytest.mark.parametrize("options", CONFIGS, ids=lambda o: json.dumps(o))
def test_every_position_decodes_to_the_seats_view(options: dict[str, Any]) -> None:
    game = load(**options)
    for state in play(game, random.Random(17)):
        check_position(state)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), options=st.sampled_from(CONFIGS),
       steps=st.integers(0, 400))
def test_random_positions_decode_and_resample_to_the_same_tensors(
        seed: int, options: dict[str, Any], steps: int) -> None:
    """Any position: the view decodes back; a state the seat could be in (resampled from its
    information state) gives it the same tensors (AM-8: nothing hidden is held)."""
    rng = random.Random(seed)
    game = load(**options)
    state = game.replay(random_history(game, seed)[:steps])
    check_position(state)
    for p in seats_of(state):
        other = state.resample_from_infostate(p, rng)
        assert np.array_equal(other.observation_tensor(p), state.observation_tensor(p))
        assert np.array_equal(other.information_state_tensor(p),
                              state.information_state_tensor(p))


@pytest.mark.parametrize("n", [2, 3, 4])
def test_equal_views_give_equal_tensors_and_distinct_views_distinct_ones(n: int) -> None:
    """The observation tensor is a function of the seat and its dict view, and tells every two
    views apart.
    The equal views come from other histories: two draws of a restock swapped (AM-8)."""
    by_view: dict[str, bytes] = {}
    by_tensor: dict[bytes, str] = {}
    collisions = 0
    for seed in range(4):
        game = load(num_players=n)
        history = random_history(game, seed)
        for states in (positions_along(game, history), positions_along(game, swapped(history))):
            for state in states:
                for p in seats_of(state):
                    view = f"{p}|{json.dumps(state.observation(p), sort_keys=True)}"
                    tensor = state.observation_tensor(p).tobytes()
                    collisions += view in by_view
                    assert by_view.setdefault(view, tensor) == tensor, "one view, two tensors"
                    assert by_tensor.setdefault(tensor, view) == view, "two views, one tensor"
    assert collisions > 100


def positions_along(game: tlatelolco.Game, history: list[int]) -> Iterator[State]:
    state = game.new_initial_state()
    for action in history:
        state.apply_action(action)
        yield state


def swapped(history: list[int]) -> list[int]:
    """The history with the first two different colours drawn in one restock swapped."""
    for i in range(len(history) - 1):
        a, b = history[i], history[i + 1]
        if DRAW <= a < DRAW + 4 and DRAW <= b < DRAW + 4 and a != b:
            return [*history[:i], b, a, *history[i + 2:]]
    raise AssertionError("no restock drew two colours")


@pytest.mark.parametrize("n", [2, 3, 4])
def test_am8_the_order_of_the_draws_leaves_no_trace_in_the_observation(n: int) -> None:
    """Two games that differ only in the order two goods left the bag: after the restock the
    positions are the same, so are every seat's observation tensors; the information states,
    which recall the draws in order (every seat saw them), differ in `draws` only."""
    game = load(num_players=n)
    history = random_history(game, n)
    other = swapped(history)
    first = next(i for i, (a, b) in enumerate(zip(history, other, strict=True)) if a != b)
    layout = game.information_state_tensor_layout()
    draws = slice(layout.offset("draws"), layout.offset("events"))
    for step, (x, y) in enumerate(zip(positions_along(game, history),
                                      positions_along(game, other), strict=True)):
        if step <= first:
            continue  # the state after the first of the two draws still differs
        assert x.market.key() == y.market.key()  # type: ignore[attr-defined]
        for p in seats_of(x):
            assert np.array_equal(x.observation_tensor(p), y.observation_tensor(p))
            a, b = x.information_state_tensor(p), y.information_state_tensor(p)
            assert not np.array_equal(a[draws], b[draws])
            a[draws] = b[draws] = 0.0
            assert np.array_equal(a, b)


@pytest.mark.parametrize("options", CONFIGS, ids=lambda o: json.dumps(o))
def test_am8_the_bags_contents_are_public_by_elimination(options: dict[str, Any]) -> None:
    """`unseen` and `bag`: what is neither drawn (history) nor removed openly; the same as 20
    of a colour less every good of it in sight (AM-9)."""
    game = load(**options)
    layout = game.observation_tensor_layout()
    for state in play(game, random.Random(5)):
        v = layout.views(state.observation_tensor(0))
        drawn = [0] * 4
        for action in state.history():
            if DRAW <= action < DRAW + 4:
                drawn[action - DRAW] += 1
        openly = [count(x, GOODS) for x in v["removed"][:4]]
        hidden = count(v["removed"][4], BAG)
        unseen = [count(x, GOODS) for x in v["unseen"]]
        assert unseen == [20 - d - o for d, o in zip(drawn, openly, strict=True)]
        in_sight = (v["vendors"] + v["king"] + v["holdings"].sum(0)) * GOODS
        assert unseen == [20 - round(s) - o for s, o in zip(in_sight, openly, strict=True)]
        assert count(v["bag"][0], BAG) == sum(unseen) - hidden
        assert hidden == (options.get("removed", 4) if options.get("luck", True) else 0)


# --- the information state ------------------------------------------------------------------


@pytest.mark.parametrize("options", CONFIGS, ids=lambda o: json.dumps(o))
def test_information_state_recalls_the_draws_and_each_seats_events(
        options: dict[str, Any]) -> None:
    """`draws` in order (AM-5 step 1) and `events` per seat, checked against a replay that asks
    the state who acts; equal information-state strings give equal tensors."""
    game = load(**options)
    layout = game.information_state_tensor_layout()
    history = random_history(game, 11)
    for cut in range(0, len(history) + 1, 7):
        state = game.replay(history[:cut])
        again = load(**options).replay(history[:cut])
        expected = replayed_recall(game, history[:cut])
        for p in seats_of(state):
            tensor = state.information_state_tensor(p)
            assert state.information_state_string(p) == again.information_state_string(p)
            assert np.array_equal(tensor, again.information_state_tensor(p))
            assert recall(tensor, layout) == expected


def test_equal_information_strings_mean_equal_tensors_across_random_games() -> None:
    seen: dict[str, bytes] = {}
    for seed, options in enumerate(CONFIGS):
        game = load(**options)
        for state in play(game, random.Random(seed)):
            for p in seats_of(state):
                key = f"{json.dumps(options)}|{state.information_state_string(p)}"
                tensor = state.information_state_tensor(p).tobytes()
                assert seen.setdefault(key, tensor) == tensor
                if state.move_number() % 50 == 0:  # the same string from another state object
                    replayed = game.replay(state.history())
                    assert replayed.information_state_tensor(p).tobytes() == tensor


def test_a_hand_built_position_recalls_nothing() -> None:
    state = state_at(market(3, vendor_goods=[1, 2, 3, 4]))
    layout = state.get_game().information_state_tensor_layout()
    info = state.information_state_tensor(1)
    assert not info[layout.offset("draws"):].any()
    assert info[layout.offset("vendors")] == pytest.approx(1 / 20)


# --- one test per section, with the rule it encodes ----------------------------------------


def views(state: State, p: int) -> dict[str, Any]:
    return state.get_game().observation_tensor_layout().views(state.observation_tensor(p))


def test_am2_seat_sections_start_with_the_observer_and_follow_the_turn_order() -> None:
    m = market(4, player=2, coins=[1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])
    state = state_at(m)
    for p in range(4):
        v = views(state, p)
        assert one(v["observer"]) == p
        assert one(v["to_move"]) == one(v["turn_of"]) == (2 - p) % 4
        # seat s's coin is on buyer s: relative row r (seat p + r) holds buyer (p + r) % 4
        assert [one(row) for row in v["buyer_coin"]] == [(p + r) % 4 for r in range(4)]


def test_am2_the_market_keeps_absolute_squares_and_the_hole() -> None:
    state = state_at(market(2))  # positions.STANDARD: the hole at C1, the king at D2
    for p in range(2):
        v = views(state, p)
        assert one(v["hole"]) == sq("C1") and one(v["market"][sq("C1")]) == 10
        assert one(v["market"][sq("D2")]) == KING and one(v["market"][sq("A4")]) == CROWD
        assert v["market"].sum() == 16


def test_am3_tiles_to_place_and_the_hole_before_it_is_decided() -> None:
    state = load(num_players=3).new_initial_state()
    v = views(state, 0)
    assert v["tiles_to_place"].tolist() == [1.0] * 10 and not v["hole"].any()
    assert one(v["phase"]) == BUILD and v["market"][:, 10].sum() == 16
    state.apply_action(0 * 16 + sq("B2"))  # seat 0 places the black vendor at B2
    state.apply_action(4 * 16 + sq("A1"))  # seat 1 a crowd at A1
    v = views(state, 2)
    assert v["tiles_to_place"][0] == 0.0 and v["tiles_to_place"][CROWD] == pytest.approx(3 / 4)
    assert one(v["turn_of"]) == 0 and one(v["market"][sq("B2")]) == 0


def test_am3_start_coin_and_am5_step3_coins_on_buyers_and_the_reserve() -> None:
    m = market(2, coins=[1, 1, 0, 0, 0, 0, 0, 1])
    v = views(state_at(m), 1)
    assert v["buyer_coin"].tolist() == [[0, 0, 0, 1], [1, 1, 0, 0]]
    assert count(v["coin_reserve"][0], COINS_ALL) == 13


def test_am6_am9_a_buyer_holds_goods_of_one_colour() -> None:
    m = market(3, buyer_goods=[0, 3, 0, 0] + [0] * 4 + [0, 0, 0, 7],
               buyer_colour=[-1, RED, -1, -1] + [-1] * 4 + [-1, -1, -1, GREEN])
    v = views(state_at(m), 0)
    assert [one(c) for c in v["buyer_colour"][0]] == [None, RED, None, None]
    assert [one(c) for c in v["buyer_colour"][2]] == [None, None, None, GREEN]
    assert v["buyer_goods"][0, 1] == pytest.approx(3 / 20)
    assert v["holdings"][2].tolist() == pytest.approx([0, 0, 0, 7 / 20])


def test_am5_am6_goods_on_the_vendors_and_on_the_king() -> None:
    v = views(state_at(market(2, vendor_goods=[4, 0, 1, 0], king_goods=[0, 2, 0, 20])), 1)
    assert v["vendors"].tolist() == pytest.approx([0.2, 0, 0.05, 0])
    assert v["king"].tolist() == pytest.approx([0, 0.1, 0, 1.0])


def test_am7_scores_the_rulebooks_worked_example_by_side() -> None:
    goods = [[9, 0, 0, 6], [3, 6, 4, 4], [5, 5, 3, 0], [0, 0, 8, 6]]  # Yolanda, Laura, Victor, …
    m = market(4, phase=OVER, player=3, king_goods=[2, 4, 3, 1],
               buyer_goods=[g for held in goods for g in held],
               buyer_colour=[c if g else -1 for held in goods for c, g in enumerate(held)])
    state = state_at(m)
    v = views(state, 1)  # Laura: her side first, then North's, hers, South's
    assert (v["scores"] * SCORE).tolist() == pytest.approx([60, 53, 60, 53])
    assert v["returns"].tolist() == [1.0, 0.0, 1.0, 0.0]
    assert one(v["phase"]) == OVER and not v["to_move"].any()
    assert (v["holdings"][0] * GOODS).tolist() == pytest.approx([3, 6, 4, 4])


def test_am5_restock_is_a_chance_node_with_goods_owed() -> None:
    state = load(num_players=2, setup="random").new_initial_state()
    rng = random.Random(3)
    while state.market.phase != RESTOCK:  # type: ignore[attr-defined]
        action = (sample_chance(state, rng) if state.is_chance_node()
                  else PASS if PASS in state.legal_actions() else rng.choice(state.legal_actions()))
        state.apply_action(action)
    v = views(state, 1)
    assert one(v["phase"]) == RESTOCK and not v["to_move"].any()
    assert one(v["turn_of"]) == (state.market.player - 1) % 2  # type: ignore[attr-defined]
    assert v["owed"].tolist() == [0.0, 1.0]
    while state.is_chance_node():
        state.apply_action(sample_chance(state, rng))
    v = views(state, 0)
    assert one(v["phase"]) == PASS_MOVES and v["owed"].tolist() == [1.0, 0.0]


def test_am6_rulings_bought_and_errand_boy_flags() -> None:
    v = views(state_at(market(2, bought=True, last_errand=True)), 0)
    assert v["turn_flags"].tolist() == [1.0, 1.0]
    v = views(state_at(market(2)), 0)
    assert v["turn_flags"].tolist() == [0.0, 0.0]


def test_am3_removed_goods_openly_or_unseen() -> None:
    v = views(load(num_players=2, luck=False, removed=8).new_initial_state(), 0)
    assert (v["removed"] * [20, 20, 20, 20, 80]).tolist() == pytest.approx([2, 2, 2, 2, 0])
    assert (v["unseen"] * GOODS).tolist() == pytest.approx([18] * 4)
    assert v["bag"][0] == pytest.approx(72 / 80)
    v = views(load(num_players=2, removed=12).new_initial_state(), 0)
    assert (v["removed"] * [20, 20, 20, 20, 80]).tolist() == pytest.approx([0, 0, 0, 0, 12])
    assert v["bag"][0] == pytest.approx(68 / 80)


def test_am4_to_am6_events_count_turns_purchases_and_moves_per_seat() -> None:
    game = load(num_players=2, setup="random")
    state = game.replay(random_history(game, 8))
    layout = game.information_state_tensor_layout()
    _, events = recall(state.information_state_tensor(0), layout)
    history = state.history()
    passes, plays = history.count(PASS), history.count(PLAY)
    assert sum(e[0] for e in events) == passes and sum(e[1] for e in events) == plays
    assert sum(e[2] for e in events) == sum(BUY <= a < KING_BUYS for a in history)
    assert sum(sum(e[5:]) for e in events) == sum(KING_BUYS <= a < KING_SKIPS for a in history)
    # both seats had the same number of turns (AM-7)
    assert events[0][0] + events[0][1] == events[1][0] + events[1][1]


def test_am5_step1_draws_are_recalled_in_order() -> None:
    game = load(num_players=3, setup="random")
    state = game.new_initial_state()
    rng = random.Random(4)
    for _ in range(300):
        if state.is_terminal():
            break
        state.apply_action(sample_chance(state, rng) if state.is_chance_node()
                           else rng.choice(state.legal_actions()))
    drawn, _ = recall(state.information_state_tensor(2), game.information_state_tensor_layout())
    assert drawn == [a - DRAW for a in state.history() if DRAW <= a < DRAW + 4]
    assert len(drawn) > 8

