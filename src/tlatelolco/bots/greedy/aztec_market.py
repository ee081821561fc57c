"""A greedy heuristic for Aztec Market: value goods by what the king will multiply them by.

The final score of a side is, for each colour, the goods of that colour held by its best member
times the goods of that colour on the king (AM-7). The bot therefore weighs each colour by the
king's goods of it plus what the king can still be expected to gain (a share of the goods left in
the bag, since the king buys about one good per PASS), and counts a position as:

- **material:** for each side, the king-weighted goods of its best member per colour, plus its
  coins (a coin is what a purchase costs) and a little for its goods (a tie-break, AM-7); the bot's
  side against the others;
- **reach:** what each seat to move before the bot's next turn could take at once with the coins
  it has (porters, governors and ambassadors between buyer and vendor included, crowds blocking):
  an opponent's best purchase counts against, a partner's and the bot's own for.

Every decision is one ply over that value, computed on a copy of the plain-data `Market` with the
engine's own rule functions:

- a PLAY turn is planned in full when choosing PLAY: at each step every legal market move and
  purchase is tried, followed by the best chain of purchases it opens (moves that do not improve
  the position strictly are not made, so the plan always ends), and the turn ends when nothing
  more helps; the plan is cached and replayed;
- PASS is valued the same way on the expected restock (fractional goods), with its two market
  moves, coin and king's purchase chosen greedily; the bot plays whichever of PASS and PLAY ends
  its turn in the better position;
- the two PASS moves look two moves ahead (blocking an opponent's rich line with a crowd, lining a
  buyer up with a vendor, or turning the king towards a colour the bot's side leads);
- the king buys the colour where the bot's side leads most (it raises that colour's multiplier);
- building the market places vendors where the bot's buyers see them unobstructed and crowds,
  porters and governors in front of the opponents' buyers; the start coin goes to the buyer with
  the best view.

Nothing is random: the seed changes nothing, and the same position always gives the same action.
"""

from __future__ import annotations

from tlatelolco.bots.base import Bot
from tlatelolco.contract import Game, State
from tlatelolco.games.aztec_market import rules
from tlatelolco.games.aztec_market.components import (
    AMBASSADOR,
    BUY,
    BUYERS_PER_PLAYER,
    COIN,
    CROWD,
    END_TURN,
    GOVERNOR,
    HOLE,
    KING_BUYS,
    KING_SKIPS,
    LINES,
    MOVE,
    NUM_COLOURS,
    PAID_MOVE,
    PASS,
    PLACE,
    PLAY,
    PORTER,
    SQUARES,
    TEAMS,
)
from tlatelolco.games.aztec_market.market import (
    BUILD,
    CHOOSE,
    OVER,
    PASS_COIN,
    PASS_KING,
    PASS_MOVES,
    PLAYING,
    START_COIN,
    Market,
)
from tlatelolco.games.aztec_market.state import AztecMarketState

NEG = float("-inf")
GOODS_TIE_BREAK = 0.05  # per good held: AM-7's second tie-break, and it smooths team play
STUCK = 3.0  # a PLAY step that leaves no purchase open yet costs this (in coins) per step
BUY_CHAIN = 3  # purchases looked ahead after a PLAY action
MAX_PLAN = 64  # a PLAY turn never gets near this; a guard, not a rule
FIRST_MOVES = 5  # first PASS moves tried with every second move
# How much a tile between a buyer and a vendor spoils the view (set-up and coin placement).
VIEW_COST = {PORTER: 0.3, GOVERNOR: 0.35, AMBASSADOR: -0.2}

Purchase = tuple[int, int, float, float, bool]  # buyer, colour, goods kept, to the king, pays


