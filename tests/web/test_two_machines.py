"""Two people on two machines play one game through invite links, with a bot in the third seat.

The second machine is a network namespace of its own (its own interfaces, its own loopback),
joined to this one by a virtual cable: the server listens on every interface, the host who
creates the game uses the machine's address on that cable, and the friend opens the invite
link from the other side, in a separate process, and plays over HTTP and a WebSocket.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import httpx
import pytest
from tests.web.player_client import play
from tests.web.services import Server, unavailable

CLIENT = Path(__file__).with_name("player_client.py")


def run(*command: str) -> None:
    subprocess.run(command, check=True, capture_output=True)


@pytest.fixture
def other_machine():
    """(namespace, this machine's address on the cable, the other machine's address)."""
    if os.geteuid() != 0 or shutil.which("ip") is None:
        unavailable("the two-machine test needs root and iproute2 (ip netns)")
    tag = secrets.token_hex(3)
    namespace, here, there = f"tlfriend{tag}", f"tlh{tag}", f"tlf{tag}"
    subnet = f"10.{200 + secrets.randbelow(50)}.{secrets.randbelow(250)}"
    try:
        run("ip", "netns", "add", namespace)
        run("ip", "link", "add", here, "type", "veth", "peer", "name", there)
        run("ip", "link", "set", there, "netns", namespace)
        run("ip", "addr", "add", f"{subnet}.1/24", "dev", here)
        run("ip", "link", "set", here, "up")
        inside = ("ip", "netns", "exec", namespace)
        run(*inside, "ip", "addr", "add", f"{subnet}.2/24", "dev", there)
        run(*inside, "ip", "link", "set", there, "up")
        run(*inside, "ip", "link", "set", "lo", "up")
    except subprocess.CalledProcessError as err:
        subprocess.run(["ip", "netns", "del", namespace], capture_output=True)
        unavailable(f"could not make a network namespace: {err.stderr.decode().strip()}")
    try:
        yield namespace, f"{subnet}.1", f"{subnet}.2"
    finally:
        subprocess.run(["ip", "link", "del", here], capture_output=True)
        subprocess.run(["ip", "netns", "del", namespace], capture_output=True)


def test_two_people_on_two_machines_play_a_game_with_a_bot(tmp_path, other_machine):
    namespace, address, _ = other_machine
    with Server(f"sqlite:///{tmp_path / 'games.db'}", log=tmp_path / "server.log",
                host="0.0.0.0") as server:
        base = f"http://{address}:{server.port}"
        game = httpx.post(f"{base}/api/games", timeout=10, json={
            "game": "grand_bazaar", "options": {"num_players": 3}, "name": "Ana",
            "seats": ["open", "open", "bot:greedy"]}).json()
        mine, theirs = (seat["invite_url"] for seat in game["seats"][:2])
        assert theirs.startswith(base)  # links carry the address the game was made with
        # the friend: another process on the other machine, which has no route to our loopback
        unreachable = subprocess.run(
            ["ip", "netns", "exec", namespace, sys.executable, "-c",
             f"import httpx; httpx.get('http://127.0.0.1:{server.port}/healthz', timeout=2)"],
            capture_output=True)
        assert unreachable.returncode != 0
        friend = subprocess.Popen(
            ["ip", "netns", "exec", namespace, sys.executable, str(CLIENT), theirs, "Bea", "2"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        finals: dict = {}
        me = threading.Thread(target=lambda: finals.update(mine=play(mine, "Ana", 1)))
        me.start()
        out, err = friend.communicate(timeout=180)
        me.join(timeout=180)
        assert friend.returncode == 0, err
        theirs_final = json.loads(out)
        assert theirs_final["viewer"] == 1 and finals["mine"]["viewer"] == 0
        assert theirs_final["result"] == finals["mine"]["result"] is not None
        record = httpx.get(f"{base}/api/games/{game['id']}/record", timeout=10).json()
        assert record["players"][:2] == ["Ana", "Bea"]
        assert len(record["history"]) == theirs_final["version"]
