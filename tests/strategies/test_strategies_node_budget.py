"""A node budget makes the search independent of the clock: same state and budget, same answer."""

from __future__ import annotations

import itertools
import random

import pytest
from strategies_helpers import random_position

from strategies.registry import get_strategy, strategy_names, takes_option
from strategies.search import Searcher, SearchOptions
from strategies.search import expectimax as expectimax_module

SEARCHERS = ("heuristic", "expectimax", "expectimax-plan", "exact", "easy", "medium", "hard")


def _decisions(name: str, nodes: int, positions) -> list[tuple]:
    player = get_strategy(name, nodes=nodes, **({"seed": 3} if takes_option(name, "seed") else {}))
    answers = []
    for state in positions:
        move = player.choose(state.copy())
        last = getattr(player, "last", None)
        answers.append((move, None if last is None else (last.depth, last.value, sorted(last.move_values.items()))))
    return answers


def test_every_search_strategy_takes_a_node_budget_and_the_others_refuse_it() -> None:
    assert {name for name in strategy_names() if takes_option(name, "nodes")} == set(SEARCHERS)
    with pytest.raises(ValueError, match="does not take the option"):
        get_strategy("greedy", nodes=100)
    with pytest.raises(ValueError, match="nodes must be a positive integer"):
        get_strategy("expectimax", nodes=0)


@pytest.mark.parametrize("name", ["expectimax", "medium", "heuristic"])
def test_with_a_node_budget_the_moves_do_not_follow_the_clock(name: str, monkeypatch) -> None:
    # A clock that jumps a whole second at every look is a machine under extreme load: with a time
    # budget the search would stop after its first iteration; with a node budget nothing changes.
    positions = [random_position(random.Random(seed)) for seed in range(6)]
    calm = _decisions(name, 4000, positions)
    ticks = itertools.count()
    monkeypatch.setattr(expectimax_module.time, "monotonic", lambda: float(next(ticks)))
    assert _decisions(name, 4000, positions) == calm


def test_a_bigger_budget_searches_deeper_and_the_budget_bounds_the_work() -> None:
    state = random_position(random.Random(11), max_steps=4)
    small = Searcher(SearchOptions()).iterate(state, float("inf"), nodes=2_000)
    large = Searcher(SearchOptions()).iterate(state, float("inf"), nodes=200_000)
    assert small.depth < large.depth
    # The budget is checked every 128 chance nodes, so it can be overrun by what those cost, not more.
    assert small.nodes <= 2_000 + 128 * 200


def test_each_node_is_counted_once() -> None:
    # Plain expectimax one turn deep: after each root move either the round is over (one leaf) or there
    # is one chance node with one leaf per distinct card type in the deck. Budgets and the benchmark
    # count these nodes, so a leaf must not also count as a decision or a chance node.
    state = random_position(random.Random(2), max_steps=6)
    expected = 0
    for move in state.legal_moves():
        state.push(move)
        expected += 1 if state.is_over else 1 + len(state.chance_outcomes())
        state.pop()
    result = Searcher(SearchOptions(pruning="none")).search(state.copy(), 1)
    assert result.nodes == expected


def test_under_a_node_budget_endgames_are_solved_exactly_when_the_state_cap_allows() -> None:
    # The cap is STATES_PER_NODE states a node; a solve is tried when the p95 of its states fits. Whether
    # it is tried depends on the budget and the position only, so the same moves follow on any machine.
    from bot.measure.sampling import position_set
    from strategies.kernel.budget import SOLVE_P95_STATES, STATES_PER_NODE
    from strategies.kernel.solve_position import solve_exact

    state = position_set(1, 61, turns_left=3)[0]
    enough = SOLVE_P95_STATES["win"][3] // STATES_PER_NODE + 1
    solver = get_strategy("expectimax", nodes=enough)
    solver.choose(state.copy())
    exact = solve_exact(state.copy(), "win")
    assert exact is not None and solver.last is not None
    assert solver.last.exact and solver.last.nodes == 0  # answered by the kernel, not the search
    assert solver.last.move_values == pytest.approx(exact.values)
    searcher = get_strategy("expectimax", nodes=enough - 1)
    searcher.choose(state.copy())
    assert searcher.last is not None and searcher.last.nodes > 0  # too small a cap: the search answers


def test_a_duel_under_node_budgets_replays_round_for_round_across_processes_and_load(monkeypatch) -> None:
    # The README's strength figures are duels at node budgets: each round must come out the same whether
    # the deals are spread over worker processes or played in one process whose clock races ahead.
    from multiprocessing import Pool

    from bot.measure.duel import play_deal as _play_deal

    jobs = [("expectimax:nodes=3000", "expectimax-plan:nodes=3000", seed, False) for seed in range(3)]
    with Pool(2) as pool:
        spread = pool.map(_play_deal, jobs)
    ticks = itertools.count()
    monkeypatch.setattr(expectimax_module.time, "monotonic", lambda: float(next(ticks)))
    assert [_play_deal(job) for job in jobs] == spread


def test_under_a_time_budget_an_exact_solve_gets_half_the_time_left(monkeypatch) -> None:
    """The solve is chosen on idle-machine timings; on a loaded machine it may run to its deadline. That
    deadline is halfway, so the search keeps the other half instead of starting with none left."""
    import strategies.search_strategies as search_strategies
    from rummy import random_decision

    now = 500.0
    monkeypatch.setattr(search_strategies.time, "monotonic", lambda: now)  # a clock that stands still
    monkeypatch.setattr(search_strategies, "is_warm", lambda: True)
    given: list[float | None] = []

    def solve_gives_up(state, objective, *, table=None, deadline=None, max_states=None):  # type: ignore[no-untyped-def]
        given.append(deadline)
        return None  # as a solve that ran out of time does

    monkeypatch.setattr(search_strategies, "exact_move_values", solve_gives_up)
    monkeypatch.setattr(search_strategies, "_table_for", lambda leaves, path: None)  # same with or without tables
    monkeypatch.setattr(search_strategies, "warm_up_soon", lambda: None)  # no compile: no solve runs
    player = search_strategies.SearchStrategy(
        "expectimax", objective="win", time_ms=1000, max_depth=1, leaves="plan", exact_solve=True
    )
    state = random_decision(random.Random(4), turns_left=4)
    player.analyse(state)
    assert given == [now + 0.5]  # the move's own deadline is now + 1 s
    assert player.last is not None and player.last.depth == 1  # the search answered, not the solve
    given.clear()
    player.analyse(state, deadline=now + 0.41)  # a tighter deadline from the server: half of what is left of it
    assert given == [pytest.approx(now + (0.41 - search_strategies.DEADLINE_MARGIN_S) / 2)]
