"""The Mexica greedy bot: legal, deterministic, sensible on hand-built positions, and strong."""

from __future__ import annotations

import pytest

import tlatelolco
from tlatelolco.bots import bot_names, make_bot
from tlatelolco.bots.evaluate import head_to_head
from tlatelolco.bots.greedy.mexica import MexicaGreedy
from tlatelolco.bots.greedy.mexica_routes import cover, grow
from tlatelolco.contract import Game
from tlatelolco.games.mexica import City, MexicaState, rules
from tlatelolco.games.mexica.actions import END, K_FOUND, decode
from tlatelolco.games.mexica.board import IS_LAKE, NAMES, NEIGHBOURS, STARTING, parse_square
from tlatelolco.games.mexica.city import PLAYING
from tlatelolco.games.mexica.components import SIZES
from tlatelolco.testing.bots import check_bot_in_random_play


def game(num_players: int = 3) -> Game:
    return tlatelolco.load("mexica", num_players=num_players)


def sq(name: str) -> int:
    square = parse_square(name)
    assert square is not None, name
    return square


# --- hand-built positions ---------------------------------------------------------------------

# East of the started canal: 22 squares (Q7..V10) that three canal squares cut off.
EAST_CUT = ("Q6", "Q11", "R11")


def ring(*names: str) -> list[str]:
    """The land squares around a region: digging them all makes the region an area."""
    region = {sq(n) for n in names}
    return sorted({NAMES[n] for s in region for n in NEIGHBOURS[s]
                   if n not in region and not IS_LAKE[n]})


def position(mexica: list[str], tiles: list[int], *, dig: tuple[str, ...] | list[str] = (),
             buildings: tuple[tuple[str, int, int], ...] = (),
             districts: tuple[tuple[str, int], ...] = ()) -> City:
    """Seat 0 of 3 to move with 6 AP, past its first turn: Mexica on `mexica` squares, the
    part-1 tiles `tiles` face up (none face down), canals on `dig` (from the double supply),
    `buildings` (square, seat, levels) taken from their owners' supplies, calpulli tiles
    `districts` (square, size)."""
    city = rules.set_up(3)
    city.face_down = [0] * len(SIZES)
    city.available = [0] * len(SIZES)
    for size in tiles:
        city.available[size - SIZES[0]] += 1
    city.mexica = [sq(m) for m in mexica]
    for name in dig:
        city.canal[sq(name)] = 1
    city.doubles -= (len(dig) + 1) // 2
    for name, seat, levels in buildings:
        city.building[sq(name)] = seat * 4 + levels
        city.supply[seat][levels - 1] -= 1
    for name, size in districts:
        city.tile[sq(name)] = size
    city.phase, city.player, city.ap, city.turns = PLAYING, 0, 6, [1, 1, 1]
    rules.derive(city)
    return city


def play_turn(city: City, seed: int = 0) -> tuple[MexicaState, list[int]]:
    """Let the bot play seat 0's whole turn; the state after it and the actions taken."""
    state = game().state_from_position(city)
    assert isinstance(state, MexicaState)
    bot = MexicaGreedy(state.get_game(), 0, seed)
    actions = []
    while state.current_player() == 0:
        action = bot.step(state)
        assert action in state.legal_actions()
        actions.append(action)
        state.apply_action(action)
        assert len(actions) < 40
    assert actions[-1] == END
    return state, actions


def test_greedy_founds_an_area_that_matches_a_tile() -> None:
    region = ("U7", "V7", "U8", "V8", "V9")
    city = position(["U8", "I7", "I9"], [5], dig=ring(*region))
    assert city.area_size[city.area[sq("U8")]] == 5
    state, actions = play_turn(city)
    kind, size, square, _ = decode(actions[0])
    assert (kind, size) == (K_FOUND, 5)  # founding is free: first thing
    assert state.city.tile[square] == 5 and square != sq("U8")
    assert state.city.scores == [3, 0, 0]  # the middle number of a 5


def test_greedy_cuts_a_district_to_size_and_founds_it() -> None:
    """22 squares around the Mexica and only a 13 to place: canals cut it to 13, then found."""
    city = position(["U8", "I7", "I9"], [13], dig=EAST_CUT)
    assert city.area_size[city.area[sq("U8")]] == 22
    state, actions = play_turn(city)
    after = state.city
    founded = [decode(a) for a in actions if decode(a)[0] == K_FOUND]
    assert [f[1] for f in founded] == [13]
    assert after.scores[0] >= 7  # the middle number of a 13
    ident = after.area[founded[0][2]]
    assert after.area_size[ident] == 13 and after.area_tile[ident] == 13


