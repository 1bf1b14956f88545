"""`corrected:INNER` revises labels as a round shows more cards, and starts afresh each round."""

from __future__ import annotations

import random

from recognizers.corrected import CorrectingRecognizer
from recognizers.registry import get_recognizer
from rummy import Give, Match, render_gamestate


def play_and_label(seed: int, recognizer) -> tuple[int, int]:
    """Plays a round with random gives/takes, asking about every card each turn as ArenaAgent does.

    Returns (right, total) over the labels of the last answer for every card of the round."""
    match = Match(seed=seed)
    rng = random.Random(seed)
    truth = {
        card.url: card.kind
        for card in [*match.current.deal.hands[0], *match.current.deal.hands[1], *match.current.deal.deck]
    }
    last: dict[str, str | None] = {}
    while not match.over:
        view = render_gamestate(match, match.current.mover)
        cards = [(card_id, url) for card_id, url in view["MyHand"] + view["OppHand"]]
        labels = recognizer.recognize(cards, view["AllCardTypes"])
        for card_id, url in cards:
            last[url] = labels[card_id].landmark
        own = match.current.hands[match.current.mover]
        match.apply(match.current.mover, Give(rng.choice(own).id))
    right = sum(1 for url, landmark in last.items() if truth[url] == landmark)
    return right, len(last)


def test_correction_beats_the_raw_noisy_labels_across_rounds():
    truth: dict[str, str] = {}

    def source() -> dict[str, str]:
        return truth

    raw = get_recognizer("noisy:0.1", source=source, noise_seed=5)
    corrected = get_recognizer("corrected:noisy:0.1", source=source, noise_seed=5)
    assert isinstance(corrected, CorrectingRecognizer) and corrected.name == "corrected:noisy:0.1:oracle"
    totals = {"raw": [0, 0], "corrected": [0, 0]}
    for seed in range(40):
        match = Match(seed=seed)
        truth.clear()
        truth.update(
            {
                card.url: card.kind
                for card in [*match.current.deal.hands[0], *match.current.deal.hands[1], *match.current.deal.deck]
            }
        )
        for name, recognizer in (("raw", raw), ("corrected", corrected)):
            right, total = play_and_label(seed, recognizer)
            totals[name][0] += right
            totals[name][1] += total
    raw_accuracy = totals["raw"][0] / totals["raw"][1]
    corrected_accuracy = totals["corrected"][0] / totals["corrected"][1]
    print(f"raw {raw_accuracy:.4f} corrected {corrected_accuracy:.4f}")
    assert raw_accuracy < 0.95
    assert corrected_accuracy > raw_accuracy and corrected_accuracy >= 0.97
