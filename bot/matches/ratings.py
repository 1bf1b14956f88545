"""Bradley-Terry ratings on the Elo scale, with bootstrap intervals.

Each round is one comparison: the winner beat the loser. Strengths are fitted by the standard
minorise-maximise iteration; half a win each way per pair keeps a perfect record finite (a bot that
won every round would otherwise have an infinite rating). Ratings are 1500 + 400 log10(strength),
centred so their mean is 1500.

The intervals come from a parametric bootstrap: each resample replays every round of the schedule
with its winner drawn from the fitted ratings. Resampling the observed rounds instead would give a
4-0 record a zero-width interval (every resample is 4-0 again), claiming a certainty four rounds
cannot give.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

PRIOR_WINS = 0.5
ITERATIONS = 200


@dataclass(frozen=True)
class Rating:
    name: str
    rating: float
    low: float  # 95% bootstrap interval
    high: float


def fit_ratings(names: Sequence[str], games: Sequence[tuple[str, str]]) -> dict[str, float]:
    """Elo-scale ratings from (winner, loser) pairs."""
    index = {name: position for position, name in enumerate(names)}
    n = len(names)
    wins = [[0.0] * n for _ in range(n)]
    for winner, loser in games:
        wins[index[winner]][index[loser]] += 1
    played_pairs = {tuple(sorted((index[winner], index[loser]))) for winner, loser in games}
    for i, j in played_pairs:
        wins[i][j] += PRIOR_WINS
        wins[j][i] += PRIOR_WINS
    strength = [1.0] * n
    for _ in range(ITERATIONS):
        updated = []
        for i in range(n):
            total_wins = sum(wins[i])
            denominator = sum((wins[i][j] + wins[j][i]) / (strength[i] + strength[j]) for j in range(n) if j != i)
            updated.append(total_wins / denominator if denominator else strength[i])
        mean_log = sum(math.log(value) for value in updated) / n
        strength = [value / math.exp(mean_log) for value in updated]
    return {name: 1500 + 400 * math.log10(strength[index[name]]) for name in names}


def rate(
    names: Sequence[str], games: Sequence[tuple[str, str]], *, resamples: int = 200, seed: int = 0
) -> list[Rating]:
    """Ratings, best first, with 95% intervals from replaying the rounds under the fitted ratings."""
    point = fit_ratings(names, games)
    rng = random.Random(seed)
    samples: dict[str, list[float]] = {name: [] for name in names}
    for _ in range(resamples if games else 0):
        resampled = []
        for winner, loser in games:
            first_wins = 1.0 / (1.0 + 10 ** ((point[loser] - point[winner]) / 400))
            resampled.append((winner, loser) if rng.random() < first_wins else (loser, winner))
        for name, value in fit_ratings(names, resampled).items():
            samples[name].append(value)
    ratings = []
    for name in names:
        ordered = sorted(samples[name]) or [point[name]]
        low = ordered[int(0.025 * (len(ordered) - 1))]
        high = ordered[int(0.975 * (len(ordered) - 1))]
        ratings.append(Rating(name, point[name], low, high))
    return sorted(ratings, key=lambda rating: -rating.rating)
