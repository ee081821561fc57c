"""What every command's refusal looks like: an exit code and one `error:` line naming the
problem, without a traceback."""

from __future__ import annotations

from typing import Any


def one_line_error(result: Any, code: int, *words: str) -> None:
    """A clean failure: the exit code, one line naming the problem, no traceback."""
    assert result.exit_code == code, result.output
    assert isinstance(result.exception, SystemExit), result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    assert lines[0].startswith("error: "), result.output
    for word in words:
        assert word in lines[0], lines[0]
