"""The web application: `create_app(Settings(...))`, served by `tlatelolco serve`.

    from tlatelolco.web import Settings, create_app
    app = create_app(Settings(db="sqlite:///games.db"))   # any ASGI server can run it
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException

from tlatelolco.i18n import LANGUAGES, browser_catalogue
from tlatelolco.web.accounts import api as accounts_api
from tlatelolco.web.accounts.csrf import CrossSiteGuard
from tlatelolco.web.accounts.verification import start_verifier
from tlatelolco.web.http import api, rules
from tlatelolco.web.http.errors import ApiError
from tlatelolco.web.http.limits import (
    Guard,
    RateLimiter,
    RateLimits,
    SocketCaps,
    redact_server_logs,
)
from tlatelolco.web.notify import api as notify_api
from tlatelolco.web.notify.reminders import SETTLE, start_reminders
from tlatelolco.web.play.quota import Quota
from tlatelolco.web.play.service import Service
from tlatelolco.web.realtime import sockets
from tlatelolco.web.realtime.hub import Hub
from tlatelolco.web.realtime.pubsub import make_pubsub
from tlatelolco.web.social import api as social_api
from tlatelolco.web.social import ratings
from tlatelolco.web.storage.db import DEFAULT_URL, make_engine, one_server_per_file, upgrade
from tlatelolco.web.storage.store import Store
from tlatelolco.web.workers.bots import IDLE_BOT_TIME, BotPool, WorkerPool
from tlatelolco.web.workers.remote import RemotePool
from tlatelolco.web.workers.reviews import Reviews

STATIC = Path(__file__).with_name("static")


@dataclass(slots=True)
class Settings:
    """How a server runs. Environment variables fill what is not given (TLATELOLCO_DB, ...)."""

    db: str = field(default_factory=lambda: os.environ.get("TLATELOLCO_DB", DEFAULT_URL))
    redis: str | None = field(default_factory=lambda: os.environ.get("TLATELOLCO_REDIS")
                              or None)
    bot_workers: int = 1  # worker processes for bot seats; 0 runs bots in threads
    remote_workers: bool = False  # bots, hints, reviews on `tlatelolco worker`s via redis
    bot_delay: float = 0.7  # seconds a bot waits before moving, so people can follow
    bot_delays: dict[str, float] = field(default_factory=dict)  # per game, overriding it
    bot_time: float = 5.0  # seconds a bot may think when its spec gives no time=
    max_body: int = 65_536  # bytes of a request body
    max_sockets: int = 750  # WebSockets open at once (serve: 3/4 of --max-connections)
    sockets_per_client: int = 20  # WebSockets one client address may hold (0: any)
    rate_limits: RateLimits = field(default_factory=RateLimits)  # per client, per minute
    expire_after: float = 14 * 86_400.0  # seconds without a move before an unfinished game
    #                                      is deleted (0: never); finished games stay
    expire_bot_games: float = 86_400.0  # seconds a finished game without a person is kept
    quota: Quota = field(default_factory=Quota)  # games kept and created per address
    idle_bot_time: float = IDLE_BOT_TIME  # seconds a bot thinks in a game of bots only
    review_workers: int = 1  # processes computing reviews (review batches at once); 0: threads
    review_queue: int = 8  # reviews queued or running at once, all clients together
    review_per_client: int = 1  # reviews one client may have queued or running
    review_iterations: int | None = None  # search iterations per decision (None: per game)
    min_move_time: int = 60  # seconds a turn of a turn-based game at least (tests: 1)
    clock_check: float = 15.0  # seconds between looks at the clocks of turn-based games
    # reminders: the mail server (smtp[s]://[user:password@]host[:port][?from=ADDRESS], never
    # shown: it may hold a password), the address players reach the server at (the mails'
    # links), and http:// push endpoints on this machine (tests' own push service only)
    smtp: str | None = field(default_factory=lambda: os.environ.get("TLATELOLCO_SMTP")
                             or None, repr=False)
    public_url: str | None = field(default_factory=lambda: os.environ.get(
        "TLATELOLCO_PUBLIC_URL") or None)
    push_allow_http: bool = False
    remind_settle: float = SETTLE  # seconds after the start before the turns that began while
    #                              no server ran are reminded (pages reconnect first; tests: less)


def bot_pool(settings: Settings) -> WorkerPool:
    """This machine's worker processes, or with `remote_workers` the `tlatelolco worker`s
    reached through Redis (which then also run the reviews)."""
    if not settings.remote_workers:
        return BotPool(settings.bot_workers)
    if not settings.redis:
        raise ValueError("remote workers take their jobs from Redis: set redis too")
    return RemotePool(settings.redis)


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        redact_server_logs()  # after uvicorn has configured its loggers
        with one_server_per_file(settings.db, shared=settings.redis is not None):
            engine = make_engine(settings.db)
            upgrade(engine)
            bots = bot_pool(settings)
            service = Service(Store(engine), quota=settings.quota,
                              idle_bot_time=settings.idle_bot_time,
                              expire_after=settings.expire_after,
                              min_move_time=settings.min_move_time)
            hub = Hub(service, make_pubsub(settings.redis),
                      bots, bot_delay=settings.bot_delay,
                      bot_delays=settings.bot_delays,
                      bot_time=settings.bot_time, inline=engine.dialect.name == "sqlite",
                      limits=RateLimiter(settings.rate_limits),
                      expire_after=settings.expire_after,
                      expire_bot_games=settings.expire_bot_games,
                      clock_check=settings.clock_check)
            app.state.hub = hub
            app.state.reviews = Reviews(hub, workers=settings.review_workers,
                                        queue=settings.review_queue,
                                        per_client=settings.review_per_client,
                                        iterations=settings.review_iterations,
                                        pool=bots if settings.remote_workers else None)
            await hub.start()
            app.state.ratings = ratings.install(hub)
            app.state.reminders = await start_reminders(
                hub, smtp=settings.smtp, public_url=settings.public_url,
                push_allow_http=settings.push_allow_http, settle=settings.remind_settle)
            app.state.verifier = await start_verifier(hub, app.state.reminders.mailer,
                                                      app.state.reminders.public_url)
            try:
                yield
            finally:
                await app.state.verifier.close()  # before its mailer closes
                await app.state.reminders.close()
                await app.state.reviews.close()
                await app.state.ratings.close()
                await hub.close()
                engine.dispose()

    app = FastAPI(title="Tlatelolco", version="0.1.0", lifespan=lifespan,
                  docs_url=None, redoc_url=None,  # their pages load scripts from a CDN
                  description="Play Aztec Market, Axio, Grand Bazaar and Mexica: a lobby, "
                  "seats with invite links, moves checked by the server, live views over "
                  "WebSocket (`/ws/games/{id}`, the credential in the first message), "
                  "replays and records.")
    app.state.settings = settings
    app.state.socket_caps = SocketCaps(settings.max_sockets, settings.sockets_per_client)
    app.include_router(api.router)
    app.include_router(accounts_api.router)
    app.include_router(notify_api.router)
    app.include_router(sockets.router)
    app.include_router(rules.router)
    app.include_router(social_api.router)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.exception_handler(ApiError)
    async def api_error(_: Request, err: ApiError) -> JSONResponse:
        wait = err.extra.get("retry_after")
        return JSONResponse(err.as_dict(), status_code=err.status,
                            headers={"Retry-After": str(wait)} if wait else None)

    @app.exception_handler(RequestValidationError)
    async def bad_request(_: Request, err: RequestValidationError) -> JSONResponse:
        problems = []
        for e in err.errors():
            where = ".".join(str(p) for p in e.get("loc", ()) if p != "body") or "body"
            problems.append(f"{where}: {e.get('msg', 'invalid')}")
        return JSONResponse({"error": "malformed", "status": 422,
                             "message": "the request is malformed: " + "; ".join(problems)},
                            status_code=422)

    @app.exception_handler(HTTPException)
    async def http_error(_: Request, err: HTTPException) -> JSONResponse:
        return JSONResponse({"error": "http", "status": err.status_code,
                             "message": str(err.detail)}, status_code=err.status_code)

    @app.get("/", include_in_schema=False)
    async def lobby() -> FileResponse:
        return FileResponse(STATIC / "lobby.html")

    @app.get("/games/{game_id}", include_in_schema=False)
    async def game_page(game_id: str) -> FileResponse:
        return FileResponse(STATIC / "game.html")

    @app.get("/push-worker.js", include_in_schema=False)
    async def push_worker() -> FileResponse:
        """The Web Push service worker, at the root so that it may serve the whole site."""
        return FileResponse(STATIC / "push-worker.js", media_type="text/javascript",
                            headers={"Service-Worker-Allowed": "/",
                                     "Cache-Control": "no-cache"})

    @app.get("/players/{name}", include_in_schema=False)
    async def profile_page(name: str) -> FileResponse:
        return FileResponse(STATIC / "profile.html")

    @app.get("/leaderboard", include_in_schema=False)
    async def leaderboard_page() -> FileResponse:
        return FileResponse(STATIC / "leaderboard.html")

    @app.get("/games/{game_id}/replay", include_in_schema=False)
    async def replay_page(game_id: str) -> FileResponse:
        return FileResponse(STATIC / "game.html")

    @app.get("/i18n/{lang}.json", include_in_schema=False)
    async def catalogue(lang: str) -> JSONResponse:
        """The translations of a language, for the browser (the same PO files as Python)."""
        if lang not in LANGUAGES:
            return JSONResponse({"error": "not_found", "status": 404, "message": "no language "
                                 f"{lang[:20]!r}; the languages are {', '.join(LANGUAGES)}"},
                                status_code=404)
        return JSONResponse(browser_catalogue(lang),
                            headers={"Cache-Control": "public, max-age=300"})

    @app.get("/healthz", include_in_schema=False)
    async def health() -> dict[str, str]:
        return {"status": "ok"}

    app.add_middleware(CrossSiteGuard)  # inside Guard: its 403s get the security headers
    app.add_middleware(Guard, max_body=settings.max_body)
    return app
