"""Issue 35, reminders by e-mail: a real SMTP server (aiosmtpd) receives them.

When it becomes an account's turn in a game it is not watching, it gets one mail per turn, in
its language, with the link to the game; never while a WebSocket of its seat is open, never
for guests or with mail reminders off, never to an address not verified (each account here
verifies its address through the link mailed to it, as a person would: `inboxes.verify`;
what verification itself does: test_email_verification.py). The server speaks plain SMTP to
a local relay, and TLS (smtps, STARTTLS) with the certificate checked; its password is never
printed or logged.
"""

from __future__ import annotations

import datetime as dt
import ipaddress
import re
import ssl
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from aiosmtpd.controller import Controller
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from tests.web.apps import serve, wait_for
from tests.web.inboxes import PUBLIC, SECRET, Inbox, client, inbox, verify
from tests.web.services import free_port
from typer.testing import CliRunner

from tlatelolco.cli.app import app as cli
from tlatelolco.web import Settings
from tlatelolco.web.accounts.identity import SESSION_COOKIE
from tlatelolco.web.notify.mail import compose, parse_smtp, send_mail
from tlatelolco.web.notify.reminders import claim
from tlatelolco.web.play.service import Change

ORIGIN = {"Origin": "http://testserver"}

__all__ = ["client", "inbox"]  # the fixtures, shared with the other reminder tests


class Person:
    """An account on the test server: its own session cookie, sent with its requests."""

    def __init__(self, client: Any, name: str, **signup: Any) -> None:
        self.client = client
        self.name = name
        client.cookies.clear()
        made = client.post("/api/account/signup", headers=ORIGIN,
                           json={"name": name, "password": "correct horse 7", **signup})
        assert made.status_code == 201, made.text
        self.id = made.json()["user"]["id"]
        self.session = client.cookies.get(SESSION_COOKIE)
        assert self.session

    def request(self, method: str, path: str, headers: dict[str, str] | None = None,
                **kwargs: Any) -> httpx.Response:
        self.client.cookies.clear()
        self.client.cookies.set(SESSION_COOKIE, self.session)
        return self.client.request(method, path, headers={**ORIGIN, **(headers or {})},
                                   **kwargs)

    def settings(self, **changes: Any) -> None:
        changed = self.request("POST", "/api/account/settings", json=changes)
        assert changed.status_code == 200, changed.text


def account(client: Any, name: str, lang: str = "en", notify: bool = True,
            inbox: Inbox | None = None) -> Person:
    """An account with an address, mail reminders on (`notify`); the address verified
    through the link mailed to `inbox` if given."""
    person = Person(client, name, email=f"{name.lower()}@example.net", lang=lang)
    person.settings(notify_email=notify)
    if inbox is not None:
        verify(client, inbox, f"{name.lower()}@example.net")
    return person


def table(host: Person, guest: Person | None = None, **clock: Any) -> tuple[str, str | None]:
    """A two-player Axio game of `host` (seat 0) and `guest` (seat 1; a guest without an
    account when None), live unless a `clock` is given; the game id and the guest's
    credential."""
    made = host.request("POST", "/api/games", json={
        "game": "axio", "options": {"num_players": 2}, "seats": ["taken", "open"], **clock})
    assert made.status_code == 201, made.text
    gid = made.json()["id"]
    if guest is None:
        host.client.cookies.clear()
        joined = host.client.post(f"/api/games/{gid}/join", json={"name": "Guest"})
    else:
        joined = guest.request("POST", f"/api/games/{gid}/join", json={})
    assert joined.status_code == 200, joined.text
    return gid, joined.json()["token"]


