"""Why a paid service gave no answer for an image, and whether to try that image again soon."""

from __future__ import annotations


class ApiFailure(Exception):
    def __init__(
        self,
        reason: str,
        *,
        retryable: bool = False,
        retry_after: float | None = None,
        pause: float = 0.0,
        remember: bool = True,
    ) -> None:
        super().__init__(reason)
        self.reason = reason
        self.retryable = retryable
        self.retry_after = retry_after
        # Seconds to stop calling the service once this failure is final: a bad key or a dead
        # endpoint fails every image alike, and each try would cost the bot time (or money).
        self.pause = pause
        # Whether the image itself is not asked again for a while. A rate limit or a move out of
        # time says nothing about the image: the next move may ask again (the pause still holds).
        self.remember = remember


class OutOfTime(ApiFailure):
    """The move's budget ends before an answer could come: the card is unknown for this move only."""

    def __init__(self, reason: str, *, pause: float = 0.0) -> None:
        super().__init__(reason, pause=pause, remember=False)
