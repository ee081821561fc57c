"""One test (or more) per rule and ruling of the Aztec Market digest, named by its id."""

from __future__ import annotations

import random

import pytest
from tests.aztec_market.positions import (
    BLACK,
    BLUE,
    GREEN,
    RED,
    STANDARD,
    buy,
    free,
    grid,
    market,
    paid,
    sq,
    state_at,
)

import tlatelolco
from tlatelolco import CHANCE, IllegalActionError
from tlatelolco.games.aztec_market import rules
from tlatelolco.games.aztec_market.components import (
    COIN,
    DRAW,
    END_TURN,
    KING_BUYS,
    KING_SKIPS,
    LINES,
    MOVE,
    PASS,
    PLACE,
    PLAY,
    SQUARE_NAMES,
    TEAMS,
    TILE_COUNTS,
)
from tlatelolco.games.aztec_market.market import (
    BUILD,
    CHOOSE,
    OVER,
    PASS_COIN,
    PASS_KING,
    PASS_MOVES,
    RESTOCK,
    START_COIN,
)

# --- AM-1 components ----------------------------------------------------------------------------


def test_am1_components() -> None:
    assert sum(TILE_COUNTS) == 15
    assert TILE_COUNTS[:4] == (1, 1, 1, 1)  # one vendor per colour
    assert TILE_COUNTS[4:] == (4, 2, 2, 1, 1, 1)  # crowds, porters, governors, amb., boy, king
    m = rules.set_up(4, removed=0, luck=True, random_market=False)
    assert m.unseen == [20, 20, 20, 20] and m.reserve == 16 and len(m.coins) == 16


# --- AM-2 geometry and seats -------------------------------------------------------------------


def _names(line: tuple[int, ...]) -> list[str]:
    return [SQUARE_NAMES[s] for s in line]


def test_am2_each_buyer_looks_along_its_line_from_its_side() -> None:
    south, west, north, east = LINES
    assert _names(south[1]) == ["B1", "B2", "B3", "B4"]
    assert _names(north[1]) == ["B4", "B3", "B2", "B1"]
    assert _names(west[2]) == ["A3", "B3", "C3", "D3"]
    assert _names(east[2]) == ["D3", "C3", "B3", "A3"]


def test_am2_seats_and_teams_by_player_count() -> None:
    assert TEAMS[2] == ((0,), (1,))  # South and West: side by side, never opposite
    assert TEAMS[3] == ((0,), (1,), (2,))
    assert TEAMS[4] == ((0, 2), (1, 3))  # partners opposite
    assert tlatelolco.load("aztec_market", num_players=4).teams() == ((0, 2), (1, 3))
    view = tlatelolco.load("aztec_market", num_players=2).new_initial_state().observation(0)
    assert [p["side"] for p in view["players"]] == ["South", "West"]


# A red vendor at B3 with a crowd on one side of it: who can buy depends on the side.
CROSS = """
    Po Go Am Cr
    Cr Rd Cr Bk
    Go Po Eb Ki
    Cr .. Bl Gn
"""


def test_am2_between_for_each_side() -> None:
    m = market(4, CROSS, vendor_goods=[3, 3, 3, 3], coins=[1] * 16)
    # West 3 looks A3 (crowd) first: blocked. East 3 looks D3 (black vendor), C3 (crowd): blocked.
    assert "crowd stands between W3" in rules.why_cannot_buy(m, 1, 2, RED)
    assert "crowd stands between E3" in rules.why_cannot_buy(m, 3, 2, RED)
    # East 3 can buy black at D3: nothing is between.
    assert rules.why_cannot_buy(m, 3, 2, BLACK) is None
    # A crowd behind the vendor does not matter: South 2 buys red, the crowd at... none on B.
    assert rules.why_cannot_buy(m, 0, 1, RED) is None
    assert rules.between(m, 0, 1, RED) == (10, 5)  # the hole, then a porter
    assert "not on S1's line" in rules.why_cannot_buy(m, 0, 0, RED)


# --- AM-3 set-up --------------------------------------------------------------------------------


