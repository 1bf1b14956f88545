"""Scenes of tall things: towers, columns, a step pyramid, a pagoda, a skyscraper, a flag raising."""

from __future__ import annotations

import random

from PIL import ImageDraw

from server.cards.drawing import Box, Palette, ground, hsv


def clock_tower(draw: ImageDraw.ImageDraw, box: Box, pal: Palette, rng: random.Random, clock: bool = True) -> None:
    x0, y0, x1, y1 = box
    base = ground(draw, box, pal.ground)
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


def column(draw: ImageDraw.ImageDraw, box: Box, pal: Palette, rng: random.Random) -> None:
    x0, y0, x1, y1 = box
    base = ground(draw, box, pal.ground)
    cx = (x0 + x1) / 2 + rng.uniform(-8, 8)
    draw.rectangle((cx - 40, base - 40, cx + 40, base), fill=(200, 195, 180), outline=(90, 90, 90))
    draw.rectangle((cx - 9, y0 + 60, cx + 9, base - 40), fill=(215, 210, 195), outline=(90, 90, 90))
    draw.ellipse((cx - 7, y0 + 28, cx + 7, y0 + 42), fill=(60, 130, 110))
    draw.rectangle((cx - 6, y0 + 42, cx + 6, y0 + 60), fill=(60, 130, 110))
    for side in (-1, 1):
        draw.line((cx, y0 + 46, cx + side * 22, y0 + 18), fill=(60, 130, 110), width=4)
    for dx in (-22, 0, 22):
        draw.regular_polygon((cx + dx, y0 + 12, 7), 5, fill=(230, 190, 40))


def minaret(draw: ImageDraw.ImageDraw, box: Box, pal: Palette, rng: random.Random) -> None:
    clock_tower(draw, box, pal, rng, clock=False)


def step_pyramid(draw: ImageDraw.ImageDraw, box: Box, pal: Palette, rng: random.Random) -> None:
    x0, y0, x1, y1 = box
    base = ground(draw, box, hsv(0.11, 0.5, 0.85), 0.78)
    steps, width = 6, (x1 - x0) * 0.9
    cx = (x0 + x1) / 2 + rng.uniform(-6, 6)
    height = (base - y0) * 0.75 / steps
    for i in range(steps):
        w = width * (1 - i / (steps + 1))
        draw.rectangle(
            (cx - w / 2, base - (i + 1) * height, cx + w / 2, base - i * height), fill=pal.main, outline=(90, 70, 40)
        )


def pagoda(draw: ImageDraw.ImageDraw, box: Box, pal: Palette, rng: random.Random) -> None:
    x0, y0, x1, y1 = box
    base = ground(draw, box, (200, 190, 170), 0.8)
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


def skyscraper(draw: ImageDraw.ImageDraw, box: Box, pal: Palette, rng: random.Random) -> None:
    x0, y0, x1, y1 = box
    base = ground(draw, box, (90, 90, 95), 0.9)
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


def flag_raising(draw: ImageDraw.ImageDraw, box: Box, pal: Palette, rng: random.Random) -> None:
    x0, y0, x1, y1 = box
    base = ground(draw, box, pal.ground, 0.82)
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
