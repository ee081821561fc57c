"""Axio's tensors (docs/tensors/axio.md): each section says what the seat's view says, nothing
another seat hides gets in (AX-6), and the information state follows its string.

Positions come from seeded games for every player count: random ones, and greedy ones, since
only good play takes colours to 12 (AX-4 extra turns) and names colours for empty corners.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from functools import cache
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import tlatelolco
from tlatelolco import CHANCE, TERMINAL
from tlatelolco.bots import make_bot
from tlatelolco.chance import sample_chance
from tlatelolco.games.axio import AxioState, tensors
from tlatelolco.games.axio.state import PHASE_NAMES
from tlatelolco.games.axio.table import DRAW, START, decode_place
from tlatelolco.games.axio.tiles import COLOURS, EMPTY, NUM_TILES, tiles_data

COUNTS = (1, 2, 3, 4)
GAMES = 2  # of each kind, per player count

Views = dict[str, np.ndarray]


def play(n: int, seed: int, greedy: bool, tiles: Any = "default") -> list[AxioState]:
    """Every state along one seeded game, the last one terminal."""
    game = tlatelolco.load("axio", num_players=n, tiles=tiles)
    rng = random.Random(seed)
    bots = [make_bot("greedy", game, seat, seed) for seat in range(n)] if greedy else None
    state, seen = game.new_initial_state(), []
    while not state.is_terminal():
        seen.append(state.clone())
        if state.is_chance_node():
            action = sample_chance(state, rng)
        elif bots:
            action = bots[state.current_player()].step(state)
        else:
            action = rng.choice(state.legal_actions())
        state.apply_action(action)
    assert isinstance(state, AxioState)
    return [*seen, state]


def two_extra_turns(states: list[AxioState]) -> list[AxioState]:
    """A placement that scores in two colours, played with both at 11: two extra turns at
    once (AX-4 ruling), so one is still pending while the first is drawn; and the draw."""
    for state in states:
        if state.is_chance_node() or state.is_terminal() or not state.table.supply_left:
            continue
        seat = state.current_player()
        for action in state.legal_actions():
            after = state.clone()
            after.apply_action(action)
            gained = [c for c, (a, b) in enumerate(zip(state.table.scores[seat],
                                                       after.table.scores[seat], strict=True))
                      if b > a]
            if len(gained) >= 2:
                chosen = state.clone()
                for colour in gained[:2]:
                    chosen.table.scores[seat][colour] = 11
                chosen.apply_action(action)
                assert chosen.table.extra_pending >= 1
                drawn = chosen.clone()
                drawn.apply_action(sample_chance(drawn, random.Random(0)))
                return [chosen, drawn]
    raise AssertionError("no placement scores in two colours")


@cache
def positions(n: int) -> tuple[AxioState, ...]:
    games = [play(n, 100 * n + seed, greedy) for seed in range(GAMES) for greedy in (False, True)]
    return tuple(state for game in games for state in game) + tuple(two_extra_turns(games[-1]))


@cache
def cases(n: int) -> tuple[tuple[AxioState, int, Views, dict[str, Any]], ...]:
    """(state, seat, that seat's information state tensor as sections, its observation)."""
    layout = tlatelolco.load("axio", num_players=n).information_state_tensor_layout()
    return tuple((state, seat, layout.views(state.information_state_tensor(seat)),
                  state.observation(seat))
                 for state in positions(n) for seat in range(n))


def one(vector: np.ndarray) -> int:
    """The index of the single 1 of a one-hot vector (and every other entry is 0)."""
    hot = np.flatnonzero(vector)
    assert len(hot) == 1 and vector[hot[0]] == 1.0, vector
    return int(hot[0])


def relative(values: list[Any], seat: int) -> list[Any]:
    """Per-seat values in the observer's order: itself, then the next seats."""
    n = len(values)
    return [values[(seat + r) % n] for r in range(n)]


def corner_name(row: np.ndarray) -> str | None:
    category = one(row)
    return None if category == EMPTY else COLOURS[category]


def unseen_by(state: AxioState, seat: int) -> set[int]:
    """The tiles `seat` has not seen: face down, or in another seat's hand."""
    t = state.table
    return set(t.pool) | {h for s, h in enumerate(t.hands) if s != seat and h >= 0}


# --- one check per section: what it must say, from the seat's view or the public history ----

Check = Callable[[np.ndarray, AxioState, int, dict[str, Any]], None]


def check_turn_of(v: np.ndarray, state: AxioState, seat: int, view: dict[str, Any]) -> None:
    n = len(v)
    turn_of = (one(v) + seat) % n
    assert turn_of == view["turn_of"]
    assert view["to_move"] == (turn_of if view["phase"] == "placing"
                               else TERMINAL if view["terminal"] else CHANCE)


def check_hand(v: np.ndarray, state: AxioState, seat: int, view: dict[str, Any]) -> None:
    hand = view["hand"]
    assert (hand is None and not v.any()) or one(v) == hand["tile"]


def check_hand_corners(v: np.ndarray, state: AxioState, seat: int, view: dict[str, Any]
                       ) -> None:
    hand = view["hand"]
    assert (hand is None and not v.any()) or [corner_name(r) for r in v] == hand["corners"]


def check_on_display(v: np.ndarray, state: AxioState, seat: int, view: dict[str, Any]) -> None:
    assert np.flatnonzero(v).tolist() == sorted(d["tile"] for d in view["display"])
    assert set(v.tolist()) <= {0.0, 1.0}


def displayed(view: dict[str, Any]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """rotation, corners and position as the view's display says they must be."""
    rotation = np.zeros((NUM_TILES, 4), np.float32)
    corners = np.zeros((NUM_TILES, 4, len(COLOURS) + 1), np.float32)
    position = np.zeros((NUM_TILES, 2))
    for d in view["display"]:
        tile = d["tile"]
        rotation[tile, d["rotation"] // 90] = 1.0
        for corner, colour in enumerate(d["corners"]):
            corners[tile, corner, EMPTY if colour is None else COLOURS.index(colour)] = 1.0
        position[tile] = d["x"], d["y"]
    return rotation, corners, (position / tensors.COORD_SCALE).astype(np.float32)


def check_rotation(v: np.ndarray, state: AxioState, seat: int, view: dict[str, Any]) -> None:
    assert np.array_equal(v, displayed(view)[0])


def check_corners(v: np.ndarray, state: AxioState, seat: int, view: dict[str, Any]) -> None:
    assert np.array_equal(v, displayed(view)[1])


def check_position(v: np.ndarray, state: AxioState, seat: int, view: dict[str, Any]) -> None:
    assert np.array_equal(v, displayed(view)[2])


def check_unseen(v: np.ndarray, state: AxioState, seat: int, view: dict[str, Any]) -> None:
    """Public by elimination: neither on the display nor in the own hand."""
    assert set(np.flatnonzero(v).tolist()) == unseen_by(state, seat)
    assert set(v.tolist()) <= {0.0, 1.0}


def check_unseen_corners(v: np.ndarray, state: AxioState, seat: int, view: dict[str, Any]
                         ) -> None:
    tiles = state.tiles
    everywhere = [sum(tile.count(c) for tile in tiles) for c in range(len(v))]
    unseen = [sum(tiles[i].count(c) for i in unseen_by(state, seat)) for c in range(len(v))]
    assert np.allclose(v, [u / a if a else 0.0 for u, a in zip(unseen, everywhere, strict=True)])


def per_seat(key: str, scale: float) -> Check:
    """A section with one number per seat in the observer's order: `view[key]` / `scale`."""
    def check(v: np.ndarray, state: AxioState, seat: int, view: dict[str, Any]) -> None:
        assert np.allclose(v, np.array(relative(view[key], seat), float) / scale)
    return check


def check_supply(v: np.ndarray, state: AxioState, seat: int, view: dict[str, Any]) -> None:
    """Scaled by the supply's size at the start: 44, 32, 20 or 8 for 1 to 4 players (AX-2)."""
    size = {1: 44, 2: 32, 3: 20, 4: 8}[len(view["stacks"])]
    assert np.allclose(v * size, [view["supply"]])


def single(key: str, scale: float) -> Check:
    def check(v: np.ndarray, state: AxioState, seat: int, view: dict[str, Any]) -> None:
        assert np.allclose(v, [float(view[key]) / scale])
    return check


def check_scores(v: np.ndarray, state: AxioState, seat: int, view: dict[str, Any]) -> None:
    boards = [[board[c] for c in COLOURS] for board in view["scores"]]
    assert np.allclose(v * 12, relative(boards, seat))


def check_lowest(v: np.ndarray, state: AxioState, seat: int, view: dict[str, Any]) -> None:
    lowest = [min(board.values()) for board in view["scores"]]
    assert np.allclose(v * 12, relative(lowest, seat))


def check_returns(v: np.ndarray, state: AxioState, seat: int, view: dict[str, Any]) -> None:
    returns = view["returns"] or [0.0] * len(v)
    assert np.allclose(v, relative(returns, seat))


def public_tiles(state: AxioState) -> list[tuple[int, int]]:
    """(tile, named colour 0..5) in the order the tiles came onto the display."""
    arrived = []
    for action in state.history():
        if action >= START:
            arrived.append(((action - START) // 4, 0))
        elif action < DRAW:
            x, y, _, name = decode_place(action)
            arrived.append((state.table.cells[x, y][0], name))
    return arrived


def check_arrival(v: np.ndarray, state: AxioState, seat: int, view: dict[str, Any]) -> None:
    order = [tile for tile, _ in public_tiles(state)]
    assert sorted(order) == sorted(d["tile"] for d in view["display"])
    wanted = np.zeros_like(v)
    wanted[order] = np.arange(1, len(order) + 1) / NUM_TILES
    assert np.array_equal(v, wanted)


def check_named(v: np.ndarray, state: AxioState, seat: int, view: dict[str, Any]) -> None:
    wanted = np.zeros_like(v)
    for tile, name in public_tiles(state):
        if name:
            assert EMPTY in state.tiles[tile]
            wanted[tile, name - 1] = 1.0
    assert np.array_equal(v, wanted)


def own_draws(state: AxioState, seat: int) -> list[int]:
    history = state.history()
    return [history[step] - DRAW for step, s in state.table.private_draws if s == seat]


def check_drawn(v: np.ndarray, state: AxioState, seat: int, view: dict[str, Any]) -> None:
    mine = own_draws(state, seat)
    assert np.flatnonzero(v).tolist() == sorted(mine)
    hand = {view["hand"]["tile"]} if view["hand"] else set()
    on_display = {d["tile"] for d in view["display"]}
    assert hand <= set(mine) <= on_display | hand  # the own tile, and those it placed


def check_draws(v: np.ndarray, state: AxioState, seat: int, view: dict[str, Any]) -> None:
    n = len(v)
    drew = [sum(1 for _, s in state.table.private_draws if s == other) for other in range(n)]
    assert np.allclose(v * tensors.MAX_DRAWS, relative(drew, seat))
    # a seat drew the tiles gone from its stack and one supply tile per extra turn (AX-4)
    assert all(0 <= d - (12 - s) <= 5 for d, s in zip(drew, view["stacks"], strict=True))


def check_moves(v: np.ndarray, state: AxioState, seat: int, view: dict[str, Any]) -> None:
    assert np.allclose(v * tensors.MAX_MOVES, [len(state.history())])


def check_observer(v: np.ndarray, state: AxioState, seat: int, view: dict[str, Any]) -> None:
    assert one(v) == seat


def check_phase(v: np.ndarray, state: AxioState, seat: int, view: dict[str, Any]) -> None:
    assert PHASE_NAMES[one(v)] == view["phase"]
    assert (view["phase"] == "over") == view["terminal"]


# section -> (the rule it encodes, its check); every section of the layouts is here
SECTIONS: dict[str, tuple[str, Check]] = {
    "observer": ("AX-2", check_observer),
    "turn_of": ("AX-3", check_turn_of),
    "phase": ("AX-2", check_phase),
    "hand_tile": ("AX-6", check_hand),
    "hand_corners": ("AX-1", check_hand_corners),
    "on_display": ("AX-3", check_on_display),
    "rotation": ("AX-3", check_rotation),
    "corners": ("AX-1", check_corners),
    "position": ("AX-3", check_position),
    "unseen": ("AX-6", check_unseen),
    "unseen_corners": ("AX-6", check_unseen_corners),
    "scores": ("AX-3", check_scores),
    "lowest": ("AX-5", check_lowest),
    "holding": ("AX-6", per_seat("holding", 1)),
    "stack": ("AX-2", per_seat("stacks", 12)),
    "placed": ("AX-7", per_seat("placed_from_stack", 12)),
    "supply": ("AX-4", check_supply),
    "extra_pending": ("AX-4", single("extra_turns_pending", 5)),
    "extra_turn": ("AX-4", single("extra_turn", 1)),
    "returns": ("AX-5", check_returns),
    "arrival": ("AX-3", check_arrival),
    "named": ("AX-3", check_named),
    "drawn": ("AX-6", check_drawn),
    "draws": ("AX-4", check_draws),
    "moves": ("", check_moves),
}


@pytest.mark.parametrize("n", COUNTS)
def test_every_section_has_a_check(n: int) -> None:
    layout = tlatelolco.load("axio", num_players=n).information_state_tensor_layout()
    assert [name for name, _ in layout.sections] == list(SECTIONS)


@pytest.mark.parametrize("n", COUNTS)
@pytest.mark.parametrize(("section", "rule"), [(s, r) for s, (r, _) in SECTIONS.items()],
                         ids=[f"{s}-{r or 'history'}" for s, (r, _) in SECTIONS.items()])
def test_section(section: str, rule: str, n: int) -> None:
    """The section says what the seat's view (or its public history) says, at every position."""
    _, check = SECTIONS[section]
    for state, seat, views, view in cases(n):
        check(views[section], state, seat, view)


def test_the_games_reach_what_the_sections_describe() -> None:
    """The positions take extra turns from the supply and name colours for empty corners
    (else the checks above could pass on sections that stay zero)."""
    states = [s for n in COUNTS for s in positions(n)]
    assert any(s.table.in_extra for s in states) and any(s.table.extra_pending for s in states)
    assert any(name for s in states for _, name in public_tiles(s))


@pytest.mark.parametrize("n", COUNTS)
def test_the_observation_covers_the_whole_view(n: int) -> None:
    """Every field of the seat's view is in some section checked above."""
    covered = {"game", "to_move", "turn_of", "phase", "terminal", "display", "hand", "holding",
               "scores", "stacks", "supply", "placed_from_stack", "extra_turns_pending",
               "extra_turn", "returns"}
    for _, _, _, view in cases(n):
        assert set(view) == covered


@pytest.mark.parametrize("n", COUNTS)
def test_layouts_shapes_and_ranges(n: int) -> None:
    game = tlatelolco.load("axio", num_players=n)
    observation, information = (game.observation_tensor_layout(),
                                game.information_state_tensor_layout())
    assert observation is game.observation_tensor_layout() is tensors.observation_layout(n)
    assert observation.size == 2019 + 12 * n and information.size == observation.size + 421 + n
    assert information.sections[:len(observation.sections)] == observation.sections
    for state, seat, views, _ in cases(n):
        tensor = state.observation_tensor(seat)
        assert tensor.dtype == np.float32 and tensor.shape == (observation.size,)
        assert np.array_equal(tensor, state.observation_tensor(seat))  # deterministic
        info = state.information_state_tensor(seat)
        assert np.array_equal(info[:observation.size], tensor)
        for name, v in views.items():
            assert v.min() >= (-1.0 if name == "position" else 0.0) and v.max() <= 1.0, name


@pytest.mark.parametrize("n", COUNTS)
def test_distinct_views_give_distinct_observations(n: int) -> None:
    """The observation is a one-to-one image of the seat's view: equal views give equal
    tensors, different views different ones (so the tensor cannot be blank)."""
    for seat in range(n):
        images: dict[str, bytes] = {}
        for state, s, _, view in cases(n):
            if s == seat:
                key = json.dumps(view, sort_keys=True)
                images.setdefault(key, state.observation_tensor(seat).tobytes())
                assert images[key] == state.observation_tensor(seat).tobytes()
        assert len(set(images.values())) == len(images) > 20


@pytest.mark.parametrize("n", COUNTS)
def test_equal_information_state_strings_give_equal_tensors(n: int) -> None:
    rng = random.Random(n)
    tensors_of: dict[str, bytes] = {}
    for state in positions(n)[::3]:
        for seat in range(n):
            for other in (state, state.resample_from_infostate(seat, rng)):
                key = other.information_state_string(seat)
                info = other.information_state_tensor(seat).tobytes()
                assert tensors_of.setdefault(key, info) == info


@pytest.mark.parametrize("n", COUNTS)
def test_resampling_keeps_every_tensor(n: int) -> None:
    """A state the seat could be in (other seats' hands dealt afresh) looks the same to it."""
    rng = random.Random(n)
    changed = 0
    for state in positions(n)[::2]:
        for seat in range(n):
            other = state.resample_from_infostate(seat, rng)
            changed += other.table.hands != state.table.hands
            assert np.array_equal(other.observation_tensor(seat), state.observation_tensor(seat))
            assert np.array_equal(other.information_state_tensor(seat),
                                  state.information_state_tensor(seat))
    assert (changed > 0) == (n > 1)


def another_draw(state: AxioState, holder: int, tile: int) -> AxioState:
    """The same game, except that `holder` drew `tile` (still face down) into its hand."""
    history = state.history()
    history[state.table.hand_step[holder]] = DRAW + tile
    other = state.get_game().replay(history)
    assert isinstance(other, AxioState)
    return other


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.sampled_from((2, 3, 4)), seed=st.integers(0, 2**32 - 1))
def test_another_seats_hand_tile_leaks_nothing(n: int, seed: int) -> None:
    """AX-6: pairs of games that differ only in the tile another seat drew give the same
    tensors to every seat but that one, which sees its own tile."""
    rng = random.Random(seed)
    states = play(n, seed, greedy=False)
    state = states[rng.randrange(len(states))]
    t = state.table
    holders = [s for s in range(n) if t.hands[s] >= 0 and t.hand_step[s] >= 0]
    assume(holders and t.pool)
    holder = rng.choice(holders)
    other = another_draw(state, holder, rng.choice(t.pool))
    for seat in range(n):
        same = seat != holder
        assert (other.observation(seat) == state.observation(seat)) == same
        assert (other.information_state_string(seat)
                == state.information_state_string(seat)) == same
        assert np.array_equal(other.observation_tensor(seat),
                              state.observation_tensor(seat)) == same
        assert np.array_equal(other.information_state_tensor(seat),
                              state.information_state_tensor(seat)) == same


@pytest.mark.parametrize("n", COUNTS)
def test_the_face_down_tiles_have_no_order(n: int) -> None:
    """AX-6: stacks and supply are one pool of unseen tiles in the engine, decided only when
    drawn; a pool in another order is the same game to every seat."""
    rng = random.Random(n)
    for state in positions(n)[::4]:
        other = state.clone()
        rng.shuffle(other.table.pool)
        for seat in range(n):
            assert np.array_equal(other.information_state_tensor(seat),
                                  state.information_state_tensor(seat))


@pytest.mark.parametrize("n", COUNTS)
def test_a_kept_display_follows_the_game(n: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """A display's sections are kept between calls and only its new tiles are written (an RL
    step adds one). At every step of two interleaved games they say what the view says, both
    when each display is kept and when each game evicts the other's at every step."""
    started_from: list[int] = []  # tiles already written when a display caught up
    catch_up = tensors._Display.catch_up

    def counting(display: Any, plan: Any) -> None:
        started_from.append(display.count)
        catch_up(display, plan)

    monkeypatch.setattr(tensors._Display, "catch_up", counting)
    game = tlatelolco.load("axio", num_players=n)
    layout = game.observation_tensor_layout()
    for kept in (1000, 1):
        monkeypatch.setattr(tensors, "_DISPLAYS_KEPT", kept)
        started_from.clear()
        live = [game.new_initial_state(), game.new_initial_state()]
        rngs = [random.Random(kept), random.Random(kept + 1)]
        while not all(state.is_terminal() for state in live):
            for state, rng in zip(live, rngs, strict=True):
                assert isinstance(state, AxioState)
                for seat in range(n):
                    views = layout.views(state.observation_tensor(seat))
                    view = state.observation(seat)
                    for section in ("on_display", "rotation", "corners", "position", "unseen",
                                    "unseen_corners"):
                        SECTIONS[section][1](views[section], state, seat, view)
                if not state.is_terminal():
                    state.apply_action(sample_chance(state, rng) if state.is_chance_node()
                                       else rng.choice(state.legal_actions()))
        afresh = started_from.count(0)
        if kept > 1:
            assert afresh == 2 and len(started_from) > 20, "kept displays grew tile by tile"
        else:
            assert afresh > len(started_from) // 2, "evicted displays were written afresh"


@pytest.mark.parametrize("n", COUNTS)
def test_a_hand_built_position_looks_the_same_and_recalls_nothing(n: int) -> None:
    game = tlatelolco.load("axio", num_players=n)
    state = positions(n)[len(positions(n)) // 2]
    built = game.state_from_position(state.table.copy())
    recall = game.observation_tensor_layout().size
    for seat in range(n):
        assert np.array_equal(built.observation_tensor(seat), state.observation_tensor(seat))
        assert not built.information_state_tensor(seat)[recall:].any()


def test_a_tile_set_of_ones_own_is_what_the_sections_show() -> None:
    """AX-1: a user's set (here every colour turned one step and two tiles made plain red)
    changes the corners and the unseen quadrants; the default set's tables are not reused."""
    default = tlatelolco.load("axio").new_initial_state()
    assert isinstance(default, AxioState)
    colours = [tuple(EMPTY if c == EMPTY else (c + 1) % 5 for c in tile)
               for tile in default.tiles]
    colours[:2] = [(0, 0, 0, 0)] * 2
    spec = tiles_data(tuple(colours))  # type: ignore[arg-type]
    states = play(2, 5, greedy=True, tiles=spec)
    layout = states[0].get_game().information_state_tensor_layout()
    for state in states[::5]:
        assert state.tiles == tuple(colours)
        for seat in range(2):
            views = layout.views(state.information_state_tensor(seat))
            view = state.observation(seat)
            for section in ("corners", "hand_corners", "unseen_corners", "unseen"):
                SECTIONS[section][1](views[section], state, seat, view)
