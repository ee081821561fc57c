"""Aztec Market's actions told in words for the game log (English message ids, `tlatelolco.i18n`).

`describe` reads the market *before* the action, so a move can say where the tile goes (the
hole) and a purchase what the porters, governors and the ambassador between buyer and vendor do
to it. Squares and buyers are named as the notation names them (B3, S2); players by seat, so
with four players each partner of a team is named on their own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tlatelolco.games.aztec_market.components import (
    AMBASSADOR,
    BUY,
    BUYER_NAMES,
    BUYERS_PER_PLAYER,
    COIN,
    DRAW,
    END_TURN,
    ERRAND_BOY,
    GOVERNOR,
    HOLE,
    HOLE_AT,
    KING_BUYS,
    KING_SKIPS,
    MOVE,
    NUM_ACTIONS,
    NUM_COLOURS,
    PAID_MOVE,
    PASS,
    PLACE,
    PLAY,
    PORTER,
    SQUARE_NAMES,
    SQUARES,
    TILE_COUNTS,
)
from tlatelolco.games.aztec_market.market import (
    BUILD,
    PASS_COIN,
    PASS_KING,
    PASS_MOVES,
    PLAYING,
    RANDOM_BUILD,
    RESTOCK,
    START_COIN,
    Market,
)
from tlatelolco.games.aztec_market.rules import between
from tlatelolco.i18n import N_, Message, N_n, Plural, Seat, Term

if TYPE_CHECKING:
    from tlatelolco.games.aztec_market.state import AztecMarketState

# Market tiles by kind (components.TILE_NAMES order), with the article a sentence needs.
TILE_WORDS = (N_("the black vendor"), N_("the blue vendor"), N_("the red vendor"),
              N_("the green vendor"), N_("a crowd"), N_("a porter"), N_("a governor"),
              N_("the ambassador"), N_("the errand boy"), N_("the king"))
# The vendors by colour, as "from the {vendor}" uses them.
VENDOR_WORDS = (N_("black vendor"), N_("blue vendor"), N_("red vendor"), N_("green vendor"))
# One good of a colour ("a red good"), and a number of them.
A_GOOD = (N_("a black good"), N_("a blue good"), N_("a red good"), N_("a green good"))
GOODS = (N_n("{n} black good", "{n} black goods"), N_n("{n} blue good", "{n} blue goods"),
         N_n("{n} red good", "{n} red goods"), N_n("{n} green good", "{n} green goods"))
THEN = N_("{first}; {then}")  # a purchase and what the tiles between did to it
FULL_MARKET = sum(TILE_COUNTS)


def describe(state: AztecMarketState, action: int) -> Message:
    """`action` in words, on `state` before it is applied (see `describe_market`)."""
    return describe_market(state.market, action) or ("{text}", {
        "text": state.action_to_string(action)})


def describe_market(m: Market, action: int) -> Message | None:
    """`action` told in words on the position `m` before it, or None when it makes no sense
    there (an illegal action is never logged, but describing one must not fail)."""
    if not 0 <= action < NUM_ACTIONS:
        return None
    phase = m.phase
    if phase == RANDOM_BUILD:
        return _random_build(m, action)
    if phase == RESTOCK:
        return _draw(m, action - DRAW) if DRAW <= action < HOLE_AT else None
    if not 0 <= m.player < m.num_players:
        return None
    player = Seat(m.player)
    if phase == BUILD and action < MOVE:
        return _place(m, player, *divmod(action - PLACE, SQUARES))
    if phase in (START_COIN, PASS_COIN) and COIN <= action < BUY:
        buyer = BUYER_NAMES[m.player][action - COIN]
        if phase == START_COIN:
            return N_("{player} put the starting coin on buyer {buyer}"), {
                "player": player, "buyer": buyer}
        return N_("{player} took a coin from the reserve for buyer {buyer}"), {
            "player": player, "buyer": buyer}
    if action == PASS:
        if m.bag():
            return N_("{player} chose to pass"), {"player": player}
        return N_("{player} chose to pass; the bag is empty, so no goods are drawn"), {
            "player": player}
    if action == PLAY:
        return N_("{player} chose to play"), {"player": player}
    if phase in (PASS_MOVES, PLAYING) and MOVE <= action < COIN and m.hole >= 0:
        return _move(m, player, action)
    if phase == PLAYING and BUY <= action < KING_BUYS:
        return _buy(m, player, *divmod(action - BUY, NUM_COLOURS))
    if phase == PASS_KING and KING_BUYS <= action < KING_SKIPS:
        colour = action - KING_BUYS
        return N_("{player} had the king buy a good from the {vendor}"), {
            "player": player, "vendor": Term(VENDOR_WORDS[colour])}
    if action == KING_SKIPS:
        return N_("{player} let the king go without a purchase"), {"player": player}
    if action == END_TURN:
        return N_("{player} ended their turn"), {"player": player}
    return None


def _random_build(m: Market, action: int) -> Message | None:
    if HOLE_AT <= action < NUM_ACTIONS:
        return N_("The random market leaves {square} empty: it is the hole"), {
            "square": SQUARE_NAMES[action - HOLE_AT]}
    if action < MOVE:
        kind, square = divmod(action - PLACE, SQUARES)
        return N_("The random market puts {tile} on {square}"), {
            "tile": Term(TILE_WORDS[kind]), "square": SQUARE_NAMES[square]}
    return None


def _place(m: Market, player: Seat, kind: int, square: int) -> Message:
    fields: dict[str, Any] = {"player": player, "tile": Term(TILE_WORDS[kind]),
                              "square": SQUARE_NAMES[square]}
    empty = [s for s in range(SQUARES) if m.layout[s] == HOLE and s != square]
    if m.placed + 1 == FULL_MARKET and len(empty) == 1:
        fields["hole"] = SQUARE_NAMES[empty[0]]
        return N_("{player} placed {tile} on {square}; the market is complete and {hole} is "
                  "the hole"), fields
    return N_("{player} placed {tile} on {square}"), fields


def _draw(m: Market, colour: int) -> Message:
    fields = {"good": Term(A_GOOD[colour]), "vendor": Term(VENDOR_WORDS[colour])}
    if m.bag() == 1:
        return N_("Restock: {good}, the last one in the bag, goes onto the {vendor}"), fields
    return N_("Restock: {good} from the bag goes onto the {vendor}"), fields


def _move(m: Market, player: Seat, action: int) -> Message:
    """A market tile into the hole: during PASS, the errand boy's free move, or a paid one."""
    square = action - MOVE if action < PAID_MOVE else (action - PAID_MOVE) // BUYERS_PER_PLAYER
    kind = m.layout[square]
    fields: dict[str, Any] = {"player": player, "source": SQUARE_NAMES[square],
                              "target": SQUARE_NAMES[m.hole]}
    fields["tile"] = Term(TILE_WORDS[kind]) if kind != HOLE else Term(N_("nothing"))
    if action >= PAID_MOVE:
        fields["buyer"] = BUYER_NAMES[m.player][(action - PAID_MOVE) % BUYERS_PER_PLAYER]
        return N_("{player} paid the coin of buyer {buyer} to move {tile} from {source} to "
                  "{target}"), fields
    if m.phase == PLAYING and kind == ERRAND_BOY:
        return N_("{player} moved the errand boy from {source} to {target} for free"), fields
    return N_("{player} moved {tile} from {source} into the hole at {target}"), fields


