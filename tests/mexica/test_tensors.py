"""Mexica's observation and information-state tensors (docs/tensors/mexica.md).

The observation is decoded back, section by section, into the game's own view
(`state.observation`), so every number is checked against what it claims to mean and the view's
every field must be in the tensor. Mexica hides nothing (MX-12) and decides the part-1 tiles
only as they are drawn, so no pair of states differs only in something hidden: instead, states
reached by different histories with the same view give the same tensors, and the face-down
tiles (known by elimination) are checked against the draws.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from itertools import pairwise
from typing import Any

import numpy as np
import pytest
from tests.mexica.positions import play, position, state_at

import tlatelolco
from tlatelolco.chance import sample_chance
from tlatelolco.contract import CHANCE, TERMINAL
from tlatelolco.games.mexica import MexicaState, actions, rules, tensors
from tlatelolco.games.mexica.actions import CANAL, DOUBLE, DRAW, KINDS, START
from tlatelolco.games.mexica.board import (
    IS_ORDINARY,
    NAMES,
    NEIGHBOURS,
    NUM_SQUARES,
    ROWS,
    STARTED_CANAL,
    STARTING,
)
from tlatelolco.games.mexica.city import DRAWING, OVER, PHASE_NAMES, PLACING, PLAYING
from tlatelolco.games.mexica.components import (
    BUILDINGS,
    MAX_ROUNDS,
    PART_ONE_TILES,
    PART_TWO_BUILDINGS,
    SIZES,
    TILE_COUNTS,
)

PLAYERS = (2, 3, 4)
GAMES = 3  # seeded random games per player count (~500-1,000 moves each)
SAMPLES = 12  # positions sampled from each game, besides set-up and the start of part 2
N = NUM_SQUARES
TERRAIN = "~.SX"  # the terrain planes in order: lake, ordinary land, starting, coat of arms


@dataclass
class Sample:
    state: MexicaState
    part_one_rounds: int  # how long part 1 lasted, as seen while playing (0 during part 1)
    events: list[list[int]]  # [seat][kind]: actions of each kind each seat took so far


@cache
def games(players: int) -> tuple[tuple[Sample, ...], ...]:
    """Each seeded game as positions: set-up (drawing, placing), random picks, the first
    position of part 2 and the end."""
    game = tlatelolco.load("mexica", num_players=players)
    played = []
    for number in range(GAMES):
        rng = random.Random(f"mexica-tensors:{players}:{number}")
        state, seen, rounds = game.new_initial_state(), [], 0
        events = [[0] * len(KINDS) for _ in range(players)]
        while True:
            seen.append(Sample(state.clone(), rounds,  # type: ignore[arg-type]
                               [row[:] for row in events]))
            if state.is_terminal():
                break
            before, mover = state.city.round, state.current_player()
            action = (sample_chance(state, rng) if state.is_chance_node()
                      else rng.choice(state.legal_actions()))
            if mover >= 0:
                events[mover][actions.decode(action)[0]] += 1
            state.apply_action(action)
            if state.city.part == 2 and not rounds:
                rounds = before
        part_two = next(i for i, s in enumerate(seen) if s.state.city.part == 2)
        picks = {0, 3, PART_ONE_TILES, PART_ONE_TILES + 1, part_two, len(seen) - 1}
        picks.update(rng.sample(range(len(seen)), SAMPLES))
        played.append(tuple(seen[i] for i in sorted(picks)))
    return tuple(played)


def samples(players: int) -> list[Sample]:
    return [s for game in games(players) for s in game]


def views(state: MexicaState, seat: int, info: bool = False) -> dict[str, np.ndarray]:
    game = state.get_game()
    if info:
        return game.information_state_tensor_layout().views(state.information_state_tensor(seat))
    return game.observation_tensor_layout().views(state.observation_tensor(seat))


# --- decoding a tensor back into the game's view ---------------------------------------------


def counts(values: np.ndarray, scales: tuple[int, ...]) -> list[int]:
    return [round(float(v) * k) for v, k in zip(values, scales, strict=True)]


def sizes(values: np.ndarray) -> list[int]:
    """Tile counts by size (scaled by how many the box holds) -> the sizes, as the view lists
    them."""
    found = counts(values, tuple(TILE_COUNTS[s] for s in SIZES))
    return [size for size, n in zip(SIZES, found, strict=True) for _ in range(n)]


def components(dry: np.ndarray) -> list[list[int]]:
    """The orthogonally connected groups of dry squares, by their first square."""
    seen, groups = set(), []
    for start in map(int, np.flatnonzero(dry)):
        if start in seen:
            continue
        group, todo = [start], [start]
        seen.add(start)
        for square in todo:
            for n in NEIGHBOURS[square]:
                if dry[n] and n not in seen:
                    seen.add(n)
                    group.append(n)
                    todo.append(n)
        groups.append(sorted(group))
    return groups


def decode(v: dict[str, np.ndarray], player: int, n: int) -> dict[str, Any]:
    """The game's view (`state.observation`) read back from a seat's observation tensor."""
    seats = [(player + k) % n for k in range(n)]  # row k of a per-seat section

    def by_seat(rows: Any) -> list[Any]:
        result: list[Any] = [None] * n
        for row, seat in enumerate(seats):
            result[seat] = rows[row]
        return result

    phase = int(np.argmax(v["phase"]))
    part = int(np.argmax(v["part"])) + 1
    over = phase == OVER
    to_move = (CHANCE if phase == DRAWING else TERMINAL if over
               else seats[int(np.argmax(v["to_move"]))])
    round_, ap, taken, idle, first = counts(v["turn"], (MAX_ROUNDS, 6, 2, 1, 1))
    terrain = v["terrain"].reshape(4, N)
    canal = v["canals"].ravel()
    bridges = v["bridges"].reshape(2, N)
    calpulli = v["calpulli"].ravel()
    buildings = v["buildings"].reshape(n, N)
    mexica = v["mexica"].reshape(n, N)
    area_size, districts = v["area_size"].ravel(), v["districts"].ravel()
    areas = []
    for group in components((terrain[0] == 0) & (canal == 0)):
        tile = round(float(districts[group[0]]) * 13)
        areas.append({"size": round(float(area_size[group[0]]) * 196), "tile": tile or None,
                      "squares": [NAMES[s] for s in group]})
        assert {round(float(area_size[s]) * 196) for s in group} == {areas[-1]["size"]}
    singles, doubles, bridge_supply, token_supply = counts(v["supply"], (6, 35, 11, 12))
    scorings = [by_seat(counts(row, (350,) * n)) for row in v["scorings"]]
    returns = [1 / round(1 / float(r)) if r else 0.0 for r in v["returns"]]
    return {
        "game": "mexica",
        "phase": PHASE_NAMES[phase],
        "to_move": to_move,
        "part": part,
        "round": round_,
        "last_round": MAX_ROUNDS,
        "idle_round": bool(idle),
        "turn_of": 0 if to_move < 0 else to_move,
        "ap": ap,
        "tokens_taken": taken,
        "first_turn": bool(first),
        "terrain": ["".join(TERRAIN[int(np.argmax(terrain[:, r * 23 + c]))] for c in range(23))
                    for r in range(16)],
        "canals": [NAMES[s] for s in np.flatnonzero(canal)],
        "bridges": [{"square": NAMES[s], "axis": "N-S" if bridges[0, s] else "W-E"}
                    for s in np.flatnonzero(bridges.sum(axis=0))],
        "buildings": [{"square": NAMES[s], "owner": seats[int(np.argmax(buildings[:, s]))],
                       "levels": round(float(buildings[:, s].max()) * 4)}
                      for s in np.flatnonzero(buildings.sum(axis=0))],
        "calpulli": [{"square": NAMES[s], "size": round(float(calpulli[s]) * 13)}
                     for s in np.flatnonzero(calpulli)],
        "mexica": by_seat([NAMES[int(np.argmax(row))] if row.any() else None
                           for row in mexica]),
        "areas": areas,
        "supply": {"single_canals": singles, "double_canals": doubles,
                   "bridges": bridge_supply, "action_tokens": token_supply},
        "tokens": by_seat(counts(v["tokens"], (12,) * n)),
        "buildings_left": by_seat([counts(row, BUILDINGS) for row in v["buildings_left"]]),
        "buildings_part_two": by_seat([counts(row, PART_TWO_BUILDINGS)
                                       for row in v["buildings_part_two"]]),
        "tiles": {"available": sizes(v["tiles_available"]),
                  "face_down": sizes(v["tiles_face_down"]),
                  "removed": [SIZES[int(np.argmax(row))] for row in v["tiles_removed"]
                              if row.any()]},
        "scores": by_seat(counts(v["scores"], (350,) * n)),
        "scorings": scorings[:(part == 2) + over],  # one per scoring held so far
        "terminal": over,
        "returns": by_seat(returns) if over else None,
    }


def seen(state: MexicaState, player: int) -> dict[str, Any]:
    """The game's view; the started canal is ordinary land covered by canal (MX-2), which the
    terrain planes show as ordinary land and the canal plane as canal."""
    view = state.observation(player)
    view["terrain"] = [row.replace(STARTED_CANAL, ".") for row in ROWS]
    return view


# Each section of the observation, the view's fields it must reproduce, and its rule.
SECTIONS = (
    ("terrain", ("terrain",), "MX-1"),
    ("canals", ("canals",), "MX-5"),
    ("bridges", ("bridges",), "MX-6"),
    ("calpulli", ("calpulli",), "MX-9"),
    ("mexica", ("mexica",), "MX-7"),
    ("buildings", ("buildings",), "MX-8"),
    ("area_size+districts", ("areas",), "MX-3"),
    ("seat+to_move+phase", ("to_move", "turn_of", "phase", "terminal"), "MX-4"),
    ("part", ("part",), "MX-10"),
    ("turn", ("round", "ap", "tokens_taken", "idle_round", "first_turn"), "MX-4"),
    ("supply", ("supply",), "MX-1"),
    ("tiles", ("tiles",), "MX-2"),
    ("scores+scorings", ("scores", "scorings"), "MX-11"),
    ("tokens", ("tokens",), "MX-4"),
    ("buildings_left+part_two", ("buildings_left", "buildings_part_two"), "MX-10"),
    ("returns", ("returns",), "MX-11"),
    ("constants", ("game", "last_round"), "MX-10"),
)


def test_every_field_of_the_view_is_in_some_section() -> None:
    state = tlatelolco.load("mexica").new_initial_state()
    covered = {key for _, keys, _ in SECTIONS for key in keys}
    assert covered == set(state.observation(0))


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("section, keys, rule", SECTIONS, ids=[s[0] for s in SECTIONS])
def test_a_section_decodes_to_the_view(players: int, section: str, keys: tuple[str, ...],
                                       rule: str) -> None:
    """Each section carries exactly its part of the game's view, for every seat (`rule`)."""
    for sample in samples(players):
        for seat in range(players):
            decoded = decode(views(sample.state, seat), seat, players)
            wanted = seen(sample.state, seat)
            assert {k: decoded[k] for k in keys} == {k: wanted[k] for k in keys}, (section, rule)


