"""Strategies built on the search: heuristic (one turn of lookahead), expectimax (iterative
deepening under a time or node budget) and exact (to the end of the round).

A time budget makes the depth follow the clock, so the moves change with the machine and its load.
A node budget (`nodes=`) replaces it: the search stops after that many nodes, so with the same seed
the same positions get the same moves everywhere. A gamestate's deadline still cuts a search short
when one is given (online play); in-process matches with a node budget give none.
"""

from __future__ import annotations

import math
import random
import time
from pathlib import Path

from rummy import CountState
from strategies.kernel.budget import enumerated_turns, solve_fits, state_cap
from strategies.kernel.tables import KernelUnsupported
from strategies.kernel.warm import is_warm, warm_up, warm_up_soon
from strategies.search import Objective, Searcher, SearchOptions, SearchResult
from strategies.table.disk.files import TableError
from strategies.table.margin.fileformat import MarginTable, load_table
from strategies.table.margin.lookup import exact_move_values, table_for

DEFAULT_TIME_MS = 1000
# Stop this much before a deadline: the search notices the clock every few milliseconds.
DEADLINE_MARGIN_S = 0.01


class SearchStrategy:
    """Expectiminimax with a time budget (`time_ms`) or a node budget (`nodes`, which then replaces the
    time budget), optionally a depth cap, and optional noise.

    `noise` (the standard deviation of Gaussian noise added to each move's value before picking
    the best) makes weaker characters; the values are then searched exactly for every move.

    `leaves`: "plan" (the hand-plan estimate), "table" (the perfect-play table's exact margins, under
    `win` mapped to a win probability; the table must exist) or "auto" (the table when it is found).
    `exact_solve`: answer with the compiled kernel's exact values whenever that fits the budget.
    """

    def __init__(
        self,
        name: str = "expectimax",
        *,
        objective: Objective | str = Objective.WIN,
        time_ms: float = DEFAULT_TIME_MS,
        max_depth: int | None = None,
        noise: float = 0.0,
        seed: int | None = None,
        options: SearchOptions | None = None,
        nodes: int | None = None,
        leaves: str = "plan",
        exact_solve: bool = False,
        table: str | Path | MarginTable | None = None,
    ) -> None:
        if leaves not in LEAVES:
            raise ValueError(f"leaves must be one of {', '.join(LEAVES)}, got {leaves!r}")
        if time_ms <= 0:
            raise ValueError("time_ms must be positive")
        if nodes is not None and (isinstance(nodes, bool) or not isinstance(nodes, int) or nodes < 1):
            raise ValueError(f"nodes must be a positive integer, got {nodes!r}")
        if max_depth is not None and max_depth < 1:
            raise ValueError("max_depth must be at least 1")
        self.name = name
        self.objective = Objective(objective)
        self.time_ms = time_ms
        self.max_depth = max_depth
        self.nodes = nodes
        self.noise = noise
        self.rng = random.Random(seed)
        self.exact_solve = exact_solve
        self.table = _table_for(leaves, table) if leaves != "plan" or exact_solve else None
        options = options or SearchOptions(objective=self.objective)
        if self.table is not None and leaves != "plan":
            from strategies.table.leaves import TableSearcher  # loads numba: only for a search with table leaves

            self.searcher: Searcher = TableSearcher(self.table, options)
        else:
            self.searcher = Searcher(options)
        if self.table is not None or (exact_solve and nodes is not None):
            # Compile (or load) the kernel now, not inside a timed move; under a node budget, whether a
            # move is solved exactly must not depend on when a background warm-up finishes either.
            warm_up()
        elif exact_solve:
            # Exact solves wait until the kernel is ready; meanwhile the search answers.
            warm_up_soon()
        if self.searcher.options.objective is not self.objective:
            raise ValueError("search options and strategy disagree on the objective")
        self.last: SearchResult | None = None
        self.last_values_exact = False  # every move of `last` was searched with a full window

    def analyse(self, state: CountState, deadline: float | None = None, *, all_values: bool = False) -> SearchResult:
        if deadline is not None:
            deadline -= DEADLINE_MARGIN_S
        if self.nodes is None and math.isfinite(self.time_ms):
            own = time.monotonic() + self.time_ms / 1000
            deadline = own if deadline is None else min(deadline, own)
        if self.exact_solve:
            exact = self._solve_exactly(state, deadline)
            if exact is not None:
                self.last = exact
                self.last_values_exact = True
                return exact
        every_value = all_values or self.noise > 0
        result = self.searcher.iterate(
            state,
            self.time_ms / 1000 if self.nodes is None else math.inf,
            deadline=deadline,
            max_depth=self.max_depth,
            all_values=every_value,
            nodes=self.nodes,
        )
        self.last = result
        self.last_values_exact = every_value
        return result

    def _solve_exactly(self, state: CountState, deadline: float | None) -> SearchResult | None:
        """Every move's exact value from the kernel (or the table), if the solve fits the budget: under a
        node budget a cap on the states it may enumerate, so that the clock never decides."""
        if not is_warm():
            return None
        began = time.monotonic()
        objective = self.objective.value
        table = table_for(state, self.table) if self.objective is Objective.MARGIN else None
        turns = enumerated_turns(state.turns_left, 0 if table is None else table.top)
        cap = None
        solve_deadline = deadline
        if table is None or not table.covers(state.turns_left):  # else a look-up, which always fits
            if self.nodes is not None:
                cap = state_cap(objective, turns, self.nodes)
                if cap is None:
                    return None
            elif not solve_fits(objective, turns, math.inf if deadline is None else deadline - began):
                return None
            elif deadline is not None:
                # The solve was judged by idle-machine timings; on a loaded machine it may not finish. It
                # gets half the time left, so a solve that gives up leaves the search the other half
                # rather than a deadline already past (a depth-0 answer).
                solve_deadline = began + (deadline - began) / 2
        try:
            values = exact_move_values(state, objective, table=table, deadline=solve_deadline, max_states=cap)
        except KernelUnsupported:
            return None
        if values is None:
            return None
        best = max(values, key=lambda move: (values[move], -move))
        return SearchResult(best, values[best], state.turns_left, True, values, 0, time.monotonic() - began)

    def shown_value(self, value: float) -> float:
        """A search value on the objective's own scale: win probability, or points of margin."""
        return (value + 1) / 2 if self.objective is Objective.WIN else value

    def suggestions(self, top: int = 3) -> list[tuple[int, float, bool]]:
        """The last decision's best moves as (move, value on the objective's scale, exact), best first.

        The best move's value is its searched value. Unless every move was searched with a full
        window, the others come from a pruned search, which only shows that a move cannot beat the
        best one: their values are upper bounds (exact False).
        """
        if self.last is None or not self.last.move_values:
            return []
        values = self.last.move_values
        ranked = sorted(values, key=lambda move: -values[move])[:top]
        return [
            (move, self.shown_value(values[move]), rank == 0 or self.last_values_exact)
            for rank, move in enumerate(ranked)
        ]

    def choose(self, state: CountState, deadline: float | None = None) -> int:
        legal = state.legal_moves()
        if len(legal) == 1:
            self.last = None
            return legal[0]
        result = self.analyse(state, deadline)
        if self.noise <= 0 or not result.move_values:
            return result.best
        gauss = self.rng.gauss
        return max(result.move_values, key=lambda move: result.move_values[move] + gauss(0.0, self.noise))


