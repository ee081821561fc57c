"""Stopping the server as a person does (Ctrl+C in its terminal) while bots are thinking:
it exits cleanly, says nothing alarming (no traceback, no leaked-semaphore warning from a
multiprocessing resource tracker) and leaves no worker behind."""

from __future__ import annotations

import os
import signal
import time

import httpx
from tests.processes import alive, children
from tests.web.services import Server


def test_ctrl_c_while_bots_think_stops_cleanly(tmp_path):
    log = tmp_path / "server.log"
    server = Server(f"sqlite:///{tmp_path / 'stop.db'}", log=log, bot_workers=2,
                    bot_delay=0.0).start()
    try:
        created = httpx.post(server.url + "/api/games", json={
            "game": "mexica", "options": {"num_players": 2},
            "seats": ["bot:mcts:time=0.5", "bot:mcts:time=0.5"]})
        assert created.status_code == 201, created.text
        game = created.json()["id"]
        deadline = time.monotonic() + 60
        while httpx.get(f"{server.url}/api/games/{game}").json()["version"] < 10:
            assert time.monotonic() < deadline, "the bots did not move"
            time.sleep(0.2)
        workers = children(server.process.pid)
        assert workers, "bot workers run in processes of their own"
        os.killpg(server.process.pid, signal.SIGINT)  # what a terminal's Ctrl+C sends
        assert server.process.wait(20) == 0
        deadline = time.monotonic() + 5
        while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not any(alive(pid) for pid in workers)
    finally:
        server.kill()
    said = log.read_text(errors="replace")
    assert "leaked semaphore" not in said and "resource_tracker" not in said, said[-2000:]
    assert "Traceback" not in said and "KeyboardInterrupt" not in said, said[-2000:]
