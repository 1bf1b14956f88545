"""Card pictures: a drawn scene per landmark (or a real photo from --images DIR), varied per card.

Each landmark gets a scene from a small family of drawings (a clock tower, a step pyramid, sails, a
bridge...) in a palette seeded by its name, with the name as caption, so a person tells the cards apart
at a glance. Each card then gets its own colour shift, tilt and crop, the way arena cards are different
photos of the same landmark. PNGs are written without text chunks, so no file metadata names the landmark.
"""

from __future__ import annotations

import colorsys
import hashlib
import io
import logging
import random
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from cachetools import LRUCache
from PIL import Image, ImageDraw, ImageFont, ImageOps, UnidentifiedImageError

log = logging.getLogger(__name__)

WIDTH, HEIGHT = 256, 320
CAPTION_HEIGHT = 52
PHOTO_SUFFIXES = {".jpg", ".jpeg", ".png", ".webp", ".gif", ".bmp"}
Colour = tuple[int, int, int]


@dataclass(frozen=True)
class Palette:
    sky: Colour
    horizon: Colour
    ground: Colour
    main: Colour
    accent: Colour
    water: Colour


def _hsv(h: float, s: float, v: float) -> Colour:
    r, g, b = colorsys.hsv_to_rgb(h % 1.0, min(max(s, 0.0), 1.0), min(max(v, 0.0), 1.0))
    return (round(r * 255), round(g * 255), round(b * 255))


def landmark_palette(landmark: str, hue_shift: float = 0.0, brightness: float = 1.0) -> Palette:
    rng = random.Random(f"palette:{landmark}")
    base = rng.random()
    sky_hue = 0.55 + rng.uniform(-0.08, 0.08) if rng.random() < 0.6 else rng.random()
    shift, light = hue_shift, brightness
    return Palette(
        sky=_hsv(sky_hue + shift, rng.uniform(0.25, 0.55), 0.95 * light),
        horizon=_hsv(sky_hue + 0.05 + shift, rng.uniform(0.1, 0.3), 1.0 * light),
        ground=_hsv(rng.uniform(0.2, 0.38) + shift, rng.uniform(0.35, 0.6), rng.uniform(0.45, 0.65) * light),
        main=_hsv(base + shift, rng.uniform(0.35, 0.75), rng.uniform(0.45, 0.8) * light),
        accent=_hsv(base + 0.5 + shift, rng.uniform(0.5, 0.9), rng.uniform(0.7, 0.95) * light),
        water=_hsv(0.57 + rng.uniform(-0.04, 0.04) + shift, 0.6, 0.75 * light),
    )


# --- the drawings: each fills the scene area above the caption ------------------------------------

Box = tuple[float, float, float, float]
Drawing = Callable[[ImageDraw.ImageDraw, Box, Palette, random.Random], None]


def _ground(draw: ImageDraw.ImageDraw, box: Box, colour: Colour, level: float = 0.8) -> float:
    x0, y0, x1, y1 = box
    top = y0 + (y1 - y0) * level
    draw.rectangle((x0, top, x1, y1), fill=colour)
    return top


def _clock_tower(draw: ImageDraw.ImageDraw, box: Box, pal: Palette, rng: random.Random, clock: bool = True) -> None:
    x0, y0, x1, y1 = box
    base = _ground(draw, box, pal.ground)
    cx, w = (x0 + x1) / 2 + rng.uniform(-8, 8), (x1 - x0) * 0.2
    top = y0 + (y1 - y0) * 0.25
    draw.rectangle((cx - w / 2, top, cx + w / 2, base), fill=pal.main, outline=(40, 40, 40))
    draw.polygon([(cx - w / 2 - 4, top), (cx + w / 2 + 4, top), (cx, y0 + 10)], fill=pal.accent)
    if clock:
        r = w * 0.35
        cy = top + w * 0.55
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(245, 240, 220), outline=(30, 30, 30), width=2)
        draw.line((cx, cy, cx, cy - r * 0.8), fill=(20, 20, 20), width=2)
        draw.line((cx, cy, cx + r * 0.6, cy), fill=(20, 20, 20), width=2)
    for row in range(4):
        y = top + w * (1.3 + row * 0.9)
        if y < base - 8:
            draw.rectangle((cx - w / 4, y, cx + w / 4, y + w * 0.45), fill=(50, 50, 70))