@pytest.mark.parametrize("players", PLAYERS)
def test_the_samples_show_every_kind_of_piece_and_moment(players: int) -> None:
    """The decoding tests mean something only if the positions hold everything."""
    kinds = {PHASE_NAMES[s.state.city.phase] for s in samples(players)}
    assert kinds == set(PHASE_NAMES)
    for name in ("bridges", "buildings", "calpulli", "districts", "foundable", "mexica_area",
                 "tiles_removed", "scorings", "returns", "tiles_face_down"):
        assert any(views(s.state, 0)[name].any() for s in samples(players)), name


def test_the_seat_section_is_the_observers_own_seat() -> None:
    state = samples(3)[-1].state
    for seat in range(3):
        assert views(state, seat)["seat"].tolist() == [float(s == seat) for s in range(3)]


# --- the derived planes ----------------------------------------------------------------------


@pytest.mark.parametrize("players", PLAYERS)
def test_foundable_marks_unfounded_areas_of_a_tile_size_left_this_part(players: int) -> None:
    """MX-9: an area may be founded when its size equals an unused tile of this part."""
    for sample in samples(players):
        c = sample.state.city
        plane = views(sample.state, 0)["foundable"].ravel()
        wanted = [ident >= 0 and not c.area_tile[ident]
                  and SIZES[0] <= c.area_size[ident] <= SIZES[-1]
                  and c.available[c.area_size[ident] - SIZES[0]] > 0 for ident in c.area]
        assert plane.tolist() == [float(w) for w in wanted]


