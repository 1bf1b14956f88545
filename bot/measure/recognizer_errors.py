"""How a recognizer errs, measured: `rummy-vision measure recognizer-errors SPEC [--model-out FILE.json]`.

The belief reads every label through an error model (rummy.belief.ErrorModel). A recognizer that states
none is read with the assumed one, and a real service's confidence is rarely the chance it is right. This
measures, on simulated rounds whose true landmarks are known, what the belief needs:

- how often the top name is right, among answers naming one of the round's landmarks (an answer naming
  another landmark shows its error by itself), by bins of the confidence (`reliability`);
- how often, when it is wrong, the truth is the runner-up (`runner_up`), where the runner-up is one of the
  round's landmarks;
- how often there is no answer, and how often a wrong answer names a landmark outside the round.

The recognizer is asked as a match asks it (rummy-vision match PLAYER@SPEC): the 20 cards of the deal's
hands, then one card more with each draw, every call naming every card shown so far; the truth reaches the
oracle underneath as in a match (`source`). The model is fitted on FIT rounds and checked on other CHECK
rounds (different deal seeds, so different cards): the log loss of "the top name is right" on the check
rounds, for the fitted model and for the assumed one, says what the fit is worth on cards it never saw.
"""

from __future__ import annotations

import contextlib
import math
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from recognizers.registry import get_recognizer
from rummy.belief import ASSUMED, ErrorModel, runner_up
from rummy.cards import deal_round, token_of
from rummy.config import DEFAULT_RULES, RulesConfig
from rummy.labels import CardLabel, answers_within
from rummy.terminal_text import printable

if TYPE_CHECKING:
    from bot.matches.card_host import CardHost

FIT_SEED = "errors-fit"
CHECK_SEED = "errors-check"
ROUNDS = 500  # rounds fitted on by default (and as many checked on): 20,000 simulated answers each
PHOTO_ROUNDS = 25  # with photos: each card is a question to the recognizer, maybe a paid call
BIN_WIDTH = 0.05  # confidence bins before sparse ones are merged
MIN_BIN = 50  # answers a bin needs; a sparser one is merged into the next one up


class NothingToMeasure(ValueError):
    """The recognizer named none of the round's landmarks on any card: no error to measure (a service that must
    see the pictures sees none in simulated rounds)."""


@dataclass(frozen=True)
class Answer:
    truth: str
    top: str | None
    confidence: float
    second: str | None
    in_round: tuple[str, ...]

    @property
    def names_round(self) -> bool:
        return self.top is not None and self.top in self.in_round


@dataclass
class Counts:
    cards: int = 0
    unanswered: int = 0
    outside: int = 0  # the top name is no landmark of the round (always wrong)
    in_round: int = 0  # the top name is one of the round's landmarks
    right: int = 0
    wrong_with_second: int = 0  # wrong, naming the round, with a runner-up that is one of the round's landmarks
    second_right: int = 0
    answers: list[Answer] = field(default_factory=list, repr=False)
    reasons: Counter[str] = field(default_factory=Counter, repr=False)  # why cards got no answer
    photos: set[str] = field(default_factory=set, repr=False)  # the distinct photos shown (with --photos)

    def add(self, answer: Answer) -> None:
        self.cards += 1
        self.answers.append(answer)
        if answer.top is None:
            self.unanswered += 1
        elif not answer.names_round:
            self.outside += 1
        else:
            self.in_round += 1
            if answer.top == answer.truth:
                self.right += 1
            elif answer.second in answer.in_round:
                self.wrong_with_second += 1
                self.second_right += answer.second == answer.truth


def ask_rounds(
    spec: str,
    seed: str,
    rounds: int,
    progress: Callable[[int], None] | None = None,
    rules: RulesConfig = DEFAULT_RULES,
    photos: Path | None = None,
) -> Counts:
    """Every answer SPEC gives over `rounds` deals (deal seeds SEED:0 ...), asked as a match asks. With `photos`
    (a folder per landmark), each card is one of its landmark's photos, served on loopback: a recognizer that must
    see the pictures (azure, customvision, local) sees real ones, and only landmarks with photos are dealt."""
    counts = Counts()
    with _pictures(photos, rules) as (deal_rules, host):
        for index in range(rounds):
            deal = deal_round(f"{seed}:{index}", deal_rules)
            cards = [*deal.hands[0], *deal.hands[1], *deal.deck]
            with host.showing(cards) if host is not None else contextlib.nullcontext("") as base:
                if host is not None:
                    counts.photos.update(str(host.images.photo_for(token_of(card.url), card.kind)) for card in cards)
                _ask_round(spec, [(card.id, base + card.url, card.kind) for card in cards], index, rules, counts)
            if progress is not None:
                progress(index + 1)
    return counts


