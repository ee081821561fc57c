"""The arena's schedule: seats rotated fairly, partnerships kept, seeds reproducible, bad input
refused with a message saying what is allowed."""

from __future__ import annotations

from collections import Counter
from itertools import combinations, pairwise

import pytest

from tlatelolco.arena.schedule import Match, balanced_square, schedule


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 6])
def test_balanced_square_puts_each_symbol_in_each_column_and_after_each_other(n: int) -> None:
    rows = balanced_square(n)
    assert len(rows) == (n if n % 2 == 0 else 2 * n) or n == 1
    for row in rows:
        assert sorted(row) == list(range(n))
    for column in range(n):
        assert len(set(Counter(row[column] for row in rows).values())) == 1
    follows = Counter(pair for row in rows for pair in pairwise(row))
    if n > 1:
        assert len(follows) == n * (n - 1)
        assert len(set(follows.values())) == 1


def seat_counts(matches: list[Match]) -> Counter[tuple[str, int]]:
    return Counter((bot, seat) for m in matches for seat, bot in enumerate(m.bots))


@pytest.mark.parametrize(("game", "bots", "players", "cycle"), [
    ("grand_bazaar", ["A", "B"], 2, 2),          # A-B, B-A
    ("grand_bazaar", ["A", "B", "C"], 3, 6),     # every order of three
    ("grand_bazaar", ["A", "B", "C", "D"], 4, 4),
    ("grand_bazaar", ["A", "B"], 3, 12),         # fewer bots than seats: A,A,B and A,B,B
    ("grand_bazaar", ["A", "B"], 4, 4),
    ("grand_bazaar", ["A", "B", "C", "D"], 2, 12),  # more bots than seats: every pair meets
    ("grand_bazaar", ["A", "B", "C", "D", "E"], 3, 60),
    ("aztec_market", ["A", "B"], 4, 2),          # two partnerships
    ("aztec_market", ["A", "B", "C"], 4, 6),
])
def test_every_bot_sits_in_every_seat_equally_often(game: str, bots: list[str], players: int,
                                                     cycle: int,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("tlatelolco.arena.schedule.check_bots", lambda _game, specs: specs)
    matches = schedule(game, bots, cycle * 2, players, seed=5)
    counts = seat_counts(matches)
    for bot in bots:
        per_seat = {counts[bot, seat] for seat in range(players)}
        assert len(per_seat) == 1 and per_seat != {0}, (bot, counts)
    played = Counter(b for m in matches for b in set(m.bots))
    seats = Counter(b for m in matches for b in m.bots)
    assert len(set(played.values())) == 1  # every bot plays as many games
    assert len(set(seats.values())) == 1  # and holds as many seats
    if len(bots) > players:  # every pair meets, and every choice of bots comes early
        met = {frozenset(p) for m in matches for p in combinations(set(m.bots), 2)}
        assert met == {frozenset(p) for p in combinations(bots, 2)}
        choices = list(combinations(bots, players))
        assert {frozenset(m.bots) for m in matches[:len(choices)]} == set(map(frozenset,
                                                                             choices))
    assert [m.index for m in matches] == list(range(cycle * 2))


def test_partners_get_the_same_bot() -> None:
    matches = schedule("aztec_market", ["greedy", "random"], 6, 4, seed=1)
    for m in matches:  # Aztec Market's sides with 4 players: seats 0 and 2, seats 1 and 3
        assert m.bots[0] == m.bots[2] and m.bots[1] == m.bots[3] and m.bots[0] != m.bots[1]
    assert [m.bots[0] for m in matches] == ["greedy", "random"] * 3


def test_two_bots_alternate_seats() -> None:
    matches = schedule("grand_bazaar", ["greedy", "random"], 4, 2, seed=1)
    assert [m.bots for m in matches] == [("greedy", "random"), ("random", "greedy")] * 2
    assert all(m.game == "grand_bazaar" and m.num_players == 2 for m in matches)


def test_the_same_seed_gives_the_same_matches_and_another_seed_other_seeds() -> None:
    first = schedule("axio", ["greedy", "random"], 10, 2, seed=3)
    assert first == schedule("axio", ["greedy", "random"], 10, 2, seed=3)
    other = schedule("axio", ["greedy", "random"], 10, 2, seed=4)
    assert [m.bots for m in other] == [m.bots for m in first]
    assert {m.seed for m in other}.isdisjoint({m.seed for m in first})
    assert len({m.seed for m in first}) == 10
    assert all(0 <= m.seed < 2**63 for m in first)
    assert hash(first[0]) == hash(schedule("axio", ["greedy", "random"], 1, 2, seed=3)[0])


def test_options_are_validated_and_stored_with_their_defaults() -> None:
    [match] = schedule("aztec_market", ["random"], 1, 2, seed=0,
                       options={"setup": "random", "removed": "40"})
    assert dict(match.options)["setup"] == "random"
    assert dict(match.options)["removed"] == 40
    assert "luck" in dict(match.options)
    assert match.load().options["removed"] == 40


def test_sighted_bots_are_marked_in_every_match_with_their_seats() -> None:
    matches = schedule("axio", ["greedy", "random"], 4, 2, 0, sighted=[" greedy"])
    assert all(m.sighted == ("greedy",) for m in matches)
    assert [m.sighted_seats() for m in matches] == [(m.bots.index("greedy"),) for m in matches]
    assert {m.sighted_seats() for m in matches} == {(0,), (1,)}  # it sits in both seats
    assert all(m.sighted == () for m in schedule("axio", ["greedy", "random"], 2, 2, 0))


@pytest.mark.parametrize(("kwargs", "words"), [
    ({"game": "chess"}, ["unknown game 'chess'", "grand_bazaar"]),
    ({"bots": ["greedy", "alphazero"]}, ["'alphazero'", "allowed: random, greedy"]),
    ({"bots": ["random:depth=3"]}, ["has no parameter 'depth'", "allowed: none"]),
    ({"bots": ["greedy:depth"]}, ["not key=value"]),
    ({"bots": []}, ["at least one bot"]),
    ({"bots": ["greedy", "greedy"]}, ["given twice"]),
    ({"games": 0}, ["at least 1"]),
    ({"players": 9}, ["played by 2 to 7 players", "not 9"]),
    ({"players": 1}, ["played by 2 to 7 players"]),
    ({"options": {"num_players": 3}}, ["players"]),
    ({"options": {"colour": "red"}}, ["unknown option 'colour'"]),
    ({"sighted": ["greedy"]}, ["grand_bazaar hides nothing", "hidden information"]),
    ({"game": "axio", "sighted": ["mcts"]}, ["sighted bot 'mcts'", "greedy, random"]),
])
def test_bad_input_says_what_is_allowed(kwargs: dict, words: list[str]) -> None:
    args = {"game": "grand_bazaar", "bots": ["greedy", "random"], "games": 4, "players": 2,
            "seed": 0, **kwargs}
    with pytest.raises(ValueError) as err:
        schedule(**args)
    for word in words:
        assert word in str(err.value)
