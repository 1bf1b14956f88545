"""Measure deck-constraint correction: `rummy-vision measure correction [--rounds 1000]`.

For each simulated round (`rummy.cards.deal_round(seed)`), the `noisy:RATE` recognizer over the
oracle labels the cards, `correct_round` corrects them, and both are compared with the truth (an
"unknown" counts as wrong). Two views: the whole round (all 40 cards, as a bot has seen them by
the end) and the first gamestate (the 20 cards in the two hands). "rounds >= 99%" is the share of
rounds whose corrected labels are at least 99% right (all 40, or all 20, in practice).

TUNING_SEEDS were used to choose `deck_constraint.SCORE_FLOOR` (on the ranked model); the default
report starts at REPORT_START_SEED, which no tuning has seen.
"""

from __future__ import annotations

from dataclasses import dataclass

from recognizers.deck_constraint import correct_round
from recognizers.noisy import NoisyRecognizer
from recognizers.oracle import OracleRecognizer
from rummy.cards import deal_round
from rummy.config import DEFAULT_RULES, RulesConfig

TUNING_SEEDS = range(0, 1000)
REPORT_START_SEED = 1_000_000


@dataclass(frozen=True)
class Accuracy:
    cards: int
    raw_right: int
    corrected_right: int
    rounds: int = 0
    rounds_99: int = 0  # rounds whose corrected labels are at least 99% right

    @property
    def raw(self) -> float:
        return self.raw_right / self.cards if self.cards else 0.0

    @property
    def corrected(self) -> float:
        return self.corrected_right / self.cards if self.cards else 0.0

    @property
    def round_share(self) -> float:
        return self.rounds_99 / self.rounds if self.rounds else 0.0


def measure(
    rounds: int = 1000,
    rate: float = 0.1,
    model: str = "ranked",
    *,
    first_view: bool = False,
    start_seed: int = 0,
    rules: RulesConfig = DEFAULT_RULES,
) -> Accuracy:
    cards_total = raw_right = corrected_right = rounds_99 = 0
    for seed in range(start_seed, start_seed + rounds):
        deal = deal_round(seed, rules)
        shown = deal.hands[0] + deal.hands[1] if first_view else deal.hands[0] + deal.hands[1] + deal.deck
        truth = {card.url: card.kind for card in shown}
        noisy = NoisyRecognizer(OracleRecognizer.from_mapping(truth), rate, seed=seed, model=model)
        labels = noisy.recognize([(card.id, card.url) for card in shown], rules.catalog)
        corrected = correct_round(labels, rules).labels
        right_here = 0
        for card in shown:
            cards_total += 1
            raw_right += labels[card.id].landmark == card.kind
            right_here += corrected[card.id].landmark == card.kind
        corrected_right += right_here
        rounds_99 += right_here >= 0.99 * len(shown)
    return Accuracy(cards_total, raw_right, corrected_right, rounds, rounds_99)
