"""Issue 35, reminders by Web Push, through a push service of the test's own.

The test plays the browser and its push service: it makes a subscription as a browser does (a
P-256 key pair and a 16-byte auth secret), and a small HTTP server receives the server's POST,
checks the VAPID JWT's signature against the key the server publishes, and decrypts the
aes128gcm payload with http_ece: the real encryption runs. A 410 answer deletes the
subscription; hostile subscriptions are refused.
"""

from __future__ import annotations

import os
from typing import Any

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from sqlalchemy import select
from tests.web.apps import serve, wait_for
from tests.web.inboxes import Browser, PushService, b64url, check_vapid, unb64url
from tests.web.test_reminder_mail import ORIGIN, Person, quiet

from tlatelolco.web.notify.push import Pusher, Subscription
from tlatelolco.web.play.service import Change
from tlatelolco.web.storage.db import push_subscriptions

PUBLIC = "https://games.example.org"


@pytest.fixture
def push_service():
    with PushService() as service:
        yield service


@pytest.fixture
def client(tmp_path):
    with serve(tmp_path, public_url=PUBLIC, push_allow_http=True) as client:
        client.app.state.reminders.grace = 0.05
        yield client


def pushing(client: Any, name: str, *browsers: Browser, lang: str = "en") -> Person:
    person = Person(client, name, lang=lang)
    person.settings(notify_push=True)
    for browser in browsers:
        added = person.request("POST", "/api/account/push", json=browser.subscription())
        assert added.status_code == 201, added.text
    return person


def against_a_bot(person: Person) -> str:
    """A game in which a bot moves first: then it is the person's turn (no page open)."""
    made = person.request("POST", "/api/games", json={
        "game": "axio", "options": {"num_players": 2}, "seats": ["bot:random", "taken"]})
    assert made.status_code == 201, made.text
    return str(made.json()["id"])


def test_a_turn_is_pushed_signed_and_encrypted_for_the_browser(client, push_service):
    key = client.get("/api/push/key").json()["public_key"]
    assert len(unb64url(key)) == 65 and unb64url(key)[0] == 4  # an uncompressed P-256 point
    phone, laptop = (Browser(f"{push_service.url}/push/{n}") for n in ("phone", "laptop"))
    ana = pushing(client, "Ana", phone, laptop, lang="es")
    gid = against_a_bot(ana)
    wait_for(lambda: push_service.at("/push/phone") and push_service.at("/push/laptop"),
             what="the pushes")
    for browser in (phone, laptop):
        request = push_service.at(browser.endpoint.removeprefix(push_service.url))[0]
        check_vapid(request, key, push_service.url)
        assert request["headers"]["content-encoding"] == "aes128gcm"
        assert int(request["headers"]["ttl"]) > 0  # kept for a browser that is offline
        assert b"Axio" not in request["body"]  # encrypted
        payload = browser.decrypt(request["body"])
        assert payload["title"] == "Tu turno en Axio"
        assert payload["body"] == "Te toca jugar en Axio."
        assert payload["url"] == f"{PUBLIC}/games/{gid}"
        assert payload["tag"] == f"tlatelolco-{gid}"
    with pytest.raises(Exception):  # noqa: B017 - only the browser it was made for can read
        Browser("x").decrypt(push_service.at("/push/phone")[0]["body"])
    # the same turn again: no second push
    hub = client.app.state.hub
    version = hub.service.live(gid).version
    client.portal.call(hub.tell_listeners, Change(gid, version, version))
    quiet(client)
    assert len(push_service.received) == 2


def test_the_key_is_made_once_and_kept_across_restarts(tmp_path):
    with serve(tmp_path) as client:
        first = client.get("/api/push/key").json()["public_key"]
    with serve(tmp_path) as client:
        assert client.get("/api/push/key").json()["public_key"] == first


def test_a_subscription_its_push_service_forgot_is_deleted(client, push_service):
    kept, gone = Browser(f"{push_service.url}/push/kept"), Browser(f"{push_service.url}/gone/x")
    ana = pushing(client, "Ana", kept, gone)
    against_a_bot(ana)
    engine = client.app.state.hub.service.store.engine

    def endpoints() -> set[str]:
        with engine.connect() as db:
            return set(db.execute(select(push_subscriptions.c.endpoint)).scalars())

    wait_for(lambda: endpoints() == {kept.endpoint}, what="the 410 subscription deleted")
    assert push_service.at("/gone/x") and push_service.at("/push/kept")


