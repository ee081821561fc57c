"""Logged-in browsers: sessions in the database, and the cookie that names one.

The cookie holds a random id (`identity.new_session_id`); the table holds only its sha256,
so a copy of the database logs nobody in. The cookie is HttpOnly (no script reads it),
SameSite=Lax (other sites' forms and fetches do not carry it on writes), Path=/, and
Secure when the request came over https (uvicorn believes a proxy's X-Forwarded-Proto only
from `serve --forwarded-allow-ips`). Logging out deletes the session itself, so a copied
cookie stops working too.

Synchronous storage functions (the server runs them in its threads) and the cookie helpers.
"""

from __future__ import annotations

import datetime as dt

from fastapi import Request, Response
from sqlalchemy import Engine, delete, insert, select

from tlatelolco.web.accounts.identity import (
    SESSION_COOKIE,
    SESSION_DAYS,
    new_session_id,
    session_hash,
)
from tlatelolco.web.storage.db import sessions

SESSIONS_KEPT = 20  # sessions of one account (devices logged in); older ones are logged out


def create(engine: Engine, user_id: int, client: str | None = None,
           days: float = SESSION_DAYS) -> str:
    """A new session of the account, lasting `days`; its id, for the cookie (the only copy).
    The account's expired sessions go, and its oldest beyond `SESSIONS_KEPT`."""
    session_id = new_session_id()
    stamp = dt.datetime.now(dt.UTC)
    with engine.begin() as db:
        db.execute(delete(sessions).where(sessions.c.user_id == user_id,
                                          sessions.c.expires_at <= stamp))
        db.execute(insert(sessions).values(
            id_hash=session_hash(session_id), user_id=user_id, created_at=stamp,
            expires_at=stamp + dt.timedelta(days=days), client=client[:64] if client else None))
        kept = select(sessions.c.id_hash).where(sessions.c.user_id == user_id).order_by(
            sessions.c.created_at.desc()).limit(SESSIONS_KEPT).scalar_subquery()
        db.execute(delete(sessions).where(sessions.c.user_id == user_id,
                                          sessions.c.id_hash.not_in(kept)))
    return session_id


def end(engine: Engine, session_id: str) -> None:
    """Log a session out (delete it): its cookie no longer works anywhere."""
    with engine.begin() as db:
        db.execute(delete(sessions).where(sessions.c.id_hash == session_hash(session_id)))


def end_all(engine: Engine, user_id: int, keep: str | None = None) -> int:
    """Log out every session of an account but `keep` (a session id); how many went."""
    query = delete(sessions).where(sessions.c.user_id == user_id)
    if keep is not None:
        query = query.where(sessions.c.id_hash != session_hash(keep))
    with engine.begin() as db:
        return int(db.execute(query).rowcount or 0)


def set_cookie(response: Response, request: Request, session_id: str) -> None:
    response.set_cookie(SESSION_COOKIE, session_id, max_age=int(SESSION_DAYS * 86_400),
                        path="/", httponly=True, samesite="lax",
                        secure=request.url.scheme == "https")


def clear_cookie(response: Response, request: Request) -> None:
    response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="lax",
                           secure=request.url.scheme == "https")
