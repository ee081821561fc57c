"""The match runner: seats + bots + seeded chance -> a game record."""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Collection, Sequence
from typing import Any

from tlatelolco.bots import Bot, make_bot
from tlatelolco.chance import sample_chance
from tlatelolco.contract import Game, IllegalActionError, State
from tlatelolco.records import make_record
from tlatelolco.registry import load

OnAction = Callable[[State, int, int], None]


def play_match(
    game: Game | str,
    bots: Sequence[Bot | str],
    seed: int | None = None,
    *,
    on_action: OnAction | None = None,
    sighted: Collection[int] = (),
) -> dict[str, Any]:
    """Play one game to the end and return its record.

    `bots` holds one `Bot` or bot spec (`"random"`, `"greedy"`) per seat. Chance is resolved by a
    generator seeded from `seed` that no bot can reach; every bot decides from a state drawn
    from its own information state. The same seed and bots give the same game.
    `on_action(state, action, actor)` is called after each action (actor is the seat or CHANCE).
    Seats in `sighted` are handed the true state instead, hidden information and all: not fair
    play, but the measure of what seeing it is worth (the arena's `--sighted`).
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
    while not state.is_terminal():
        actor = state.current_player()
        if actor < 0:
            action = sample_chance(state, chance_rng)
        else:
            view = (state.clone() if actor in sighted
                    else state.resample_from_infostate(actor, view_rngs[actor]))
            action = seats[actor].step(view)
        try:
            state.apply_action(action)
        except IllegalActionError as err:
            raise IllegalActionError(f"seat {actor} ({names[actor]}) chose badly: {err}",
                                     action) from None
        if on_action is not None:
            on_action(state, action, actor)
    return make_record(state, names, meta={"seed": seed})
