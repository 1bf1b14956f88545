"""Full-depth solving: the true value of every move, for either objective."""

from __future__ import annotations

from rummy import CountState
from strategies.search.evaluation import Objective
from strategies.search.expectimax import Searcher, SearchOptions, SearchResult


def solve(
    state: CountState, objective: Objective | str = Objective.WIN, *, searcher: Searcher | None = None
) -> SearchResult:
    """Search to the end of the round (no estimate anywhere); `move_values` holds every move's true value.

    The cost grows about sixty-fold per turn left, so this is for endgames and miniature rules.
    """
    searcher = searcher or Searcher(SearchOptions(objective=Objective(objective)))
    if searcher.options.objective is not Objective(objective):
        raise ValueError("the searcher was built for another objective")
    return searcher.search(state, state.turns_left, all_values=True)
