"""The rules of Mexica over the plain data of `City`, in the order of the rules digest.

Rule ids (MX-1 ... MX-13) refer to the project's rules digest. Action tokens are spent
implicitly: an action that costs more than the AP left spends saved tokens for the difference,
which is the same as spending them just before it (unspent AP are lost at the end of the turn
anyway) and saves a move that does nothing on its own.
"""

from __future__ import annotations

from tlatelolco.contract import CHANCE, TERMINAL, shared_victory
from tlatelolco.games.mexica import areas, placement
from tlatelolco.games.mexica.actions import (
    BOAT,
    BRIDGE,
    BUILD,
    CANAL,
    DOUBLE,
    DRAW,
    END,
    FOUND,
    K_BOAT,
    K_BRIDGE,
    K_BUILD,
    K_CANAL,
    K_DOUBLE,
    K_DRAW,
    K_END,
    K_FOUND,
    K_MOVE_BRIDGE,
    K_START,
    K_TELEPORT,
    K_TOKEN,
    K_WALK,
    MOVE_BRIDGE,
    NUM_ACTIONS,
    START,
    TELEPORT,
    TOKEN,
    WALK,
    decode,
    double_action,
)
from tlatelolco.games.mexica.board import (
    COAT_OF_ARMS,
    IS_LAKE,
    NAMES,
    NEIGHBOURS,
    NUM_SQUARES,
    ORDINARY,
    PAIRS,
    STARTED,
    STARTING,
    STEPS,
)
from tlatelolco.games.mexica.board import NUM_SQUARES as N
from tlatelolco.games.mexica.city import DRAWING, OVER, PLACING, PLAYING, City
from tlatelolco.games.mexica.components import (
    ACTION_TOKENS,
    AP_PER_TURN,
    BRIDGES,
    DOUBLE_CANALS,
    DOUBLES_AT_SET_UP,
    MAX_ROUNDS,
    PART_ONE_BUILDINGS,
    PART_ONE_TILES,
    PART_TWO_BUILDINGS,
    SINGLE_CANALS,
    SIZES,
    TELEPORT_COST,
    TILE_COUNTS,
    TOKENS_PER_TURN,
    middle,
    small,
)
from tlatelolco.games.mexica.movement import (
    boat_costs,
    can_stand,
    exits,
    free_bridge,
    step_target,
)
from tlatelolco.games.mexica.placement import AXES_OF_MASK
from tlatelolco.games.mexica.scoring import scoring
from tlatelolco.i18n import N_, Reason, Term, reason

# Squares a Mexica could ever stand on: land but the coat of arms (bridges stand on canals,
# which cover land).
STANDING = tuple(s for s in range(NUM_SQUARES) if not IS_LAKE[s] and s != COAT_OF_ARMS)
AXES_OF_MASK_MINUS_ONE = tuple(tuple(a - 1 for a in axes) for axes in AXES_OF_MASK)
VALID_PAIRS = frozenset((a, b) for a, b, _ in PAIRS)
# board.DIRECTIONS as a reason names them (the letters of the notation `walk N`)
DIRECTION_LETTERS = (N_("N"), N_("E"), N_("S"), N_("W"))


# --- set-up (MX-2) -----------------------------------------------------------------------------


def set_up(num_players: int) -> City:
    """The started canal covered by two doubles; tiles face down; no Mexica placed yet."""
    city = City(
        num_players=num_players,
        canal=bytearray(NUM_SQUARES), bridge=bytearray(NUM_SQUARES),
        access=bytearray(NUM_SQUARES), axes=bytearray(NUM_SQUARES),
        diggable=bytearray(NUM_SQUARES),
        building=bytearray(NUM_SQUARES),
        tile=bytearray(NUM_SQUARES), occupied=bytearray(NUM_SQUARES),
        mexica=[-1] * num_players, area=[], area_size=[], area_tile=[], area_free=[],
        singles=SINGLE_CANALS, doubles=DOUBLE_CANALS - DOUBLES_AT_SET_UP, bridges=BRIDGES,
        token_supply=ACTION_TOKENS, tokens=[0] * num_players,
        supply=[list(PART_ONE_BUILDINGS) for _ in range(num_players)],
        reserve=[list(PART_TWO_BUILDINGS) for _ in range(num_players)],
        face_down=[TILE_COUNTS[k] for k in SIZES], available=[0] * len(SIZES), removed=[],
        scores=[0] * num_players, turns=[0] * num_players)
    for square in STARTED:
        city.canal[square] = 1
    derive(city)
    return city