def test_am3_players_build_the_market_in_turn_from_the_start_player() -> None:
    state = tlatelolco.load("aztec_market", num_players=3).new_initial_state()
    assert state.market.phase == BUILD
    seats = []
    rng = random.Random(1)
    while state.market.phase == BUILD:
        seats.append(state.current_player())
        state.apply_action(rng.choice(state.legal_actions()))
    assert seats == [i % 3 for i in range(15)]
    m = state.market
    assert m.layout.count(10) == 1 and m.hole == m.layout.index(10)
    assert m.phase == START_COIN


def test_am3_any_unplaced_tile_on_any_empty_square() -> None:
    state = tlatelolco.load("aztec_market", num_players=2).new_initial_state()
    assert len(state.legal_actions()) == 10 * 16  # every kind on every square
    state.apply_action(state.string_to_action("place king at A1"))
    with pytest.raises(IllegalActionError, match="already taken"):
        state.apply_action(PLACE + 4 * 16 + sq("A1"))
    with pytest.raises(IllegalActionError, match="already on the market"):
        state.apply_action(PLACE + 9 * 16 + sq("B1"))  # a second king


def test_am3_random_set_up_option_lays_the_market_by_chance() -> None:
    state = tlatelolco.load("aztec_market", setup="random").new_initial_state()
    rng = random.Random(2)
    steps = 0
    while state.current_player() == CHANCE:
        outcomes = state.chance_outcomes()
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        actions, odds = zip(*outcomes, strict=True)
        state.apply_action(rng.choices(actions, odds)[0])
        steps += 1
    assert steps == 16 and state.market.phase == START_COIN
    assert sorted(t for t in state.market.layout if t != 10) == sorted(
        k for k, n in enumerate(TILE_COUNTS) for _ in range(n))


def test_am3_each_player_chooses_the_buyer_for_their_start_coin() -> None:
    m = market(3, phase=START_COIN, player=0)
    m.reserve = 16
    state = state_at(m)
    for seat, name in enumerate(["coin on S2", "coin on W4", "coin on N1"]):
        assert state.current_player() == seat
        assert len(state.legal_actions()) == 4
        state.apply_action(state.string_to_action(name))
    m = state.market
    assert m.coins[1] == m.coins[4 + 3] == m.coins[8] == 1 and sum(m.coins) == 3
    assert m.reserve == 13 and m.phase == CHOOSE


@pytest.mark.parametrize("removed", [6, 2, -4, 80])
def test_am3_removed_must_be_a_multiple_of_four(removed: int) -> None:
    with pytest.raises(ValueError, match=r"removed=.*allowed"):
        tlatelolco.load("aztec_market", removed=removed)


def test_am3_removed_goods_are_unseen_or_removed_openly_without_luck() -> None:
    lucky = tlatelolco.load("aztec_market", removed=8).new_initial_state().market
    assert lucky.unseen == [20] * 4 and lucky.hidden_removed == 8 and lucky.bag() == 72
    fair = tlatelolco.load("aztec_market", removed=8, luck="false").new_initial_state().market
    assert fair.unseen == [18] * 4 and fair.removed == [2] * 4 and fair.bag() == 72
    none = tlatelolco.load("aztec_market", removed=0, luck=False).new_initial_state().market
    assert none.bag() == 80
    with pytest.raises(ValueError, match="luck="):
        tlatelolco.load("aztec_market", luck="maybe")


def test_am3_ruling_unseen_removal_gives_the_same_odds_as_removing_first() -> None:
    """Drawing from all unseen goods and stopping N early is removing N unseen goods first."""
    m = market(2, phase=CHOOSE, unseen=[1, 1, 0, 0], hidden_removed=1)
    assert m.bag() == 1
    state = state_at(m)
    state.apply_action(PASS)
    assert state.chance_outcomes() == [(DRAW + BLACK, 0.5), (DRAW + BLUE, 0.5)]
    state.apply_action(DRAW + BLUE)
    assert state.market.bag() == 0 and state.market.phase == PASS_MOVES


