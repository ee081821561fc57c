"""The match runner, bots and game records (including corrupt and tampered ones)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import tlatelolco
from tlatelolco.bots import Bot, make_bot, parse_spec
from tlatelolco.contract import State
from tlatelolco.records import (
    RecordError,
    load_record,
    record_from_json,
    record_to_json,
    replay_record,
    save_record,
)


def test_same_seed_same_game_and_different_seed_different_game() -> None:
    a = tlatelolco.play_match("grand_bazaar", ["random", "greedy", "random"], seed=1)
    b = tlatelolco.play_match(tlatelolco.load("grand_bazaar"), ["random", "greedy", "random"],
                              seed=1)
    c = tlatelolco.play_match("grand_bazaar", ["random", "greedy", "random"], seed=2)
    assert a == b
    assert a["history"] != c["history"]


def test_record_has_the_design_format_and_replays() -> None:
    record = tlatelolco.play_match("grand_bazaar", ["random", "greedy", "random"], seed=3)
    assert {"game", "options", "players", "history", "result"} <= set(record)
    assert record["game"] == "grand_bazaar"
    assert record["options"] == {"num_players": 3}
    assert record["players"] == ["random", "greedy", "random"]
    assert record["meta"] == {"seed": 3}
    state = replay_record(record_from_json(record_to_json(record)))
    assert state.is_terminal()
    assert record["result"] == {"returns": state.returns(), "scores": state.scores()}


def test_wrong_number_of_bots() -> None:
    with pytest.raises(ValueError, match="has 3 seats but 2 bots were given"):
        tlatelolco.play_match("grand_bazaar", ["random", "random"], seed=1)


def test_bot_specs() -> None:
    game = tlatelolco.load("grand_bazaar")
    assert parse_spec("mcts:time=1.5,iterations=200,policy=greedy") == (
        "mcts", {"time": 1.5, "iterations": 200, "policy": "greedy"})
    with pytest.raises(ValueError, match="unknown bot 'alphazero' for grand_bazaar; "
                                         "allowed: random, greedy"):
        make_bot("alphazero", game, 0)
    with pytest.raises(ValueError, match="bot 'random' has no parameter 'depth'"):
        make_bot("random:depth=3", game, 0)
    with pytest.raises(ValueError, match="is not key=value"):
        make_bot("random:fast", game, 0)


class SpyBot(Bot):
    """Remembers what it was shown."""

    name = "spy"

    def __init__(self, game: tlatelolco.Game, seat: int, seed: Any = None) -> None:
        super().__init__(game, seat, seed)
        self.seen: list[State] = []

    def step(self, state: State) -> int:
        self.seen.append(state)
        return self.rng.choice(state.legal_actions())


def test_bots_are_handed_a_view_never_the_true_state() -> None:
    game = tlatelolco.load("grand_bazaar", num_players=2)
    spy = SpyBot(game, 0, seed=1)
    true_states: list[State] = []
    tlatelolco.play_match(game, [spy, "random"], seed=9,
                          on_action=lambda state, action, actor: true_states.append(state))
    assert spy.seen
    assert all(view is not true for view in spy.seen for true in true_states[:1])
    # A bot that scribbles on its view cannot change the game.
    assert len({id(v) for v in spy.seen}) == len(spy.seen)


def test_a_sighted_seat_is_handed_the_true_state_and_the_others_a_draw() -> None:
    """Axio hides each seat's hand tile: a sighted seat sees the rival's real one (research:
    the arena's --sighted), a fair seat a tile drawn from what it cannot see."""
    game = tlatelolco.load("axio", num_players=2)
    true_states: dict[int, State] = {}

    def keep(state: State, action: int, actor: int) -> None:
        true_states[state.move_number()] = state.clone()

    sighted, fair = SpyBot(game, 0, seed=1), SpyBot(game, 1, seed=1)
    tlatelolco.play_match(game, [sighted, fair], seed=4, on_action=keep, sighted={0})
    for bot in (sighted, fair):
        assert bot.seen and all(v.current_player() == bot.seat for v in bot.seen)
    assert all(view == true_states[view.move_number()] for view in sighted.seen)
    assert all(view is not true_states[view.move_number()] for view in sighted.seen)
    differ = [view != true_states[view.move_number()] for view in fair.seen]
    assert sum(differ) > len(differ) // 2  # the rival's tile re-dealt (rarely the same one)


def test_a_bot_choosing_an_illegal_action_is_named() -> None:
    class Cheat(Bot):
        def step(self, state: State) -> int:
            return 33  # end turn without buying

    game = tlatelolco.load("grand_bazaar", num_players=2)
    with pytest.raises(tlatelolco.IllegalActionError, match=r"seat 0 \(bot\) chose badly"):
        tlatelolco.play_match(game, [Cheat(game, 0), "random"], seed=1)


# --- corrupt and tampered records --------------------------------------------------------------


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    game = tlatelolco.load("grand_bazaar", num_players=2)
    return tlatelolco.play_match(game, ["random", "random"], seed=11)


def tampered(record: dict[str, Any], **changes: Any) -> dict[str, Any]:
    copy = json.loads(json.dumps(record))
    copy.update(changes)
    return copy


@pytest.mark.parametrize("change, message", [
    ({"game": "chess"}, "cannot be loaded: unknown game 'chess'"),
    ({"options": {"num_players": 9}}, "num_players=9 is not allowed"),
    ({"options": {"speed": 1}}, "unknown option 'speed'"),
    ({"options": [2]}, "'options' must be an object"),
    ({"players": ["a"]}, "lists 1 players but the game has 2 seats"),
    ({"players": "ab"}, "'players' must be a list"),
    ({"history": "1,2,3"}, "'history' must be a list"),
    ({"extra": 1}, "unknown key 'extra'"),
    ({"result": None}, "says the game is unfinished, but its history ends the game"),
    ({"result": {"returns": [1.0, 0.0], "scores": [999.0, 0.0]}}, "does not match"),
])
def test_tampered_records_get_a_clear_error(record: dict[str, Any], change: dict[str, Any],
                                            message: str) -> None:
    with pytest.raises(RecordError, match=message):
        replay_record(tampered(record, **change))


def test_illegal_history_names_the_step(record: dict[str, Any]) -> None:
    history = list(record["history"])
    history[1] = 33  # end turn before the mandatory buy
    with pytest.raises(RecordError, match=r"does not replay: history\[1\]: action 33"):
        replay_record(tampered(record, history=history))


def test_truncated_history_with_a_result(record: dict[str, Any]) -> None:
    with pytest.raises(RecordError, match="has a result, but its history stops after 10"):
        replay_record(tampered(record, history=record["history"][:10]))


def test_unfinished_record_is_valid(record: dict[str, Any]) -> None:
    state = replay_record(tampered(record, history=record["history"][:10], result=None))
    assert state.move_number() == 10 and not state.is_terminal()


def test_missing_key_and_wrong_type() -> None:
    with pytest.raises(RecordError, match="record has no 'history'"):
        replay_record({"game": "grand_bazaar", "options": {}, "players": [], "result": None})
    with pytest.raises(RecordError, match="a record is a JSON object"):
        replay_record([1, 2])


def test_files_round_trip_and_corrupt_files(tmp_path: Path, record: dict[str, Any]) -> None:
    good = tmp_path / "game.json"
    save_record(record, good)
    loaded, state = load_record(good)
    assert loaded == record and state.is_terminal()
    bad = tmp_path / "bad.json"
    bad.write_text(good.read_text()[:-20])
    with pytest.raises(RecordError, match="not valid JSON"):
        load_record(bad)
    with pytest.raises(RecordError, match="cannot read record"):
        load_record(tmp_path / "missing.json")
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(RecordError):
        load_record(binary)
