"""The position of a game of Aztec Market as plain data."""

from __future__ import annotations

from dataclasses import dataclass

# Phases of play
BUILD, RANDOM_BUILD, START_COIN, CHOOSE, RESTOCK, PASS_MOVES, PASS_COIN, PASS_KING, PLAYING, \
    OVER = range(10)


@dataclass(slots=True)
class Market:
    """Everything on the table. Buyer b of seat p is index p * 4 + b in the buyer lists."""

    num_players: int
    layout: list[int]  # tile kind on each square, HOLE where empty
    hole: int  # the empty square once the market is built
    vendor_goods: list[int]  # goods on each vendor, by colour
    king_goods: list[int]  # goods on the king, by colour
    buyer_goods: list[int]  # goods held by each buyer
    buyer_colour: list[int]  # the colour a buyer holds, -1 while it holds nothing
    coins: list[int]  # 0 or 1 per buyer
    reserve: int  # coins in the reserve
    unseen: list[int]  # goods nobody has seen, by colour: the bag plus the hidden removed goods
    hidden_removed: int  # how many of the unseen goods left the game unseen (AM-3)
    removed: list[int]  # goods removed openly (option luck=False), by colour
    phase: int
    player: int  # the seat to act (the chooser during chance steps of a turn)
    placed: int = 0  # market tiles placed so far (set-up)
    draws_left: int = 0  # goods still to draw in this restock
    moves_left: int = 0  # market moves still owed in this PASS
    bought: bool = False  # PLAY: a purchase has been made this turn
    last_errand: bool = False  # PLAY: the last action moved the errand boy

    def bag(self) -> int:
        """Goods still to be drawn (AM-5 step 1); zero ends the game at the round's end."""
        return sum(self.unseen) - self.hidden_removed

    def copy(self) -> Market:
        return Market(self.num_players, self.layout[:], self.hole, self.vendor_goods[:],
                      self.king_goods[:], self.buyer_goods[:], self.buyer_colour[:],
                      self.coins[:], self.reserve, self.unseen[:], self.hidden_removed,
                      self.removed[:], self.phase, self.player, self.placed, self.draws_left,
                      self.moves_left, self.bought, self.last_errand)

    def key(self) -> tuple[object, ...]:
        return (self.num_players, tuple(self.layout), self.hole, tuple(self.vendor_goods),
                tuple(self.king_goods), tuple(self.buyer_goods), tuple(self.buyer_colour),
                tuple(self.coins), self.reserve, tuple(self.unseen), self.hidden_removed,
                tuple(self.removed), self.phase, self.player, self.placed, self.draws_left,
                self.moves_left, self.bought, self.last_errand)
