"""E-mail addresses are verified before any reminder is mailed to them (a real SMTP server,
aiosmtpd, receives the links).

Without it anybody could give somebody else's address and turn reminders on, and the server
would mail people who never asked. An address given at sign-up or in the settings is mailed a
link, `{public_url}/api/account/verify?token=...` (a stateless HMAC of the account, the address
and an expiry); following it verifies the address and sends the browser to the lobby. A link
tampered with, expired, or made for another address (or account) verifies nothing. Links can
be mailed again, 3 an hour per account and per address; a server without --smtp says it
cannot verify. The access log keeps no token.
"""

from __future__ import annotations

import time
from typing import Any
from urllib.parse import urlsplit

import httpx
from tests.web.accounts import PASSWORD, same_origin
from tests.web.apps import serve, wait_for
from tests.web.inboxes import PUBLIC, client, inbox, link_in, mail_server, verify
from tests.web.social_helpers import person

from tlatelolco.web.accounts.verification import LIFE, make_token
from tlatelolco.web.notify.keys import verify_secret
from tlatelolco.web.play.service import Change

ANA = "ana@example.net"

__all__ = ["client", "inbox"]  # the fixtures, shared with the other reminder tests


def me(client: Any, who: dict[str, str]) -> dict[str, Any]:
    return dict(client.get("/api/account", headers=who).json()["user"])


def follow(client: Any, link: str) -> str:
    """Open a link as a browser would: where the server sends it (the lobby, resolved)."""
    parts = urlsplit(link)
    answer = client.get(f"{parts.path}?{parts.query}" if parts.query else parts.path,
                        follow_redirects=False)
    assert answer.status_code == 303 and answer.headers["cache-control"] == "no-store"
    return str(httpx.URL("http://testserver/api/account/verify").join(
        answer.headers["location"]))


def settings(client: Any, who: dict[str, str], **changes: Any) -> dict[str, Any]:
    answer = client.post("/api/account/settings", headers=who, json=changes)
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def quiet(client: Any) -> None:
    """Let the reminders settle (their grace is 0.05 s here) before counting mails."""
    time.sleep(0.6)
    wait_for(lambda: not client.app.state.reminders._looking, what="reminders to finish")


def test_the_link_arrives_and_verifies_the_address(client, inbox):
    same_origin(client)
    made = client.post("/api/account/signup", json={"name": "Ana", "password": PASSWORD,
                                                    "email": ANA})
    assert made.status_code == 201 and made.json()["verification"] == "sent"
    assert made.json()["user"]["email_verified"] is False
    mail = wait_for(lambda: inbox.to(ANA), what="the mail")[0]
    assert mail["Subject"] == "Confirm your e-mail address for Tlatelolco"
    assert mail["Auto-Submitted"] == "auto-generated"
    text = mail.get_content()
    link = link_in(mail)
    assert link and link.startswith(f"{PUBLIC}/api/account/verify?token=")
    assert "within 48 hours" in text and "if you did not ask for this, ignore" in text.lower()
    assert "Ana" not in text.replace(link, "")  # nothing a stranger chose goes into a mail
    assert follow(client, link) == "http://testserver/?verified=1"
    user = client.get("/api/account").json()["user"]
    assert user["email_verified"] is True
    assert follow(client, link) == "http://testserver/?verified=1"  # again: still good
    # the profile never shows any of it
    profile = str(client.get("/api/players/Ana").json())
    assert "verif" not in profile and "email" not in profile and ANA not in profile
    # the same address saved again keeps it verified; another one is not, until its link
    assert settings(client, {}, email=ANA)["user"]["email_verified"] is True
    moved = settings(client, {}, email="ana@example.org")
    assert moved["verification"] == "sent" and moved["user"]["email_verified"] is False
    assert follow(client, link) == "http://testserver/?verified=0"  # for the old address
    assert client.get("/api/account").json()["user"]["email_verified"] is False
    verify(client, inbox, "ana@example.org")
    assert client.get("/api/account").json()["user"]["email_verified"] is True
    # and removing the address: nothing left to verify
    gone = settings(client, {}, email=None)["user"]
    assert (gone["email"], gone["email_verified"]) == (None, False)


def test_the_mail_speaks_the_accounts_language(client, inbox):
    person(client, "Bea", email="bea@example.net", lang="es")
    mail = wait_for(lambda: inbox.to("bea@example.net"), what="the mail")[0]
    assert mail["Subject"] == "Confirma tu dirección de correo para Tlatelolco"
    assert "48 horas" in mail.get_content() and "no hagas caso" in mail.get_content()


