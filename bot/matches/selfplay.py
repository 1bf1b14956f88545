"""A seeded self-play round between two random players, printed turn by turn.

It walks the data flow every bot uses: gamestate -> labels -> tracker -> count-level state ->
strategy (here: a uniformly random count-level move) -> card-level move.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from rummy import DEFAULT_RULES, Lay, Match, RulesConfig, Tracker, render_gamestate


@dataclass(frozen=True)
class TurnReport:
    turn: int
    player: int
    move: str
    points: tuple[int, int]
    cards_in_deck: int


def self_play(seed: int, rules: RulesConfig = DEFAULT_RULES) -> tuple[Match, Iterator[TurnReport]]:
    match = Match(seed=seed, rules=rules)
    return match, _turns(match, random.Random(seed))


def _turns(match: Match, rng: random.Random) -> Iterator[TurnReport]:
    trackers = (Tracker(match.rules), Tracker(match.rules))
    turn = 0
    while not match.over:
        player = match.current.mover
        kinds = {card.id: card.kind for hand in match.current.hands for card in hand}
        tracker = trackers[player]
        tracker.observe(render_gamestate(match, player), kinds)
        move = tracker.card_move(rng.choice(tracker.count_state().legal_moves()))
        described = _describe(move, kinds)
        match.apply(player, move)
        turn += 1
        points = match.current.points
        yield TurnReport(turn, player, described, (points[0], points[1]), len(match.current.deck))


def _describe(move: object, kinds: dict[int, str]) -> str:
    if isinstance(move, Lay):
        return "Lay " + ", ".join(kinds[card_id] for card_id in move.ids)
    card_id = move.id  # type: ignore[attr-defined]
    return f"{type(move).__name__} {kinds[card_id]}"
