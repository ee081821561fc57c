"""Reviews of finished games in the web app: asked for from the game's page, computed on the
server, stored with the game.

A review (`tlatelolco.review`) searches every decision of a game, which takes from seconds
(Axio) to minutes (Aztec Market) of a core. So:

- **Live games go first.** Reviews never use the `BotPool` workers that move bot seats and
  answer hints: they run in a pool of their own (`workers` processes, started with the first
  review), each at the lowest CPU priority (nice 19), so on a busy machine a bot's search or a
  hint gets the cores before any review does. A review is sent to its worker in batches of a
  few decisions (`batch_size`), so its progress ("n % done") is real. With remote workers
  (`serve --remote-workers`) the batches go to them instead, after every bot move and hint
  (priority `REVIEW`).
- **A queue.** Reviews wait first come first served; at most `workers` batches run at once,
  at most `queue` reviews are queued or running (429 "the queue is full" beyond), and a client
  (an address, or a seat credential) has at most `per_client` of them (429 saying so). Like
  the rate limits, these are counted in each server process.
- **Computed once.** A finished review is stored in the `reviews` table with its game and its
  key (`tlatelolco.review.review_key`: the record and the settings), so asking again, from any
  server process or after a restart, reads it back. What is queued or running lives in this
  process only: after a restart it is asked for again.

Who sees a review: whoever may see the game's replay, and only what their replay shows. The
notation of a step hidden from the viewer (another seat's private draw, in luck's texts) is
replaced as in the log, and where seats hide things from each other the better move of
another seat's decision is dropped unless the game's moves keep no secret (`OPEN_MOVES`).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import itertools
import math
import multiprocessing
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import JSON, Column, DateTime, Engine, ForeignKey, String, Table, insert, select
from sqlalchemy.exc import IntegrityError

from tlatelolco.i18n import DEFAULT_LANGUAGE, gettext, render
from tlatelolco.review.analysis import (
    VERSION,
    Settings,
    analyse_steps,
    assemble,
    decision_steps,
    review_key,
)
from tlatelolco.web.accounts.identity import Account, Credential
from tlatelolco.web.http.errors import ApiError
from tlatelolco.web.play.live import Live, token_hash
from tlatelolco.web.play.views import HIDDEN_TEXT, replay_view, seat_names
from tlatelolco.web.realtime.hub import Hub
from tlatelolco.web.storage.db import metadata
from tlatelolco.web.workers.bots import BotPool, WorkerPool
from tlatelolco.web.workers.fairness import REVIEW, Ticket

WORKERS = 1  # review batches at once (each in a process of its own)
QUEUE = 8  # reviews queued or running at once, all clients together
PER_CLIENT = 1  # reviews one client may have queued or running
NICE = 19  # a review worker's CPU priority: the lowest, below bots and hints
BATCHES = 40  # a review is cut into about this many batches (its progress steps) ...
MAX_BATCH = 8  # ... of at most this many decisions each
BATCH_TIME = 30.0  # seconds a batch may take per decision before its worker is killed
MIN_BATCH_TIME = 60.0
FAILED_KEPT = 600.0  # seconds a failed review's error is shown before it is forgotten
RETRY_AFTER = 60  # seconds a client is told to wait when the queue is full
# games whose seats hide things from each other, but whose moves do not: in Axio a seat's
# only secret when it moves is its hand tile, which the move it plays puts on the board, so
# the other moves it could have made with that tile tell nothing the replay does not show
OPEN_MOVES = frozenset({"axio"})

# Declared on the shared `metadata` (the app imports this module), so that the schema check
# compares it with migration 0005.
reviews = Table(
    "reviews", metadata,
    Column("game_id", String(16), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("key", String(24), primary_key=True),  # review_key: the record and the settings
    Column("review", JSON, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)


def load_review(engine: Engine, game_id: str, key: str) -> dict[str, Any] | None:
    """The stored review of `game_id` with `key`, or None (absent, or of an older method)."""
    with engine.connect() as db:
        found = db.execute(select(reviews.c.review).where(
            reviews.c.game_id == game_id, reviews.c.key == key)).scalar_one_or_none()
    if not isinstance(found, dict) or found.get("version") != VERSION:
        return None
    return found


def save_review(engine: Engine, game_id: str, review: dict[str, Any]) -> None:
    """Store a finished review; one another process stored first is kept (they are equal)."""
    try:
        with engine.begin() as db:
            db.execute(insert(reviews).values(game_id=game_id, key=review["key"],
                                              review=review,
                                              created_at=dt.datetime.now(dt.UTC)))
    except IntegrityError:
        pass


def analyse_batch(job: dict[str, Any]) -> list[dict[str, Any]]:
    """A batch of a review's decisions, in a review worker (see `analyse_steps`)."""
    # in a worker process only (a test's threads share the server's process)
    if multiprocessing.parent_process() is not None and os.getpriority(os.PRIO_PROCESS, 0) < NICE:
        os.setpriority(os.PRIO_PROCESS, 0, NICE)
    return analyse_steps(job["record"], job["steps"], job["settings"])