def test_no_push_with_push_reminders_off_or_for_a_turn_being_watched(client, push_service):
    browser = Browser(f"{push_service.url}/push/ana")
    ana = pushing(client, "Ana", browser)
    ana.settings(notify_push=False)
    against_a_bot(ana)
    quiet(client, 1.0)
    assert not push_service.received
    ana.settings(notify_push=True)
    made = ana.request("POST", "/api/games", json={
        "game": "axio", "options": {"num_players": 2}, "seats": ["taken", "bot:random"]})
    gid = made.json()["id"]
    client.cookies.set("tlatelolco_session", ana.session)
    with client.websocket_connect(f"/ws/games/{gid}", headers=ORIGIN) as ws:
        ws.send_json({"type": "hello", "token": None})
        view = ws.receive_json()
        moved = ana.request("POST", f"/api/games/{gid}/actions", json={
            "version": view["version"], "action": view["legal"][0]["id"]})
        assert moved.status_code == 200, moved.text
        wait_for(lambda: client.app.state.hub.service.live(gid).state.current_player() == 0,
                 what="the bot's move")
        quiet(client)
        assert not push_service.received  # her page shows the game


def test_pushes_go_to_public_push_services_only_and_follow_no_redirect(client, push_service):
    """The server POSTs wherever a browser said: a subscription stored by a test server
    (http:// on this machine) is not pushed by a real one, and a redirect is not followed."""
    reminders = client.app.state.reminders
    strict = Pusher(reminders.pusher.keys, "mailto:a@example.org", allow_http=False)
    local = Subscription(**{"endpoint": f"{push_service.url}/push/x",
                            **Browser("").subscription()["keys"]})
    moved = Subscription(**{"endpoint": f"{push_service.url}/moved/x",
                            **Browser("").subscription()["keys"]})
    try:
        assert client.portal.call(strict.send, local, {"title": "x"}, 60) == "failed"
        assert client.portal.call(reminders.pusher.send, moved, {"title": "x"}, 60) == "failed"
    finally:
        strict.close()
    assert [r["path"] for r in push_service.received] == ["/moved/x"]  # not /inside/


# --- the API and hostile subscriptions ------------------------------------------------

def good(endpoint: str = "https://push.example.com/send/abc") -> dict[str, Any]:
    return {**Browser(endpoint).subscription(), "endpoint": endpoint}


def test_subscribing_needs_an_account_and_this_sites_pages(client):
    anonymous = client.post("/api/account/push", json=good(), headers=ORIGIN)
    assert anonymous.status_code == 401 and anonymous.json()["error"] == "login_needed"
    assert client.request("DELETE", "/api/account/push", json={"endpoint": "https://a.b/c"},
                          headers=ORIGIN).status_code == 401
    ana = Person(client, "Ana")
    client.cookies.set("tlatelolco_session", ana.session)
    for origin in ({"Origin": "https://evil.example"}, {}):
        forged = client.post("/api/account/push", json=good(), headers=origin)
        assert forged.status_code == 403 and forged.json()["error"] == "cross_site"
    assert ana.request("POST", "/api/account/push", json=good()).status_code == 201


@pytest.mark.parametrize("allow_http", [False, True])
def test_hostile_subscriptions_are_refused(tmp_path, allow_http):
    """As a server runs (and as a test server runs, which also takes this machine's http://
    push service: nothing else)."""
    with serve(tmp_path, push_allow_http=allow_http) as client:
        hostile_subscriptions(client, Person(client, "Ana"), allow_http)


