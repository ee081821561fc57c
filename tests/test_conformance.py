"""Every registered game, at every allowed player count, passes the conformance suite."""

from __future__ import annotations

import pytest

from tlatelolco.contract import State
from tlatelolco.games.grand_bazaar import GrandBazaarGame, GrandBazaarState
from tlatelolco.testing import ConformanceError, check_game
from tlatelolco.testing.golden import configurations

GAMES_PER_CONFIGURATION = 200
# Mexica games are ~1,000 moves with ~1,000 legal actions each: fewer games, as many steps.
FEWER_GAMES = {"mexica": 24}
SHARDS = 4  # each configuration runs as several test cases so that xdist spreads the load


@pytest.mark.parametrize("shard", range(SHARDS))
@pytest.mark.parametrize("game", configurations(), ids=repr)
def test_conformance(game: GrandBazaarGame, shard: int) -> None:
    games = FEWER_GAMES.get(game.info.name, GAMES_PER_CONFIGURATION) // SHARDS
    report = check_game(game, games=games, seed=shard, thorough_every=10)
    assert report.games == games
    assert max(report.lengths) <= game.max_game_length()


@pytest.mark.parametrize("name, options", [
    ("aztec_market", {"num_players": 2, "setup": "random"}),
    ("aztec_market", {"num_players": 4, "setup": "random", "luck": False, "removed": 8}),
    ("aztec_market", {"num_players": 3, "removed": 76}),
    ("aztec_market", {"num_players": 2, "removed": 0, "luck": False}),
], ids=repr)
def test_conformance_with_options(name: str, options: dict[str, object]) -> None:
    check_game(name, games=20, seed=7, thorough_every=10, **options)


# --- the suite itself must catch broken games -----------------------------------------------


class SharedCloneState(GrandBazaarState):
    """A clone that shares its lists with the original: a classic engine bug."""

    __slots__ = ()

    def clone(self) -> State:
        new = super().clone()
        new._b = self._b  # type: ignore[attr-defined]
        return new


class MutatingRejectState(GrandBazaarState):
    """Rejects illegal actions only after half-applying them."""

    __slots__ = ()

    def illegal_reason(self, action: int) -> str | None:
        reason = super().illegal_reason(action)
        if reason is not None:
            self._history.append(-99)
        return reason


class UnsortedLegalState(GrandBazaarState):
    __slots__ = ()

    def legal_actions(self) -> list[int]:
        return sorted(super().legal_actions(), reverse=True)


class CaseSensitiveParseState(GrandBazaarState):
    """Parses only lower-case text, as Mexica's parse_action once did (regression)."""

    __slots__ = ()

    def parse_action(self, text: str) -> int | None:
        return self._parse_action(text)


def _broken_game(state_class: type[GrandBazaarState]) -> GrandBazaarGame:
    class Broken(GrandBazaarGame):
        def new_initial_state(self) -> GrandBazaarState:
            return state_class(self)

    return Broken(num_players=2)


@pytest.mark.parametrize("state_class, check", [
    (SharedCloneState, "clone"),
    (MutatingRejectState, "illegal_action"),
    (UnsortedLegalState, "legal_actions"),
    (CaseSensitiveParseState, "parse_action"),
])
def test_conformance_catches_broken_games(state_class: type[GrandBazaarState], check: str
                                          ) -> None:
    with pytest.raises(ConformanceError, match=rf"seed \d+, step \d+: \[{check}\]"):
        check_game(_broken_game(state_class), games=2, seed=0)
