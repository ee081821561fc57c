"""Uvicorn's HTTP protocol with a deadline for whole requests and a share per client address.

Uvicorn closes idle keep-alive connections but waits forever for a request that has begun (or a
connection that never sends a byte): a few hundred "slow loris" sockets, dribbling headers or a
body a byte at a time, would then hold the server's connections for good. Here every request
must arrive whole, headers and body, within `request_timeout` seconds of the connection opening
(on a kept-alive connection, of the next request's first byte), its headers within
`max_header_bytes` bytes, else the connection is answered 408 or 431 and closed. And one peer
address may hold at most `per_peer` connections at once (429 beyond), so that one client cannot
take every connection the server has; a trusted reverse proxy carries many clients and is not
capped. A connection that becomes a WebSocket leaves this count: sockets have caps of their own
(`limits.SocketCaps`).
"""

from __future__ import annotations

import asyncio
import http
import ipaddress
import json
from collections import Counter
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


class TrustedProxies:
    """The reverse proxies whose `X-Forwarded-For` the server believes: none by default.

    `TrustedProxies("10.0.0.5, 192.168.1.0/24")`; `*` trusts every peer (only for a server
    that nobody but the proxy can reach). ValueError saying which entry is not an address.
    """

    def __init__(self, text: str = "") -> None:
        self.names = [p.strip() for p in text.split(",") if p.strip()]
        self.everyone = "*" in self.names
        self.networks: list[Network] = []
        for name in self.names:
            if name == "*":
                continue
            try:
                self.networks.append(ipaddress.ip_network(name, strict=False))
            except ValueError:
                raise ValueError(f"--forwarded-allow-ips: {name[:60]!r} is not an IP address "
                                 "or network; give a comma list such as '127.0.0.1,10.0.0.0/8' "
                                 "or '*' for every peer") from None

    def __bool__(self) -> bool:
        return bool(self.names)

    def __contains__(self, host: object) -> bool:
        if self.everyone:
            return True
        try:
            address = ipaddress.ip_address(str(host))
        except ValueError:
            return False
        return any(address in network for network in self.networks)


def _refusal(status: int, code: str, message: str, retry_after: int | None = None) -> bytes:
    """A whole HTTP response with the JSON error body the API uses, closing the connection."""
    body = json.dumps({"error": code, "message": message, "status": status}).encode()
    wait = f"retry-after: {retry_after}\r\n" if retry_after else ""
    return (f"HTTP/1.1 {status} {http.HTTPStatus(status).phrase}\r\n"
            f"content-type: application/json\r\nconnection: close\r\n{wait}"
            f"content-length: {len(body)}\r\n\r\n").encode() + body


class HeadersTooLarge(Exception):
    """Raised from a parser callback: the parser stops before it starts the request."""


def guarded_protocol(request_timeout: float, max_header_bytes: int = 32_768,
                     per_peer: int = 32, proxies: TrustedProxies | None = None) -> type:
    """An `HttpToolsProtocol` class with the request deadline, the header cap and the cap of
    connections per peer address (0: none); pass it as uvicorn's `http`."""
    trusted = proxies or TrustedProxies()
    open_by_peer: Counter[str] = Counter()  # this server's connections per peer address

    class GuardedProtocol(HttpToolsProtocol):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self._deadline: asyncio.TimerHandle | None = None
            self._pending = False  # a request has begun and not yet arrived whole
            self._in_headers = False
            self._raw_header_bytes = 0  # bytes read while the headers are unfinished
            self._parsed_header_bytes = 0  # the URL and headers the parser handed over
            self._peer: str | None = None  # counted in open_by_peer while set

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            peer = self.client[0] if self.client else None
            if peer is not None and per_peer and peer not in trusted:
                if open_by_peer[peer] >= per_peer:
                    self._refuse(429, "too_many_connections", f"your address has {per_peer} "
                                 "connections open, the most one address may hold at once; "
                                 "close one or try again shortly", retry_after=1)
                    return
                open_by_peer[peer] += 1
                self._peer = peer
            self._arm()

        def _release(self) -> None:
            if self._peer is not None:
                open_by_peer[self._peer] -= 1
                if open_by_peer[self._peer] <= 0:
                    del open_by_peer[self._peer]
                self._peer = None

        def _refuse(self, status: int, code: str, message: str,
                    retry_after: int | None = None) -> None:
            self._disarm()
            self._pending = False
            if not self.transport.is_closing():
                if self.cycle is None or not self.cycle.response_started:
                    self.transport.write(_refusal(status, code, message, retry_after))
                self.transport.close()

        def _arm(self) -> None:
            self._disarm()
            self._pending = self._in_headers = True
            self._raw_header_bytes = 0
            self._deadline = self.loop.call_later(request_timeout, self._too_slow)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _too_slow(self) -> None:
            self._deadline = None
            if self._pending:
                self._refuse(408, "request_timeout", "the request (headers and body) did "
                             f"not arrive within {request_timeout:g} s")

        def _too_large(self) -> None:
            self._refuse(431, "headers_too_large", "the request headers are over "
                         f"{max_header_bytes} bytes")

        def data_received(self, data: bytes) -> None:
            counting = self._in_headers
            super().data_received(data)
            if not counting or not self._in_headers or self.transport.is_closing():
                return
            self._raw_header_bytes += len(data)  # headers still unfinished after this read
            if self._raw_header_bytes > max_header_bytes:
                self._too_large()

        def send_400_response(self, msg: str) -> None:
            if self._parsed_header_bytes > max_header_bytes:  # HeadersTooLarge stopped it
                self._too_large()
            else:
                super().send_400_response(msg)

        def _count(self, size: int) -> None:
            """Header bytes as the parser hands them over: a whole header block that arrives
            in one read completes in the same call, so only these see it."""
            self._parsed_header_bytes += size
            if self._parsed_header_bytes > max_header_bytes:
                raise HeadersTooLarge

        def on_message_begin(self) -> None:
            super().on_message_begin()
            self._parsed_header_bytes = 0
            if not self._pending:  # a further request on a kept-alive connection
                self._arm()

        def on_url(self, url: bytes) -> None:
            self._count(len(url))
            super().on_url(url)

        def on_header(self, name: bytes, value: bytes) -> None:
            self._count(len(name) + len(value) + 4)  # ": " and CRLF
            super().on_header(name, value)

        def on_headers_complete(self) -> None:
            self._in_headers = False
            super().on_headers_complete()

        def on_message_complete(self) -> None:
            self._pending = False
            self._disarm()
            super().on_message_complete()

        def handle_websocket_upgrade(self) -> None:
            self._pending = False  # the socket's own timeouts take over, and its caps
            self._disarm()
            self._release()
            super().handle_websocket_upgrade()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            self._release()
            super().connection_lost(exc)

    return GuardedProtocol