@pytest.mark.parametrize("players", PLAYERS)
def test_mexica_area_marks_the_area_each_mexica_stands_in(players: int) -> None:
    """MX-8, MX-9: a Mexica builds and founds in its own area; on a bridge it is in none."""
    for sample in samples(players):
        c = sample.state.city
        for seat in range(players):
            planes = views(sample.state, seat)["mexica_area"].reshape(players, N)
            for row in range(players):
                at = c.mexica[(seat + row) % players]
                ident = c.area[at] if at >= 0 else -1
                wanted = [float(ident >= 0 and a == ident) for a in c.area]
                assert planes[row].tolist() == wanted


# --- no leak: nothing is hidden, so the tensors are a function of the view --------------------


@pytest.mark.parametrize("players", PLAYERS)
def test_the_tiles_face_down_are_those_not_drawn(players: int) -> None:
    """MX-2, MX-12: in part 1 the face-down tiles are the box minus the draws so far (public by
    elimination); in part 2 they are all turned up. Every tile is in play, face down, placed or
    removed."""
    for sample in samples(players):
        state, c = sample.state, sample.state.city
        v = views(state, 0)
        face_down = counts(v["tiles_face_down"], tuple(TILE_COUNTS.values()))
        drawn = [a - DRAW for a in state.history()[:PART_ONE_TILES] if a >= DRAW]
        if c.part == 1:
            assert face_down == [TILE_COUNTS[size] - drawn.count(size - SIZES[0])
                                 for size in SIZES]
        else:
            assert not any(face_down)
        available = counts(v["tiles_available"], tuple(TILE_COUNTS.values()))
        placed = [round(float(x) * 13) for x in v["calpulli"].ravel() if x]
        removed = [SIZES[int(np.argmax(row))] for row in v["tiles_removed"] if row.any()]
        assert [available[i] + face_down[i] + placed.count(size) + removed.count(size)
                for i, size in enumerate(SIZES)] == list(TILE_COUNTS.values())