def _column(draw: ImageDraw.ImageDraw, box: Box, pal: Palette, rng: random.Random) -> None:
    x0, y0, x1, y1 = box
    base = _ground(draw, box, pal.ground)
    cx = (x0 + x1) / 2 + rng.uniform(-8, 8)
    draw.rectangle((cx - 40, base - 40, cx + 40, base), fill=(200, 195, 180), outline=(90, 90, 90))
    draw.rectangle((cx - 9, y0 + 60, cx + 9, base - 40), fill=(215, 210, 195), outline=(90, 90, 90))
    draw.ellipse((cx - 7, y0 + 28, cx + 7, y0 + 42), fill=(60, 130, 110))
    draw.rectangle((cx - 6, y0 + 42, cx + 6, y0 + 60), fill=(60, 130, 110))
    for side in (-1, 1):
        draw.line((cx, y0 + 46, cx + side * 22, y0 + 18), fill=(60, 130, 110), width=4)
    for dx in (-22, 0, 22):
        draw.regular_polygon((cx + dx, y0 + 12, 7), 5, fill=(230, 190, 40))


def _minaret(draw: ImageDraw.ImageDraw, box: Box, pal: Palette, rng: random.Random) -> None:
    _clock_tower(draw, box, pal, rng, clock=False)


def _gothic(draw: ImageDraw.ImageDraw, box: Box, pal: Palette, rng: random.Random, dome: bool = False) -> None:
    x0, y0, x1, y1 = box
    base = _ground(draw, box, pal.water if not dome else pal.ground, 0.82)
    top = y0 + (y1 - y0) * 0.5
    draw.rectangle((x0 + 10, top, x1 - 10, base), fill=pal.main, outline=(40, 40, 40))
    for i in range(7):
        x = x0 + 18 + i * (x1 - x0 - 36) / 6
        h = rng.uniform(20, 45)
        draw.rectangle((x - 5, top - h, x + 5, top), fill=pal.main)
        draw.polygon([(x - 6, top - h), (x + 6, top - h), (x, top - h - 18)], fill=pal.accent)
    for i in range(9):
        x = x0 + 20 + i * (x1 - x0 - 40) / 8
        draw.rectangle((x - 3, top + 12, x + 3, base - 10), fill=(60, 60, 80))
    if dome:
        cx = (x0 + x1) / 2
        draw.pieslice((cx - 30, top - 60, cx + 30, top), 180, 360, fill=pal.accent)


def _step_pyramid(draw: ImageDraw.ImageDraw, box: Box, pal: Palette, rng: random.Random) -> None:
    x0, y0, x1, y1 = box
    base = _ground(draw, box, _hsv(0.11, 0.5, 0.85), 0.78)
    steps, width = 6, (x1 - x0) * 0.9
    cx = (x0 + x1) / 2 + rng.uniform(-6, 6)
    height = (base - y0) * 0.75 / steps
    for i in range(steps):
        w = width * (1 - i / (steps + 1))
        draw.rectangle(
            (cx - w / 2, base - (i + 1) * height, cx + w / 2, base - i * height), fill=pal.main, outline=(90, 70, 40)
        )


def _sails(draw: ImageDraw.ImageDraw, box: Box, pal: Palette, rng: random.Random, wings: bool = False) -> None:
    x0, y0, x1, y1 = box
    base = _ground(draw, box, pal.water, 0.75)
    if wings:
        cx = (x0 + x1) / 2
        draw.rectangle((x0 + 20, base - 25, x1 - 20, base), fill=(235, 235, 240))
        draw.polygon(
            [(cx, base - 30), (x0 + 5, y0 + 40), (cx - 10, base - 30)], fill=(245, 245, 250), outline=(80, 80, 80)
        )
        draw.polygon(
            [(cx, base - 30), (x1 - 5, y0 + 40), (cx + 10, base - 30)], fill=(245, 245, 250), outline=(80, 80, 80)
        )
        return
    draw.rectangle((x0 + 15, base - 18, x1 - 15, base), fill=pal.main)
    for i in range(4):
        left = x0 + 20 + i * (x1 - x0 - 40) / 4.5
        size = (x1 - x0) * (0.42 - 0.05 * abs(i - 1.5)) + rng.uniform(-6, 6)
        draw.pieslice(
            (left, base - 18 - size, left + size * 1.3, base - 18 + size),
            180,
            270,
            fill=(248, 248, 245),
            outline=(120, 120, 120),
        )


