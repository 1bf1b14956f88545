"""Negamax expectiminimax over count-level states, with Star1/Star2 pruning at chance nodes.

A turn is a decision (the mover picks a move) followed, unless the round ended, by a chance node
(the mover draws; outcomes weighted by the deck). Depth counts turns: a decision node at depth 0
is a leaf and gets the evaluator's estimate. All values are from the view of the player who acts
at the node; at a chance node that is the player who just moved and now draws.

Pruning at a chance node (Ballard's Star1 and Star2, as restated by Hauk, Buro and Schaeffer):
every child value w_i lies in [lo_i, hi_i] (initially the evaluator's bounds [L, U]); the node's
value is sum p_i w_i. Child i is searched with the window that decides whether the whole sum can
still fall inside (alpha, beta); if it cannot, the node returns a bound at once. Star2 first
probes every child by trying only one move of the opponent there: that move's value is a lower
bound on the opponent's value, so an upper bound on w_i, which can prove a fail-low cheaply.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

from rummy import DECIDE, OVER, CountRules, CountState, count_rules
from strategies.search.evaluation import Evaluator, Objective, evaluator_for
from strategies.search.ordering import MoveOrderer
from strategies.search.tt import EXACT, LOWER, UPPER, Key, TranspositionTable

INF = math.inf
PRUNINGS = ("none", "star1", "star2")


# Iterative deepening: the least factor by which one iteration's cost is assumed to grow over the
# previous one, and the factor assumed before two iterations have been timed.
MIN_GROWTH = 2.0
FIRST_GROWTH = 6.0


class SearchTimeout(Exception):
    """Raised inside the search when the time or the node budget is spent; the iteration in progress is dropped."""


@dataclass(frozen=True)
class SearchOptions:
    objective: Objective = Objective.WIN
    pruning: str = "star2"  # "none" (plain expectimax), "star1", "star2"
    use_tt: bool = True
    killers: bool = True
    tt_size: int = 1 << 18

    def __post_init__(self) -> None:
        if self.pruning not in PRUNINGS:
            raise ValueError(f"pruning must be one of {PRUNINGS}, got {self.pruning!r}")
        object.__setattr__(self, "objective", Objective(self.objective))
        if self.pruning == "none" and (self.use_tt or self.killers):
            # Plain expectimax is the reference: no table, no killers (neither would prune anything).
            object.__setattr__(self, "use_tt", False)
            object.__setattr__(self, "killers", False)


@dataclass
class SearchStats:
    decisions: int = 0
    chances: int = 0
    leaves: int = 0  # leaf estimates and finished rounds
    probes: int = 0

    @property
    def nodes(self) -> int:
        return self.decisions + self.chances + self.leaves


@dataclass(frozen=True)
class SearchResult:
    best: int
    value: float  # of the best move, from the mover's view
    depth: int  # turns searched (0: no search finished, `best` is the ordering's first move)
    exact: bool  # the search reached the end of the round everywhere: the values are the true values
    move_values: dict[int, float] = field(default_factory=dict)  # exact when searched with all_values
    nodes: int = 0
    seconds: float = 0.0


class Searcher:
    """One searcher per player and rule set; its table and killers carry over from move to move."""

    def __init__(self, options: SearchOptions | None = None, rules: CountRules | None = None) -> None:
        self.options = options or SearchOptions()
        self.stats = SearchStats()
        self.table: TranspositionTable | None = (
            TranspositionTable(self.options.tt_size) if self.options.use_tt else None
        )
        self._stop: float = INF  # time.monotonic() instant at which the search gives up
        self._node_stop: float = INF  # ... and the node count at which it does
        self._use(rules or count_rules())

    # --- public -------------------------------------------------------------------------------

    def search(self, state: CountState, depth: int, *, all_values: bool = False) -> SearchResult:
        """Search `state` (its mover to move) `depth` turns deep, with no time limit."""
        self._prepare(state)
        self._stop = self._node_stop = INF
        start = time.perf_counter()
        before = self.stats.nodes
        moves = self._orderer.static(state)
        result = self._root(state, depth, moves, all_values)
        return _with_cost(result, self.stats.nodes - before, time.perf_counter() - start)

    def iterate(
        self,
        state: CountState,
        seconds: float,
        *,
        deadline: float | None = None,
        max_depth: int | None = None,
        all_values: bool = False,
        nodes: int | None = None,
    ) -> SearchResult:
        """Iterative deepening until `seconds` pass, `deadline` (time.monotonic()) comes or `nodes` nodes
        are searched; the best move of the deepest finished iteration, or of the move ordering if none
        finished.

        With `nodes` and no `seconds` or `deadline` (pass math.inf), the result depends on the state, the
        options and the searches this searcher made before (its table and killers carry over), never on
        the clock: the same sequence of calls gives the same moves on any machine under any load.
        """
        self._prepare(state)
        # A timeout unwinds the search without its pops: work on a copy, never the caller's state.
        state = state.copy()
        start = time.monotonic()
        stop = start + max(0.0, seconds)
        if deadline is not None:
            stop = min(stop, deadline)
        self._stop = stop
        before = self.stats.nodes
        self._node_stop = INF if nodes is None else before + max(0, nodes)
        moves = list(self._orderer.static(state))
        result = SearchResult(moves[0], 0.0, 0, False)
        limit = state.turns_left if max_depth is None else min(max_depth, state.turns_left)
        previous_s = 0.0
        previous_nodes = 0
        for depth in range(1, max(1, limit) + 1):
            began = time.monotonic()
            began_nodes = self.stats.nodes
            try:
                found = self._root(state, depth, moves, all_values)
            except SearchTimeout:
                break
            result = found
            # The next iteration tries the best moves first.
            moves.sort(key=lambda move: -found.move_values.get(move, -INF))
            if found.exact:
                break
            # An iteration that cannot finish within the budget is thrown away, so don't start it: each
            # iteration costs about as many times its predecessor as the last one did.
            took_s = time.monotonic() - began
            growth = max(MIN_GROWTH, took_s / previous_s) if previous_s > 1e-3 else FIRST_GROWTH
            previous_s = took_s
            if time.monotonic() + took_s * growth > stop:
                break
            took_nodes = self.stats.nodes - began_nodes
            node_growth = max(MIN_GROWTH, took_nodes / previous_nodes) if previous_nodes else FIRST_GROWTH
            previous_nodes = took_nodes
            if self.stats.nodes + took_nodes * node_growth > self._node_stop:
                break
        self._stop = self._node_stop = INF
        return _with_cost(result, self.stats.nodes - before, time.monotonic() - start)

    # --- setup --------------------------------------------------------------------------------

    def _prepare(self, state: CountState) -> None:
        if state.phase != DECIDE:
            raise ValueError("search needs a state where a player is to move")
        if self._rules is not state.rules:
            self._use(state.rules)
            if self.table is not None:
                self.table.clear()
        if self.table is not None:
            self.table.new_search()

    def _use(self, rules: CountRules) -> None:
        """Evaluate, order and draw for this rule set."""
        self._rules = rules
        self._evaluator: Evaluator = evaluator_for(rules, self.options.objective)
        self._orderer = MoveOrderer(rules, killers=self.options.killers)

    # --- the search ---------------------------------------------------------------------------

    def _root(
        self, state: CountState, depth: int, moves: list[int] | tuple[int, ...], all_values: bool
    ) -> SearchResult:
        depth = max(1, min(depth, state.turns_left))
        values: dict[int, float] = {}
        best_move, best = moves[0], -INF
        plain = self.options.pruning == "none"
        for move in moves:
            alpha = -INF if (all_values or plain) else best
            state.push(move)
            try:
                value = self._chance(state, depth, alpha, INF, 0)
            finally:
                state.pop()
            values[move] = value
            if value > best:
                best, best_move = value, move
        return SearchResult(best_move, best, depth, depth >= state.turns_left, values)

    def _decide(self, state: CountState, depth: int, alpha: float, beta: float, ply: int) -> float:
        stats = self.stats
        evaluator = self._evaluator
        # Each node counts once: as a leaf (a finished round or an estimate) or as a decision.
        if state.phase == OVER:
            stats.leaves += 1
            return evaluator.terminal(state)
        if depth <= 0:
            stats.leaves += 1
            return evaluator.leaf(state)
        stats.decisions += 1
        if depth > state.turns_left:
            depth = state.turns_left
        table = self.table
        tt_move = -1
        key: Key = ()
        if table is not None:
            key = state.key()
            entry = table.probe(key)
            if entry is not None:
                if entry.depth >= depth:
                    value, bound = entry.value, entry.bound
                    if bound == EXACT or (bound == LOWER and value >= beta) or (bound == UPPER and value <= alpha):
                        table.stats.cutoffs += 1
                        return value
                tt_move = entry.best_move
        orderer = self._orderer
        moves = orderer.ordered(state, tt_move, ply)
        if self.options.pruning == "none":
            best = -INF
            best_move = moves[0]
            for move in moves:
                state.push(move)
                value = self._chance(state, depth, -INF, INF, ply)
                state.pop()
                if value > best:
                    best, best_move = value, move
            return best
        best = -INF
        best_move = moves[0]
        low = alpha
        for move in moves:
            state.push(move)
            value = self._chance(state, depth, low, beta, ply)
            state.pop()
            if value > best:
                best, best_move = value, move
                if value > low:
                    if value >= beta:
                        orderer.cutoff(move, ply)
                        break
                    low = value
        if table is not None:
            bound = LOWER if best >= beta else UPPER if best <= alpha else EXACT
            table.store(key, best, bound, depth, best_move)
        return best

    def _chance(self, state: CountState, depth: int, alpha: float, beta: float, ply: int) -> float:
        """The value of the draw after the mover's move, for the mover; `depth` is the deciding node's."""
        # Long: the search's chance node, on its hot path: the Star2 probe and the Star1 pass share the children's
        # bounds (lo, hi and their sums) and both return early; split, they would hand that state back and forth
        # on every chance node searched.
        stats = self.stats
        evaluator = self._evaluator
        if state.phase == OVER:  # the move emptied a hand: no draw
            stats.leaves += 1
            return evaluator.terminal(state)
        stats.chances += 1
        if (stats.chances & 127) == 0 and (time.monotonic() > self._stop or stats.nodes > self._node_stop):
            raise SearchTimeout
        outcomes = self._rules.draw_outcomes(state.deck)
        child_depth = depth - 1
        pruning = self.options.pruning
        if child_depth <= 0 or state.turns_left == 1:
            return self._chance_leaves(state, outcomes, alpha, beta, pruning != "none")
        if pruning == "none":
            total = 0.0
            for draw, p in outcomes:
                state.push_draw(draw)
                if state.phase == OVER:
                    stats.leaves += 1
                    value = evaluator.terminal(state)
                else:
                    value = -self._decide(state, child_depth, -INF, INF, ply + 1)
                state.pop()
                total += p * value
            return total

        low_bound, high_bound = evaluator.bounds(state)
        if low_bound >= beta:
            return low_bound
        if high_bound <= alpha:
            return high_bound
        count = len(outcomes)
        lo = [low_bound] * count
        hi = [high_bound] * count
        lo_sum, hi_sum = low_bound, high_bound

        if pruning == "star2" and count > 1:
            for index, (draw, p) in enumerate(outcomes):
                a = (alpha - hi_sum) / p + hi[index]
                b = (beta - lo_sum) / p + lo[index]
                state.push_draw(draw)
                if state.phase == OVER:
                    stats.leaves += 1
                    exact = evaluator.terminal(state)
                    state.pop()
                    lo_sum += p * (exact - lo[index])
                    hi_sum += p * (exact - hi[index])
                    lo[index] = hi[index] = exact
                else:
                    floor = self._probe(state, child_depth, -b, -a, ply + 1)
                    state.pop()
                    if floor is not None and -floor < hi[index]:
                        ceiling = max(-floor, lo[index])
                        hi_sum += p * (ceiling - hi[index])
                        hi[index] = ceiling
                if hi_sum <= alpha:
                    return hi_sum
                if lo_sum >= beta:
                    return lo_sum

        for index, (draw, p) in enumerate(outcomes):
            lo_i, hi_i = lo[index], hi[index]
            if lo_i == hi_i:
                continue
            a = (alpha - hi_sum) / p + hi_i
            b = (beta - lo_sum) / p + lo_i
            a_is_star = a > lo_i
            b_is_star = b < hi_i
            if not a_is_star:
                a = lo_i
            if not b_is_star:
                b = hi_i
            state.push_draw(draw)
            if state.phase == OVER:
                stats.leaves += 1
                value = evaluator.terminal(state)
            else:
                value = -self._decide(state, child_depth, -b, -a, ply + 1)
            state.pop()
            if value <= a:
                if a_is_star:
                    # Even at its best this child cannot lift the sum above alpha.
                    hi_sum += p * (max(value, lo_i) - hi_i)
                    return min(hi_sum, alpha)
                value = lo_i
            elif value >= b:
                if b_is_star:
                    lo_sum += p * (min(value, hi_i) - lo_i)
                    return max(lo_sum, beta)
                value = hi_i
            lo_sum += p * (value - lo_i)
            hi_sum += p * (value - hi_i)
            lo[index] = hi[index] = value
            # An exact child narrows the sum's range; it may now be settled (and the next child's
            # window would be empty).
            if hi_sum <= alpha:
                return hi_sum
            if lo_sum >= beta:
                return lo_sum
        total = 0.0
        for index, (_draw, p) in enumerate(outcomes):
            total += p * lo[index]
        return total

    def _chance_leaves(
        self,
        state: CountState,
        outcomes: tuple[tuple[int, float], ...],
        alpha: float,
        beta: float,
        prune: bool,
    ) -> float:
        """A chance node whose children are all leaves: estimate them, stopping once the sum is settled."""
        stats = self.stats
        evaluator = self._evaluator
        terminal = evaluator.terminal
        leaf = evaluator.leaf
        if prune:
            low_bound, high_bound = evaluator.bounds(state)
        total = 0.0
        rest = 1.0
        last = len(outcomes) - 1
        for index, (draw, p) in enumerate(outcomes):
            state.push_draw(draw)
            value = terminal(state) if state.phase == OVER else -leaf(state)
            state.pop()
            stats.leaves += 1
            total += p * value
            if prune and index < last:
                rest -= p
                ceiling = total + rest * high_bound
                if ceiling <= alpha:
                    return ceiling
                floor = total + rest * low_bound
                if floor >= beta:
                    return floor
        return total

    def _probe(self, state: CountState, depth: int, alpha: float, beta: float, ply: int) -> float | None:
        """A lower bound on the value of the decision node `state` from one of its moves, or None."""
        stats = self.stats
        stats.probes += 1
        if depth > state.turns_left:
            depth = state.turns_left
        table = self.table
        move = -1
        if table is not None:
            entry = table.probe(state.key())
            if entry is not None:
                if entry.depth >= depth and entry.bound != UPPER:
                    return entry.value
                move = entry.best_move
        moves = self._orderer.ordered(state, move, ply)
        state.push(moves[0])
        value = self._chance(state, depth, alpha, beta, ply)
        state.pop()
        return value if value > alpha else None


def _with_cost(result: SearchResult, nodes: int, seconds: float) -> SearchResult:
    return SearchResult(result.best, result.value, result.depth, result.exact, result.move_values, nodes, seconds)
