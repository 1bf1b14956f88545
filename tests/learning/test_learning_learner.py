"""The learner: its lookahead agrees with the exact solver where no estimate is involved, training is
reproducible from its seed, and a few hundred episodes bring the value estimates closer to the exact values."""

from __future__ import annotations

import numpy as np
import pytest

from rummy import RulesConfig, count_rules
from strategies.learning.exact_values import sample_positions, solved_positions
from strategies.learning.features import Featurizer
from strategies.learning.lookahead import Lookahead
from strategies.learning.model import ValueModel
from strategies.training.learner import TDLearner, TrainSettings, position_scores, train

MINI = RulesConfig(types_per_round=3, cards_per_type=5, hand_size=4)  # 7 turns: every position solves fast


def test_lookahead_is_exact_on_the_last_turn() -> None:
    # With one turn left the model is never consulted (the draw ends the round), so the lookahead's
    # values must be the solver's exact values: this checks the move tables, draws and penalties.
    for rules in (RulesConfig(), MINI):
        count = count_rules(rules)
        lookahead = Lookahead(count, ValueModel(Featurizer(count).size, 4))
        for solved in solved_positions((1,), 15, seed=9, rules=rules):
            legal, values = lookahead.move_values(solved.state)
            assert sorted(legal) == sorted(solved.values)
            assert np.allclose(values, [solved.values[move] for move in legal])


def test_training_is_reproducible_from_its_seed() -> None:
    settings = TrainSettings(episodes=30, seed=5, hidden=8, alpha=0.01, rules=MINI)
    first, _ = train(settings)
    again, _ = train(settings)
    other, _ = train(TrainSettings(episodes=30, seed=6, hidden=8, alpha=0.01, rules=MINI))
    assert np.array_equal(first.model.theta, again.model.theta)
    assert not np.array_equal(first.model.theta, other.model.theta)


def test_a_few_hundred_episodes_bring_values_closer_to_the_exact_ones() -> None:
    # Positions from every stage of the miniature round, solved exactly, never used in training.
    positions = solved_positions(tuple(range(1, MINI.max_turns + 1)), 8, seed=2024, rules=MINI)
    learner = TDLearner(TrainSettings(episodes=300, seed=0, hidden=16, alpha=0.01, rules=MINI))
    regrets_before, _, errors_before = position_scores(learner.lookahead, learner.featurizer, learner.model, positions)
    for _ in range(300):
        learner.play_episode()
    regrets_after, _, errors_after = position_scores(learner.lookahead, learner.featurizer, learner.model, positions)
    # An untrained model values everything at 0 points; after training the estimates must be at least a
    # third closer to the exact values on average, and its moves must lose fewer points.
    assert np.mean(errors_after) < 0.67 * np.mean(errors_before)
    assert np.mean(regrets_after) < np.mean(regrets_before)


def test_sampled_positions_are_decisions_with_the_asked_turns_left() -> None:
    states = sample_positions(3, 5, seed=1, rules=MINI)
    assert len(states) == 5 and all(state.turns_left == 3 and state.legal_moves() for state in states)
    assert [repr(s) for s in states] == [repr(s) for s in sample_positions(3, 5, seed=1, rules=MINI)]


def test_exact_values_agree_with_the_python_search_to_the_end_of_the_round() -> None:
    # The learner's yardstick now comes from the kernel (or the table); the Python exact search is an
    # independent implementation of the same rules, so the two must agree on every move.
    from strategies.learning.exact_values import exact_move_values
    from strategies.search.exact import solve

    for rules, turns in ((MINI, (3, 5)), (RulesConfig(), (2, 3))):
        for state in (s for left in turns for s in sample_positions(left, 3, seed=4, rules=rules)):
            state.points[state.mover] += 25  # banked points are taken out of both
            banked = state.points[state.mover] - state.points[1 - state.mover]
            truth = solve(state.copy(), "margin").move_values
            values = exact_move_values(state.copy())
            assert values.keys() == truth.keys()
            for move, value in truth.items():
                assert values[move] == pytest.approx(value - banked, abs=1e-6)
