"""What every paid recognizer shares: cache, client-side rate limit, retries, and never raising.

A backend implements `_fetch(url) -> Observation` and raises `ApiFailure` for anything that went
wrong. `recognize` turns failures into unknown labels with the reason, logs each distinct reason
once, retries 5xx and 429 with backoff (honouring Retry-After or "try again in N seconds"), and
stops calling a service that rejected the key until the failure memory expires.

A move has a deadline. `recognize(..., budget_s=S)` gives the call S seconds in all: no wait for
the rate limiter, a 429 or a backoff ends past them, and a card whose answer would come too late
is unknown for this move only (it is not remembered as a failure, so the next move asks again).
"""

from __future__ import annotations

import hashlib
import logging
import re
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from recognizers.cache import LabelCache
from recognizers.failures import ApiFailure, OutOfTime
from recognizers.image_source import ImageFetcher
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
            f"{service} rate limit (429): {message}{hint}",
            retryable=True,
            retry_after=wait,
            pause=wait or 0.0,
            remember=False,
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
        images: ImageFetcher | None = None,
        parallel: int = 1,
    ) -> None:
        self.parallel = max(1, parallel)
        self.cache = cache if cache is not None else LabelCache()
        self.images = images if images is not None else ImageFetcher()
        self.limiter = limiter if limiter is not None else RateLimiter(clock=clock, sleep=sleep)
        self.retry = retry
        self.threshold = threshold
        self.calls = 0  # requests actually sent, retries included
        self._sleep = sleep
        self._clock = clock
        self._secrets = tuple(secret for secret in secrets if secret)
        self._logged: set[str] = set()
        self._paused: tuple[float, str] | None = None  # (until, reason)
        self._move = threading.local()  # .deadline: the current call's deadline, for _fetch's timeouts

    # --- the interface --------------------------------------------------------------------

    def recognize(
        self, cards: Sequence[tuple[int, str]], catalog: Sequence[str], *, budget_s: float | None = None
    ) -> dict[int, CardLabel]:
        """Labels for `cards`; with `budget_s`, the whole call (waits included) ends within that many seconds."""
        deadline = None if budget_s is None else self._clock() + max(0.0, budget_s)
        labels: dict[int, CardLabel] = {}
        if self.parallel > 1 and len(cards) > 1:  # as many calls at once as the rate allows
            with ThreadPoolExecutor(max_workers=min(self.parallel, len(cards))) as pool:
                answers = list(pool.map(lambda card: self.observe(card[1], deadline=deadline), cards))
        else:
            answers = [self.observe(url, deadline=deadline) for _card_id, url in cards]
        for (card_id, _url), found in zip(cards, answers):
            if isinstance(found, str):
                labels[card_id] = CardLabel(None, 0.0, found)
            else:
                labels[card_id] = to_label(found, catalog, self.threshold)
        return labels

    def observe(self, url: str, *, deadline: float | None = None) -> Observation | str:
        """The service's answer for `url` (cached when possible), or the reason there is none.

        `deadline` is on this recognizer's clock; past it nothing is sent and nothing waited for.
        """
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
            image, digest = self._image_for(url, deadline)
            if digest is not None:
                known = self.cache.get_by_hash(self.name, digest)
                if known is not None:  # the same picture, already paid for under another URL
                    self.cache.put(self.name, url, known, content_hash=digest)
                    return known
            observation = self._fetch_with_retries(url, deadline, image)
        except ApiFailure as failure:
            reason = redact(failure.reason, self._secrets)
            if failure.pause > 0:
                self._paused = (self._clock() + failure.pause, reason)
            if failure.remember:
                self.cache.put_failure(self.name, url, reason)
            self._log_once(reason)
            return reason
        except Exception as error:  # a bug or a surprise in a client library must not crash a bot
            reason = redact(f"{self.name} failed unexpectedly: {type(error).__name__}: {error}", self._secrets)
            self.cache.put_failure(self.name, url, reason)
            self._log_once(reason)
            return reason
        self.cache.put(self.name, url, observation, content_hash=digest)
        return observation

    def _image_for(self, url: str, deadline: float | None) -> tuple[bytes | None, str | None]:
        """(bytes, SHA-256) of a picture the service cannot fetch itself, fetched once; else (None, None)."""
        if not self.images.needs_bytes(url):
            return None, None
        left = None if deadline is None else deadline - self._clock()
        if left is not None and left <= 0:
            raise OutOfTime(f"{self.name}: out of time for this move; card asked again next move")
        image = self.images.fetch(url, timeout=left)
        return image, hashlib.sha256(image).hexdigest()

    # --- for subclasses ---------------------------------------------------------------------

    def _fetch(self, url: str, image: bytes | None = None) -> Observation:
        """The service's answer for the picture: sent as `image` bytes when given, else as its URL."""
        raise NotImplementedError

    def _request_timeout(self, default: float) -> float:
        """The HTTP timeout for a request sent now: `default`, cut to what is left of the move's budget."""
        deadline: float | None = getattr(self._move, "deadline", None)
        if deadline is None:
            return default
        return max(0.05, min(default, deadline - self._clock()))

    def _extra_call_allowed(self) -> bool:
        """A slot for a second request about the same image (False: the limiter would wait too long).

        Raises OutOfTime when the move's budget is spent.
        """
        try:
            self._take_slot(getattr(self._move, "deadline", None))
        except OutOfTime:
            raise
        except ApiFailure:
            return False
        self.calls += 1
        return True

    # --- internals --------------------------------------------------------------------------

    def _fetch_with_retries(self, url: str, deadline: float | None = None, image: bytes | None = None) -> Observation:
        self._move.deadline = deadline
        for attempt in range(1, self.retry.attempts + 1):
            self._take_slot(deadline)
            self.calls += 1
            try:
                return self._fetch(url, image)
            except ApiFailure as failure:
                if not failure.retryable or attempt == self.retry.attempts:
                    raise
                if failure.retry_after is not None:
                    wait = failure.retry_after
                    if wait > self.retry.max_wait:
                        raise  # the card stays unknown this round; the pause keeps us from asking
                else:
                    wait = min(self.retry.backoff_max, self.retry.backoff_initial * 2 ** (attempt - 1))
                if deadline is not None and self._clock() + wait > deadline:
                    raise OutOfTime(
                        f"{self.name}: out of time for this move ({failure.reason}); card asked again next move",
                        pause=failure.pause if failure.retry_after is not None else 0.0,
                    ) from None
                self._sleep(wait)
        raise AssertionError("unreachable: the last attempt returns or raises")

    def _take_slot(self, deadline: float | None) -> None:
        """A slot from the rate limiter, waiting at most `max_wait` and never past `deadline`."""
        if deadline is not None and self._clock() >= deadline:
            raise OutOfTime(f"{self.name}: out of time for this move; card asked again next move")
        max_wait = self.retry.max_wait
        if deadline is not None:
            max_wait = min(max_wait, deadline - self._clock())
        if not self.limiter.acquire(max_wait=max_wait):
            if deadline is not None and max_wait < self.retry.max_wait:
                raise OutOfTime(
                    f"{self.name}: the client-side rate limit would hold the card past this move; asked again next move"
                )
            raise ApiFailure(
                f"{self.name}: client-side rate limit ({self.limiter.calls} calls per "
                f"{self.limiter.period:g} s) reached; card left for later",
                remember=False,
            )

    def _log_once(self, reason: str) -> None:
        # One line per distinct reason: the URL-specific part of the reason is not in it.
        if reason not in self._logged:
            self._logged.add(reason)
            log.warning("%s: %s (affected cards are unknown)", self.name, reason)
