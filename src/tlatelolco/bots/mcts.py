"""Monte Carlo tree search: UCT with chance nodes, and its information-set variant.

One search grows a tree of decisions from the position handed to the bot. An iteration walks
down the tree (UCB1 at decision nodes, outcomes drawn by their probabilities at chance nodes),
adds one node, plays on with a rollout policy for a bounded number of decisions, and scores the
position it reaches: the game's returns if it is over, else the game's evaluation (an estimated
share of victory per seat, `tlatelolco.bots.evaluation`). Every seat's value is kept, so each
node's mover maximises its own share (max^n), which covers 2 to 7 players and teams alike.

`ISMCTS` (single-observer information-set MCTS, Cowling et al. 2012) starts every iteration
from a fresh state drawn with `resample_from_infostate`, so the tree is one tree of the seat's
information set and never of the true state; a child is scored by how often it was available,
since what is legal differs between draws.

Both take a budget in wall time (`time=`), iterations (`iterations=`) or both (whichever ends
first); with neither they think for one second. The same seed and an iteration budget give the
same move. `last_search` keeps the root's statistics for hints.
"""

from __future__ import annotations

import math
import time as clock
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from tlatelolco.bots.base import Bot
from tlatelolco.bots.evaluation import Evaluator, evaluator_for
from tlatelolco.chance import sample_chance
from tlatelolco.contract import Game, IllegalActionError, State

DEFAULT_TIME = 1.0
# rollout decisions before evaluating, per game, as measured against greedy at 0.5 s a decision:
# Aztec Market won 0.73 with rollouts of 6, 0.68 with 10 and 0.45 with none; Mexica, whose
# greedy decisions cost ~4 ms, 0.60 with rollouts of 2 and 0.68 over three runs with none (five
# times the iterations, the tree looking ahead over the greedy bot's ranked plans).
DEFAULT_DEPTH = {"grand_bazaar": 4, "aztec_market": 6, "axio": 4, "mexica": 0}
# the greedy bot that proposes and plays the searching seat's own moves, where it differs from
# the plain one that stands in for the other seats: in Grand Bazaar a leader covers its rival's
# gems (see `greedy.grand_bazaar`), which the plain bot, the benchmark opponent, does not.
OWN_GREEDY = {"grand_bazaar": "greedy:cover=1"}


Line = tuple[int, ...]


@dataclass(slots=True, eq=False)
class Node:
    """A position reached by a path of actions; `totals[s]` sums seat s's values through it."""

    children: dict[int, Node] = field(default_factory=dict)
    visits: int = 0
    available: int = 0  # iterations in which this node's action was legal (ISMCTS)
    totals: list[float] = field(default_factory=list)
    # the policy's best lines of play here, best first: their first moves are expanded in turn,
    # and the rest of a line is how the rollout goes on after its move
    order: list[Line] | None = None
    legal: list[int] | None = None  # the legal actions here (MCTS: one position per node)


@dataclass(slots=True)
class ActionStats:
    action: int
    text: str
    visits: int
    value: float  # the searching seat's mean value after this action, in [0, 1]


@dataclass(slots=True)
class SearchResult:
    """What one search found: the move and the root's statistics, best first."""

    action: int
    iterations: int
    seconds: float
    actions: list[ActionStats]

    @property
    def why(self) -> str:
        """How the move was chosen: `only move` (nothing to search), `settled` (the bot's
        knowledge decided without searching) or `searched`."""
        if not self.actions:
            return "only move"
        return "searched" if self.iterations else "settled"

    def as_dict(self) -> dict[str, Any]:
        return {"action": self.action, "iterations": self.iterations, "seconds": self.seconds,
                "actions": [{"action": a.action, "text": a.text, "visits": a.visits,
                             "value": a.value} for a in self.actions]}


Policy = Callable[[State], int]
Ranker = Callable[[State], list[Line]]
Certain = Callable[[State], int | None]
RANKED = 16  # moves a node takes from its policy's ranking before trying others at random


