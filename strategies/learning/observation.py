"""What the environments show a player: the count-level state from its own view, and the legal-move mask.

The observation is one float32 vector: the player's hand, the opponent's hand and the deck by type
(both hands are visible in Rummy Vision; only the deck order is hidden), then the turns left, both
players' banked points, and whether this player moved second (it wins ties). Actions are the dense
count-level move ids of `rummy.countstate` (26 with the arena's rules).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from rummy import CountState, RulesConfig, game_info

Vector = npt.NDArray[np.float32]
Mask = npt.NDArray[np.int8]


def observation_bounds(rules: RulesConfig) -> tuple[Vector, Vector]:
    info = game_info(rules)
    n = info.num_types
    most_points = info.max_banked_points
    low = np.zeros(3 * n + 4, dtype=np.float32)
    high = np.array(
        [rules.cards_per_type] * (3 * n) + [info.max_game_length, most_points, most_points, 1], dtype=np.float32
    )
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
    return game_info(rules).num_distinct_moves


def action_mask(state: CountState, player: int) -> Mask:
    """1 for each legal move id of `player`; all zeros when it is not `player`'s turn (or the round is over)."""
    mask = np.zeros(game_info(state.rules.config).num_distinct_moves, dtype=np.int8)
    if not state.is_over and state.mover == player:
        mask[list(state.legal_moves())] = 1
    return mask


def final_reward(state: CountState, player: int, reward: str) -> float:
    """`margin`: the final point difference; `win`: +1 for the round's winner, -1 for the loser."""
    if reward == "margin":
        return float(state.margin(player))
    return 1.0 if state.winner() == player else -1.0


REWARDS = ("margin", "win")
