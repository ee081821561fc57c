"""Grand Bazaar on the game contract: dispatch from action ids to the rules."""

from __future__ import annotations

from typing import Any

from tlatelolco.contract import CHANCE, TERMINAL, Game, State
from tlatelolco.games.grand_bazaar import rules, tensors, words
from tlatelolco.games.grand_bazaar.board import Bazaar
from tlatelolco.games.grand_bazaar.cards import (
    BUY,
    END_TURN,
    GEMS,
    HAND_LIMIT,
    NUM_ACTIONS,
    NUM_CARDS,
    PRICE_CARDS,
    ROUNDS,
    SELL,
    card_text,
    deck_text,
)
from tlatelolco.i18n import N_, Message, Reason, reason


class GrandBazaarState(State):
    __slots__ = ("_b", "_player")

    def __init__(self, game: Game, bazaar: Bazaar | None = None) -> None:
        super().__init__(game)
        self._b = bazaar if bazaar is not None else rules.set_up(game.num_players())
        self._player = rules.to_move(self._b)

    @property
    def bazaar(self) -> Bazaar:
        """The position as plain data (read it; change it only through actions)."""
        return self._b

    def current_player(self) -> int:
        return self._player

    def is_chance_node(self) -> bool:
        return self._player == CHANCE

    def is_terminal(self) -> bool:
        return self._player == TERMINAL

    def chance_outcomes(self) -> list[tuple[int, float]]:
        uniform = self.uniform_chance_outcomes()
        if uniform is None:
            return []
        cards, p = uniform
        return [(c, p) for c in cards]

    def uniform_chance_outcomes(self) -> tuple[list[int], float] | None:
        """A price card: every card left in the deck alike (GB-3, GB-6)."""
        if self._player != CHANCE:
            return None
        cards = rules.price_cards_left(self._b)
        return cards, 1.0 / len(cards)

    def legal_actions(self) -> list[int]:
        player = self._player
        if player >= 0:
            return rules.legal_trades(self._b, player)
        if player == CHANCE:
            return rules.price_cards_left(self._b)
        return []

    def illegal_reason(self, action: int) -> Reason | None:
        """Why `action` is illegal here, as a `Reason` (English text, translatable), or None."""
        b, player = self._b, self._player
        if not 0 <= action < NUM_ACTIONS:
            return reason(N_("actions are numbered 0 to {last}"), last=NUM_ACTIONS - 1)
        if player == TERMINAL:
            return reason(N_("the game is over"))
        if action < NUM_CARDS:
            return rules.why_cannot_reveal(b, action)
        if player == CHANCE:
            return reason(N_("a price card must be revealed first"))
        if action < SELL:
            return rules.why_cannot_buy(b, player, action - BUY)
        if action < END_TURN:
            return rules.why_cannot_sell(b, player, action - SELL)
        return rules.why_cannot_end_turn(b, player)

    def _apply(self, action: int) -> None:
        b = self._b
        if action < NUM_CARDS:
            rules.reveal_price_card(b, action)
        elif action < SELL:
            rules.buy(b, self._player, action - BUY)
        elif action < END_TURN:
            rules.sell(b, self._player, action - SELL)
        else:
            rules.end_turn(b)
        self._player = rules.to_move(b)

    def action_to_string(self, action: int) -> str:
        if 0 <= action < NUM_CARDS:
            return f"reveal {card_text(action)}"
        if BUY <= action < SELL:
            return f"buy {GEMS[action - BUY]}"
        if SELL <= action < END_TURN:
            return f"sell {GEMS[action - SELL]}"
        if action == END_TURN:
            return "end turn"
        return f"<action {action!r} outside 0..{NUM_ACTIONS - 1}>"

    def describe_action(self, action: int) -> Message:
        """The log's words for `action` (see `words`), on this state before it is applied."""
        return words.describe(self, action)

    def action_aliases(self, action: int) -> tuple[str, ...]:
        if BUY <= action < END_TURN:
            verb, gem = self.action_to_string(action).split()
            return (f"{verb} {gem[0]}", f"{verb[0]} {gem[0]}", f"{verb[0]} {gem}")
        if action == END_TURN:
            return ("end", "done")
        return ()

    def action_to_dict(self, action: int) -> dict[str, Any]:
        if 0 <= action < NUM_CARDS:
            return {"kind": "reveal", "card": action,
                    "changes": dict(zip(GEMS, PRICE_CARDS[action], strict=True))}
        if BUY <= action < SELL:
            return {"kind": "buy", "gem": GEMS[action - BUY]}
        if SELL <= action < END_TURN:
            return {"kind": "sell", "gem": GEMS[action - SELL]}
        if action == END_TURN:  # with the turn's trades, so that a board can show what it did
            b = self._b
            return {"kind": "end_turn",
                    "bought": [g for i, g in enumerate(GEMS) if b.bought >> i & 1],
                    "sold": [g for i, g in enumerate(GEMS) if b.sold >> i & 1]}
        raise ValueError(f"action {action!r} is outside 0..{NUM_ACTIONS - 1}")

    def returns(self) -> list[float]:
        return rules.returns(self._b)

    def scores(self) -> list[float]:
        """Grands held (after round 27 this includes the payout for gems)."""
        return [float(m) for m in self._b.money]

    def clone(self) -> GrandBazaarState:
        new = type(self).__new__(type(self))
        new._game = self._game
        new._history = self._history[:]
        new._b = self._b.copy()
        new._player = self._player
        return new

    def observation(self, player: int) -> dict[str, Any]:
        """Everything is public (GB-6): every seat gets the same view."""
        self.check_seat(player)
        b = self._b
        view: dict[str, Any] = {
            "game": "grand_bazaar",
            "round": b.round,
            "rounds": ROUNDS,
            "hand_limit": HAND_LIMIT,
            "start_player": rules.start_player(b) if b.round else 0,
            "to_move": self._player,
            "prices": dict(zip(GEMS, b.prices, strict=True)),
            "bazaar": dict(zip(GEMS, b.supply, strict=True)),
            "players": [
                {"seat": seat, "grands": b.money[seat],
                 "gems": dict(zip(GEMS, b.hands[seat], strict=True))}
                for seat in range(b.num_players)
            ],
            "last_card": card_text(b.last_card) if b.last_card >= 0 else None,
            "price_cards_left": list(deck_text(b.deck)),
            "this_turn": {
                "bought": [g for i, g in enumerate(GEMS) if b.bought >> i & 1],
                "sold": [g for i, g in enumerate(GEMS) if b.sold >> i & 1],
            },
            "terminal": self._player == TERMINAL,
        }
        if self._player == TERMINAL:
            view["returns"] = self.returns()
        return view

    def _write_observation_tensor(self, player: int, out: Any) -> None:
        tensors.write_observation(self._b, player, out)

    def _write_information_state_tensor(self, player: int, out: Any) -> None:
        tensors.write_information_state(self._b, self._history, player, out)

    def _key(self) -> tuple[Any, ...]:
        return (self._b.key(), tuple(self._history))