def _ship(draw: ImageDraw.ImageDraw, box: Box, pal: Palette, rng: random.Random) -> None:
    x0, y0, x1, y1 = box
    base = _ground(draw, box, pal.water, 0.72)
    left, right = x0 + 15, x1 - 15
    draw.polygon(
        [(left, base - 40), (right, base - 40), (right - 30, base + 5), (left + 30, base + 5)], fill=(110, 70, 35)
    )
    draw.line((left, base - 40, left - 10, base - 70), fill=(110, 70, 35), width=8)
    draw.line((right, base - 40, right + 10, base - 70), fill=(110, 70, 35), width=8)
    mast = (left + right) / 2 + rng.uniform(-5, 5)
    draw.line((mast, base - 40, mast, y0 + 15), fill=(80, 50, 25), width=5)
    draw.rectangle((mast - 45, y0 + 30, mast + 45, base - 60), fill=pal.accent)
    for i in range(4):
        y = y0 + 36 + i * (base - 100 - y0) / 4
        draw.line((mast - 45, y, mast + 45, y), fill=pal.main, width=6)


def _pagoda(draw: ImageDraw.ImageDraw, box: Box, pal: Palette, rng: random.Random) -> None:
    x0, y0, x1, y1 = box
    base = _ground(draw, box, (200, 190, 170), 0.8)
    cx = (x0 + x1) / 2
    draw.rectangle((x0 + 30, base - 60, x1 - 30, base), fill=(180, 30, 30))
    for i, y in enumerate((base - 60, base - 115)):
        w = (x1 - x0) * (0.5 - i * 0.12)
        draw.polygon([(cx - w, y), (cx + w, y), (cx + w * 0.7, y - 35), (cx - w * 0.7, y - 35)], fill=(225, 170, 20))
        if i == 0:
            draw.rectangle((cx - w * 0.6, y - 55, cx + w * 0.6, y - 35), fill=(180, 30, 30))
    for i in range(6):
        x = x0 + 40 + i * (x1 - x0 - 80) / 5
        draw.rectangle((x - 3, base - 55, x + 3, base), fill=(120, 20, 20))


def _colonnade(draw: ImageDraw.ImageDraw, box: Box, pal: Palette, rng: random.Random, variant: str = "gate") -> None:
    x0, y0, x1, y1 = box
    base = _ground(draw, box, pal.water if variant == "fountain" else pal.ground, 0.8)
    top = y0 + (y1 - y0) * 0.35
    stone = (225, 215, 190)
    draw.rectangle((x0 + 15, top, x1 - 15, top + 22), fill=stone, outline=(90, 80, 60))
    columns = 6 if variant != "house" else 8
    for i in range(columns):
        x = x0 + 25 + i * (x1 - x0 - 50) / (columns - 1)
        draw.rectangle((x - 5, top + 22, x + 5, base), fill=stone, outline=(110, 100, 80))
    if variant == "gate":
        cx = (x0 + x1) / 2
        draw.rectangle((cx - 25, top - 25, cx + 25, top), fill=(40, 110, 90))
        draw.polygon([(cx - 20, top - 25), (cx + 20, top - 25), (cx, top - 45)], fill=(40, 110, 90))
    elif variant == "opera":
        cx = (x0 + x1) / 2
        draw.pieslice((cx - 40, top - 50, cx + 40, top + 30), 180, 360, fill=(60, 140, 110))
        draw.ellipse((cx - 8, top - 62, cx + 8, top - 46), fill=(230, 190, 40))
    elif variant == "house":
        draw.rectangle((x0 + 15, top + 22, x1 - 15, base), outline=(150, 60, 50), width=4)
        draw.polygon([(x0 + 10, top), (x1 - 10, top), ((x0 + x1) / 2, top - 40)], fill=(150, 60, 50))
    elif variant == "fountain":
        draw.polygon([(x0 + 10, top), (x1 - 10, top), ((x0 + x1) / 2, top - 30)], fill=stone, outline=(90, 80, 60))
        cx = (x0 + x1) / 2
        draw.ellipse((cx - 14, base - 60, cx + 14, base - 20), fill=(250, 250, 250))
        for i in range(5):
            draw.arc(
                (x0 + 20 + i * 40, base - 12, x0 + 60 + i * 40, base + 12), 180, 360, fill=(250, 250, 255), width=3
            )


