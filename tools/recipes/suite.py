"""The curated position suite: endgames whose best move the exact solver finds by a clear gap.

`python tools/measure.py suite --positions fixtures/strategies/positions.jsonl` writes it.

Each line is an analysis position with "Expected" (the exact solver's best move), "Objective"
and a "Comment" that says why the move is best (which plan it follows, its value, the runner-up
and what the greedy baseline would play instead).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from rummy import DEFAULT_CATALOG, CountState, MoveKind, random_decision
from strategies.baselines import GreedyStrategy
from strategies.position import parse_position
from strategies.search import Objective
from strategies.search.exact import solve

LANDMARKS = tuple(sorted(DEFAULT_CATALOG[:4]))


def to_position(state: CountState, rng: random.Random, game_id: int) -> dict[str, Any]:
    mover = state.mover
    ids = rng.sample(range(1, 100_000), sum(state.counts(0)) + sum(state.counts(1)))
    labels: dict[str, str] = {}

    def hand(player: int) -> list[list[Any]]:
        cards = []
        for t, count in enumerate(state.counts(player)):
            for _ in range(count):
                card_id = ids.pop()
                labels[str(card_id)] = LANDMARKS[t]
                cards.append([card_id, f"/cards/{rng.getrandbits(96):024x}.png"])
        rng.shuffle(cards)
        return cards

    gamestate = {
        "AllCardTypes": list(DEFAULT_CATALOG),
        "MyHand": hand(mover),
        "OppHand": hand(1 - mover),
        "MyPoints": state.points[mover],
        "OppPoints": state.points[1 - mover],
        "MyScore": 0,
        "OppScore": 0,
        "RemainingRounds": 1,
        "RemainingMoves": state.turns_left,
        "CardsInDeck": state.turns_left,
        "ResponseDeadline": 0,
        "GameStatus": "RUNNING",
        "IsMover": True,
        "GameId": game_id,
        "OpponentId": "suite",
    }
    deck = {LANDMARKS[t]: count for t, count in enumerate(state.deck_counts()) if count}
    return {"GameState": gamestate, "CardLabels": labels, "DeckCounts": deck}


def _reason(state: CountState, move_id: int) -> str:
    rules = state.rules
    move = rules.moves[move_id]
    mine, theirs = state.counts(0), state.counts(1)
    size, their_size = sum(mine), sum(theirs)
    name = chr(65 + move.type) if move.type >= 0 else ""
    if move.kind == MoveKind.LAY and sum(move.counts) == size:
        return f"{move.label} empties the hand: the round ends at once, before the opponent can answer"
    if move.kind == MoveKind.GIVE and size == 1:
        return (
            f"{move.label} gives away the last card: the hand is empty, "
            "the round ends at once with the opponent's penalty"
        )
    if move.kind == MoveKind.TAKE and their_size == 1:
        return f"{move.label} takes the opponent's last card, ending the round at once"
    if move.kind == MoveKind.TAKE and theirs[move.type] >= 3:
        return f"{move.label} breaks the opponent's {theirs[move.type]}x{name} set and adds to our own"
    if move.kind == MoveKind.TAKE:
        return f"{move.label} builds our {mine[move.type] + 1}x{name} and shrinks the opponent's options"
    if move.kind == MoveKind.GIVE:
        return f"{move.label} sheds a card we cannot use (3 points of penalty) onto the opponent"
    if move.kind == MoveKind.WASTE:
        return "a wasted lay is a pass: every real move makes things worse"
    return f"{move.label} scores {move.points} now; bigger or riskier plans do worse on average"


def build(count: int, seed: int, margin_every: int = 4) -> list[dict[str, Any]]:
    """`count` positions from decisions drawn with `seed`; every `margin_every`-th is judged by margin."""
    rng = random.Random(seed)
    greedy = GreedyStrategy()
    suite: list[dict[str, Any]] = []
    seen: set[tuple[int, ...]] = set()
    attempts = 0
    while len(suite) < count:
        raw_state = random_decision(rng, turns_left=1 + attempts % 4)
        attempts += 1
        position = to_position(raw_state, rng, len(suite) + 1)
        state = parse_position(position).state
        objective = Objective.MARGIN if len(suite) % margin_every == margin_every - 1 else Objective.WIN
        result = solve(state.copy(), objective)
        values = sorted(result.move_values.items(), key=lambda item: -item[1])
        if len(values) < 2:
            continue
        (best, best_value), (second, second_value) = values[0], values[1]
        gap = best_value - second_value
        greedy_move = greedy.choose(state.copy())
        # Keep positions with a clear best move that the naive baseline gets wrong, or any clear non-lay.
        needed = 0.1 if objective is Objective.WIN else 2.0
        interesting = greedy_move != best or state.rules.moves[best].kind != MoveKind.LAY
        if gap < needed or not interesting or state.key() in seen:
            continue
        seen.add(state.key())
        rules = state.rules

        def shown(value: float, objective: Objective = objective) -> str:
            return f"P(win) {(value + 1) / 2:.3f}" if objective is Objective.WIN else f"expected margin {value:+.2f}"

        position["Objective"] = objective.value
        position["Expected"] = parse_position(position).card_move(best).to_json()
        position["Comment"] = (
            f"{state.turns_left} turn(s) left, hands {_hand(state.counts(0))} vs {_hand(state.counts(1))}, "
            f"points {state.points[0]}-{state.points[1]}, deck {_hand(state.deck_counts())}"
            f"{', we win ties' if state.second == 0 else ', the opponent wins ties'}. "
            f"{_reason(state, best)}. Exact: {rules.moves[best].label} {shown(best_value)}; "
            f"next best {rules.moves[second].label} {shown(second_value)}; "
            f"greedy plays {rules.moves[greedy_move].label} {shown(result.move_values[greedy_move])}. "
            f"Types: {', '.join(f'{chr(65 + t)}={name}' for t, name in enumerate(LANDMARKS))}."
        )
        suite.append(position)
    return suite


def _hand(counts: tuple[int, ...]) -> str:
    return "+".join(f"{count}{chr(65 + t)}" for t, count in enumerate(counts) if count) or "none"


def write_suite(positions: list[dict[str, Any]], path: Path) -> None:
    """One JSON position a line, written whole or not at all."""
    partial = path.with_name(path.name + ".partial")
    partial.write_text("".join(json.dumps(position) + "\n" for position in positions), encoding="utf-8")
    partial.replace(path)
