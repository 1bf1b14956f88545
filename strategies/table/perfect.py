"""`perfect`: the exact best move for the probability of winning the round (the arena's objective), or with
`objective="margin"` for the expected final margin, from the perfect-play tables.

A round is won on points (ties to the second mover), and a match on rounds, so each round's P(win) is
what `perfect` maximises by default. Its values come, best first, from:
1. the win table (`rummy-vision solve`), when it holds the layer below the position: exact;
2. an on-demand win solve above the win table's top layer (or to the end of the round without one),
   when at most WIN_EXACT_TURNS turns are enumerated and the solve stays within WIN_STATE_CAP states
   and the deadline: exact;
3. otherwise the margin table's best move, with its exact margins mapped to a P(win)
   (strategies.table.win.mapping): an estimate, and every result says so (`last.exact`, `last_how`);
4. above a partial margin table (`solve --top N`), `expectimax` with the table at its leaves and a fixed
   node budget (FALLBACK_NODES): estimates (exact where its on-demand solve fits), said so like 3.
Under `margin` every value within the margin table is its exact value; above a partial one, as in 4.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rummy import DEFAULT_RULES, CountState, RulesConfig
from strategies.kernel.budget import SOLVE_P95_STATES, STATES_PER_NODE, enumerated_turns, state_cap
from strategies.kernel.tables import KernelUnsupported
from strategies.kernel.warm import warm_up
from strategies.search import Objective, SearchOptions, SearchResult
from strategies.table.disk.files import TableError
from strategies.table.margin.fileformat import MarginTable, default_table_path, load_table, read_header
from strategies.table.margin.lookup import exact_move_values, table_move_values
from strategies.table.win.mapping import win_value

if TYPE_CHECKING:  # the win table's module loads the compiled kernel, which `import strategies` must not
    from strategies.table.win.fileformat import WinTable

# Turns an on-demand win solve may enumerate (above the win table, or to the end of the round without
# one): about a second at p95 on a 2-core machine (see docs/perfect-play.md). Beyond, values are estimates.
WIN_EXACT_TURNS = 5
# The most states such a solve may enumerate: a cap, not the clock, so the same position gets the same
# answer on any machine (a deadline, when the caller gives one, can still cut it short).
WIN_STATE_CAP = STATES_PER_NODE * SOLVE_P95_STATES["win"][WIN_EXACT_TURNS]
SOLVE_HINT = (
    "`rummy-vision solve` builds the whole win table (2.73 GB, about 22 CPU minutes, after the margin table), "
    "which makes every value exact"
)
# The node budget of the searcher that answers above a partial margin table: what `expectimax` searches in
# its 1000 ms on a quiet 2-core machine (see docs/perfect-play.md), a budget so the same position gets the same move.
FALLBACK_NODES = 459_000
MARGIN_HINT = "`rummy-vision solve --margin-only` builds the whole margin table (1.1 GB, a few CPU minutes)"

# How a result's values were found, as `last_how` says it (the CLI's table titles use these words).
FROM_WIN_TABLE = "exact, from the win table"
SOLVED_ABOVE = "exact, solved on demand above the win table"
SOLVED_TO_END = "exact, solved on demand to the end of the round"
FROM_MARGIN_TABLE = "exact, from the perfect-play table"
MAPPED = "estimate: the margin table's exact margins mapped to a win probability"
SEARCHED = "estimate: expectimax search above the partial margin table"
SEARCH_SOLVED = "exact, solved on demand above the partial margin table"


def perfect_available(rules: RulesConfig = DEFAULT_RULES) -> bool:
    """Whether the whole margin table for these rules is built (its header says so; the layers are checked
    when `perfect` loads it): then the coach, the review and `analyze` value moves with `perfect`."""
    try:
        header = read_header(default_table_path(rules))
    except (TableError, OSError):
        return False
    sizes = header.get("sizes")
    return isinstance(sizes, list) and header.get("done") == len(sizes) - 1


def default_valuer(rules: RulesConfig = DEFAULT_RULES) -> str:
    """The strategy that values every move where none is named: `perfect` once its table is built (exact
    where its values say so), else `expectimax` (estimates, except near the end of a round)."""
    return "perfect" if perfect_available(rules) else "expectimax"


def _win_table(rules: RulesConfig, margin_table: Path | None) -> WinTable | None:
    """The win table for these rules: beside a margin table given by path (where `solve --out` writes it),
    else the default one; None when none is built. An interrupted build gives its finished layers."""
    # the win table's modules load numba (~0.7 s), not wanted when the registry is imported
    from strategies.table.objective import OBJECTIVES

    win = OBJECTIVES[Objective.WIN]
    places = [win.beside(margin_table)] if margin_table is not None else []
    places.append(win.default_path(rules))
    for place in places:
        if place.exists():
            try:
                table: WinTable = win.load(place, rules)
            except TableError:
                continue
            if table.top >= 1:
                return table
    return None


# What a unit of doubt in the hand costs on an unsure belief (strategies.belief_play), on the 2 P(win) - 1 scale.
# Chosen on tuning deals only (seeds tune:0..499, 1,000 rounds a value; measurements/doubt-tune-*.json): through
# harsh:0.1 against perfect, doubt 0, 0.1, 0.25, 0.5 and 1 won 16.7%, 18.5%, 18.9%, 16.9% and 11.3%; through harsh:0.2
# against greedy, 0, 0.1 and 0.25 won 28.4%, 29.9% and 34.0%. docs/belief.md has it on other deals.
DOUBT = 0.25
# The draws a sampled belief may be asked for (`perfect:samples=N`): fewer say little; more take seconds a move.
MIN_SAMPLES, MAX_SAMPLES = 16, 4096
# The draws it takes unless told: reading the opponent's moves weighs draws unevenly, and on few the set chances
# flatter the Lays it picks. Chosen on tuning deals only (seeds tune:0..499, harsh:0.1 against perfect, 1,000
# rounds a value; measurements/teach-tune-harsh.json, samples-sweep-tune-harsh.json): 128, 512, 1024 and 2048 draws
# won 17.5%, 19.8%, 21.1% and 21.8%, the last three at 53, 88 and 146 ms a move (p95 109, 187, 309). A move with
# little time draws fewer (strategies.agent.draws_within: 512 in a 300 ms move).
DRAWS = 1024


def _check_ranges(**options: float | None) -> None:
    """Refuse an option out of its range, naming it: doubt and teach from 0 to below 10, draws MIN..MAX_SAMPLES."""
    for name, value in options.items():
        if value is None:
            continue
        if name in ("doubt", "teach") and not 0 <= float(value) < 10:
            raise ValueError(f"perfect: {name} must be at least 0 and below 10 (got {value})")
        if name in ("samples", "read_draws") and not MIN_SAMPLES <= int(value) <= MAX_SAMPLES:
            raise ValueError(f"perfect: {name} must be from {MIN_SAMPLES} to {MAX_SAMPLES} (got {value})")


class PerfectStrategy:
    """The exact best move for the round's P(win) (or, under `margin`, the expected margin), with every
    move's value; where a win value cannot be exact, an estimate that says so (see the module)."""

    def __init__(
        self,
        *,
        objective: Objective | str = Objective.WIN,
        table: str | Path | None = None,
        rules: RulesConfig = DEFAULT_RULES,
        time_ms: float | None = None,
        seed: int | None = None,
        read_opponent: bool = True,
        temper: float | None = None,
        beta: float | None = None,
        doubt: float | None = None,
        learn: bool = False,
        teach: float | None = None,
        samples: int | None = None,
        read_draws: int | None = None,
    ) -> None:
        # Options are checked before the table loads, so a bad one is refused at once.
        _check_ranges(doubt=doubt, teach=teach, samples=samples, read_draws=read_draws)
        self.name = "perfect"
        self.objective = Objective(objective)
        self.table: MarginTable = load_table(None if table is None else Path(table), rules)
        self.win_table = _win_table(rules, self.table.path) if self.objective is Objective.WIN else None
        self.time_ms = time_ms
        # Weigh an unsure belief by how likely the opponent's moves were (strategies.opponent_model): measured
        # over 1,000 rounds a row it wins more through every recognizer tried (docs/belief.md), so it is on.
        self.read_opponent = bool(read_opponent)
        # The power that evidence enters with, and how sharply a good player prefers better moves; None: the
        # model's own (opponent_model.TEMPER, BETA). Options so that other values can be measured.
        if temper is not None and not 0 < float(temper) <= 1:
            raise ValueError(f"perfect: temper must be above 0 and at most 1 (got {temper})")
        if beta is not None and not 0 < float(beta) < 1e4:
            raise ValueError(f"perfect: beta must be above 0 and below 10000 (got {beta})")
        self.temper = None if temper is None else float(temper)
        # On an unsure belief, what a card whose landmark it doubts costs in its hand, per unit of doubt, on its value
        # scale (strategies.belief_play): the tables value the rest of a round as if every card were then known.
        # DOUBT was chosen for the win objective; under margin (points) no value was measured, so it is off.
        default = DOUBT if self.objective is Objective.WIN else 0.0
        self.doubt = default if doubt is None else float(doubt)
        # With doubt on: whether a Lay counts what its answer would teach of the cards kept (strategies.hand_doubt).
        self.learn = bool(learn)
        # On an unsure belief, how much of what a Lay's answer would be worth to a decision like this one counts in its
        # rank (strategies.lay_answers); 0: the tables' values alone, which count no move as teaching anything.
        self.teach = 0.0 if teach is None else float(teach)
        # Draws of a sampled belief (DRAWS unless told). More draws make the set chances it chooses Lays by less
        # flattering, and cost time in proportion (docs/belief.md has both measured).
        self.samples = DRAWS if samples is None else int(samples)
        # Draws the opponent's moves are read on, when more than `samples`: the weighed belief is then resampled
        # to `samples` (strategies.belief_play.decide), so the reading's few heavy draws do not decide alone.
        self.read_draws = None if read_draws is None else int(read_draws)
        self.beta = None if beta is None else float(beta)
        self.last: SearchResult | None = None
        self.last_how = ""
        self.last_values_exact = True
        self._searcher: Any = None  # the fallback above a partial margin table, made when first needed
        warm_up()

    @property
    def margin_whole(self) -> bool:
        """Whether the margin table holds every layer of a round (else positions above it are searched)."""
        sizes = self.table.header.get("sizes")
        return not isinstance(sizes, list) or self.table.top >= len(sizes) - 1

    def _search(self, state: CountState, deadline: float | None) -> SearchResult:
        """Above a partial margin table: under margin, solved on demand down to it when the solve fits a fixed
        cap of states; otherwise the expectimax searcher with the table's leaves, at a fixed node budget."""
        # leaves loads numba (~0.7 s), not wanted when the registry is imported
        from strategies.table.leaves import TableSearcher

        if self.objective is Objective.MARGIN:
            cap = state_cap("margin", enumerated_turns(state.turns_left, self.table.top), FALLBACK_NODES)
            try:
                values = None if cap is None else exact_move_values(state, "margin", table=self.table, max_states=cap)
            except KernelUnsupported:
                values = None
            if values is not None:
                return self._result(state, values, True, SEARCH_SOLVED)
        if self._searcher is None:
            self._searcher = TableSearcher(self.table, SearchOptions(objective=self.objective))
        result: SearchResult = self._searcher.iterate(
            state, math.inf, deadline=deadline, all_values=True, nodes=FALLBACK_NODES
        )
        self.last = result
        self.last_how = SEARCH_SOLVED if result.exact else SEARCHED
        self.last_values_exact = True  # every move searched with a full window
        return result

    def _result(self, state: CountState, values: dict[int, float], exact: bool, how: str) -> SearchResult:
        best = max(values, key=lambda move: (values[move], -move))
        self.last = SearchResult(best, values[best], state.turns_left, exact, values)
        self.last_how = how
        self.last_values_exact = exact
        return self.last

    def _exact_win(self, state: CountState, deadline: float | None) -> tuple[dict[int, float], str] | None:
        """Every move's exact 2 P(win) - 1 when the win table or a bounded on-demand solve gives it."""
        # win_lookup loads numba (~0.7 s), not wanted when the registry is imported
        from strategies.table.win.lookup import exact_win_values, table_holds

        table = self.win_table if self.win_table is not None and table_holds(state, self.win_table) else None
        top = 0 if table is None else table.top
        if table is not None and table.covers(state.turns_left):
            how = FROM_WIN_TABLE
        elif state.turns_left - top <= WIN_EXACT_TURNS:
            how = SOLVED_TO_END if table is None else SOLVED_ABOVE
        else:
            return None
        values = exact_win_values(state, table, deadline=deadline, max_states=WIN_STATE_CAP)
        return None if values is None else (values, how)

    def analyse(self, state: CountState, deadline: float | None = None, *, all_values: bool = False) -> SearchResult:
        if self.objective is Objective.WIN:
            found = self._exact_win(state, deadline)
            if found is not None:
                return self._result(state, found[0], True, found[1])
        if not self.table.covers(state.turns_left):
            return self._search(state, deadline)
        margins = table_move_values(state, self.table)
        if self.objective is Objective.MARGIN:
            return self._result(state, margins, True, FROM_MARGIN_TABLE)
        best = max(margins, key=lambda move: (margins[move], -move))
        values = {move: win_value(state, value) for move, value in margins.items()}
        self.last = SearchResult(best, values[best], state.turns_left, False, values)
        self.last_how = MAPPED
        self.last_values_exact = False
        return self.last

    @property
    def budget_text(self) -> str | None:
        """Under margin every move's value is exact whatever the clock (the table, solved on demand above a
        partial one), so a time budget would misstate what the moves depend on."""
        if self._partial is not None:
            solved = "solved on demand where that fits a fixed cap, else " if self.objective is Objective.MARGIN else ""
            return (
                f"above the margin table's layers 1..{self.table.top}: {solved}estimates of expectimax at "
                f"{FALLBACK_NODES} nodes a move ({MARGIN_HINT})"
            )
        if self.objective is Objective.MARGIN:
            return "no time budget: every value exact from the table, whatever the machine's load"
        return None

    @property
    def win_source(self) -> dict[str, Any] | None:
        """Under win: the win table read (its file, finished layers, whether whole), or why values may be
        estimates. None under margin."""
        if self.objective is not Objective.WIN:
            return None
        table = self.win_table
        if table is None:
            return {"file": None, "layers": None, "whole": False, "exact": _exact_text(0, margin_top=self._partial)}
        exact = _exact_text(table.top, table.whole, self._partial)
        return {"file": str(table.path), "layers": f"1..{table.top}", "whole": table.whole, "exact": exact}

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

    @property
    def _partial(self) -> int | None:
        """The partial margin table's top layer when positions above it are searched, else None."""
        if self.margin_whole or (self.win_table is not None and self.win_table.whole):
            return None
        return self.table.top


def _exact_text(top: int, whole: bool = False, margin_top: int | None = None) -> str:
    """Where win values are exact, in words, for a win table of layers 1..top (0: none), over a margin
    table of layers 1..margin_top (None: the whole one)."""
    if whole:
        return "every P(win) exact"
    reach = top + WIN_EXACT_TURNS
    if margin_top is None:
        beyond = "else estimates mapped from exact margins"
    else:
        beyond = f"else estimates (mapped from exact margins up to {margin_top + 1} turns left, searched above)"
    return f"P(win) exact up to {reach} turns left where the on-demand solve fits its cap, {beyond}; {SOLVE_HINT}"
