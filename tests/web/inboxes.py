"""The far ends of reminders, for tests: a mail server's inbox (aiosmtpd keeps each mail) and a
push service with the browser's side of a subscription (the keys, to decrypt what arrives).

Both are real: mail goes over SMTP, a push over HTTP with RFC 8291 encryption and an RFC 8292
VAPID signature, which `check_vapid` verifies against the server's published key. An address
gets reminders once verified: `verify` follows the link of the mail that verifies it, as its
owner would.
"""

from __future__ import annotations

import base64
import email
import email.message
import email.policy
import json
import os
import re
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit

import http_ece
import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from tests.web.apps import wait_for
from tests.web.services import free_port

SECRET = "s3cr3t-Pa55word"  # the password the inbox's login accepts (for user "ana")
VERIFY_LINK = re.compile(r"\S+/api/account/verify\?token=[A-Za-z0-9_-]+")


class Inbox:
    """An aiosmtpd handler keeping every mail it is given (and who logged in to send it)."""

    def __init__(self) -> None:
        self.mails: list[tuple[list[str], email.message.EmailMessage]] = []
        self.logins: list[tuple[str, str]] = []
        self.lock = threading.Lock()

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        parsed = email.message_from_bytes(envelope.content, policy=email.policy.default)
        with self.lock:
            self.mails.append((list(envelope.rcpt_tos), parsed))
        return "250 OK"

    def to(self, address: str) -> list[email.message.EmailMessage]:
        with self.lock:
            return [m for rcpt, m in self.mails if address in rcpt]

    def reminders(self, address: str | None = None) -> list[email.message.EmailMessage]:
        """The mails (to `address`, or to anybody) but those verifying an address."""
        with self.lock:
            return [m for rcpt, m in self.mails if not link_in(m)
                    and (address is None or address in rcpt)]

    def verification_link(self, address: str) -> str:
        """The link in the latest mail verifying `address` (waited for)."""
        found = wait_for(lambda: [link for m in self.to(address) if (link := link_in(m))],
                         what=f"the mail verifying {address}")
        return found[-1]

    def authenticate(self, server: Any, session: Any, envelope: Any, mechanism: str,
                     data: Any) -> AuthResult:
        login, password = data.login.decode(), data.password.decode()
        self.logins.append((login, password))
        return AuthResult(success=(login, password) == ("ana", SECRET), handled=False)


def link_in(mail: email.message.EmailMessage) -> str | None:
    """The link verifying an address in `mail`, if it is such a mail."""
    found = VERIFY_LINK.search(mail.get_content())
    return found.group(0) if found else None


def verify(client: Any, inbox: Inbox, address: str) -> None:
    """Follow the link of the latest mail verifying `address` with `client` (a TestClient or
    an httpx client of the server: the link's own host is the public URL's), as the address's
    owner would; the server sends the browser to the lobby, saying it worked."""
    link = urlsplit(inbox.verification_link(address))
    followed = client.get(f"{link.path}?{link.query}", follow_redirects=False)
    assert followed.status_code == 303, followed.text
    assert followed.headers["location"].endswith("/?verified=1"), followed.headers


@contextmanager
def mail_server() -> Iterator[Inbox]:
    """A plain SMTP server on this machine: a relay without login, as `smtp://` expects;
    its port in `.port`."""
    box = Inbox()
    controller = Controller(box, hostname="127.0.0.1", port=free_port())
    controller.start()
    box.port = controller.port
    try:
        yield box
    finally:
        controller.stop()


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Browser:
    """A subscription as PushManager.subscribe() makes one: its keys stay in the browser."""

    def __init__(self, endpoint: str) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        self.endpoint = endpoint

    def subscription(self) -> dict[str, Any]:
        point = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        return {"endpoint": self.endpoint, "keys": {"p256dh": b64url(point),
                                                    "auth": b64url(self.auth)}}

    def decrypt(self, body: bytes) -> dict[str, Any]:
        return json.loads(http_ece.decrypt(body, private_key=self.key, auth_secret=self.auth,
                                           version="aes128gcm"))


class PushService:
    """An HTTP server taking pushes: every request is kept; /gone/... answers 410 (the
    browser unsubscribed), /moved/... a redirect to /inside/."""

    def __init__(self) -> None:
        self.received: list[dict[str, Any]] = []
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                service.received.append({"path": self.path, "headers": {
                    k.lower(): v for k, v in self.headers.items()},
                                         "body": body})
                if self.path.startswith("/moved/"):
                    self.send_response(307)
                    self.send_header("Location", "/inside/")
                else:
                    self.send_response(410 if self.path.startswith("/gone/") else 201)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def at(self, path: str) -> list[dict[str, Any]]:
        return [r for r in self.received if r["path"] == path]

    def __enter__(self) -> PushService:
        self.thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.server.shutdown()
        self.server.server_close()


def check_vapid(request: dict[str, Any], public_key: str, audience: str) -> dict[str, Any]:
    """RFC 8292: `Authorization: vapid t=JWT, k=KEY`, KEY the server's published key and the
    JWT signed by it (ES256); the JWT's claims."""
    scheme, _, params = request["headers"]["authorization"].partition(" ")
    assert scheme == "vapid"
    fields = dict(part.strip().split("=", 1) for part in params.split(","))
    assert fields["k"] == public_key
    header, claims, signature = fields["t"].split(".")
    assert json.loads(unb64url(header)) == {"typ": "JWT", "alg": "ES256"}
    raw = unb64url(signature)
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(public_key))
    key.verify(encode_dss_signature(int.from_bytes(raw[:32]), int.from_bytes(raw[32:])),
               f"{header}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
    with pytest.raises(InvalidSignature):  # the check checks: another text fails
        key.verify(encode_dss_signature(int.from_bytes(raw[:32]), int.from_bytes(raw[32:])),
                   f"{header}.{claims}x".encode(), ec.ECDSA(hashes.SHA256()))
    decoded = json.loads(unb64url(claims))
    assert decoded["aud"] == audience
    assert time.time() < decoded["exp"] <= time.time() + 86_400
    assert decoded["sub"].startswith(("mailto:", "https://"))
    return decoded


PUBLIC = "https://games.example.org"  # the address reminders link to in these tests


@pytest.fixture
def inbox() -> Iterator[Inbox]:
    with mail_server() as box:
        yield box


@pytest.fixture
def client(tmp_path: Any, inbox: Inbox) -> Iterator[Any]:
    """A test server mailing through `inbox`, its links to PUBLIC; its reminders look at a
    game 0.05 s after it changed (no page reloads here to wait for)."""
    from tests.web.apps import serve

    with serve(tmp_path, smtp=f"smtp://127.0.0.1:{inbox.port}", public_url=PUBLIC) as server:
        server.app.state.reminders.grace = 0.05
        yield server