def _buy(m: Market, player: Seat, buyer: int, colour: int) -> Message:
    """A purchase and its effects, as `rules.buy` works them out: porters first, then
    governors; the ambassador keeps the coin on the buyer."""
    tiles = between(m, m.player, buyer, colour) or ()
    goods = m.vendor_goods[colour]
    returned = min(tiles.count(PORTER), max(goods - 1, 0))
    to_king = min(tiles.count(GOVERNOR), goods - returned)
    kept = goods - returned - to_king
    fields: dict[str, Any] = {"player": player, "buyer": BUYER_NAMES[m.player][buyer],
                              "vendor": Term(VENDOR_WORDS[colour])}
    if kept:
        fields["goods"] = Plural(GOODS[colour], kept), {}
        told: Message = (N_("{player} bought {goods} from the {vendor} with buyer {buyer}"),
                         fields)
    else:
        told = (N_("{player} bought from the {vendor} with buyer {buyer} but kept no goods"),
                fields)
    effects: list[Message] = []
    if returned:
        effects.append((Plural(N_n("a porter gave {n} good back to the vendor",
                                   "the porters gave {n} goods back to the vendor"),
                               returned), {}))
    if to_king:
        effects.append((Plural(N_n("a governor gave {n} good to the king",
                                   "the governors gave {n} goods to the king"), to_king), {}))
    if AMBASSADOR in tiles:
        effects.append((N_("the ambassador let the buyer keep the coin"), {}))
    for effect in effects:
        told = THEN, {"first": told, "then": effect}
    return told


__all__ = ["A_GOOD", "GOODS", "TILE_WORDS", "VENDOR_WORDS", "describe", "describe_market"]
