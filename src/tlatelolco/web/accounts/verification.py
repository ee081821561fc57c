"""Verifying e-mail addresses: a link mailed to the address, which its owner opens.

Without it anybody could give somebody else's address and turn reminders on, and the server
would mail people who never asked. So reminders and invite notices go by mail only to a
verified address, and a new address is unverified until the link mailed to it is opened.

The link is `{public_url}/api/account/verify?token=TOKEN`. The token is stateless: base64url of
the account's id, its expiry (48 hours after it was made) and an HMAC-SHA256 of both and the
address, under a secret made at the first start and kept in `server_keys`
(`notify.keys.verify_secret`). The address is signed, not carried (the link says nothing of it),
so a token verifies the address it was made for and only while that is still the account's
address; changing any of its bytes breaks the signature. Mails of links are limited per
account and per address (`RateLimits.verify_mails`, an hour): no account, nor many of them,
can make the server mail one address more than that.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import re
import time
from collections.abc import Coroutine
from dataclasses import dataclass
from typing import Any, Literal

from sqlalchemy import Engine

from tlatelolco.web.accounts import users
from tlatelolco.web.accounts.users import User
from tlatelolco.web.http.errors import ApiError
from tlatelolco.web.notify.keys import b64decode, b64url, verify_secret
from tlatelolco.web.notify.mail import Mailer
from tlatelolco.web.notify.messages import verification_mail
from tlatelolco.web.realtime.hub import Hub

LIFE = 48 * 3600  # seconds a link is good for
ID_BYTES, EXPIRY_BYTES = 8, 8  # then the 32 bytes of the HMAC
TOKEN = re.compile(r"[A-Za-z0-9_-]{64}")  # the 48 bytes in base64url
PATH = "/api/account/verify"

Verification = Literal["sent", "no_mail_server", "rate_limited"]


def signature(secret: bytes, user_id: int, address: str, expires: int) -> bytes:
    message = f"tlatelolco email verification\n{user_id}\n{expires}\n{address}"
    return hmac.new(secret, message.encode(), hashlib.sha256).digest()


def make_token(secret: bytes, user_id: int, address: str, now: float | None = None) -> str:
    """The token of a link verifying `address` for the account, good for `LIFE` seconds."""
    expires = int(time.time() if now is None else now) + LIFE
    return b64url(user_id.to_bytes(ID_BYTES, "big") + expires.to_bytes(EXPIRY_BYTES, "big")
                  + signature(secret, user_id, address, expires))


@dataclass(frozen=True, slots=True)
class Token:
    user_id: int
    expires: int  # seconds since 1970
    mac: bytes


def read_token(token: str) -> Token | None:
    """The parts of a token as `make_token` writes it; None for anything else."""
    if not TOKEN.fullmatch(token):
        return None
    raw = b64decode(token)
    return Token(int.from_bytes(raw[:ID_BYTES], "big"),
                 int.from_bytes(raw[ID_BYTES:ID_BYTES + EXPIRY_BYTES], "big"),
                 raw[ID_BYTES + EXPIRY_BYTES:])


def check(engine: Engine, secret: bytes, token: str, now: float | None = None
          ) -> tuple[int, str] | None:
    """The account and the address `token` verifies, if it was made for the account's
    address now, is unexpired and is unchanged; else None. Only reads."""
    found = read_token(token)
    if found is None or found.expires <= (time.time() if now is None else now):
        return None
    user = users.get(engine, found.user_id)
    if user is None or user.email is None or user.disabled:
        return None
    if not hmac.compare_digest(found.mac, signature(secret, user.id, user.email,
                                                    found.expires)):
        return None  # tampered with, or made for another address
    return user.id, user.email


def no_mail_server() -> ApiError:
    return ApiError(409, "no_mail_server", "this server sends no mail (it runs without "
                    "--smtp), so it cannot verify e-mail addresses; the address is kept")


class Verifier:
    """Mails the links; `mailer` None when the server has no mail server."""

    def __init__(self, hub: Hub, mailer: Mailer | None, public_url: str | None,
                 secret: bytes) -> None:
        self.hub = hub
        self.mailer = mailer
        self.public_url = public_url or ""
        self.secret = secret
        self._tasks: set[asyncio.Task[None]] = set()

    def link(self, user_id: int, address: str) -> str:
        return f"{self.public_url}{PATH}?token={make_token(self.secret, user_id, address)}"

    def check(self, user: User) -> None:
        """Count one more mail to the account's address: ApiError 409 without a mail server,
        429 over the mails an account, or an address, may be sent an hour."""
        if self.mailer is None:
            raise no_mail_server()
        assert user.email
        self.hub.limits.check("verify_mails", f"account {user.id}")
        self.hub.limits.check("verify_mails", f"address {user.email.casefold()}")

    async def send(self, user: User) -> None:
        """Mail the link now; the errors of `check`, and 502 when the mail server did not
        take the mail."""
        self.check(user)
        if not await self._mail(user):
            raise ApiError(502, "mail_failed", "the mail server did not take the mail; try "
                           "again later")

    def offer(self, user: User) -> Verification:
        """Mail the link in the background (a slow mail server never slows a sign-up); what
        became of it."""
        try:
            self.check(user)
        except ApiError as err:
            return "no_mail_server" if err.code == "no_mail_server" else "rate_limited"
        self._spawn(self._mail(user))
        return "sent"

    async def _mail(self, user: User) -> bool:
        assert self.mailer is not None and user.email
        subject, body = verification_mail(self.link(user.id, user.email), user.lang,
                                          LIFE // 3600)
        return await self.mailer.send(user.email, subject, body, what="verification mail")

    def _spawn(self, work: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def close(self) -> None:
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


async def start_verifier(hub: Hub, mailer: Mailer | None, public_url: str | None) -> Verifier:
    """The verifier of this server: its secret read (made at the first start)."""
    secret = await hub.write(verify_secret, hub.service.store.engine)
    return Verifier(hub, mailer, public_url, secret)