def hostile_subscriptions(client: Any, ana: Person, allow_http: bool) -> None:
    point = good()["keys"]["p256dh"]
    secret = good()["keys"]["auth"]
    off_curve = b64url(b"\x04" + b"\x01" * 64)
    compressed = b64url(ec.generate_private_key(ec.SECP256R1()).public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.CompressedPoint))
    cases = {
        "http on a public host": {"endpoint": "http://push.example.com/x"},
        "a private address": {"endpoint": "https://10.0.0.7/push"},
        "a private address by http": {"endpoint": "http://192.168.1.1/push"},
        "link-local metadata": {"endpoint": "https://169.254.169.254/latest"},
        "a local name": {"endpoint": "https://printer.local/x"},
        "a user and password": {"endpoint": "https://u:p@push.example.com/x"},
        "another scheme": {"endpoint": "javascript:alert(1)"},
        "file": {"endpoint": "file:///etc/passwd"},
        "a bad port": {"endpoint": "https://push.example.com:99999/x"},
        "spaces": {"endpoint": "https://push.example.com/a b"},
        "control characters": {"endpoint": "https://push.example.com/a\r\nX: y"},
        "non-ASCII": {"endpoint": "https://pμsh.example.com/x"},
        "too long": {"endpoint": "https://push.example.com/" + "a" * 1000},
        "a point off the curve": {"keys": {"p256dh": off_curve, "auth": secret}},
        "a compressed point": {"keys": {"p256dh": compressed, "auth": secret}},
        "a key that is not base64url": {"keys": {"p256dh": point[:-2] + "!!",
                                                 "auth": secret}},
        "a short auth secret": {"keys": {"p256dh": point, "auth": b64url(os.urandom(15))}},
        "a huge key": {"keys": {"p256dh": "A" * 201, "auth": secret}},
        "a number": {"endpoint": 12345},
        "a key that is a number": {"keys": {"p256dh": 5, "auth": secret}},
        "no keys": {"keys": None},
        "a missing auth": {"keys": {"p256dh": point}},
        "an unknown field": {"expirationTime": None},
        "an unknown key field": {"keys": {"p256dh": point, "auth": secret, "x": "y"}},
    }
    if not allow_http:
        cases |= {"this machine": {"endpoint": "http://127.0.0.1:8000/push"},
                  "this machine by name": {"endpoint": "https://localhost/push"},
                  "this machine (IPv6)": {"endpoint": "https://[::1]/push"}}
    for what, change in cases.items():
        body = {**good(), **change}
        refused = ana.request("POST", "/api/account/push", json=body)
        assert refused.status_code == 422, (what, refused.text)
        assert refused.json()["error"] in ("bad_subscription", "malformed"), what
    huge = ana.request("POST", "/api/account/push", content=b"{" + b" " * 70_000 + b"}",
                       headers={"Content-Type": "application/json"})
    assert huge.status_code == 413
    engine = client.app.state.hub.service.store.engine
    with engine.connect() as db:
        assert not db.execute(select(push_subscriptions)).all()
    assert client.get("/healthz").status_code == 200


def test_an_account_keeps_its_ten_newest_subscriptions_and_removes_only_its_own(client):
    ana, bea = Person(client, "Ana"), Person(client, "Bea")
    for n in range(12):
        added = ana.request("POST", "/api/account/push",
                            json=good(f"https://push.example.com/ana/{n}"))
        assert added.status_code == 201
    assert added.json()["subscriptions"] == 10
    assert bea.request("POST", "/api/account/push",
                       json=good("https://push.example.com/bea")).status_code == 201
    engine = client.app.state.hub.service.store.engine

    def endpoints(user: Person) -> list[str]:
        with engine.connect() as db:
            return sorted(db.execute(select(push_subscriptions.c.endpoint).where(
                push_subscriptions.c.user_id == user.id)).scalars())

    assert endpoints(ana) == sorted(f"https://push.example.com/ana/{n}" for n in range(2, 12))
    # Ana cannot remove Bea's; she removes her own
    theirs = ana.request("DELETE", "/api/account/push",
                         json={"endpoint": "https://push.example.com/bea"})
    assert theirs.status_code == 200 and theirs.json()["removed"] is False
    assert endpoints(bea) == ["https://push.example.com/bea"]
    mine = ana.request("DELETE", "/api/account/push",
                       json={"endpoint": "https://push.example.com/ana/5"})
    assert mine.json()["removed"] is True and len(endpoints(ana)) == 9
    for body in ({"endpoint": 1}, {"endpoint": "x" * 1001}, {}, {"endpoint": "a", "b": 1}):
        assert ana.request("DELETE", "/api/account/push", json=body).status_code == 422


def test_the_service_worker_is_served_for_the_whole_site(client):
    worker = client.get("/push-worker.js")
    assert worker.status_code == 200
    assert worker.headers["Service-Worker-Allowed"] == "/"
    assert worker.headers["Content-Type"].startswith("text/javascript")
    assert "showNotification" in worker.text and "notificationclick" in worker.text
    assert "TlatelolcoPush" in client.get("/static/push.js").text
