"""`noisy:RATE[:INNER]`: a wrapper that corrupts a seeded fraction of another recognizer's labels.

It stands in for a real vision service when testing how bots and deck-constraint correction
cope with recognition errors. Each image's fate is seeded by (seed, url), so the same card gets
the same answer every time it is seen, as it would from a real service.

Two noise models:
- "ranked" (default), like a real classifier: a wrong top label comes with a lower raw score
  (uniform 0.35-0.80 against 0.60-1.00 for right ones), and with probability `runner_up` the
  true landmark is the second candidate (otherwise a random other name); right labels carry a
  random runner-up too. Scores are reported calibrated (the probability the name is right, given
  the raw score), which is what deck-constraint correction expects of a recognizer.
- "flat": a wrong label looks exactly like a right one (same confidence, no runners-up); only
  the deck's type counts can expose it.
- "harsh", closer to a real service on similar pictures: a wrong label is mostly (`in_round`,
  default 80%) another of the round's own landmarks, which no "not in play" check can reject;
  scores are the raw scores, overconfident and barely lower when wrong (0.50-0.95 against
  0.55-1.00); the truth is the runner-up only half the time; and a fraction `unknown` (default
  5%) of the cards gets no answer at all. The round's landmarks are the true labels of the cards
  asked about since the round began (a call sharing no card with earlier ones starts a new round),
  and each answer is remembered per URL, so the same card always gets the same answer.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from recognizers.observation import RankedLabel
from rummy.belief import ErrorModel, error_model_of, runner_up
from rummy.catalog import DEFAULT_CATALOG
from rummy.labels import CardLabel, Recognizer, recognize_within

NOISE_MODELS = ("ranked", "flat", "harsh")
RIGHT_SCORES = (0.60, 1.00)  # raw score range of a right top label
WRONG_SCORES = (0.35, 0.80)  # raw score range of a wrong one: lower on the whole, overlapping
HARSH_RIGHT_SCORES = (0.55, 1.00)
HARSH_WRONG_SCORES = (0.50, 0.95)  # almost as sure when wrong: the scores are not calibrated
HARSH_RUNNER_UP = 0.5  # how often a wrong harsh answer still has the truth second
SCORE_FLOOR = 0.01  # the least top score a ranked answer reports (a certainly wrong one reports this)


def noise_key(url: str) -> str:
    """What a card's noise is seeded by: its URL, named as cards were when the measured seeds were fixed
    (`.png`; deals now name them `.jpg`, as the arena does), so every noisy figure measured before stays."""
    return url[: -len(".jpg")] + ".png" if url.endswith(".jpg") else url


class NoisyRecognizer:
    def __init__(
        self,
        inner: Recognizer,
        rate: float,
        *,
        seed: int | str = 0,
        model: str = "ranked",
        runner_up: float = 0.8,
        in_round: float = 0.8,
        unknown: float = 0.05,
        name: str | None = None,
    ) -> None:
        if not 0.0 <= rate <= 1.0:
            raise ValueError(f"noise rate must be between 0 and 1, not {rate}")
        if not 0.0 <= unknown <= 1.0:
            raise ValueError(f"the share of cards left unanswered must be between 0 and 1, not {unknown}")
        if model not in NOISE_MODELS:
            raise ValueError(f"noise model must be one of {', '.join(NOISE_MODELS)}, not {model!r}")
        self.inner = inner
        self.rate = rate
        self.seed = seed
        self.model = model
        self.runner_up = runner_up
        self.in_round = in_round
        self.unknown = unknown
        self.name = name or f"noisy:{rate:g}:{inner.name}"
        self._round_kinds: set[str] = set()  # harsh: true landmarks seen this round
        self._answers: dict[str, CardLabel] = {}  # harsh: url -> answer given, this round
        self._catalog: Sequence[str] = ()  # the catalog last asked with

    @property
    def error_model(self) -> ErrorModel:
        """How this wrapper errs, stated as the belief reads it (on top of the inner recognizer's own errors)."""
        inner = error_model_of(self.inner)
        rate = 1.0 - (1.0 - self.rate) * (1.0 - inner.error_rate)
        exact = inner.error_rate == 0.0  # over a true labeller, this wrapper's answers are all the error there is
        known = "; its answers' likelihoods are known exactly" if exact else ""
        if self.model == "ranked":
            # Scores are calibrated: the confidence is the chance the top name is right. Being simulated, the
            # answers' likelihoods are also known exactly (_ranked_likelihood), which reads a wrong name that is
            # not in play far better than the confidence alone.
            return ErrorModel(
                min(rate, 0.99),  # noisy:1 (every top name wrong) is a model too; the likelihoods stay exact
                calibrated=True,
                runner_up=self.runner_up,
                source=f"{self.name}: calibrated scores{known}",
                likelihood=self._ranked_likelihood if exact else None,
            )
        if self.model == "flat":
            return ErrorModel(
                min(rate, 0.99),
                runner_up=0.0,
                source=f"{self.name}: wrong {rate:.0%} of the time{known}",
                likelihood=self._flat_likelihood if exact else None,
            )
        # Harsh answers are simulated, so their likelihood is known exactly: the raw score's two ranges and
        # which names come first and second when right and when wrong (see _harsh).
        return ErrorModel(
            min(rate, 0.99),
            runner_up=HARSH_RUNNER_UP,
            source=f"{self.name}: wrong {rate:.0%} of the time, no answer for {self.unknown:.0%} of cards; "
            "its answers' likelihoods are known exactly",
            likelihood=self._harsh_likelihood if exact else None,
        )

    def _catalog_size(self) -> int:
        return max(3, len(self._catalog) if self._catalog else len(DEFAULT_CATALOG))

    def _ranked_likelihood(self, label: CardLabel, names: Sequence[str]) -> tuple[float, ...] | None:
        """P(this answer | the truth is each of `names`), from the ranked model (_corrupt), up to a common factor.

        Right, the top name is the truth and the runner-up any of the K - 1 other names; wrong, the top name is
        any of the K - 1 others and the runner-up the truth with probability `runner_up` (or when the random
        pick hits the top name), else any of the K - 1 names but the truth. The reported score is
        P(right | raw score), so sure : 1 - sure is the raw score's likelihood ratio. Each alternative t then
        weighs: t the top name, sure / (K - 1); t the runner-up, (1 - sure) / (K - 1) x (runner_up +
        (1 - runner_up) / (K - 1)); any other t, (1 - sure) / (K - 1) x (1 - runner_up) / (K - 1). The common
        1 / (K - 1) is left out. A wrong name that is not in play (K = 32: 29 names in 31) thus points to its
        runner-up almost surely, where reading the score alone (ErrorModel.evidence) gives it only `runner_up`."""
        top, second = label.landmark, runner_up(label)
        # Reported scores are max(P(right | raw), SCORE_FLOOR): a right answer never reports the floor while rate < 1.
        sure = min(1.0, label.confidence) if label.confidence > SCORE_FLOOR + 1e-9 else 0.0
        other = 1.0 / (self._catalog_size() - 1)
        found = []
        for truth in names:
            if truth == top:
                found.append(sure)
            elif truth == second:
                found.append((1.0 - sure) * (self.runner_up + (1.0 - self.runner_up) * other))
            else:
                found.append((1.0 - sure) * (1.0 - self.runner_up) * other)
        return tuple(found) if sum(found) > 0 else None

    def _flat_likelihood(self, label: CardLabel, names: Sequence[str]) -> tuple[float, ...] | None:
        """P(this answer | the truth is each of `names`), from the flat model: right with probability 1 - rate,
        else any of the K - 1 other names alike; the score says nothing."""
        wrong = self.rate / (self._catalog_size() - 1)
        found = tuple(1.0 - self.rate if truth == label.landmark else wrong for truth in names)
        return found if sum(found) > 0 else None

    def _harsh_likelihood(self, label: CardLabel, names: Sequence[str]) -> tuple[float, ...] | None:
        """P(this answer | the truth is each of `names`), from the harsh model (_harsh): `names` are the
        round's landmarks as the belief has them (placeholders stand for unnamed ones)."""
        top, score, second = label.landmark, label.confidence, runner_up(label)
        size = self._catalog_size()
        in_round = set(names)
        others = max(1, len(names) - 1)

        def picked(name: str | None, truth: str) -> float:
            # How a name other than the truth is chosen: one of the round's others, or any other name.
            if name in in_round and name != truth:
                return self.in_round / others + (1 - self.in_round) / (size - 1)
            return (1 - self.in_round) / (size - 1)

        right = (1 - self.rate) * _density(score, HARSH_RIGHT_SCORES)
        wrong = self.rate * _density(score, HARSH_WRONG_SCORES)
        found = []
        for truth in names:
            if truth == top:
                found.append(right * picked(second, truth))
            else:
                runner = HARSH_RUNNER_UP if second == truth else (1 - HARSH_RUNNER_UP) / (size - 2)
                found.append(wrong * picked(top, truth) * runner)
        return tuple(found) if sum(found) > 0 else None

    def __repr__(self) -> str:
        return f"NoisyRecognizer({self.inner!r}, rate={self.rate:g}, seed={self.seed!r}, model={self.model!r})"

    def recognize(
        self, cards: Sequence[tuple[int, str]], catalog: Sequence[str], *, budget_s: float | None = None
    ) -> dict[int, CardLabel]:
        labels = recognize_within(self.inner, cards, catalog, budget_s)
        self._catalog = catalog
        if self.model == "harsh":
            return self._harsh_round(cards, labels, catalog)
        return {card_id: self._corrupt(labels[card_id], url, catalog) for card_id, url in cards}

    def _harsh_round(
        self, cards: Sequence[tuple[int, str]], labels: dict[int, CardLabel], catalog: Sequence[str]
    ) -> dict[int, CardLabel]:
        if self._answers and not any(url in self._answers for _card_id, url in cards):
            self._answers.clear()  # not one card seen before: a new round
            self._round_kinds.clear()
        self._round_kinds.update(label.landmark for label in labels.values() if label.landmark is not None)
        answers: dict[int, CardLabel] = {}
        for card_id, url in cards:
            if url not in self._answers:
                self._answers[url] = self._harsh(labels[card_id], url, catalog)
            answers[card_id] = self._answers[url]
        return answers

    def _harsh(self, label: CardLabel, url: str, catalog: Sequence[str]) -> CardLabel:
        truth = label.landmark
        if truth is None or len(catalog) < 2:
            return label
        rng = random.Random(f"harsh:{self.seed}:{noise_key(url)}")
        if rng.random() < self.unknown:
            return CardLabel(None, 0.0, "noisy: no landmark found")
        wrong = rng.random() < self.rate
        others = [name for name in catalog if name != truth]
        round_others = sorted(self._round_kinds - {truth})
        if wrong:
            pool = round_others if round_others and rng.random() < self.in_round else others
            top = rng.choice(pool)
            second = truth if rng.random() < HARSH_RUNNER_UP else rng.choice([n for n in others if n != top])
            score = rng.uniform(*HARSH_WRONG_SCORES)
        else:
            top = truth
            second = rng.choice(round_others) if round_others and rng.random() < self.in_round else rng.choice(others)
            score = rng.uniform(*HARSH_RIGHT_SCORES)
        # Raw scores, as a service reports them: the runner-up gets a share of what is left.
        rest = (1.0 - score) * rng.uniform(0.3, 0.9)
        candidates = ((top, round(score, 4)), (second, round(rest, 4)))
        return RankedLabel(top, candidates[0][1], "noisy: corrupted" if wrong else label.reason, candidates)

    def _corrupt(self, label: CardLabel, url: str, catalog: Sequence[str]) -> CardLabel:
        if label.landmark is None or len(catalog) < 2:
            return label
        rng = random.Random(f"noisy:{self.seed}:{noise_key(url)}")
        wrong = rng.random() < self.rate
        others = [name for name in catalog if name != label.landmark]
        other = rng.choice(others)
        if self.model == "flat":
            return CardLabel(other, label.confidence, "noisy: corrupted") if wrong else label
        # The service's raw score: lower, on the whole, when it is wrong.
        raw = rng.uniform(*WRONG_SCORES) if wrong else rng.uniform(*RIGHT_SCORES)
        top = other if wrong else label.landmark
        if wrong:
            second = label.landmark if rng.random() < self.runner_up else rng.choice(others)
            second = label.landmark if second == other else second
        else:
            second = other
        sure = self.calibrated(raw)
        # Reported scores are calibrated: the top name is right with probability `sure`; the
        # rest goes to the runner-up in the proportion it names the truth when the top is wrong.
        rest = (1.0 - sure) * self.runner_up
        candidates = ((top, round(max(sure, SCORE_FLOOR), 4)), (second, round(rest, 4)))
        return RankedLabel(top, candidates[0][1], "noisy: corrupted" if wrong else label.reason, candidates)

    def calibrated(self, raw: float) -> float:
        """P(top label right | raw score), from the two score ranges and the noise rate."""
        return _right_given(raw, 1.0 - self.rate, RIGHT_SCORES, WRONG_SCORES)


def _right_given(
    raw: float, right_share: float, right_scores: tuple[float, float], wrong_scores: tuple[float, float]
) -> float:
    """P(a top label is right | its raw score), from the score ranges of right and wrong answers."""
    right = right_share * _density(raw, right_scores)
    wrong = (1.0 - right_share) * _density(raw, wrong_scores)
    return right / (right + wrong) if right + wrong > 0 else right_share


def _density(value: float, bounds: tuple[float, float]) -> float:
    low, high = bounds
    return 1.0 / (high - low) if low <= value <= high else 0.0
