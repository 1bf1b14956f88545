"""GET /cards/{token}.png: a card's picture; `?caption=1` adds the landmark's name, for people.

Bots get the captionless picture (the name would give the answer away). A caption is drawn only for
people: for a card of no match in play (the viewer shows finished matches), for a card a /play
person's own game shows (their browser's cookie), or on every card under `serve --captions` (a
server started for demos). Asked for a card of a match in play by anyone else, it is refused (403),
so a bot in a local match cannot read its cards' names off the pictures.
"""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from server.play.routes import PLAY_COOKIE

router = APIRouter(tags=["cards"])


def _may_see_caption(request: Request, token: str) -> bool:
    state = request.app.state
    if state.settings.captions or not state.referee.card_in_play(token):
        return True
    hall = getattr(state, "play_hall", None)
    owner = request.cookies.get(PLAY_COOKIE, "")
    return hall is not None and bool(owner) and bool(hall.shows_card(owner, token))


@router.get("/cards/{name}", response_class=Response)
async def card_image(name: str, request: Request, caption: bool = False) -> Response:
    """The picture of one card, as PNG; with `caption=1`, the landmark's name under the scene (for people)."""
    token = name.removesuffix(".png")
    landmark = request.app.state.referee.landmark_of_token(token) if name.endswith(".png") else None
    if landmark is None:
        return JSONResponse({"ErrorMessage": f"no card {name}"}, status_code=404)
    if caption and not _may_see_caption(request, token):
        return JSONResponse(
            {"ErrorMessage": "captions are for people: a finished match's cards, or your own /play game's"},
            status_code=403,
        )
    data = await asyncio.to_thread(request.app.state.images.png, token, landmark, caption=caption)
    return Response(data, media_type="image/png", headers={"Cache-Control": "public, max-age=86400"})