# --- AM-4 a turn: PASS or PLAY -----------------------------------------------------------------


def test_am4_a_turn_is_pass_or_play() -> None:
    m = market(2, phase=CHOOSE, vendor_goods=[0, 0, 3, 0], coins=[0, 0, 1, 0] + [0] * 4)
    state = state_at(m)
    assert state.legal_action_strings() == ["pass", "play"]


# --- AM-5 PASS ------------------------------------------------------------------------------------


def test_am5_pass_restocks_four_goods_onto_their_vendors() -> None:
    state = state_at(market(2, phase=CHOOSE))
    state.apply_action(PASS)
    for colour in (RED, RED, GREEN, BLACK):
        assert state.current_player() == CHANCE
        state.apply_action(DRAW + colour)
    m = state.market
    assert m.vendor_goods == [1, 0, 2, 1] and m.unseen == [19, 20, 18, 19]
    assert m.phase == PASS_MOVES and state.current_player() == 0


def test_am5_ruling_fewer_than_four_left_are_all_drawn_and_an_empty_bag_is_skipped() -> None:
    state = state_at(market(2, phase=CHOOSE, unseen=[2, 0, 0, 0], hidden_removed=0))
    state.apply_action(PASS)
    state.apply_action(DRAW + BLACK)
    state.apply_action(DRAW + BLACK)
    assert state.market.phase == PASS_MOVES
    empty = state_at(market(2, phase=CHOOSE, unseen=[4, 0, 0, 0], hidden_removed=4))
    empty.apply_action(PASS)
    assert empty.market.phase == PASS_MOVES and empty.market.vendor_goods == [0] * 4


def test_am5_two_mandatory_market_moves_any_tile_into_the_hole() -> None:
    state = state_at(market(2, phase=PASS_MOVES, moves_left=2))
    assert len(state.legal_actions()) == 15
    state.apply_action(state.string_to_action("move king from D2"))
    m = state.market
    assert SQUARE_NAMES[m.hole] == "D2" and m.layout[sq("C1")] == 9
    # Ruling: the second move may put the same tile straight back.
    state.apply_action(state.string_to_action("move king from C1"))
    assert state.market.layout == grid(STANDARD)


def test_am5_take_a_coin_onto_a_buyer_without_one() -> None:
    state = state_at(market(2, phase=PASS_MOVES, moves_left=1, coins=[1, 0, 1, 0] + [0] * 4))
    state.apply_action(free("A1"))
    assert state.market.phase == PASS_COIN
    assert state.legal_action_strings() == ["coin on S2", "coin on S4"]
    with pytest.raises(IllegalActionError, match="already has a coin"):
        state.apply_action(COIN + 0)
    state.apply_action(COIN + 1)
    assert state.market.coins[:4] == [1, 1, 1, 0]


def test_am5_no_coin_when_all_four_buyers_have_one() -> None:
    m = market(2, phase=PASS_MOVES, moves_left=1, coins=[1, 1, 1, 1] + [0] * 4,
               vendor_goods=[0] * 4)
    state = state_at(m)
    state.apply_action(free("A1"))
    assert state.market.phase == CHOOSE and state.current_player() == 1  # no king goods either


KING_ROW = """
    Cr Po Go Am
    Bk Cr Cr Ki
    Bl Cr Eb Rd
    Po Go .. Gn
"""


def test_am5_king_buys_one_good_in_his_row_or_column_past_crowds() -> None:
    m = market(2, KING_ROW, phase=PASS_COIN, vendor_goods=[2, 5, 1, 3], coins=[0] * 8)
    state = state_at(m)
    state.apply_action(COIN + 0)
    assert state.market.phase == PASS_KING
    # King at D3: row 3 has black at A3 (past two crowds); column D has red D2 and green D1.
    assert state.legal_action_strings() == ["king buys black", "king buys red",
                                            "king buys green", "king skips"]
    state.apply_action(KING_BUYS + BLACK)
    assert state.market.king_goods == [1, 0, 0, 0] and state.market.vendor_goods[BLACK] == 1
    assert state.current_player() == 1