def test_a_tampered_expired_or_other_address_token_verifies_nothing(client, inbox):
    ana = person(client, "Ana", email=ANA)
    bea = person(client, "Bea", email="bea@example.net")
    token = urlsplit(inbox.verification_link(ANA)).query.removeprefix("token=")
    secret = verify_secret(client.app.state.hub.service.store.engine)
    ana_id, bea_id = me(client, ana)["id"], me(client, bea)["id"]
    swap = {"A": "B", "B": "A"}
    tampered = [token[:at] + swap.get(token[at], "A") + token[at + 1:]
                for at in (2, 10, 20, 40, 63)]  # the account, the expiry, the signature
    bad = [*tampered,
           make_token(secret, ana_id, ANA, now=time.time() - LIFE - 1),  # expired
           make_token(secret, ana_id, "ana@example.org"),  # another address
           make_token(secret, bea_id, ANA),  # another account
           make_token(b"another server's secret".ljust(32), ana_id, ANA),
           token + "A", token[:-1], "", "x" * 5000, "../../etc/passwd", "é" * 64,
           token.replace("-", "+") if "-" in token else token[:-1] + "+"]
    for link in bad:
        lands = follow(client, f"/api/account/verify?token={link}")
        assert lands == "http://testserver/?verified=0", link
    for query in ("", "?token=a&token=b", "?other=1"):
        assert follow(client, f"/api/account/verify{query}").endswith("/?verified=0")
    assert me(client, ana)["email_verified"] is False
    assert me(client, bea)["email_verified"] is False
    # the genuine one still works, for Ana only
    assert follow(client, f"/api/account/verify?token={token}").endswith("/?verified=1")
    assert me(client, ana)["email_verified"] is True
    assert me(client, bea)["email_verified"] is False
    # a token made now for the address, at the right account: good (stateless)
    assert follow(client, "/api/account/verify?token="
                  + make_token(secret, bea_id, "bea@example.net")).endswith("/?verified=1")


def test_no_reminder_mail_before_the_address_is_verified_and_one_after(client, inbox):
    ana = person(client, "Ana", email=ANA)
    bea = person(client, "Bea")  # no address: nothing to mail her
    # reminders by mail may be turned on before: they start once the address is verified
    assert settings(client, ana, notify_email=True)["user"]["notify_email"] is True
    made = client.post("/api/games", headers=ana, json={
        "game": "axio", "options": {"num_players": 2}, "seats": ["taken", "open"]})
    gid = made.json()["id"]
    assert client.post(f"/api/games/{gid}/join", headers=bea, json={}).status_code == 200
    # it is Ana's turn, and she is not watching: but no mail goes to an unverified address
    quiet(client)
    assert inbox.reminders(ANA) == [] and len(inbox.to(ANA)) == 1  # the link only
    view = client.get(f"/api/games/{gid}/view", headers=ana).json()
    assert view["legal"]
    verify(client, inbox, ANA)
    # her next turn is mailed
    moved = client.post(f"/api/games/{gid}/actions", headers=ana, json={
        "version": view["version"], "action": view["legal"][0]["id"]})
    assert moved.status_code == 200, moved.text
    view = wait_for(lambda: (lambda v: v if v["legal"] else None)(
        client.get(f"/api/games/{gid}/view", headers=bea).json()), what="Bea's turn")
    assert client.post(f"/api/games/{gid}/actions", headers=bea, json={
        "version": view["version"], "action": view["legal"][0]["id"]}).status_code == 200
    mail = wait_for(lambda: inbox.reminders(ANA), what="Ana's reminder")
    assert len(mail) == 1 and mail[0]["Subject"] == "Your turn in Axio"
    # the turn told again: still one
    hub = client.app.state.hub
    version = hub.service.live(gid).version
    client.portal.call(hub.tell_listeners, Change(gid, version, version, seats_changed=True))
    quiet(client)
    assert len(inbox.reminders(ANA)) == 1


def test_an_invite_notice_goes_to_a_verified_address_only(client, inbox):
    ana = person(client, "Ana")
    bea = person(client, "Bea", email="bea@example.net")
    settings(client, bea, notify_email=True)
    assert client.post("/api/friends", headers=bea, json={"name": "Ana"}).status_code == 201
    for verified in (False, True):
        if verified:
            verify(client, inbox, "bea@example.net")
        made = client.post("/api/games", headers=ana, json={
            "game": "axio", "options": {"num_players": 2}, "seats": ["taken", "open"]})
        gid = made.json()["id"]
        seated = client.post(f"/api/games/{gid}/invite", headers=ana,
                             json={"seat": 1, "user": "Bea"})
        assert seated.status_code == 200, seated.text
        quiet(client)
        notices = [m for m in inbox.reminders("bea@example.net") if "invited" in m["Subject"]]
        assert len(notices) == int(verified)


