"""The simulated recognizers' stated likelihoods, checked against what they actually answer.

Each noisy model is run over many cards of known landmarks; the posterior its `error_model` gives each
card (a uniform prior over the round's four landmarks) is compared, per bucket of probability, with how
often the truth had it. The check is empirical, so it does not restate the formulas it checks."""

from __future__ import annotations

import random

import pytest

from recognizers.registry import get_recognizer
from rummy.catalog import DEFAULT_CATALOG

CARDS = 6000


def _posteriors(spec: str, seed: int, **options: object) -> list[tuple[float, bool]]:
    """(posterior of a landmark, whether it is the truth) for every card and every round landmark."""
    rng = random.Random(seed)
    catalog = list(DEFAULT_CATALOG)
    found: list[tuple[float, bool]] = []
    for batch in range(CARDS // 40):
        names = tuple(sorted(rng.sample(catalog, 4)))
        truth = {f"https://cards.test/{seed}/{batch}/{index}.jpg": names[index % 4] for index in range(40)}
        recognizer = get_recognizer(spec, source=lambda truth=truth: truth, noise_seed=f"{seed}:{batch}", **options)
        cards = [(index, url) for index, url in enumerate(truth)]
        labels = recognizer.recognize(cards, catalog)
        model = recognizer.error_model
        for card_id, url in cards:
            weights = model.evidence(labels[card_id], names)
            if weights is None:
                continue
            total = sum(weights)
            found += [(weight / total, name == truth[url]) for name, weight in zip(names, weights)]
    return found


@pytest.mark.parametrize(
    ("spec", "model"),
    [
        ("noisy:0.1", "ranked"),
        ("noisy:0.2", "ranked"),
        ("noisy:0.2", "flat"),
        ("harsh:0.1", "harsh"),
        ("noisy:1", "ranked"),  # every top name wrong: a model too, not a crash
        ("noisy:1", "flat"),
        ("harsh:1", "harsh"),
    ],
)
def test_a_simulated_recognizer_states_calibrated_likelihoods(spec, model):
    found = _posteriors(spec, 7, noise_model=model)
    # Buckets of stated probability: the truth's frequency in each lies within sampling error of the mean.
    for low, high in ((0.02, 0.2), (0.2, 0.5), (0.5, 0.8), (0.8, 0.98)):
        inside = [(p, hit) for p, hit in found if low <= p < high]
        if len(inside) < 40:
            continue
        stated = sum(p for p, _hit in inside) / len(inside)
        seen = sum(hit for _p, hit in inside) / len(inside)
        spread = 3.5 * (stated * (1 - stated) / len(inside)) ** 0.5 + 0.02
        assert abs(seen - stated) <= spread, (spec, low, high, len(inside), stated, seen)
    # What is stated as (nearly) impossible or certain is so.
    assert sum(hit for p, hit in found if p < 0.001) <= 0.002 * max(1, sum(p < 0.001 for p, _ in found))
    sure = [hit for p, hit in found if p > 0.999]
    assert sum(sure) >= 0.995 * len(sure)


def test_a_wrong_ranked_name_out_of_play_points_to_its_runner_up():
    from recognizers.observation import RankedLabel

    model = get_recognizer("noisy:0.1", source=dict).error_model
    names = ("big ben", "giralda", "jal mahal", "koutoubia mosque")
    # Top name not in play (so wrong), the runner-up one of the round's: the score alone gives the runner-up
    # the `runner_up` share (0.8); the answers' likelihood, nearly all of it.
    label = RankedLabel("bryggen", 0.01, "", (("bryggen", 0.01), ("giralda", 0.792)))
    weights = model.evidence(label, names)
    assert weights[1] / sum(weights) > 0.97
