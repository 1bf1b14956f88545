"""GET /cards/{token}.png: a card's picture; `?caption=1` adds the landmark's name, for people.

Bots get the captionless picture (the name would give the answer away). The viewer and play pages
ask for the captioned one; `serve --captions` captions every card.
"""

from __future__ import annotations

import asyncio
import hashlib

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

router = APIRouter(tags=["cards"])


def captioned_url(url: str) -> str:
    """The captioned variant of a card URL of this server, for pages that people look at."""
    return url + ("&" if "?" in url else "?") + "caption=1"


# A token always shows the same picture, so browsers may keep it for a day and then revalidate by ETag.
CACHE_CONTROL = "public, max-age=86400"


@router.get("/cards/{name}", response_class=Response)
async def card_image(name: str, request: Request, caption: bool = False, small: bool = False) -> Response:
    """The picture of one card, as PNG; with `caption=1`, the landmark's name under the scene (for people);
    with `small=1`, a WebP at the pages' display size (for the viewer and /play)."""
    token = name.removesuffix(".png")
    landmark = request.app.state.referee.landmark_of_token(token) if name.endswith(".png") else None
    if landmark is None:
        return JSONResponse({"ErrorMessage": f"no card {name}"}, status_code=404)
    images = request.app.state.images
    found = images.cached(token, caption=caption, small=small)
    if found is None:
        found = await asyncio.to_thread(images.picture, token, landmark, caption=caption, small=small)
    data, media_type = found
    etag = '"' + hashlib.blake2b(data, digest_size=12).hexdigest() + '"'
    headers = {"Cache-Control": CACHE_CONTROL, "ETag": etag}
    if etag in [tag.strip() for tag in request.headers.get("if-none-match", "").split(",")]:
        return Response(status_code=304, headers=headers)
    return Response(data, media_type=media_type, headers=headers)
