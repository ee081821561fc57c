"""Issue 21, replayed against a real `tlatelolco serve` process on loopback.

Each finding of the attack on the server, as an attacker would send it: slow headers, huge
bodies, oversized and nested WebSocket messages, a server file as an option, unbounded bot
specs, floods of creates, a credential in a URL, a killed server's bot workers, two servers
on one SQLite file. Each test checks the clear refusal *and* that the server still answers
others at once. Every loop is bounded; nothing here needs more than loopback.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest
from tests.processes import alive, children
from tests.web.services import Client, Server, hello, wait_for
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

QUICK = 1.0  # seconds within which the server must answer somebody else during an attack


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    logs = tmp_path_factory.mktemp("security")
    with Server(f"sqlite:///{logs / 'games.db'}", log=logs / "server.log", bot_workers=1,
                limits="creates=0,joins=0,hints=0,sockets=0",
                args=("--header-timeout", "1", "--log-level", "info",
                      # attacker and bystander share 127.0.0.1 here: per-address caps off
                      "--connections-per-client", "0", "--sockets-per-client", "0")) as server:
        yield server


def answers_quickly(server: Server) -> None:
    started = time.monotonic()
    assert httpx.get(server.url + "/healthz", timeout=5).status_code == 200
    assert time.monotonic() - started < QUICK


def rss_kb(pid: int) -> int:
    status = Path(f"/proc/{pid}/status").read_text()
    return int(next(line for line in status.splitlines() if line.startswith("VmRSS")).split()[1])


def test_slow_headers_are_cut_off_and_others_are_served(server):
    """Slow loris: 300 sockets that never finish their headers stayed open for good."""
    sockets = []
    try:
        for i in range(100):
            s = socket.create_connection(("127.0.0.1", server.port), timeout=5)
            s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n" if i % 2 else b"")
            sockets.append(s)
        answers_quickly(server)
        time.sleep(1.5)  # the header deadline is 1 s here (10 s by default)
        closed = 0
        for s in sockets:
            s.settimeout(2)
            try:
                data = s.recv(4096)
            except OSError:
                data = b""
            closed += data == b"" or data.startswith(b"HTTP/1.1 408")
        assert closed == len(sockets)
    finally:
        for s in sockets:
            s.close()
    answers_quickly(server)


def test_a_huge_body_is_refused_without_growing_the_server(server):
    """A 200 MB body took the server to 676 MB: it is refused from its Content-Length, and a
    body without one is cut off at the limit."""
    before = rss_kb(server.process.pid)
    big = httpx.post(server.url + "/api/games", content=b"x" * 20_000_000,
                     headers={"Content-Type": "application/json"}, timeout=30)
    assert big.status_code == 413 and "bytes" in big.json()["message"]

    def chunks():
        for _ in range(200):
            yield b"y" * 100_000

    try:
        streamed = httpx.post(server.url + "/api/games", content=chunks(),
                              headers={"Content-Type": "application/json"}, timeout=30)
        assert streamed.status_code == 413
    except httpx.TransportError:
        pass  # the server may close the connection as soon as it has answered
    assert rss_kb(server.process.pid) - before < 30_000
    answers_quickly(server)


def test_the_api_answers_malformed_requests_with_4xx(server):
    http = httpx.Client(base_url=server.url, timeout=5)
    checks = [
        ({"game": "axio", "options": {"tiles": "/dev/zero"}}, 422, "'default'"),
        ({"game": "axio", "options": {"self": 1}}, 422, "unknown option 'self'"),
        ({"game": "axio", "name": "Ana\u202e\x1b[2J"}, 422, "control"),
        ({"game": "axio", "seats": ["taken", "bot:mcts:time=inf"]}, 422, "time"),
        ({"game": "axio", "seats": ["taken", "bot:mcts:iterations=10" + ",time=1" * 10]},
         422, "64 characters"),
        ({"game": "axio", "seats": ["taken", "taken"]}, 422, "one seat"),
    ]
    for body, status, words in checks:
        started = time.monotonic()
        answer = http.post("/api/games", json=body)
        assert answer.status_code == status and words in answer.json()["message"], answer.text
        assert time.monotonic() - started < QUICK
    fifo = Path(server.log).with_name("tiles.fifo")
    os.mkfifo(fifo)
    answer = http.post("/api/games", json={"game": "axio", "options": {"tiles": str(fifo)}})
    assert answer.status_code == 422  # no read of the pipe: the writer thread is not blocked
    for version in ("3", 1.0, True):
        made = http.post("/api/games", json={"game": "grand_bazaar", "options": {
            "num_players": 2}, "seats": ["taken", "taken"]}).json()
        answer = http.post(f"/api/games/{made['id']}/actions", json={
            "version": version, "action": 0}, headers={
                "Authorization": f"Bearer {made['seats'][0]['token']}"})
        assert answer.status_code == 422, answer.text
    http.close()
    answers_quickly(server)


def test_bot_budgets_are_clamped_so_one_game_cannot_pin_the_worker(server):
    """`bot:mcts:time=1e9` is cut to the documented maximum; a second game's bot still moves
    at its own pace (a job's time counts from when a worker takes it)."""
    client = Client(server)
    try:
        slow = client.create("grand_bazaar", ["taken", "bot:mcts:time=1e9"], num_players=2)
        assert client.view(slow)["players"][1]["bot"] == "mcts:time=10.0"
        fast = client.create("grand_bazaar", ["bot:random", "taken"], num_players=2)
        wait_for(lambda: client.view(fast)["to_move"] != 0 or
                 client.view(fast)["status"] == "finished", timeout=25)
    finally:
        client.close()
    answers_quickly(server)


def test_websocket_messages_are_capped_and_parsed_safely(server):
    """A 12 KB Axio move froze the whole server for 9.5 s; nested JSON dropped the socket
    without a close frame."""
    client = Client(server)
    game_id = client.create("axio", ["taken", "bot:random"], num_players=2)
    with connect(server.ws_url(game_id), open_timeout=10, max_size=None) as ws:
        ws.send(hello(client.tokens[0]))
        first = json.loads(ws.recv(timeout=10))
        assert first["type"] == "view"
        for raw in ("[" * 4000 + "]" * 4000,
                    json.dumps({"type": "action", "text": "1," + "1" * 12_000, "version": 0}),
                    json.dumps({"type": "action", "text": "(0,0" + "0" * 190, "version": 0}),
                    json.dumps({"type": {"a": 1}}), "x" * 5000):
            started = time.monotonic()
            ws.send(raw)
            while True:
                message = json.loads(ws.recv(timeout=5))
                if message["type"] == "error":
                    break
            assert message["status"] in (409, 422), message
            assert time.monotonic() - started < QUICK
        ws.send(json.dumps({"type": "ping"}))
        while json.loads(ws.recv(timeout=5))["type"] != "pong":
            pass
        with pytest.raises(ConnectionClosed) as closed:  # a frame over the transport limit
            ws.send("z" * 200_000)
            for _ in range(10):
                ws.recv(timeout=5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    client.close()
    answers_quickly(server)


def test_credentials_never_appear_in_a_url_or_the_log(server):
    """The WebSocket took the credential as `?token=`, which the access log printed."""
    http = httpx.Client(base_url=server.url, timeout=5)
    made = http.post("/api/games", json={"game": "axio", "options": {"num_players": 2},
                                         "seats": ["taken", "open"], "listed": False}).json()
    mine, invite = made["seats"][0]["token"], made["seats"][1]["invite"]
    assert mine not in json.dumps([s["url"] for s in made["seats"]])
    claimed = http.post(f"/api/games/{made['id']}/claim", json={"name": "Bea"},
                        headers={"Authorization": f"Bearer {invite}"}).json()
    theirs = claimed["token"]
    again = http.post(f"/api/games/{made['id']}/claim", json={},
                      headers={"Authorization": f"Bearer {invite}"})
    assert again.status_code == 409 and again.json()["error"] == "invite_used"
    assert http.post(f"/api/games/{made['id']}/join", json={}).json()["error"] == "invite_only"
    with connect(f"{server.ws_url(made['id'])}?token={mine}", open_timeout=10) as ws:
        assert json.loads(ws.recv(timeout=5))["error"] == "credential_in_url"
    for token in (mine, theirs):
        with connect(server.ws_url(made["id"]), open_timeout=10) as ws:
            ws.send(hello(token))
            assert json.loads(ws.recv(timeout=5))["type"] == "view"
        assert http.get(f"/api/games/{made['id']}/view",
                        headers={"Authorization": f"Bearer {token}"}).status_code == 200
    http.close()
    time.sleep(0.3)  # the log is written by the server process
    logged = server.log.read_text(errors="replace")
    assert f"/api/games/{made['id']}/claim" in logged  # the access log is on
    for secret in (mine, invite, theirs):
        assert secret not in logged


def test_every_response_carries_the_security_headers(server):
    for path in ("/", "/games/abc", "/api/catalog", "/nowhere"):
        headers = httpx.get(server.url + path, timeout=5).headers
        assert "frame-ancestors 'none'" in headers["content-security-policy"]
        assert "script-src 'self';" in headers["content-security-policy"]
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["referrer-policy"] == "no-referrer"


def test_creates_over_the_rate_limit_are_refused(tmp_path):
    """2,000 anonymous creates in two minutes pushed every real game out of the lobby."""
    with Server(f"sqlite:///{tmp_path / 'g.db'}", log=tmp_path / "s.log",
                limits="creates=5") as server:
        http = httpx.Client(base_url=server.url, timeout=5)
        codes = [http.post("/api/games", json={"game": "grand_bazaar"}).status_code
                 for _ in range(8)]
        assert codes == [201] * 5 + [429] * 3
        refused = http.post("/api/games", json={"game": "grand_bazaar"})
        assert int(refused.headers["retry-after"]) >= 1
        assert len(http.get("/api/games").json()) == 5
        http.close()


def test_a_killed_server_leaves_no_bot_worker_behind(tmp_path):
    """`kill -9` of the server left its bot workers running, searching for games nobody
    would see. Only the server is killed here (not its process group)."""
    with Server(f"sqlite:///{tmp_path / 'g.db'}", log=tmp_path / "s.log",
                bot_workers=1) as server:
        client = Client(server)
        client.create("grand_bazaar", ["bot:mcts:time=10", "taken"], num_players=2)
        client.close()
        workers = wait_for(lambda: children(server.process.pid), timeout=20)
        time.sleep(1.0)  # the bot is thinking now
        server.process.kill()  # SIGKILL to the server alone
        server.process.wait(10)
        deadline = time.monotonic() + 5
        while any(alive(w) for w in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not any(alive(w) for w in workers), "bot workers outlived the server"


def test_a_second_server_on_the_same_sqlite_file_is_refused(tmp_path):
    """Both would store moves, but neither's players would see the other's moves."""
    db = f"sqlite:///{tmp_path / 'shared.db'}"
    with Server(db, log=tmp_path / "a.log"):
        second = subprocess.run(
            [sys.executable, "-c", "from tlatelolco.cli.app import main; main()", "serve",
             "--port", "0", "--db", db], capture_output=True, text=True, timeout=60)
        assert second.returncode != 0
        assert "another Tlatelolco server is serving" in second.stdout + second.stderr


def test_a_flood_of_sockets_does_not_stop_the_server(server):
    """Many WebSockets that never say hello are closed after the hello timeout; meanwhile
    everybody else is served."""
    client = Client(server)
    game_id = client.create("grand_bazaar", ["taken", "taken"], num_players=2)
    opened = []
    try:
        for _ in range(50):
            opened.append(connect(server.ws_url(game_id), open_timeout=10).__enter__())
        answers_quickly(server)
        with connect(server.ws_url(game_id), open_timeout=10) as ws:
            ws.send(hello(client.tokens[0]))
            assert json.loads(ws.recv(timeout=5))["type"] == "view"
    finally:
        threads = [threading.Thread(target=ws.close) for ws in opened]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(10)
        client.close()
