"""The move's time budget: no rate-limit or 429 wait runs past it; a late card is unknown for this move only.

Everything runs on the fake clock against the fake Azure server, so nothing here waits for real.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from recognizers_fakes import GOOD_KEY, FakeAzure, FakeClock

from recognizers.azure import AzureRecognizer
from recognizers.cache import LabelCache
from recognizers.corrected import CorrectingRecognizer
from recognizers.limiter import RateLimiter
from rummy.catalog import DEFAULT_CATALOG
from rummy.labels import CardLabel, recognize_within

IMG = "https://arena.example/cards/{}.png"


def make(fake: FakeAzure, clock: FakeClock, limiter: RateLimiter | None = None) -> AzureRecognizer:
    return AzureRecognizer(
        fake.base_url,
        GOOD_KEY,
        cache=LabelCache(":memory:", clock=clock),
        limiter=limiter or RateLimiter(1000, clock=clock, sleep=clock.sleep),
        sleep=clock.sleep,
        clock=clock,
    )


def test_a_429_longer_than_the_budget_is_not_waited_for_and_is_asked_again(
    fake_azure: FakeAzure, clock: FakeClock
) -> None:
    fake_azure.script = {IMG.format(1): ["error_429_retry_after", "analyze_landmark"]}  # Retry-After: 7
    recognizer = make(fake_azure, clock)
    now = recognizer.recognize([(1, IMG.format(1))], DEFAULT_CATALOG, budget_s=5.0)
    assert now[1].landmark is None and "out of time" in now[1].reason
    assert clock.sleeps == [] and len(fake_azure.calls) == 1
    clock.now += 7  # the next move, once the service's pause is over: the card is asked again
    later = recognizer.recognize([(1, IMG.format(1))], DEFAULT_CATALOG, budget_s=5.0)
    assert later[1].landmark == "forbidden city" and len(fake_azure.calls) == 2


def test_a_429_within_the_budget_is_waited_for(fake_azure: FakeAzure, clock: FakeClock) -> None:
    fake_azure.script = {IMG.format(1): ["error_429_retry_after", "analyze_landmark"]}
    labels = make(fake_azure, clock).recognize([(1, IMG.format(1))], DEFAULT_CATALOG, budget_s=8.0)
    assert labels[1].landmark == "forbidden city" and clock.sleeps == [7.0]


def test_the_rate_limiter_never_waits_past_the_budget(fake_azure: FakeAzure, clock: FakeClock) -> None:
    fake_azure.script = {IMG.format(i): ["analyze_landmark"] for i in range(3)}
    recognizer = make(fake_azure, clock, RateLimiter(1, 60.0, clock=clock, sleep=clock.sleep))
    cards = [(i, IMG.format(i)) for i in range(3)]
    start = clock.now
    labels = recognizer.recognize(cards, DEFAULT_CATALOG, budget_s=4.0)
    assert labels[0].landmark == "forbidden city"
    assert labels[1].landmark is None and labels[2].landmark is None and "rate limit" in labels[1].reason
    assert clock.now - start <= 4.0 and len(fake_azure.calls) == 1
    clock.now += 60
    again = recognizer.recognize(cards[1:2], DEFAULT_CATALOG, budget_s=4.0)  # not remembered as a failure
    assert again[1].landmark == "forbidden city"


def test_backoff_stops_where_the_budget_ends(fake_azure: FakeAzure, clock: FakeClock) -> None:
    fake_azure.script = {IMG.format(1): ["error_500", "error_500", "analyze_landmark"]}
    recognizer = make(fake_azure, clock)
    labels = recognizer.recognize([(1, IMG.format(1))], DEFAULT_CATALOG, budget_s=2.5)
    # Backoff 1 s fits, the next 2 s would end at 3 s: the card is unknown, after 1 s of waiting.
    assert labels[1].landmark is None and "out of time" in labels[1].reason
    assert clock.sleeps == [1.0] and len(fake_azure.calls) == 2


def test_a_spent_budget_sends_nothing(fake_azure: FakeAzure, clock: FakeClock) -> None:
    fake_azure.script = {IMG.format(1): ["analyze_landmark"]}
    recognizer = make(fake_azure, clock)
    labels = recognizer.recognize([(1, IMG.format(1))], DEFAULT_CATALOG, budget_s=0.0)
    assert labels[1].landmark is None and fake_azure.calls == []
    assert recognizer.recognize([(1, IMG.format(1))], DEFAULT_CATALOG)[1].landmark == "forbidden city"


class Scripted:
    """A recognizer that answers unknown the first time it sees a URL, and records its budgets."""

    name = "scripted"

    def __init__(self) -> None:
        self.budgets: list[float | None] = []
        self.asked: list[str] = []

    def recognize(
        self, cards: Sequence[tuple[int, str]], catalog: Sequence[str], *, budget_s: float | None = None
    ) -> dict[int, CardLabel]:
        self.budgets.append(budget_s)
        labels = {}
        for card_id, url in cards:
            labels[card_id] = CardLabel("big ben", 0.9) if url in self.asked else CardLabel(None, 0.0, "late")
            self.asked.append(url)
        return labels


def test_corrected_asks_again_for_cards_left_unknown_and_passes_the_budget() -> None:
    inner = Scripted()
    corrected = CorrectingRecognizer(inner)
    cards = [(1, "u1"), (2, "u2")]
    assert not any(label.known for label in corrected.recognize(cards, DEFAULT_CATALOG, budget_s=1.5).values())
    second = corrected.recognize(cards, DEFAULT_CATALOG, budget_s=1.0)
    assert second[1].landmark == "big ben" and inner.budgets == [1.5, 1.0]
    corrected.recognize(cards, DEFAULT_CATALOG)
    assert inner.asked == ["u1", "u2", "u1", "u2"]  # answered cards are not asked a third time


def test_the_agent_gives_the_recognizer_part_of_the_time_to_the_deadline() -> None:
    from strategies.agent import LABELLING_SHARE, ArenaAgent

    class Plain:  # no budget_s keyword: called without one
        name = "plain"

        def recognize(self, cards: Sequence[tuple[int, str]], catalog: Sequence[str]) -> dict[int, CardLabel]:
            return {card_id: CardLabel(None, 0.0) for card_id, _ in cards}

    gamestate = {
        "MyHand": [[1, "u1"]],
        "OppHand": [[2, "u2"]],
        "AllCardTypes": list(DEFAULT_CATALOG),
        "ResponseDeadline": int((time.time() + 4.0) * 1000),
    }
    scripted = Scripted()
    budget = ArenaAgent.labelling_budget(gamestate)
    assert budget is not None and 0 < budget <= LABELLING_SHARE * 4.0
    assert ArenaAgent.labelling_budget({**gamestate, "ResponseDeadline": 0}) is None
    assert recognize_within(Plain(), [(1, "u1")], DEFAULT_CATALOG, 1.0)[1].landmark is None
    assert recognize_within(scripted, [(1, "u1")], DEFAULT_CATALOG, 1.0)[1].landmark is None
    assert scripted.budgets == [1.0]
