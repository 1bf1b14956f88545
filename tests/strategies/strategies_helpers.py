"""Random positions and an independent brute-force solver for the strategy tests."""

from __future__ import annotations

import random

from rummy import DEFAULT_RULES, OVER, CountState, RulesConfig, random_decision

REPO = __import__("pathlib").Path(__file__).resolve().parents[2]
SUITE = REPO / "fixtures" / "strategies" / "positions.jsonl"


def random_position(rng: random.Random, rules: RulesConfig = DEFAULT_RULES, max_steps: int | None = None) -> CountState:
    """A random deal advanced by random moves and draws to a state where someone is to move."""
    return random_decision(rng, rules, max_plies=max_steps)


class BruteForce:
    """Plain expectiminimax to the end of the round, memoised on the raw state (no canonical keys)."""

    def __init__(self, objective: str) -> None:
        self.objective = objective
        self.memo: dict[tuple, float] = {}

    def final_value(self, state: CountState, player: int) -> float:
        penalty = state.rules.config.hand_penalty
        mine = state.points[player] - penalty * sum(state.counts(player))
        theirs = state.points[1 - player] - penalty * sum(state.counts(1 - player))
        if self.objective == "margin":
            return float(mine - theirs)
        if mine == theirs:
            return 1.0 if state.second == player else -1.0
        return 1.0 if mine > theirs else -1.0

    def move_values(self, state: CountState) -> dict[int, float]:
        return {move: self.after_move(state, move) for move in state.legal_moves()}

    def value(self, state: CountState) -> float:
        raw = (tuple(state.hands), state.deck, tuple(state.points), state.turns_left, state.mover, state.second)
        found = self.memo.get(raw)
        if found is None:
            found = self.memo[raw] = max(self.move_values(state).values())
        return found

    def after_move(self, state: CountState, move: int) -> float:
        player = state.mover
        state.push(move)
        try:
            if state.phase == OVER:
                return self.final_value(state, player)
            deck = state.deck_counts()
            total = sum(deck)
            value = 0.0
            for draw, count in enumerate(deck):
                if not count:
                    continue
                state.push_draw(draw)
                child = self.final_value(state, player) if state.phase == OVER else -self.value(state)
                state.pop()
                value += count / total * child
            return value
        finally:
            state.pop()