class MCTS(Bot):
    """UCT over the position it is handed (for a hidden-information game: one draw of it).

    Parameters (all optional, as in `mcts:time=0.5,c=0.7`):
    - `time`: seconds per decision; `iterations`: iterations per decision.
    - `c`: the exploration constant of UCB1 (values are shares of victory in [0, 1]).
    - `rollout`: `greedy` (the game's greedy bot, where it has one) or `random`. The searching
      seat's own greedy bot may be a stronger variant (`OWN_GREEDY`); a move it is certain of
      (its `certain(state)`: Grand Bazaar's covered lead) is played without searching.
    - `depth`: decisions played by the rollout before the position is evaluated; 0 evaluates
      the new node at once (default: per game, `DEFAULT_DEPTH`).
    - `widen`: progressive widening; a node considers `1 + widen * visits ** 0.5` actions, the
      rollout policy's best moves first (its ranking, where it has one), so searches in
      positions with hundreds of moves deepen instead of trying each move once. 0 considers
      every legal action at once.
    - `prior`: the weight of the rollout policy's choice as a prior (PUCT, as in AlphaZero):
      the search leaves the greedy bot's move only where what it sees beats it; 0 is plain
      UCB1. Without a greedy rollout there is no prior.
    - `reuse`: 1 (the default) keeps the subtree of the move played and starts the next search
      from it when the position handed over follows from it (the bot's own next action in a
      multi-action turn, or after opponents' moves the tree already holds); 0 starts afresh.
      ISMCTS always starts afresh: its tree is of an information set, not a position.
    - `follow`: 1 (the default) lets a new node's mover play on the rest of the line its
      policy had in mind for the move (Mexica's greedy bot plans a turn of several actions:
      walk, cut, found), before the rollout, so a move is first judged by where its plan
      leads rather than by its first step; 0 judges the move alone.
    """

    name = "mcts"
    determinize = False

    def __init__(self, game: Game, seat: int, seed: int | str | None = None, *,
                 time: float | None = None, iterations: int | None = None, c: float = 0.7,
                 rollout: str = "greedy", depth: int | None = None, widen: float = 1.0,
                 prior: float = 0.5, reuse: int = 1, follow: int = 1) -> None:
        super().__init__(game, seat, seed)
        if time is None and iterations is None:
            time = DEFAULT_TIME
        if time is not None and not time > 0:
            raise ValueError(f"time must be a positive number of seconds, got {time}")
        if iterations is not None and (not isinstance(iterations, int) or iterations < 1):
            raise ValueError(f"iterations must be a whole number ≥ 1, got {iterations}")
        if not c >= 0:
            raise ValueError(f"c must be ≥ 0, got {c}")
        if depth is None:
            depth = DEFAULT_DEPTH.get(game.info.name, 4)
        if not isinstance(depth, int) or depth < 0:
            raise ValueError(f"depth must be a whole number ≥ 0, got {depth}")
        if not widen >= 0:
            raise ValueError(f"widen must be ≥ 0, got {widen}")
        if not 0 <= prior < 1:
            raise ValueError(f"prior must be from 0 up to (not including) 1, got {prior}")
        if reuse not in (0, 1):
            raise ValueError(f"reuse must be 0 or 1, got {reuse}")
        if follow not in (0, 1):
            raise ValueError(f"follow must be 0 or 1, got {follow}")
        if rollout not in ("greedy", "random"):
            raise ValueError(f"rollout must be greedy or random, got {rollout!r}")
        self.time, self.iterations = time, iterations
        self.c, self.depth, self.widen = float(c), depth, float(widen)
        self.players = game.num_players()
        self.evaluate: Evaluator = evaluator_for(game)
        self.policies, self.rankers, self.certain = self._policies(game, rollout)
        self.prior = float(prior) if self.policies is not None else 0.0
        self.last_search: SearchResult | None = None
        self.last_root: Node | None = None  # the last search's tree, for a review's analysis
        self.reuse = bool(reuse) and not self.determinize
        self.follow = bool(follow)
        self._kept: tuple[State, Node] | None = None  # the last search's position and tree

    def _policies(self, game: Game, rollout: str
                  ) -> tuple[list[Policy] | None, list[Ranker] | None, Certain | None]:
        """One rollout policy per seat (the greedy bot of that seat, or None for random), and
        what ranks its moves for the search: its lines of play (`ranked_lines`), its moves
        (`ranked`), or its one choice."""
        if rollout == "random":
            return None, None, None
        from tlatelolco.bots import GREEDY, make_bot  # the factory imports this module

        if game.info.name not in GREEDY:
            return None, None, None
        own = OWN_GREEDY.get(game.info.name, "greedy")
        bots = [make_bot(own if s == self.seat else "greedy", game, s,
                         f"{self.rng.random()}:rollout:{s}") for s in range(self.players)]
        certain = getattr(bots[self.seat], "certain", None)
        return [bot.step for bot in bots], [_ranker(bot) for bot in bots], certain

    # --- the decision ------------------------------------------------------------------------
    def step(self, state: State) -> int:
        return self.search(state).action

    def search(self, state: State) -> SearchResult:
        """Search from `state` (the seat's own view of it) within the budget."""
        if state.current_player() != self.seat:
            raise ValueError(f"{self!r} was asked to move in {state!r}, where seat "
                             f"{state.current_player()} is to move")
        started = clock.perf_counter()
        legal = state.legal_actions()
        root = self._reused(state) or Node(totals=[0.0] * self.players)
        done = 0
        sure = self.certain(state) if self.certain is not None and len(legal) > 1 else None
        if len(legal) > 1 and sure is None:
            deadline = None if self.time is None else started + self.time
            limit = self.iterations
            while limit is None or done < limit:
                self._iterate(root, state)
                done += 1
                if deadline is not None:
                    now = clock.perf_counter()
                    if now >= deadline or self._settled(root, done, now - started,
                                                        deadline - now):
                        break
        stats = self._root_stats(state, root, legal) if sure is None else [ActionStats(
            sure, state.action_to_string(sure), 0, self.evaluate(state)[self.seat])]
        action = stats[0].action if stats and stats[0].visits else legal[0]
        if len(legal) == 1:
            action = legal[0]
        elif sure is not None:
            action = sure
        self.last_search = SearchResult(action, done, clock.perf_counter() - started, stats)
        self.last_root = root
        self._kept = (state.clone(), root) if self.reuse else None
        return self.last_search

    def analyse(self, state: State, moves: Sequence[int], min_visits: int
                ) -> tuple[SearchResult, Node]:
        """Search from `state` as `search` does, then go on through each of `moves` and the
        move chosen until it has `min_visits` visits: a review compares the move played with
        the best one, and a move the search soon left alone would otherwise be valued on a
        handful of games.
        Returns the search's result and its root (every seat's totals, per child)."""
        result = self.search(state)
        root = self.last_root
        assert root is not None
        for move in dict.fromkeys((*moves, result.action)):
            while (child := root.children.get(move)) is None or child.visits < min_visits:
                self._iterate(root, state, first=move)
        self._kept = None
        return result, root

    def _reused(self, state: State) -> Node | None:
        """The node of the last search's tree that `state` was reached by, if there is one:
        the actions since that search are walked down the tree and replayed on its position,
        which must then equal `state` (so a position handed over out of the blue is never
        mistaken for a continuation)."""
        if self._kept is None:
            return None
        before, node = self._kept
        self._kept = None
        done = before.move_number()
        history = state.history()
        if len(history) <= done or history[:done] != before.history():
            return None
        for action in history[done:]:
            child = node.children.get(action)
            if child is None:
                return None
            node = child
            before.apply_action(action)
        return node if node.visits and before == state else None

    @staticmethod
    def _settled(root: Node, done: int, spent: float, left: float) -> bool:
        """Stop early when the most visited move cannot be caught in the time left."""
        if len(root.children) < 2:
            return False
        first, second = sorted((c.visits for c in root.children.values()), reverse=True)[:2]
        return first - second > done * left / spent

    def _root_stats(self, state: State, root: Node, legal: list[int]) -> list[ActionStats]:
        seat = self.seat
        allowed = set(legal)
        stats = [ActionStats(a, state.action_to_string(a), n.visits,
                             n.totals[seat] / n.visits if n.visits else 0.0)
                 for a, n in root.children.items() if a in allowed]
        stats.sort(key=lambda s: (-s.visits, -s.value, s.action))
        return stats

    # --- one iteration -----------------------------------------------------------------------
    def _start(self, state: State) -> State:
        return state.clone()

    def _iterate(self, root: Node, position: State, first: int | None = None) -> None:
        """One iteration; `first`, if given, is the root's move whatever the search prefers."""
        state = self._start(position)
        rng = self.rng
        path = [root]
        node = root
        while True:
            if first is not None:
                action, first = first, None
                child = node.children.get(action)
                state.apply_action(action)
                if child is None:
                    child = node.children[action] = Node(totals=[0.0] * self.players)
                    child.available = 1
                    path.append(child)
                    values = self._rollout(state)
                    break
                child.available += 1
                node = child
                path.append(node)
                continue
            if state.is_terminal():
                values = state.returns()
                break
            if state.is_chance_node():
                outcome = sample_chance(state, rng)
                child = node.children.get(outcome)
                if child is None:
                    child = node.children[outcome] = Node(totals=[0.0] * self.players)
                state.apply_action(outcome)
                node = child
                path.append(node)
                continue
            mover = state.current_player()
            legal = node.legal
            if legal is None:
                legal = state.legal_actions()
                if not self.determinize:  # a node is one position: its moves do not change
                    node.legal = legal
            line = self._expand(node, state, legal)
            if line is not None:
                action = line[0]
                child = node.children[action] = Node(totals=[0.0] * self.players)
                child.available = 1
                state.apply_action(action)
                path.append(child)
                if self.follow:
                    self._follow(state, mover, line[1:])
                values = self._rollout(state)
                break
            action = self._select(node, legal, mover) if not self.prior else self._puct(
                node, legal, mover)
            node = node.children[action]
            state.apply_action(action)
            path.append(node)
        for visited in path:
            visited.visits += 1
            totals = visited.totals
            for s in range(self.players):
                totals[s] += values[s]

    def _expand(self, node: Node, state: State, legal: list[int]) -> Line | None:
        """A line of play whose first action is to be added below `node`, or None to select
        among its children."""
        children = node.children
        if len(children) >= len(legal):
            return None
        if (self.widen and len(children) >= 1 + self.widen * math.sqrt(node.visits)
                and any(a in children for a in legal)):
            return None
        if node.order is None and self.rankers is not None:
            node.order = self.rankers[state.current_player()](state)
        if node.order:
            allowed = legal if self.determinize else None  # a draw may not allow every move
            for line in node.order:
                if line[0] not in children and (allowed is None or line[0] in allowed):
                    return line
        untried = [a for a in legal if a not in children]
        return (self.rng.choice(untried),) if untried else None

    def _select(self, node: Node, legal: list[int], mover: int) -> int:
        children = node.children
        c = self.c
        best, best_score = -1, -math.inf
        for action in legal:
            child = children.get(action)
            if child is None:
                continue
            child.available += 1
            visits = child.visits
            if visits == 0:
                return action
            score = (child.totals[mover] / visits
                     + c * math.sqrt(math.log(child.available) / visits))
            if score > best_score:
                best, best_score = action, score
        return best

    def _puct(self, node: Node, legal: list[int], mover: int) -> int:
        """PUCT: mean value plus exploration weighted by the prior, which puts `prior` on the
        rollout policy's own choice and shares the rest among the other considered moves."""
        children = node.children
        c = self.c
        favourite = node.order[0][0] if node.order else -1  # the policy's own choice
        considered = [a for a in legal if a in children]
        others = len(considered) - (favourite in considered)  # ISMCTS: it may be illegal here
        rest = (1.0 - self.prior) / others if others else 0.0
        best, best_score = -1, -math.inf
        for action in considered:
            child = children[action]
            child.available += 1
            visits = child.visits
            mean = child.totals[mover] / visits if visits else 0.5
            weight = self.prior if action == favourite else rest
            score = mean + c * weight * math.sqrt(child.available) / (1 + visits)
            if score > best_score:
                best, best_score = action, score
        return best

    @staticmethod
    def _follow(state: State, mover: int, rest: Line) -> None:
        """Play on the rest of a line while its mover is to move and its steps are legal."""
        for action in rest:
            if state.current_player() != mover:  # another seat, chance, or the game's end
                return
            try:
                state.apply_action(action)
            except IllegalActionError:
                return

    def _rollout(self, state: State) -> list[float]:
        rng = self.rng
        policies = self.policies
        decisions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
                continue
            if decisions >= self.depth:
                return self.evaluate(state)
            if policies is None:
                action = rng.choice(state.legal_actions())
            else:
                action = policies[state.current_player()](state)
            state.apply_action(action)
            decisions += 1
        return state.returns()


class ISMCTS(MCTS):
    """MCTS over the seat's information set: each iteration searches a fresh draw of the
    hidden information consistent with what the seat has seen."""

    name = "ismcts"
    determinize = True

    def _start(self, state: State) -> State:
        return state.resample_from_infostate(self.seat, self.rng)


def _ranker(bot: Bot) -> Ranker:
    lines = getattr(bot, "ranked_lines", None)
    if lines is not None:
        return lambda state: lines(state, RANKED)
    ranked = getattr(bot, "ranked", None)
    if ranked is not None:
        return lambda state: [(action,) for action in ranked(state, RANKED)]
    return lambda state: [(bot.step(state),)]


__all__ = ["ISMCTS", "MCTS", "ActionStats", "Node", "SearchResult"]
