"""Mexica's move notation: every form round-trips, the documented spellings parse, bad input
is refused with a clear message and leaves the state as it was."""

from __future__ import annotations

import random

import pytest
from tests.mexica.positions import (
    COAST,
    CORNER_3_CANALS,
    ELEVEN,
    ELEVEN_CANALS,
    NS,
    WE,
    position,
    sq,
    state_at,
)

import tlatelolco
from tlatelolco import IllegalActionError
from tlatelolco.contract import normalise
from tlatelolco.games.mexica.actions import (
    BOAT,
    CANAL,
    DRAW,
    END,
    NUM_ACTIONS,
    START,
    TELEPORT,
    TOKEN,
    WALK,
    bridge_action,
    build_action,
    double_action,
    found_action,
    move_bridge_action,
)
from tlatelolco.games.mexica.components import SIZES


def new_state(num_players: int = 2) -> tlatelolco.State:
    return tlatelolco.load("mexica", num_players=num_players).new_initial_state()


def round_trips(state: tlatelolco.State, action: int) -> None:
    """The action's text reads back as the action through both parsers, in any case."""
    text = state.action_to_string(action)
    assert state.string_to_action(text) == action, text
    assert state.string_to_action(f"  {text.upper()} ") == action, text
    for spelling in (text, text.upper(), text.lower(), text.swapcase(), f" {text.title()}  "):
        assert state.parse_action(spelling) == action, spelling


def kind(state: tlatelolco.State, text: str) -> str:
    action = state.parse_action(normalise(text))
    assert action is not None, text
    return str(state.action_to_dict(action)["kind"])


# --- round trips --------------------------------------------------------------------------------


def test_every_legal_action_round_trips_in_random_games() -> None:
    """Every legal action of random positions (draws, placements, turns) reads back as itself,
    in any case and with extra spaces, through `string_to_action` and `parse_action` alike."""
    seen: set[str] = set()
    for num_players, seed in ((2, 1), (3, 2), (4, 3)):
        state = new_state(num_players)
        rng = random.Random(seed)
        step = 0
        while not state.is_terminal():
            actions = state.legal_actions()
            if step % 9 == 0 or state.is_chance_node() or len(actions) < 40:
                for action in actions:
                    round_trips(state, action)
                    seen.add(str(state.action_to_dict(action)["kind"]))
            action = rng.choice(actions)
            if action == END and len(actions) > 1 and rng.random() < 0.85:
                action = rng.choice(actions[1:])
            state.apply_action(action)
            step += 1
    assert seen >= {"draw", "start", "end", "token", "walk", "canal", "double", "bridge",
                    "boat", "teleport", "build", "found"}


def test_every_form_round_trips_in_hand_built_positions() -> None:
    """One legal action of every kind, including bridges with one and with two possible axes
    and moved bridges, round-trips through its text."""
    state = state_at(position(2, canals=("K5", "M9", *CORNER_3_CANALS, *COAST),
                              bridges=dict.fromkeys(COAST, NS), mexica=("V8", "C3"),
                              available=(3,), tokens=[1, 0], token_supply=11))
    texts = {
        END: "end", TOKEN: "token", WALK + 0: "walk N",
        BOAT + sq("D10"): "boat to D10", TELEPORT + sq("K7"): "teleport K7",
        CANAL + sq("T9"): "canal T9", double_action(sq("K6"), sq("K7")): "canal K6-K7",
        bridge_action(sq("K5"), NS): "bridge K5 N-S", bridge_action(sq("K5"), WE): "bridge K5 W-E",
        bridge_action(sq("E3"), WE): "bridge E3",  # E2 is lake: W-E only
    }
    for action, text in texts.items():
        assert state.action_to_string(action) == text
        assert state.illegal_reason(action) is None, text
        round_trips(state, action)
    assert state.string_to_action("bridge E3 W-E") == bridge_action(sq("E3"), WE)  # allowed too
    seat_one = state_at(position(2, canals=CORNER_3_CANALS, mexica=("K5", "C3"), player=1,
                                 available=(3,)))
    for action, text in ((build_action(3, sq("D3")), "build 3 at D3"),
                         (found_action(3, sq("C2")), "found 3 at C2")):
        assert seat_one.action_to_string(action) == text
        round_trips(seat_one, action)
    moving = state_at(position(2, canals=(*ELEVEN_CANALS, "K5", "M9"), bridges=ELEVEN))
    for action, text in ((move_bridge_action(sq("K4"), sq("K5"), WE), "move bridge K4 to K5"),
                         (move_bridge_action(sq("E4"), sq("M9"), NS), "move bridge E4 to M9 N-S"),
                         (move_bridge_action(sq("E4"), sq("M9"), WE), "move bridge E4 to M9 W-E")):
        assert moving.action_to_string(action) == text
        round_trips(moving, action)
    setup = new_state(2)
    round_trips(setup, DRAW + 7 - SIZES[0])
    assert setup.action_to_string(DRAW + 7 - SIZES[0]) == "draw calpulli 7"
    for size in (3, 4, 5, 6, 7, 8, 9, 10):
        setup.apply_action(DRAW + size - SIZES[0])
    assert setup.action_to_string(START + sq("I7")) == "start at I7"
    round_trips(setup, START + sq("I7"))