def test_am5_king_is_optional() -> None:
    m = market(2, KING_ROW, phase=PASS_KING, vendor_goods=[2, 5, 1, 3])
    state = state_at(m)
    state.apply_action(KING_SKIPS)
    assert state.market.king_goods == [0] * 4 and state.current_player() == 1


def test_am5_king_step_is_skipped_when_he_has_nothing_to_buy() -> None:
    m = market(2, KING_ROW, phase=PASS_COIN, vendor_goods=[0, 5, 0, 0])  # blue is not in sight
    state = state_at(m)
    state.apply_action(COIN + 0)
    assert state.market.phase == CHOOSE and state.current_player() == 1


def test_am5_king_cannot_buy_out_of_sight_or_from_an_empty_vendor() -> None:
    state = state_at(market(2, KING_ROW, phase=PASS_KING, vendor_goods=[1, 5, 0, 0]))
    with pytest.raises(IllegalActionError, match="row or column"):
        state.apply_action(KING_BUYS + BLUE)
    with pytest.raises(IllegalActionError, match="row or column"):
        state.apply_action(KING_BUYS + RED)


# --- AM-6 PLAY ------------------------------------------------------------------------------------

# S3 looks C1 (hole), C2 (errand boy), C3 (red vendor): a clear line.
def _play(**fields: object) -> tlatelolco.State:
    base = {"vendor_goods": [0, 0, 3, 0], "coins": [0, 0, 1, 0] + [0] * 4}
    base.update(fields)
    return state_at(market(2, **base))


def test_am6_buy_takes_all_goods_and_returns_the_coin() -> None:
    state = _play()
    state.apply_action(state.string_to_action("buy S3 from red"))
    m = state.market
    assert m.buyer_goods[2] == 3 and m.buyer_colour[2] == RED and m.vendor_goods[RED] == 0
    assert m.coins[2] == 0 and m.reserve == 16
    assert "end turn" in state.legal_action_strings()
    assert not any(a.startswith("buy") for a in state.legal_action_strings())


def test_am6_buyer_needs_a_coin() -> None:
    state = _play(coins=[1, 0, 0, 0] + [0] * 4)
    with pytest.raises(IllegalActionError, match="S3 has no coin"):
        state.apply_action(buy(2, RED))


def test_am6_vendor_must_be_on_the_buyers_line() -> None:
    state = _play(coins=[1, 1, 1, 1] + [0] * 4)
    with pytest.raises(IllegalActionError, match="not on S4's line"):
        state.apply_action(buy(3, RED))


def test_am6_buyer_holds_one_colour_only() -> None:
    state = _play(buyer_goods=[0, 0, 2, 0] + [0] * 4, buyer_colour=[-1, -1, GREEN, -1] + [-1] * 4)
    with pytest.raises(IllegalActionError, match="holds green goods only"):
        state.apply_action(buy(2, RED))
    same = _play(buyer_goods=[0, 0, 2, 0] + [0] * 4, buyer_colour=[-1, -1, RED, -1] + [-1] * 4)
    same.apply_action(buy(2, RED))
    assert same.market.buyer_goods[2] == 5


def test_am6_a_crowd_between_blocks_the_purchase() -> None:
    state = _play(vendor_goods=[3, 0, 0, 0], coins=[1, 0, 0, 0] + [0] * 4)
    with pytest.raises(IllegalActionError, match="crowd stands between S1"):
        state.apply_action(buy(0, BLACK))


def test_am6_ruling_the_vendor_must_hold_a_good() -> None:
    state = _play(vendor_goods=[0, 0, 0, 1])
    with pytest.raises(IllegalActionError, match="red vendor has no goods"):
        state.apply_action(buy(2, RED))


PORTERS = """
    Cr Cr Go Am
    Bk Bl Rd Gn
    Cr Eb Po Ki
    .. Go Po Cr
"""


