"""Rummy Vision core: cards, rules, the referee's engine, gamestates, count-level state, tracker.

Everything else in the project imports from here; this package imports nothing of theirs.
"""

from rummy.cards import Card, Deal, deal_round
from rummy.catalog import DEFAULT_CATALOG
from rummy.config import DEFAULT_RULES, MalformedLay, MyScore, PointsShown, RulesConfig
from rummy.countstate import (
    DECIDE,
    DRAW,
    OVER,
    CountMove,
    CountRules,
    CountState,
    MoveKind,
    Phase,
    count_rules,
    play_random_round,
    random_decision,
)
from rummy.engine import Match, MoveOutcome, Round, Status
from rummy.game_info import GameInfo, game_info
from rummy.gamestate import GAMESTATE_KEYS, render_gamestate
from rummy.labels import UNKNOWN, CardLabel, Recognizer
from rummy.moves import Give, Lay, MalformedMove, Move, Take, parse_move
from rummy.tracker import Tracker

__all__ = [
    "Card",
    "CardLabel",
    "Recognizer",
    "UNKNOWN",
    "CountMove",
    "CountRules",
    "CountState",
    "DECIDE",
    "DEFAULT_CATALOG",
    "DEFAULT_RULES",
    "DRAW",
    "Deal",
    "GAMESTATE_KEYS",
    "GameInfo",
    "Give",
    "Lay",
    "MalformedLay",
    "MalformedMove",
    "Match",
    "Move",
    "MoveKind",
    "MoveOutcome",
    "MyScore",
    "OVER",
    "Phase",
    "PointsShown",
    "Round",
    "RulesConfig",
    "Status",
    "Take",
    "Tracker",
    "count_rules",
    "deal_round",
    "game_info",
    "parse_move",
    "play_random_round",
    "random_decision",
    "render_gamestate",
]
