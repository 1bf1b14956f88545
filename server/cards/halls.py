"""Scenes of wide buildings and things on water: facades, colonnades, domes, a bridge, sails, a ship."""

from __future__ import annotations

import random

from PIL import ImageDraw

from server.cards.drawing import Box, Palette, ground, hsv


def gothic(draw: ImageDraw.ImageDraw, box: Box, pal: Palette, rng: random.Random, dome: bool = False) -> None:
    x0, y0, x1, y1 = box
    base = ground(draw, box, pal.water if not dome else pal.ground, 0.82)
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


def colonnade(draw: ImageDraw.ImageDraw, box: Box, pal: Palette, rng: random.Random, variant: str = "gate") -> None:
    x0, y0, x1, y1 = box
    base = ground(draw, box, pal.water if variant == "fountain" else pal.ground, 0.8)
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


def dome(draw: ImageDraw.ImageDraw, box: Box, pal: Palette, rng: random.Random, variant: str = "mosque") -> None:
    x0, y0, x1, y1 = box
    level = {"water": 0.68, "hill": 0.6}.get(variant, 0.8)
    base = ground(draw, box, pal.water if variant == "water" else pal.ground, level)
    if variant == "basilica":
        for step in range(4):
            draw.rectangle(
                (x0 + 30 + step * 12, base - step * 6, x1 - 30 - step * 12, base - step * 6 + 6), fill=(200, 200, 195)
            )
        base -= 24
    if variant == "hill":
        draw.pieslice((x0 - 40, base - 60, x1 + 40, base + 120), 180, 360, fill=hsv(0.25, 0.45, 0.55))
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


def mission(draw: ImageDraw.ImageDraw, box: Box, pal: Palette, rng: random.Random) -> None:
    x0, y0, x1, y1 = box
    base = ground(draw, box, pal.ground, 0.82)
    stone = (220, 205, 170)
    cx = (x0 + x1) / 2
    draw.rectangle((x0 + 20, y0 + 100, x1 - 20, base), fill=stone, outline=(120, 100, 80))
    draw.chord((cx - 60, y0 + 50, cx + 60, y0 + 150), 180, 360, fill=stone, outline=(120, 100, 80))
    draw.chord((cx - 25, base - 90, cx + 25, base - 40), 180, 360, fill=(70, 50, 40))
    draw.rectangle((cx - 25, base - 65, cx + 25, base), fill=(70, 50, 40))
    for side in (-1, 1):
        draw.rectangle((cx + side * 60 - 6, y0 + 110, cx + side * 60 + 6, base - 10), fill=(190, 175, 145))


def wooden_row(draw: ImageDraw.ImageDraw, box: Box, pal: Palette, rng: random.Random) -> None:
    x0, y0, x1, y1 = box
    base = ground(draw, box, pal.water, 0.82)
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


def egg(draw: ImageDraw.ImageDraw, box: Box, pal: Palette, rng: random.Random) -> None:
    x0, y0, x1, y1 = box
    base = ground(draw, box, pal.water, 0.82)
    cx = (x0 + x1) / 2
    draw.ellipse((cx - 70, y0 + 40, cx + 85, base + 30), fill=(150, 190, 210), outline=(70, 90, 110), width=3)
    for i in range(8):
        y = y0 + 60 + i * 20
        draw.line((cx - 65, y, cx + 80, y - 8), fill=(70, 90, 110), width=2)


def bridge(draw: ImageDraw.ImageDraw, box: Box, pal: Palette, rng: random.Random) -> None:
    x0, y0, x1, y1 = box
    deck = y0 + (y1 - y0) * 0.55
    ground(draw, box, pal.water, 0.6)
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


def sails(draw: ImageDraw.ImageDraw, box: Box, pal: Palette, rng: random.Random, wings: bool = False) -> None:
    x0, y0, x1, y1 = box
    base = ground(draw, box, pal.water, 0.75)
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


def ship(draw: ImageDraw.ImageDraw, box: Box, pal: Palette, rng: random.Random) -> None:
    x0, y0, x1, y1 = box
    base = ground(draw, box, pal.water, 0.72)
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
