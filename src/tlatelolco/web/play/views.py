"""What each viewer is sent: a seat's own view, or a spectator's public one. Nothing else.

A view never carries the seed, another seat's private information or a hidden step's action:
the observation comes from the engine's per-seat (or public) observation, and log entries
hidden from the viewer are replaced by a neutral line.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from typing import Any

from tlatelolco.contract import State
from tlatelolco.i18n import DEFAULT_LANGUAGE, N_, gettext, render
from tlatelolco.records import result_of
from tlatelolco.web.play.clocks import clock_json
from tlatelolco.web.play.live import Live, Step, undoable_steps
from tlatelolco.web.storage.store import GameRow, SeatRow

HIDDEN_TEXT = N_("a hidden draw")
# The titles a view carries: the page shows them translated (t(view.title) in game.js).
TITLES = (N_("Aztec Market"), N_("Axio"), N_("Grand Bazaar"), N_("Mexica"))
# A bot is named by the level the lobby offers it at (lobby.js botLevels), not by its search.
BOT_LEVELS = {"random": N_("Easy bot"), "greedy": N_("Medium bot"), "mcts": N_("Hard bot"),
              "ismcts": N_("Hard bot")}
OPEN_SEAT = N_("Open seat {n}")


def bot_level(spec: str | None) -> str | None:
    """The level name (English, the message id) of a bot's spec; None for an unknown bot."""
    return BOT_LEVELS.get((spec or "random").split(":")[0].strip())


def seat_names(seats: Sequence[SeatRow], lang: str = DEFAULT_LANGUAGE) -> list[str]:
    """Each seat's name as `lang`'s readers see it: a person's own name, a bot's level
    ("Medium bot"; "Medium bot 1", "Medium bot 2" when two share it), an open seat's number
    counted from 1. Computed from the seats, so games stored with older names show these."""
    levels = [bot_level(s.bot) if s.kind == "bot" else None for s in seats]
    shared = Counter(levels)
    seen: Counter[str] = Counter()
    names = []
    for seat, level in zip(seats, levels, strict=True):
        if level is not None:
            seen[level] += 1
            name = gettext(level, lang)
            names.append(f"{name} {seen[level]}" if shared[level] > 1 else name)
        elif seat.kind == "open":
            names.append(gettext(OPEN_SEAT, lang).format(n=seat.seat + 1))
        else:
            names.append(seat.name)
    return names


def clock(row: GameRow) -> dict[str, Any] | None:
    """The game's clock as views and summaries show it: None for a live game, else its move
    time, what a timeout brings, the seat whose clock runs (None while nobody's does: the game
    waits for players, a bot or chance moves, or it is over), when that turn started and its
    deadline, and each seat's timeouts and forfeit."""
    return clock_json(row.speed, row.move_time, row.on_timeout, row.turn_seat,
                      row.turn_started_at, [s.timeouts for s in row.seats],
                      [s.forfeited for s in row.seats])


def game_result(row: GameRow, state: State) -> dict[str, Any] | None:
    """The result once the game is over: the stored one when a seat forfeited (it ranks
    last; a game of two ends at once, before the rules would end it), else the state's."""
    if row.result is not None and row.status == "finished" and any(
            s.forfeited for s in row.seats):
        return row.result
    return result_of(state)


def players(row: GameRow, connected: dict[int, int] | None = None,
            lang: str = DEFAULT_LANGUAGE) -> list[dict[str, Any]]:
    return [{"seat": s.seat, "name": name, "kind": s.kind, "bot": s.bot,
             "connected": s.kind == "bot" or bool(connected and connected.get(s.seat))}
            for s, name in zip(row.seats, seat_names(row.seats, lang), strict=True)]


def log_entries(state: State, log: list[Step], viewer: int | None, start: int,
                stop: int | None = None, lang: str = DEFAULT_LANGUAGE,
                names: list[str] | None = None) -> list[dict[str, Any]]:
    """Steps `start` to `stop` as `viewer` may see them: the notation, the same in words in
    `lang`, and the move (to mark it on the board); a step hidden from the viewer says so."""
    hidden = state.public_hidden_steps() if viewer is None else state.hidden_steps(viewer)
    stop = len(log) if stop is None else stop
    secret = gettext(HIDDEN_TEXT, lang)
    entries = []
    for i in range(start, stop):
        step = log[i]
        if i in hidden:
            entries.append({"step": i, "seat": step.actor, "text": secret, "words": secret,
                            "move": None})
            continue
        words = step.text if step.words is None else render(step.words, lang, names)
        entries.append({"step": i, "seat": step.actor, "text": step.text, "words": words,
                        "move": step.move})
    return entries