def derive(city: City) -> None:
    """Recompute everything that follows from the pieces on the board: areas, bridge ends and
    sites, occupied squares, where canals may go. Set-up and hand-built positions use it; play
    keeps these up to date move by move."""
    city.access = bytearray(NUM_SQUARES)
    for square in range(NUM_SQUARES):
        if city.bridge[square]:
            for end in placement.accesses(square, city.bridge[square]):
                city.access[end] += 1
    city.occupied = bytearray(
        bool(city.building[s] or city.tile[s] or s in city.mexica) for s in range(NUM_SQUARES))
    areas.label_all(city)
    for square in range(NUM_SQUARES):
        placement.update_axes(city, square)
        placement.refresh_diggable(city, square)


def to_move(city: City) -> int:
    if city.phase == DRAWING:
        return CHANCE
    if city.phase == OVER:
        return TERMINAL
    return city.player


def draw_outcomes(city: City) -> list[tuple[int, float]]:
    """The next part-1 tile, each size by how many of it are still face down."""
    left = sum(city.face_down)
    return [(DRAW + i, n / left) for i, n in enumerate(city.face_down) if n]


def draw(city: City, size: int) -> None:
    city.face_down[size - SIZES[0]] -= 1
    city.available[size - SIZES[0]] += 1
    if sum(city.available) == PART_ONE_TILES:
        city.phase = PLACING


def place_mexica(city: City, square: int) -> None:
    """The start player first, then clockwise, each on a free starting square."""
    _put_mexica(city, city.player, square)
    city.player = (city.player + 1) % city.num_players
    if city.player == 0:
        city.phase = PLAYING
        _begin_turn(city)


# --- a turn (MX-4) -----------------------------------------------------------------------------


def _begin_turn(city: City) -> None:
    city.ap = AP_PER_TURN
    city.taken = 0


def budget(city: City) -> int:
    """AP the mover can still spend: those left plus the action tokens they hold."""
    return city.ap + city.tokens[city.player]


def _pay(city: City, cost: int) -> None:
    if cost > city.ap:
        spent = cost - city.ap
        city.tokens[city.player] -= spent
        city.token_supply += spent
        city.ap = 0
    else:
        city.ap -= cost


def first_turn(city: City) -> bool:
    return city.part == 1 and city.turns[city.player] == 0


def cost(city: City, kind: int, a: int, b: int) -> int:
    """What an action costs in AP (founding and ending the turn are free)."""
    if kind == K_BUILD:
        return a
    if kind == K_TELEPORT:
        return TELEPORT_COST
    if kind == K_BOAT:
        at = city.mexica[city.player]
        return boat_costs(city, at, budget(city)).get(a, budget(city) + 1) if city.bridge[at] \
            else 1
    return 0 if kind in (K_END, K_FOUND) else 1


# --- legal actions -----------------------------------------------------------------------------


def legal_actions(city: City) -> list[int]:
    """Every legal action, sorted."""
    if city.phase == DRAWING:
        return [a for a, _ in draw_outcomes(city)]
    if city.phase == PLACING:
        return [START + s for s in STARTING if not city.occupied[s]]
    if city.phase == OVER:
        return []
    actions = _turn_actions(city)
    if first_turn(city):
        blocking = _blocking(city, actions)
        actions = [a for a in actions if a not in blocking]
    return actions


def _turn_actions(city: City) -> list[int]:
    seat = city.player
    money = budget(city)
    at = city.mexica[seat]
    actions = [END]
    # free ordinary land in the Mexica's area: where it may build or put a calpulli tile
    sites = [] if city.bridge[at] else _free_land(city, city.area[at])
    if money < 1:
        return actions + _found_actions(city, seat, sites)
    if city.ap >= 1 and city.taken < TOKENS_PER_TURN and city.token_supply:
        actions.append(TOKEN)
    actions += [WALK + d for d in range(4) if step_target(city, at, d) >= 0]
    occupied, area, ok = city.occupied, city.area, city.diggable
    if city.singles:
        actions += [CANAL + s for s in ORDINARY if ok[s]]
    if city.doubles:
        actions += [DOUBLE + 2 * a + k for a, b, k in PAIRS if ok[a] and ok[b]]
    actions += _bridge_actions(city)
    if city.bridge[at]:
        actions += [BOAT + s for s in sorted(boat_costs(city, at, money)) if not occupied[s]]
    if money >= TELEPORT_COST:
        bridge = city.bridge  # dry squares are exactly those in an area
        actions += [TELEPORT + s for s in STANDING
                    if not occupied[s] and (area[s] >= 0 or bridge[s])]
    for levels, left in enumerate(city.supply[seat], start=1):
        if left and levels <= money:
            actions += [BUILD + (levels - 1) * N + s for s in sites]
    return actions + _found_actions(city, seat, sites)


