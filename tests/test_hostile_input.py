"""The engine called with hostile input, as a web server calls it (design: "Hostile input").

Move text is bounded and parsed in linear time; no option name crashes `load`; a server can ask
which option values a stranger may set; a tile set file is read once, boundedly, and a stored
game never depends on it again.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import subprocess
import sys
import threading
import timeit
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import tlatelolco
from tlatelolco import IllegalActionError
from tlatelolco.chance import sample_chance
from tlatelolco.contract import MAX_ACTION_TEXT, Game, Option, State, normalise
from tlatelolco.games.axio.table import place_action
from tlatelolco.games.axio.tiles import COLOURS, MAX_FILE_BYTES
from tlatelolco.records import make_record, record_from_json, record_to_json, replay_record
from tlatelolco.registry import game_class

GAMES = tlatelolco.list_games()
TILE_DATA = Path(tlatelolco.__file__).parent / "games" / "axio" / "data" / "axio_tiles.json"


def mid_game(name: str, steps: int = 12, seed: int = 1) -> State:
    """A state a few moves in, where the game's own notation is in use."""
    state = tlatelolco.load(name).new_initial_state()
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(sample_chance(state, rng) if state.is_chance_node()
                           else rng.choice(state.legal_actions()))
    return state


# --- 1. move text: bounded, and parsed in linear time --------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_move_text_over_the_limit_is_refused_before_any_parsing(name: str) -> None:
    state = mid_game(name)
    with pytest.raises(IllegalActionError, match="is not a move"):
        state.string_to_action("x" * MAX_ACTION_TEXT)  # at the limit: parsed, means nothing
    for size in (MAX_ACTION_TEXT + 1, 12_000, 1_000_000):
        for text in ("1" * size, " " * size, "(" * size):
            started = timeit.default_timer()
            with pytest.raises(IllegalActionError) as err:
                state.string_to_action(text)
            assert str(err.value) == (f"a move is at most {MAX_ACTION_TEXT} characters; "
                                      f"got {size}")
            assert state.parse_action(text) is None
            assert timeit.default_timer() - started < 0.05, (size, text[:5])
    for junk in (None, 5, b"end", ["end"]):
        with pytest.raises(IllegalActionError, match="a move is text"):
            state.string_to_action(junk)  # type: ignore[arg-type]
        assert state.parse_action(junk) is None  # type: ignore[arg-type]


