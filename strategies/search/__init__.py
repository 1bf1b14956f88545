"""Expectiminimax over count-level states: evaluation, move ordering, transposition table, search, exact solving."""

from strategies.search.evaluation import Evaluator, Objective, evaluator_for
from strategies.search.expectimax import Searcher, SearchOptions, SearchResult, SearchStats
from strategies.search.tt import TranspositionTable

__all__ = [
    "Evaluator",
    "Objective",
    "SearchOptions",
    "SearchResult",
    "SearchStats",
    "Searcher",
    "TranspositionTable",
    "evaluator_for",
]