def test_greedy_builds_to_lead_the_district_it_stands_in() -> None:
    """A founded 5 where a rival has 2 levels: the bot ends its turn leading it."""
    region = ("U7", "V7", "U8", "V8", "V9")
    city = position(["U8", "I7", "I9"], [], dig=ring(*region), buildings=(("V9", 1, 2),),
                    districts=(("U7", 5),))
    state, _ = play_turn(city)
    after = state.city
    ident = after.area[sq("U8")]
    mine = sum(after.levels_at(s) for s in range(len(after.building))
               if after.area[s] == ident and after.owner_at(s) == 0)
    assert mine > 2


def test_greedy_goes_home_before_a_scoring() -> None:
    """No tile left and a rival has built everything: the part ends with this round, so the
    bot ends its turn on a starting square (+5)."""
    city = position(["L8", "I7", "I6"], [])
    city.supply[1] = [0, 0, 0, 0]
    rules.derive(city)
    state, _ = play_turn(city)
    assert state.city.mexica[0] in STARTING


def test_grown_regions_are_cut_off_by_their_canals() -> None:
    """Every region `grow` offers, dug along its border by `cover`, is an area of its size."""
    city = position(["T8", "I7", "I9"], [13], dig=EAST_CUT)
    ident = city.area[sq("T8")]
    edges = [0] * len(city.canal)
    regions = grow(city, edges, sq("T8"), ident, set(range(3, 14)), sq("T8"))
    assert len(regions) > 5
    for size, (region, border) in regions.items():
        tiles = cover(city, region, border, ident, sq("T8"))
        if tiles is None:
            continue
        after = city.copy()
        for action in tiles:
            assert rules.why_illegal(after, action) is None
            rules.apply(after, action)
        assert after.area_size[after.area[sq("T8")]] == size
        assert {s for s in range(len(after.area)) if after.area[s] == after.area[sq("T8")]} \
            == set(region)


# --- always legal, deterministic --------------------------------------------------------------

@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_greedy_answers_legally_where_random_play_goes(num_players: int) -> None:
    g = game(num_players)
    bots = [MexicaGreedy(g, seat, seed=seat) for seat in range(num_players)]
    assert check_bot_in_random_play(g, bots, games=1, seed=num_players) > 0


@pytest.mark.parametrize("num_players", [2, 4])
def test_greedy_plays_only_legal_actions_in_whole_games(num_players: int) -> None:
    g = game(num_players)
    bots = ["greedy"] * num_players  # the match runner raises on an illegal action
    record = tlatelolco.play_match(g, bots, seed=num_players)
    assert record["result"] is not None


def test_greedy_is_deterministic_for_a_seed() -> None:
    g = game(3)
    first = tlatelolco.play_match(g, ["greedy", "random", "random"], seed=5)
    second = tlatelolco.play_match(g, ["greedy", "random", "random"], seed=5)
    assert first["history"] == second["history"]
    state = g.replay(first["history"][:60])
    seat = state.current_player()
    one, two = make_bot("greedy", g, seat, 7), make_bot("greedy", g, seat, 7)
    assert one.step(state) == two.step(state.clone())


def test_greedy_is_registered_and_takes_parameters() -> None:
    g = game(3)
    assert "greedy" in bot_names(g)
    assert isinstance(make_bot("greedy", g, 1, 0), MexicaGreedy)
    tuned = make_bot("greedy:ap=0.5,rivals=1,opportunity=0", g, 0, 0)
    assert isinstance(tuned, MexicaGreedy)
    assert (tuned.ap_cost, tuned.rivals, tuned.opportunity) == (0.5, 1.0, 0.0)
    with pytest.raises(ValueError, match="no parameter"):
        make_bot("greedy:depth=2", g, 0, 0)
    with pytest.raises(ValueError, match="between 0 and 1"):
        make_bot("greedy:rivals=2", g, 0, 0)


# --- strong -----------------------------------------------------------------------------------

def test_greedy_beats_random_at_three() -> None:
    """One greedy seat against two random ones, seats rotated (a short run: the bot's
    measurements use 100 games and more)."""
    result = head_to_head("mexica", "greedy", "random", games=40, seed=11, num_players=3)
    assert result["win_share"] >= 0.9, result
