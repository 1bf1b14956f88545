"""A card's picture: the landmark's scene, photographed with the card's own variation; a caption on request."""

from __future__ import annotations

import io
import random

from PIL import Image, ImageDraw

from server.cards.caption import draw_caption
from server.cards.drawing import landmark_palette
from server.cards.families import drawing_for
from server.cards.variation import BORDER_FILL, photograph

WIDTH, HEIGHT = 256, 320
# The pages show a card 104 px wide; twice that stays sharp on a high-density phone screen.
SMALL_SIZE = (208, 260)
SMALL_QUALITY = 80


def draw_scene(landmark: str, rng: random.Random) -> Image.Image:
    """The landmark's scene in a palette shifted and lit for this card: sky, then the drawing."""
    palette = landmark_palette(landmark, hue_shift=rng.uniform(-0.03, 0.03), brightness=rng.uniform(0.85, 1.1))
    image = Image.new("RGB", (WIDTH, HEIGHT), palette.sky)
    draw = ImageDraw.Draw(image)
    for y in range(0, HEIGHT, 4):
        t = y / HEIGHT
        colour = tuple(round(a + (b - a) * t) for a, b in zip(palette.sky, palette.horizon, strict=True))
        draw.rectangle((0, y, WIDTH, y + 4), fill=colour)
    drawing_for(landmark)(draw, (0.0, 0.0, float(WIDTH), float(HEIGHT)), palette, rng)
    return image


def draw_card(landmark: str, variant: str, *, caption: bool = False) -> Image.Image:
    """The picture of one card of `landmark`; `variant` (the card's token) picks its variation.

    Without `caption` (what bots get) nothing in the picture is text. With it, the landmark's name
    is printed in a band at the bottom, for people looking at the card.
    """
    return _draw(landmark, variant, (caption,))[0]


def draw_card_pair(landmark: str, variant: str) -> tuple[Image.Image, Image.Image]:
    """The card without and with its caption, from one drawing of the scene (half the work of two calls)."""
    plain, captioned = _draw(landmark, variant, (False, True))
    return plain, captioned


def _draw(landmark: str, variant: str, captions: tuple[bool, ...]) -> list[Image.Image]:
    rng = random.Random(f"card:{landmark}:{variant}")
    image = photograph(draw_scene(landmark, rng), rng)
    # A slight tilt of the whole card, like a hand-held photo of a printed card.
    angle = rng.uniform(-3, 3)
    cards = []
    for caption in captions:
        card = image.copy() if len(captions) > 1 else image
        if caption:
            draw_caption(card, landmark)
        cards.append(card.rotate(angle, resample=Image.Resampling.BICUBIC, fillcolor=BORDER_FILL))
    return cards


def to_png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    # Pillow writes no tEXt/iTXt/eXIf chunks unless asked (pnginfo/exif), so nothing names the landmark.
    image.save(out, format="PNG", optimize=False)
    return out.getvalue()


def to_small_webp(image: Image.Image) -> bytes:
    """The picture at the pages' display size as WebP: a few KB, for people's pages, never for bots."""
    small = image.convert("RGB")
    small.thumbnail(SMALL_SIZE, Image.Resampling.LANCZOS)
    out = io.BytesIO()
    small.save(out, format="WEBP", quality=SMALL_QUALITY)
    return out.getvalue()


def small_webp_pair(landmark: str, variant: str, captions: bool) -> tuple[bytes, bytes]:
    """The small WebPs of the card without and with its caption (both captioned under `captions`), as bytes:
    what the pages' drawing process hands back (module-level, so that it can be called in another process)."""
    if captions:
        captioned = to_small_webp(draw_card(landmark, variant, caption=True))
        return captioned, captioned
    plain, captioned_image = draw_card_pair(landmark, variant)
    return to_small_webp(plain), to_small_webp(captioned_image)


def card_bytes(landmark: str, variant: str, caption: bool, small: bool) -> bytes:
    """One drawn card as bytes: the small WebP (pages) or the full PNG (bots)."""
    image = draw_card(landmark, variant, caption=caption)
    return to_small_webp(image) if small else to_png(image)
