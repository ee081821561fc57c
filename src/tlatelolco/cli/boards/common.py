"""What several boards draw alike."""

from __future__ import annotations

from rich.text import Text


def result_word(share: float) -> Text:
    """A seat's result from its return: won, shared (with its share) or lost."""
    if share >= 1.0:
        return Text("won", style="bold green")
    if share > 0.0:
        return Text(f"shared ({share:.2g})", style="bold green")
    return Text("lost", style="dim")