def _bridge_actions(city: City) -> list[int]:
    """MX-6: placements while the supply lasts, then moves of free bridges."""
    bridge, occupied, axes = city.bridge, city.occupied, city.axes
    bridges = [s for s in placement.SITES if bridge[s]]
    joined = bytearray(NUM_SQUARES)  # how many bridges stand next to each square
    for b in bridges:
        for n in NEIGHBOURS[b]:
            joined[n] += 1
    # 2 * site + axis - 1 for the sites a bridge may take (next to no bridge)
    anywhere = [2 * s + axis for s in placement.SITES
                if axes[s] and not bridge[s] and not occupied[s] and not joined[s]
                for axis in AXES_OF_MASK_MINUS_ONE[axes[s]]]
    if city.bridges:
        return [BRIDGE + t for t in anywhere]
    actions = []
    for source in bridges:
        if occupied[source]:
            continue
        targets = anywhere
        beside = [2 * n + axis for n in NEIGHBOURS[source]  # free once this bridge moves
                  if joined[n] == 1 and axes[n] and not occupied[n]
                  for axis in AXES_OF_MASK_MINUS_ONE[axes[n]]]
        if beside:
            targets = sorted(anywhere + beside)
        actions += map((MOVE_BRIDGE + source * N * 2).__add__, targets)
    return actions


def _free_land(city: City, ident: int) -> list[int]:
    area, occupied = city.area, city.occupied
    return [s for s in ORDINARY if area[s] == ident and not occupied[s]]


def _found_actions(city: City, seat: int, sites: list[int]) -> list[int]:
    """MX-9: a tile on any of `sites` when the Mexica's unfounded area has a tile's size."""
    size = placement.foundable_size(city, seat)
    if not SIZES[0] <= size <= SIZES[-1] or not city.available[size - SIZES[0]]:
        return []
    base = FOUND + (size - SIZES[0]) * N
    return [base + s for s in sites]


def why_illegal(city: City, action: int) -> Reason | None:
    """Why `action` may not be taken now, or None; the reason is English text that is also a
    message, so the web page can show it in the reader's language."""
    if not 0 <= action < NUM_ACTIONS:
        return reason(N_("actions are numbered 0 to {last}"), last=NUM_ACTIONS - 1)
    kind, a, b, c = decode(action)
    if city.phase == OVER:
        return reason(N_("the game is over"))
    if city.phase == DRAWING:
        if kind != K_DRAW:
            return reason(N_("the part-1 calpulli tiles are being drawn"))
        return None if city.face_down[a - SIZES[0]] else \
            reason(N_("no tile of size {size} is face down"), size=a)
    if kind == K_DRAW:
        return reason(N_("no calpulli tile is being drawn now"))
    if city.phase == PLACING:
        if kind != K_START:
            return reason(N_("each player first puts their Mexica on a starting square"))
        if a not in STARTING:
            return reason(N_("{square} is not a starting square ({starting})"),
                          square=NAMES[a], starting=_names(STARTING))
        return reason(N_("a Mexica already stands on {square}"), square=NAMES[a]) \
            if city.occupied[a] else None
    if kind == K_START:
        return reason(N_("every Mexica is already on the board"))
    why = _why_not_now(city, kind, a, b, c)
    if why is None:
        price = cost(city, kind, a, b)
        if price > budget(city):
            return reason(N_("it costs {price} AP and you have {ap} AP and {tokens} action "
                             "tokens"), price=price, ap=city.ap, tokens=city.tokens[city.player])
        if first_turn(city) and _blocks_rival(city, action):
            return reason(N_("in your first turn you may not leave a rival Mexica with nowhere "
                             "to step"))
    return why


