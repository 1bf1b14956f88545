"""Grading a position's moves for a game review: every legal move's value, and where the values come from.

One interface, `Grader.grade(position) -> Grade`, for every source of values. Each grade says whether
its values are exact and what they come from (`ValueSource`), so a review never shows an estimate as a
fact. `EngineGrader` grades by search: the coach's searcher (`strategies.analyze.analyse` with the
`expectimax` strategy) under a node budget, so the grades are the same on every machine. Its values are
exact when the kernel solves the position to the end of the round (near the end of a round, or from the
margin table when it is built) and otherwise estimates of a depth-limited search. `PerfectGrader` grades
with `perfect` once its margin table is built: from the win table where it reaches, solved on demand
above it, and otherwise mapped margins marked as estimates; `default_grader` picks between the two.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

from rummy import DEFAULT_RULES, RulesConfig
from strategies.analyze import analyse
from strategies.position import Position
from strategies.provenance import source_text, strategy_source
from strategies.search import Objective
from strategies.table import perfect
from strategies.table.disk.files import TableError
from strategies.table.margin.fileformat import default_table_path, read_header
from strategies.table.perfect import (
    MAPPED,
    SEARCH_SOLVED,
    SEARCHED,
    SOLVED_ABOVE,
    SOLVED_TO_END,
    WIN_EXACT_TURNS,
    PerfectStrategy,
)

# Turns left up to which the grader gives the kernel a budget large enough to solve exactly: the p95
# of a 5-turn win solve is 0.6 M states (strategies/kernel/budget.py), within 4 states per node.
EXACT_TURNS = WIN_EXACT_TURNS
EXACT_NODES = 250_000
# The search's budget beyond: a few hundredths of a second a move, so a whole match reviews in seconds.
SEARCH_NODES = 20_000
SEARCHER = "expectimax"
HOW_TO_GET_EXACT = (
    "run `rummy-vision solve`: it builds the perfect-play margin table (1.1 GB, a few CPU minutes), then the whole "
    "win table (2.73 GB, about 22 CPU minutes); with both, every value is exact. Without the win table, win "
    "probabilities are exact where the on-demand solve reaches (the last turns of a round) and estimates before"
)


class ValueSource(StrEnum):
    TABLE = "table"  # exact: looked up in a perfect-play table (margin or win)
    SOLVE = "on-demand solve"  # exact: solved to the end of the round (or down to the win table) for this position
    SEARCH = "search"  # estimate: a depth-limited search with heuristic (or table-mapped) leaves
    MAPPED = "mapped margins"  # estimate: the margin table's exact margins mapped to a win probability


@dataclass(frozen=True)
class Grade:
    """Every legal move's value on the objective's scale (win: probability of winning the round;
    margin: expected final point difference), by count-level move id."""

    values: Mapping[int, float]
    objective: Objective
    exact: bool
    source: ValueSource
    depth: int  # turns searched; the turns left for an exact solve

    @property
    def best(self) -> int:
        return max(self.values, key=lambda move: (self.values[move], -move))


class Grader(Protocol):
    objective: Objective

    def grade(self, position: Position) -> Grade: ...

    def describe(self) -> str:
        """Where this grader's values come from, in words, for the review's header."""
        ...


def table_exists(rules: RulesConfig = DEFAULT_RULES) -> bool:
    return default_table_path(rules).exists()


def margin_layers_built(rules: RulesConfig = DEFAULT_RULES) -> int:
    """How many layers (1..N) of the margin table its header says are finished; 0 without a readable one."""
    try:
        header = read_header(default_table_path(rules))
    except (TableError, OSError):
        return 0
    done = header.get("done")
    return done if isinstance(done, int) and done > 0 else 0


class EngineGrader:
    """The coach's searcher under a node budget; exact where the kernel solves, an estimate elsewhere."""

    def __init__(
        self,
        objective: Objective | str = Objective.WIN,
        *,
        search_nodes: int = SEARCH_NODES,
        exact_nodes: int = EXACT_NODES,
        exact_turns: int = EXACT_TURNS,
        has_table: bool | None = None,
    ) -> None:
        """`has_table` says whether the whole margin table is built (default: read its header)."""
        self.objective = Objective(objective)
        self.search_nodes = search_nodes
        self.exact_nodes = exact_nodes
        self.exact_turns = exact_turns
        whole = DEFAULT_RULES.max_turns
        # The margin table's finished layers 1..N: a partial one (`solve --top N`) gives exact values only
        # to positions with up to N+1 turns left (and to solves that reach down to it).
        self.table_layers = margin_layers_built() if has_table is None else whole if has_table else 0
        self.has_table = self.table_layers > 0
        self.whole_table = self.table_layers >= whole

    def nodes_for(self, position: Position) -> int:
        """The node budget of `position`: large enough near the end of a round for an exact solve."""
        return self.exact_nodes if position.state.turns_left <= self.exact_turns else self.search_nodes

    def grade(self, position: Position) -> Grade:
        analysis = analyse(position, SEARCHER, self.objective, nodes=self.nodes_for(position))
        values = {position.move_id(ranked.move): ranked.value for ranked in analysis.moves if ranked.value is not None}
        if analysis.exact:
            looked_up = self.has_table and position.state.turns_left - 1 <= self.table_layers
            source = ValueSource.TABLE if self.objective is Objective.MARGIN and looked_up else ValueSource.SOLVE
        else:
            source = ValueSource.SEARCH
        return Grade(values, self.objective, analysis.exact, source, analysis.depth)

    def describe(self) -> str:
        margin = self.objective is Objective.MARGIN
        if margin and self.whole_table:
            return "exact margins from the perfect-play table"
        if margin and self.has_table:
            exact = (
                f"exact from the perfect-play table's layers 1..{self.table_layers} in the last "
                f"{self.table_layers + 1} turns of a round, and where the kernel solves down to them"
            )
        else:
            exact = f"exact in the last {self.exact_turns} turns of a round (solved on demand)"
        # Which table the leaves read: a partial one (`solve --top N`) by its layers (margin names them above).
        layers = "" if self.whole_table else f" (layers 1..{self.table_layers}; a hand-plan estimate above them)"
        if not self.has_table:
            leaves = "a heuristic hand-plan estimate"
        elif margin:
            leaves = "the table's exact margins"
        else:
            leaves = f"the perfect-play table's margins mapped to a win probability{layers}"
        return (
            f"{exact}; before that, estimates of an {SEARCHER} search ({self.search_nodes} nodes a move, "
            f"{leaves} at its leaves)"
        )