def legal_moves(state: State) -> list[dict[str, Any]]:
    return [{"id": a, "text": state.action_to_string(a), "move": state.action_to_dict(a)}
            for a in state.legal_actions()]


def observation(state: State, viewer: int | None) -> dict[str, Any]:
    return state.public_observation() if viewer is None else state.observation(viewer)


def dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def seat_view_text(live: Live, viewer: int | None, log_from: int = 0,
                   connected: dict[int, int] | None = None,
                   lang: str = DEFAULT_LANGUAGE) -> str:
    """The view of `viewer` (a seat, or None for a spectator) now, with the log from `log_from`
    (its words in `lang`), as JSON text. The parts every viewer shares are encoded once per
    version."""
    return versioned_view(live, viewer, log_from, connected, lang)[0]


def versioned_view(live: Live, viewer: int | None, log_from: int = 0,
                   connected: dict[int, int] | None = None,
                   lang: str = DEFAULT_LANGUAGE) -> tuple[str, int]:
    """`seat_view_text` and the version it shows (the game may move on while it is built)."""
    row = live.row
    state, log = live.current()
    to_move = state.current_player()
    seat = row.seats[viewer] if viewer is not None else None
    mine = (seat is not None and seat.kind == "human" and to_move == viewer
            and row.status == "running")
    public = live.game.info.information == "perfect"  # then every seat sees the same
    observed = live.cached(state, ("observation", None if public else viewer),
                           lambda: dumps(observation(state, viewer)))
    legal = live.cached(state, "legal", lambda: dumps(legal_moves(state))) if mine else "[]"
    common = live.cached(state, "common", lambda: dumps({
        "type": "view", "game_id": row.id, "game": row.game, "title": live.game.info.title,
        "options": dict(live.game.options), "version": len(log),
        "to_move": to_move, "scores": state.scores()})[:-1])
    log_from = max(0, min(log_from, len(log)))
    rest = dumps({"result": game_result(row, state), "clock": clock(row),
                  "viewer": viewer, "status": row.status,
                  "players": players(row, connected, lang), "rematch_id": row.rematch_id,
                  "undo": undoable_steps(log, viewer, to_move) if mine else 0,
                  "log_from": log_from,
                  "log": log_entries(state, log, viewer, log_from, None, lang,
                                     seat_names(row.seats, lang))})[1:]
    return f'{common},"observation":{observed},"legal":{legal},{rest}', len(log)


def seat_view(live: Live, viewer: int | None, log_from: int = 0,
              connected: dict[int, int] | None = None,
              lang: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
    """`seat_view_text` as a dict (for the JSON API)."""
    return json.loads(  # type: ignore[no-any-return]
        seat_view_text(live, viewer, log_from, connected, lang))


def replay_view(live: Live, state: State, viewer: int | None, step: int,
                lang: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
    """The view of `viewer` as it was after `step` actions (`state` is that position)."""
    row = live.row
    ended = step == live.version and row.status == "finished"  # a forfeit may end it early
    return {
        "type": "replay",
        "game_id": row.id,
        "game": row.game,
        "title": live.game.info.title,
        "options": dict(live.game.options),
        "version": step,
        "length": live.version,
        "viewer": viewer,
        "status": "finished" if state.is_terminal() or ended else "running",
        "to_move": state.current_player(),
        "players": players(row, None, lang),
        "observation": observation(state, viewer),
        "legal": [],
        "scores": state.scores(),
        "result": game_result(row, state) if ended or state.is_terminal() else None,
        "clock": clock(row),
        "log_from": 0,
        "log": log_entries(state, live.log, viewer, 0, step, lang, seat_names(row.seats, lang)),
        "rematch_id": None,
        "undo": 0,
    }


__all__ = ["HIDDEN_TEXT", "bot_level", "clock", "game_result", "players", "replay_view",
           "seat_names", "seat_view", "seat_view_text", "versioned_view"]
