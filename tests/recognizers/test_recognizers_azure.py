"""The real Azure SDK, over HTTP, against the fake Azure server replaying documented v3.2 answers."""

from __future__ import annotations

import logging

import pytest
from recognizers_fakes import GOOD_KEY, FakeAzure, FakeClock

from recognizers.azure import AzureRecognizer
from recognizers.cache import LabelCache
from recognizers.limiter import RateLimiter
from recognizers.registry import get_recognizer
from recognizers.remote import RetrySettings
from rummy.catalog import DEFAULT_CATALOG

IMG = "https://arena.example/cards/{}.png"


def make(fake: FakeAzure, clock: FakeClock, *, key: str = GOOD_KEY, mode: str = "analyze", cache=None, **kw):
    return AzureRecognizer(
        fake.base_url,
        key,
        mode=mode,
        cache=cache if cache is not None else LabelCache(":memory:", clock=clock),
        limiter=RateLimiter(1000, clock=clock, sleep=clock.sleep),
        sleep=clock.sleep,
        clock=clock,
        **kw,
    )


def test_analyze_landmark_detail_maps_to_catalog(fake_azure: FakeAzure, clock: FakeClock) -> None:
    fake_azure.script = {IMG.format(1): ["analyze_landmark"], IMG.format(2): ["analyze_city_hall"]}
    labels = make(fake_azure, clock).recognize([(1, IMG.format(1)), (2, IMG.format(2))], DEFAULT_CATALOG)
    assert labels[1].landmark == "forbidden city" and labels[1].confidence == pytest.approx(0.9823)
    assert labels[2].landmark == "city hall, london" and 0.8 < labels[2].confidence < 0.8712
    assert [path for path, _ in fake_azure.calls] == ["analyze", "analyze"]
    assert set(fake_azure.keys_seen) == {GOOD_KEY}


def test_caption_fallback_and_never_inventing(fake_azure: FakeAzure, clock: FakeClock) -> None:
    fake_azure.script = {
        IMG.format(1): ["analyze_caption_only"],
        IMG.format(2): ["analyze_nothing"],
        IMG.format(3): ["analyze_off_catalog"],
    }
    cards = [(1, IMG.format(1)), (2, IMG.format(2)), (3, IMG.format(3))]
    labels = make(fake_azure, clock).recognize(cards, DEFAULT_CATALOG)
    assert labels[1].landmark == "big ben" and labels[1].confidence < 0.47
    assert labels[2].landmark is None and "no landmark" in labels[2].reason
    assert labels[3].landmark is None and "Eiffel Tower" in labels[3].reason


def test_domain_model_result_landmarks_then_describe(fake_azure: FakeAzure, clock: FakeClock) -> None:
    fake_azure.script = {IMG.format(1): ["domain_landmark"], IMG.format(2): ["domain_none", "describe_caption"]}
    labels = make(fake_azure, clock, mode="domain").recognize([(1, IMG.format(1)), (2, IMG.format(2))], DEFAULT_CATALOG)
    assert labels[1].landmark == "sydney opera house"
    assert labels[2].landmark == "haystack rock"
    paths = [path for path, _ in fake_azure.calls]
    assert paths == ["models/landmarks/analyze", "models/landmarks/analyze", "describe"]