def _why_not_now(city: City, kind: int, a: int, b: int, c: int) -> Reason | None:
    seat = city.player
    at = city.mexica[seat]
    if kind == K_END:
        return None
    if kind == K_TOKEN:
        if city.taken >= TOKENS_PER_TURN:
            return reason(N_("at most {most} action tokens may be taken per turn"),
                          most=TOKENS_PER_TURN)
        if not city.token_supply:
            return reason(N_("the supply of action tokens is empty"))
        return None if city.ap >= 1 else reason(N_("taking a token costs an AP (not a token)"))
    if kind == K_WALK:
        return None if step_target(city, at, a) >= 0 else \
            reason(N_("your Mexica cannot step {direction} from {square}"),
                   direction=Term(DIRECTION_LETTERS[a]), square=NAMES[at])
    if kind in (K_CANAL, K_DOUBLE):
        return _why_not_canal(city, kind, a, b)
    if kind == K_BRIDGE:
        if not city.bridges:
            return reason(N_("all 11 bridges are on the board; move one instead"))
        return placement.why_not_bridge(city, a, b)
    if kind == K_MOVE_BRIDGE:
        if city.bridges:
            return reason(N_("a bridge may be moved only when all 11 are on the board"))
        if not city.bridge[a]:
            return reason(N_("there is no bridge on {square}"), square=NAMES[a])
        if city.occupied[a]:
            return reason(N_("a Mexica stands on the bridge on {square}"), square=NAMES[a])
        if a == b:
            return reason(N_("a bridge must move to another square"))
        return placement.why_not_bridge(city, b, c, lifted=a)
    if kind == K_BOAT:
        return _why_not_boat(city, at, a)
    if kind == K_TELEPORT:
        return None if can_stand(city, a) or free_bridge(city, a) else \
            reason(N_("{square} is not a free land square or a free bridge"), square=NAMES[a])
    if kind == K_BUILD:
        if not city.supply[seat][a - 1]:
            return reason(N_("you have no building of {levels} levels left for this part"),
                          levels=a)
        return placement.why_not_building_square(city, seat, b)
    if kind == K_FOUND:
        return _why_not_found(city, seat, a, b)
    raise AssertionError(kind)


def _why_not_boat(city: City, at: int, square: int) -> Reason | None:
    """MX-7: by water from the Mexica's bridge to another free bridge the water reaches."""
    if not city.bridge[at]:
        return reason(N_("your Mexica must stand on a bridge to travel by water"))
    if not city.bridge[square] or square == at:
        return reason(N_("{square} holds no other bridge"), square=NAMES[square])
    if city.occupied[square]:
        return reason(N_("a Mexica stands on the bridge on {square}"), square=NAMES[square])
    if square not in boat_costs(city, at, NUM_SQUARES):
        return reason(N_("no water way leads from {start} to {square}"),
                      start=NAMES[at], square=NAMES[square])
    return None


def _why_not_canal(city: City, kind: int, a: int, b: int) -> Reason | None:
    if kind == K_CANAL:
        return (placement.why_not_canal(city, a) if city.singles else
                reason(N_("no single canal tile is left")))
    if not city.doubles:
        return reason(N_("no double canal tile is left"))
    if (a, b) not in VALID_PAIRS:
        if b in NEIGHBOURS[a]:  # side by side, but one is lake or palace: say which
            return placement.why_not_canal(city, a) or placement.why_not_canal(city, b)
        return reason(N_("{square} and its neighbour are not two land squares side by side"),
                      square=NAMES[a])
    return placement.why_not_canal(city, a) or placement.why_not_canal(city, b)


def _why_not_found(city: City, seat: int, size: int, square: int) -> Reason | None:
    """MX-9: in your Mexica's unfounded area, whose size matches an unused tile of this part."""
    at = city.mexica[seat]
    if city.bridge[at]:
        return placement.ON_A_BRIDGE
    ident = city.area[at]
    if city.area_tile[ident]:
        return reason(N_("your Mexica's area is already a district"))
    if not city.available[size - SIZES[0]]:
        return reason(N_("no calpulli tile of size {size} is available this part"), size=size)
    if city.area_size[ident] != size:
        return reason(N_("your Mexica's area has {squares} squares, not {size}"),
                      squares=city.area_size[ident], size=size)
    return placement.why_not_building_square(city, seat, square)


