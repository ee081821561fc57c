"""A greedy heuristic for Mexica: cut districts to the size of a tile and found them, lead the
districts and areas with as few levels as it takes, and be home for a scoring.

**The value of a position** (for each seat, then the bot's against the others'):

- its score, plus its action tokens: `token` for the first, 3/4 of that for each further one
  (a few tokens widen a later turn, a dozen do not), little once the game is about to end;
- every area with buildings ranked by the levels in it, as the scorings will rank it (MX-11):
  a district at its tile's big/middle/small numbers, once per scoring still to come (two in
  part 1); an unfounded area in part 2 at its own size (the second scoring counts it); in
  part 1 an unfounded area of up to 16 squares at its size capped at 13, weighted `area1` (it
  may well be cut or founded before it scores), and a bigger one at `big` per level while
  there are canal tiles to cut it up, turning into its ranking at its own size as the canal
  supply runs out (then it will still be there at the second scoring);
- the bot's own value less `rivals` times the best rival's and (1 - `rivals`) times their mean;
- the **opportunity** where the bot's Mexica stands: what its biggest building left would gain
  in that area, at `opportunity` (so a district it has just founded is worth walking into,
  and one it leads already is worth leaving);
- **home:** 5 points if its Mexica is on a starting square when the part is sure to end this
  round (no tile left to place and someone has built everything; half of that when a seat has
  a single building left), and 90% of that while it can still get home this turn (ending the
  turn elsewhere forfeits it).

**A decision** tries a few dozen short plans on copies of the plain-data `City` with the
engine's own `rules.why_illegal` and `rules.apply`, scores each as the change in value less
`ap` per AP spent (cheaper ways to the same result come first, and a step that gains nothing
is not taken), and plays the first action of the best; `end` when no plan beats ending the
turn. A plan may also use the next turn's 6 AP (unless the part ends first); such a plan's gain
counts `ahead`. The plans:

- found the Mexica's area now (free) if its size matches a tile; take an action token;
- **cut and found:** from squares the Mexica can walk to (the ten cheapest, coast first), or
  teleport to (the coasts of areas near a tile's size and of the biggest areas), grow a region
  of exactly a tile's size around it, absorbing the squares no canal may cover and keeping the
  border short; cover the border with canal tiles (doubles first); walk there, dig, found. The
  eight most promising at a glance are tried in full;
- **split** (part 2): grow regions around the bot's buildings that share an unfounded area with
  a rival's, so that a few canals leave the bot alone in a smaller area;
- **build:** in the Mexica's area or one of the four where buildings gain most, reached on foot
  (by land, by boat, or over a bridge it places) or by teleport: one building of each size, or
  its biggest buildings in a row (to overtake a rival several levels ahead);
- **home:** walk or teleport to a free starting square before a scoring.

Routes are shortest in AP (Dijkstra over steps, boat trips and bridges the bot could place).
The rest of a chosen plan is kept for the turn while it stays legal and nearly the best.
Nothing random decides a move: ties go to a fixed order drawn from the seed, so the same seed
and position always give the same action.
"""

from __future__ import annotations

from operator import itemgetter

from tlatelolco.bots.base import Bot
from tlatelolco.bots.greedy.mexica_routes import (
    Plan,
    cover,
    edge_table,
    grow,
    route_to,
    routes,
)
from tlatelolco.contract import Game, State
from tlatelolco.games.mexica import rules
from tlatelolco.games.mexica.actions import (
    END,
    K_BOAT,
    K_TELEPORT,
    K_WALK,
    TELEPORT,
    TOKEN,
    build_action,
    decode,
    found_action,
)
from tlatelolco.games.mexica.board import (
    IS_ORDINARY,
    NEIGHBOURS,
    ORDINARY,
    STARTING,
    WIDTH,
)
from tlatelolco.games.mexica.city import PLACING, PLAYING, City
from tlatelolco.games.mexica.components import (
    MAX_ROUNDS,
    SIZES,
    START_SQUARE_BONUS,
    TELEPORT_COST,
    place_points,
)
from tlatelolco.games.mexica.movement import can_stand
from tlatelolco.games.mexica.scoring import levels_by_area, ranked_points
from tlatelolco.games.mexica.state import MexicaState