def batches(steps: Sequence[int], size: int | None = None) -> list[list[int]]:
    """`steps` in consecutive batches of `size` (default: about `BATCHES` of them, each of
    at most `MAX_BATCH` decisions)."""
    size = size or max(1, min(MAX_BATCH, math.ceil(len(steps) / BATCHES)))
    return [list(steps[i:i + size]) for i in range(0, len(steps), size)]


@dataclass(slots=True, eq=False)
class Job:
    """A review asked for and not stored yet: queued, running, or failed."""

    game_id: str
    key: str
    clients: frozenset[str]  # who asked (an address, a credential): the per-client limit
    record: dict[str, Any]
    steps: list[int]
    order: int  # its place in the order of asking
    state: str = "queued"  # queued | running | failed
    done: int = 0
    decisions: list[dict[str, Any]] = field(default_factory=list)
    error: str | None = None
    ended: float = 0.0  # when it failed (time.monotonic)


class Reviews:
    """The review queue of one server process (see the module's docstring)."""

    def __init__(self, hub: Hub, *, workers: int = WORKERS, queue: int = QUEUE,
                 per_client: int = PER_CLIENT, iterations: int | None = None,
                 batch_size: int | None = None, pool: WorkerPool | None = None) -> None:
        self.hub = hub
        self.workers = workers  # 0: batches in threads of this process (tests)
        self.queue = queue
        self.per_client = per_client
        self.settings = Settings(iterations=iterations)
        self.batch_size = batch_size
        self._jobs: dict[str, Job] = {}  # by game id
        self._waiting: asyncio.Queue[Job] | None = None
        self._runners: list[asyncio.Task[None]] = []
        # remote workers (`serve --remote-workers`) run reviews too, at REVIEW priority; the
        # pool is the hub's, closed by it. Else a pool of our own, started with the first review
        self._pool: WorkerPool | None = pool
        self._own_pool = pool is None
        self._order = itertools.count()

    @property
    def engine(self) -> Engine:
        return self.hub.service.store.engine

    # --- asking and looking ----------------------------------------------------------------
    async def ask(self, game_id: str, token: Credential | None, address: str | None,
                  lang: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
        """Queue the review of a finished game (unless it is stored, queued or running); its
        state. ApiError 409 for a game not over, 429 over the queue's or the client's limit."""
        live, viewer = await self.hub.call(self.hub.service.viewer, game_id, token)
        if live.row.status == "finished" and not live.state.is_terminal():
            raise ApiError(409, "forfeited", "this game ended on time before its rules ended "
                           "it (a seat forfeited): the review judges games played to their "
                           "end, and the replay shows the moves played")
        if live.row.status != "finished" or not live.state.is_terminal():
            raise ApiError(409, "not_finished", "only a finished game can be reviewed; this "
                           "one is still being played (or waits for players). Ask again once "
                           "it is over")
        job = self._jobs.get(game_id)
        if job is not None and job.state != "failed":
            return self._state(job)
        record = await self.hub.call(self.hub.service.record, live)
        key = review_key(record, self.settings)
        stored = await self.hub.call(load_review, self.engine, game_id, key)
        if stored is not None:
            return await self._done(live, viewer, stored, lang)
        steps = await asyncio.to_thread(decision_steps, record)
        # from here on no await: two requests at once cannot both pass the limits
        job = self._jobs.get(game_id)
        if job is not None and job.state != "failed":
            return self._state(job)
        clients = frozenset([f"address:{address or '?'}"]
                            + ([f"credential:{token_hash(token)}"] if isinstance(token, str)
                               and token else [])
                            + ([f"account:{token.id}"] if isinstance(token, Account) else []))
        self._check_limits(clients)
        job = Job(game_id, key, clients, record, steps, next(self._order))
        self._jobs[game_id] = job
        self._start()
        assert self._waiting is not None
        self._waiting.put_nowait(job)
        return self._state(job)

    async def look(self, game_id: str, token: Credential | None,
                   lang: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
        """The state of a game's review: none, queued, running, done (with the review, as the
        viewer may see it) or failed (with the error)."""
        live, viewer = await self.hub.call(self.hub.service.viewer, game_id, token)
        self._forget_failed()
        job = self._jobs.get(game_id)
        if job is not None:
            return self._state(job)
        if live.row.status == "finished" and live.state.is_terminal():
            record = await self.hub.call(self.hub.service.record, live)
            stored = await self.hub.call(load_review, self.engine, game_id,
                                         review_key(record, self.settings))
            if stored is not None:
                return await self._done(live, viewer, stored, lang)
        return answer("none")

    def _check_limits(self, clients: frozenset[str]) -> None:
        active = [j for j in self._jobs.values() if j.state in ("queued", "running")]
        mine = [j for j in active if j.clients & clients]
        if len(mine) >= self.per_client:
            games = ", ".join(repr(j.game_id) for j in mine)
            raise ApiError(429, "review_pending", f"you have a review queued or running "
                           f"already (game {games}); a client may have {self.per_client} at "
                           "a time: ask for the next one once it is done",
                           retry_after=RETRY_AFTER)
        if len(active) >= self.queue:
            raise ApiError(429, "review_queue_full", f"the review queue is full ({self.queue} "
                           "reviews are queued or running); try again in a minute",
                           retry_after=RETRY_AFTER)

    def _forget_failed(self) -> None:
        now = time.monotonic()
        for game_id, job in list(self._jobs.items()):
            if job.state == "failed" and now - job.ended > FAILED_KEPT:
                del self._jobs[game_id]

    def _state(self, job: Job) -> dict[str, Any]:
        position = None
        if job.state == "queued":
            position = 1 + sum(1 for j in self._jobs.values()
                               if j.state == "queued" and j.order < job.order)
        return answer(job.state, job.done, len(job.steps), position, error=job.error)

    async def _done(self, live: Live, viewer: int | None, review: dict[str, Any],
                    lang: str) -> dict[str, Any]:
        shown = await asyncio.to_thread(for_viewer, review, live, viewer, lang)
        total = len(review["decisions"])
        return answer("done", total, total, review=shown)

    # --- computing --------------------------------------------------------------------------
    def _start(self) -> None:
        """The runners (and their pool), started with the first review asked for."""
        if self._waiting is None:
            self._waiting = asyncio.Queue()
        if self._pool is None:
            self._pool = BotPool(self.workers)
        self._runners = [task for task in self._runners if not task.done()]
        while len(self._runners) < max(1, self.workers):
            self._runners.append(asyncio.create_task(self._run()))

    async def _run(self) -> None:
        assert self._waiting is not None
        while True:
            job = await self._waiting.get()
            if self._jobs.get(job.game_id) is not job:
                continue  # replaced meanwhile
            job.state = "running"
            try:
                await self._compute(job)
            except asyncio.CancelledError:
                raise
            except Exception as err:
                job.state, job.error, job.ended = "failed", _reason(err), time.monotonic()

    async def _compute(self, job: Job) -> None:
        assert self._pool is not None
        started = time.perf_counter()
        for batch in batches(job.steps, self.batch_size):
            limit = max(MIN_BATCH_TIME, BATCH_TIME * len(batch))
            found = await self._pool.run(analyse_batch, {
                "record": job.record, "steps": batch, "settings": self.settings}, limit,
                Ticket(REVIEW, min(job.clients), job.game_id))
            if found is None:
                raise RuntimeError(f"{len(batch)} decisions took longer than {limit:g} s")
            job.decisions.extend(found)
            job.done += len(found)
        review = await asyncio.to_thread(assemble, job.record, job.decisions, self.settings,
                                         time.perf_counter() - started)
        await self.hub.write(save_review, self.engine, job.game_id, review)
        del self._jobs[job.game_id]  # stored: read back from the database from now on

    async def close(self) -> None:
        for task in self._runners:
            task.cancel()
        await asyncio.gather(*self._runners, return_exceptions=True)
        if self._pool is not None and self._own_pool:
            self._pool.close()


def answer(state: str, done: int = 0, total: int = 0, position: int | None = None, *,
           review: dict[str, Any] | None = None, error: str | None = None) -> dict[str, Any]:
    """What both review routes answer."""
    percent = 100 if state == "done" else (100 * done // total if total else 0)
    return {"state": state, "done": done, "total": total, "percent": percent,
            "position": position, "review": review, "error": error}


def _reason(err: Exception) -> str:
    return (f"the review could not be computed: {err}. Ask again to retry; if it fails again, "
            "the server's log says more")


# --- what a viewer may see -------------------------------------------------------------------

def moves_visible(live: Live, viewer: int | None, mover: int) -> bool:
    """Whether `viewer` may see the moves `mover` could have made (the better move, the other
    moves tried on the board): always where nothing is hidden between seats, else only the
    mover, unless the game's moves keep no secret (`OPEN_MOVES`)."""
    return (viewer == mover or live.game.info.information == "perfect"
            or live.game.info.name in OPEN_MOVES)


def for_viewer(review: dict[str, Any], live: Live, viewer: int | None,
               lang: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
    """`review` as `viewer` (a seat, or None for a spectator) may see it, with the moves also
    told in words in `lang`: nothing the viewer's replay of the finished game would not show
    (see `moves_visible`; hidden steps are "a hidden draw", as in the log)."""
    end = live.state
    hidden = end.public_hidden_steps() if viewer is None else end.hidden_steps(viewer)
    secret = gettext(HIDDEN_TEXT, lang)
    names = seat_names(live.row.seats, lang)
    wanted: dict[int, int] = {}  # step -> the better move to tell in words
    decisions = []
    for d in review["decisions"]:
        d = dict(d)
        step = d["step"]
        if step in hidden:
            d.update(played=None, played_text=secret, played_words=secret)
        else:
            words = live.log[step].words
            d["played_words"] = d["played_text"] if words is None else render(words, lang,
                                                                              names)
        if not moves_visible(live, viewer, d["seat"]):
            d.update(best=None, best_text=None, best_words=None, legal=None)
        elif d["best"] == d["played"]:
            d["best_words"] = d["played_words"]
        else:
            wanted[step] = d["best"]
        decisions.append(d)
    told = _in_words(live, wanted, lang, names)
    for d in decisions:
        if d["step"] in told:
            d["best_words"] = told[d["step"]]
    luck = []
    for event in review["luck"]:
        texts = [secret if event["from"] + i in hidden else text
                 for i, text in enumerate(event["texts"])]
        luck.append({**event, "texts": texts})
    return {**review, "players": names, "decisions": decisions, "luck": luck,
            "viewer": viewer}


def _in_words(live: Live, moves: dict[int, int], lang: str, names: list[str]
              ) -> dict[int, str]:
    """Each of `moves` (step -> action) told in words at its step."""
    told: dict[int, str] = {}
    if not moves:
        return told
    state = live.game.new_initial_state()
    last = max(moves)
    for step, action in enumerate(live.state.history()[:last + 1]):
        if step in moves:
            try:
                told[step] = render(state.describe_action(moves[step]), lang, names)
            except Exception:  # words are a courtesy: the notation is there
                told[step] = state.action_to_string(moves[step])
        state.apply_action(action)
    return told


def alternative_view(live: Live, viewer: int | None, step: int, action: int,
                     lang: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
    """The replay view of `viewer` at `step` with `action` played there instead of the move
    of the game: a finished game's "what if", shown on the board (a review's better move).

    The view is `replay_view`'s, its log ending with the alternative (marked
    `"alternative": true`), and `alternative` says what was tried. ApiError 409 before the
    game is over (a running game's positions are not for trying moves in), 403 when the
    viewer may not see the mover's options (`moves_visible`), 400 at a chance step or the
    end, or for a move not legal there (saying which are)."""
    if live.row.status != "finished" or not live.state.is_terminal():
        raise ApiError(409, "not_finished", "other moves can be tried on the board once the "
                       "game is over; until then the replay shows the moves played")
    history = live.state.history()
    if not 0 <= step < len(history):
        raise ApiError(400, "bad_step", f"step {step} is not a move of this game: an "
                       f"alternative is tried at a step from 0 to {len(history) - 1}")
    state = live.game.replay(history[:step])
    mover = state.current_player()
    if mover < 0:
        raise ApiError(400, "not_a_decision", f"step {step} is a chance draw, not a player's "
                       "decision: there is no other move to try there")
    if not moves_visible(live, viewer, mover):
        raise ApiError(403, "hidden", f"in {live.game.info.title} the seats hide things from "
                       f"each other: only seat {mover + 1}, who moved at step {step}, may try "
                       "other moves there")
    legal = state.legal_actions()
    if action not in legal:
        why = (state.illegal_reason(action)
               if 0 <= action < live.game.num_distinct_actions() else None)
        shown = ", ".join(f"{a} ({state.action_to_string(a)})" for a in legal[:12])
        raise ApiError(400, "illegal_alternative", f"action {action} is not a legal move at "
                       f"step {step}{f' ({why})' if why else ''}; the legal moves there are "
                       f"{shown}{', …' if len(legal) > 12 else ''}")
    names = seat_names(live.row.seats, lang)
    end = live.state
    hidden = end.public_hidden_steps() if viewer is None else end.hidden_steps(viewer)
    text = state.action_to_string(action)
    try:
        words = render(state.describe_action(action), lang, names)
        move = state.action_to_dict(action)
    except Exception:  # words are a courtesy
        words, move = text, None
    state.apply_action(action)
    view = replay_view(live, state, viewer, step, lang)
    view["log"].append({"step": step, "seat": mover, "text": text, "words": words,
                        "move": move, "alternative": True})
    was = live.log[step]
    if step in hidden:
        played, played_text = None, gettext(HIDDEN_TEXT, lang)
        played_words = played_text
    else:
        played, played_text = history[step], was.text
        played_words = played_text if was.words is None else render(was.words, lang, names)
    view["alternative"] = {"step": step, "seat": mover, "action": action, "text": text,
                           "words": words, "played": played, "played_text": played_text,
                           "played_words": played_words}
    return view


__all__ = ["Reviews", "alternative_view", "answer", "for_viewer", "load_review",
           "moves_visible", "reviews", "save_review"]