class PerfectGrader:
    """`perfect`'s values: exact from the tables or a bounded on-demand solve, else marked estimates."""

    def __init__(self, objective: Objective | str = Objective.WIN) -> None:
        self.objective = Objective(objective)
        self.perfect = PerfectStrategy(objective=self.objective)

    def grade(self, position: Position) -> Grade:
        result = self.perfect.analyse(position.state.copy())
        values = {move: self.perfect.shown_value(value) for move, value in result.move_values.items()}
        how = self.perfect.last_how
        source = (
            ValueSource.MAPPED
            if how == MAPPED
            else ValueSource.SEARCH
            if how == SEARCHED  # above a partial margin table: `perfect`'s searcher
            else ValueSource.SOLVE
            if how in (SOLVED_ABOVE, SOLVED_TO_END, SEARCH_SOLVED)
            else ValueSource.TABLE
        )
        return Grade(values, self.objective, result.exact, source, result.depth)

    def describe(self) -> str:
        return f"{source_text(strategy_source(self.perfect))}"


def default_grader(objective: Objective | str = Objective.WIN, *, search_nodes: int = SEARCH_NODES) -> Grader:
    """`perfect` once its margin table is built (exact where its values say so), else the coach's searcher."""
    if perfect.perfect_available():  # read on the module when called, as tests replace it there
        return PerfectGrader(objective)
    return EngineGrader(objective, search_nodes=search_nodes)