AP_COST = 0.4  # value of an AP spent (a tie-break between ways to the same result)
TOKEN_WORTH = 0.9  # the first action token held: an AP in a later turn
TOKEN_DECAY = 0.75  # each further token is worth this much of the one before
TOKEN_SUM = tuple(sum(TOKEN_DECAY ** i for i in range(t)) for t in range(13))
LAST_TOKENS = 0.2  # ... at the end of the game, where they only break ties
AREA_ONE = 0.6  # weight of an unfounded area's ranking in part 1
CAP_ONE = 13  # ... and the size it is ranked at, at most
BIG_AREA = 16  # part 1: an unfounded area bigger than this is not ranked (it will be cut up)
BIG_LEVEL = 0.3  # ... and a level in it is worth this much
CANALS_TO_CUT = 16  # ... unless fewer canal tiles are left: then its places count more
OPPORTUNITY = 0.4  # weight of what a building would gain where the Mexica stands
RIVALS = 0.5  # weight of the best rival against their mean
HOME_REACHABLE = 0.9  # share of the start-square bonus counted while home is within reach
AHEAD = 0.7  # a plan finished next turn counts this share of its gain
KEEP_PLAN = 0.3  # a plan in progress is kept unless another is better by this much
CUT_PLANS = 8  # cut-and-found plans tried in full (the most promising at a glance)
SEEDS = 10  # squares tried as the core of a district to cut
ROUTE_LIMIT = 12  # routes longer than this (in AP) are not searched
SPLIT_SIZE = 16  # regions split off around the bot's buildings have at most this many squares
NEXT_TURN = 6  # AP of the next turn (a long plan may use them)
TELEPORT_AREAS = 3  # far areas (of nearly a tile's size) tried by teleport
TARGET_AREAS = 4  # areas tried for move-and-build plans
LEVELS = (1, 2, 3, 4)
STARTING_SET = frozenset(STARTING)
MOVES = (K_WALK, K_BOAT, K_TELEPORT)


