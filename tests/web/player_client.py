"""A player who opens an invite link and plays random legal moves to the end of the game.

Run as a program on another (network) host: `python player_client.py INVITE_URL NAME SEED`;
it prints the final view's result as JSON. Needs only httpx and websockets, no Tlatelolco.
"""

from __future__ import annotations

import json
import random
import sys
import time
from urllib.parse import urlsplit

import httpx
from websockets.sync.client import connect


def play(invite_url: str, name: str, seed: int, timeout: float = 120.0) -> dict:
    """Take the invite link's seat, then play it over the WebSocket until the game ends."""
    parts = urlsplit(invite_url)
    base = f"{parts.scheme}://{parts.netloc}"
    game_id = parts.path.rstrip("/").split("/")[-1]
    invite = dict(item.split("=", 1) for item in parts.fragment.split("&"))["invite"]
    claimed = httpx.post(f"{base}/api/games/{game_id}/claim", json={"name": name},
                         headers={"Authorization": f"Bearer {invite}"}, timeout=10)
    claimed.raise_for_status()
    token = claimed.json()["token"]  # the seat's own credential: the invite is used up
    rng = random.Random(seed)
    with connect(f"ws://{parts.netloc}/ws/games/{game_id}", open_timeout=10) as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        while True:
            message = json.loads(ws.recv(timeout=timeout))
            if message["type"] == "error":
                if message["status"] == 409:  # another view is on its way
                    continue
                if message["status"] == 429:  # too fast: the move was dropped, so ask again
                    time.sleep(0.5)
                    ws.send(json.dumps({"type": "sync"}))
                    continue
                raise RuntimeError(message["message"])
            if message["status"] == "finished":
                return message
            if message["legal"]:
                move = rng.choice(message["legal"])
                ws.send(json.dumps({"type": "action", "action": move["id"],
                                    "version": message["version"]}))


if __name__ == "__main__":
    final = play(sys.argv[1], sys.argv[2], int(sys.argv[3]))
    print(json.dumps({"viewer": final["viewer"], "result": final["result"],
                      "version": final["version"]}))
