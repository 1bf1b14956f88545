"""Reviews of finished matches, graded once and kept: the viewer's review and the play page's (the person's
part of the same review) share them, so both show the same figures without grading twice."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from cachetools import LRUCache
from fastapi.responses import JSONResponse

from server.http_io import without_folders
from server.worker_pools import in_coach_pool
from strategies.coaching.game_review import ReviewError

_reviews: LRUCache[tuple[str, str, str], dict[str, Any]] = LRUCache(maxsize=64)
_lock = asyncio.Lock()


async def graded(key: tuple[str, str, str], grade: Callable[[], Any]) -> dict[str, Any] | JSONResponse:
    """The review `grade()` makes (a `GameReview`), as JSON: made in a worker thread, one at a time, then kept."""
    async with _lock:  # one grading at a time: it is CPU-bound
        if key not in _reviews:
            try:
                review = await in_coach_pool(grade)  # with the coaches: never ahead of house bots or pictures
            except ReviewError as error:
                return JSONResponse({"ErrorMessage": without_folders(str(error))}, status_code=422)
            _reviews[key] = review.to_json()
        return _reviews[key]
