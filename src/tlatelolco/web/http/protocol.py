"""Uvicorn's HTTP protocol with a deadline for request headers.

Uvicorn closes idle keep-alive connections but waits forever for the headers of a request
that has begun (or a connection that never sends a byte): a few hundred "slow loris" sockets
would then hold the server's connections for good. Here every request, from the connection's
first byte (or the end of the previous response), must complete its headers within
`header_timeout` seconds and `max_header_bytes` bytes, else the connection is answered 408 or
431 and closed.
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol


def _refusal(status: int, reason: str, message: str) -> bytes:
    body = ('{"error": "%s", "message": "%s", "status": %d}' % (  # noqa: UP031
        reason, message, status)).encode()
    return (f"HTTP/1.1 {status} {reason.replace('_', ' ').title()}\r\n"
            "content-type: application/json\r\nconnection: close\r\n"
            f"content-length: {len(body)}\r\n\r\n").encode() + body


def guarded_protocol(header_timeout: float, max_header_bytes: int = 32_768) -> type:
    """An `HttpToolsProtocol` class with the header deadline (pass it as uvicorn's `http`)."""

    class GuardedProtocol(HttpToolsProtocol):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self._deadline: asyncio.TimerHandle | None = None
            self._header_bytes = 0
            self._in_headers = True

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._arm()

        def _arm(self) -> None:
            self._disarm()
            self._in_headers, self._header_bytes = True, 0
            self._deadline = self.loop.call_later(header_timeout, self._too_slow)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _too_slow(self) -> None:
            self._deadline = None
            if self._in_headers and not self.transport.is_closing():
                self.transport.write(_refusal(408, "request_timeout", "the request headers "
                                              f"did not arrive within {header_timeout:g} s"))
                self.transport.close()

        def data_received(self, data: bytes) -> None:
            counting = self._in_headers
            super().data_received(data)
            if not counting or not self._in_headers or self.transport.is_closing():
                return
            self._header_bytes += len(data)
            if self._header_bytes > max_header_bytes:  # and still no end of the headers
                self._disarm()
                self.transport.write(_refusal(431, "headers_too_large", "the request "
                                              f"headers are over {max_header_bytes} bytes"))
                self.transport.close()

        def on_message_begin(self) -> None:
            super().on_message_begin()
            if not self._in_headers:  # a further request on a kept-alive connection
                self._arm()

        def on_headers_complete(self) -> None:
            self._in_headers = False
            self._disarm()
            super().on_headers_complete()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

    return GuardedProtocol