def _names(squares: tuple[int, ...]) -> str:
    return ", ".join(NAMES[s] for s in squares)


def _blocks_rival(city: City, action: int) -> bool:
    return bool(_blocking(city, [action]))


def _blocking(city: City, actions: list[int]) -> set[int]:
    """MX-7, first turn: which of `actions` would take away a rival Mexica's last square to
    step onto.

    An action takes at most two squares (a double canal) and may open others, so only a rival
    with one or two ways out is at risk, and only from an action that takes all of them; those
    few actions are tried on a copy.
    """
    rivals = [r for r in range(city.num_players) if r != city.player]
    ways = {r: exits(city, r) for r in rivals}
    risky: set[int] = set()
    at = city.mexica[city.player]
    for way in ways.values():
        if len(way) == 1:
            s = way[0]
            risky.update((CANAL + s, TELEPORT + s, BOAT + s))
            risky.update(double_action(s, n) for n in NEIGHBOURS[s])
            risky.update(BUILD + levels * N + s for levels in range(4))
            risky.update(FOUND + index * N + s for index in range(len(SIZES)))
            risky.update(WALK + d for d in range(4) if STEPS[at][d] == s)
            lifts = range(MOVE_BRIDGE + s * N * 2, MOVE_BRIDGE + (s + 1) * N * 2)
            risky.update(a for a in actions if a in lifts)
        elif len(way) == 2 and way[1] in NEIGHBOURS[way[0]]:
            risky.add(double_action(*way))
    candidates = risky.intersection(actions)
    blocking = set()
    for action in candidates:
        after = city.copy()
        _do(after, action)
        if any(ways[r] and not exits(after, r) for r in rivals):
            blocking.add(action)
    return blocking


# --- applying actions --------------------------------------------------------------------------


def apply(city: City, action: int) -> None:
    """Apply an action already known to be legal."""
    if city.phase == DRAWING:
        draw(city, decode(action)[1])
    elif city.phase == PLACING:
        place_mexica(city, action - START)
    elif action == END:
        end_turn(city)
    else:
        _do(city, action)


def _do(city: City, action: int) -> None:
    """Any action but ending the turn; each one, founding included, makes the round not idle
    (MX-10)."""
    kind, a, b, c = decode(action)
    seat = city.player
    price = cost(city, kind, a, b)
    city.idle = False
    if kind == K_TOKEN:
        city.taken += 1
        city.token_supply -= 1
        city.tokens[seat] += 1
    elif kind == K_WALK:
        _put_mexica(city, seat, step_target(city, city.mexica[seat], a))
    elif kind in (K_BOAT, K_TELEPORT):
        _put_mexica(city, seat, a)
    elif kind == K_CANAL:
        city.singles -= 1
        _dig(city, (a,))
    elif kind == K_DOUBLE:
        city.doubles -= 1
        _dig(city, (a, b))
    elif kind == K_BRIDGE:
        city.bridges -= 1
        _put_bridge(city, a, b)
    elif kind == K_MOVE_BRIDGE:
        _lift_bridge(city, a)
        _put_bridge(city, b, c)
    elif kind == K_BUILD:
        city.supply[seat][a - 1] -= 1
        city.building[b] = seat * 4 + a
        city.occupied[b] = 1
        city.diggable[b] = 0
        city.area_free[city.area[b]] -= 1
        remove_unplaceable(city)
    elif kind == K_FOUND:
        found(city, a, b)
    if price:
        _pay(city, price)


def _put_mexica(city: City, seat: int, square: int) -> None:
    old = city.mexica[seat]
    if old >= 0:
        city.occupied[old] = 0
    city.mexica[seat] = square
    city.occupied[square] = 1
    city.diggable[square] = 0
    if old >= 0:
        placement.refresh_diggable(city, old)


def _dig(city: City, squares: tuple[int, ...]) -> None:
    """MX-5: canal squares become water; their area shrinks and may split (MX-3)."""
    areas.cover(city, squares)
    for square in squares:
        city.canal[square] = 1
        city.diggable[square] = 0
    for square in {n for s in squares for n in (s, *NEIGHBOURS[s])}:
        placement.update_axes(city, square)
    remove_unplaceable(city)


