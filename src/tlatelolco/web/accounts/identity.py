"""Who a request is: an account logged in with the session cookie, or nobody (a guest).

A seat is held either by a personal credential (`Authorization: Bearer TOKEN`, the guest's
way, kept in one browser) or by the account it was taken with, on every device the person
logs in from. The credential, when sent, wins: a program holding one never depends on a
cookie. Cookie-authenticated writes are checked for their origin (`accounts.csrf`).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import secrets
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine, select

from tlatelolco.web.storage.db import sessions, users

SESSION_COOKIE = "tlatelolco_session"
SESSION_DAYS = 30  # a session lasts this long from its login
COOKIE_MAX = 64  # characters of a session id (they have 43)


@dataclass(frozen=True, slots=True)
class Account:
    """A logged-in person: what seats and views need to know of them."""

    id: int
    name: str


Credential = str | Account  # a seat's personal credential, or the account holding seats


def session_hash(session_id: str) -> str:
    return hashlib.sha256(session_id.encode()).hexdigest()


def new_session_id() -> str:
    return secrets.token_urlsafe(32)


def session_account(engine: Engine, session_id: str | None) -> Account | None:
    """The account of a session cookie's value, if the session is current and the account
    not disabled; else None."""
    if not session_id or len(session_id) > COOKIE_MAX:
        return None
    query = (select(users.c.id, users.c.name, users.c.disabled, sessions.c.expires_at)
             .join(users, users.c.id == sessions.c.user_id)
             .where(sessions.c.id_hash == session_hash(session_id)))
    with engine.connect() as db:
        found = db.execute(query).first()
    if found is None or found.disabled:
        return None
    expires = found.expires_at
    if expires.tzinfo is None:  # SQLite hands back the stored UTC time without its offset
        expires = expires.replace(tzinfo=dt.UTC)
    if expires <= dt.datetime.now(dt.UTC):
        return None
    return Account(int(found.id), str(found.name))


def account_of(connection: Any) -> Account | None:
    """The account of a request or WebSocket (by its session cookie), or None."""
    engine = connection.app.state.hub.service.store.engine
    return session_account(engine, connection.cookies.get(SESSION_COOKIE))