def _dome(draw: ImageDraw.ImageDraw, box: Box, pal: Palette, rng: random.Random, variant: str = "mosque") -> None:
    x0, y0, x1, y1 = box
    level = {"water": 0.68, "hill": 0.6}.get(variant, 0.8)
    base = _ground(draw, box, pal.water if variant == "water" else pal.ground, level)
    if variant == "basilica":
        for step in range(4):
            draw.rectangle(
                (x0 + 30 + step * 12, base - step * 6, x1 - 30 - step * 12, base - step * 6 + 6), fill=(200, 200, 195)
            )
        base -= 24
    if variant == "hill":
        draw.pieslice((x0 - 40, base - 60, x1 + 40, base + 120), 180, 360, fill=_hsv(0.25, 0.45, 0.55))
        base -= 50
    cx = (x0 + x1) / 2 + rng.uniform(-6, 6)
    body = (245, 245, 240) if variant != "water" else (210, 170, 110)
    width = (x1 - x0) * (0.6 if variant != "hill" else 0.3)
    draw.rectangle((cx - width / 2, base - 50, cx + width / 2, base), fill=body, outline=(120, 120, 120))
    dome = width * {"water": 0.12, "basilica": 0.4}.get(variant, 0.3)
    draw.pieslice((cx - dome, base - 50 - dome, cx + dome, base - 50 + dome), 180, 360, fill=pal.accent)
    draw.line((cx, base - 50 - dome, cx, base - 62 - dome), fill=(220, 180, 40), width=3)
    if variant in ("mosque", "water"):
        for side in (-1, 1):
            x = cx + side * (width / 2 + 10)
            draw.rectangle((x - 5, base - 120, x + 5, base), fill=body, outline=(120, 120, 120))
            draw.polygon([(x - 6, base - 120), (x + 6, base - 120), (x, base - 138)], fill=pal.accent)
    for i in range(5):
        x = cx - width / 2 + (i + 0.5) * width / 5
        draw.arc((x - 8, base - 38, x + 8, base - 10), 180, 360, fill=(90, 90, 110), width=3)


def _waterfall(draw: ImageDraw.ImageDraw, box: Box, pal: Palette, rng: random.Random) -> None:
    x0, y0, x1, y1 = box
    rock = (95, 85, 80)
    draw.polygon([(x0, y0 + 40), (x0 + 90, y0 + 60), (x0 + 100, y1), (x0, y1)], fill=rock)
    draw.polygon([(x1, y0 + 30), (x1 - 90, y0 + 55), (x1 - 100, y1), (x1, y1)], fill=rock)
    cx = (x0 + x1) / 2
    draw.rectangle((cx - 30, y0 + 55, cx + 30, y1 - 30), fill=(225, 240, 250))
    for i in range(6):
        x = cx - 25 + i * 10 + rng.uniform(-2, 2)
        draw.line((x, y0 + 60, x, y1 - 35), fill=(160, 200, 230), width=2)
    draw.ellipse((cx - 70, y1 - 45, cx + 70, y1 - 5), fill=(240, 248, 255))
    for i in range(5):
        x = x0 + 10 + i * 50
        draw.polygon([(x, y0 + 40), (x + 12, y0), (x + 24, y0 + 40)], fill=(30, 90, 50))