def test_parse_action_reads_the_engines_own_text_regression() -> None:
    """`parse_action` once matched lower case only, so "start at I9", the engine's own text,
    did not parse back through it (only `string_to_action` normalised). One parser now serves
    both, case-insensitive."""
    setup = new_state(2)
    for size in (3, 4, 5, 6, 7, 8, 9, 10):
        setup.apply_action(DRAW + size - SIZES[0])
    text = setup.action_to_string(START + sq("I9"))
    assert text == "start at I9"
    assert setup.parse_action(text) == setup.string_to_action(text) == START + sq("I9")
    state = state_at(position(2, canals=("O7",)))
    for text in ("Canal K5-K6", "BRIDGE O7 N-S", "Walk n", "Found 7 At E5", "Move Bridge O7 To P9",
                 "TELEPORT c3", "Boat To K9", "END", "Token"):
        assert state.parse_action(text) == state.parse_action(text.lower()) is not None, text


# --- the documented examples and spellings ------------------------------------------------------


@pytest.mark.parametrize(("text", "expected"), [
    ("canal K5-K6", {"kind": "double", "squares": ["K5", "K6"]}),
    ("canal K5", {"kind": "canal", "square": "K5"}),
    ("bridge O7", {"kind": "bridge", "square": "O7", "axis": "N-S"}),
    ("walk N", {"kind": "walk", "direction": "N"}),
    ("boat to K9", {"kind": "boat", "square": "K9"}),
    ("teleport C3", {"kind": "teleport", "square": "C3"}),
    ("build 3 at D4", {"kind": "build", "levels": 3, "square": "D4"}),
    ("found 7 at E5", {"kind": "found", "size": 7, "square": "E5"}),
    ("token", {"kind": "token"}),
    ("end", {"kind": "end"}),
    ("move bridge O7 to P9", {"kind": "move_bridge", "from": "O7", "to": "P9", "axis": "W-E"}),
    ("start at I7", {"kind": "start", "square": "I7"}),
    ("draw calpulli 7", {"kind": "draw", "size": 7}),
])
def test_examples_parse_to_the_right_actions(text: str, expected: dict[str, object]) -> None:
    """The notation examples name the right kind of action and its details."""
    state = state_at(position(2, canals=("O7",)))  # so that O7 takes a bridge (N-S only)
    action = state.parse_action(normalise(text))
    assert action is not None
    assert state.action_to_dict(action) == expected


@pytest.mark.parametrize(("alias", "text"), [
    ("end turn", "end"), ("take token", "token"), ("take action token", "token"),
    ("step N", "walk N"), ("move e", "walk E"), ("canal K6-K5", "canal K5-K6"),
    ("canal k5 - k6", "canal K5-K6"), ("bridge at O7", "bridge O7"), ("bridge O7 N-S", "bridge O7"),
    ("bridge K9 NS", "bridge K9 N-S"), ("bridge K9 we", "bridge K9 W-E"),
    ("move bridge from O7 to P9", "move bridge O7 to P9"), ("boat K9", "boat to K9"),
    ("teleport to C3", "teleport C3"), ("build 3 D4", "build 3 at D4"),
    ("build 3 on D4", "build 3 at D4"), ("found 7 E5", "found 7 at E5"),
    ("found 7 on E5", "found 7 at E5"), ("start I7", "start at I7"),
    ("start on I7", "start at I7"), ("draw 7", "draw calpulli 7"),
    ("  BUILD   3 at d4  ", "build 3 at D4"),
])
def test_documented_spellings_name_the_same_action(alias: str, text: str) -> None:
    """The spellings the rules page also accepts name the same action as the notation."""
    state = state_at(position(2, canals=("O7", "K9")))
    assert state.parse_action(normalise(alias)) == state.parse_action(normalise(text))
    assert state.parse_action(normalise(alias)) is not None


