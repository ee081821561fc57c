"""Aztec Market on the game contract: dispatch from action ids to the rules, notation, views."""

from __future__ import annotations

from typing import Any

from tlatelolco.contract import Game, State
from tlatelolco.games.aztec_market import rules, tensors, words
from tlatelolco.games.aztec_market.components import (
    BUY,
    BUYER_NAMES,
    BUYERS_PER_PLAYER,
    COIN,
    COLOURS,
    DRAW,
    END_TURN,
    HOLE,
    HOLE_AT,
    KING,
    KING_BUYS,
    KING_SKIPS,
    MOVE,
    NUM_ACTIONS,
    NUM_COLOURS,
    PAID_MOVE,
    PASS,
    PLACE,
    PLAY,
    SIDES,
    SQUARE_NAMES,
    SQUARES,
    TEAMS,
    TILE_NAMES,
)
from tlatelolco.games.aztec_market.market import (
    BUILD,
    CHOOSE,
    PASS_COIN,
    PASS_KING,
    PASS_MOVES,
    PLAYING,
    RANDOM_BUILD,
    RESTOCK,
    START_COIN,
    Market,
)
from tlatelolco.i18n import N_, Message, Reason, reason

PHASE_NAMES = ("build", "random build", "start coin", "choose", "restock", "pass moves",
               "pass coin", "pass king", "play", "over")