class MexicaGreedy(Bot):
    """Plans of a few actions scored one ply deep (see the module docstring)."""

    name = "greedy"

    def __init__(self, game: Game, seat: int, seed: int | str | None = None,
                 ap: float = AP_COST, token: float = TOKEN_WORTH, area1: float = AREA_ONE,
                 opportunity: float = OPPORTUNITY, rivals: float = RIVALS,
                 big: float = BIG_LEVEL, ahead: float = AHEAD) -> None:
        super().__init__(game, seat, seed)
        if not 0.0 <= rivals <= 1.0:
            raise ValueError(f"rivals must be between 0 and 1, got {rivals}")
        self.ap_cost, self.token = float(ap), float(token)
        self.area1, self.opportunity, self.rivals = float(area1), float(opportunity), float(rivals)
        self.big, self.ahead = float(big), float(ahead)
        self.salt = self.rng.getrandbits(31)  # the seed's fixed order for ties
        self.plan: Plan = ()
        self.plan_turn: tuple[int, ...] = ()
        self.me = seat
        self.home_cost = TELEPORT_COST + 1
        self.edges: list[int] = []  # water sides of each square, this decision

    # --- the interface -------------------------------------------------------------------------

    def step(self, state: State) -> int:
        assert isinstance(state, MexicaState), f"MexicaGreedy plays Mexica, not {state!r}"
        return self.choose(state.city)

    def choose(self, city: City, scored: list[tuple[tuple[float, int], Plan]] | None = None
               ) -> int:
        """The bot's action in the plain position `city` (its seat must be to move); the plans
        weighed go to `scored` (see `best_plan`), if given."""
        legal = rules.legal_actions(city)
        if city.phase == PLACING:
            return min(legal, key=self.tie)
        if city.phase != PLAYING or len(legal) == 1:
            return legal[0]
        self.me = city.player
        plan = self.best_plan(city, frozenset(legal), scored)
        turn = self.turn_of(city)
        if len(plan) > 1:
            self.plan, self.plan_turn = plan[1:], turn
        else:
            self.plan, self.plan_turn = (), ()
        return plan[0] if plan else END

    def ranked(self, state: State, most: int) -> list[int]:
        """The first actions of the `most` best plans (ending the turn among them), best
        first, `step`'s choice first: the order in which a search tries moves."""
        return [line[0] for line in self.ranked_lines(state, most)]

    def ranked_lines(self, state: State, most: int) -> list[Plan]:
        """The best plan for each of the `most` best first actions (`(END,)` for ending the
        turn), best first, `step`'s plan first: a search tries the moves in this order and
        plays on each plan's rest to judge its move."""
        assert isinstance(state, MexicaState), f"MexicaGreedy plays Mexica, not {state!r}"
        scored: list[tuple[tuple[float, int], Plan]] = []
        choice = self.choose(state.city, scored)
        scored.sort(key=itemgetter(0), reverse=True)  # stable: ties keep `best_plan`'s order
        lines: dict[int, Plan] = {}
        for _, plan in scored:
            lines.setdefault(plan[0], plan)
        return list(lines.values())[:most] if lines else [(choice,)]

    def tie(self, action: int) -> int:
        return (action * 2654435761 ^ self.salt) & 0x7FFFFFFF

    @staticmethod
    def turn_of(city: City) -> tuple[int, ...]:
        return (city.part, city.round, city.player)

    # --- choosing a plan -----------------------------------------------------------------------

    def best_plan(self, city: City, legal: frozenset[int],
                  scored: list[tuple[tuple[float, int], Plan]] | None = None) -> Plan:
        """The best-scoring plan, or () to end the turn; every legal plan and its key (`(END,)`
        for ending the turn, if legal) go to `scored` too, if given."""
        me = self.me
        budget = rules.budget(city)
        dist, prev = routes(city, me, ROUTE_LIMIT)
        self.edges = edge_table(city)
        self.home_cost = self.cost_home(city, dist)
        base = self.value(city, moved=False)
        best: Plan = ()
        best_key = (self.value(city, moved=False, ending=True) - base, 0)  # ending the turn
        if scored is not None and END in legal:
            scored.append((best_key, (END,)))
        kept = self.plan if self.plan and self.plan_turn == self.turn_of(city) \
            and self.plan[0] in legal else ()
        seen: set[Plan] = set()
        for plan in self.plans(city, legal, budget, dist, prev, kept):
            if plan in seen or plan[0] not in legal:
                continue
            seen.add(plan)
            score = self.score(city, plan, base)
            if score is None:
                continue
            if plan == kept:
                score += KEEP_PLAN
            key = (score, self.tie(plan[0]))
            if scored is not None:
                scored.append((key, plan))
            if key > best_key:
                best, best_key = plan, key
        return best

    def score(self, city: City, plan: Plan, base: float) -> float | None:
        """The change in value a plan makes, less its AP; None if a step is illegal. A plan
        may use the next turn's AP too (unless the part ends first): then it is long, and its
        gain counts `ahead`."""
        me = self.me
        ap, tokens = city.ap, city.tokens[me]
        chance = self.end_chance(city)
        after = city.copy()
        if chance < 1:
            after.ap += NEXT_TURN
        spent = 0
        moved = False
        for action in plan:
            if rules.why_illegal(after, action) is not None:
                return None
            kind, a, b, _ = decode(action)
            spent += rules.cost(after, kind, a, b)
            moved |= kind in MOVES
            rules.apply(after, action)
        if after.player != me:
            return None
        # This turn's AP go first, then the tokens held (as the engine spends them).
        taken = sum(action == TOKEN for action in plan)
        held = max(0, tokens + taken - max(0, spent - ap))
        after.token_supply += after.tokens[me] - held
        after.tokens[me] = held
        after.ap = max(0, ap - spent)
        gain = self.value(after, moved) - base
        if spent > ap + tokens:
            gain *= self.ahead * (1.0 - chance)
        return gain - self.ap_cost * spent

    def plans(self, city: City, legal: frozenset[int], budget: int, dist: dict[int, int],
              prev: dict[int, tuple[int, Plan]], kept: Plan) -> list[Plan]:
        me = self.me
        at = city.mexica[me]
        found: list[Plan] = [kept] if kept else []
        if city.ap >= 1 and TOKEN in legal:
            found.append((TOKEN,))
        on_land = not city.bridge[at]
        here = city.area[at] if on_land else -1
        if on_land:
            spot = self.found_spot(city, here, avoid=at)
            if spot is not None and (plan := self.found_plan(city, here, spot)):
                found.append(plan)
        if any(city.available):
            found += self.cut_plans(city, budget, dist, prev)
        if city.part == 2:
            found += self.split_plans(city, budget)
        found += self.build_plans(city, budget, dist, prev, here)
        if self.end_chance(city) and at not in STARTING_SET:
            found += self.home_plans(city, budget, dist, prev)
        return found

    # --- the value of a position ---------------------------------------------------------------

    def value(self, city: City, moved: bool, ending: bool = False) -> float:
        """The bot's position against the others' (see the module docstring); `moved`: its
        Mexica has moved since the decision began; `ending`: the turn ends here."""
        me = self.me
        n = city.num_players
        by_area = levels_by_area(city)
        chance = self.end_chance(city)
        token = self.token * (LAST_TOKENS if city.part == 2 and chance else 1.0)
        worth = [s + token * TOKEN_SUM[t] for s, t in zip(city.scores, city.tokens, strict=True)]
        for ident, levels in by_area.items():
            for seat, won in enumerate(self.area_points(city, ident, levels)):
                worth[seat] += won
        others = [worth[s] for s in range(n) if s != me]
        total = worth[me] - self.rivals * max(others) - (1 - self.rivals) * sum(others) / len(
            others)
        at = city.mexica[me]
        if not city.bridge[at]:
            total += self.opportunity * self.gain_in(city, city.area[at], by_area)
        if chance:
            if at in STARTING_SET:
                total += START_SQUARE_BONUS * chance
            elif not ending and self.can_get_home(city, moved):
                total += START_SQUARE_BONUS * chance * HOME_REACHABLE
        return total

    def area_points(self, city: City, ident: int, levels: list[int]) -> list[float]:
        """What each seat's levels in an area are worth now: the places it will score, once per
        scoring still to come; a big unfounded area in part 1 only a little per level while
        there are canals to cut it up, and more and more its places in the second scoring as
        the canals run out."""
        tile = city.area_tile[ident]
        if tile:
            weight = 3.0 - city.part
            return [weight * p for p in ranked_points(levels, place_points(tile))]
        size = city.area_size[ident]
        if city.part == 2:
            return [float(p) for p in ranked_points(levels, place_points(size))]
        if size > BIG_AREA:
            stays = max(0.0, 1.0 - (city.singles + city.doubles) / CANALS_TO_CUT)
            places = ranked_points(levels, place_points(size)) if stays else [0] * len(levels)
            return [(1.0 - stays) * self.big * k + stays * p for k, p in zip(levels, places,
                                                                             strict=True)]
        return [self.area1 * p for p in ranked_points(levels, place_points(min(size, CAP_ONE)))]

    def gain_in(self, city: City, ident: int, by_area: dict[int, list[int]],
                extra: int = 0) -> float:
        """What `extra` more levels (default: the bot's biggest building left) would gain in
        the area, against the others."""
        me = self.me
        levels_left = [k for k in LEVELS if city.supply[me][k - 1]]
        if not levels_left or not city.area_free[ident] or city.area_size[ident] <= 0:
            return 0.0
        n = city.num_players
        levels = by_area.get(ident) or [0] * n
        before = self.area_points(city, ident, levels)
        more = levels[:]
        more[me] += extra or levels_left[-1]
        after = self.area_points(city, ident, more)
        mine = after[me] - before[me]
        lost = [before[s] - after[s] for s in range(n) if s != me]
        return mine + self.rivals * max(lost) + (1 - self.rivals) * sum(lost) / (n - 1)

    def end_chance(self, city: City) -> float:
        """How likely the part ends at the end of this round (MX-10)."""
        if city.round >= MAX_ROUNDS:
            return 1.0
        if any(city.available):
            return 0.0
        left = min(sum(s) for s in city.supply)
        return 1.0 if left == 0 else 0.5 if left == 1 else 0.0

    def can_get_home(self, city: City, moved: bool) -> bool:
        budget = rules.budget(city)
        if not moved:
            return budget >= self.home_cost
        return budget >= TELEPORT_COST and any(not city.occupied[s] for s in STARTING)

    def cost_home(self, city: City, dist: dict[int, int]) -> int:
        costs = [dist[s] for s in STARTING if s in dist]
        if any(not city.occupied[s] for s in STARTING):
            costs.append(TELEPORT_COST)
        return min(costs, default=TELEPORT_COST + 1000)

    # --- where to put a building or a tile ------------------------------------------------------

    def build_spots(self, city: City, ident: int, avoid: int, count: int) -> list[int]:
        """Up to `count` free ordinary squares of the area to build on, best first: not one of
        the Mexica's last ways out, off bridge ends, on the edge."""
        squares = [s for s in ORDINARY if city.area[s] == ident and not city.occupied[s]
                   and s != avoid]
        exits = [s for s in NEIGHBOURS[avoid] if city.area[s] == ident
                 and not city.occupied[s]] if avoid >= 0 else []
        squares.sort(key=lambda s: (len(exits) <= 2 and s in exits, city.access[s] > 0,
                                    -self.edges[s], self.tie(s)))
        return squares[:count]

    def found_spot(self, city: City, ident: int, avoid: int) -> int | None:
        spots = self.build_spots(city, ident, avoid, 1)
        return spots[0] if spots else None

    def found_plan(self, city: City, ident: int, square: int) -> Plan:
        size = city.area_size[ident]
        if city.area_tile[ident] or not SIZES[0] <= size <= SIZES[-1] \
                or not city.available[size - SIZES[0]]:
            return ()
        return (found_action(size, square),)

    # --- plans ----------------------------------------------------------------------------------

    def cut_plans(self, city: City, budget: int, dist: dict[int, int],
                  prev: dict[int, tuple[int, Plan]]) -> list[Plan]:
        """Walk (or teleport) to a square, cut a region of a tile's size around it with canals,
        found it (with the next turn's AP too, if need be)."""
        sizes = [k for k in SIZES if city.available[k - SIZES[0]]]
        at = city.mexica[self.me]
        reach = budget + NEXT_TURN
        seeds: list[tuple[float, int, int, Plan]] = []
        for square, cost in dist.items():
            if cost >= reach or city.bridge[square]:
                continue
            ident = city.area[square]
            if city.area_tile[ident] or city.area_size[ident] < sizes[0]:
                continue
            seeds.append((cost - 0.5 * self.edges[square], self.tie(square), square, ()))
        seeds.sort()
        seeds = seeds[:SEEDS]
        if budget >= TELEPORT_COST:  # areas far away that are, or nearly are, a tile's size
            near = sorted((size - max(k for k in sizes if k <= size), ident)
                          for ident, size in enumerate(city.area_size)
                          if size >= sizes[0] and not city.area_tile[ident]
                          and city.area_free[ident] and size <= sizes[-1] + NEXT_TURN)
            spots = [s for _, ident in near[:TELEPORT_AREAS] if (s := self.coast(city, ident))]
            big = [(-size, ident) for ident, size in enumerate(city.area_size)
                   if size > sizes[-1] + NEXT_TURN and not city.area_tile[ident]]
            spots += self.coasts(city, {ident for _, ident in sorted(big)[:2]}, TELEPORT_AREAS)
            seeds += [(0.0, 0, spot, (TELEPORT + spot,)) for spot in spots if spot not in dist]
        ranked: list[tuple[float, int, Plan]] = []
        worth = 1.0 + self.opportunity * (3 - city.part)  # founding, then leading it
        for _, _, seed, jump in seeds:
            path = jump or route_to(prev, seed)
            walk = TELEPORT_COST if jump else dist[seed]
            room = reach - walk
            ident = city.area[seed]
            wanted = {k for k in sizes if k < city.area_size[ident]}
            regions = grow(city, self.edges, seed, ident, wanted, at)
            if city.area_size[ident] in sizes:  # the whole area is the right size already
                whole = frozenset(s for s in ORDINARY if city.area[s] == ident)
                regions[city.area_size[ident]] = (whole, ())
            for size, (region, border) in regions.items():
                tiles = cover(city, region, border, ident, at)
                if tiles is None or len(tiles) > room:
                    continue
                spot = min((s for s in region if s != seed and IS_ORDINARY[s]
                            and (not city.occupied[s] or s == at)),
                           key=lambda s: (city.access[s] > 0, -self.edges[s], self.tie(s)),
                           default=None)
                if spot is None:
                    continue
                plan = (*path, *tiles, found_action(size, spot))
                guess = worth * size - self.ap_cost * (walk + len(tiles))
                if len(tiles) > room - NEXT_TURN:
                    guess *= self.ahead
                ranked.append((-guess, len(ranked), plan))
        return [plan for _, _, plan in sorted(ranked)[:CUT_PLANS]]

    def coast(self, city: City, ident: int) -> int | None:
        """The free square of the area with most water around it."""
        return min((s for s in ORDINARY if city.area[s] == ident and can_stand(city, s)),
                   key=lambda s: (-self.edges[s], self.tie(s)), default=None)

    def coasts(self, city: City, idents: set[int], count: int) -> list[int]:
        """Up to `count` free squares of these areas with most water around them, apart."""
        squares = sorted((s for s in ORDINARY if city.area[s] in idents and can_stand(city, s)
                          and self.edges[s] >= 2), key=lambda s: (-self.edges[s], self.tie(s)))
        chosen: list[int] = []
        for square in squares:
            if all(abs(square // WIDTH - c // WIDTH) + abs(square % WIDTH - c % WIDTH) > 4
                   for c in chosen):
                chosen.append(square)
                if len(chosen) == count:
                    break
        return chosen

    def split_plans(self, city: City, budget: int) -> list[Plan]:
        """Part 2: canals that leave one of the bot's buildings without the rivals' around."""
        me = self.me
        by_area = levels_by_area(city)
        plans: list[Plan] = []
        at = city.mexica[me]
        for square in ORDINARY:
            value = city.building[square]
            if not value or (value - 1) // 4 != me:
                continue
            ident = city.area[square]
            if city.area_tile[ident] or sum(by_area[ident]) == by_area[ident][me]:
                continue
            regions = grow(city, self.edges, square, ident,
                           set(range(1, min(city.area_size[ident], SPLIT_SIZE + 1))), at,
                           forbid_rivals=me)
            for _size, (region, border) in sorted(regions.items(),
                                                  key=lambda item: len(item[1][1]))[:4]:
                tiles = cover(city, region, border, ident, at)
                if tiles is not None and 0 < len(tiles) <= budget:
                    plans.append(tiles)
        return plans

    def build_plans(self, city: City, budget: int, dist: dict[int, int],
                    prev: dict[int, tuple[int, Plan]], here: int) -> list[Plan]:
        """Build where the Mexica stands, or go to one of the areas where buildings gain most
        (on foot or by teleport) and build there: one building of each size, or the biggest
        ones in a row (with the next turn's AP too, if need be)."""
        me = self.me
        row = [k for k in (4, 3, 2, 1) for _ in range(city.supply[me][k - 1])]
        if not row:
            return []
        later = 0 if self.end_chance(city) >= 1 else NEXT_TURN
        reach = budget + later
        by_area = levels_by_area(city)
        gains = []
        for ident, size in enumerate(city.area_size):
            if size > 0 and ident != here and city.area_free[ident]:
                levels = 0
                for k in row:
                    if levels + k > reach:
                        break
                    levels += k
                gain = max(self.gain_in(city, ident, by_area),
                           self.gain_in(city, ident, by_area, levels))
                if gain > 0:
                    gains.append((-gain, ident))
        gains.sort()
        nearest: dict[int, tuple[int, int]] = {}
        for square, cost in dist.items():
            if city.bridge[square]:
                continue
            ident = city.area[square]
            if ident not in nearest or (cost, square) < nearest[ident]:
                nearest[ident] = (cost, square)
        at = city.mexica[me]
        options: list[tuple[int, int, Plan, int]] = []
        if here >= 0:
            options.append((here, 0, (), at))
        for _, ident in gains[:TARGET_AREAS]:
            if ident in nearest:
                cost, square = nearest[ident]
                options.append((ident, cost, route_to(prev, square), square))
            if reach > TELEPORT_COST and nearest.get(ident, (99, 0))[0] > TELEPORT_COST:
                spot = min((s for s in range(len(city.area)) if city.area[s] == ident
                            and can_stand(city, s) and not IS_ORDINARY[s]), default=None) \
                    or self.coast(city, ident)
                if spot is not None:
                    options.append((ident, TELEPORT_COST, (TELEPORT + spot,), spot))
        plans: list[Plan] = []
        for ident, cost, path, arrive in options:
            room = budget - cost
            squares = self.build_spots(city, ident, arrive, len(row))
            if not squares:
                continue
            plans += [(*path, build_action(levels, squares[0])) for levels in LEVELS
                      if city.supply[me][levels - 1] and levels <= room]
            spent = cost
            builds: list[int] = []
            for levels, square in zip(row, squares, strict=False):
                if spent + levels > reach:
                    break
                spent += levels
                builds.append(build_action(levels, square))
                if len(builds) > 1:
                    plans.append((*path, *builds))
        return plans

    def home_plans(self, city: City, budget: int, dist: dict[int, int],
                   prev: dict[int, tuple[int, Plan]]) -> list[Plan]:
        plans = [route_to(prev, s) for s in STARTING if s in dist and dist[s] <= budget]
        if budget >= TELEPORT_COST:
            plans += [(TELEPORT + s,) for s in STARTING if not city.occupied[s]]
        return [p for p in plans if p]