def purchases(m: Market, seat: int) -> list[Purchase]:
    """Every purchase `seat` could make right now without moving the market (AM-6).

    Walks each buyer's line from its edge: porters, governors and the ambassador passed on the
    way modify a purchase, a crowd ends the view. Works on fractional goods too (the expected
    restock), where a porter never returns more than the goods beyond the first.
    """
    layout, goods, coins, colours = m.layout, m.vendor_goods, m.coins, m.buyer_colour
    found: list[Purchase] = []
    for buyer, line in enumerate(LINES[seat]):
        index = seat * BUYERS_PER_PLAYER + buyer
        if not coins[index]:
            continue
        held = colours[index]
        porters = governors = 0
        ambassador = False
        for square in line:
            tile = layout[square]
            if tile < NUM_COLOURS:
                g = goods[tile]
                if g > 0 and held in (-1, tile):
                    returned = min(porters, max(g - 1, 0))
                    to_king = min(governors, g - returned)
                    found.append((buyer, tile, g - returned - to_king, to_king, not ambassador))
            elif tile == CROWD:
                break
            elif tile == PORTER:
                porters += 1
            elif tile == GOVERNOR:
                governors += 1
            elif tile == AMBASSADOR:
                ambassador = True
    return found


def view_quality(m: Market, seat: int, buyer: int) -> float:
    """How well a buyer sees the vendors on its line, ignoring their goods: the sum over the
    vendors it can reach of 1 less what the tiles in between take (set-up, coin placement)."""
    quality = 0.0
    spoilt = 0.0
    for square in LINES[seat][buyer]:
        tile = m.layout[square]
        if tile < NUM_COLOURS:
            quality += max(0.1, 1.0 - spoilt)
        elif tile == CROWD:
            break
        else:
            spoilt += VIEW_COST.get(tile, 0.0)
    return quality