def test_the_link_is_sent_again_three_times_an_hour_at_most(client, inbox):
    ana = person(client, "Ana", email=ANA)  # the first mail
    wait_for(lambda: inbox.to(ANA), what="the first mail")
    for sent in (2, 3):
        again = client.post("/api/account/verify", headers=ana)
        assert again.status_code == 200, again.text
        assert again.json()["verification"] == "sent"
        assert "email" in again.json()["user"]
        assert len(inbox.to(ANA)) == sent  # taken by the mail server before the answer
    refused = client.post("/api/account/verify", headers=ana)
    assert refused.status_code == 429 and refused.json()["error"] == "rate_limited"
    assert 0 < int(refused.headers["retry-after"]) <= 3600
    # a new address is saved all the same, its link not sent: the account had its mails
    moved = settings(client, ana, email="ana@example.org")
    assert moved["verification"] == "rate_limited" and not inbox.to("ana@example.org")
    assert len(inbox.to(ANA)) == 3
    # each of the three links verifies (while the address is the account's)
    settings(client, ana, email=ANA)
    links = [link_in(m) for m in inbox.to(ANA)]
    assert all(link and follow(client, link).endswith("/?verified=1") for link in links)


def test_no_address_is_mailed_more_than_three_times_an_hour_whoever_asks(client, inbox):
    """Many accounts (sign-ups are cheap) cannot flood one address either."""
    answers = []
    for name in ("Ana", "Bea", "Cid", "Dan", "Eva"):
        same_origin(client)
        client.cookies.clear()
        made = client.post("/api/account/signup", json={"name": name, "password": PASSWORD,
                                                        "email": "victim@example.net"})
        assert made.status_code == 201, made.text
        answers.append(made.json()["verification"])
    assert answers == ["sent", "sent", "sent", "rate_limited", "rate_limited"]
    wait_for(lambda: len(inbox.to("victim@example.net")) == 3, what="three mails")
    time.sleep(0.3)
    assert len(inbox.to("victim@example.net")) == 3
    again = client.post("/api/account/verify")  # Eva, logged in: her account's first
    assert again.status_code == 429 and again.json()["error"] == "rate_limited"


def test_who_may_ask_for_the_link_again(client, inbox):
    client.cookies.clear()
    nobody = client.post("/api/account/verify", headers={"Origin": "http://testserver"})
    assert nobody.status_code == 401 and nobody.json()["error"] == "login_needed"
    ana = person(client, "Ana", email=ANA)
    other_site = client.post("/api/account/verify",
                             headers={**ana, "Origin": "https://evil.example"})
    assert other_site.status_code == 403 and other_site.json()["error"] == "cross_site"
    verify(client, inbox, ANA)
    done = client.post("/api/account/verify", headers=ana)
    assert done.status_code == 409 and done.json()["error"] == "verified"
    bea = person(client, "Bea")
    none = client.post("/api/account/verify", headers=bea, json={"email": "x@example.net"})
    assert none.status_code == 409 and none.json()["error"] == "no_email"
    assert len(inbox.to(ANA)) == 1 and len(inbox.mails) == 1


def test_without_a_mail_server_nothing_is_verified_and_the_rest_works(tmp_path):
    with serve(tmp_path) as client:
        same_origin(client)
        made = client.post("/api/account/signup", json={"name": "Ana", "password": PASSWORD,
                                                        "email": ANA})
        assert made.status_code == 201 and made.json()["verification"] == "no_mail_server"
        assert client.get("/api/account").json()["mail_server"] is False
        changed = settings(client, {}, email="ana@example.org", notify_email=True)
        assert changed["verification"] == "no_mail_server"
        assert changed["user"]["notify_email"] is True
        again = client.post("/api/account/verify")
        assert again.status_code == 409 and again.json()["error"] == "no_mail_server"
        assert "--smtp" in again.json()["message"]


def test_the_access_log_keeps_no_token(servers, tmp_path):
    with mail_server() as box:
        server = servers(f"sqlite:///{tmp_path / 'log.db'}", args=(
            "--smtp", f"smtp://127.0.0.1:{box.port}", "--public-url", PUBLIC,
            "--log-level", "info"))
        with httpx.Client(base_url=server.url, headers={"Origin": server.url},
                          timeout=10) as http:
            made = http.post("/api/account/signup", json={"name": "Ana", "password": PASSWORD,
                                                          "email": ANA})
            assert made.status_code == 201, made.text
            link = box.verification_link(ANA)
            token = link.rsplit("=", 1)[1]
            verify(http, box, ANA)
            assert http.get("/api/account").json()["user"]["email_verified"] is True
        server.stop()
    log = (tmp_path / "server.log").read_text()
    assert "GET /api/account/verify?token=… HTTP/1.1" in log  # the request is logged...
    assert token not in log and token[:16] not in log  # ...without its token
