"""Game records: the JSON form in which games are stored, shared, replayed and resumed.

    {"game": "grand_bazaar", "options": {"num_players": 3}, "players": ["human", "greedy", ...],
     "history": [13, 27, 33, ...], "result": {"returns": [...], "scores": [...]} | null,
     "meta": {...}}

`meta` is optional free-form data (seed, date); everything else is checked by replaying.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tlatelolco.contract import IllegalActionError, State
from tlatelolco.registry import load

REQUIRED_KEYS = ("game", "options", "players", "history", "result")
OPTIONAL_KEYS = ("meta",)


class RecordError(ValueError):
    """A record that is malformed, corrupt or does not match the game it claims to be."""


def result_of(state: State) -> dict[str, Any] | None:
    if not state.is_terminal():
        return None
    return {"returns": state.returns(), "scores": state.scores()}


def make_record(state: State, players: list[str], meta: dict[str, Any] | None = None,
                result: dict[str, Any] | None = None) -> dict[str, Any]:
    """The record of the game at `state`; its `result` is the state's own unless one is given
    (a game decided by a forfeit: see `check_forfeit`)."""
    game = state.get_game()
    record: dict[str, Any] = {
        "game": game.info.name,
        "options": dict(game.options),
        "players": list(players),
        "history": state.history(),
        "result": result if result is not None else result_of(state),
    }
    if meta:
        record["meta"] = meta
    return record


def replay_record(record: Any) -> State:
    """Validate `record` and return the state its history leads to.

    Raises `RecordError` saying what is wrong: a missing or unknown key, a bad game or option, an
    illegal action (with its index), or a result that does not match the replayed game.
    """
    if not isinstance(record, dict):
        raise RecordError(f"a record is a JSON object with keys {', '.join(REQUIRED_KEYS)}; "
                          f"got {type(record).__name__}")
    missing = [k for k in REQUIRED_KEYS if k not in record]
    if missing:
        raise RecordError(f"record has no {missing[0]!r}; required keys: "
                          f"{', '.join(REQUIRED_KEYS)}")
    unknown = sorted(set(record) - set(REQUIRED_KEYS) - set(OPTIONAL_KEYS))
    if unknown:
        raise RecordError(f"record has unknown key {unknown[0]!r}; allowed keys: "
                          f"{', '.join(REQUIRED_KEYS + OPTIONAL_KEYS)}")
    if not isinstance(record["options"], dict):
        raise RecordError("record 'options' must be an object of option names to values")
    try:
        game = load(record["game"], **record["options"])
    except ValueError as err:
        raise RecordError(f"record names a game that cannot be loaded: {err}") from None
    players = record["players"]
    if not (isinstance(players, list) and all(isinstance(p, str) for p in players)):
        raise RecordError("record 'players' must be a list of names (strings)")
    if len(players) != game.num_players():
        raise RecordError(f"record lists {len(players)} players but the game has "
                          f"{game.num_players()} seats")
    history = record["history"]
    if not isinstance(history, list):
        raise RecordError("record 'history' must be a list of action numbers")
    try:
        state = game.replay(history)
    except IllegalActionError as err:
        raise RecordError(f"record history does not replay: {err}") from None
    expected, claimed = result_of(state), record["result"]
    if isinstance(claimed, dict) and ("forfeit" in claimed or "forfeited" in claimed):
        check_forfeit(claimed, expected, game.num_players())
        return state
    if claimed is None and expected is not None:
        raise RecordError("record says the game is unfinished, but its history ends the game")
    if claimed is not None and expected is None:
        raise RecordError(f"record has a result, but its history stops after "
                          f"{len(history)} actions, before the game ends")
    if claimed is not None and claimed != expected:
        raise RecordError(f"record result {claimed} does not match the replayed game "
                          f"{expected} (tampered?)")
    return state


def check_forfeit(claimed: dict[str, Any], expected: dict[str, Any] | None, players: int
                  ) -> None:
    """That a result decided by forfeits is well-formed (RecordError otherwise): `forfeited`
    lists the seats that lost on time, each with return 0 (ranked last); a game ended at once
    by a forfeit names the seat as `forfeit` and its history may stop before the end; else
    the history ends the game and the points are the replayed game's."""
    lost = claimed.get("forfeited", [])
    returns = claimed.get("returns")
    ended = claimed.get("forfeit")
    seats = range(players)
    if (not isinstance(lost, list) or any(type(s) is not int or s not in seats for s in lost)
            or not isinstance(returns, list) or len(returns) != players
            or any(type(r) not in (int, float) for r in returns)):
        raise RecordError(f"record result {claimed} is not a forfeit result: 'forfeited' lists "
                          f"seats 0 to {players - 1}, 'returns' has a number per seat")
    if any(returns[s] != 0 for s in lost):
        raise RecordError(f"record result {claimed}: a forfeited seat's return is 0")
    if ended is not None:
        if type(ended) is not int or ended not in lost:
            raise RecordError(f"record result {claimed}: 'forfeit' is the forfeited seat "
                              "that ended the game")
        return
    if expected is None:
        raise RecordError("record has a result, but its history stops before the game ends "
                          "and no seat forfeited it")
    if claimed.get("scores") != expected["scores"]:
        raise RecordError(f"record result {claimed} does not match the replayed game "
                          f"{expected} (tampered?)")


def record_for_seat(record: dict[str, Any], seat: int) -> dict[str, Any]:
    """The record as `seat` may see it: actions hidden from that seat (another seat's private
    draw) are null. Such a record shows the game but cannot be replayed, by design."""
    state = replay_record(record)
    hidden = state.hidden_steps(seat)
    shown = dict(record)
    shown["history"] = [None if i in hidden else a for i, a in enumerate(record["history"])]
    shown["meta"] = {**record.get("meta", {}), "viewer": seat}
    return shown


def record_to_json(record: dict[str, Any]) -> str:
    return json.dumps(record, indent=1) + "\n"


def record_from_json(text: str) -> dict[str, Any]:
    """Parse a record's JSON text (validation is `replay_record`'s job)."""
    try:
        record = json.loads(text)
    except json.JSONDecodeError as err:
        raise RecordError(f"record is not valid JSON: {err}") from None
    if not isinstance(record, dict):
        raise RecordError("a record is a JSON object")
    return record


def save_record(record: dict[str, Any], path: str | Path) -> None:
    Path(path).write_text(record_to_json(record), encoding="utf-8")


def load_record(path: str | Path) -> tuple[dict[str, Any], State]:
    """Read, parse and validate a record file: the record and its replayed state."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise RecordError(f"cannot read record {path}: {err}") from None
    record = record_from_json(text)
    return record, replay_record(record)
