"""Replay files in the viewer: any file `play` wrote (against the arena, another server or this one) shown
like a recorded match, with its step-through and its review.

    POST   /viewer/api/files?name=FILE.jsonl   the file's text as the body (admin: this machine and the token of
                                               server/admin.py) -> 201 {"FileId", "Viewer", "Review", ...};
                                               200 with "Existing": true for a file kept before
    GET    /viewer/api/files                   the kept files, newest first (also in /viewer/api/entries)
    GET    /viewer/api/files/{id}/steps        the steps, in the format of server/viewer_routes.py (?pictures=N too)
    GET    /viewer/api/files/{id}/review       its review from the file alone (strategies.coaching.file_review)
    GET    /viewer/review/file/{id}            the same as a page
    DELETE /viewer/api/files/{id}              (admin) forget it

A malformed file is refused with 400 and an `ErrorMessage` naming the line and the problem, one over the size
limit with 413; nothing of it is kept. What is kept, and what is dropped (anything that could be a secret), is
said in server/replay_upload.py; the pictures, drawn from the recognizer's labels, in server/file_steps.py.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from rummy.cards import token_of
from server.admin import Refused
from server.deps import ImagesDep, RecordsDep, ReplayFilesDep
from server.file_steps import PICTURES_NOTE, file_steps
from server.http_io import BodyTooLarge, RowId, SafeJSONResponse, read_body
from server.replay_file_store import ReplayFileStore, StoreFull
from server.replay_upload import MAX_FILE_BYTES, UploadError, cleaned_lines, file_name
from server.review_cache import graded
from server.storage.records import Records
from server.viewer_review import OBJECTIVES, review_page_response
from server.viewer_routes import step_cards, step_pictures
from strategies.coaching.file_review import review_lines
from strategies.coaching.grading import default_grader

router = APIRouter(tags=["viewer"])
REPLAYS = (KeyError, TypeError, ValueError, IndexError, AttributeError)  # what a file that does not replay raises


def _error(message: str, status: int) -> JSONResponse:
    return SafeJSONResponse({"ErrorMessage": message}, status_code=status)


def _links(file_id: int) -> dict[str, str]:
    return {"Viewer": f"/viewer#file/{file_id}", "Review": f"/viewer/review/file/{file_id}"}


@router.post("/viewer/api/files", status_code=201)
async def add_file(request: Request, refused: Refused, store: ReplayFilesDep, name: str | None = None) -> Response:
    """Keep a replay file (its text as the body) for the viewer; the answer says where it shows."""
    if refused is not None:
        return refused
    try:
        data = await read_body(request, MAX_FILE_BYTES)
    except BodyTooLarge:
        return _error(f"the file is over the limit of {MAX_FILE_BYTES // (1024 * 1024)} MB", 413)
    shown = file_name(name)
    try:
        lines = await asyncio.to_thread(cleaned_lines, data, shown)
    except UploadError as error:
        return _error(str(error), 400)
    try:
        steps = await asyncio.to_thread(file_steps, 0, lines, shown)  # it must replay before it is kept
    except REPLAYS as error:
        return _error(f"{shown}: its gamestates do not replay: {error}", 400)
    try:
        file_id, existing = store.add(shown, lines, time.time())
    except StoreFull as full:
        return _error(str(full), 507)
    kept = Counter(line["type"] for line in lines)
    answer = {
        "FileId": file_id,
        "Name": shown,
        "Players": steps["Players"],
        "Steps": len(steps["Steps"]),
        "Existing": existing,
        "KeptLines": dict(kept),
        **_links(file_id),
    }
    return SafeJSONResponse(answer, status_code=200 if existing else 201)


@router.get("/viewer/api/files")
async def list_files(store: ReplayFilesDep) -> JSONResponse:
    return SafeJSONResponse({"Files": store.summaries()})


@router.delete("/viewer/api/files/{file_id}")
async def remove_file(file_id: RowId, refused: Refused, store: ReplayFilesDep) -> Response:
    if refused is not None:
        return refused
    if not store.remove(file_id):
        return _error(f"no replay file {file_id}", 404)
    return SafeJSONResponse({"Removed": file_id})


def _kept(store: ReplayFileStore, file_id: int) -> tuple[dict[str, Any], list[dict[str, Any]]] | JSONResponse:
    summary = store.summary(file_id)
    lines = store.lines(file_id) if summary is not None else None
    if summary is None or lines is None:
        return _error(f"no replay file {file_id}", 404)
    return summary, lines


@router.get("/viewer/api/files/{file_id}/steps")
async def file_steps_view(
    file_id: RowId, store: ReplayFilesDep, images: ImagesDep, pictures: int | None = None
) -> Response:
    """A kept file step by step: both hands as far as it shows them, with its recognizer's labels."""
    found = _kept(store, file_id)
    if isinstance(found, JSONResponse):
        return found
    summary, lines = found
    return await asyncio.to_thread(_steps_answer, images, summary, lines, pictures)


def _steps_answer(images: Any, summary: dict[str, Any], lines: list[dict[str, Any]], pictures: int | None) -> Response:
    try:
        steps = file_steps(summary["FileId"], lines, summary["Name"])
    except REPLAYS as error:
        return _error(f"replay file {summary['FileId']} does not replay: {error}", 422)
    header = lines[0]
    answer: dict[str, Any] = {
        **summary,
        **steps,
        "Source": "file",
        "RecordedOn": header.get("server"),
        "PicturesNote": PICTURES_NOTE,
        "Mismatches": [],
        **_links(summary["FileId"]),
    }
    listed = answer["Steps"]
    opening = listed[max(0, min(pictures or 0, len(listed) - 1))] if listed else None
    shown: dict[str, tuple[str, str]] = {}
    for step in ([opening] if opening else []) + listed:
        for card in step_cards(step):
            if card["Url"] is not None and card["Url"] not in shown:
                shown[card["Url"]] = (token_of(card["Url"]), card["Landmark"])
    images.prerender(list(shown.values()), first=True)
    if pictures is not None and opening is not None:
        answer["Pictures"] = step_pictures(images, opening)
    return SafeJSONResponse(answer)


async def _review(
    store: ReplayFileStore, records: Records, file_id: int, objective: str
) -> dict[str, Any] | JSONResponse:
    if objective not in OBJECTIVES:
        return _error(f"objective must be one of {', '.join(OBJECTIVES)}", 400)
    found = _kept(store, file_id)
    if isinstance(found, JSONResponse):
        return found
    summary, lines = found
    key = (str(records.path), f"file {file_id}", objective)
    return await graded(key, lambda: review_lines(lines, summary["Name"], default_grader(objective)))


@router.get("/viewer/api/files/{file_id}/review")
async def file_review_json(
    file_id: RowId, store: ReplayFilesDep, records: RecordsDep, objective: str = "win"
) -> Response:
    """Every decision the file lets us rebuild, graded as `rummy-vision review FILE` grades it."""
    review = await _review(store, records, file_id, objective)
    return review if isinstance(review, Response) else SafeJSONResponse(review)


@router.get("/viewer/review/file/{file_id}", include_in_schema=False)
async def file_review_page(
    file_id: RowId, store: ReplayFilesDep, records: RecordsDep, objective: str = "win"
) -> Response:
    review = await _review(store, records, file_id, objective)
    if isinstance(review, Response):
        return review
    return review_page_response(review, objective, f"/viewer#file/{file_id}", f"/viewer/review/file/{file_id}")
