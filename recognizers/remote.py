"""What every paid recognizer shares: cache, client-side rate limit, retries, and never raising.

A backend implements `_fetch(url) -> Observation` and raises `ApiFailure` for anything that went
wrong. `recognize` turns failures into unknown labels with the reason, logs each distinct reason
once, retries 5xx and 429 with tenacity (honouring Retry-After or "try again in N seconds"), and
stops calling a service that rejected the key until the failure memory expires.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from tenacity import RetryCallState, Retrying, retry_if_exception, stop_after_attempt, wait_exponential

from recognizers.cache import LabelCache
from recognizers.limiter import RateLimiter
from recognizers.observation import Observation, to_label
from recognizers.secrets import redact
from rummy.labels import CardLabel

log = logging.getLogger("recognizers")

AUTH_PAUSE = 300.0
OUTAGE_PAUSE = 60.0
_RETRY_IN = re.compile(r"(?:try again|retry)(?: after| in)?\s+(\d+(?:\.\d+)?)\s*sec", re.IGNORECASE)


@dataclass(frozen=True)
class RetrySettings:
    attempts: int = 4  # tries per image, the first included
    max_wait: float = 30.0  # a longer Retry-After is not waited for: the card stays unknown this round
    backoff_initial: float = 1.0  # 5xx backoff: 1, 2, 4 ... seconds
    backoff_max: float = 20.0


class ApiFailure(Exception):
    def __init__(
        self, reason: str, *, retryable: bool = False, retry_after: float | None = None, pause: float = 0.0
    ) -> None:
        super().__init__(reason)
        self.reason = reason
        self.retryable = retryable
        self.retry_after = retry_after
        # Seconds to stop calling the service once this failure is final: a bad key or a dead
        # endpoint fails every image alike, and each try would cost the bot time (or money).
        self.pause = pause


def retry_after_seconds(headers: Mapping[str, str], message: str = "") -> float | None:
    """Seconds the service asked us to wait: the Retry-After header, else "try again in N seconds"."""
    for name, value in headers.items():
        if name.lower() == "retry-after":
            try:
                return max(0.0, float(value))
            except ValueError:
                break  # an HTTP date: fall back to the message or to backoff
    found = _RETRY_IN.search(message)
    return float(found.group(1)) if found else None


def failure_for_status(status: int, message: str, headers: Mapping[str, str], service: str) -> ApiFailure:
    """The ApiFailure an HTTP error status stands for."""
    if status == 429:
        wait = retry_after_seconds(headers, message)
        hint = f"; retry after {wait:g} s" if wait is not None else ""
        return ApiFailure(
            f"{service} rate limit (429): {message}{hint}", retryable=True, retry_after=wait, pause=wait or 0.0
        )
    if status in (401, 403):
        return ApiFailure(f"{service} rejected the key or endpoint ({status}): {message}", pause=AUTH_PAUSE)
    if status >= 500:
        return ApiFailure(f"{service} server error ({status}): {message}", retryable=True, pause=OUTAGE_PAUSE)
    return ApiFailure(f"{service} refused the request ({status}): {message}")


class ApiRecognizer:
    """Base of the recognizers that call a paid service; subclasses set `name` and `_fetch`."""

    name = "api"

    def __init__(
        self,
        *,
        cache: LabelCache | None = None,
        limiter: RateLimiter | None = None,
        retry: RetrySettings = RetrySettings(),
        threshold: float = 0.0,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
        secrets: Sequence[str] = (),
    ) -> None:
        self.cache = cache if cache is not None else LabelCache()
        self.limiter = limiter if limiter is not None else RateLimiter(clock=clock, sleep=sleep)
        self.retry = retry
        self.threshold = threshold
        self.calls = 0  # requests actually sent, retries included
        self._sleep = sleep
        self._clock = clock
        self._secrets = tuple(secret for secret in secrets if secret)
        self._logged: set[str] = set()
        self._paused: tuple[float, str] | None = None  # (until, reason)

    # --- the interface --------------------------------------------------------------------

    def recognize(self, cards: Sequence[tuple[int, str]], catalog: Sequence[str]) -> dict[int, CardLabel]:
        labels: dict[int, CardLabel] = {}
        for card_id, url in cards:
            found = self.observe(url)
            if isinstance(found, str):
                labels[card_id] = CardLabel(None, 0.0, found)
            else:
                labels[card_id] = to_label(found, catalog, self.threshold)
        return labels

    def observe(self, url: str) -> Observation | str:
        """The service's answer for `url` (cached when possible), or the reason there is none."""
        cached = self.cache.get(self.name, url)
        if cached is not None:
            return cached
        recent = self.cache.recent_failure(self.name, url)
        if recent is not None:
            return recent
        if self._paused is not None:
            until, reason = self._paused
            if self._clock() < until:
                return reason
            self._paused = None
        try:
            observation = self._fetch_with_retries(url)
        except ApiFailure as failure:
            reason = redact(failure.reason, self._secrets)
            if failure.pause > 0:
                self._paused = (self._clock() + failure.pause, reason)
            self.cache.put_failure(self.name, url, reason)
            self._log_once(reason)
            return reason
        except Exception as error:  # a bug or a surprise in a client library must not crash a bot
            reason = redact(f"{self.name} failed unexpectedly: {type(error).__name__}: {error}", self._secrets)
            self.cache.put_failure(self.name, url, reason)
            self._log_once(reason)
            return reason
        self.cache.put(self.name, url, observation)
        return observation

    # --- for subclasses ---------------------------------------------------------------------

    def _fetch(self, url: str) -> Observation:
        raise NotImplementedError

    # --- internals --------------------------------------------------------------------------

    def _fetch_with_retries(self, url: str) -> Observation:
        def worth_retrying(error: BaseException) -> bool:
            if not isinstance(error, ApiFailure) or not error.retryable:
                return False
            return error.retry_after is None or error.retry_after <= self.retry.max_wait

        backoff = wait_exponential(multiplier=self.retry.backoff_initial, max=self.retry.backoff_max)

        def wait(state: RetryCallState) -> float:
            error = state.outcome.exception() if state.outcome else None
            if isinstance(error, ApiFailure) and error.retry_after is not None:
                return error.retry_after
            return backoff(state)

        for attempt in Retrying(
            stop=stop_after_attempt(self.retry.attempts),
            retry=retry_if_exception(worth_retrying),
            wait=wait,
            sleep=self._sleep,
            reraise=True,
        ):
            with attempt:
                if not self.limiter.acquire(max_wait=self.retry.max_wait):
                    raise ApiFailure(
                        f"{self.name}: client-side rate limit ({self.limiter.calls} calls per "
                        f"{self.limiter.period:g} s) reached; card left for later"
                    )
                self.calls += 1
                return self._fetch(url)
        raise AssertionError("unreachable: tenacity either returns or reraises")

    def _log_once(self, reason: str) -> None:
        # One line per distinct reason: the URL-specific part of the reason is not in it.
        if reason not in self._logged:
            self._logged.add(reason)
            log.warning("%s: %s (affected cards are unknown)", self.name, reason)
