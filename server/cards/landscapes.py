"""Scenes of nature: a waterfall, mountains, a sea stack, islands and a bay."""

from __future__ import annotations

import random

from PIL import ImageDraw

from server.cards.drawing import Box, Palette, ground, hsv


def waterfall(draw: ImageDraw.ImageDraw, box: Box, pal: Palette, rng: random.Random) -> None:
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


def mountains(draw: ImageDraw.ImageDraw, box: Box, pal: Palette, rng: random.Random, sea: bool = False) -> None:
    x0, y0, x1, y1 = box
    base = ground(draw, box, pal.water if sea else pal.ground, 0.78)
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


def sea_stack(draw: ImageDraw.ImageDraw, box: Box, pal: Palette, rng: random.Random) -> None:
    x0, y0, x1, y1 = box
    base = ground(draw, box, pal.water, 0.7)
    ground(draw, box, (225, 205, 160), 0.88)
    cx = (x0 + x1) / 2 + rng.uniform(-10, 10)
    draw.polygon(
        [(cx - 60, base + 5), (cx - 45, y0 + 60), (cx - 10, y0 + 35), (cx + 35, y0 + 70), (cx + 60, base + 5)],
        fill=(70, 60, 55),
    )
    draw.pieslice((cx - 40, y0 + 30, cx + 30, y0 + 70), 180, 360, fill=(60, 120, 60))


def islands(draw: ImageDraw.ImageDraw, box: Box, pal: Palette, rng: random.Random, variant: str = "islands") -> None:
    x0, y0, x1, y1 = box
    base = ground(draw, box, hsv(0.5, 0.6, 0.8), 0.55)
    if variant == "bay":
        draw.pieslice((x0 - 30, base - 40, x1 + 30, y1 + 120), 180, 360, fill=(70, 120, 60))
        draw.ellipse((x0 + 30, base + 10, x1 - 30, y1 + 60), fill=hsv(0.48, 0.7, 0.85))
        return
    if variant == "prison":
        draw.pieslice((x0 + 20, base - 40, x1 - 20, base + 40), 180, 360, fill=(110, 100, 80))
        draw.rectangle((x0 + 70, base - 60, x1 - 70, base - 30), fill=(230, 225, 210))
        draw.rectangle((x1 - 90, base - 95, x1 - 80, base - 30), fill=(230, 225, 210))
        return
    for i, (left, height) in enumerate(((x0 - 10, 130), (x0 + 90, 90), (x0 + 160, 150))):
        draw.pieslice((left, base - height, left + 110, base + height), 180, 360, fill=hsv(0.3 + i * 0.03, 0.6, 0.5))
    draw.polygon(
        [(x0 + 90, base + 40), (x0 + 150, base + 40), (x0 + 140, base + 50), (x0 + 100, base + 50)], fill=(150, 90, 40)
    )
