"""Exact information beyond the search's horizon: leaves valued from the margin table.

Under `margin` a leaf gets the table's exact expected margin. Under `win` that margin is mapped to a
probability of winning (strategies.table.win.mapping) in place of the hand-plan estimate. Positions
the table does not cover (a --top build) keep the hand-plan estimate.
"""

from __future__ import annotations

from rummy import CountRules, CountState
from strategies.kernel.play import state_index
from strategies.kernel.tables import kernel_tables
from strategies.search import Evaluator, Objective, Searcher, SearchOptions
from strategies.table.margin.fileformat import MarginTable
from strategies.table.win.mapping import win_probability


class TableEvaluator(Evaluator):
    def __init__(self, rules: CountRules, objective: Objective, table: MarginTable) -> None:
        super().__init__(rules, objective)
        self.table = table
        self.blob = kernel_tables(rules.config).blob

    def leaf(self, state: CountState) -> float:
        d = state.turns_left
        if d > self.table.top or d != self.rules.size(state.deck):
            return super().leaf(state)
        mover = state.mover
        index = state_index(self.blob, state.hands[mover], state.hands[1 - mover], state.deck, d)
        margin = float(self.table.layers[d][index]) + state.points[mover] - state.points[1 - mover]
        if self.win:
            return 2.0 * win_probability(margin, d, state.second == mover) - 1.0
        low, high = self.bounds(state)
        return min(high, max(low, margin))


class TableSearcher(Searcher):
    """The searcher with table leaves for the table's rules (other rules keep the hand-plan estimate)."""

    def __init__(self, table: MarginTable, options: SearchOptions | None = None) -> None:
        super().__init__(options)
        self.margin_table = table

    def _prepare(self, state: CountState) -> None:
        self.margin_table.check_unchanged()  # once a search: its leaves read the file
        fresh = self._rules is not state.rules
        super()._prepare(state)
        if fresh and state.rules.config == self.margin_table.config:
            self._evaluator = TableEvaluator(state.rules, self.options.objective, self.margin_table)