def play(person: Person | None, client: Any, gid: str, token: str | None = None) -> None:
    """The first legal move of the seat of `person` (or of the guest's `token`)."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    ask = (lambda m, p, **kw: person.request(m, p, **kw)) if person else \
        (lambda m, p, **kw: client.request(m, p, headers=headers, **kw))
    if person is None:
        client.cookies.clear()
    view = wait_for(lambda: (lambda v: v if v["legal"] else None)(
        ask("GET", f"/api/games/{gid}/view").json()), what="the seat's turn")
    moved = ask("POST", f"/api/games/{gid}/actions",
                json={"version": view["version"], "action": view["legal"][0]["id"]})
    assert moved.status_code == 200, moved.text


def quiet(client: Any, seconds: float = 0.6) -> None:
    """Let the reminders settle (their grace is 0.05 s here) before counting mails."""
    time.sleep(seconds)
    wait_for(lambda: not client.app.state.reminders._looking, what="reminders to finish")


def test_one_mail_per_turn_in_the_accounts_language_with_the_link(client, inbox):
    ana = account(client, "Ana", inbox=inbox)
    bea = account(client, "Bea", lang="es", inbox=inbox)
    gid, _ = table(ana, bea)
    # the game began: it is Ana's turn and she is not watching
    first = wait_for(lambda: inbox.reminders("ana@example.net"), what="Ana's mail")
    mail = first[0]
    assert mail["Subject"] == "Your turn in Axio"
    assert f"{PUBLIC}/games/{gid}" in mail.get_content()
    assert "tlatelolco@games.example.org" in mail["From"]
    assert mail["Auto-Submitted"] == "auto-generated"
    assert not inbox.reminders("bea@example.net")
    play(ana, client, gid)
    mine = wait_for(lambda: inbox.reminders("bea@example.net"), what="Bea's mail")
    assert mine[0]["Subject"] == "Tu turno en Axio"
    text = mine[0].get_content()
    assert f"Abre la partida: {PUBLIC}/games/{gid}" in text and "Te toca jugar" in text
    # the same turn told again (another change, a second process): no second mail
    hub = client.app.state.hub
    version = hub.service.live(gid).version
    client.portal.call(hub.tell_listeners, Change(gid, version, version, seats_changed=True))
    quiet(client)
    assert len(inbox.reminders("bea@example.net")) == 1
    play(bea, client, gid)
    wait_for(lambda: len(inbox.reminders("ana@example.net")) == 2, what="Ana's second turn")
    quiet(client)
    assert len(inbox.reminders("ana@example.net")) == 2
    assert len(inbox.reminders("bea@example.net")) == 1


def test_no_mail_while_the_seat_has_a_websocket_open(client, inbox):
    ana = account(client, "Ana", notify=False, inbox=inbox)
    bea = account(client, "Bea", inbox=inbox)
    gid, _ = table(ana, bea)
    bea.client.cookies.set(SESSION_COOKIE, bea.session)
    with client.websocket_connect(f"/ws/games/{gid}", headers=ORIGIN) as ws:
        ws.send_json({"type": "hello", "token": None})  # the page's account: Bea's seat
        assert ws.receive_json()["viewer"] == 1
        play(ana, client, gid)
        quiet(client)
        assert not inbox.reminders("bea@example.net")  # she watches the game
    play(bea, client, gid)  # from another device, the page closed
    play(ana, client, gid)
    wait_for(lambda: inbox.reminders("bea@example.net"), what="Bea's mail once she left")


def test_no_mail_for_guests_or_with_mail_reminders_off(client, inbox):
    ana = account(client, "Ana", inbox=inbox)
    gid, guest = table(ana)  # her opponent is a guest: nobody to mail on its turns
    wait_for(lambda: inbox.reminders("ana@example.net"), what="Ana's mail")
    play(ana, client, gid)
    quiet(client)
    play(None, client, gid, guest)
    wait_for(lambda: len(inbox.reminders("ana@example.net")) == 2, what="Ana's second turn")
    assert len(inbox.reminders()) == 2
    cid = account(client, "Cid", notify=False, inbox=inbox)  # an address, but no mails wanted
    dan = account(client, "Dan", notify=False, inbox=inbox)
    gid, _ = table(cid, dan)
    play(cid, client, gid)
    quiet(client)
    assert len(inbox.reminders()) == 2


def test_a_turn_based_turn_is_reminded_again_when_a_quarter_of_its_time_is_left(tmp_path,
                                                                               inbox):
    with serve(tmp_path, smtp=f"smtp://127.0.0.1:{inbox.port}", public_url=PUBLIC,
               min_move_time=1, clock_check=0.5) as client:
        client.app.state.reminders.grace = 0.05
        ana = account(client, "Ana", lang="es", inbox=inbox)
        bea = account(client, "Bea", notify=False, inbox=inbox)
        gid, _ = table(ana, bea, speed="turn", move_time=4, on_timeout="bot")
        hub = client.app.state.hub
        wait_for(lambda: len(inbox.reminders("ana@example.net")) == 2, what="the deadline reminder")
        turn, deadline = (m["Subject"] for m in inbox.reminders("ana@example.net"))
        assert turn == "Tu turno en Axio"
        assert re.fullmatch(r"Tiempo que te queda para tu turno en Axio: [01] segundos?",
                            deadline), deadline
        # her time runs out: a bot plays her move, and the game goes on
        wait_for(lambda: hub.service.live(gid).row.turn_seat == 1, what="the timeout")
        quiet(client)
        assert len(inbox.reminders("ana@example.net")) == 2  # one of each for that turn


def test_a_turn_begun_while_no_server_ran_is_reminded_after_the_start_once(tmp_path, inbox):
    """Nothing announces such a turn: the server looks at the running games at its start."""
    mail = {"smtp": f"smtp://127.0.0.1:{inbox.port}", "public_url": PUBLIC}
    with serve(tmp_path, **mail) as client:
        client.app.state.reminders.grace = 3600  # it stops before reminding anything
        ana = account(client, "Ana", inbox=inbox)
        bea = account(client, "Bea", lang="es", inbox=inbox)
        live, _ = table(ana, bea)  # Ana's turn
        slow, _ = table(bea, ana, speed="turn", move_time=86_400)  # Bea's turn, a day to play
        guests, _ = table(ana)  # a guest's turn, once Ana has played: nobody to remind
        play(ana, client, guests)
    assert inbox.reminders() == []
    with serve(tmp_path, remind_settle=0.2, **mail) as client:
        first = wait_for(lambda: inbox.reminders("ana@example.net"), what="Ana's reminder")
        assert first[0]["Subject"] == "Your turn in Axio"
        assert f"{PUBLIC}/games/{live}" in first[0].get_content()
        mine = wait_for(lambda: inbox.reminders("bea@example.net"), what="Bea's reminder")
        assert mine[0]["Subject"] == "Tu turno en Axio"
        assert f"{PUBLIC}/games/{slow}" in mine[0].get_content()
        time.sleep(1.0)
        assert len(inbox.reminders()) == 2
    with serve(tmp_path, remind_settle=0.2, **mail) as client:  # started again: no more
        time.sleep(1.5)
        assert client.app.state.reminders.settle == 0.2
    assert len(inbox.reminders()) == 2


def test_an_account_seated_by_name_is_told_so(client, inbox):
    ana = account(client, "Ana", notify=False, inbox=inbox)
    bea = account(client, "Bea", lang="es", inbox=inbox)
    befriended = bea.request("POST", "/api/friends", json={"name": "Ana"})
    assert befriended.status_code == 201, befriended.text  # she lets Ana seat her
    made = ana.request("POST", "/api/games", json={
        "game": "axio", "options": {"num_players": 2}, "seats": ["taken", "open"]})
    gid = made.json()["id"]
    seated = ana.request("POST", f"/api/games/{gid}/invite", json={"seat": 1, "user": "bea"})
    assert seated.status_code == 200, seated.text
    mail = wait_for(lambda: inbox.reminders("bea@example.net"), what="Bea's notice")[0]
    assert mail["Subject"] == "Ana te invitó a Axio"
    assert f"{PUBLIC}/games/{gid}" in mail.get_content()
    quiet(client)
    assert len(inbox.reminders()) == 1  # it is Ana's turn, and she wants no mails


def test_a_reminder_is_noted_once_whichever_process_sends_it(client):
    engine = client.app.state.hub.service.store.engine
    ana = account(client, "Ana")
    gid, _ = table(ana, account(client, "Bea"))
    assert claim(engine, ana.id, gid, 40, "turn", "email")
    assert not claim(engine, ana.id, gid, 40, "turn", "email")
    assert claim(engine, ana.id, gid, 40, "turn", "push")  # another channel
    assert claim(engine, ana.id, gid, 40, "deadline", "email")  # another kind


def test_an_account_gets_a_dozen_mails_an_hour_at_most(client):
    """Addresses are not verified: a game against bots could mail somebody at every move."""
    engine = client.app.state.hub.service.store.engine
    ana = account(client, "Ana")
    gid, _ = table(ana, account(client, "Bea"))
    sent = [claim(engine, ana.id, gid, turn, "turn", "email") for turn in range(100, 130)]
    assert sent.count(True) == 12 and not any(sent[12:])


# --- the SMTP URL, TLS and the password ---------------------------------------------------

def test_smtp_urls_are_read_and_refused_without_showing_the_password():
    plain = parse_smtp("smtp://127.0.0.1:2525", PUBLIC)
    assert (plain.host, plain.port, plain.sender) == ("127.0.0.1", 2525,
                                                      "tlatelolco@games.example.org")
    tls = parse_smtp(f"smtp+starttls://ana%40mail:{SECRET}@mail.example.org?from=a@b.org",
                     PUBLIC)
    assert (tls.port, tls.user, tls.password, tls.sender) == (587, "ana@mail", SECRET,
                                                              "a@b.org")
    assert parse_smtp(f"smtps://ana:{SECRET}@mail.example.org", PUBLIC).port == 465
    assert SECRET not in repr(tls) and SECRET not in tls.shown()
    assert SECRET not in repr(Settings(smtp=f"smtps://ana:{SECRET}@h", db="x.db"))
    for url, why in ((f"smtp://ana:{SECRET}@mail.example.org", "in clear"),
                     (f"http://ana:{SECRET}@mail.example.org", "must begin with"),
                     (f"smtps://ana:{SECRET}@mail.example.org:99999", "port"),
                     (f"smtps://ana:{SECRET}@mail.example.org/path", "names a server"),
                     (f"smtps://ana:{SECRET}@h.org?from=x%0D%0ABcc:+z@evil.org", "sender"),
                     (f"smtps://ana:{SECRET}@h.org?to=x@y.org", "one query field")):
        with pytest.raises(ValueError, match=why) as err:
            parse_smtp(url, PUBLIC)
        assert SECRET not in str(err.value)
    with pytest.raises(ValueError, match="public URL"):
        parse_smtp("smtp://127.0.0.1", None)


def test_serve_refuses_a_bad_smtp_url_without_printing_its_password():
    runner = CliRunner()
    for args in (["--smtp", f"smtp://ana:{SECRET}@mail.example.org", "--public-url", PUBLIC],
                 ["--smtp", f"smtps://ana:{SECRET}@mail.example.org:0x"],
                 ["--smtp", f"smtps://ana:{SECRET}@mail.example.org", "--public-url",
                  "ftp://x"]):
        result = runner.invoke(cli, ["serve", *args])
        assert result.exit_code != 0
        assert "--smtp" in result.output and SECRET not in result.output, result.output


def certificate(folder: Path) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 and its key, as PEM files."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = dt.datetime.now(dt.UTC)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name)
            .public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - dt.timedelta(minutes=5))
            .not_valid_after(now + dt.timedelta(hours=1))
            .add_extension(x509.SubjectAlternativeName(
                [x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), critical=False)
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .sign(key, hashes.SHA256()))
    cert_file, key_file = folder / "cert.pem", folder / "key.pem"
    cert_file.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(key.private_bytes(serialization.Encoding.PEM,
                                           serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return cert_file, key_file


@pytest.mark.parametrize("scheme", ["smtps", "smtp+starttls"])
def test_tls_mail_servers_with_their_certificate_checked(tmp_path, monkeypatch, scheme):
    cert_file, key_file = certificate(tmp_path)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert_file, key_file)
    box = Inbox()
    # aiosmtpd offers AUTH under TLS only after STARTTLS: from the start is TLS just as well
    tls = {"ssl_context": context, "auth_require_tls": False} if scheme == "smtps" else {
        "tls_context": context, "require_starttls": True}
    controller = Controller(box, hostname="127.0.0.1", port=free_port(),
                            authenticator=box.authenticate, **tls)
    controller.start()
    try:
        server = parse_smtp(f"{scheme}://ana:{SECRET}@127.0.0.1:{controller.port}", PUBLIC)
        message = compose(server, "bea@example.net", "Your turn in Axio", "Hello", "x.org")
        with pytest.raises(ssl.SSLCertVerificationError):  # a certificate nobody vouches for
            send_mail(server, message, timeout=5)
        assert not box.mails and not box.logins
        monkeypatch.setenv("SSL_CERT_FILE", str(cert_file))  # now this machine trusts it
        send_mail(server, message, timeout=5)
        assert box.logins == [("ana", SECRET)]
        assert [m["Subject"] for _, m in box.mails] == ["Your turn in Axio"]
    finally:
        controller.stop()


def test_a_served_process_logs_in_to_send_and_never_shows_the_password(servers, tmp_path):
    box = Inbox()
    controller = Controller(box, hostname="127.0.0.1", port=free_port(),
                            authenticator=box.authenticate, auth_require_tls=False)
    controller.start()
    try:
        server = servers(f"sqlite:///{tmp_path / 'mail.db'}", args=(
            "--smtp", f"smtp://ana:{SECRET}@127.0.0.1:{controller.port}?from=games@example.org",
            "--public-url", PUBLIC, "--log-level", "info"))
        people = []
        for name in ("Ana", "Bea"):
            http = httpx.Client(base_url=server.url, headers={"Origin": server.url},
                                timeout=10)
            made = http.post("/api/account/signup", json={
                "name": name, "password": "correct horse 7", "email": f"{name.lower()}@example.net",
                "lang": "en"})
            assert made.status_code == 201, made.text
            assert http.post("/api/account/settings", json={"notify_email": True}
                             ).status_code == 200
            verify(http, box, f"{name.lower()}@example.net")
            people.append(http)
        made = people[0].post("/api/games", json={
            "game": "axio", "options": {"num_players": 2}, "seats": ["taken", "open"]})
        gid = made.json()["id"]
        assert people[1].post(f"/api/games/{gid}/join", json={}).status_code == 200
        wait_for(lambda: box.reminders("ana@example.net"), timeout=20, what="Ana's mail")
        assert box.logins and set(box.logins) == {("ana", SECRET)}
        assert "games@example.org" in box.reminders("ana@example.net")[0]["From"]
        for http in people:
            http.close()
    finally:
        controller.stop()
    server.stop()
    # what the server printed and logged (the harness writes the command line above it)
    output = "\n".join(line for line in (tmp_path / "server.log").read_text().splitlines()
                       if not line.startswith("--- serve"))
    assert f"Reminder mails through smtp://ana@127.0.0.1:{controller.port}" in output
    assert SECRET not in output


def test_a_refused_login_is_logged_without_the_password(tmp_path, caplog):
    box = Inbox()
    controller = Controller(box, hostname="127.0.0.1", port=free_port(),
                            authenticator=box.authenticate, auth_require_tls=False)
    controller.start()
    try:
        with serve(tmp_path, smtp=f"smtp://ana:wrong-{SECRET}@127.0.0.1:{controller.port}",
                   public_url=PUBLIC) as client:
            client.app.state.reminders.grace = 0.05
            account(client, "Ana")  # the mail verifying her address cannot be sent
            wait_for(lambda: box.logins, what="the login")
            wait_for(lambda: "verification mail" in caplog.text, what="the failure logged")
    finally:
        controller.stop()
    assert not box.mails and "SMTPAuthenticationError" in caplog.text
    assert SECRET not in caplog.text and "smtp://ana@127.0.0.1" in caplog.text
