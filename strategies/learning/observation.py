"""What the environments show a player: the count-level state from its own view, and the legal-move mask.

The observation is one float32 vector: the player's hand, the opponent's hand and the deck by type
(both hands are visible in Rummy Vision; only the deck order is hidden), then the turns left, both
players' banked points, and whether this player moved second (it wins ties). Actions are the dense
count-level move ids of `rummy.countstate` (26 with the arena's rules).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from rummy import CountState, RulesConfig, count_rules

Vector = npt.NDArray[np.float32]
Mask = npt.NDArray[np.int8]


def observation_bounds(rules: RulesConfig) -> tuple[Vector, Vector]:
    n = rules.types_per_round
    best_per_card = max(points / size for size, points in (*rules.same_kind_points, *rules.different_points))
    most_points = float(np.ceil(best_per_card * rules.total_cards))
    low = np.zeros(3 * n + 4, dtype=np.float32)
    high = np.array([rules.cards_per_type] * (3 * n) + [rules.max_turns, most_points, most_points, 1], dtype=np.float32)
    return low, high


def observe(state: CountState, player: int) -> Vector:
    return np.array(
        [
            *state.counts(player),
            *state.counts(1 - player),
            *state.deck_counts(),
            max(0, state.turns_left),
            state.points[player],
            state.points[1 - player],
            float(state.second == player),
        ],
        dtype=np.float32,
    )


def n_actions(rules: RulesConfig) -> int:
    return len(count_rules(rules).moves)


def action_mask(state: CountState, player: int) -> Mask:
    """1 for each legal move id of `player`; all zeros when it is not `player`'s turn (or the round is over)."""
    mask = np.zeros(len(state.rules.moves), dtype=np.int8)
    if not state.is_over and state.mover == player:
        mask[list(state.legal_moves())] = 1
    return mask


def final_reward(state: CountState, player: int, reward: str) -> float:
    """`margin`: the final point difference; `win`: +1 for the round's winner, -1 for the loser."""
    if reward == "margin":
        return float(state.margin(player))
    return 1.0 if state.winner() == player else -1.0


REWARDS = ("margin", "win")