def test_am6_each_porter_returns_one_good_to_the_vendor() -> None:
    state = state_at(market(2, PORTERS, vendor_goods=[0, 0, 5, 0],
                            coins=[0, 0, 1, 0] + [0] * 4))
    state.apply_action(buy(2, RED))  # S3: C1 porter, C2 porter, C3 red
    m = state.market
    assert m.vendor_goods[RED] == 2 and m.buyer_goods[2] == 3


def test_am6_ruling_porters_never_take_back_the_last_good() -> None:
    state = state_at(market(2, PORTERS, vendor_goods=[0, 0, 2, 0],
                            coins=[0, 0, 1, 0] + [0] * 4))
    state.apply_action(buy(2, RED))
    assert state.market.vendor_goods[RED] == 1 and state.market.buyer_goods[2] == 1


GOVERNORS = """
    Cr Cr Po Am
    Bk Bl Rd Gn
    Cr Eb Go Ki
    .. Po Go Cr
"""


def test_am6_each_governor_puts_a_good_on_the_king() -> None:
    state = state_at(market(2, GOVERNORS, vendor_goods=[0, 0, 5, 0],
                            coins=[0, 0, 1, 0] + [0] * 4))
    state.apply_action(buy(2, RED))
    m = state.market
    assert m.king_goods[RED] == 2 and m.buyer_goods[2] == 3 and m.vendor_goods[RED] == 0


def test_am6_ruling_governors_may_take_the_last_good() -> None:
    state = state_at(market(2, GOVERNORS, vendor_goods=[0, 0, 1, 0],
                            coins=[0, 0, 1, 0] + [0] * 4))
    state.apply_action(buy(2, RED))
    m = state.market
    assert m.king_goods[RED] == 1 and m.buyer_goods[2] == 0 and m.buyer_colour[2] == -1
    assert END_TURN in state.legal_actions()  # it was still a purchase


MIXED = """
    Cr Cr Go Am
    Bk Bl Rd Gn
    Cr Eb Po Ki
    .. Po Go Cr
"""


def test_am6_ruling_porters_act_before_governors() -> None:
    # S3: C1 governor, C2 porter, then red. 2 goods: the porter returns 1, the governor takes 1.
    state = state_at(market(2, MIXED, vendor_goods=[0, 0, 2, 0],
                            coins=[0, 0, 1, 0] + [0] * 4))
    state.apply_action(buy(2, RED))
    m = state.market
    assert (m.vendor_goods[RED], m.king_goods[RED], m.buyer_goods[2]) == (1, 1, 0)


AMBASSADOR_LINE = """
    Cr Cr Go Po
    Bk Bl Rd Gn
    Cr Eb Am Ki
    .. Po Go Cr
"""


def test_am6_an_ambassador_between_keeps_the_coin() -> None:
    state = state_at(market(2, AMBASSADOR_LINE, vendor_goods=[0, 0, 3, 0],
                            coins=[0, 0, 1, 0] + [0] * 4))
    state.apply_action(buy(2, RED))  # C1 governor, C2 ambassador
    m = state.market
    assert m.coins[2] == 1 and m.reserve == 15 and m.buyer_goods[2] == 2


def test_am6_paid_move_spends_the_named_buyers_coin() -> None:
    # Nothing is buyable now; S1 pays to move the black vendor into the hole at C1.
    state = _play(vendor_goods=[3, 0, 0, 0], coins=[1, 0, 1, 0] + [0] * 4)
    state.apply_action(state.string_to_action("move black vendor from A3 paying S1"))
    m = state.market
    assert m.coins[:4] == [0, 0, 1, 0] and m.reserve == 15 and SQUARE_NAMES[m.hole] == "A3"
    assert m.layout[sq("C1")] == BLACK
    state.apply_action(buy(2, BLACK))  # S3 now sees the black vendor at C1
    assert state.market.buyer_goods[2] == 3


def test_am6_the_errand_boy_moves_for_free_but_not_twice_in_a_row() -> None:
    state = _play()
    state.apply_action(state.string_to_action("move errand boy from C2"))
    assert state.market.coins[2] == 1
    with pytest.raises(IllegalActionError, match="twice in a row"):
        state.apply_action(free("C1"))
    with pytest.raises(IllegalActionError, match="moves for free"):
        state.apply_action(paid("C1", 2))


