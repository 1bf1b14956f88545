"""Rank the moves of a position, like a coach's suggestions."""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rummy import Lay
from rummy.belief import UnsureCards, expected_note, unsure_cards
from rummy.labels import Recognizer
from strategies.agent import describe_card_move, describe_count_move
from strategies.belief_play import RankedCardMove, decide
from strategies.position import Position
from strategies.provenance import strategy_source
from strategies.registry import get_strategy, takes_option
from strategies.search import Objective
from strategies.search_strategies import SearchStrategy
from strategies.seen_position import seen_tracker
from strategies.table.perfect import PerfectStrategy


@dataclass(frozen=True)
class RankedMove:
    move: dict[str, Any]  # arena format
    label: str  # by type letters, e.g. "Lay 5xA"
    value: float | None  # win: probability of winning the round; margin: expected final point difference
    landmarks: str = ""  # in landmark names, as the coach says it, e.g. "Lay 5 big ben"


@dataclass(frozen=True)
class Analysis:
    best: dict[str, Any]
    moves: tuple[RankedMove, ...]  # best first
    objective: Objective
    depth: int  # turns searched (0 for strategies that do not search)
    exact: bool
    source: dict[str, Any] | None = None  # what produced the values (strategies.provenance)
    how: str = ""  # `perfect`: where this position's values came from, e.g. "exact, from the win table"
    # Seen through a recognizer (analyse_seen): values expected over the belief, and the cards it is unsure of.
    expected: bool = False
    beliefs: tuple[UnsureCards, ...] = ()
    # Expected over the belief, each assignment valued exactly: not exact, yet no estimate a table would replace.
    assignments_exact: bool = False

    def note(self) -> str:
        """What the values are expected over, in one sentence; empty when they are no expectation."""
        if not self.expected:
            return ""
        if all(ranked.value is None for ranked in self.moves):  # a strategy without values votes
            return expected_note(self.beliefs, "No values: the move is voted on the belief")
        return expected_note(self.beliefs)

    def to_json(self) -> dict[str, Any]:
        return {
            "best": self.best,
            "objective": self.objective.value,
            "exact": self.exact,
            "source": self.source,
            "expected": self.expected,
            "beliefs": [item.to_json() for item in self.beliefs],
            "moves": [
                {
                    "move": ranked.move,
                    "label": ranked.landmarks,
                    "value": None if ranked.value is None else round(ranked.value, 6),
                }
                for ranked in self.moves
            ],
        }


def analyse(
    position: Position,
    strategy: str = "expectimax",
    objective: Objective | str = Objective.WIN,
    time_ms: float = 1000,
    nodes: int | None = None,
    deadline: float | None = None,
) -> Analysis:
    """Rank the moves of `position`; with `nodes`, a search strategy gets that node budget instead of
    `time_ms`, so the ranking is the same on every machine. With `deadline` (time.monotonic()), every
    searching strategy stops by then, `exact` included (its values are then the search's, not exact)."""
    return _ranked(position, *_player(strategy, objective, time_ms, nodes), nodes, deadline)


def _ranked(
    position: Position, player: Any, objective: Objective, nodes: int | None, deadline: float | None
) -> Analysis:
    """`analyse` with its player made."""
    state = position.state
    rules = state.rules
    if isinstance(player, (SearchStrategy, PerfectStrategy)):
        result = player.analyse(state.copy(), None if nodes is not None else deadline, all_values=True)
        values = result.move_values
        ranked = sorted(values, key=lambda move: -values[move])

        moves = tuple(
            RankedMove(
                position.card_move(move).to_json(),
                rules.moves[move].label,
                player.shown_value(values[move]),
                describe_count_move(rules.moves[move], position.types),
            )
            for move in ranked
        )
        how = player.last_how if isinstance(player, PerfectStrategy) else ""
        return Analysis(moves[0].move, moves, objective, result.depth, result.exact, strategy_source(player), how)
    chosen = player.choose(state.copy())
    order = [chosen] + [move for move in state.legal_moves() if move != chosen]
    moves = tuple(
        RankedMove(
            position.card_move(move).to_json(),
            rules.moves[move].label,
            None,
            describe_count_move(rules.moves[move], position.types),
        )
        for move in order
    )
    return Analysis(moves[0].move, moves, objective, 0, False, strategy_source(player))


def _player(strategy: str, objective: Objective | str, time_ms: float, nodes: int | None) -> tuple[Any, Objective]:
    """The strategy instance that ranks the moves, and the objective it ranks them by."""
    objective = Objective(objective)
    options: dict[str, Any] = {}
    if strategy not in {"random", "greedy"}:
        options["objective"] = objective
    if nodes is not None and takes_option(strategy, "nodes"):
        options["nodes"] = nodes
    elif takes_option(strategy, "time_ms"):
        options["time_ms"] = time_ms
    player = get_strategy(strategy, **options)
    return player, Objective(getattr(player, "objective", objective))  # NAME:objective=... in the spec wins


def analyse_seen(
    position: Position,
    raw: Mapping[str, Any],
    recognizer: Recognizer,
    recognizer_name: str,
    strategy: str = "expectimax",
    objective: Objective | str = Objective.WIN,
    time_ms: float = 1000,
    nodes: int | None = None,
) -> Analysis:
    """Rank the moves of `position` as its mover sees them through `recognizer` (`recognizer_name`, built on
    `strategies.seen_position.position_truth`):
    on a certain belief as `analyse` does, else every card move valued as its expectation over the belief."""
    # The player first (made once, for either path): its belief is drawn as many times as it draws one in a match.
    player, player_objective = _player(strategy, objective, time_ms, nodes)
    tracker = seen_tracker(position, raw, recognizer, getattr(player, "samples", None))
    belief = tracker.belief()
    states = tracker.belief_states()
    if len(states) == 1:  # one count-level position: its values are exact, no expectation
        seen = Position(tracker.count_state(), belief.names, *_cards(tracker), position.rules, position.annotations)
        return _ranked(seen, player, player_objective, nodes, None)
    objective = player_objective
    deadline = None if nodes is not None else time.monotonic() + time_ms / 1000
    decision = decide(player, tracker, deadline)
    shown = getattr(player, "shown_value", None)
    ranked = decision.ranked or (RankedCardMove(decision.move, float("nan"), 1.0),)
    moves = tuple(
        RankedMove(
            item.move.to_json(),
            f"{item.sure:.2f}" if isinstance(item.move, Lay) else "",
            None if not decision.ranked else shown(item.value) if callable(shown) else item.value,
            describe_card_move(item.move, belief),
        )
        for item in ranked
    )
    mine, theirs = tracker.hand_ids()
    how = f"{decision.states} of the belief's {len(states)} assignments valued; belief by {belief.method}"
    doubt = getattr(player, "doubt", 0)
    if doubt and any(item.doubt for item in decision.ranked):
        how += f"; ranked with doubt={doubt:g} (see docs/belief.md): the values shown are the expectations"
    return Analysis(
        moves[0].move,
        moves,
        objective,
        0,
        decision.exact,
        {**strategy_source(player), "recognizer": recognizer_name, "error_model": tracker.error_model.source},
        how,
        expected=True,
        beliefs=unsure_cards(belief, mine + theirs),
        assignments_exact=decision.assignments_exact and bool(decision.ranked),
    )


def _cards(tracker: Any) -> tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]:
    """(id, type) of the cards in each hand, in the belief's one assignment."""
    types = tracker.belief().most_likely.types
    mine, theirs = tracker.hand_ids()
    return tuple((card, types[card]) for card in mine), tuple((card, types[card]) for card in theirs)
