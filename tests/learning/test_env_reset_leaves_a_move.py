"""The Gymnasium env never hands back a finished round from reset(): an episode starts with a decision."""

from __future__ import annotations

from rummy import RulesConfig
from strategies.training.gym_env import RummyVisionEnv

TINY = RulesConfig(types_per_round=2, cards_per_type=5, hand_size=3)


def test_reset_never_returns_a_finished_round():
    env = RummyVisionEnv("greedy", rules=TINY)
    for seed in range(200):
        _observation, info = env.reset(seed=seed)
        assert not env.state.is_over, seed
        assert env.state.legal_moves(), seed
