"""`perfect`: plays from the margin table and knows every move's exact value."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from rummy import DEFAULT_RULES, CountState, RulesConfig
from strategies.search import Objective, SearchResult
from strategies.table.fileformat import MarginTable, TableError, load_table
from strategies.table.lookup import table_move_values
from strategies.table.win_mapping import win_value

if TYPE_CHECKING:  # the win table's module loads the compiled kernel, which `import strategies` must not
    from strategies.table.win_format import WinTable

# The win objective is solved exactly on demand up to this many turns left (within about a
# second at p95 on a 2-core machine, see the README); beyond, the table's margins are mapped to
# a probability of winning (strategies.table.win_mapping), which is an estimate.
WIN_EXACT_TURNS = 5


def _win_table(rules: RulesConfig) -> WinTable | None:
    """The win table (`rummy-vision solve --win-top N`) when one is built for these rules."""
    from strategies.table.win_format import load_win_table

    try:
        return load_win_table(None, rules)
    except TableError:
        return None


class PerfectStrategy:
    """The exact best move under the margin objective, from the table; every move's exact value.

    Under the win objective, with a win table built, every move's exact P(win) comes from it (above its
    top layer, from an on-demand solve over it, within the deadline). Otherwise, and when that solve
    runs out of time, it solves exactly while few turns are left and beyond plays the margin table's
    best move, showing calibrated win probabilities (marked not exact).
    """

    def __init__(
        self,
        *,
        objective: Objective | str = Objective.MARGIN,
        table: str | Path | None = None,
        rules: RulesConfig = DEFAULT_RULES,
        time_ms: float | None = None,
        seed: int | None = None,
    ) -> None:
        from strategies.kernel.warm import warm_up

        self.name = "perfect"
        self.objective = Objective(objective)
        self.table: MarginTable = load_table(None if table is None else Path(table), rules)
        self.win_table = _win_table(rules) if self.objective is Objective.WIN else None
        self.time_ms = time_ms
        self.last: SearchResult | None = None
        self.last_values_exact = True
        warm_up()

    def analyse(self, state: CountState, deadline: float | None = None, *, all_values: bool = False) -> SearchResult:
        if self.win_table is not None:
            from strategies.table.win_lookup import exact_win_values

            # From the win table (layers 1..top), solved on demand above it; None when the deadline passes.
            exact = exact_win_values(state, self.win_table, deadline=deadline)
            if exact is not None:
                best = max(exact, key=lambda move: (exact[move], -move))
                self.last = SearchResult(best, exact[best], state.turns_left, True, exact)
                return self.last
        if self.objective is Objective.WIN and state.turns_left <= WIN_EXACT_TURNS:
            from strategies.kernel.solve_position import solve_exact

            solved = solve_exact(state, "win", deadline=deadline)  # late: the table's mapped values below
            if solved is not None:
                values = solved.values
                best = max(values, key=lambda move: (values[move], -move))
                self.last = SearchResult(best, values[best], state.turns_left, True, values)
                return self.last
        margins = table_move_values(state, self.table)
        best = max(margins, key=lambda move: (margins[move], -move))
        if self.objective is Objective.WIN:
            values = {move: win_value(state, value) for move, value in margins.items()}
            self.last = SearchResult(best, values[best], state.turns_left, False, values)
        else:
            self.last = SearchResult(best, margins[best], state.turns_left, True, margins)
        return self.last

    @property
    def budget_text(self) -> str | None:
        """Under margin every move's value is exact whatever the clock (the table, solved on demand above a
        partial one), so a time budget would misstate what the moves depend on."""
        if self.objective is Objective.MARGIN:
            return "no time budget: every value exact from the table, whatever the machine's load"
        return None

    def shown_value(self, value: float) -> float:
        return (value + 1) / 2 if self.objective is Objective.WIN else value

    def suggestions(self, top: int = 3) -> list[tuple[int, float, bool]]:
        if self.last is None or not self.last.move_values:
            return []
        values = self.last.move_values
        ranked = sorted(values, key=lambda move: -values[move])[:top]
        return [(move, self.shown_value(values[move]), self.last.exact) for move in ranked]

    def choose(self, state: CountState, deadline: float | None = None) -> int:
        legal = state.legal_moves()
        if len(legal) == 1:
            self.last = None
            return legal[0]
        return self.analyse(state, deadline).best