def _mountains(draw: ImageDraw.ImageDraw, box: Box, pal: Palette, rng: random.Random, sea: bool = False) -> None:
    x0, y0, x1, y1 = box
    base = _ground(draw, box, pal.water if sea else pal.ground, 0.78)
    if sea:
        draw.polygon([(x0, y0 + 50), (x1 - 60, y0 + 90), (x1 - 20, base), (x0, base)], fill=(80, 110, 60))
        draw.polygon([(x0, y0 + 70), (x1 - 60, y0 + 110), (x1 - 20, base), (x0, base)], fill=(120, 100, 85))
        return
    peaks = [(x0 + 30, y0 + 90), (x0 + 85, y0 + 30), (x0 + 125, y0 + 5), (x0 + 160, y0 + 40), (x1 - 30, y0 + 80)]
    points = [(x0, base)] + [(x + rng.uniform(-4, 4), y) for x, y in peaks] + [(x1, base)]
    draw.polygon(points, fill=(90, 90, 105))
    draw.polygon(
        [(x0 + 105, y0 + 30), (x0 + 125, y0 + 5), (x0 + 145, y0 + 25), (x0 + 125, y0 + 40)], fill=(250, 250, 255)
    )


def _sea_stack(draw: ImageDraw.ImageDraw, box: Box, pal: Palette, rng: random.Random) -> None:
    x0, y0, x1, y1 = box
    base = _ground(draw, box, pal.water, 0.7)
    _ground(draw, box, (225, 205, 160), 0.88)
    cx = (x0 + x1) / 2 + rng.uniform(-10, 10)
    draw.polygon(
        [(cx - 60, base + 5), (cx - 45, y0 + 60), (cx - 10, y0 + 35), (cx + 35, y0 + 70), (cx + 60, base + 5)],
        fill=(70, 60, 55),
    )
    draw.pieslice((cx - 40, y0 + 30, cx + 30, y0 + 70), 180, 360, fill=(60, 120, 60))


def _islands(draw: ImageDraw.ImageDraw, box: Box, pal: Palette, rng: random.Random, variant: str = "islands") -> None:
    x0, y0, x1, y1 = box
    base = _ground(draw, box, _hsv(0.5, 0.6, 0.8), 0.55)
    if variant == "bay":
        draw.pieslice((x0 - 30, base - 40, x1 + 30, y1 + 120), 180, 360, fill=(70, 120, 60))
        draw.ellipse((x0 + 30, base + 10, x1 - 30, y1 + 60), fill=_hsv(0.48, 0.7, 0.85))
        return
    if variant == "prison":
        draw.pieslice((x0 + 20, base - 40, x1 - 20, base + 40), 180, 360, fill=(110, 100, 80))
        draw.rectangle((x0 + 70, base - 60, x1 - 70, base - 30), fill=(230, 225, 210))
        draw.rectangle((x1 - 90, base - 95, x1 - 80, base - 30), fill=(230, 225, 210))
        return
    for i, (left, height) in enumerate(((x0 - 10, 130), (x0 + 90, 90), (x0 + 160, 150))):
        draw.pieslice((left, base - height, left + 110, base + height), 180, 360, fill=_hsv(0.3 + i * 0.03, 0.6, 0.5))
    draw.polygon(
        [(x0 + 90, base + 40), (x0 + 150, base + 40), (x0 + 140, base + 50), (x0 + 100, base + 50)], fill=(150, 90, 40)
    )


def _skyscraper(draw: ImageDraw.ImageDraw, box: Box, pal: Palette, rng: random.Random) -> None:
    x0, y0, x1, y1 = box
    base = _ground(draw, box, (90, 90, 95), 0.9)
    cx = (x0 + x1) / 2 + rng.uniform(-6, 6)
    for width, top in ((110, y0 + 130), (80, y0 + 90), (50, y0 + 55), (24, y0 + 35)):
        draw.rectangle((cx - width / 2, top, cx + width / 2, base), fill=(200, 195, 185), outline=(120, 120, 120))
    draw.line((cx, y0 + 35, cx, y0 + 2), fill=(120, 120, 120), width=3)
    for i in range(12):
        y = y0 + 140 + i * 10
        if y < base:
            draw.line((cx - 50, y, cx + 50, y), fill=(120, 130, 160), width=2)
    for side in (-1, 1):
        draw.rectangle((cx + side * 95 - 18, y0 + 170, cx + side * 95 + 18, base), fill=(150, 150, 160))


