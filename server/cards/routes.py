"""GET /cards/{token}.jpg (or .png): a card's picture; `?caption=1` adds the landmark's name, for people.

A deal's card URLs end in .jpg, as the arena's do, and get a JPEG; .png gets the same picture as PNG (the
URLs of records made before, and any caller that asks for it).

Bots get the captionless picture (the name would give the answer away). A caption is drawn only for
people: for a card of no match in play (the viewer shows finished matches), for a card a /play
person's own game shows (their browser's cookie), or on every card under `serve --captions` (a
server started for demos). Asked for a card of a match in play by anyone else, it is refused (403),
so a bot in a local match cannot read its cards' names off the pictures.
"""

from __future__ import annotations

import asyncio
import hashlib
import io
import threading

from cachetools import LRUCache
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from PIL import Image

from rummy.cards import CARD_SUFFIXES, token_of
from server.cards.serving import CardImages
from server.file_steps import file_card_landmark
from server.play.routes import PLAY_COOKIE

router = APIRouter(tags=["cards"])


def _may_see_caption(request: Request, token: str) -> bool:
    state = request.app.state
    # An app that only hosts cards (bot.matches.card_host) has no settings: its cards are all in play.
    if getattr(getattr(state, "settings", None), "captions", False) or not state.referee.card_in_play(token):
        return True
    hall = getattr(state, "play_hall", None)
    owner = request.cookies.get(PLAY_COOKIE, "")
    return hall is not None and bool(owner) and bool(hall.shows_card(owner, token))


def _landmark(request: Request, name: str, token: str) -> str | None:
    if not name.endswith(CARD_SUFFIXES):
        return None
    if token.startswith("file"):  # a card of a replay file sent to the viewer, drawn from its recognizer's label
        files = getattr(request.app.state, "replay_files", None)
        return None if files is None else file_card_landmark(files, token)
    landmark: str | None = request.app.state.referee.landmark_of_token(token)
    return landmark


_JPEGS: LRUCache[tuple[str, bool], bytes] = LRUCache(maxsize=64 * 1024 * 1024, getsizeof=len)
_JPEGS_LOCK = threading.Lock()


def _as_jpeg(token: str, caption: bool, png: bytes) -> bytes:
    """The card's PNG as a JPEG (what the arena serves), kept in a byte-bounded cache."""
    key = (token, caption)
    with _JPEGS_LOCK:
        kept = _JPEGS.get(key)
    if kept is not None:
        return kept

    out = io.BytesIO()
    Image.open(io.BytesIO(png)).convert("RGB").save(out, "JPEG", quality=90)
    data = out.getvalue()
    with _JPEGS_LOCK:
        _JPEGS[key] = data
    return data


# A token always shows the same picture, so browsers may keep it for a day and then revalidate by ETag.
CACHE_CONTROL = "public, max-age=86400"


@router.get("/cards/{name}", response_class=Response)
async def card_image(name: str, request: Request, caption: bool = False, small: bool = False) -> Response:
    """The picture of one card, as PNG; with `caption=1`, the landmark's name under the scene (for people);
    with `small=1`, a WebP at the pages' display size (for the viewer and /play)."""
    token = token_of(name)
    images: CardImages = request.app.state.images
    if small:
        images.watch()  # the small pictures are for people's pages
    # A picture drawn ahead answers without looking the card up in the records.
    found = images.cached(token, caption=caption, small=small) if name.endswith(CARD_SUFFIXES) else None
    landmark = None if found is not None else _landmark(request, name, token)
    if found is None and landmark is None:
        return JSONResponse({"ErrorMessage": f"no card {name}"}, status_code=404)
    if caption and not _may_see_caption(request, token):
        return JSONResponse(
            {"ErrorMessage": "captions are for people: a finished match's cards, or your own /play game's"},
            status_code=403,
        )
    if found is None and landmark is not None:
        found = await asyncio.to_thread(images.picture, token, landmark, caption=caption, small=small)
    assert found is not None
    data, media_type = found
    if name.endswith(".jpg") and not small:
        data, media_type = await asyncio.to_thread(_as_jpeg, token, caption, data), "image/jpeg"
    vision = getattr(request.app.state, "vision", None)
    if vision is not None and not caption and not small:
        vision.saw_picture(token, data)  # `serve --vision` knows a card sent back as bytes by its picture
    etag = '"' + hashlib.blake2b(data, digest_size=12).hexdigest() + '"'
    headers = {"Cache-Control": CACHE_CONTROL, "ETag": etag}
    if etag in [tag.strip() for tag in request.headers.get("if-none-match", "").split(",")]:
        return Response(status_code=304, headers=headers)
    return Response(data, media_type=media_type, headers=headers)
