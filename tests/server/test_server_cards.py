"""Card pictures: no text for bots, a caption for people on request, and real variation per card."""

from __future__ import annotations

import asyncio
import threading
import time

import httpx
import numpy as np
from PIL import Image
from server_testkit import ArenaBot

from rummy.cards import token_of
from server.cards import CardImages, draw_card, to_png
from server.cards.caption import CAPTION_HEIGHT


async def _start_one(server, bots) -> tuple[int, dict]:
    async with httpx.AsyncClient(timeout=30) as client:
        alice = ArenaBot(client, server.prod, "alice", bots["alice"])
        bob = ArenaBot(client, server.prod, "bob", bots["bob"])
        await alice.offer(1)
        answer = await bob.offer(1)
        return answer["GameState"]["GameId"], answer["GameState"]


def pixels(image: Image.Image) -> np.ndarray:
    return np.asarray(image.convert("RGB"), dtype=np.float32)


def caption_band(image: Image.Image) -> np.ndarray:
    # The band's middle, clear of the final tilt's corners.
    return pixels(image)[-CAPTION_HEIGHT + 12 : -12, 40:-40]


def test_bots_get_no_caption_people_get_one_on_request(start_server, bots) -> None:
    # 15 s moves and the 403 check first: it must run while the match is still in play, which a loaded
    # machine could not promise with 4 s moves and other requests before it.
    server = start_server(oracle=True, move_time_ms=15_000)
    game_id, state = asyncio.run(_start_one(server, bots))
    card_id, url = state["MyHand"][0]
    assert httpx.get(url + "?caption=1").status_code == 403  # the match is in play: no names for its bots
    labels = httpx.get(f"{server.base}/oracle/labels/{game_id}").json()
    token = token_of(url)
    url = url.removesuffix(".jpg") + ".png"  # the PNG the picture is drawn as (the .jpg is its JPEG)
    plain = httpx.get(url)
    deadline = time.monotonic() + 60
    while httpx.get(f"{server.base}/games/{game_id}").json()["Status"] == "RUNNING" and time.monotonic() < deadline:
        time.sleep(0.2)  # nobody moves: the mover loses on time
    captioned = httpx.get(url + "?caption=1")  # the viewer's picture of the finished match
    assert plain.status_code == captioned.status_code == 200
    assert plain.content == to_png(draw_card(labels[str(card_id)], token))
    assert captioned.content == to_png(draw_card(labels[str(card_id)], token, caption=True))
    assert plain.content != captioned.content


def test_serve_captions_captions_every_card(start_server, bots) -> None:
    server = start_server(oracle=True, captions=True)
    game_id, state = asyncio.run(_start_one(server, bots))
    labels = httpx.get(f"{server.base}/oracle/labels/{game_id}").json()
    card_id, url = state["OppHand"][0]
    token = token_of(url)
    png = url.removesuffix(".jpg") + ".png"
    assert httpx.get(png).content == to_png(draw_card(labels[str(card_id)], token, caption=True))


def test_a_caption_is_a_light_band_with_dark_text_and_the_default_has_none() -> None:
    for landmark in ("big ben", "city hall, london", "chhatrapati shivaji terminus"):
        band = caption_band(draw_card(landmark, "t1", caption=True))
        light, dark = (band.min(axis=2) > 235).mean(), (band.max(axis=2) < 80).mean()
        assert light > 0.6 and dark > 0.02  # paper with ink on it
        plain = caption_band(draw_card(landmark, "t1"))
        assert (plain.min(axis=2) > 235).mean() < 0.3  # scene, not paper


def test_cards_of_one_landmark_are_different_photos_and_the_same_token_is_the_same_photo() -> None:
    cards = [pixels(draw_card("sydney opera house", f"token-{i}")) for i in range(4)]
    assert np.array_equal(cards[0], pixels(draw_card("sydney opera house", "token-0")))
    for i in range(4):
        for j in range(i + 1, 4):
            # Viewpoint, crop, light and noise move every pixel: a mean difference well above noise.
            assert np.abs(cards[i] - cards[j]).mean() > 8


def test_card_images_cache_keeps_captioned_and_plain_apart() -> None:
    images = CardImages()
    plain = images.png("tok", "giralda")
    assert images.png("tok", "giralda", caption=True) != plain
    assert images.png("tok", "giralda") == plain
    assert CardImages(captions=True).png("tok", "giralda") == images.png("tok", "giralda", caption=True)


def test_prerendered_pictures_are_the_ones_drawn_on_request_and_asked_ones_go_first() -> None:
    drawn: list[str] = []
    release = threading.Event()

    def draw(token: str, landmark: str) -> None:  # records the order, draws nothing, holds the first card
        drawn.append(token)
        release.wait(timeout=30)

    images = CardImages()
    images.watch()
    images._ahead._draw = draw
    images._ahead._workers = 1  # the order is one worker's (two draw side by side: test_prerender_queue.py)
    images._ahead.add([("a", "giralda"), ("b", "giralda")])
    deadline = time.monotonic() + 30
    while not drawn and time.monotonic() < deadline:
        time.sleep(0.01)
    images._ahead.add([("c", "big ben")], first=True)  # while "a" is being drawn
    release.set()
    assert images.wait_prerendered(timeout=30)
    assert drawn == ["a", "c", "b"]
    images.close()

    ahead = CardImages()
    ahead.prerender([("tok", "giralda")])  # dealt while nobody watches: waits undrawn
    assert ahead.wait_prerendered(timeout=30) and ahead.cached("tok", small=True) is None
    ahead.watch()
    assert ahead.wait_prerendered(timeout=30)
    fresh = CardImages()
    for caption in (False, True):
        cached = ahead.cached("tok", caption=caption, small=True)
        assert cached is not None and cached == fresh.picture("tok", "giralda", caption=caption, small=True)
    # Asked first without a caption: the worker drew both variants then, so the second ask was ready.
    assert ahead.drawn_on_request == 0 and fresh.drawn_on_request == 1
    ahead.close()


def test_picture_caches_are_bounded_in_bytes() -> None:
    size = len(CardImages().picture("t0", "giralda", small=True)[0])
    images = CardImages(small_cache_bytes=size * 5 // 2)  # room for about two small WebPs
    for token in ("t1", "t2", "t3", "t4"):
        images.picture(token, "giralda", small=True)
    assert images.cached("t4", small=True) is not None
    assert images.cached("t1", small=True) is None  # the oldest went first
