"""The lobby's data: the game lists tell when a game began, when it ended and who won, in UTC
times a browser reads right; and the lobby page's text is all translatable and translated.

The page itself, in a browser: tests/web/test_browser_lobby.py.
"""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po
from tests.web.apps import auth, create, serve, view, wait_for

from tlatelolco.i18n import JS_KEYWORDS, LOCALE
from tlatelolco.web.http.api import winners
from tlatelolco.web.storage.store import GameRow, SeatRow

STATIC = Path(__file__).resolve().parents[2] / "src" / "tlatelolco" / "web" / "static"
LOBBY_PO = LOCALE / "es" / "LC_MESSAGES" / "lobby.po"


@pytest.fixture
def client(tmp_path):
    with serve(tmp_path) as client:
        yield client


def listed(client, status: str) -> dict[str, dict]:
    response = client.get(f"/api/games?status={status}")
    assert response.status_code == 200, response.text
    return {g["id"]: g for g in response.json()}


def stamp(text: str) -> dt.datetime:
    moment = dt.datetime.fromisoformat(text)
    assert moment.tzinfo is not None and moment.utcoffset() == dt.timedelta(0), text
    return moment


def first_mover(client, game_id: str, tokens: list[str]) -> tuple[str, dict]:
    for token in tokens:
        current = view(client, game_id, token)
        if current["legal"]:
            return token, current
    raise AssertionError("nobody to move")


# --- the listing ---------------------------------------------------------------------------------
def test_a_finished_game_is_listed_with_its_winners_and_when_it_ended(client):
    game = create(client, "grand_bazaar", ["bot:random", "bot:random"], num_players=2)
    wait_for(lambda: client.get(f"/api/games/{game['id']}").json()["status"] == "finished",
             timeout=120, what="the bots to finish")
    entry = listed(client, "finished")[game["id"]]
    returns = entry["result"]["returns"]
    best = max(returns)
    assert entry["winners"] == [s["name"] for s in entry["seats"] if returns[s["seat"]] == best]
    assert entry["winners"]  # somebody won, or several shared it
    assert stamp(entry["finished_at"]) == stamp(entry["updated_at"])
    assert stamp(entry["created_at"]) <= stamp(entry["started_at"]) <= stamp(entry["finished_at"])
    assert entry["game"] == "grand_bazaar" and entry["version"] > 0  # the summary is all there


def test_an_open_game_has_not_started_and_nobody_won(client):
    game = create(client, "axio", ["taken", "open"], num_players=2)
    entry = listed(client, "open")[game["id"]]
    assert entry["started_at"] is None and entry["finished_at"] is None
    assert entry["winners"] == []
    assert stamp(entry["created_at"]) <= stamp(entry["updated_at"])


def test_a_running_game_started_with_its_first_move_not_with_the_opening_shuffle(client):
    game = create(client, "grand_bazaar", ["taken", "taken"], num_players=2)
    gid, tokens = game["id"], [s["token"] for s in game["seats"]]
    assert client.get(f"/api/games/{gid}").json()["version"] > 0  # chance moved already
    store = client.app.state.hub.service.store
    assert store.first_moves([gid]) == {}
    before = listed(client, "running")[gid]
    # nobody moved yet: it began when its seats were filled
    assert before["started_at"] == before["updated_at"]
    assert before["finished_at"] is None and before["winners"] == []

    token, current = first_mover(client, gid, tokens)
    response = client.post(f"/api/games/{gid}/actions", headers=auth(token), json={
        "version": current["version"], "action": current["legal"][0]["id"]})
    assert response.status_code == 200, response.text
    moved = store.first_moves([gid])[gid]
    after = listed(client, "running")[gid]
    started = stamp(after["started_at"])
    assert started == (moved if moved.tzinfo else moved.replace(tzinfo=dt.UTC))
    assert stamp(after["created_at"]) <= started <= stamp(after["updated_at"])
    assert store.first_moves([]) == {} and store.first_moves(["nosuchgame"]) == {}


def row(returns: list[float] | None, names: list[str]) -> GameRow:
    return GameRow(id="g", game="aztec_market", options={}, seed="", status="finished",
                   version=9, listed=True,
                   seats=[SeatRow(seat=i, kind="human", name=n) for i, n in enumerate(names)],
                   result=None if returns is None else {"returns": returns, "scores": returns})


@pytest.mark.parametrize(("returns", "expected"), [
    ([0.0, 1.0, 0.0], ["Bea"]),
    ([0.5, 0.0, 0.5, 0.0], ["Ana", "Cy"]),  # partners share the win
    ([1 / 3, 1 / 3, 1 / 3], ["Ana", "Bea", "Cy"]),  # a three-way tie
    (None, []),  # not over
])
def test_the_winners_are_the_seats_with_the_best_result(returns, expected):
    names = ["Ana", "Bea", "Cy", "Dee"][:len(returns or [1, 2])]
    assert winners(row(returns, names)) == expected


# --- the page's text -----------------------------------------------------------------------------
def lobby_messages() -> dict[str | tuple[str, str], int]:
    """The messages lobby.js marks, with the line of each."""
    found = extract_from_file("javascript", str(STATIC / "lobby.js"), keywords=JS_KEYWORDS)
    return {tuple(m) if isinstance(m, list | tuple) else m: line for line, m, _, _ in found}


def test_every_static_text_of_the_page_is_marked_in_the_script():
    """Babel reads no HTML: each data-i18n text must be written out as t("...") in lobby.js
    (its pageText table) to reach the catalogue."""
    page = (STATIC / "lobby.html").read_text(encoding="utf-8")
    keys = re.findall(r'data-i18n="([^"]+)"', page)
    assert len(keys) >= 10
    marked = lobby_messages()
    assert [k for k in keys if k not in marked] == []
    # and the element shows that very text before the script runs (English without script)
    for key in keys:
        assert f'data-i18n="{key}">{key}<' in page, key


def test_the_spanish_catalogue_translates_every_message_of_the_lobby():
    with LOBBY_PO.open("rb") as f:
        catalogue = read_po(f, locale="es")
    assert catalogue.num_plurals == 2
    header = LOBBY_PO.read_text(encoding="utf-8")
    assert '"Language: es\\n"' in header and "charset=UTF-8" in header
    translated = {}
    for message in catalogue:
        if message.id:
            key = tuple(message.id) if isinstance(message.id, list | tuple) else message.id
            translated[key] = message.string
    missing = []
    for key in lobby_messages():
        text = translated.get(key)
        forms = text if isinstance(text, list | tuple) else [text]
        if not all(forms) or (isinstance(key, tuple) and len(forms) != 2):
            missing.append(key)
    assert missing == []
    # the fields of every translation are those of its English
    for key, text in translated.items():
        english = " ".join(key) if isinstance(key, tuple) else key
        spanish = " ".join(text) if isinstance(text, list | tuple) else text
        assert set(re.findall(r"\{\w+\}", english)) == set(re.findall(r"\{\w+\}", spanish)), key