def test_examples_are_accepted_when_legal() -> None:
    """The examples as typed by a player, in a position where they are legal."""
    state = state_at(position(2, canals=("O7",), mexica=("K5", "I7")))
    for text in ("canal K6-K7", "bridge O7", "walk N", "token", "build 3 at D4"):
        assert kind(state, text)
        state.apply_action(state.string_to_action(text))
    assert state.city.ap == 0  # type: ignore[attr-defined]
    state.apply_action(state.string_to_action("end"))
    assert state.current_player() == 1


# --- bad input ----------------------------------------------------------------------------------


@pytest.mark.parametrize("text", [
    "", "hello", "walk X", "walk", "canal", "canal Z9", "canal K17", "canal K0", "canal K5-K7",
    "canal K6-L7", "build 5 at D4", "build 0 at D4", "build 3", "found 2 at E5", "found 14 at E5",
    "bridge", "boat", "teleport", "draw calpulli 2", "token token", "end now",
])
def test_bad_input_is_refused_clearly_and_changes_nothing(text: str) -> None:
    """Text that names no move raises IllegalActionError listing the legal moves, and the
    state is left as it was."""
    state = state_at(position(2, mexica=("K5", "I7")))
    before = state.clone()
    with pytest.raises(IllegalActionError, match="is not a move of Mexica") as err:
        state.string_to_action(text)
    assert "Legal now: end, token" in str(err.value)
    assert state == before and state.history() == []


@pytest.mark.parametrize(("text", "why"), [
    ("canal I7", "I7 is a palace square"),
    ("walk S", "cannot step S from K5"),
    ("build 3 at C2", "C2 is not in your Mexica's area"),
    ("found 7 at E5", "no calpulli tile of size 7 is available this part"),
    ("boat to K9", "must stand on a bridge"),
    ("teleport I8", "I8 is not a free land square"),
    ("bridge K5", "dry land"),
    ("move bridge P7 to P9", "only when all 11"),
    ("start at I9", "already on the board"),
    ("draw calpulli 7", "no calpulli tile is being drawn"),
])
def test_illegal_moves_are_refused_with_the_reason(text: str, why: str) -> None:
    """A well-formed move that is illegal now is refused with the rule's reason, whether typed
    or applied as a number, and the state is left as it was."""
    state = state_at(position(2, canals=("K6", *CORNER_3_CANALS), mexica=("K5", "I7")))
    before = state.clone()
    with pytest.raises(IllegalActionError, match=why) as err:
        state.string_to_action(text)
    assert f"'{text}' is not legal now" in str(err.value)
    action = state.parse_action(normalise(text))
    assert action is not None
    with pytest.raises(IllegalActionError, match=why):
        state.apply_action(action)
    assert state == before and state.history() == []


def test_actions_out_of_range() -> None:
    """Numbers outside the action range are refused, never decoded."""
    state = state_at(position(2))
    for action in (-1, NUM_ACTIONS):
        with pytest.raises(IllegalActionError, match="numbered 0 to"):
            state.apply_action(action)
        with pytest.raises(ValueError, match="outside"):
            state.action_to_dict(action)
        assert state.action_to_string(action).startswith("<action")


# --- action_to_dict -----------------------------------------------------------------------------


def test_action_to_dict_every_kind() -> None:
    """action_to_dict gives the kind and its details, squares by name."""
    state = state_at(position(2))
    expected = {
        END: {"kind": "end"},
        TOKEN: {"kind": "token"},
        WALK + 2: {"kind": "walk", "direction": "S"},
        START + sq("J8"): {"kind": "start", "square": "J8"},
        CANAL + sq("K5"): {"kind": "canal", "square": "K5"},
        double_action(sq("K6"), sq("K5")): {"kind": "double", "squares": ["K5", "K6"]},
        double_action(sq("K5"), sq("L5")): {"kind": "double", "squares": ["K5", "L5"]},
        bridge_action(sq("K5"), WE): {"kind": "bridge", "square": "K5", "axis": "W-E"},
        move_bridge_action(sq("K5"), sq("M9"), NS):
            {"kind": "move_bridge", "from": "K5", "to": "M9", "axis": "N-S"},
        BOAT + sq("K9"): {"kind": "boat", "square": "K9"},
        TELEPORT + sq("C3"): {"kind": "teleport", "square": "C3"},
        build_action(4, sq("D4")): {"kind": "build", "levels": 4, "square": "D4"},
        found_action(13, sq("E5")): {"kind": "found", "size": 13, "square": "E5"},
        DRAW + 0: {"kind": "draw", "size": 3},
    }
    for action, data in expected.items():
        assert state.action_to_dict(action) == data
