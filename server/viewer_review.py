"""The viewer's review of a finished match: every decision of both players graded against the engine.

    GET /viewer/api/games/{id}/review?objective=win|margin   the review as JSON (strategies.coaching.game_review)
    GET /viewer/review/{id}?objective=win|margin              the same as a self-contained page

Grading a match takes a few seconds of CPU (a worker thread does it, not the event loop); each review
is kept in memory (a small LRU) once made, since a finished match never changes.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import HTMLResponse, JSONResponse, Response

from server.deps import RecordsDep
from server.http_io import RowId
from server.review_cache import graded
from server.storage.records import Records
from server.viewer_routes import finished_match_summary
from strategies.coaching.game_review import review_record
from strategies.coaching.grading import default_grader
from strategies.coaching.review_page import review_html

router = APIRouter(tags=["viewer"])

OBJECTIVES = ("win", "margin")


async def _review(records: Records, game_id: int, objective: str) -> dict[str, Any] | JSONResponse:
    if objective not in OBJECTIVES:
        return JSONResponse({"ErrorMessage": f"objective must be one of {', '.join(OBJECTIVES)}"}, status_code=400)
    summary = finished_match_summary(records, game_id, "review it when it ends")
    if isinstance(summary, JSONResponse):
        return summary
    record = records.match_record(game_id)
    if record is None:  # forgotten (admin /games/forget) since its summary was read
        return JSONResponse({"ErrorMessage": f"no match {game_id}"}, status_code=404)
    return await graded(
        (str(records.path), f"game {game_id}", objective), lambda: review_record(record, default_grader(objective))
    )


@router.get("/viewer/api/games/{game_id}/review")
async def review_json(game_id: RowId, records: RecordsDep, objective: str = "win") -> Response:
    """Every decision of a finished match with its loss, exact or estimated, the totals and the chart's points."""
    review = await _review(records, game_id, objective)
    return review if isinstance(review, Response) else JSONResponse(review)


@router.get("/viewer/review/{game_id}", include_in_schema=False)
async def review_page(game_id: RowId, records: RecordsDep, objective: str = "win") -> Response:
    review = await _review(records, game_id, objective)
    if isinstance(review, Response):
        return review
    return review_page_response(review, objective, f"/viewer#game/{game_id}", f"/viewer/review/{game_id}")


def review_page_response(review: dict[str, Any], objective: str, viewer_link: str, page_path: str) -> HTMLResponse:
    """The review's HTML page, with a link to the same page graded by the other objective."""
    other = "margin" if objective == "win" else "win"
    page = review_html(review, viewer_link=viewer_link)
    switch = f'<p><a id="objective" href="{page_path}?objective={other}">Grade by {other} instead</a></p>'
    return HTMLResponse(page.replace("</h1>", "</h1>" + switch, 1))