def shuffled_draws(players: int) -> tuple[list[int], list[int]]:
    """A game's history, and the same with its part-1 draws in another order."""
    history = games(players)[0][-1].state.history()
    draws = history[:PART_ONE_TILES]
    other = draws[::-1] if draws != draws[::-1] else draws[1:] + draws[:1]
    assert other != draws
    return history, other + history[PART_ONE_TILES:]


@pytest.mark.parametrize("players", PLAYERS)
def test_the_order_of_the_draws_changes_only_the_recall(players: int) -> None:
    """Two histories whose draws differ in order reach the same view at every later step: the
    observations agree; the information states differ exactly in the recall of the draws."""
    game = tlatelolco.load("mexica", num_players=players)
    history, other = shuffled_draws(players)
    rng = random.Random(players)
    for length in sorted(rng.sample(range(PART_ONE_TILES, len(history) + 1), 10)):
        one, two = game.replay(history[:length]), game.replay(other[:length])
        for seat in range(players):
            assert one.observation(seat) == two.observation(seat)
            assert np.array_equal(one.observation_tensor(seat), two.observation_tensor(seat))
            a, b = views(one, seat, info=True), views(two, seat, info=True)
            assert [name for name in a if not np.array_equal(a[name], b[name])] == [
                "recall_draws"]


