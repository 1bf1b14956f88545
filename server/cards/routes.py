"""GET /cards/{token}.png: a card's picture; `?caption=1` adds the landmark's name, for people.

Bots get the captionless picture (the name would give the answer away). The viewer and play pages
ask for the captioned one; `serve --captions` captions every card.
"""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

router = APIRouter(tags=["cards"])


@router.get("/cards/{name}", response_class=Response)
async def card_image(name: str, request: Request, caption: bool = False) -> Response:
    """The picture of one card, as PNG; with `caption=1`, the landmark's name under the scene (for people)."""
    token = name.removesuffix(".png")
    landmark = request.app.state.referee.landmark_of_token(token) if name.endswith(".png") else None
    if landmark is None:
        return JSONResponse({"ErrorMessage": f"no card {name}"}, status_code=404)
    data = await asyncio.to_thread(request.app.state.images.png, token, landmark, caption=caption)
    return Response(data, media_type="image/png", headers={"Cache-Control": "public, max-age=86400"})
