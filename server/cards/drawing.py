"""What every scene drawing shares: a landmark's palette, the drawing signature and the ground."""

from __future__ import annotations

import colorsys
import random
from collections.abc import Callable
from dataclasses import dataclass

from PIL import ImageDraw

Colour = tuple[int, int, int]
Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class Palette:
    sky: Colour
    horizon: Colour
    ground: Colour
    main: Colour
    accent: Colour
    water: Colour


Drawing = Callable[[ImageDraw.ImageDraw, Box, Palette, random.Random], None]


def hsv(h: float, s: float, v: float) -> Colour:
    r, g, b = colorsys.hsv_to_rgb(h % 1.0, min(max(s, 0.0), 1.0), min(max(v, 0.0), 1.0))
    return (round(r * 255), round(g * 255), round(b * 255))


def landmark_palette(landmark: str, hue_shift: float = 0.0, brightness: float = 1.0) -> Palette:
    """The landmark's own colours (seeded by its name), shifted and lit for one photo."""
    rng = random.Random(f"palette:{landmark}")
    base = rng.random()
    sky_hue = 0.55 + rng.uniform(-0.08, 0.08) if rng.random() < 0.6 else rng.random()
    shift, light = hue_shift, brightness
    return Palette(
        sky=hsv(sky_hue + shift, rng.uniform(0.25, 0.55), 0.95 * light),
        horizon=hsv(sky_hue + 0.05 + shift, rng.uniform(0.1, 0.3), 1.0 * light),
        ground=hsv(rng.uniform(0.2, 0.38) + shift, rng.uniform(0.35, 0.6), rng.uniform(0.45, 0.65) * light),
        main=hsv(base + shift, rng.uniform(0.35, 0.75), rng.uniform(0.45, 0.8) * light),
        accent=hsv(base + 0.5 + shift, rng.uniform(0.5, 0.9), rng.uniform(0.7, 0.95) * light),
        water=hsv(0.57 + rng.uniform(-0.04, 0.04) + shift, 0.6, 0.75 * light),
    )


def ground(draw: ImageDraw.ImageDraw, box: Box, colour: Colour, level: float = 0.8) -> float:
    """Fill the bottom of the box from `level` (a share of its height) down; the ground's top edge."""
    x0, y0, x1, y1 = box
    top = y0 + (y1 - y0) * level
    draw.rectangle((x0, top, x1, y1), fill=colour)
    return top
