"""Optional parts of Tlatelolco and the message that names their install command.

A plain `pip install tlatelolco` gives the games, bots, terminal and web app on SQLite. The rest
comes in extras, each imported only where it is used, so a missing one costs nothing until then
and is refused with the command that installs it:

    >>> require("json", "rl").__name__
    'json'
"""

from __future__ import annotations

import importlib
from types import ModuleType

# extra -> (what it gives, the distributions it installs); the message a refusal shows.
EXTRAS: dict[str, tuple[str, str]] = {
    "rl": ("observation tensors and the PettingZoo, Gymnasium and OpenSpiel environments",
           "numpy, gymnasium, pettingzoo, open_spiel"),
    "server": ("PostgreSQL, Redis and remote bot workers for the web app",
               "psycopg, redis, rq"),
    "cluster": ("arena runs on a Ray cluster", "ray"),
    "report": ("balance report charts", "matplotlib"),
    "train": ("the MaskablePPO training example", "torch, sb3-contrib"),
}


class MissingExtra(ImportError):
    """An optional dependency is not installed; the message says which extra brings it."""


def install_command(extra: str) -> str:
    return f"pip install 'tlatelolco[{extra}]'"


def require(module: str, extra: str) -> ModuleType:
    """`module` imported, or `MissingExtra` naming `extra` and how to install it."""
    if extra not in EXTRAS:
        raise ValueError(f"unknown extra {extra!r}; extras: {', '.join(EXTRAS)}")
    try:
        return importlib.import_module(module)
    except ImportError as err:
        raise missing(module, extra) from err


def missing(module: str, extra: str) -> MissingExtra:
    """The error for `module` (of `extra`) not being importable."""
    purpose, packages = EXTRAS[extra]
    return MissingExtra(
        f"{purpose} need the optional package {module.split('.')[0]!r}, which is not "
        f"installed. Install the {extra!r} extra ({packages}): {install_command(extra)} "
        "(from a checkout: pip install -e '.[" + extra + "]')", name=module)