def _put_bridge(city: City, square: int, axis: int) -> None:
    city.bridge[square] = axis
    for end in placement.accesses(square, axis):
        city.access[end] += 1
        city.diggable[end] = 0


def _lift_bridge(city: City, square: int) -> None:
    for end in placement.accesses(square, city.bridge[square]):
        city.access[end] -= 1
        placement.refresh_diggable(city, end)
    city.bridge[square] = 0


# --- founding a district (MX-9) ----------------------------------------------------------------


def found(city: City, size: int, square: int) -> None:
    """The tile goes on `square`; the founder scores the middle number, every other player
    whose Mexica is in the district the small one."""
    ident = city.area[square]
    city.tile[square] = size
    city.occupied[square] = 1
    city.area_tile[ident] = size
    for s in ORDINARY:  # a district never changes again: no canal may enter it
        if city.area[s] == ident:
            city.diggable[s] = 0
    city.area_free[ident] -= 1
    city.available[size - SIZES[0]] -= 1
    founder = city.player
    city.scores[founder] += middle(size)
    for seat, at in enumerate(city.mexica):
        if seat != founder and city.area[at] == ident:
            city.scores[seat] += small(size)
    remove_unplaceable(city)


# --- parts and their ends (MX-10) --------------------------------------------------------------


def placeable_sizes(city: City) -> tuple[int, set[int]]:
    """The biggest unfounded area, and the sizes of the unfounded areas that could be founded
    as they are (see `areas.room_for_tile`)."""
    biggest = 0
    exact = set()
    for ident, (size, tile) in enumerate(zip(city.area_size, city.area_tile, strict=True)):
        if not tile:
            if size > biggest:
                biggest = size
            if size not in exact and areas.room_for_tile(city, ident):
                exact.add(size)
    return biggest, exact


def remove_unplaceable(city: City) -> None:
    """Ruling (MX-10): a tile is removed once no unfounded area is its size or bigger, or the
    canals are gone and no unfounded area of exactly its size could be founded."""
    if not any(city.available):
        return
    biggest, exact = placeable_sizes(city)
    canals_left = city.singles or city.doubles
    for index, count in enumerate(city.available):
        size = index + SIZES[0]
        if count and (biggest < size or (not canals_left and size not in exact)):
            city.available[index] = 0
            city.removed += [size] * count


def end_turn(city: City) -> None:
    """The next player's turn; after the last seat, the round is complete and the part may end."""
    city.turns[city.player] += 1
    city.player = (city.player + 1) % city.num_players
    if city.player == 0:
        if part_over(city):
            _score_part(city)
            if city.phase == OVER:
                return
        else:
            city.round += 1
            city.idle = True
    _begin_turn(city)


def part_over(city: City) -> bool:
    """At the end of a round: every tile placed or removed and someone has built everything;
    or (rulings) nobody took an action all round, or this was the part's last round."""
    done = not any(city.available) and any(not any(s) for s in city.supply)
    return done or city.idle or city.round >= MAX_ROUNDS


def _score_part(city: City) -> None:
    points = scoring(city)
    city.scorings.append(points)
    for seat, won in enumerate(points):
        city.scores[seat] += won
    if city.part == 2:
        city.phase = OVER
        return
    city.part, city.round, city.idle = 2, 1, True
    for seat in range(city.num_players):
        city.supply[seat] = [a + b for a, b in zip(city.supply[seat], city.reserve[seat],
                                                    strict=True)]
        city.reserve[seat] = [0] * 4
    # Ruling: part-1 tiles still unplaced when part 1 ends early (idle or last round) leave the
    # game; part 2 plays with its own seven.
    city.removed += _sizes(city.available)
    city.available, city.face_down = city.face_down, [0] * len(SIZES)
    remove_unplaceable(city)


def _sizes(counts: list[int]) -> list[int]:
    return [size for size, n in zip(SIZES, counts, strict=True) for _ in range(n)]


def ranking_key(city: City, seat: int) -> tuple[int, int]:
    """Most points; then most unused action tokens (MX-11)."""
    return city.scores[seat], city.tokens[seat]


def returns(city: City) -> list[float]:
    """MX-11: the winners' shares once the game is over (tied winners share), else nothing."""
    if city.phase != OVER:
        return [0.0] * city.num_players
    return shared_victory([ranking_key(city, s) for s in range(city.num_players)])
