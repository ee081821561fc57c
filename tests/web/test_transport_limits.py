"""Issue 33 (points 2, 3, the header cap of 5, and 6), replayed against a real `tlatelolco
serve` process on loopback: sockets that crowd out pages, slow request bodies, one client
holding every connection, a header block that arrives in one read, forwarded addresses.

A second client address is 127.0.0.2 (loopback answers all of 127/8): what one address does
must not cost another its service. Every loop is bounded; nothing leaves loopback.
"""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
from collections.abc import Iterator

import httpx
import pytest
from tests.web.services import Client, Server, hello, wait_for
from typer.testing import CliRunner
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from tlatelolco.cli.app import app as cli

OTHER = "127.0.0.2"  # another client's address


def http_from(server: Server, source: str = OTHER) -> httpx.Client:
    """An HTTP client of `server` whose connections come from `source`."""
    return httpx.Client(base_url=server.url, timeout=5,
                        transport=httpx.HTTPTransport(local_address=source))


def raw(server: Server, source: str = "127.0.0.1") -> socket.socket:
    """A TCP connection to `server` from `source`, nothing sent yet."""
    return socket.create_connection(("127.0.0.1", server.port), timeout=5,
                                    source_address=(source, 0))


def answer(sock: socket.socket, timeout: float = 5.0) -> bytes:
    """What the server sends until it closes (b"" if it closes at once or resets)."""
    sock.settimeout(timeout)
    data = b""
    with contextlib.suppress(ConnectionResetError):
        while chunk := sock.recv(65_536):
            data += chunk
    return data


def spectate(server: Server, game_id: str, source: str = "127.0.0.1"
             ) -> tuple[ClientConnection, dict]:
    """A spectator's socket and the first message it gets: a view, or the refusal."""
    ws = connect(server.ws_url(game_id), open_timeout=10,
                 source_address=(source, 0)).__enter__()
    with contextlib.suppress(ConnectionClosed):  # a refused socket may be closed already
        ws.send(hello(None))
    return ws, json.loads(ws.recv(timeout=10))


def closed_with(ws: ClientConnection) -> int | None:
    """The close code the server sent once its messages have been read."""
    with pytest.raises(ConnectionClosed) as closed:
        for _ in range(5):
            ws.recv(timeout=5)
    return closed.value.rcvd.code if closed.value.rcvd else None


def close_all(sockets: list[ClientConnection]) -> None:
    threads = [threading.Thread(target=ws.close) for ws in sockets]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)


@contextlib.contextmanager
def game(server: Server) -> Iterator[str]:
    client = Client(server)
    try:
        yield client.create("grand_bazaar", ["taken", "taken"], num_players=2)
    finally:
        client.close()


# --- point 2: WebSockets crowd out HTTP --------------------------------------------------------

def test_sockets_beyond_the_cap_are_closed_1013_and_pages_still_answer(servers, tmp_path):
    """With --max-connections 40, 60 spectator sockets were all held and /healthz answered
    503. Now three quarters (30) are held, the rest refused, and pages still answer."""
    server = servers(f"sqlite:///{tmp_path / 'g.db'}",
                     args=("--max-connections", "40", "--sockets-per-client", "0"))
    held: list[ClientConnection] = []
    try:
        with game(server) as game_id:
            refusals = []
            for _ in range(60):
                ws, first = spectate(server, game_id)
                if first["type"] == "view":
                    held.append(ws)
                    continue
                refusals.append((first, closed_with(ws)))
                ws.close()
            with httpx.Client(base_url=server.url, timeout=5) as http:
                assert http.get("/healthz").status_code == 200
                assert http.get("/api/catalog").status_code == 200
                assert http.get("/").status_code == 200
            assert len(held) == 30 and len(refusals) == 30
            first, code = refusals[0]
            assert code == 1013 and first["error"] == "too_many_sockets"
            assert "30 live connections" in first["message"], first
            close_all(held[:5])
            del held[:5]  # a closed socket frees its place
            ws, first = wait_for(lambda: (pair := spectate(server, game_id))[1]["type"] == "view"
                                 and pair, timeout=10, every=0.2)
            held.append(ws)
    finally:
        close_all(held)


def test_one_address_gets_its_share_of_sockets_and_another_still_connects(servers, tmp_path):
    server = servers(f"sqlite:///{tmp_path / 'g.db'}", args=("--sockets-per-client", "3"))
    held: list[ClientConnection] = []
    try:
        with game(server) as game_id:
            for _ in range(3):
                ws, first = spectate(server, game_id)
                held.append(ws)
                assert first["type"] == "view", first
            ws, first = spectate(server, game_id)
            assert first["error"] == "too_many_sockets" and "your address has 3" in \
                first["message"], first
            assert closed_with(ws) == 1013
            ws.close()
            ws, first = spectate(server, game_id, source=OTHER)
            held.append(ws)
            assert first["type"] == "view", first
            held.pop(0).close()
            ws, _ = wait_for(lambda: (pair := spectate(server, game_id))[1]["type"] == "view"
                             and pair, timeout=10, every=0.2)
            held.append(ws)
    finally:
        close_all(held)


# --- point 3: slow request bodies, one address holding every connection ---------------------

