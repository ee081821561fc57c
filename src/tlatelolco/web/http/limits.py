"""What keeps one client from freezing or flooding the server: request body size, per-client
rates of the costly requests, caps on open WebSockets, and the headers every page is sent with.

Rates and caps are counted per client address in each server process. That address is the
peer's unless the operator names a reverse proxy (`serve --forwarded-allow-ips`): only then is
the proxy's `X-Forwarded-For` believed, else anybody could send a new address every request.
"""

from __future__ import annotations

import json
import logging
import math
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, fields
from typing import Any, TypeVar

from starlette.requests import HTTPConnection

from tlatelolco.web.http.errors import ApiError

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

CSP = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
       "img-src 'self' data:; connect-src 'self'; font-src 'self'; object-src 'none'; "
       "base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
SECURITY_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
]


SECRET_IN_URL = re.compile(r"((?:token|invite)=)[^&#\s\"']+", re.IGNORECASE)


class RedactSecrets(logging.Filter):
    """Mask `token=` and `invite=` values in log lines: this server never puts credentials in
    URLs, but a client may, and the access log would keep them."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple) and any(isinstance(a, str) for a in record.args):
            record.args = tuple(SECRET_IN_URL.sub(r"\1…", a) if isinstance(a, str) else a
                                for a in record.args)
        if isinstance(record.msg, str) and "=" in record.msg:
            record.msg = SECRET_IN_URL.sub(r"\1…", record.msg)
        return True


def redact_server_logs() -> None:
    """Put `RedactSecrets` on uvicorn's loggers (once)."""
    for name in ("uvicorn.access", "uvicorn.error"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactSecrets) for f in logger.filters):
            logger.addFilter(RedactSecrets())


def client_address(connection: HTTPConnection) -> str | None:
    """The address a request or socket is counted under: the peer's, or the one a trusted
    proxy forwarded (uvicorn has put it in the scope by then); None when unknown."""
    return connection.client.host if connection.client else None


@dataclass(slots=True)
class RateLimits:
    """Requests each client address may make per minute (0: no limit); the kinds of
    `PER_HOUR` are counted per hour, `name_logins` per account name, from any address
    (guessing one account's password from many addresses), and `verify_mails` per account and
    per address mailed (no one made to receive more, whoever asks)."""

    creates: int = 10  # new games (and rematches)
    joins: int = 30  # joins, claims and new invites
    hints: int = 20  # hints: each is a second of a bot worker's time
    sockets: int = 120  # WebSocket connections opened
    logins: int = 10  # login attempts and password changes
    name_logins: int = 20  # login attempts at one account name, per hour
    signups: int = 5  # new accounts, per hour
    verify_mails: int = 3  # mails of links verifying an address, per hour, per account and
    #                        per address (not per client)

    @classmethod
    def parse(cls, text: str) -> RateLimits:
        """`creates=10,joins=30` (the rest keep their defaults); ValueError saying why not."""
        return parse_counts(cls(), text, "rate limit", "requests per minute")


PER_HOUR = {"name_logins", "signups", "verify_mails"}  # RateLimits' kinds counted per hour
LIMITED = {"name_logins": ("logins to that account", ""),  # what is counted, and whose
           "signups": ("sign-ups", " from your address"),
           "verify_mails": ("mails verifying an address", " for this account or address")}

Counts = TypeVar("Counts")


def parse_counts(counts: Counts, text: str, what: str, unit: str) -> Counts:
    """`counts` (a dataclass of whole numbers) with the `KIND=N,...` of `text` set on it, as
    `serve --limits` and `--quota` take them; ValueError naming `what` was wrong, the `unit`
    of N and the kinds there are."""
    known = [f.name for f in fields(counts)]  # type: ignore[arg-type]
    for item in filter(None, (p.strip() for p in text.split(","))):
        key, eq, value = item.partition("=")
        if not eq or key.strip() not in known or not value.strip().isdigit():
            raise ValueError(f"{what} {item[:40]!r} is not KIND=N with N a whole number of "
                             f"{unit} and KIND one of {', '.join(known)}")
        setattr(counts, key.strip(), int(value))
    return counts


