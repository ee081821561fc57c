"""Processes as the tests see them from /proc: whose children they are, and whether they ended.

Tests that kill a parent (an arena, a server, a bot pool's owner) check with these that its
worker processes ended too.
"""

from __future__ import annotations

import os
from pathlib import Path


def children(parent: int) -> list[int]:
    """The ids of the processes whose parent is `parent`."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue  # gone while we looked
        if int(fields[1]) == parent:
            found.append(int(stat.parent.name))
    return found


def alive(pid: int) -> bool:
    """Whether process `pid` still runs; a zombie has ended (whether anyone reaps it is not
    ours to say)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    except OSError:  # /proc unreadable: ask the kernel whether the id is taken
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True
    return state != "Z"