class Tally:
    """What a position's value needs beyond the layout: the colours' weights, each seat's goods,
    each side's best goods per colour and its material. Market moves change none of it, so one
    tally serves every market move tried from the same position."""

    __slots__ = ("best", "bot", "coin_worth", "held", "material", "movers", "rival", "weights")

    def __init__(self, bot: AztecMarketGreedy, m: Market) -> None:
        self.bot = bot
        future = bot.prior * m.bag()
        w = self.weights = [k + future for k in m.king_goods]
        n = bot.num_players
        held = self.held = [[0.0] * NUM_COLOURS for _ in range(n)]
        for index, colour in enumerate(m.buyer_colour):
            if colour >= 0:
                held[index // BUYERS_PER_PLAYER][colour] += m.buyer_goods[index]
        self.movers = bot.movers(m)
        self.coin_worth = bot.coin * sum(w) / NUM_COLOURS if self.movers else 0.0
        sides = bot.sides
        best = self.best = [[max(held[s][c] for s in side) for c in range(NUM_COLOURS)]
                            for side in sides]
        self.rival = [[max(best[j][c] for j in range(len(sides)) if j != i)
                       for c in range(NUM_COLOURS)] for i in range(len(sides))]
        values = []
        for i, side in enumerate(sides):
            coins = sum(sum(rules.buyer_coins(m, s)) for s in side)
            goods = sum(sum(held[s]) for s in side)
            values.append(sum(w[c] * best[i][c] for c in range(NUM_COLOURS))
                          + self.coin_worth * coins + GOODS_TIE_BREAK * goods)
        self.material = bot.relative(values)

    def value(self, m: Market) -> float:
        """Material plus the open purchases of the seats to move before the bot's next turn:
        an opponent's count against it (the next one fully, later ones half: the board will
        have changed), a partner's and the bot's own for it, at `hope`."""
        bot = self.bot
        total = self.material
        my_side = bot.side_of[bot.me]
        opponents_seen = 0
        for seat in self.movers:
            gain = self.best_gain(m, seat)
            if not gain:
                continue
            if bot.side_of[seat] == my_side:
                total += bot.hope * gain
            else:
                total -= bot.threat * gain * (0.5 if opponents_seen else 1.0)
                opponents_seen += 1
        return total

    def best_gain(self, m: Market, seat: int) -> float:
        """What the seat's best open purchase is worth to its side (0 if none is worth making)."""
        side = self.bot.side_of[seat]
        mine, rival, held, w = self.best[side], self.rival[side], self.held[seat], self.weights
        top = 0.0
        for _, colour, kept, to_king, pays in purchases(m, seat):
            before = mine[colour]
            after = held[colour] + kept
            gain = (w[colour] * (after - before if after > before else 0.0)
                    + to_king * (before - rival[colour]) + GOODS_TIE_BREAK * kept
                    - (self.coin_worth if pays else 0.0))
            if gain > top:
                top = gain
        return top

    def king_gain(self, m: Market) -> float:
        """What the king's coming purchase adds: the bot's side's lead in the colour bought."""
        side = self.bot.side_of[self.bot.me]
        mine, rival = self.best[side], self.rival[side]
        top = 0.0
        for colour in rules.king_choices(m):
            top = max(top, mine[colour] - rival[colour])
        return top


class AztecMarketGreedy(Bot):
    """One-ply greedy play over a king-weighted count of goods, coins and open purchases.

    Parameters (all have defaults that beat random play):
    `prior` — the king goods a colour is still expected to gain per good left in the bag
    (0.0625 = one king good per PASS, spread over four colours); `coin` — a coin's worth in goods
    of an average colour; `threat` — the share of the next opponent's best open purchase counted
    against the bot (later opponents count half of it); `hope` — the share of the bot's own (and a
    partner's) best open purchase counted for it.
    """

    name = "greedy"

    def __init__(self, game: Game, seat: int, seed: int | str | None = None,
                 prior: float = 0.0625, coin: float = 1.0, threat: float = 0.6,
                 hope: float = 0.3) -> None:
        super().__init__(game, seat, seed)
        self.prior = float(prior)
        self.coin = float(coin)
        self.threat = float(threat)
        self.hope = float(hope)
        self.num_players = game.num_players()
        self.sides = TEAMS[self.num_players]
        self.side_of = [next(i for i, side in enumerate(self.sides) if s in side)
                        for s in range(self.num_players)]
        self.plan: dict[tuple[object, ...], int] = {}  # planned PLAY turn: position -> action
        self.fallbacks = 0  # times the heuristic named an illegal action (tests expect none)

    # --- the contract ------------------------------------------------------------------------
    def step(self, state: State) -> int:
        if not isinstance(state, AztecMarketState):
            raise TypeError(f"{type(self).__name__} plays Aztec Market, not {state!r}")
        m = state.market
        if state.current_player() < 0:
            raise ValueError(f"no seat is to move in {state!r} (chance or game over)")
        self.me = m.player
        legal = state.legal_actions()
        action = self.choose(m, legal)
        if action not in legal:  # never leave the rules, whatever happens
            self.fallbacks += 1
            return legal[0]
        return action

    def choose(self, m: Market, legal: list[int]) -> int:
        """Dispatch on the phase (AM-3 set-up, AM-4 choice, AM-5 PASS, AM-6 PLAY)."""
        phase = m.phase
        if phase == PLAYING:
            planned = self.plan.get(m.key())
            return planned if planned is not None else self.play_step(m)[0]
        if phase == CHOOSE:
            return self.choose_pass_or_play(m, legal)
        if phase == PASS_MOVES:
            return MOVE + self.pass_move(m)
        if phase == PASS_COIN:
            return COIN + self.best_coin(m)
        if phase == PASS_KING:
            return self.king_purchase(m)
        if phase == START_COIN:
            return COIN + self.start_coin(m)
        if phase == BUILD:
            return self.build(m)
        return legal[0]

    # --- valuing a position -------------------------------------------------------------------
    def value(self, m: Market) -> float:
        """How good the position is for the bot's side at the end of its turn (see the module)."""
        return Tally(self, m).value(m)

    def relative(self, values: list[float]) -> float:
        """The bot's side against the others: the difference with two sides; with three, against
        the mean of the leader and the average (beating the leader is what wins)."""
        mine = values[self.side_of[self.me]]
        others = [v for i, v in enumerate(values) if i != self.side_of[self.me]]
        if len(others) == 1:
            return mine - others[0]
        return mine - (max(others) + sum(others) / len(others)) / 2

    def movers(self, m: Market) -> list[int]:
        """The seats to move after this turn up to and including the bot's next one: at the end
        of the game only those left in the last round."""
        if m.phase == OVER:
            return []
        n, me = self.num_players, self.me
        order = [(me + k) % n for k in range(1, n + 1)]
        if m.bag() <= 0:
            order = [s for s in order if s > me]
        return order

    # --- PLAY (AM-6) --------------------------------------------------------------------------
    def choose_pass_or_play(self, m: Market, legal: list[int]) -> int:
        """PLAY when the best PLAY turn ends better than the expected PASS turn."""
        self.plan = {}
        if PLAY not in legal:
            return PASS
        playing = m.copy()
        playing.phase, playing.bought, playing.last_errand = PLAYING, False, False
        plan: dict[tuple[object, ...], int] = {}
        while playing.phase == PLAYING and len(plan) < MAX_PLAN:
            action, _ = self.play_step(playing)
            plan[playing.key()] = action
            apply_play(playing, action)
        if self.value(playing) > self.pass_value(m):
            self.plan = plan
            return PLAY
        return PASS

    def play_step(self, m: Market) -> tuple[int, float]:
        """The PLAY action whose best follow-up chain of purchases leaves the best position.

        Ending the turn (once a purchase is made) or buying wins ties; a market move must
        improve the position strictly, so a planned turn always ends.
        """
        best_action, best_value = END_TURN, self.value(m) if m.bought else NEG
        for buyer, colour, *_ in purchases(m, self.me):
            after = m.copy()
            rules.buy(after, self.me, buyer, colour)
            v = self.chain(after, BUY_CHAIN - 1)
            if v > best_value:
                best_action, best_value = BUY + buyer * NUM_COLOURS + colour, v
        margin = 1e-6
        tallies: dict[int | None, Tally] = {}  # a market move changes no tally but the payer's
        for square, payer in rules.play_moves(m):
            after = m.copy()
            if payer is None:
                rules.errand_move(after, square)
                action = MOVE + square
            else:
                rules.paid_move(after, square, payer)
                action = PAID_MOVE + square * BUYERS_PER_PLAYER + payer
            tally = tallies.get(payer)
            if tally is None:
                tally = tallies[payer] = Tally(self, after)
            v = self.chain(after, 1, tally)
            if v > best_value + margin:
                best_action, best_value = action, v
        return best_action, best_value

    def chain(self, m: Market, depth: int, tally: Tally | None = None) -> float:
        """The best of ending the turn here or buying on (purchases only, `depth` more);
        `tally` is `m`'s, if known."""
        if tally is None:
            tally = Tally(self, m)
        best = tally.value(m)
        if not m.bought:  # no purchase yet: still owed, so a position without one open is poor
            best -= STUCK * self.coin * sum(tally.weights) / NUM_COLOURS
        if depth:
            for buyer, colour, *_ in purchases(m, self.me):
                after = m.copy()
                rules.buy(after, self.me, buyer, colour)
                best = max(best, self.chain(after, depth - 1))
        return best

    # --- PASS (AM-5) --------------------------------------------------------------------------
    def pass_value(self, m: Market) -> float:
        """The position a PASS turn is expected to end in: the expected restock (fractional
        goods), two greedy market moves, the best coin and the king's best purchase."""
        after = m.copy()
        draws = min(rules.RESTOCK_DRAWS, after.bag())
        unseen = sum(after.unseen)
        if draws > 0 and unseen > 0:
            for c in range(NUM_COLOURS):
                share = draws * after.unseen[c] / unseen
                after.vendor_goods[c] += share
                after.unseen[c] -= share
        tally = Tally(self, after)
        for _ in range(rules.PASS_MARKET_MOVES):
            square = max((s for s in range(SQUARES) if s != after.hole),
                         key=lambda s: self.moved_value(after, s, tally))
            rules.move_tile(after, square)
        if 0 in rules.buyer_coins(after, self.me) and after.reserve > 0:
            rules.take_coin(after, self.me * BUYERS_PER_PLAYER + self.best_coin(after))
        after.phase = PASS_KING
        if rules.king_choices(after):
            return max(self.king_values(after).values())
        rules.end_turn(after)
        return self.value(after)

    def moved_value(self, m: Market, square: int, tally: Tally) -> float:
        """The position after a PASS move into the hole, the king's coming purchase included."""
        after = m.copy()
        rules.move_tile(after, square)
        return tally.value(after) + tally.king_gain(after)

    def pass_move(self, m: Market) -> int:
        """The market move into the hole that leaves the best position after both PASS moves:
        for the first move, the few best by themselves are tried with every second move."""
        tally = Tally(self, m)
        squares = [s for s in range(SQUARES) if s != m.hole]
        alone = {s: self.moved_value(m, s, tally) for s in squares}
        if m.moves_left <= 1:
            return max(squares, key=alone.__getitem__)
        best_square, best_value = squares[0], NEG
        for first in sorted(squares, key=lambda s: -alone[s])[:FIRST_MOVES]:
            after = m.copy()
            rules.move_tile(after, first)
            v = max(self.moved_value(after, s, tally) for s in range(SQUARES) if s != after.hole)
            if v > best_value:
                best_square, best_value = first, v
        return best_square

    def best_coin(self, m: Market) -> int:
        """The buyer without a coin that makes the best purchase open (then the best view)."""
        def worth(buyer: int) -> float:
            after = m.copy()
            rules.take_coin(after, self.me * BUYERS_PER_PLAYER + buyer)
            return self.value(after) + 0.01 * view_quality(m, self.me, buyer)
        free = [b for b in range(BUYERS_PER_PLAYER) if not m.coins[self.me * BUYERS_PER_PLAYER + b]]
        return max(free, key=worth)

    def king_values(self, m: Market) -> dict[int, float]:
        """The position after each king's choice (and skipping), the turn over."""
        options: dict[int, float] = {}
        for colour in [*rules.king_choices(m), None]:
            after = m.copy()
            if colour is None:
                rules.end_turn(after)
                options[KING_SKIPS] = self.value(after)
            else:
                rules.king_buys(after, colour)
                options[KING_BUYS + colour] = self.value(after)
        return options

    def king_purchase(self, m: Market) -> int:
        """The king buys what raises the bot's side most (usually the colour it leads most in)."""
        options = self.king_values(m)
        return max(options, key=lambda a: options[a])

    # --- set-up (AM-3) ------------------------------------------------------------------------
    def start_coin(self, m: Market) -> int:
        """The start coin goes to the buyer with the clearest view of the vendors."""
        return max(range(BUYERS_PER_PLAYER), key=lambda b: view_quality(m, self.me, b))

    def layout_value(self, m: Market) -> float:
        """The bot's side's views of the vendors against the other sides'."""
        values = [sum(view_quality(m, s, b) for s in side for b in range(BUYERS_PER_PLAYER))
                  for side in self.sides]
        return self.relative(values)

    def build(self, m: Market) -> int:
        """Place the tile (on the square) that most improves the bot's views over the others'."""
        left = rules.tiles_left(m)
        trial = m.copy()
        best_action, best_value = -1, NEG
        for kind, count in enumerate(left):
            if not count:
                continue
            for square in range(SQUARES):
                if trial.layout[square] != HOLE:
                    continue
                trial.layout[square] = kind
                v = self.layout_value(trial)
                trial.layout[square] = HOLE
                if v > best_value:
                    best_action, best_value = PLACE + kind * SQUARES + square, v
        return best_action


def apply_play(m: Market, action: int) -> None:
    """Apply a PLAY action to the plain position with the engine's rules (as the state does)."""
    if action == END_TURN:
        rules.end_turn(m)
    elif action < PAID_MOVE:
        rules.errand_move(m, action - MOVE)
    elif action < COIN:
        rules.paid_move(m, *divmod(action - PAID_MOVE, BUYERS_PER_PLAYER))
    else:
        rules.buy(m, m.player, *divmod(action - BUY, NUM_COLOURS))
