"""A finished game's review in a real browser (Debian's Chromium driven by Playwright), per game.

A game played by bots (greedy against random, with a seed whose review has a flagged move at
the test's small budget) is stored as a finished game of the server; its page offers Review,
its replay page computes it ("n % done"), then draws the chart: one line per seat, a click on
a point moves the replay there, a flagged move is marked in the chart and the log, and its
better move is shown on the board as an alternative, with a way back. The pages run under the
server's Content-Security-Policy (no eval: the waits are string functions).
With TLATELOLCO_SCREENSHOTS=1 the review with a flagged move's alternative on the board is
saved to docs/screenshots/review-<game>.png for the README.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

import pytest
from tests.web.apps import live_server
from tests.web.browsers import browser
from tests.web.test_browser import csp_violations

from tlatelolco import load, play_match
from tlatelolco.contract import CHANCE
from tlatelolco.records import result_of
from tlatelolco.web.storage.db import make_engine
from tlatelolco.web.storage.store import GameRow, SeatRow, Store

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
ITERATIONS = 16  # search iterations per decision: a quick review, flags from its noise too
# a seed per game whose greedy-against-random game has a flagged move at that budget
SEEDS = {"grand_bazaar": 1, "aztec_market": 1, "axio": 21, "mexica": 1}
__all__ = ["browser"]  # the shared fixture, used here


def plant_game(db: str, game: str, seed: int) -> str:
    """Store a finished game of `game` played by greedy (seat 0) against random (seat 1)
    with `seed` as a game of the server (bot seats, not listed); its id."""
    record = play_match(load(game, num_players=2), ["greedy", "random"], seed=seed)
    state = load(game, **record["options"]).new_initial_state()
    steps = []
    for action in record["history"]:
        steps.append((action, CHANCE if state.is_chance_node() else state.current_player()))
        state.apply_action(action)
    game_id = secrets.token_urlsafe(6)
    store = Store(make_engine(db))
    store.create_game(GameRow(
        id=game_id, game=game, options=record["options"], seed="0", status="finished",
        version=0, listed=False, seats=[SeatRow(0, "bot", "Greedy bot 0", bot="greedy"),
                                        SeatRow(1, "bot", "Random bot 1", bot="random")]))
    assert store.commit_actions(game_id, 0, steps, "finished", result_of(state))
    store.engine.dispose()
    return game_id


def wait(page: Any, condition: str, timeout: float = 60_000) -> None:
    page.wait_for_function(f"() => {{ {condition} }}", timeout=timeout)


@pytest.mark.parametrize("game", list(SEEDS))
def test_review_a_finished_game_in_the_browser(browser, tmp_path, game):
    with live_server(tmp_path, review_iterations=ITERATIONS, review_workers=1) as base:
        game_id = plant_game(f"sqlite:///{tmp_path / 'live.db'}", game, SEEDS[game])
        # tall enough for the whole page: a full-page screenshot that has to grow the viewport
        # lets Chromium scroll the move log
        page = browser.new_page(viewport={"width": 1360, "height": 2300})
        errors: list[str] = []
        page.on("pageerror", lambda err: errors.append(str(err)))
        violations = csp_violations(page)
        # the finished game's page offers the review, which lives on the replay page
        page.goto(f"{base}/games/{game_id}")
        page.wait_for_selector("#review-link")
        assert page.locator("#review-link").get_attribute("href") == \
            f"/games/{game_id}/replay?review=1"
        page.goto(f"{base}/games/{game_id}/replay")
        wait(page, "const v = window.TlatelolcoPage.view; return v && v.type === 'replay';")
        length = page.evaluate("window.TlatelolcoPage.view.length")
        page.click("#review-button")
        # progress while it is computed (the server's answer: queued, running, then done)
        wait(page, "const s = document.getElementById('review-status');"
                   " return s && /^Review (queued \\(position 1\\)|: \\d+ % done)$/"
                   ".test(s.textContent);")
        wait(page, "return !!document.getElementById('review-chart');", 120_000)
        review = page.evaluate("window.TlatelolcoReview.answer.review")
        assert review["game"] == game and review["settings"]["iterations"] == ITERATIONS
        # one line per seat, in the seat's colour; a point per decision and the end per seat
        lines = page.locator("#review-chart polyline.seat-line")
        assert lines.count() == 2
        colours = page.evaluate("window.Tlatelolco.SEAT_COLOURS.slice(0, 2)")
        assert [lines.nth(i).get_attribute("stroke") for i in range(2)] == colours
        points = page.locator("#review-chart circle.point")
        assert points.count() == 2 * (len(review["decisions"]) + 1)
        assert page.locator("#review-summary tbody tr").count() == 2
        # the flagged moves: in the chart, in the move log (the replay is at the end: whole log)
        flagged = [d for d in review["decisions"] if d["label"]]
        assert flagged, f"seed {SEEDS[game]} gives no flagged move in {game}: pick another"
        assert page.locator("#review-chart .flag").count() == len(flagged)
        marked = page.locator("#log li.review-mistake, #log li.review-blunder")
        assert marked.count() == len(flagged)
        assert marked.first.locator(".review-mark").text_content() in ("?", "??")
        # a click on a point (a decision where the lines lie apart, no flag near) moves there
        target = next(d for d in review["decisions"][len(review["decisions"]) // 3:]
                      if abs(d["before"][0] - d["before"][1]) > 0.1
                      and all(abs(d["step"] - f["step"]) > 4 for f in flagged))
        assert target["step"] != length
        page.locator(f"#review-chart circle.point.seat-0[data-step='{target['step']}']").click()
        wait(page, f"return window.TlatelolcoPage.view.version === {target['step']};")
        assert page.locator("#turn").text_content().startswith(f"Step {target['step']} of")
        assert "Played:" in page.locator("#review-detail").text_content()
        # a flagged move: the chart's mark goes to its position; its better move on the board
        flag = flagged[0]
        page.locator(f"#review-chart .flag[data-step='{flag['step']}']").click()
        wait(page, f"return window.TlatelolcoPage.view.version === {flag['step']};")
        better = page.locator("#review-better")
        assert better.text_content().startswith(f"Better: {flag['best_words']}")
        page.click("#review-show-better")
        wait(page, "const v = window.TlatelolcoPage.view; return v.alternative &&"
                   f" v.alternative.action === {flag['best']};")
        assert page.locator("#board.alternative").count() == 1
        note = page.locator("#alternative")
        assert note.is_visible() and "Not played in the game" in note.text_content()
        assert flag["best_words"] in note.text_content()
        assert page.locator("#log li.alternative").count() == 1
        if os.environ.get("TLATELOLCO_SCREENSHOTS"):
            SHOTS.mkdir(parents=True, exist_ok=True)
            bottom = page.evaluate("document.querySelector('main').getBoundingClientRect()"
                                   ".bottom")
            page.screenshot(path=str(SHOTS / f"review-{game}.png"),
                            clip={"x": 0, "y": 0, "width": 1360, "height": bottom + 16})
        # and back to the game as it was played
        page.click("#review-back")
        wait(page, "const v = window.TlatelolcoPage.view; return !v.alternative &&"
                   f" v.version === {flag['step']};")
        assert page.locator("#board.alternative").count() == 0
        assert note.is_hidden()
        assert errors == [], errors
        assert violations == [], violations
        page.close()