def _bridge(draw: ImageDraw.ImageDraw, box: Box, pal: Palette, rng: random.Random) -> None:
    x0, y0, x1, y1 = box
    deck = y0 + (y1 - y0) * 0.55
    _ground(draw, box, pal.water, 0.6)
    draw.rectangle((x0, deck - 10, x1, deck + 6), fill=(40, 110, 80))
    arches = 5
    span = (x1 - x0) / arches
    for i in range(arches):
        draw.arc(
            (x0 + i * span + 4, deck - 2, x0 + (i + 1) * span - 4, deck + span * 0.9),
            180,
            360,
            fill=(40, 110, 80),
            width=6,
        )
        x = x0 + i * span
        draw.line((x, deck - 10, x, deck - 35), fill=(30, 30, 30), width=2)
        draw.ellipse((x - 4, deck - 42, x + 4, deck - 34), fill=(250, 220, 120))
    draw.rectangle((x1 - 40, y0 + 10, x1 - 20, deck - 10), fill=(200, 180, 120))


def _flag_raising(draw: ImageDraw.ImageDraw, box: Box, pal: Palette, rng: random.Random) -> None:
    x0, y0, x1, y1 = box
    base = _ground(draw, box, pal.ground, 0.82)
    draw.rectangle((x0 + 50, base - 30, x1 - 50, base), fill=(60, 60, 65))
    foot = ((x0 + x1) / 2 + 30, base - 30)
    top = (x0 + 50, y0 + 20)
    draw.line((*foot, *top), fill=(60, 50, 30), width=6)
    draw.rectangle((top[0], top[1], top[0] + 60, top[1] + 36), fill=(200, 30, 40))
    draw.rectangle((top[0], top[1], top[0] + 24, top[1] + 18), fill=(30, 40, 130))
    for i in range(4):
        x = foot[0] - 20 - i * 22
        y = base - 30 - (i * 25)
        draw.ellipse((x - 9, y - 70, x + 9, y - 52), fill=(90, 80, 50))
        draw.rectangle((x - 10, y - 52, x + 10, y), fill=(90, 80, 50))


def _wooden_row(draw: ImageDraw.ImageDraw, box: Box, pal: Palette, rng: random.Random) -> None:
    x0, y0, x1, y1 = box
    base = _ground(draw, box, pal.water, 0.82)
    colours = [(200, 40, 30), (240, 200, 60), (245, 240, 230), (190, 90, 40), (160, 30, 30)]
    width = (x1 - x0) / 5
    for i in range(5):
        left = x0 + i * width
        top = y0 + 90 + rng.uniform(-10, 10)
        draw.rectangle((left, top, left + width, base), fill=colours[i], outline=(50, 40, 30))
        draw.polygon(
            [(left, top), (left + width, top), (left + width / 2, top - 45)], fill=colours[i], outline=(50, 40, 30)
        )
        for j in range(3):
            draw.rectangle((left + 12, top + 10 + j * 30, left + width - 12, top + 25 + j * 30), fill=(60, 60, 70))


def _mission(draw: ImageDraw.ImageDraw, box: Box, pal: Palette, rng: random.Random) -> None:
    x0, y0, x1, y1 = box
    base = _ground(draw, box, pal.ground, 0.82)
    stone = (220, 205, 170)
    cx = (x0 + x1) / 2
    draw.rectangle((x0 + 20, y0 + 100, x1 - 20, base), fill=stone, outline=(120, 100, 80))
    draw.chord((cx - 60, y0 + 50, cx + 60, y0 + 150), 180, 360, fill=stone, outline=(120, 100, 80))
    draw.chord((cx - 25, base - 90, cx + 25, base - 40), 180, 360, fill=(70, 50, 40))
    draw.rectangle((cx - 25, base - 65, cx + 25, base), fill=(70, 50, 40))
    for side in (-1, 1):
        draw.rectangle((cx + side * 60 - 6, y0 + 110, cx + side * 60 + 6, base - 10), fill=(190, 175, 145))


