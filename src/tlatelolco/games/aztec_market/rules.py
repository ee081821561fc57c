"""The rules of Aztec Market, one function per rule, over the plain data of `Market`.

Rule ids (AM-1 ... AM-9) refer to the project's rules digest. `why_cannot_*` functions return the
reason a move is illegal, or None when it is legal: an English `Reason` that the web page can
also show in Spanish (`tlatelolco.i18n`).
"""

from __future__ import annotations

from tlatelolco.contract import CHANCE, TERMINAL, shared_victory
from tlatelolco.games.aztec_market.components import (
    AMBASSADOR,
    BUYER_NAMES,
    BUYERS_PER_PLAYER,
    COINS,
    CROWD,
    ERRAND_BOY,
    GOODS_PER_COLOUR,
    GOVERNOR,
    HOLE,
    KING,
    KING_SIGHT,
    LINES,
    NUM_COLOURS,
    PORTER,
    SQUARES,
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
    RANDOM_BUILD,
    RESTOCK,
    START_COIN,
    Market,
)
from tlatelolco.games.aztec_market.reach import (
    UNREACHABLE,
    as_vendor,
    line_text,
    paid_moves_needed,
)
from tlatelolco.i18n import N_, Message, Reason, Term, reason

RESTOCK_DRAWS = 4
PASS_MARKET_MOVES = 2
# The colours as reasons name them ("the red vendor", "red goods"), by components.COLOURS.
COLOUR_WORDS = (N_("black"), N_("blue"), N_("red"), N_("green"))

# --- set-up (AM-3) -----------------------------------------------------------------------------