class RateLimiter:
    """A token bucket per (kind, client): `per_minute` requests, refilled evenly."""

    def __init__(self, limits: RateLimits, clients: int = 10_000) -> None:
        self.limits = limits
        self.clients = clients
        self._buckets: OrderedDict[tuple[str, str], tuple[float, float]] = OrderedDict()
        self._lock = threading.Lock()

    def check(self, kind: str, client: str | None) -> None:
        """Count one request of `kind` from `client`; ApiError 429 when over the limit."""
        per_minute = getattr(self.limits, kind)
        if per_minute <= 0:
            return
        period = 3600.0 if kind in PER_HOUR else 60.0
        key, now = (kind, client or "?"), time.monotonic()
        with self._lock:
            tokens, stamp = self._buckets.pop(key, (float(per_minute), now))
            tokens = min(float(per_minute), tokens + (now - stamp) * per_minute / period)
            if tokens < 1.0:
                self._buckets[key] = (tokens, now)
                wait = math.ceil((1.0 - tokens) * period / per_minute)
                what, whose = LIMITED.get(kind, (kind, " from your address"))
                raise ApiError(429, "rate_limited", f"too many {what}{whose}: at most "
                               f"{per_minute} {'an hour' if kind in PER_HOUR else 'a minute'}; "
                               f"try again in {wait} s", retry_after=wait)
            self._buckets[key] = (tokens - 1.0, now)
            while len(self._buckets) > self.clients:  # forget the longest-quiet clients
                self._buckets.popitem(last=False)


class SocketCaps:
    """Open WebSockets in all (`total`) and per client address (`per_client`, 0: no cap).

    A socket holds a connection for as long as it is open, so without a cap sockets alone can
    take every connection the server has and leave none for pages and the API; and one
    address must not take more than its share of them. Counted in one event loop (no lock).
    """

    def __init__(self, total: int, per_client: int) -> None:
        self.total = total
        self.per_client = per_client
        self.open = 0
        self._by_client: dict[str, int] = {}

    def take(self, client: str | None) -> None:
        """Count one more open socket of `client`; ApiError 503 naming the cap that is full."""
        key = client or "?"
        if self.open >= self.total:
            raise ApiError(503, "too_many_sockets", f"the server has {self.total} live "
                           "connections open, the most it holds at once; try again later")
        if self.per_client and self._by_client.get(key, 0) >= self.per_client:
            raise ApiError(503, "too_many_sockets", f"your address has {self.per_client} live "
                           "connections open, the most one address may hold; close one (another "
                           "tab?) or try again later")
        self.open += 1
        self._by_client[key] = self._by_client.get(key, 0) + 1

    def release(self, client: str | None) -> None:
        """One socket of `client` has closed (call once per successful `take`)."""
        key = client or "?"
        self.open -= 1
        left = self._by_client.get(key, 0) - 1
        if left > 0:
            self._by_client[key] = left
        else:
            self._by_client.pop(key, None)


def _error_response(status: int, code: str, message: str) -> tuple[Message, Message]:
    body = json.dumps({"error": code, "message": message, "status": status}).encode()
    return ({"type": "http.response.start", "status": status,
             "headers": [(b"content-type", b"application/json"),
                         (b"content-length", str(len(body)).encode()),
                         (b"connection", b"close")]},
            {"type": "http.response.body", "body": body})


class Guard:
    """ASGI middleware: a request body larger than `max_body` bytes is refused with 413
    before the application sees any of it, and every HTTP response gets the security
    headers (a Content-Security-Policy without inline script, no framing, no sniffing)."""

    def __init__(self, app: ASGIApp, max_body: int) -> None:
        self.app = app
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS]
            await send(message)

        declared = dict(scope.get("headers", [])).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.max_body):
            await self._refuse(send_with_headers)
            return
        body, more = bytearray(), scope["method"] not in ("GET", "HEAD", "OPTIONS")
        while more:  # bodies are small JSON: read it whole, within the limit
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            if len(body) > self.max_body:
                await self._refuse(send_with_headers)
                return
            more = message.get("more_body", False)
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": bytes(body), "more_body": False}
            return await receive()

        await self.app(scope, replay, send_with_headers)

    async def _refuse(self, send: Send) -> None:
        for message in _error_response(413, "too_large", "the request body is larger than "
                                       f"{self.max_body} bytes; requests are small JSON"):
            await send(message)
