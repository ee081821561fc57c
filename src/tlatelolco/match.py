"""The match runner: seats + bots + seeded chance -> a game record."""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Collection, Sequence
from typing import Any

from tlatelolco.bots import Bot, make_bot
from tlatelolco.chance import sample_chance
from tlatelolco.contract import Game, IllegalActionError, State
from tlatelolco.i18n import N_
from tlatelolco.records import make_record
from tlatelolco.registry import load
from tlatelolco.turns import undoable

OnAction = Callable[[State, int, int], None]
OnUndo = Callable[[State], None]


NOTHING_TO_TAKE_BACK = N_("there is nothing to take back: only your own moves of this turn, "
                          "before anything is drawn or revealed and before another player "
                          "moves")


class TakeBack(Exception):
    """Raised by a seat's `step` to take back its own last action of this turn (see
    `tlatelolco.turns`); the runner says why not through the seat's `refused(text)`."""


def play_match(
    game: Game | str,
    bots: Sequence[Bot | str],
    seed: int | None = None,
    *,
    on_action: OnAction | None = None,
    sighted: Collection[int] = (),
    on_undo: OnUndo | None = None,
) -> dict[str, Any]:
    """Play one game to the end and return its record.

    `bots` holds one `Bot` or bot spec (`"random"`, `"greedy"`) per seat. Chance is resolved by a
    generator seeded from `seed` that no bot can reach; every bot decides from a state drawn
    from its own information state. The same seed and bots give the same game.
    `on_action(state, action, actor)` is called after each action (actor is the seat or CHANCE).
    Seats in `sighted` are handed the true state instead, hidden information and all: not fair
    play, but the measure of what seeing it is worth (the arena's `--sighted`).
    A seat may raise `TakeBack` (a person's `undo`): its last action of the turn is taken
    back, `on_undo(state)` is told, and the record's `meta.taken_back` keeps it.
    """
    if isinstance(game, str):
        game = load(game)
    if len(bots) != game.num_players():
        raise ValueError(f"{game.info.name} has {game.num_players()} seats but "
                         f"{len(bots)} bots were given")
    if seed is None:
        seed = secrets.randbits(63)
    seats = [make_bot(b, game, seat, f"{seed}:bot:{seat}") if isinstance(b, str) else b
             for seat, b in enumerate(bots)]
    names = [b if isinstance(b, str) else b.name for b in bots]
    chance_rng = random.Random(f"{seed}:chance")
    view_rngs = [random.Random(f"{seed}:view:{seat}") for seat in range(len(seats))]

    state = game.new_initial_state()
    actors: list[int] = []
    taken_back: list[dict[str, Any]] = []
    while not state.is_terminal():
        actor = state.current_player()
        if actor < 0:
            action = sample_chance(state, chance_rng)
        else:
            view = (state.clone() if actor in sighted
                    else state.resample_from_infostate(actor, view_rngs[actor]))
            try:
                action = seats[actor].step(view)
            except TakeBack:
                if not undoable(reversed(actors), actor, actor):
                    refused = getattr(seats[actor], "refused", None)
                    if refused is not None:
                        refused(NOTHING_TO_TAKE_BACK)
                    continue
                history = state.history()
                taken_back.append({"step": len(history) - 1, "seat": actor,
                                   "action": history[-1],
                                   "text": game.replay(history[:-1]).action_to_string(
                                       history[-1])})
                state = game.replay(history[:-1])
                actors.pop()
                if on_undo is not None:
                    on_undo(state)
                continue
        try:
            state.apply_action(action)
        except IllegalActionError as err:
            raise IllegalActionError(f"seat {actor} ({names[actor]}) chose badly: {err}",
                                     action) from None
        actors.append(actor)
        if on_action is not None:
            on_action(state, action, actor)
    meta: dict[str, Any] = {"seed": seed}
    if taken_back:
        meta["taken_back"] = taken_back
    return make_record(state, names, meta=meta)
