"""Sending mails (reminders, links verifying addresses) over SMTP, with the standard library,
in threads of their own.

The server is named by a URL (`serve --smtp`): `smtp://host:port` (plain, for a relay on this
machine), `smtps://` (TLS from the start, port 465) or `smtp+starttls://` (STARTTLS, port 587),
with an optional `user:password@` and `?from=ADDRESS` (default `tlatelolco@` the host of the
public URL). Certificates are checked against the system's authorities. The password is kept
out of every text this module makes (`SmtpServer.shown`, errors, logs).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import email.utils
import logging
import smtplib
import ssl
from dataclasses import dataclass, field
from email.message import EmailMessage
from ipaddress import ip_address
from urllib.parse import parse_qs, unquote, urlsplit

log = logging.getLogger("tlatelolco.web")

PORTS = {"smtp": 25, "smtps": 465, "smtp+starttls": 587}
TIMEOUT = 20.0  # seconds a mail may take (connecting, TLS, login, sending)
SENDERS = 2  # mails sent at once (threads): a slow server never holds more
ADDRESS_MAX = 254


@dataclass(frozen=True, slots=True)
class SmtpServer:
    scheme: str  # smtp | smtps | smtp+starttls
    host: str
    port: int
    sender: str  # the From address
    user: str | None = None
    password: str | None = field(default=None, repr=False)

    def shown(self) -> str:
        """The server as logs and messages name it: never its password."""
        who = f"{self.user}@" if self.user else ""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{self.scheme}://{who}{host}:{self.port}"


def shown_url(url: str) -> str:
    """`url` with any password masked, for error messages about it."""
    try:
        parts = urlsplit(url)
        if parts.password is None:
            return url[:200]
        where = parts.netloc.rsplit("@", 1)[1]
        return parts._replace(netloc=f"{parts.username}:***@{where}").geturl()[:200]
    except ValueError:
        return "(an unreadable URL)"


def public_host(public_url: str | None) -> str:
    """The host name of the public URL ("localhost" without one)."""
    return (urlsplit(public_url).hostname if public_url else None) or "localhost"


def loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ip_address(host).is_loopback
    except ValueError:
        return False


def plausible_address(address: str) -> bool:
    """One `local@domain` address on one line: what a From or To header may carry."""
    local, at, domain = address.rpartition("@")
    return (bool(at and local and domain) and len(address) <= ADDRESS_MAX
            and address.isprintable() and not any(c in address for c in " <>,;\"\\()[]"))


def parse_smtp(url: str, public_url: str | None) -> SmtpServer:
    """The server `url` names; ValueError saying what is wrong (never with the password)."""
    if public_url is None:
        raise ValueError("mails link to the games: give the public URL players reach this "
                         "server at too (--public-url https://games.example.org)")
    try:
        parts = urlsplit(url.strip())
        port = parts.port
        user, password = parts.username, parts.password
    except ValueError:
        raise ValueError(f"the SMTP URL {shown_url(url)} is not a URL with a host and a "
                         "port from 1 to 65535") from None
    scheme = parts.scheme.lower()
    if scheme not in PORTS:
        raise ValueError(f"the SMTP URL must begin with {', '.join(s + '://' for s in PORTS)}; "
                         f"got {shown_url(url)}")
    host = parts.hostname
    if not host or parts.path not in ("", "/") or parts.fragment:
        raise ValueError(f"the SMTP URL names a server: {scheme}://[user:password@]host[:port]"
                         f"[?from=ADDRESS]; got {shown_url(url)}")
    query = parse_qs(parts.query, keep_blank_values=True)
    if set(query) - {"from"} or len(query.get("from", [])) > 1:
        raise ValueError("the SMTP URL takes one query field, from=ADDRESS (the mails' "
                         f"sender); got {shown_url(url)}")
    sender = query["from"][0] if "from" in query else f"tlatelolco@{public_host(public_url)}"
    if not plausible_address(sender):
        raise ValueError(f"the mails' sender {sender[:80]!r} is not one address "
                         "like tlatelolco@example.org")
    if password is not None and scheme == "smtp" and not loopback(host):
        raise ValueError("smtp:// sends the password in clear over the network: use "
                         "smtps:// or smtp+starttls:// for a server on another machine")
    return SmtpServer(scheme, host, port or PORTS[scheme], sender,
                      unquote(user) if user else None,
                      unquote(password) if password is not None else None)


def compose(server: SmtpServer, to: str, subject: str, body: str, domain: str) -> EmailMessage:
    """A plain-text mail. The email package refuses a header holding a line break."""
    message = EmailMessage()
    message["From"] = email.utils.formataddr(("Tlatelolco", server.sender))
    message["To"] = to
    message["Subject"] = subject
    message["Date"] = email.utils.formatdate(usegmt=True)
    message["Message-ID"] = email.utils.make_msgid(domain=domain)
    message["Auto-Submitted"] = "auto-generated"  # RFC 3834: no vacation replies to it
    message.set_content(body)
    return message


def send_mail(server: SmtpServer, message: EmailMessage, timeout: float = TIMEOUT) -> None:
    """Deliver `message` (blocking: run it in a thread); smtplib's errors or OSError."""
    context = ssl.create_default_context()
    smtp: smtplib.SMTP
    if server.scheme == "smtps":
        smtp = smtplib.SMTP_SSL(server.host, server.port, timeout=timeout, context=context)
    else:
        smtp = smtplib.SMTP(server.host, server.port, timeout=timeout)
    with smtp:
        if server.scheme == "smtp+starttls":
            smtp.starttls(context=context)
        if server.user is not None:
            smtp.login(server.user, server.password or "")
        smtp.send_message(message)


class Mailer:
    """Mails sent from threads of its own: the event loop never waits on SMTP, and a slow or
    unreachable server ties up `SENDERS` threads at most."""

    def __init__(self, server: SmtpServer, public_url: str) -> None:
        self.server = server
        self.domain = public_host(public_url)
        self._threads = concurrent.futures.ThreadPoolExecutor(SENDERS,
                                                              thread_name_prefix="mail")

    async def send(self, to: str, subject: str, body: str, what: str = "reminder mail") -> bool:
        """Whether the server took the mail (failures are logged as `what`, without the
        password)."""
        if not plausible_address(to):
            log.warning("no %s to an address that is not one address", what)
            return False
        try:
            message = compose(self.server, to, subject, body, self.domain)
            await asyncio.get_running_loop().run_in_executor(self._threads, send_mail,
                                                             self.server, message)
        except (smtplib.SMTPException, OSError, ValueError) as err:
            log.warning("a %s through %s failed: %s: %s", what, self.server.shown(),
                        type(err).__name__, str(err)[:300])
            return False
        return True

    def close(self) -> None:
        self._threads.shutdown(wait=False, cancel_futures=True)