def test_am6_only_the_errand_boy_moves_without_a_coin() -> None:
    state = _play(coins=[1, 0, 1, 0] + [0] * 4)
    with pytest.raises(IllegalActionError, match="name the buyer who pays"):
        state.apply_action(free("A1"))


def test_am6_a_play_turn_needs_a_purchase_before_it_ends() -> None:
    state = _play()
    with pytest.raises(IllegalActionError, match="at least one purchase"):
        state.apply_action(END_TURN)
    state.apply_action(buy(2, RED))
    state.apply_action(END_TURN)
    assert state.current_player() == 1 and state.market.phase == CHOOSE


def test_am6_several_purchases_in_one_turn() -> None:
    state = _play(vendor_goods=[0, 0, 3, 0], coins=[0, 0, 1, 0, 0, 0, 0, 0])
    state.apply_action(buy(2, RED))
    state.apply_action(state.string_to_action("move errand boy from C2"))  # after a purchase
    assert END_TURN in state.legal_actions()


def test_am6_ruling_play_only_when_a_purchase_is_reachable() -> None:
    blocked = state_at(market(2, phase=CHOOSE, vendor_goods=[3, 0, 0, 0],
                              coins=[0, 0, 1, 0] + [0] * 4))
    assert blocked.legal_action_strings() == ["pass"]  # one coin: no move can be paid for
    with pytest.raises(IllegalActionError, match="no purchase can be reached"):
        blocked.apply_action(PLAY)
    two = state_at(market(2, phase=CHOOSE, vendor_goods=[3, 0, 0, 0],
                          coins=[1, 0, 1, 0] + [0] * 4))
    assert two.legal_action_strings() == ["pass", "play"]


def test_am6_ruling_no_move_before_the_first_purchase_may_lead_to_a_dead_end() -> None:
    state = _play(vendor_goods=[3, 0, 0, 0], coins=[1, 0, 1, 0] + [0] * 4)
    legal = state.legal_action_strings()
    # Only moves that still let S3 (the buyer left with a coin) or S1 buy are offered:
    assert "move black vendor from A3 paying S1" in legal
    assert "move black vendor from A3 paying S3" not in legal  # S3 would have no coin left
    with pytest.raises(IllegalActionError, match="no purchase could be reached"):
        state.apply_action(paid("D4", 0))  # moving the ambassador achieves nothing
    assert state.market.coins[:4] == [1, 0, 1, 0]


def test_am6_moves_are_free_of_the_dead_end_check_after_a_purchase() -> None:
    state = _play(vendor_goods=[1, 0, 3, 0], coins=[1, 0, 1, 0] + [0] * 4)
    state.apply_action(buy(2, RED))
    assert paid("D4", 0) in state.legal_actions()


# --- AM-7 end and scoring -----------------------------------------------------------------------


def test_am7_the_game_ends_after_the_last_seat_with_the_bag_empty() -> None:
    m = market(3, phase=PASS_MOVES, moves_left=1, player=1, unseen=[1, 0, 0, 0],
               hidden_removed=1, coins=[1] * 12)
    state = state_at(m)
    state.apply_action(free("A1"))
    assert state.current_player() == 2  # bag empty, but seat 1 is not the last seat
    state.apply_action(PASS)  # the bag is empty: straight to the two moves
    state.apply_action(free("B1"))
    state.apply_action(free("C1"))
    assert state.market.phase == OVER and state.is_terminal()


def test_am7_every_player_has_the_same_number_of_turns() -> None:
    rng = random.Random(5)
    for n in (2, 3, 4):
        state = tlatelolco.load("aztec_market", num_players=n, setup="random").new_initial_state()
        turns = [0] * n
        while not state.is_terminal():
            if state.is_chance_node():
                actions, odds = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(actions, odds)[0])
                continue
            action = rng.choice(state.legal_actions())
            if action in (PASS, PLAY):
                turns[state.current_player()] += 1
            state.apply_action(action)
        assert len(set(turns)) == 1, turns