def test_slow_bodies_are_cut_off_by_the_request_deadline(servers, tmp_path):
    """30 connections sending a body byte every 2 s stayed open past 25 s: the deadline ended
    with the headers. Now the whole request must arrive within --request-timeout."""
    server = servers(f"sqlite:///{tmp_path / 'g.db'}",
                     args=("--request-timeout", "3", "--max-connections", "40"))
    head = (b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 100\r\n\r\n{")
    slow = [raw(server) for _ in range(30)]
    try:
        for sock in slow:
            sock.sendall(head)
        started = time.monotonic()
        with http_from(server) as other:
            while time.monotonic() - started < 4.5:  # a byte every 2 s, past the deadline
                time.sleep(2 - (time.monotonic() - started) % 2)
                for sock in slow:
                    with contextlib.suppress(OSError):
                        sock.sendall(b" ")
                assert other.get("/healthz").status_code == 200
        answers = [answer(sock, timeout=3) for sock in slow]
        assert all(a.startswith(b"HTTP/1.1 408") for a in answers), answers[0]
        assert b"within 3 s" in answers[0]
    finally:
        for sock in slow:
            sock.close()


def test_one_address_cannot_hold_every_connection(servers, tmp_path):
    server = servers(f"sqlite:///{tmp_path / 'g.db'}", args=("--connections-per-client", "5"))
    idle = [raw(server) for _ in range(5)]
    try:
        for sock in idle:
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")  # headers never finished
        extra = raw(server)
        refused = answer(extra)
        extra.close()
        assert refused.startswith(b"HTTP/1.1 429"), refused
        body = json.loads(refused.split(b"\r\n\r\n", 1)[1])
        assert body["error"] == "too_many_connections" and "5 connections" in body["message"]
        with http_from(server) as other:
            assert other.get("/healthz").status_code == 200
        idle.pop().close()  # a closed connection frees its place

        def served() -> bool:
            with httpx.Client(base_url=server.url, timeout=5) as mine:
                return mine.get("/healthz").status_code == 200

        wait_for(served, timeout=10, every=0.2)
    finally:
        for sock in idle:
            sock.close()


# --- point 5 (part): headers that arrive in one read -----------------------------------------

def test_a_header_block_over_the_cap_in_one_write_is_refused_431(servers, tmp_path):
    """A 40 KB header block sent at once was answered 200: the cap counted only reads that
    left the headers unfinished."""
    server = servers(f"sqlite:///{tmp_path / 'g.db'}")
    blocks = {
        "one big header": b"X-Big: " + b"a" * 40_000 + b"\r\n",
        "many headers": b"".join(b"X-H%d: %s\r\n" % (i, b"b" * 1000) for i in range(40)),
        "a long URL": b"",
    }
    for name, block in blocks.items():
        url = b"/healthz?" + b"q" * 40_000 if name == "a long URL" else b"/healthz"
        sock = raw(server)
        sock.sendall(b"GET " + url + b" HTTP/1.1\r\nHost: x\r\n" + block + b"\r\n")
        got = answer(sock)
        sock.close()
        assert got.startswith(b"HTTP/1.1 431") and b"32768 bytes" in got, (name, got[:200])
    sock = raw(server)
    sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-Fine: "
                 + b"c" * 20_000 + b"\r\n\r\n")
    assert answer(sock).startswith(b"HTTP/1.1 200")  # under the cap: served
    sock.close()


# --- point 6: forwarded addresses ---------------------------------------------------------------

def create_codes(server: Server, forwarded: list[str]) -> list[int]:
    with httpx.Client(base_url=server.url, timeout=5) as http:
        return [http.post("/api/games", json={"game": "grand_bazaar"},
                          headers={"X-Forwarded-For": address}).status_code
                for address in forwarded]


def test_forwarded_addresses_count_only_from_a_named_proxy(servers, tmp_path, monkeypatch):
    """From 127.0.0.1 a new X-Forwarded-For each request got around every per-address
    limit: uvicorn trusts 127.0.0.1 by default. Now no proxy is trusted unless named (and
    uvicorn's FORWARDED_ALLOW_IPS in the environment does not name one)."""
    monkeypatch.setenv("FORWARDED_ALLOW_IPS", "*")  # the servers inherit the environment
    rotating = [f"203.0.113.{i}" for i in range(1, 6)]
    plain = servers(f"sqlite:///{tmp_path / 'a.db'}", limits="creates=3")
    assert create_codes(plain, rotating) == [201] * 3 + [429] * 2
    plain.stop()
    proxied = servers(f"sqlite:///{tmp_path / 'b.db'}", limits="creates=3",
                      args=("--forwarded-allow-ips", "127.0.0.1",
                            "--connections-per-client", "2"))
    assert create_codes(proxied, rotating) == [201] * 5  # each player counted as himself
    assert create_codes(proxied, ["198.51.100.7"] * 4) == [201] * 3 + [429]
    through = [raw(proxied) for _ in range(4)]  # a trusted proxy carries many clients
    try:
        for sock in through:
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        assert all(answer(sock).startswith(b"HTTP/1.1 200") for sock in through)
    finally:
        for sock in through:
            sock.close()


# --- the options -------------------------------------------------------------------------------

@pytest.mark.parametrize(("args", "words"), [
    (["--forwarded-allow-ips", "proxy.example"], "not an IP address or network"),
    (["--max-connections", "40", "--max-sockets", "40"], "--max-sockets must be from 1 to 39"),
    (["--sockets-per-client", "-1"], "cannot be negative"),
    (["--request-timeout", "0"], "--request-timeout must be more than 0"),
    (["--header-timeout", "-2"], "--request-timeout must be more than 0"),
])
def test_bad_transport_options_are_refused_in_one_line(args, words):
    result = CliRunner().invoke(cli, ["serve", *args])
    assert result.exit_code != 0
    assert words in " ".join(result.output.split()), result.output
