"""What every game's reasons for an illegal move must be (the `test_reasons.py` of each game)."""

from __future__ import annotations

from collections.abc import Sequence

from tlatelolco.i18n import Reason, in_words


def spanish_of(why: object, names: Sequence[str] | None = None) -> str:
    """`why` is an `i18n.Reason` whose English message renders to its own text and whose
    Spanish is whole (no field left unfilled); that Spanish."""
    assert isinstance(why, Reason), why
    assert in_words(why, "en") == str(why)
    spanish = in_words(why, "es", names)
    assert spanish and "{" not in spanish and "}" not in spanish, (why, spanish)
    return spanish