def _egg(draw: ImageDraw.ImageDraw, box: Box, pal: Palette, rng: random.Random) -> None:
    x0, y0, x1, y1 = box
    base = _ground(draw, box, pal.water, 0.82)
    cx = (x0 + x1) / 2
    draw.ellipse((cx - 70, y0 + 40, cx + 85, base + 30), fill=(150, 190, 210), outline=(70, 90, 110), width=3)
    for i in range(8):
        y = y0 + 60 + i * 20
        draw.line((cx - 65, y, cx + 80, y - 8), fill=(70, 90, 110), width=2)


FAMILIES: dict[str, Drawing] = {
    "brandenburg gate": _colonnade,
    "jal mahal": lambda d, b, p, r: _dome(d, b, p, r, "water"),
    "sydney opera house": _sails,
    "viking ship museum": _ship,
    "pyramid of djoser": _step_pyramid,
    "forbidden city": _pagoda,
    "palais garnier": lambda d, b, p, r: _colonnade(d, b, p, r, "opera"),
    "palace of westminster": _gothic,
    "freedom monument": _column,
    "trevi fountain": lambda d, b, p, r: _colonnade(d, b, p, r, "fountain"),
    "sunwapta falls": _waterfall,
    "alamo mission in san antonio": _mission,
    "mount vernon": lambda d, b, p, r: _colonnade(d, b, p, r, "house"),
    "slieve league": lambda d, b, p, r: _mountains(d, b, p, r, sea=True),
    "sheikh zayed mosque": _dome,
    "haystack rock": _sea_stack,
    "giralda": _minaret,
    "big ben": _clock_tower,
    "marine corps war memorial": _flag_raising,
    "mount of olives": lambda d, b, p, r: _dome(d, b, p, r, "hill"),
    "bryggen": _wooden_row,
    "chhatrapati shivaji terminus": lambda d, b, p, r: _gothic(d, b, p, r, dome=True),
    "hanauma bay": lambda d, b, p, r: _islands(d, b, p, r, "bay"),
    "empire state building": _skyscraper,
    "phi phi islands": _islands,
    "fitz roy": _mountains,
    "koutoubia mosque": _minaret,
    "milwaukee art museum": lambda d, b, p, r: _sails(d, b, p, r, wings=True),
    "alcatraz island": lambda d, b, p, r: _islands(d, b, p, r, "prison"),
    "saint joseph's oratory": lambda d, b, p, r: _dome(d, b, p, r, "basilica"),
    "city hall, london": _egg,
    "westminster bridge": _bridge,
}
_ALL_DRAWINGS: tuple[Drawing, ...] = tuple(dict.fromkeys(FAMILIES.values()))


def drawing_for(landmark: str) -> Drawing:
    """The landmark's own drawing; a name outside the default catalog gets one chosen by its hash."""
    if landmark in FAMILIES:
        return FAMILIES[landmark]
    digest = int.from_bytes(hashlib.sha256(landmark.encode()).digest()[:4], "big")
    return _ALL_DRAWINGS[digest % len(_ALL_DRAWINGS)]


def _caption(image: Image.Image, landmark: str) -> None:
    draw = ImageDraw.Draw(image)
    top = HEIGHT - CAPTION_HEIGHT
    draw.rectangle((0, top, WIDTH, HEIGHT), fill=(250, 248, 240))
    words, lines, line = landmark.split(), [], ""
    font = ImageFont.load_default(size=20)
    for word in words:
        candidate = f"{line} {word}".strip()
        if line and draw.textlength(candidate, font=font) > WIDTH - 16:
            lines.append(line)
            line = word
        else:
            line = candidate
    lines.append(line)
    if len(lines) > 2:
        font = ImageFont.load_default(size=14)
        lines = [" ".join(words)]
    height = CAPTION_HEIGHT / len(lines)
    for index, text in enumerate(lines):
        draw.text((WIDTH / 2, top + height * (index + 0.5)), text, font=font, fill=(20, 20, 20), anchor="mm")