class AztecMarketState(State):
    __slots__ = ("_m",)

    def __init__(self, game: Game, market: Market | None = None) -> None:
        super().__init__(game)
        if market is None:
            o = game.options
            market = rules.set_up(game.num_players(), o["removed"], o["luck"],
                                  o["setup"] == "random")
        self._m = market

    @property
    def market(self) -> Market:
        """The position as plain data (read it; change it only through actions)."""
        return self._m

    def current_player(self) -> int:
        return rules.to_move(self._m)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        m = self._m
        if m.phase == RESTOCK:
            return [(DRAW + c, p) for c, p in rules.restock_outcomes(m)]
        if m.phase == RANDOM_BUILD:
            square = m.placed
            return sorted((HOLE_AT + square if kind == HOLE else PLACE + kind * SQUARES + square,
                           p) for kind, _, p in rules.random_build_outcomes(m))
        return []

    def legal_actions(self) -> list[int]:
        m = self._m
        phase = m.phase
        if phase == PLAYING:
            return self._play_actions()
        if phase == CHOOSE:
            return [PASS, PLAY] if rules.purchase_reachable(m, m.player) else [PASS]
        if phase == PASS_MOVES:
            return [MOVE + s for s in range(SQUARES) if s != m.hole]
        if phase in (START_COIN, PASS_COIN):
            coins = rules.buyer_coins(m, m.player)
            return [COIN + b for b in range(BUYERS_PER_PLAYER) if not coins[b]]
        if phase == PASS_KING:
            return [KING_BUYS + c for c in rules.king_choices(m)] + [KING_SKIPS]
        if phase == BUILD:
            left = rules.tiles_left(m)
            return [PLACE + kind * SQUARES + s for kind in range(len(left)) if left[kind]
                    for s in range(SQUARES) if m.layout[s] == HOLE]
        if phase in (RESTOCK, RANDOM_BUILD):
            return sorted(a for a, _ in self.chance_outcomes())
        return []

    def _play_actions(self) -> list[int]:
        m = self._m
        actions = [MOVE + s if payer is None else PAID_MOVE + s * BUYERS_PER_PLAYER + payer
                   for s, payer in rules.play_moves(m)]
        actions += [BUY + b * NUM_COLOURS + c for b, c in rules.play_purchases(m)]
        if m.bought:
            actions.append(END_TURN)
        actions.sort()
        return actions

    def illegal_reason(self, action: int) -> Reason | None:
        """Why `action` is illegal now, as a `Reason` (English, and a message for Spanish)."""
        m = self._m
        if not 0 <= action < NUM_ACTIONS:
            return reason(N_("actions are numbered 0 to {last}"), last=NUM_ACTIONS - 1)
        phase = m.phase
        if phase in (RESTOCK, RANDOM_BUILD):
            if action not in {a for a, _ in self.chance_outcomes()}:
                return reason(N_("that is not a possible outcome of this chance event"))
            return None
        if phase == PLAYING:
            if not (MOVE <= action < COIN or BUY <= action < KING_BUYS or action == END_TURN):
                return reason(N_("during your turn the moves are {moves}"),
                              moves=_PHASE_ACTIONS[PLAYING])
            if action < PAID_MOVE:
                return rules.why_cannot_errand(m, action - MOVE)
            if action < COIN:
                square, buyer = divmod(action - PAID_MOVE, BUYERS_PER_PLAYER)
                return rules.why_cannot_paid_move(m, square, buyer)
            if action < KING_BUYS:
                buyer, colour = divmod(action - BUY, NUM_COLOURS)
                return rules.why_cannot_buy(m, m.player, buyer, colour)
            return rules.why_cannot_end_turn(m)
        if phase == CHOOSE and action in (PASS, PLAY):
            return rules.why_cannot_play(m) if action == PLAY else None
        if phase == PASS_MOVES and MOVE <= action < PAID_MOVE:
            return rules.why_cannot_move(m, action - MOVE)
        if phase in (START_COIN, PASS_COIN) and COIN <= action < BUY:
            return rules.why_cannot_take_coin(m, action - COIN)
        if phase == PASS_KING and (KING_BUYS <= action <= KING_SKIPS):
            if action == KING_SKIPS or action - KING_BUYS in rules.king_choices(m):
                return None
            return reason(N_("the king can only buy from a vendor with goods in his row or "
                             "column"))
        if phase == BUILD and action < MOVE:
            kind, square = divmod(action - PLACE, SQUARES)
            return rules.why_cannot_place(m, kind, square)
        if phase not in _PHASE_ACTIONS:
            return reason(N_("now is the time for nothing: the game is over"))
        return reason(N_("now is the time for {moves}"), moves=_PHASE_ACTIONS[phase])

    def _apply(self, action: int) -> None:
        m = self._m
        phase = m.phase
        if phase == PLAYING:
            if action < PAID_MOVE:
                rules.errand_move(m, action - MOVE)
            elif action < COIN:
                rules.paid_move(m, *divmod(action - PAID_MOVE, BUYERS_PER_PLAYER))
            elif action < KING_BUYS:
                rules.buy(m, m.player, *divmod(action - BUY, NUM_COLOURS))
            else:
                rules.end_turn(m)
        elif phase == RESTOCK:
            rules.restock(m, action - DRAW)
        elif phase == PASS_MOVES:
            rules.pass_move(m, action - MOVE)
        elif phase == CHOOSE:
            if action == PASS:
                rules.begin_pass(m)
            else:
                m.phase, m.bought, m.last_errand = PLAYING, False, False
        elif phase == PASS_COIN:
            rules.pass_coin(m, action - COIN)
        elif phase == PASS_KING:
            if action == KING_SKIPS:
                rules.end_turn(m)
            else:
                rules.king_buys(m, action - KING_BUYS)
        elif phase == START_COIN:
            rules.place_start_coin(m, action - COIN)
        elif action >= HOLE_AT:
            rules.leave_hole(m, action - HOLE_AT)
        else:
            rules.place(m, *divmod(action - PLACE, SQUARES))

    # --- notation ----------------------------------------------------------------------------
    def action_to_string(self, action: int) -> str:
        m = self._m
        seat = m.player if 0 <= m.player < m.num_players else 0
        if PLACE <= action < MOVE:
            kind, square = divmod(action - PLACE, SQUARES)
            return f"place {TILE_NAMES[kind]} at {SQUARE_NAMES[square]}"
        if MOVE <= action < PAID_MOVE:
            square = action - MOVE
            return f"move {self._tile_at(square)} from {SQUARE_NAMES[square]}"
        if PAID_MOVE <= action < COIN:
            square, buyer = divmod(action - PAID_MOVE, BUYERS_PER_PLAYER)
            return (f"move {self._tile_at(square)} from {SQUARE_NAMES[square]} paying "
                    f"{BUYER_NAMES[seat][buyer]}")
        if COIN <= action < BUY:
            return f"coin on {BUYER_NAMES[seat][action - COIN]}"
        if BUY <= action < KING_BUYS:
            buyer, colour = divmod(action - BUY, NUM_COLOURS)
            return f"buy {BUYER_NAMES[seat][buyer]} from {COLOURS[colour]}"
        if KING_BUYS <= action < KING_SKIPS:
            return f"king buys {COLOURS[action - KING_BUYS]}"
        simple = {KING_SKIPS: "king skips", PASS: "pass", PLAY: "play", END_TURN: "end turn"}
        if action in simple:
            return simple[action]
        if DRAW <= action < HOLE_AT:
            return f"draw {COLOURS[action - DRAW]}"
        if HOLE_AT <= action < NUM_ACTIONS:
            return f"hole at {SQUARE_NAMES[action - HOLE_AT]}"
        return f"<action {action!r} outside 0..{NUM_ACTIONS - 1}>"

    def describe_action(self, action: int) -> Message:
        """`action` in words for the log (see `words`), on this state before it is applied."""
        return words.describe(self, action)

    def _tile_at(self, square: int) -> str:
        tile = self._m.layout[square]
        return "nothing" if tile == HOLE else TILE_NAMES[tile]

    def action_aliases(self, action: int) -> tuple[str, ...]:
        if MOVE <= action < PAID_MOVE:
            square = SQUARE_NAMES[action - MOVE]
            tile = self._tile_at(action - MOVE)
            aliases = [f"move {square}"]
            if self._m.layout.count(self._m.layout[action - MOVE]) == 1:
                aliases.append(f"move {tile}")  # a unique tile may be named alone
            return tuple(aliases)
        if PAID_MOVE <= action < COIN:
            square, buyer = divmod(action - PAID_MOVE, BUYERS_PER_PLAYER)
            seat = self._m.player
            return (f"move {SQUARE_NAMES[square]} paying {BUYER_NAMES[seat][buyer]}",
                    f"move {SQUARE_NAMES[square]} pay {BUYER_NAMES[seat][buyer]}")
        if action == END_TURN:
            return ("end",)
        if action < MOVE:
            kind, square = divmod(action - PLACE, SQUARES)
            tile, at = TILE_NAMES[kind], SQUARE_NAMES[square]
            short = tile.removesuffix(" vendor")
            return (f"{tile} at {at}", f"{tile} {at}", f"{short} {at}")
        return ()

    def action_to_dict(self, action: int) -> dict[str, Any]:
        if not 0 <= action < NUM_ACTIONS:
            raise ValueError(f"action {action!r} is outside 0..{NUM_ACTIONS - 1}")
        seat = self._m.player if 0 <= self._m.player < self._m.num_players else 0
        if action < MOVE:
            kind, square = divmod(action - PLACE, SQUARES)
            return {"kind": "place", "tile": TILE_NAMES[kind], "square": SQUARE_NAMES[square]}
        if action < COIN:  # `tile` and `to` (the hole it goes into) let a board mark the move
            square, buyer = ((action - MOVE, None) if action < PAID_MOVE
                             else divmod(action - PAID_MOVE, BUYERS_PER_PLAYER))
            return {"kind": "move", "square": SQUARE_NAMES[square], "tile": self._tile_at(square),
                    "to": self._square_name(self._m.hole),
                    "paid_by": None if buyer is None else BUYER_NAMES[seat][buyer]}
        if action < BUY:
            return {"kind": "coin", "buyer": BUYER_NAMES[seat][action - COIN]}
        if action < KING_BUYS:  # `square`: where the vendor stands now
            buyer, colour = divmod(action - BUY, NUM_COLOURS)
            return {"kind": "buy", "buyer": BUYER_NAMES[seat][buyer], "vendor": COLOURS[colour],
                    "square": self._square_name(self._where(colour))}
        if action < KING_SKIPS:
            colour = action - KING_BUYS
            return {"kind": "king_buys", "vendor": COLOURS[colour],
                    "square": self._square_name(self._where(colour)),
                    "king": self._square_name(self._where(KING))}
        simple = {KING_SKIPS: "king_skips", PASS: "pass", PLAY: "play", END_TURN: "end_turn"}
        if action in simple:
            return {"kind": simple[action]}
        if action < HOLE_AT:
            return {"kind": "draw", "colour": COLOURS[action - DRAW]}
        return {"kind": "hole", "square": SQUARE_NAMES[action - HOLE_AT]}

    def _where(self, tile: int) -> int:
        """The square of a unique tile, -1 while it is not on the market."""
        layout = self._m.layout
        return layout.index(tile) if tile in layout else -1

    @staticmethod
    def _square_name(square: int) -> str | None:
        return SQUARE_NAMES[square] if 0 <= square < SQUARES else None

    # --- results and views -------------------------------------------------------------------
    def returns(self) -> list[float]:
        return rules.returns(self._m)

    def scores(self) -> list[float]:
        return rules.scores(self._m)

    def clone(self) -> AztecMarketState:
        new = type(self).__new__(type(self))
        new._game = self._game
        new._history = self._history[:]
        new._m = self._m.copy()
        return new

    def observation(self, player: int) -> dict[str, Any]:
        """Everything is public (AM-8) but the order of the bag; every seat sees the same."""
        self.check_seat(player)
        m = self._m
        n = m.num_players
        return {
            "game": "aztec_market",
            "phase": PHASE_NAMES[m.phase],
            "to_move": self.current_player(),
            "turn_of": m.player,  # whose turn it is, also while the bag is drawn from
            "tiles_to_place": {TILE_NAMES[k]: n for k, n in enumerate(rules.tiles_left(m)) if n},
            "market": {SQUARE_NAMES[s]: None if t == HOLE else TILE_NAMES[t]
                       for s, t in enumerate(m.layout)},
            "hole": SQUARE_NAMES[m.hole] if m.hole >= 0 else None,
            "vendors": dict(zip(COLOURS, m.vendor_goods, strict=True)),
            "king": dict(zip(COLOURS, m.king_goods, strict=True)),
            "players": [
                {"seat": seat, "side": SIDES[seat],
                 "buyers": [
                     {"name": BUYER_NAMES[seat][b],
                      "coin": bool(m.coins[seat * BUYERS_PER_PLAYER + b]),
                      "goods": m.buyer_goods[seat * BUYERS_PER_PLAYER + b],
                      "colour": (COLOURS[m.buyer_colour[seat * BUYERS_PER_PLAYER + b]]
                                 if m.buyer_colour[seat * BUYERS_PER_PLAYER + b] >= 0
                                 else None)}
                     for b in range(BUYERS_PER_PLAYER)]}
                for seat in range(n)],
            "teams": [list(t) for t in TEAMS[n]],
            "scores": self.scores(),
            "coin_reserve": m.reserve,
            "bag": m.bag(),
            "unseen": dict(zip(COLOURS, m.unseen, strict=True)),
            "removed": {"openly": dict(zip(COLOURS, m.removed, strict=True)),
                        "unseen": m.hidden_removed},
            "turn": {"bought": m.bought, "errand_boy_just_moved": m.last_errand,
                     "market_moves_owed": m.moves_left, "goods_to_draw": m.draws_left},
            "terminal": self.is_terminal(),
            "returns": self.returns() if self.is_terminal() else None,
        }

    def _write_observation_tensor(self, player: int, out: Any) -> None:
        tensors.write_observation(self._m, player, out)

    def _write_information_state_tensor(self, player: int, out: Any) -> None:
        """The observation and what the history recalls (all of it public: AM-8)."""
        tensors.write_information_state(self._m, self._history, player, out)

    def _key(self) -> tuple[Any, ...]:
        return (self._m.key(), tuple(self._history))


# What each phase expects, for "now is the time for ..." (the quoted moves are notation).
_PHASE_ACTIONS: dict[int, Message] = {
    BUILD: (N_("placing a market tile on an empty square"), {}),
    START_COIN: (N_("placing your start coin on one of your buyers"), {}),
    CHOOSE: (N_("choosing to pass or to play"), {}),
    PASS_MOVES: (N_("moving a market tile into the hole"), {}),
    PASS_COIN: (N_("taking a coin onto one of your buyers"), {}),
    PASS_KING: (N_("the king's purchase, or the king skipping it"), {}),
    PLAYING: (N_("market moves, purchases and ending the turn"), {}),
}


__all__ = ["AztecMarketState"]
