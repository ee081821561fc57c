"""Web Push: the browsers' subscriptions of each account, and sending them a reminder.

A subscription is what a browser's PushManager hands its page: an endpoint (a URL of the
browser maker's push service) and the keys the payload is encrypted for (RFC 8291, aes128gcm).
pywebpush encrypts and signs with the server's VAPID key (RFC 8292). As the server POSTs to
whatever endpoint a browser gave, endpoints are https:// URLs of public hosts only (checked
when stored and again, by the addresses the name resolves to, when sent), and redirects are
not followed; a test server may allow http:// on this machine (`Settings.push_allow_http`).
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import concurrent.futures
import datetime as dt
import json
import logging
import socket
from dataclasses import dataclass, field
from ipaddress import ip_address
from typing import Any
from urllib.parse import urlsplit

import requests
from cryptography.hazmat.primitives.asymmetric import ec
from pywebpush import WebPushException, webpush
from sqlalchemy import Engine, delete, func, insert, select

from tlatelolco.web.notify.keys import VapidKeys
from tlatelolco.web.notify.mail import loopback
from tlatelolco.web.storage.db import push_subscriptions

log = logging.getLogger("tlatelolco.web")

ENDPOINT_MAX = 1000  # characters of an endpoint (push services use about 200 to 500)
KEY_MAX = 200  # characters of a p256dh key (87 for the 65 bytes of a P-256 point)
AUTH_MAX = 100  # characters of an auth secret (22 for its 16 bytes)
PER_ACCOUNT = 10  # subscriptions an account keeps: its newest, one per browser
TIMEOUT = 10.0  # seconds a push service may take to answer
PUSHERS = 4  # pushes sent at once (threads)
GONE = (404, 410)  # the push service forgot the subscription: delete it


@dataclass(frozen=True, slots=True)
class Subscription:
    endpoint: str
    p256dh: str = field(repr=False)
    auth: str = field(repr=False)

    def info(self) -> dict[str, Any]:
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}


def _decode(text: str) -> bytes:
    if not text.isascii() or not all(c.isalnum() or c in "-_=" for c in text):
        raise ValueError("not base64url")
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def public_ip(address: str) -> bool:
    try:
        return ip_address(address.split("%", 1)[0]).is_global
    except ValueError:
        return False


def check_endpoint(endpoint: str, allow_http: bool = False) -> str:
    """The endpoint if the server may POST to it; else ValueError saying what is allowed."""
    if (len(endpoint) > ENDPOINT_MAX or not endpoint.isascii() or not endpoint.isprintable()
            or " " in endpoint):
        raise ValueError(f"an endpoint is a URL of at most {ENDPOINT_MAX} printable ASCII "
                         "characters without spaces")
    try:
        parts = urlsplit(endpoint)
        parts.port  # noqa: B018 - a port that is not a number raises here
    except ValueError:
        raise ValueError("the endpoint is not a URL") from None
    host = (parts.hostname or "").lower()
    if parts.username is not None or parts.password is not None or parts.fragment:
        raise ValueError("an endpoint holds no user, password or #fragment")
    if allow_http and parts.scheme in ("http", "https") and loopback(host):
        return endpoint
    if parts.scheme != "https" or not host:
        raise ValueError("an endpoint is an https:// URL of a push service")
    try:
        literal = ip_address(host)
    except ValueError:
        literal = None
    if (literal is not None and not literal.is_global) or host == "localhost" \
            or host.endswith((".localhost", ".local", ".internal")) or "." not in host:
        raise ValueError("an endpoint is on a public host of a push service, not on this "
                         "machine or a private network")
    return endpoint


def check_keys(p256dh: str, auth: str) -> None:
    """ValueError unless `p256dh` is a P-256 public point and `auth` a 16-byte secret, both
    base64url, as PushSubscription.getKey() gives them."""
    try:
        point = _decode(p256dh)
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
        if len(point) != 65:
            raise ValueError("compressed")
    except (ValueError, binascii.Error):
        raise ValueError("keys.p256dh must be the subscription's P-256 public key: 65 bytes "
                         "(an uncompressed point), base64url") from None
    try:
        secret = _decode(auth)
    except (ValueError, binascii.Error):
        secret = b""
    if len(secret) != 16:
        raise ValueError("keys.auth must be the subscription's 16-byte secret, base64url")


# --- the subscriptions of accounts ---------------------------------------------------------

def subscribe(engine: Engine, user_id: int, sub: Subscription) -> int:
    """Store `sub` for the account (a browser subscribing again replaces its old keys; an
    endpoint another account had moves to this one: the browser is now this person's). Only
    the account's newest `PER_ACCOUNT` are kept. Its number of subscriptions."""
    now = dt.datetime.now(dt.UTC)
    with engine.begin() as db:
        db.execute(delete(push_subscriptions)
                   .where(push_subscriptions.c.endpoint == sub.endpoint))
        db.execute(insert(push_subscriptions).values(
            user_id=user_id, endpoint=sub.endpoint, p256dh=sub.p256dh, auth=sub.auth,
            created_at=now))
        newest = (select(push_subscriptions.c.id)
                  .where(push_subscriptions.c.user_id == user_id)
                  .order_by(push_subscriptions.c.id.desc()).limit(PER_ACCOUNT))
        db.execute(delete(push_subscriptions).where(
            push_subscriptions.c.user_id == user_id,
            push_subscriptions.c.id.not_in(newest.scalar_subquery())))
        return int(db.execute(select(func.count()).where(
            push_subscriptions.c.user_id == user_id)).scalar_one())


def unsubscribe(engine: Engine, user_id: int, endpoint: str) -> bool:
    """Forget the account's subscription at `endpoint`; whether it had one."""
    with engine.begin() as db:
        gone = db.execute(delete(push_subscriptions).where(
            push_subscriptions.c.user_id == user_id,
            push_subscriptions.c.endpoint == endpoint))
    return gone.rowcount > 0


def subscriptions(engine: Engine, user_id: int) -> list[Subscription]:
    query = (select(push_subscriptions.c.endpoint, push_subscriptions.c.p256dh,
                    push_subscriptions.c.auth)
             .where(push_subscriptions.c.user_id == user_id)
             .order_by(push_subscriptions.c.id))
    with engine.connect() as db:
        return [Subscription(*row) for row in db.execute(query)]


def forget(engine: Engine, endpoint: str) -> None:
    """Delete a subscription its push service no longer knows."""
    with engine.begin() as db:
        db.execute(delete(push_subscriptions)
                   .where(push_subscriptions.c.endpoint == endpoint))


# --- sending -------------------------------------------------------------------------------

def vapid_subject(sender: str | None, public_url: str | None) -> str:
    """The `sub` claim: whom a push service may contact about our pushes. The mails' sender
    when mail is set up, else the public URL when it is https, else a mailto: of its host."""
    if sender:
        return f"mailto:{sender}"
    if public_url and public_url.startswith("https://"):
        return public_url
    host = (urlsplit(public_url).hostname if public_url else None) or "localhost"
    return f"mailto:tlatelolco@{host}"


class Pusher:
    """Pushes sent from threads of its own, so that the event loop never waits on a push
    service."""

    def __init__(self, keys: VapidKeys, subject: str, allow_http: bool = False) -> None:
        self.keys = keys
        self.subject = subject
        self.allow_http = allow_http
        self._signer = keys.signer()
        self._threads = concurrent.futures.ThreadPoolExecutor(PUSHERS,
                                                              thread_name_prefix="push")

    async def send(self, sub: Subscription, payload: dict[str, Any], ttl: int) -> str:
        """`sent`, `gone` (the push service answered 404 or 410: forget the subscription)
        or `failed` (logged)."""
        return await asyncio.get_running_loop().run_in_executor(
            self._threads, self._send, sub, json.dumps(payload), ttl)

    def _send(self, sub: Subscription, data: str, ttl: int) -> str:
        host = urlsplit(sub.endpoint).hostname or ""
        try:
            check_endpoint(sub.endpoint, self.allow_http)
            if not (self.allow_http and loopback(host)):
                found = socket.getaddrinfo(host, None, proto=socket.IPPROTO_TCP)
                if not found or not all(public_ip(str(a[4][0])) for a in found):
                    raise ValueError(f"{host[:100]} resolves to an address that is not public")
        except (ValueError, OSError) as err:
            log.warning("a push was not sent: %s", err)
            return "failed"
        session = requests.Session()
        session.max_redirects = 0  # a redirect could point the POST at a private address
        try:
            webpush(sub.info(), data, vapid_private_key=self._signer,
                    vapid_claims={"sub": self.subject}, ttl=ttl, timeout=TIMEOUT,
                    requests_session=session)
        except WebPushException as err:
            status = getattr(err.response, "status_code", None)
            if status in GONE:
                return "gone"
            log.warning("a push to %s failed: %s", host[:100], status or err.message[:200])
            return "failed"
        except requests.RequestException as err:
            log.warning("a push to %s failed: %s", host[:100], type(err).__name__)
            return "failed"
        finally:
            session.close()
        return "sent"

    def close(self) -> None:
        self._threads.shutdown(wait=False, cancel_futures=True)
