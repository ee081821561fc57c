"""`build_report`: play self-play games per bot kind, compute the numbers, write the HTML page
and a JSON of the numbers beside it."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from tlatelolco.bots import make_bot
from tlatelolco.contract import Game
from tlatelolco.registry import load
from tlatelolco.report import default_bots
from tlatelolco.report.html import render_page
from tlatelolco.report.play import KindProgress, play_kinds
from tlatelolco.report.plots import render_all
from tlatelolco.report.stats import compute_stats


def configure(game: str, players: int | None, options: Mapping[str, Any] | None) -> Game:
    """The configured game; a bad name, player count or option raises `ValueError`."""
    given = dict(options or {})
    if players is not None:
        given["num_players"] = players
    return load(game, **given)


def check_bots(game: Game, bots: Sequence[str]) -> None:
    """Refuse a bad or repeated spec before any game is played, not after an hour of them."""
    if not bots:
        raise ValueError("give at least one bot kind")
    seen: set[str] = set()
    for spec in bots:
        if spec in seen:
            raise ValueError(f"bot kind {spec!r} is given twice")
        seen.add(spec)
        make_bot(spec, game, 0, 0)  # raises ValueError naming the problem


def default_path(game: Game) -> Path:
    return Path("reports") / f"{game.info.name}-{game.num_players()}p.html"


def python_call(game: str, games: int, players: int | None, bots: Sequence[str],
                seed: int, options: Mapping[str, Any] | None) -> str:
    extra = f", options={dict(options)!r}" if options else ""
    return (f"build_report({game!r}, games={games}, players={players!r}, bots={tuple(bots)!r}, "
            f"seed={seed}{extra})")


def build_report(game: str, games: int, players: int | None = None,
                 bots: Sequence[str] | None = None, seed: int = 0,
                 workers: int | None = None, ray_address: str | None = None,
                 out: str | Path | None = None, progress: KindProgress | None = None, *,
                 options: Mapping[str, Any] | None = None,
                 command: str | None = None) -> Path:
    """Play `games` self-play games per bot kind and write the report; returns the HTML's path.

    `bots` defaults to `default_bots(game)`: random, greedy and the game's search bot.
    `options` are the game's other options; `command` is how the report was asked for (shown on
    the page; by default this call). Bad arguments raise `ValueError` before any game is played.
    """
    if games < 1:
        raise ValueError(f"games must be at least 1, got {games}")
    loaded = configure(game, players, options)
    bots = default_bots(loaded) if bots is None else tuple(bots)
    check_bots(loaded, bots)
    n = loaded.num_players()
    played = play_kinds(loaded.info.name, n, dict(loaded.options), bots, games, seed,
                        workers=workers, ray_address=ray_address, progress=progress)
    stats = [compute_stats(records, bot=spec) for spec, records in zip(bots, played, strict=True)]
    meta = {
        "title": loaded.info.title,
        "game": loaded.info.name,
        "version": loaded.info.version,
        "num_players": n,
        "options": {k: v for k, v in loaded.options.items() if k != "num_players"},
        "sides": [list(side) for side in loaded.teams()],
        "games": games,
        "bots": list(bots),
        "seed": seed,
        "command": command or python_call(game, games, players, bots, seed, options),
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
    }
    path = Path(out) if out is not None else default_path(loaded)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render_page(meta, stats, render_all(stats)), encoding="utf-8")
    numbers = {"meta": meta, "stats": [s.as_dict() for s in stats]}
    path.with_suffix(".json").write_text(json.dumps(numbers, indent=1) + "\n", encoding="utf-8")
    return path
