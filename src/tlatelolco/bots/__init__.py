"""Bots by name: `make_bot("greedy", game, seat, seed)`; specs may carry parameters
(`"mcts:time=1.0,iterations=500"`)."""

from __future__ import annotations

import importlib
import inspect
from typing import Any

from tlatelolco.bots.base import Bot, RandomBot
from tlatelolco.contract import Game

# game name -> "module:Class" of its greedy heuristic bot
GREEDY: dict[str, str] = {
    "axio": "tlatelolco.bots.greedy.axio:AxioGreedy",
    "aztec_market": "tlatelolco.bots.greedy.aztec_market:AztecMarketGreedy",
    "grand_bazaar": "tlatelolco.bots.greedy.grand_bazaar:GrandBazaarGreedy",
    "mexica": "tlatelolco.bots.greedy.mexica:MexicaGreedy",
}

# the search bots, for every game
SEARCHERS: dict[str, str] = {
    "mcts": "tlatelolco.bots.mcts:MCTS",
    "ismcts": "tlatelolco.bots.mcts:ISMCTS",
}


def bot_names(game: Game) -> list[str]:
    """The bot names available for `game`."""
    names = ["random"]
    if game.info.name in GREEDY:
        names.append("greedy")
    return [*names, "mcts", "ismcts"]


def search_spec(game: Game) -> str:
    """The search bot for `game`'s seats: ISMCTS where seats hide things (so it never searches
    what the seat cannot see), else MCTS."""
    return "ismcts" if game.info.information == "imperfect" else "mcts"


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """'name:key=value,key=value' -> (name, {key: value}) with numbers converted."""
    name, _, rest = spec.strip().partition(":")
    params: dict[str, Any] = {}
    for item in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, raw = item.partition("=")
        if not eq or not key:
            raise ValueError(f"bot spec {spec!r}: parameter {item!r} is not key=value")
        value: Any = raw
        for kind in (int, float):
            try:
                value = kind(raw)
                break
            except ValueError:
                continue
        params[key.strip()] = value
    return name, params


def make_bot(spec: str, game: Game, seat: int, seed: int | str | None = None) -> Bot:
    """A bot for `seat` from its spec; an unknown name or parameter raises `ValueError`."""
    name, params = parse_spec(spec)
    if name == "random":
        cls: type[Bot] = RandomBot
    elif name == "greedy" and game.info.name in GREEDY:
        module, attr = GREEDY[game.info.name].split(":")
        cls = getattr(importlib.import_module(module), attr)
    elif name in SEARCHERS:
        module, attr = SEARCHERS[name].split(":")
        cls = getattr(importlib.import_module(module), attr)
    else:
        raise ValueError(f"unknown bot {name!r} for {game.info.name}; "
                         f"allowed: {', '.join(bot_names(game))}")
    accepted = [p for p in inspect.signature(cls.__init__).parameters
                if p not in ("self", "game", "seat", "seed")]
    unknown = sorted(set(params) - set(accepted))
    if unknown:
        raise ValueError(f"bot {name!r} has no parameter {unknown[0]!r}; "
                         f"allowed: {', '.join(accepted) or 'none'}")
    return cls(game, seat, seed, **params)


__all__ = ["Bot", "RandomBot", "bot_names", "make_bot", "parse_spec", "search_spec"]