def adversarial(state: State, size: int) -> list[str]:
    """Normalised texts of `size` characters built to make a backtracking parser work hard:
    digit runs, repeated separators and brackets, and the prefix of each move's notation (and
    each whole move) repeated."""
    seeds = ["1", "1,", "1, ", "(", "(1,", "-", "-1", "1 ", ", ", "=", "empty=", "rot ",
             "place at ", "place at (1,", "draw tile ", "start tile 1 (", "a1-", "canal a1 - ",
             "move bridge from a1 to ", "build 1 at ", "found 1 at "]
    for text in state.legal_action_strings()[:5]:
        text = normalise(text)
        seeds += [text, text[: len(text) // 2], text + " "]
    texts = []
    for seed in dict.fromkeys(seeds):
        for head, tail in (("", ""), ("1,", "!"), ("", " !"), ("1,1 ", "!")):
            body = head + seed * (size // len(seed) + 1)
            texts.append(normalise(body[: size - len(tail)] + tail))
    return texts


def per_call(parse: Callable[[str], object], text: str) -> float:
    """Seconds per parse of `text`: the best of 3 batches, each long enough to time."""
    number = 1
    while (batch := timeit.timeit(lambda: parse(text), number=number)) < 0.001 and number < 1000:
        number *= 10
    return min([batch, *timeit.repeat(lambda: parse(text), number=number, repeat=2)]) / number


@pytest.mark.parametrize("name", GAMES)
def test_parsers_take_linear_time_on_adversarial_text(name: str) -> None:
    """Ten times the text may cost at most about ten times the work (a backtracking pattern costs
    a hundred times); the game's own parser is called directly, behind the length limit."""
    state = mid_game(name)
    parse = state._parse_action
    short, long = adversarial(state, 200), adversarial(state, 2000)
    for a, b in zip(short, long, strict=True):
        assert parse(a) is None  # nothing that long names a move
        ratio = per_call(parse, b) / per_call(parse, a)
        assert ratio < 20, f"{name}: {ratio:.0f} times the time for ten times {a[:30]!r}"


def test_axio_patterns_are_bounded_and_still_take_every_spelling() -> None:
    """The message that froze a server for 9.5 s, given straight to Axio's parser, is turned
    down at once; the spellings people type still parse."""
    state = mid_game("axio")
    for text in ("1," + "1" * 12_000 + "!", "1,1 " + "9" * 12_000, "draw tile " + "1" * 12_000):
        started = timeit.default_timer()
        assert state._parse_action(text) is None
        assert timeit.default_timer() - started < 0.1
    parse = state.parse_action
    red = COLOURS.index("red") + 1
    spellings = {
        "place at (3,-2) rot 90 empty=red": place_action(3, -2, 1, red),
        "Place  at ( 3 , -2 )  rot 90  empty = red": place_action(3, -2, 1, red),
        "placeat(3,-2)rot90empty=red": place_action(3, -2, 1, red),
        "(3,-2) 90 red": place_action(3, -2, 1, red),
        "3,-2 270": place_action(3, -2, 3, 0),
        "(61,-60) 0": place_action(61, -60, 0, 0),
        "(007,1) 0": place_action(7, 1, 0, 0),
    }
    for text, action in spellings.items():
        assert parse(text) == action, text
    for text in ("(62,0) 0", "(0,0) 45", "(0,0) 0 pink", "(0,0) 360", "(12345,0) 0"):
        assert parse(text) is None, text
    assert parse(mid_game("axio", steps=1).legal_action_strings()[0]) is not None


# --- 2. option names never crash `load` ----------------------------------------------------------

HOSTILE_NAMES = ["self", "cls", "__class__", "options", "name", "", "x" * 10_000]


@pytest.mark.parametrize("game", GAMES)
def test_any_unknown_option_name_is_a_value_error_naming_the_allowed_ones(game: str) -> None:
    allowed = ", ".join(o.name for o in game_class(game).info.options)
    for name in HOSTILE_NAMES:
        for make in (tlatelolco.load, lambda _, **options: game_class(game)(**options)):
            with pytest.raises(ValueError) as err:
                make(game, **{name: 1})
            message = str(err.value)
            assert message.startswith(f"{game}: unknown option '{name[:10]}")
            assert message.endswith(f"; allowed options: {allowed}")
            assert len(message) < 120 + len(allowed)  # a 10 KB name is not echoed back


def test_a_flood_of_option_value_is_not_echoed_back() -> None:
    for value in ("9" * 10_000, "many" * 2_500, 10**1000):
        with pytest.raises(ValueError, match="num_players=") as err:
            tlatelolco.load("grand_bazaar", num_players=value)
        assert len(str(err.value)) < 200


# --- 3. which option values a server may take from a stranger ------------------------------------


def test_an_option_says_which_values_a_remote_client_may_set() -> None:
    assert Option("n", 2, "help").remote is None
    tiles = {o.name: o for o in game_class("axio").info.options}["tiles"]
    assert tiles.remote == ("default",)
    assert game_class("axio").info.as_dict()["options"]["tiles"]["remote"] == ["default"]
    assert game_class("mexica").info.as_dict()["options"]["num_players"]["remote"] is None


@pytest.mark.parametrize("game", GAMES)
def test_remote_options_are_validated_like_any_options(game: str) -> None:
    cls = game_class(game)
    assert cls.check_remote_options({}) == cls.validate_options({})
    n = cls.info.max_players
    assert cls.check_remote_options({"num_players": str(n)})["num_players"] == n
    for name in HOSTILE_NAMES:
        with pytest.raises(ValueError, match=f"{game}: unknown option .*; allowed options: "):
            cls.check_remote_options({name: 1})
    with pytest.raises(ValueError, match="num_players=99 is not allowed"):
        cls.check_remote_options({"num_players": 99})


@pytest.mark.parametrize("value", [[2], {"n": 2}, (2,), object(), b"2", "2" * 65])
def test_remote_option_values_are_json_scalars(value: Any) -> None:
    with pytest.raises(ValueError) as err:
        game_class("grand_bazaar").check_remote_options({"num_players": value})
    assert str(err.value).startswith("grand_bazaar: option num_players must be text of at most "
                                     "64 characters, a number, true, false or null; got ")
    assert len(str(err.value)) < 150


def test_a_remote_client_cannot_name_a_file(monkeypatch: pytest.MonkeyPatch) -> None:
    """Refused without a look at the file system, so the answer says nothing about which files
    exist (`/etc/passwd` does, `/nonexistent` does not)."""
    cls = game_class("axio")
    assert cls.check_remote_options({"tiles": "default"}) == {"num_players": 2,
                                                              "tiles": "default"}

    paths = ["/etc/passwd", "/nonexistent", "/dev/zero", "/tmp", "tiles.json", "../tiles.json",
             "Default", "default "]
    touched: list[object] = []

    def watch(function: Callable[..., Any]) -> Callable[..., Any]:
        def watched(path: object, *args: object, **kwargs: object) -> Any:
            if str(path) in paths:
                touched.append(path)
            return function(path, *args, **kwargs)
        return watched

    for function in ("stat", "lstat", "open", "access", "scandir"):
        monkeypatch.setattr(os, function, watch(getattr(os, function)))
    monkeypatch.setattr("builtins.open", watch(open))
    messages = set()
    for path in paths:
        with pytest.raises(ValueError) as err:
            cls.check_remote_options({"tiles": path})
        messages.add(str(err.value))
    monkeypatch.undo()
    assert touched == []
    assert messages == {"axio: a remote client may set option tiles only to 'default'"}


# --- 4. a stored game never depends on a file ----------------------------------------------------


def reversed_set() -> dict[str, Any]:
    """The shipped set with every tile turned around: a set that is not the default."""
    data = json.loads(TILE_DATA.read_text(encoding="utf-8"))
    data["tiles"] = [list(reversed(tile)) for tile in data["tiles"]]
    return data


def test_a_tile_file_is_read_once_and_the_game_keeps_its_tiles(tmp_path: Path) -> None:
    path = tmp_path / "tiles.json"
    path.write_text(json.dumps(reversed_set()), encoding="utf-8")
    game = tlatelolco.load("axio", tiles=str(path))
    tiles = game.tiles  # type: ignore[attr-defined]
    assert game.options["tiles"] == {"tiles": reversed_set()["tiles"]}  # the set, canonical
    assert json.loads(json.dumps(dict(game.options))) == dict(game.options)

    path.write_text(TILE_DATA.read_text(encoding="utf-8"), encoding="utf-8")  # changed
    again = tlatelolco.load("axio", **game.options)
    assert again.tiles == tiles and again == game  # type: ignore[attr-defined]
    path.unlink()  # gone
    again = tlatelolco.load("axio", **json.loads(json.dumps(dict(game.options))))
    assert again.tiles == tiles and again == game and {again, game} == {game}  # type: ignore
    assert len(repr(game)) < 120


def test_a_record_of_a_game_played_with_a_tile_file_replays_without_it(tmp_path: Path) -> None:
    path = tmp_path / "tiles.json"
    path.write_text(json.dumps(reversed_set()), encoding="utf-8")
    record = tlatelolco.play_match(tlatelolco.load("axio", tiles=str(path)),
                                   ["random", "random"], seed=5)
    unfinished = make_record(mid_game("axio"), ["a", "b"])
    path.write_text("{}", encoding="utf-8")
    state = replay_record(record_from_json(record_to_json(record)))
    assert state.is_terminal() and state.returns() == record["result"]["returns"]
    path.unlink()
    assert replay_record(record_from_json(record_to_json(record))) == state
    assert replay_record(unfinished) is not None


def test_an_inline_tile_set_is_validated_like_a_file(tmp_path: Path) -> None:
    good = reversed_set()["tiles"]
    assert tlatelolco.load("axio", tiles={"tiles": good, "note": "x"}).options["tiles"] == {
        "tiles": good}
    bad = {
        "has 59 tiles; Axio needs exactly 60": good[:59],
        "tile 0 must list 4 corners": [good[0][:3], *good[1:]],
        "tile 0 has corner 'pink'": [["pink", "red", "green", "blue"], *good[1:]],
        "tile 0 has 2 empty corners": [[None, None, "green", "blue"], *good[1:]],
        "tile 0 has corner 'xxxxx": [["x" * 10_000, "red", "green", "blue"], *good[1:]],
    }
    for message, tiles in bad.items():
        with pytest.raises(ValueError, match=f"axio: option tiles=.*is not usable: .*{message}"
                           ) as err:
            tlatelolco.load("axio", tiles={"tiles": tiles})
        assert len(str(err.value)) < 300
        path = tmp_path / "bad.json"
        path.write_text(json.dumps({"tiles": tiles}), encoding="utf-8")
        with pytest.raises(ValueError, match=message):
            tlatelolco.load("axio", tiles=str(path))


def load_within(seconds: float, **options: Any) -> Game | BaseException:
    """`load("axio", **options)` in a thread: what it gave, or a TimeoutError if it hung."""
    outcome: list[Game | BaseException] = []

    def run() -> None:
        try:
            outcome.append(tlatelolco.load("axio", **options))
        except BaseException as err:  # handed to the test to judge
            outcome.append(err)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    return outcome[0] if outcome else TimeoutError(f"load hung for {seconds} s")


def test_a_named_pipe_is_refused_at_once(tmp_path: Path) -> None:
    pipe = tmp_path / "tiles.fifo"
    os.mkfifo(pipe)
    try:
        outcome = load_within(5.0, tiles=str(pipe))
    finally:  # a reader still blocked in open() is freed by opening the other end
        with contextlib.suppress(OSError):  # no reader waiting: nothing to free
            os.close(os.open(pipe, os.O_WRONLY | os.O_NONBLOCK))
    assert isinstance(outcome, ValueError), outcome
    assert "is not a regular file" in str(outcome)


def test_devices_directories_and_big_files_are_refused(tmp_path: Path) -> None:
    big = tmp_path / "big.json"
    with big.open("wb") as file:
        file.truncate(MAX_FILE_BYTES + 1)  # sparse: costs no disk
    for path, why in ((os.devnull, "is not a regular file"), (str(tmp_path), "is not a regular "
                      "file"), (str(big), f"has {MAX_FILE_BYTES + 1} bytes; a tile set file has "
                      f"at most {MAX_FILE_BYTES}")):
        outcome = load_within(5.0, tiles=path)
        assert isinstance(outcome, ValueError), outcome
        assert str(outcome).startswith("axio: option tiles='")
        assert str(outcome).endswith(f" is not usable: cannot read tile set {path}: it {why}")


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero here")
def test_an_endless_device_is_refused_at_once() -> None:
    """In a child process with a memory limit: a regression reads /dev/zero until it dies."""
    script = ("import resource, tlatelolco\n"
              "resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))\n"
              "try:\n    tlatelolco.load('axio', tiles='/dev/zero')\n"
              "except ValueError as err:\n    print(err)\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=60, env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert done.stdout.strip() == ("axio: option tiles='/dev/zero' is not usable: cannot read "
                                   "tile set /dev/zero: it is not a regular file"), done.stderr
