"""The position of a game of Grand Bazaar as plain data."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(slots=True)
class Bazaar:
    """Everything on the table. Lists are indexed by gem (sapphire, ruby, emerald) or seat."""

    num_players: int
    prices: list[int]
    supply: list[int]
    money: list[int]
    hands: list[list[int]]  # hands[seat][gem]: gem cards held
    deck: int  # bitmask of the price cards still face down; their order is chance, not state
    round: int  # price cards revealed so far: 0 before the first, 27 when the game is over
    turn: int  # players who have finished trading this round
    bought: int  # bitmask of gem types the trader bought this turn
    sold: int  # bitmask of gem types the trader sold this turn
    last_card: int = -1  # the face-up price card, -1 before the first reveal

    def copy(self) -> Bazaar:
        return Bazaar(self.num_players, self.prices[:], self.supply[:], self.money[:],
                      [h[:] for h in self.hands], self.deck, self.round, self.turn,
                      self.bought, self.sold, self.last_card)

    def key(self) -> tuple[object, ...]:
        return (self.num_players, tuple(self.prices), tuple(self.supply), tuple(self.money),
                tuple(map(tuple, self.hands)), self.deck, self.round, self.turn,
                self.bought, self.sold, self.last_card)
