"""Golden playthroughs: a seeded game with every seat's view at every step, as diffable text.

Each step records the action and, per seat, what changed in its view, so files stay small and
a behaviour change shows up as a short diff.

A test regenerates each playthrough and compares it with the stored file, so any change of
behaviour shows up in review. Regenerate after an intended change with

    python -m tlatelolco.testing.golden --update [DIR]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from tlatelolco.contract import Game, State
from tlatelolco.match import play_match
from tlatelolco.registry import game_class, list_games, load

GOLDEN_SEED = 20261129


def _compact(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def _views(state: State, previous: list[dict[str, Any]]) -> list[str]:
    """One line per group of seats whose view changed in the same way: the keys that differ
    from that seat's previous view (all of them at the start). Seats are grouped, so a hidden
    hand shows up as a separate line for its owner."""
    groups: dict[str, list[int]] = {}
    for seat, before in enumerate(previous):
        observation = state.observation(seat)
        changed = {k: v for k, v in observation.items() if k not in before or before[k] != v}
        previous[seat] = observation
        groups.setdefault(_compact(changed), []).append(seat)
    return [f"  seats {','.join(map(str, seats))}: {text}" for text, seats in groups.items()]


def playthrough(game: Game, seed: int = GOLDEN_SEED) -> str:
    """The text of a random-bot game of `game` with the given seed."""
    n = game.num_players()
    lines = [json.dumps({"game": game.info.name, "options": dict(game.options), "seed": seed})]
    previous: list[dict[str, Any]] = [{} for _ in range(n)]
    lines += _views(game.new_initial_state(), previous)

    before = game.new_initial_state()  # trails the match by one action, for the notation

    def log(state: State, action: int, actor: int) -> None:
        lines.append(f"{len(state.history())} actor {actor} action {action}: "
                     f"{before.action_to_string(action)}")
        before.apply_action(action)
        lines.extend(_views(state, previous))

    record = play_match(game, ["random"] * n, seed=seed, on_action=log)
    lines.append("result " + json.dumps(record["result"]))
    return "\n".join(lines) + "\n"


def configurations() -> list[Game]:
    """Every registered game at every allowed player count."""
    games = []
    for name in list_games():
        info = game_class(name).info
        games += [load(name, num_players=k) for k in range(info.min_players, info.max_players + 1)]
    return games


def golden_name(game: Game) -> str:
    return f"{game.info.name}_{game.num_players()}p.txt"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("directory", nargs="?", default="tests/golden")
    parser.add_argument("--update", action="store_true", help="write the files")
    args = parser.parse_args(argv)
    out = Path(args.directory)
    for game in configurations():
        text = playthrough(game)
        path = out / golden_name(game)
        if args.update:
            out.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path} ({len(text):,} bytes)")
        else:
            same = path.exists() and path.read_text(encoding="utf-8") == text
            print(f"{path}: {'same' if same else 'DIFFERS'}")


if __name__ == "__main__":
    main()


__all__ = ["configurations", "golden_name", "playthrough"]