def digs(state: MexicaState) -> list[int]:
    """A few of the mover's canal actions, spread over the island."""
    legal = [a for a in state.legal_actions() if CANAL <= a < DOUBLE + 2 * N]
    return legal[:: max(1, len(legal) // 6)]


@pytest.mark.parametrize("players", PLAYERS)
def test_the_same_view_reached_two_ways_gives_the_same_tensors(players: int) -> None:
    """Two canals dug in either order: the same view, though the city may number its areas
    differently (which areas keep their old number depends on the order of the splits)."""
    same, renumbered = 0, 0
    for sample in samples(players):
        state = sample.state
        if state.city.phase != PLAYING or state.city.ap < 2:
            continue
        options = digs(state)
        for first, second in pairwise(options):
            one, two = state.clone(), state.clone()
            for s, order in ((one, (first, second)), (two, (second, first))):
                for action in order:
                    if s.illegal_reason(action) is None:
                        s.apply_action(action)
            if one.observation(0) != two.observation(0):
                continue  # one dig made the other illegal, or tiles left in another order
            same += 1
            renumbered += one.city.area != two.city.area
            for seat in range(players):
                assert np.array_equal(one.observation_tensor(seat), two.observation_tensor(seat))
                assert np.array_equal(one.information_state_tensor(seat),
                                      two.information_state_tensor(seat))
    assert same >= 5


def test_the_areas_do_not_depend_on_the_citys_numbering() -> None:
    """The same canals dug in two orders split the island so that the areas get different
    numbers in the city (MX-3); the tensors, built from a remembered partition, agree."""
    cuts = ("E3", "C4", "D4", "C12", "C13", "C14")  # cut off C2-D3 and B12-B14
    results = []
    for order in (cuts, cuts[::-1]):
        state = state_at(position(2))
        for name in order:
            state.apply_action(state.string_to_action(f"canal {name}"))
        results.append(state)
    one, two = results
    assert one.city.area != two.city.area and one.observation(0) == two.observation(0)
    tensors._partitions.clear()
    expected = one.observation_tensor(0), one.observation_tensor(1)
    assert np.array_equal(two.observation_tensor(0), expected[0])
    assert np.array_equal(two.observation_tensor(1), expected[1])


def test_the_remembered_partitions_are_bounded_and_never_stale(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tensors, "PARTITIONS", 3)
    tensors._partitions.clear()
    states = [s.state for s in samples(4)]
    warm = [s.observation_tensor(0) for s in states]
    assert len(tensors._partitions) <= 3
    for state, tensor in zip(states, warm, strict=True):
        tensors._partitions.clear()
        assert np.array_equal(state.observation_tensor(0), tensor)


@pytest.mark.parametrize("players", PLAYERS)
def test_a_kept_board_draws_what_a_new_board_draws(players: int) -> None:
    """The planes kept for a city and caught up action by action (`tensors.Board`, the RL
    hot path) equal those a copy of the city gets drawn afresh, at every step of a whole game
    and whichever seat looks (each seat's rows come first in its own view)."""
    game = tlatelolco.load("mexica", num_players=players)
    rng = random.Random(f"mexica-board:{players}")
    state = game.new_initial_state()
    step = 0
    while not state.is_terminal():
        seat = rng.randrange(players) if step % 3 else max(state.current_player(), 0)
        kept = state.observation_tensor(seat)
        assert np.array_equal(kept, state.clone().observation_tensor(seat)), (step, seat)
        action = (sample_chance(state, rng) if state.is_chance_node()
                  else rng.choice(state.legal_actions()))
        state.apply_action(action)
        step += 1
    for seat in range(players):
        assert np.array_equal(state.observation_tensor(seat),
                              state.clone().observation_tensor(seat))


def test_a_kept_board_sees_a_city_changed_by_hand() -> None:
    """A board compares the pieces themselves, not a count of actions: a Mexica moved by hand
    (as a test or an analysis may do) is drawn where it now stands."""
    state = samples(2)[-2].state.clone()
    city = state.city
    before = views(state, 0)["mexica"][0].ravel()
    square = next(s for s in range(N) if IS_ORDINARY[s] and not city.occupied[s])
    city.mexica[0] = square
    after = views(state, 0)["mexica"][0].ravel()
    assert after[square] == 1.0 and after.sum() == 1.0 and not np.array_equal(before, after)


@pytest.mark.parametrize("players", PLAYERS)
def test_a_resampled_state_gives_the_same_tensors(players: int) -> None:
    """Perfect information: a state drawn from a seat's information state is this state."""
    rng = random.Random(1)
    for sample in samples(players)[::4]:
        for seat in range(players):
            other = sample.state.resample_from_infostate(seat, rng)
            for make in ("observation_tensor", "information_state_tensor"):
                mine: Callable[[int], np.ndarray] = getattr(sample.state, make)
                assert np.array_equal(getattr(other, make)(seat), mine(seat))


# --- seat-relative, shape, range, determinism ------------------------------------------------

PER_SEAT = ("mexica", "buildings", "mexica_area", "scores", "tokens", "buildings_left",
            "buildings_part_two", "returns")


@pytest.mark.parametrize("players", PLAYERS)
def test_a_seat_sees_the_same_table_from_its_own_chair(players: int) -> None:
    """Per-seat sections list the observer first and the others in turn order; the rest is the
    same for every seat but the observer's seat and the relative seat to move."""
    for sample in samples(players):
        base = views(sample.state, 0)
        for seat in range(1, players):
            mine = views(sample.state, seat)
            for name, section in mine.items():
                if name in PER_SEAT:
                    assert np.array_equal(section, np.roll(base[name], -seat, axis=0)), name
                elif name == "scorings":
                    assert np.array_equal(section, np.roll(base[name], -seat, axis=1))
                elif name == "to_move":
                    assert np.array_equal(section, np.roll(base[name], -seat))
                elif name != "seat":
                    assert np.array_equal(section, base[name]), name


@pytest.mark.parametrize("players", PLAYERS)
def test_tensors_are_fixed_float32_in_zero_one_and_deterministic(players: int) -> None:
    game = tlatelolco.load("mexica", num_players=players)
    shapes = game.observation_tensor_shape(), game.information_state_tensor_shape()
    for sample in samples(players):
        copy = sample.state.clone()
        for seat in range(players):
            for make, shape in zip(("observation_tensor", "information_state_tensor"), shapes,
                                   strict=True):
                tensor = getattr(sample.state, make)(seat)
                assert tensor.dtype == np.float32 and tensor.shape == shape
                assert tensor.min() >= 0.0 and tensor.max() <= 1.0
                assert np.array_equal(getattr(copy, make)(seat), tensor)


@pytest.mark.parametrize("players", PLAYERS)
def test_layouts_are_cached_and_the_information_state_extends_the_observation(
        players: int) -> None:
    game = tlatelolco.load("mexica", num_players=players)
    obs, info = game.observation_tensor_layout(), game.information_state_tensor_layout()
    assert obs is tlatelolco.load("mexica", num_players=players).observation_tensor_layout()
    assert info is game.information_state_tensor_layout()
    assert info.sections[:len(obs.sections)] == obs.sections
    assert [name for name, _ in info.sections[len(obs.sections):]] == [
        "recall_draws", "recall_starts", "recall_part_one", "recall_events"]
    # 11 + 3 planes per seat; per seat 15 numbers; 202 others (165 of them the removed tiles)
    assert obs.size == 23 * 16 * (11 + 3 * players) + 15 * players + 202
    state = samples(players)[-1].state
    for seat in range(players):
        assert np.array_equal(state.information_state_tensor(seat)[:obs.size],
                              state.observation_tensor(seat))


# --- the information state: the view and the recall ------------------------------------------


@pytest.mark.parametrize("players", PLAYERS)
def test_the_recall_holds_the_draws_the_starts_and_the_length_of_part_one(players: int) -> None:
    """MX-2: the part-1 tiles in the order drawn and each seat's starting square; MX-10: how
    many rounds part 1 lasted, once it is over."""
    for sample in samples(players):
        history = sample.state.history()
        for seat in range(players):
            v = views(sample.state, seat, info=True)
            draws = [SIZES[int(np.argmax(row))] for row in v["recall_draws"] if row.any()]
            assert draws == [a - DRAW + SIZES[0] for a in history[:PART_ONE_TILES]]
            starts = history[PART_ONE_TILES:PART_ONE_TILES + players]
            for row in range(players):
                mine = (seat + row) % players
                chosen = v["recall_starts"][row]
                wanted = STARTING.index(starts[mine] - START) if mine < len(starts) else None
                assert (int(np.argmax(chosen)) if chosen.any() else None) == wanted
            assert round(float(v["recall_part_one"][0]) * MAX_ROUNDS) == sample.part_one_rounds


@pytest.mark.parametrize("players", PLAYERS)
def test_the_recall_counts_what_each_seat_did(players: int) -> None:
    """MX-4 ... MX-9: tokens taken, steps, boat trips, teleports, canals, bridges placed and
    moved, districts founded, per seat (observer first), each over the most a seat can do."""
    scales = dict(tensors.EVENTS)
    for sample in samples(players):
        for seat in range(players):
            events = views(sample.state, seat, info=True)["recall_events"]
            for row in range(players):
                did = sample.events[(seat + row) % players]
                assert [round(float(x) * scales[kind]) for x, (kind, _)
                        in zip(events[row], tensors.EVENTS, strict=True)] == [
                    did[kind] for kind, _ in tensors.EVENTS]
    assert any(sample.events[s][KINDS.index("found")] for sample in samples(players)
               for s in range(players))


def test_the_recall_sorts_actions_into_kinds_as_the_game_does() -> None:
    for kind, bound in enumerate(tensors.KIND_BOUNDS):
        assert actions.decode(bound)[0] == kind
        if bound:
            assert actions.decode(bound - 1)[0] == kind - 1
    assert actions.decode(actions.NUM_ACTIONS - 1)[0] == len(tensors.KIND_BOUNDS) - 1


@pytest.mark.parametrize("players", PLAYERS)
def test_equal_information_strings_give_equal_information_tensors(players: int) -> None:
    game = tlatelolco.load("mexica", num_players=players)
    for sample in samples(players)[::3]:
        again = game.replay(sample.state.history())
        for seat in range(players):
            assert (again.information_state_string(seat)
                    == sample.state.information_state_string(seat))
            assert np.array_equal(again.information_state_tensor(seat),
                                  sample.state.information_state_tensor(seat))


def test_a_position_built_mid_set_up_recalls_only_what_followed() -> None:
    """A hand-built state has no history before its position: the draws and placements played
    after it fill the rows they belong to, the earlier rows stay empty."""
    game = tlatelolco.load("mexica", num_players=3)
    city = rules.set_up(3)
    for size in (5, 9, 13):
        rules.draw(city, size)
    state = game.state_from_position(city)
    for size in (3, 4, 6, 7, 12):
        state.apply_action(DRAW + size - SIZES[0])
    v = views(state, 0, info=True)
    draws = [SIZES[int(np.argmax(r))] if r.any() else None for r in v["recall_draws"]]
    assert draws == [None, None, None, 3, 4, 6, 7, 12]

    city = state.city.copy()
    rules.place_mexica(city, STARTING[2])  # seat 0's Mexica, before the record begins
    state = game.state_from_position(city)
    assert state.city.phase == PLACING
    for square in (STARTING[0], STARTING[3]):
        state.apply_action(START + square)
    v = views(state, 1, info=True)  # seat 1 sees itself first, then seats 2 and 0
    assert not v["recall_draws"].any()
    starts = [int(np.argmax(r)) if r.any() else None for r in v["recall_starts"]]
    assert starts == [0, 3, None]


def test_a_position_built_mid_game_credits_each_action_to_its_seat() -> None:
    """The recall counts only the recorded actions; seat 1 moved first here, not seat 0."""
    state = state_at(position(3, player=1))
    play(state, "token", "end", "token", "token", "end", "canal C2")
    assert state.current_player() == 0
    events = views(state, 2, info=True)["recall_events"]  # seats 2, 0, 1
    column = [kind for kind, _ in tensors.EVENTS]
    tokens, canals = column.index(actions.K_TOKEN), column.index(actions.K_CANAL)
    scale = dict(tensors.EVENTS)
    assert (events[:, tokens] * scale[actions.K_TOKEN]).round().tolist() == [2, 0, 1]
    assert (events[:, canals] * scale[actions.K_CANAL]).round().tolist() == [0, 1, 0]