def _vary(image: Image.Image, rng: random.Random) -> Image.Image:
    """A different 'photo' of the same scene: tilt and crop (the caption band is drawn afterwards)."""
    angle = rng.uniform(-9, 9)
    image = image.rotate(angle, resample=Image.Resampling.BICUBIC, expand=False, fillcolor=(235, 235, 235))
    zoom = rng.uniform(0.84, 0.97)
    width, height = WIDTH * zoom, HEIGHT * zoom
    left = rng.uniform(0, WIDTH - width)
    top = rng.uniform(0, HEIGHT - height)
    return image.crop((round(left), round(top), round(left + width), round(top + height))).resize((WIDTH, HEIGHT))


def draw_card(landmark: str, variant: str) -> Image.Image:
    """The drawn picture of one card of `landmark`; `variant` (the card's token) picks its variation."""
    rng = random.Random(f"card:{landmark}:{variant}")
    palette = landmark_palette(landmark, hue_shift=rng.uniform(-0.04, 0.04), brightness=rng.uniform(0.85, 1.08))
    image = Image.new("RGB", (WIDTH, HEIGHT), palette.sky)
    draw = ImageDraw.Draw(image)
    scene_bottom = HEIGHT - CAPTION_HEIGHT
    for y in range(0, scene_bottom, 4):
        t = y / scene_bottom
        colour = tuple(round(a + (b - a) * t) for a, b in zip(palette.sky, palette.horizon, strict=True))
        draw.rectangle((0, y, WIDTH, y + 4), fill=colour)
    drawing_for(landmark)(draw, (0.0, 0.0, float(WIDTH), float(scene_bottom)), palette, rng)
    image = _vary(image, rng)
    _caption(image, landmark)
    # A slight tilt of the whole card, caption included, like a hand-held photo of a printed card.
    return image.rotate(rng.uniform(-3, 3), resample=Image.Resampling.BICUBIC, fillcolor=(235, 235, 235))


def to_png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    # Pillow writes no tEXt/iTXt/eXIf chunks unless asked (pnginfo/exif), so nothing names the landmark.
    image.save(out, format="PNG", optimize=False)
    return out.getvalue()


class CardImages:
    """PNG bytes per card token, rendered on first request and kept in an LRU cache."""

    def __init__(self, photos_dir: Path | None = None, cache_size: int = 2048) -> None:
        self.photos_dir = photos_dir
        self._cache: LRUCache[str, bytes] = LRUCache(maxsize=cache_size)
        self._lock = threading.Lock()

    def png(self, token: str, landmark: str) -> bytes:
        with self._lock:
            cached = self._cache.get(token)
        if cached is not None:
            return cached
        data = self._render(token, landmark)
        with self._lock:
            self._cache[token] = data
        return data

    def _render(self, token: str, landmark: str) -> bytes:
        photo = self._photo(token, landmark)
        return to_png(photo if photo is not None else draw_card(landmark, token))

    def photo_files(self, landmark: str) -> list[Path]:
        if self.photos_dir is None:
            return []
        folder = self.photos_dir / landmark
        if not folder.is_dir():
            return []
        return sorted(path for path in folder.iterdir() if path.suffix.lower() in PHOTO_SUFFIXES and path.is_file())

    def _photo(self, token: str, landmark: str) -> Image.Image | None:
        files = self.photo_files(landmark)
        if not files:
            return None
        # The same token always shows the same photo.
        chosen = files[int(hashlib.sha256(token.encode()).hexdigest(), 16) % len(files)]
        try:
            with Image.open(chosen) as opened:
                opened.load()
                # Re-encoding from pixels drops EXIF and any text metadata of the original file.
                image = ImageOps.exif_transpose(opened).convert("RGB")
        except (OSError, UnidentifiedImageError, ValueError, Image.DecompressionBombError) as error:
            log.warning("card photo %s cannot be read (%s); serving a drawn card instead", chosen, error)
            return None
        image.thumbnail((640, 640))
        return image
