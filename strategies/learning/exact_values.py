"""Exact values of positions, for measuring how far learned play is from perfect.

Everything here goes through `exact_move_values`: the perfect-play table when it is built (any
position of the round, in microseconds), else the compiled kernel's on-demand solve (a second or
so at 8 turns left), else, for rules the kernel does not play, the Python search. Values use the
margin objective (expected final point difference) from the mover's view, with the points already
banked taken out: that is the scale of the learner's own estimates, and a move's regret is the same
either way.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache

from rummy import DECIDE, DEFAULT_RULES, DRAW, CountState, RulesConfig
from strategies.baselines import GreedyStrategy
from strategies.kernel.tables import KernelUnsupported
from strategies.search import Objective, Searcher, SearchOptions
from strategies.table.margin.lookup import exact_move_values as table_or_kernel


@lru_cache(maxsize=8)
def _searcher(config: RulesConfig) -> Searcher:
    # One searcher per rule set: its transposition table carries over between positions.
    return Searcher(SearchOptions(objective=Objective.MARGIN, tt_size=1 << 20))


def exact_move_values(state: CountState) -> dict[int, float]:
    """Every legal move's exact expected final margin for the mover, banked points excluded."""
    try:
        values = table_or_kernel(state, "margin")
    except KernelUnsupported:
        result = _searcher(state.rules.config).search(state, state.turns_left, all_values=True)
        if not result.exact:
            raise RuntimeError("the solver did not reach the end of the round") from None
        values = result.move_values
    assert values is not None  # no deadline and no state cap: the solve always finishes
    banked = state.points[state.mover] - state.points[1 - state.mover]
    return {move: value - banked for move, value in values.items()}


@dataclass(frozen=True)
class SolvedPosition:
    state: CountState
    values: dict[int, float]  # exact value of each legal move, as exact_move_values gives it

    @property
    def best(self) -> float:
        return max(self.values.values())

    def regret(self, move: int) -> float:
        return self.best - self.values[move]


def sample_positions(turns_left: int, count: int, *, seed: int, rules: RulesConfig = DEFAULT_RULES) -> list[CountState]:
    """`count` decision states with `turns_left` turns left, reached by a seeded mix of greedy and
    random play (half the moves each), so the set covers sensible and odd positions alike."""
    if not 1 <= turns_left <= rules.max_turns:
        raise ValueError(f"turns_left must be 1..{rules.max_turns}")
    rng = random.Random(f"positions:{seed}:{turns_left}")
    greedy = GreedyStrategy()
    found: list[CountState] = []
    while len(found) < count:
        state = CountState.random_deal(rng, rules)
        while not state.is_over and not (state.phase == DECIDE and state.turns_left == turns_left):
            if state.phase == DECIDE:
                legal = state.legal_moves()
                state.push(greedy.choose(state) if rng.random() < 0.5 else rng.choice(legal))
            elif state.phase == DRAW:
                state.push_draw(state.sample_draw(rng))
        if not state.is_over:
            found.append(state.copy())
    return found


def solved_positions(
    turns_left: tuple[int, ...], per_turn: int, *, seed: int, rules: RulesConfig = DEFAULT_RULES
) -> list[SolvedPosition]:
    return [
        SolvedPosition(state, exact_move_values(state))
        for left in turns_left
        for state in sample_positions(left, per_turn, seed=seed, rules=rules)
    ]
