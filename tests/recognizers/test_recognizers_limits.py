"""Rate limiter and cache on a fake clock."""

from __future__ import annotations

from recognizers_fakes import FakeClock

from recognizers.cache import LabelCache
from recognizers.limiter import RateLimiter
from recognizers.observation import Observation
from recognizers.remote import retry_after_seconds


def test_limiter_allows_twenty_a_minute_then_waits(clock: FakeClock) -> None:
    limiter = RateLimiter(clock=clock, sleep=clock.sleep)
    for _ in range(20):
        assert limiter.acquire()
    assert clock.sleeps == []
    assert limiter.wait_time() == 60.0
    assert limiter.acquire()  # the 21st waits for the first to leave the window
    assert clock.sleeps == [60.0]


def test_limiter_window_slides(clock: FakeClock) -> None:
    limiter = RateLimiter(2, 10.0, clock=clock, sleep=clock.sleep)
    limiter.acquire()
    clock.now += 4
    limiter.acquire()
    assert limiter.wait_time() == 6.0
    clock.now += 6
    assert limiter.wait_time() == 0.0  # the first call has left the window
    assert limiter.acquire()
    assert limiter.acquire()  # the second call (t=4) leaves the window at t=14: 4 s to wait
    assert clock.sleeps == [4.0]


def test_limiter_refuses_a_wait_longer_than_allowed(clock: FakeClock) -> None:
    limiter = RateLimiter(1, 60.0, clock=clock, sleep=clock.sleep)
    assert limiter.acquire(max_wait=5)
    assert not limiter.acquire(max_wait=5)
    assert clock.sleeps == []


def test_retry_after_sources() -> None:
    assert retry_after_seconds({"Retry-After": "7"}) == 7.0
    assert retry_after_seconds({}, "Rate limit is exceeded. Try again in 26 seconds.") == 26.0
    assert retry_after_seconds({}, "Please retry after 53 seconds.") == 53.0
    assert retry_after_seconds({"retry-after": "Wed, 21 Oct 2015 07:28:00 GMT"}, "no hint") is None


def test_cache_survives_reopen_and_failures_expire(tmp_path, clock: FakeClock) -> None:
    path = tmp_path / "labels.sqlite3"
    cache = LabelCache(path, clock=clock, failure_ttl=300)
    seen = Observation((("Big Ben", 0.9),), (), "azure")
    cache.put("azure", "u1", seen)
    cache.put_failure("azure", "u2", "outage")
    cache.close()
    reopened = LabelCache(path, clock=clock, failure_ttl=300)
    assert reopened.get("azure", "u1") == seen
    assert reopened.get("customvision", "u1") is None  # backends do not share answers
    assert reopened.recent_failure("azure", "u2") is None  # failures are never written to disk
    reopened.put_failure("azure", "u2", "outage")
    assert reopened.recent_failure("azure", "u2") == "outage"
    clock.now += 301
    assert reopened.recent_failure("azure", "u2") is None


def test_default_cache_path_honours_xdg(monkeypatch, tmp_path) -> None:
    from recognizers.cache import default_cache_path

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert default_cache_path() == tmp_path / "rummy-vision" / "labels.sqlite3"