def _ask_round(
    spec: str, cards: Sequence[tuple[int, str, str]], index: int, rules: RulesConfig, counts: Counts
) -> None:
    """The 20 cards of the hands, then one more with each draw, every call naming every card shown so far."""
    truth = {url: kind for _card_id, url, kind in cards}
    recognizer = get_recognizer(spec, source=dict(truth), noise_seed=index)
    hands = 2 * rules.hand_size
    labels: dict[int, CardLabel] = {}
    for shown in range(hands, len(cards) + 1):
        # Read as play reads it (rummy.labels.answers_within): a call that raises leaves its cards unknown with
        # the reason, a name outside the catalog is unknown, and a card named before stays named.
        asked = [(card_id, url) for card_id, url, _kind in cards[:shown]]
        for card_id, answer in answers_within(recognizer, asked, rules.catalog, None).items():
            if answer.landmark is not None or card_id not in labels or labels[card_id].landmark is None:
                labels[card_id] = answer
    kinds = tuple(sorted(set(truth.values())))
    for card_id, _url, kind in cards:
        label = labels.get(card_id)
        top = label.landmark if label is not None else None
        second = runner_up(label) if label is not None else None
        confidence = label.confidence if label is not None else 0.0
        counts.add(Answer(kind, top, confidence, second, kinds))
        if top is None:
            counts.reasons[label.reason if label is not None and label.reason else "no answer"] += 1


@contextlib.contextmanager
def _pictures(photos: Path | None, rules: RulesConfig) -> Iterator[tuple[RulesConfig, CardHost | None]]:
    """(the rules deals are made with, the loopback host of the photos or None): with photos, only the landmarks
    that have some are dealt (the recognizer is still asked with the whole catalog)."""
    if photos is None:
        yield rules, None
        return
    # the server's card renderer and uvicorn (~0.5 s): only when photos are asked about
    from bot.matches.card_host import CardHost
    from server.cards import CardImages  # with the card host: only for photos

    images = CardImages(photos_dir=photos)
    shown = tuple(name for name in rules.catalog if images.photo_files(name))
    if len(shown) < rules.types_per_round:
        raise NothingToMeasure(
            f"{photos} holds photos of {len(shown)} landmark(s) of the catalog ({', '.join(shown) or 'none'}); a round "
            f"needs {rules.types_per_round}: put them in {photos}/<landmark name>/ (.jpg, .png, .webp ...)"
        )
    host = CardHost(images)
    try:
        yield replace(rules, catalog=shown), host
    finally:
        host.close()


def reliability_bins(answers: Sequence[Answer]) -> tuple[tuple[float, float, int, int], ...]:
    """(low, high, answers, right) per confidence bin over answers naming the round: BIN_WIDTH wide, a bin of
    fewer than MIN_BIN answers merged into the one above (the last into the one below)."""
    named = [answer for answer in answers if answer.names_round]
    steps = round(1 / BIN_WIDTH)
    raw = []
    for step in range(steps):
        low, high = step * BIN_WIDTH, (step + 1) * BIN_WIDTH
        inside = [a for a in named if (low < a.confidence <= high) or (step == 0 and a.confidence <= high)]
        raw.append([low, high, len(inside), sum(a.top == a.truth for a in inside)])
    merged: list[list[float]] = []
    carry: list[float] | None = None
    for low, high, n, right in raw:
        carry = [carry[0], high, carry[2] + n, carry[3] + right] if carry else [low, high, n, right]
        if carry[2] >= MIN_BIN:
            merged.append(carry)
            carry = None
    if carry is not None:
        if merged:
            last = merged.pop()
            carry = [last[0], carry[1], last[2] + carry[2], last[3] + carry[3]]
        merged.append(carry)
    merged[-1][1] = 1.0
    return tuple((low, high, int(n), int(right)) for low, high, n, right in merged)


def fitted_model(counts: Counts) -> ErrorModel:
    """The error model the answers show. Shares are (k + 1/2) / (n + 1) (Jeffreys): a bin where every answer was
    right is not called certain, nor one where none was called impossible."""
    if counts.in_round == 0:
        # A reason may quote what a user's file raised: shown, never sent to the terminal.
        why = f"e.g. {printable(next(iter(counts.reasons)))[:200]}" if counts.reasons else "every name outside it"
        raise NothingToMeasure(
            f"no answer of {counts.cards} named a landmark of the round ({why}): nothing to measure. The rounds are "
            "simulated: a recognizer over the oracle (harsh:0.1, your file) is measured; a service that must see "
            "the pictures sees none here"
        )
    bins = reliability_bins(counts.answers)
    reliability = tuple((round(high, 4), _share(right, n)) for _low, high, n, right in bins)
    wrong = 1.0 - counts.right / counts.in_round
    return ErrorModel(
        min(wrong, 0.99),
        runner_up=_share(counts.second_right, counts.wrong_with_second),
        reliability=reliability,
    )