def _scored(goods: list[list[int]], king: list[int], coins: list[int] | None = None
            ) -> tlatelolco.State:
    """A finished game where seat i holds goods[i][colour] (one buyer per colour)."""
    n = len(goods)
    buyer_goods, buyer_colour = [], []
    for held in goods:
        for colour in range(4):
            buyer_goods.append(held[colour])
            buyer_colour.append(colour if held[colour] else -1)
    m = market(n, phase=OVER, king_goods=king, buyer_goods=buyer_goods,
               buyer_colour=buyer_colour, coins=coins or [0] * (4 * n))
    return state_at(m)


def test_am7_the_rulebooks_worked_example_53_against_60() -> None:
    # Yolanda (South) and Victor (North) against Laura (West) and Raquel (East).
    yolanda, victor = [9, 0, 0, 6], [5, 5, 3, 0]
    laura, raquel = [3, 6, 4, 4], [0, 0, 8, 6]
    state = _scored([yolanda, laura, victor, raquel], king=[2, 4, 3, 1])
    assert state.scores() == [53.0, 60.0, 53.0, 60.0]
    assert state.returns() == [0.0, 1.0, 0.0, 1.0]


def test_am7_individual_scoring_with_two_or_three_players() -> None:
    state = _scored([[1, 0, 0, 0], [0, 2, 0, 0], [0, 0, 0, 9]], king=[5, 2, 0, 0])
    assert state.scores() == [5.0, 4.0, 0.0]  # green is not on the king: it scores nothing
    assert state.returns() == [1.0, 0.0, 0.0]


def test_am7_ties_go_to_more_coins_then_more_goods_then_are_shared() -> None:
    coins = [1, 1, 0, 0] + [0] * 4
    state = _scored([[2, 0, 0, 0], [0, 2, 0, 0]], king=[1, 1, 0, 0], coins=coins)
    assert state.scores() == [2.0, 2.0] and state.returns() == [1.0, 0.0]
    state = _scored([[2, 0, 0, 0], [0, 2, 0, 1]], king=[1, 1, 0, 0])
    assert state.returns() == [0.0, 1.0]  # equal coins; West has more goods
    state = _scored([[2, 0, 0, 0], [0, 2, 0, 0]], king=[1, 1, 0, 0])
    assert state.returns() == [0.5, 0.5]


def test_am7_team_tie_break_uses_the_member_with_most_coins() -> None:
    coins = [0] * 4 + [1, 1, 0, 0] + [1, 0, 0, 0] + [1, 0, 0, 0]
    state = _scored([[1, 0, 0, 0], [1, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]], king=[1, 0, 0, 0],
                    coins=coins)
    assert state.scores() == [1.0, 1.0, 1.0, 1.0]
    assert state.returns() == [0.0, 1.0, 0.0, 1.0]  # West holds 2 coins, North and East 1


# --- AM-8 information ----------------------------------------------------------------------------


def test_am8_everything_but_the_bags_order_is_public() -> None:
    state = tlatelolco.load("aztec_market", num_players=4, setup="random").new_initial_state()
    rng = random.Random(8)
    for _ in range(60):
        actions = state.legal_actions()
        state.apply_action(rng.choice(actions))
    views = [state.observation(seat) for seat in range(4)]
    assert views[0] == views[1] == views[2] == views[3]
    assert sum(views[0]["unseen"].values()) == views[0]["bag"] + views[0]["removed"]["unseen"]
    assert state.resample_from_infostate(2, rng) == state


def test_am8_chance_draws_follow_the_unseen_goods() -> None:
    state = state_at(market(2, phase=RESTOCK, draws_left=1, unseen=[10, 0, 5, 5],
                            hidden_removed=0))
    assert state.chance_outcomes() == [(DRAW + BLACK, 0.5), (DRAW + RED, 0.25),
                                       (DRAW + GREEN, 0.25)]
    assert MOVE not in state.legal_actions()
