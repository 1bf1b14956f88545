"""Custom Vision prediction URL via httpx, with pytest-httpx answering."""

from __future__ import annotations

import json

import httpx
from pytest_httpx import HTTPXMock
from recognizers_fakes import FakeClock

from recognizers.cache import LabelCache
from recognizers.customvision import CustomVisionRecognizer
from recognizers.limiter import RateLimiter
from rummy.catalog import DEFAULT_CATALOG

PREDICTION_URL = "https://vision.example/customvision/v3.0/Prediction/p1/classify/iterations/it1/url"
KEY = "cv-secret-key-987654321"
IMG = "https://arena.example/cards/a.png"


def make(clock: FakeClock, threshold: float = 0.5) -> CustomVisionRecognizer:
    return CustomVisionRecognizer(
        PREDICTION_URL,
        KEY,
        threshold=threshold,
        cache=LabelCache(":memory:", clock=clock),
        limiter=RateLimiter(1000, clock=clock, sleep=clock.sleep),
        sleep=clock.sleep,
        clock=clock,
    )


def prediction(*pairs: tuple[str, float]) -> dict[str, object]:
    return {
        "id": "7796df8e-acbc-45fc-90b4-1b0c81b73639",
        "project": "p1",
        "iteration": "it1",
        "created": "2024-05-01T12:00:00Z",
        "predictions": [{"probability": p, "tagId": f"t{i}", "tagName": n} for i, (n, p) in enumerate(pairs)],
    }


def test_success_sends_key_and_url_and_maps_top_tag(httpx_mock: HTTPXMock, clock: FakeClock) -> None:
    httpx_mock.add_response(
        url=PREDICTION_URL, method="POST", json=prediction(("Trevi Fountain", 0.93), ("Big Ben", 0.04))
    )
    label = make(clock).recognize([(1, IMG)], DEFAULT_CATALOG)[1]
    assert label.landmark == "trevi fountain" and label.confidence == 0.93
    request = httpx_mock.get_requests()[0]
    assert request.headers["Prediction-Key"] == KEY
    assert json.loads(request.content) == {"Url": IMG}


def test_top_tag_below_threshold_is_unknown(httpx_mock: HTTPXMock, clock: FakeClock) -> None:
    httpx_mock.add_response(url=PREDICTION_URL, method="POST", json=prediction(("Bryggen", 0.31), ("Giralda", 0.2)))
    label = make(clock, threshold=0.5).recognize([(1, IMG)], DEFAULT_CATALOG)[1]
    assert label.landmark is None and "below 0.50" in label.reason


def test_404_not_found_iteration(httpx_mock: HTTPXMock, clock: FakeClock) -> None:
    httpx_mock.add_response(
        url=PREDICTION_URL,
        method="POST",
        status_code=404,
        json={"code": "NotFoundIteration", "message": "Invalid iteration"},
    )
    recognizer = make(clock)
    label = recognizer.recognize([(1, IMG)], DEFAULT_CATALOG)[1]
    assert label.landmark is None and "NotFoundIteration" in label.reason and "404" in label.reason
    assert clock.sleeps == [] and len(httpx_mock.get_requests()) == 1  # a client error is not retried


def test_429_honours_retry_after_then_succeeds(httpx_mock: HTTPXMock, clock: FakeClock) -> None:
    httpx_mock.add_response(
        url=PREDICTION_URL,
        method="POST",
        status_code=429,
        headers={"Retry-After": "3"},
        json={"error": {"code": "429", "message": "Rate limit is exceeded. Try again in 3 seconds."}},
    )
    httpx_mock.add_response(url=PREDICTION_URL, method="POST", json=prediction(("Fitz Roy", 0.88)))
    label = make(clock).recognize([(1, IMG)], DEFAULT_CATALOG)[1]
    assert label.landmark == "fitz roy"
    assert clock.sleeps == [3.0]


def test_garbage_body_is_unknown_not_cached(httpx_mock: HTTPXMock, clock: FakeClock) -> None:
    httpx_mock.add_response(url=PREDICTION_URL, method="POST", content=b"<html>gateway</html>")
    recognizer = make(clock)
    label = recognizer.recognize([(1, IMG)], DEFAULT_CATALOG)[1]
    assert label.landmark is None and "predictions" in label.reason
    assert recognizer.cache.get("customvision", IMG) is None  # retried in a later round
    assert KEY not in label.reason and KEY not in repr(recognizer)


def test_network_error_never_raises(httpx_mock: HTTPXMock, clock: FakeClock) -> None:
    httpx_mock.add_exception(httpx.ConnectError("refused"), url=PREDICTION_URL, is_reusable=True)
    label = make(clock).recognize([(1, IMG)], DEFAULT_CATALOG)[1]
    assert label.landmark is None and "unreachable" in label.reason