def log_loss(model: ErrorModel, answers: Sequence[Answer]) -> float:
    """Mean -log P(what happened) for "the top name is right" over answers naming the round, under `model`."""
    named = [answer for answer in answers if answer.names_round]
    total = 0.0
    for answer in named:
        right = min(max(model.right_at(answer.confidence), 1e-6), 1 - 1e-6)
        total -= math.log(right if answer.top == answer.truth else 1.0 - right)
    return total / len(named) if named else 0.0


def calibration_error(model: ErrorModel, answers: Sequence[Answer]) -> float:
    """Expected calibration error on these answers: over the model's bins (one bin for a flat rate), the
    answer-weighted gap between the chance it gives and the share that was right."""
    named = [answer for answer in answers if answer.names_round]
    if not named:
        return 0.0
    groups: dict[float, list[Answer]] = {}
    for answer in named:
        said = model.right_at(answer.confidence)
        groups.setdefault(said, []).append(answer)
    gap = sum(abs(said * len(group) - sum(a.top == a.truth for a in group)) for said, group in groups.items())
    return gap / len(named)


@dataclass(frozen=True)
class Measured:
    """A recognizer's errors: what was counted on the fitting rounds, the model fitted, and its check."""

    spec: str
    fit: Counts
    model: ErrorModel
    bins: tuple[tuple[float, float, int, int], ...]
    check_rounds: int
    log_loss: dict[str, float]  # on the check rounds: "fitted" and "assumed"
    calibration_error: dict[str, float]

    def lines(self) -> list[str]:
        fit, model = self.fit, self.model
        out = [
            f"{self.spec}: {fit.cards} cards" + (f", {len(fit.photos)} distinct photos" if fit.photos else ""),
            f"  {'no answer':<50}{fit.unanswered / fit.cards:>8.2%}",
            f"  {'a name outside the round (always wrong)':<50}{fit.outside / fit.cards:>8.2%}",
            f"  {f'top name right, of {fit.in_round} naming the round':<50}{fit.right / max(1, fit.in_round):>8.2%}",
            f"  {f'the truth second, of {fit.wrong_with_second} wrong with one':<50}{model.runner_up:>8.2%}",
            f"  {'confidence':<14} {'answers':>8} {'right':>8}",
        ]
        for low, high, n, right in self.bins:
            out.append(f"  {f'{low:.2f}-{high:.2f}':<14} {n:>8} {right / n if n else 0.0:>8.1%}")
        loss, gap = self.log_loss, self.calibration_error
        out.append(
            f"  on {self.check_rounds} other rounds: log loss fitted {loss['fitted']:.4f}, "
            f"assumed {loss['assumed']:.4f}; calibration error fitted {gap['fitted']:.2%}, assumed {gap['assumed']:.2%}"
        )
        return out

    def figures(self) -> dict[str, object]:
        fit, model = self.fit, self.model
        counted = ("cards", "unanswered", "outside", "in_round", "right", "wrong_with_second", "second_right")
        return {
            "recognizer": self.spec,
            "photos": len(fit.photos),
            **{name: getattr(fit, name) for name in counted},
            "bins": [{"low": low, "high": high, "answers": n, "right": right} for low, high, n, right in self.bins],
            "model": {"error_rate": model.error_rate, "runner_up": model.runner_up, "source": model.source},
            "check": {"rounds": self.check_rounds, "log_loss": self.log_loss}
            | {"calibration_error": self.calibration_error},
        }


def measure(
    spec: str,
    rounds: int,
    check_rounds: int,
    progress: Callable[[str, int], Callable[[int], None]] | None = None,
    photos: Path | None = None,
) -> Measured:
    """Fit SPEC's error model on `rounds` rounds (FIT_SEED) and check it on `check_rounds` others (CHECK_SEED)."""
    fit = ask_rounds(spec, FIT_SEED, rounds, progress("fitting", rounds) if progress else None, photos=photos)
    check = ask_rounds(
        spec, CHECK_SEED, check_rounds, progress("checking", check_rounds) if progress else None, photos=photos
    )
    model = fitted_model(fit)
    return Measured(
        spec,
        fit,
        model,
        reliability_bins(fit.answers),
        check_rounds,
        {"fitted": log_loss(model, check.answers), "assumed": log_loss(ASSUMED, check.answers)},
        {"fitted": calibration_error(model, check.answers), "assumed": calibration_error(ASSUMED, check.answers)},
    )


def _share(hits: int, n: int) -> float:
    return (hits + 0.5) / (n + 1)