LEAVES = ("plan", "table", "auto")


def _table_for(leaves: str, path: str | Path | MarginTable | None) -> MarginTable | None:
    if isinstance(path, MarginTable):
        return path
    try:
        return load_table(None if path is None else Path(path))
    except TableError:
        if leaves == "table":
            raise
        return None


class HeuristicStrategy(SearchStrategy):
    """The hand-quality evaluation with one turn of lookahead over the draw."""

    def __init__(self, *, objective: Objective | str = Objective.WIN, nodes: int | None = None) -> None:
        super().__init__(
            "heuristic",
            objective=objective,
            time_ms=DEFAULT_TIME_MS,
            max_depth=1,
            options=SearchOptions(objective=Objective(objective), use_tt=False, killers=False),
            nodes=nodes,
        )


class ExactStrategy(SearchStrategy):
    """Solves to the end of the round; without a deadline it takes as long as that needs."""

    def __init__(
        self, *, objective: Objective | str = Objective.WIN, tt_size: int = 1 << 20, nodes: int | None = None
    ) -> None:
        super().__init__(
            "exact",
            objective=objective,
            time_ms=math.inf,
            options=SearchOptions(objective=Objective(objective), tt_size=tt_size),
            nodes=nodes,
        )

    def analyse(self, state: CountState, deadline: float | None = None, *, all_values: bool = False) -> SearchResult:
        if deadline is None and self.nodes is None:
            self.last = self.searcher.search(state, state.turns_left, all_values=all_values)
            return self.last
        return super().analyse(state, deadline, all_values=all_values)