def test_bad_key_is_unknown_logged_once_and_stops_calling(
    fake_azure: FakeAzure, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    secret = "wrong-key-that-must-not-leak"
    fake_azure.script = {IMG.format(i): ["analyze_landmark"] for i in range(5)}
    recognizer = make(fake_azure, clock, key=secret)
    with caplog.at_level(logging.WARNING, logger="recognizers"):
        labels = recognizer.recognize([(i, IMG.format(i)) for i in range(5)], DEFAULT_CATALOG)
    assert all(label.landmark is None for label in labels.values())
    assert "401" in labels[0].reason and "Access denied" in labels[0].reason
    assert len(fake_azure.calls) == 1  # a rejected key fails every image: no point asking again
    assert len([r for r in caplog.records if "401" in r.getMessage()]) == 1
    assert secret not in caplog.text and secret not in repr(recognizer)


def test_429_with_retry_after_header_is_honoured(fake_azure: FakeAzure, clock: FakeClock) -> None:
    fake_azure.script = {IMG.format(1): ["error_429_retry_after", "analyze_landmark"]}
    labels = make(fake_azure, clock).recognize([(1, IMG.format(1))], DEFAULT_CATALOG)
    assert labels[1].landmark == "forbidden city"
    assert clock.sleeps == [7.0]
    assert len(fake_azure.calls) == 2


def test_429_without_header_reads_the_message(fake_azure: FakeAzure, clock: FakeClock) -> None:
    fake_azure.script = {IMG.format(1): ["error_429_message", "analyze_landmark"]}
    labels = make(fake_azure, clock).recognize([(1, IMG.format(1))], DEFAULT_CATALOG)
    assert labels[1].landmark == "forbidden city"
    assert clock.sleeps == [26.0]


def test_429_asking_too_long_a_wait_leaves_card_unknown_for_now(fake_azure: FakeAzure, clock: FakeClock) -> None:
    fake_azure.script = {IMG.format(1): ["error_429_long", "analyze_landmark"]}
    recognizer = make(fake_azure, clock, retry=RetrySettings(max_wait=30))
    first = recognizer.recognize([(1, IMG.format(1))], DEFAULT_CATALOG)
    assert first[1].landmark is None and "45" in first[1].reason
    assert clock.sleeps == []  # the bot's move deadline matters more than this card
    recognizer.recognize([(1, IMG.format(1))], DEFAULT_CATALOG)
    assert len(fake_azure.calls) == 1  # within the round, the failure is remembered, not re-asked
    clock.now += 400  # a later round: the failure memory and the pause have expired
    later = recognizer.recognize([(1, IMG.format(1))], DEFAULT_CATALOG)
    assert later[1].landmark == "forbidden city"


def test_500_is_retried_with_backoff_then_given_up(fake_azure: FakeAzure, clock: FakeClock) -> None:
    fake_azure.script = {IMG.format(1): ["error_500", "error_500", "analyze_landmark"], IMG.format(2): ["error_500"]}
    recognizer = make(fake_azure, clock)
    assert recognizer.recognize([(1, IMG.format(1))], DEFAULT_CATALOG)[1].landmark == "forbidden city"
    assert clock.sleeps == [1.0, 2.0]
    clock.sleeps.clear()
    failed = recognizer.recognize([(2, IMG.format(2))], DEFAULT_CATALOG)[2]
    assert failed.landmark is None and "500" in failed.reason
    assert len(clock.sleeps) == RetrySettings().attempts - 1


def test_outage_never_raises(clock: FakeClock) -> None:
    from recognizers_fakes import free_port

    dead = AzureRecognizer(
        f"http://127.0.0.1:{free_port()}",
        GOOD_KEY,
        cache=LabelCache(":memory:"),
        limiter=RateLimiter(1000, clock=clock, sleep=clock.sleep),
        retry=RetrySettings(attempts=2),
        sleep=clock.sleep,
        clock=clock,
    )
    labels = dead.recognize([(1, IMG.format(1)), (2, IMG.format(2))], DEFAULT_CATALOG)
    assert all(label.landmark is None and "unreachable" in label.reason for label in labels.values())


def test_second_match_over_same_urls_makes_zero_calls(fake_azure: FakeAzure, clock: FakeClock, tmp_path) -> None:
    urls = [IMG.format(i) for i in range(6)]
    fake_azure.script = {url: ["analyze_landmark"] for url in urls}
    fake_azure.script[urls[5]] = ["analyze_nothing"]
    path = tmp_path / "labels.sqlite3"
    first = make(fake_azure, clock, cache=LabelCache(path)).recognize(list(enumerate(urls)), DEFAULT_CATALOG)
    assert len(fake_azure.calls) == 6
    # A new process (new recognizer, new cache object) over the same file: nothing is sent again,
    # not even for the image where Azure saw no landmark.
    again = make(fake_azure, clock, cache=LabelCache(path)).recognize(list(enumerate(urls)), DEFAULT_CATALOG)
    assert len(fake_azure.calls) == 6
    assert again == first


def test_registry_builds_azure_from_environment(fake_azure: FakeAzure, clock: FakeClock, tmp_path) -> None:
    fake_azure.script = {IMG.format(1): ["analyze_landmark"]}
    env = {"AZURE_VISION_ENDPOINT": fake_azure.base_url, "AZURE_VISION_KEY": GOOD_KEY}
    recognizer = get_recognizer(
        "azure", env=env, config=None, cache=str(tmp_path / "c.sqlite3"), sleep=clock.sleep, clock=clock
    )
    assert GOOD_KEY not in repr(recognizer)
    assert recognizer.recognize([(1, IMG.format(1))], DEFAULT_CATALOG)[1].landmark == "forbidden city"
