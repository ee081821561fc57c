"""Cross-site request forgery: another site's page must not write with this site's cookie.

A browser sends the session cookie with whatever request a page makes to this server, from
any site (SameSite=Lax stops most, not all: a sibling subdomain counts as the same site, and
old browsers ignore it). So every write (POST, PUT, PATCH, DELETE) that carries the cookie
must say it comes from this server's own pages: its `Origin` (or, without one, its
`Referer`) is this server's own scheme://host[:port], and it is not marked
`Sec-Fetch-Site: cross-site`. Else 403 `cross_site`. Browsers' fetch sends Origin on every
POST; the pages here send no Referer (Referrer-Policy: no-referrer), so Origin decides.

Programs holding a seat's credential send `Authorization: Bearer TOKEN` and no cookie: this
check does not concern them. The account routes (`/api/account/`) also refuse another
site's Origin without a cookie, so no page can log a visitor into somebody else's account.
WebSockets are checked where they are answered (`realtime.sockets.same_origin`).
"""

from __future__ import annotations

import json
from urllib.parse import urlsplit

from starlette.requests import cookie_parser

from tlatelolco.web.accounts.identity import SESSION_COOKIE
from tlatelolco.web.http.limits import ASGIApp, Receive, Scope, Send

SAFE = frozenset({"GET", "HEAD", "OPTIONS"})
DEFAULT_PORTS = {"http": 80, "https": 443}
ACCOUNT_ROUTES = "/api/account/"
MESSAGE = ("a write carrying this site's login cookie must come from this site's own pages, "
           "and this one's Origin (or Referer) header {why}; programs send 'Authorization: "
           "Bearer TOKEN' without the cookie")


Origin = tuple[str, str, int]  # scheme, host, port


def origin_of(url: str) -> Origin | None:
    """scheme, host and port of a URL (the default port when none is written); None when
    it is not an http(s) URL with a host."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in DEFAULT_PORTS or not parts.hostname:
        return None
    return scheme, parts.hostname.lower(), port or DEFAULT_PORTS[scheme]


def own_origin(scope: Scope, headers: dict[bytes, bytes]) -> Origin | None:
    """This server's origin as the request reached it: its scheme (https when uvicorn was
    told so by a trusted proxy) and the Host it was sent to."""
    scheme = scope.get("scheme", "http")
    host = headers.get(b"host", b"").decode("latin-1")
    if not host and scope.get("server"):
        server_host, port = scope["server"]
        host = f"{server_host}:{port}" if port else server_host
    return origin_of(f"{scheme}://{host}") if host else None


def cross_site(scope: Scope) -> str | None:
    """Why a request may not go on (words for the message), or None when it may."""
    if scope["method"] in SAFE:
        return None
    headers = {k.lower(): v for k, v in scope.get("headers", [])}
    cookie = SESSION_COOKIE in cookie_parser(headers.get(b"cookie", b"").decode("latin-1"))
    sent = headers.get(b"origin") or headers.get(b"referer")
    if not cookie and not (scope["path"].startswith(ACCOUNT_ROUTES) and sent):
        return None
    if headers.get(b"sec-fetch-site", b"").lower() == b"cross-site":
        return "is marked Sec-Fetch-Site: cross-site"
    if not sent:
        return "is missing"
    claimed = origin_of(sent.decode("latin-1"))
    if claimed is None or claimed != own_origin(scope, headers):
        return "names another site"
    return None


class CrossSiteGuard:
    """ASGI middleware refusing cookie-carrying writes from other sites (403 `cross_site`)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        why = cross_site(scope) if scope["type"] == "http" else None
        if why is None:
            await self.app(scope, receive, send)
            return
        body = json.dumps({"error": "cross_site", "status": 403,
                           "message": MESSAGE.format(why=why)}).encode()
        await send({"type": "http.response.start", "status": 403,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})
