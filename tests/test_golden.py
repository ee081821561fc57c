"""Golden playthroughs: regenerate each seeded game and diff it against the stored file.

After an intended change of behaviour, regenerate with
`python -m tlatelolco.testing.golden --update tests/golden` and review the diff.
"""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest

from tlatelolco.contract import Game
from tlatelolco.testing.golden import configurations, golden_name, playthrough

GOLDEN = Path(__file__).parent / "golden"


@pytest.mark.parametrize("game", configurations(), ids=repr)
def test_golden_playthrough(game: Game) -> None:
    path = GOLDEN / golden_name(game)
    assert path.exists(), f"{path} is missing: run python -m tlatelolco.testing.golden --update"
    expected = path.read_text(encoding="utf-8")
    actual = playthrough(game)
    if actual != expected:
        diff = difflib.unified_diff(expected.splitlines(), actual.splitlines(), str(path),
                                    "regenerated", lineterm="", n=1)
        shown = "\n".join(line[:300] for line in list(diff)[:40])
        pytest.fail(f"{game!r} no longer plays as recorded:\n{shown}")


def test_golden_playthrough_is_deterministic() -> None:
    game = configurations()[0]
    assert playthrough(game, seed=5) == playthrough(game, seed=5)
    assert playthrough(game, seed=5) != playthrough(game, seed=6)