def set_up(num_players: int, removed: int, luck: bool, random_market: bool) -> Market:
    """An empty table: the market is still to be built, each player's coin still to be placed.

    Goods removed "without looking" are never seen, so instead of drawing them now the game
    counts the last `removed` unseen goods as the removed ones (the same odds, nothing hidden).
    With luck=False, removed/4 goods of each colour leave the game openly.
    """
    openly = [0 if luck else removed // NUM_COLOURS] * NUM_COLOURS
    return Market(
        num_players=num_players,
        layout=[HOLE] * SQUARES,
        hole=-1,
        vendor_goods=[0] * NUM_COLOURS,
        king_goods=[0] * NUM_COLOURS,
        buyer_goods=[0] * (num_players * BUYERS_PER_PLAYER),
        buyer_colour=[-1] * (num_players * BUYERS_PER_PLAYER),
        coins=[0] * (num_players * BUYERS_PER_PLAYER),
        reserve=COINS,
        unseen=[GOODS_PER_COLOUR - n for n in openly],
        hidden_removed=removed if luck else 0,
        removed=openly,
        phase=RANDOM_BUILD if random_market else BUILD,
        player=0,
    )


def tiles_left(m: Market) -> list[int]:
    """How many market tiles of each kind are not yet on the market."""
    left = list(TILE_COUNTS)
    for tile in m.layout:
        if tile != HOLE:
            left[tile] -= 1
    return left


def why_cannot_place(m: Market, kind: int, square: int) -> Reason | None:
    """AM-3: place any tile not yet placed on any empty square."""
    if m.layout[square] != HOLE:
        return reason(N_("that square is already taken"))
    if tiles_left(m)[kind] == 0:
        return reason(N_("every tile of that kind is already on the market"))
    return None


def place(m: Market, kind: int, square: int) -> None:
    m.layout[square] = kind
    m.placed += 1
    if m.phase == BUILD:
        m.player = (m.player + 1) % m.num_players
        if m.placed == sum(TILE_COUNTS):
            finish_market(m)
    elif m.placed == SQUARES:
        finish_market(m)


def leave_hole(m: Market, square: int) -> None:
    """Random set-up: this square stays empty."""
    m.hole = square
    m.placed += 1
    if m.placed == SQUARES:
        finish_market(m)


def finish_market(m: Market) -> None:
    m.hole = m.layout.index(HOLE)
    m.phase = START_COIN
    m.player = 0


def random_build_outcomes(m: Market) -> list[tuple[int, int, float]]:
    """(kind or HOLE, count, probability) for the next square of a random market."""
    left = tiles_left(m)
    options = [(kind, n) for kind, n in enumerate(left) if n]
    if m.hole < 0:
        options.append((HOLE, 1))
    total = sum(n for _, n in options)
    return [(kind, n, n / total) for kind, n in options]


def place_start_coin(m: Market, buyer: int) -> None:
    """AM-3: each player puts one coin from the reserve on one of their buyers."""
    take_coin(m, m.player * BUYERS_PER_PLAYER + buyer)
    m.player += 1
    if m.player == m.num_players:
        m.player = 0
        m.phase = CHOOSE


def take_coin(m: Market, index: int) -> None:
    m.coins[index] = 1
    m.reserve -= 1


def why_cannot_take_coin(m: Market, buyer: int) -> Reason | None:
    """AM-3 and AM-5 step 3: a coin goes onto a buyer without one."""
    if m.coins[m.player * BUYERS_PER_PLAYER + buyer]:
        return reason(N_("that buyer already has a coin (a buyer holds at most one)"))
    return None


# --- whose turn --------------------------------------------------------------------------------


def to_move(m: Market) -> int:
    if m.phase == OVER:
        return TERMINAL
    if m.phase in (RANDOM_BUILD, RESTOCK):
        return CHANCE
    return m.player


def end_turn(m: Market) -> None:
    """AM-7: after the last seat's turn with the bag empty the game is over."""
    m.bought = m.last_errand = False
    if m.bag() == 0 and m.player == m.num_players - 1:
        m.phase = OVER
        return
    m.player = (m.player + 1) % m.num_players
    m.phase = CHOOSE


# --- PASS (AM-5) -------------------------------------------------------------------------------


def begin_pass(m: Market) -> None:
    """AM-5 step 1: draw 4 goods (all that are left if fewer: ruling), none if the bag is empty."""
    m.draws_left = min(RESTOCK_DRAWS, m.bag())
    if m.draws_left:
        m.phase = RESTOCK
    else:
        begin_pass_moves(m)


def restock_outcomes(m: Market) -> list[tuple[int, float]]:
    """Each unseen good is equally likely to be drawn next."""
    total = sum(m.unseen)
    return [(c, n / total) for c, n in enumerate(m.unseen) if n]


def restock(m: Market, colour: int) -> None:
    """A drawn good goes onto the vendor of its colour."""
    m.unseen[colour] -= 1
    m.vendor_goods[colour] += 1
    m.draws_left -= 1
    if m.draws_left == 0:
        begin_pass_moves(m)


def begin_pass_moves(m: Market) -> None:
    m.phase = PASS_MOVES
    m.moves_left = PASS_MARKET_MOVES


def why_cannot_move(m: Market, square: int) -> Reason | None:
    """Take any market tile and put it into the hole."""
    if square == m.hole:
        return reason(N_("that square is the hole"))
    return None


def move_tile(m: Market, square: int) -> None:
    m.layout[m.hole] = m.layout[square]
    m.layout[square] = HOLE
    m.hole = square


def pass_move(m: Market, square: int) -> None:
    """AM-5 step 2: two mandatory moves; the second may put the same tile back (ruling)."""
    move_tile(m, square)
    m.moves_left -= 1
    if m.moves_left == 0:
        if 0 in buyer_coins(m, m.player):
            m.phase = PASS_COIN
        else:
            begin_king(m)


def pass_coin(m: Market, buyer: int) -> None:
    """AM-5 step 3: a coin onto a buyer without one (skipped when all four have one)."""
    take_coin(m, m.player * BUYERS_PER_PLAYER + buyer)
    begin_king(m)


def king_choices(m: Market) -> list[int]:
    """AM-5 step 4: vendors with goods in the king's row or column, at any distance."""
    king = m.layout.index(KING)
    layout, goods = m.layout, m.vendor_goods
    return sorted(layout[t] for t in KING_SIGHT[king] if layout[t] < NUM_COLOURS
                  and goods[layout[t]])


def begin_king(m: Market) -> None:
    """The king's purchase is optional; with nothing to buy it is skipped."""
    if king_choices(m):
        m.phase = PASS_KING
    else:
        end_turn(m)


def king_buys(m: Market, colour: int) -> None:
    m.vendor_goods[colour] -= 1
    m.king_goods[colour] += 1
    end_turn(m)


# --- PLAY (AM-6) -------------------------------------------------------------------------------


def buyer_coins(m: Market, seat: int) -> list[int]:
    start = seat * BUYERS_PER_PLAYER
    return m.coins[start:start + BUYERS_PER_PLAYER]


def between(m: Market, seat: int, buyer: int, colour: int) -> tuple[int, ...] | None:
    """The tiles between a buyer and a vendor on its line, or None if the vendor is not on it."""
    layout = m.layout
    line = LINES[seat][buyer]
    for i, square in enumerate(line):
        if layout[square] == colour:
            return tuple(layout[s] for s in line[:i])
    return None


def why_cannot_buy(m: Market, seat: int, buyer: int, colour: int) -> Reason | None:
    """AM-6: the conditions of a purchase."""
    index = seat * BUYERS_PER_PLAYER + buyer
    name, vendor = BUYER_NAMES[seat][buyer], vendor_words(colour)
    if not m.coins[index]:
        return reason(N_("{buyer} has no coin"), buyer=name)
    if m.buyer_colour[index] not in (-1, colour):
        return reason(N_("{buyer} holds {colour} goods only"), buyer=name,
                      colour=Term(COLOUR_WORDS[m.buyer_colour[index]]))
    if not m.vendor_goods[colour]:
        return reason(N_("{vendor} has no goods"), vendor=vendor)
    tiles = between(m, seat, buyer, colour)
    if tiles is None:
        return reason(N_("{vendor} is not on {buyer}'s line"), vendor=vendor, buyer=name)
    if CROWD in tiles:
        return reason(N_("a crowd stands between {buyer} and {vendor}"), buyer=name,
                      vendor=vendor)
    return None


def play_purchases(m: Market) -> list[tuple[int, int]]:
    """The (buyer, colour) purchases `why_cannot_buy` allows the player to move, found by
    walking each line up to its first crowd: `legal_actions` is hot, and asking why for every
    refused purchase would build a `Reason` each time."""
    seat = m.player
    found: list[tuple[int, int]] = []
    for buyer, line in enumerate(LINES[seat]):
        index = seat * BUYERS_PER_PLAYER + buyer
        if not m.coins[index]:
            continue
        for square in line:
            tile = m.layout[square]
            if tile == CROWD:
                break
            if tile < NUM_COLOURS and m.vendor_goods[tile] and m.buyer_colour[index] in (-1, tile):
                found.append((buyer, tile))
    return found


def vendor_words(colour: int) -> Message:
    """The vendor of a colour as a reason names it: "the red vendor"."""
    return N_("the {colour} vendor"), {"colour": Term(COLOUR_WORDS[colour])}


def buy(m: Market, seat: int, buyer: int, colour: int) -> None:
    """AM-6: take all the vendor's goods; porters, then governors, then the coin (ruling)."""
    index = seat * BUYERS_PER_PLAYER + buyer
    tiles = between(m, seat, buyer, colour) or ()
    goods = m.vendor_goods[colour]
    returned = min(tiles.count(PORTER), goods - 1)  # porters never take back the last good
    to_king = min(tiles.count(GOVERNOR), goods - returned)
    kept = goods - returned - to_king
    m.vendor_goods[colour] = returned
    m.king_goods[colour] += to_king
    if kept:
        m.buyer_goods[index] += kept
        m.buyer_colour[index] = colour
    if AMBASSADOR not in tiles:
        m.coins[index] = 0
        m.reserve += 1
    m.bought = True
    m.last_errand = False


def purchase_costs(m: Market, seat: int, layout: list[int], last_errand: bool,
                   coins: list[int]) -> list[int]:
    """For each of the seat's buyers with a coin, the fewest paid moves before it can buy."""
    costs = []
    goods, colours = m.vendor_goods, m.buyer_colour
    stocked = [c for c in range(NUM_COLOURS) if goods[c]]
    for buyer, line in enumerate(LINES[seat]):
        best = UNREACHABLE
        if coins[buyer]:
            held = colours[seat * BUYERS_PER_PLAYER + buyer]
            text = line_text(layout, line)
            for colour in stocked:
                if held in (-1, colour):
                    best = min(best, paid_moves_needed(as_vendor(text, colour), last_errand))
        costs.append(best)
    return costs


def reachable_with(costs: list[int], coins: list[int]) -> bool:
    """Some buyer with a coin can buy, paying the moves with the coins of the others."""
    spare = sum(coins) - 1
    return any(coin and cost <= spare for cost, coin in zip(costs, coins, strict=True))


def purchase_reachable(m: Market, seat: int) -> bool:
    """AM-6 ruling: some sequence of moves available to the player leads to a purchase."""
    coins = buyer_coins(m, seat)
    if not any(coins):
        return False
    return reachable_with(purchase_costs(m, seat, m.layout, m.last_errand, coins), coins)


def why_cannot_play(m: Market) -> Reason | None:
    """AM-6 ruling (no dead ends): PLAY only when a purchase can be reached."""
    if not purchase_reachable(m, m.player):
        return reason(N_("no purchase can be reached this turn (no dead ends)"))
    return None


def why_cannot_paid_move(m: Market, square: int, buyer: int) -> Reason | None:
    """AM-6: one coin of a buyer pays for one market move; the errand boy moves for free."""
    seat = m.player
    if square == m.hole:
        return reason(N_("that square is the hole"))
    if m.layout[square] == ERRAND_BOY:
        return reason(N_("the errand boy moves for free"))
    if not m.coins[seat * BUYERS_PER_PLAYER + buyer]:
        return reason(N_("{buyer} has no coin to pay with"), buyer=BUYER_NAMES[seat][buyer])
    if not m.bought and not _reachable_after(m, square, buyer):
        return reason(N_("after it no purchase could be reached this turn (no dead ends)"))
    return None


def why_cannot_errand(m: Market, square: int) -> Reason | None:
    """AM-6: the errand boy moves for free, never twice in a row (ruling)."""
    if square == m.hole:
        return reason(N_("that square is the hole"))
    if m.layout[square] != ERRAND_BOY:
        return reason(N_("only the errand boy moves for free in PLAY; name the buyer who pays"))
    if m.last_errand:
        return reason(N_("the errand boy may not move twice in a row"))
    if not m.bought and not _reachable_after(m, square, None):
        return reason(N_("after it no purchase could be reached this turn (no dead ends)"))
    return None


def _reachable_after(m: Market, square: int, payer: int | None) -> bool:
    layout = m.layout[:]
    layout[m.hole], layout[square] = layout[square], HOLE
    coins = buyer_coins(m, m.player)
    if payer is not None:
        coins[payer] = 0
    return reachable_with(purchase_costs(m, m.player, layout, payer is None, coins), coins)


def paid_move(m: Market, square: int, buyer: int) -> None:
    move_tile(m, square)
    m.coins[m.player * BUYERS_PER_PLAYER + buyer] = 0
    m.reserve += 1
    m.last_errand = False


def errand_move(m: Market, square: int) -> None:
    move_tile(m, square)
    m.last_errand = True


def play_moves(m: Market) -> list[tuple[int, int | None]]:
    """The legal (square, payer) market moves of a PLAY turn; payer None for the errand boy."""
    seat, layout, hole = m.player, m.layout, m.hole
    coins = buyer_coins(m, seat)
    payers = [b for b in range(BUYERS_PER_PLAYER) if coins[b]]
    moves: list[tuple[int, int | None]] = []
    for square in range(SQUARES):
        if square == hole:
            continue
        errand = layout[square] == ERRAND_BOY
        if errand and m.last_errand:
            continue
        if not errand and not payers:
            continue
        if m.bought:
            moves += [(square, None)] if errand else [(square, b) for b in payers]
            continue
        after = layout[:]
        after[hole], after[square] = after[square], HOLE
        costs = purchase_costs(m, seat, after, errand, coins)
        if errand:
            if reachable_with(costs, coins):
                moves.append((square, None))
            continue
        for b in payers:
            coins[b] = 0
            if reachable_with(costs, coins):
                moves.append((square, b))
            coins[b] = 1
    return moves


def why_cannot_end_turn(m: Market) -> Reason | None:
    """AM-6: a PLAY turn ends only after at least one purchase."""
    if not m.bought:
        return reason(N_("a PLAY turn needs at least one purchase"))
    return None


# --- end and scoring (AM-7) --------------------------------------------------------------------


def goods_by_colour(m: Market, seat: int) -> list[int]:
    """A player's goods: the sum over their buyers, by colour."""
    totals = [0] * NUM_COLOURS
    for index in range(seat * BUYERS_PER_PLAYER, (seat + 1) * BUYERS_PER_PLAYER):
        if m.buyer_colour[index] >= 0:
            totals[m.buyer_colour[index]] += m.buyer_goods[index]
    return totals


def side_score(m: Market, members: tuple[int, ...]) -> int:
    """AM-7: per colour, the member with the most of it times the king's goods of it."""
    held = [goods_by_colour(m, seat) for seat in members]
    return sum(max(h[c] for h in held) * m.king_goods[c] for c in range(NUM_COLOURS))


def side_key(m: Market, members: tuple[int, ...]) -> tuple[int, int, int]:
    """Score, then the coins of the member with most coins, then the goods of the member with
    most goods (AM-7 tie-breaks)."""
    coins = max(sum(buyer_coins(m, seat)) for seat in members)
    goods = max(sum(goods_by_colour(m, seat)) for seat in members)
    return side_score(m, members), coins, goods


def scores(m: Market) -> list[float]:
    """Each seat's side score (partners share it)."""
    result = [0.0] * m.num_players
    for members in TEAMS[m.num_players]:
        score = float(side_score(m, members))
        for seat in members:
            result[seat] = score
    return result


def returns(m: Market) -> list[float]:
    """The winning side's members get its share; tied sides share the victory."""
    result = [0.0] * m.num_players
    if m.phase != OVER:
        return result
    sides = TEAMS[m.num_players]
    shares = shared_victory([side_key(m, members) for members in sides])
    for members, share in zip(sides, shares, strict=True):
        for seat in members:
            result[seat] = share
    return result
