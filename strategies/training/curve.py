"""The learning curve as CSV and as a PNG plot drawn with Pillow (already a dependency).

Two panels share the x axis (episodes of training): the win rate against the fixed opponent with
its 95% interval, and the mean regret in points against the exact values of the fixed positions.
"""

from __future__ import annotations

import csv
import math
from collections.abc import Sequence
from dataclasses import asdict, fields
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from strategies.training.learner import CurvePoint

WIDTH, HEIGHT = 900, 640
LEFT, RIGHT, TOP, GAP, BOTTOM = 80, 30, 50, 70, 60
INK, GRID, WIN, BAND, REGRET = (30, 30, 30), (225, 225, 225), (31, 119, 180), (198, 219, 239), (214, 39, 40)


def write_csv(points: Sequence[CurvePoint], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=[item.name for item in fields(CurvePoint)])
        writer.writeheader()
        for point in points:
            writer.writerow(
                {key: round(value, 4) if isinstance(value, float) else value for key, value in asdict(point).items()}
            )


def _ticks(low: float, high: float, count: int = 5) -> list[float]:
    """About `count` round tick values (1, 2, 2.5 or 5 times a power of ten apart) covering [low, high]."""
    if high <= low:
        return [low]
    raw = (high - low) / count
    power = 10.0 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw)
    first = math.ceil(low / step)
    return [round(index * step, 9) for index in range(first, int(math.floor(high / step)) + 1)]


def plot(points: Sequence[CurvePoint], path: Path, *, opponent: str, title: str = "") -> None:
    """Draw the curve; needs at least one point."""
    if not points:
        raise ValueError("no curve points to plot")
    image = Image.new("RGB", (WIDTH, HEIGHT), "white")
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default(size=14)
    small = ImageFont.load_default(size=12)
    panel = (HEIGHT - TOP - GAP - BOTTOM) / 2
    x_max = max(1, max(point.episodes for point in points))
    x_ticks = _ticks(0, x_max)

    def x_of(episodes: float) -> float:
        return LEFT + (WIDTH - LEFT - RIGHT) * episodes / x_max

    def panel_axes(top: float, low: float, high: float, label: str, y_ticks: Sequence[float], fmt: str) -> None:
        bottom = top + panel
        for tick in y_ticks:
            y = bottom - panel * (tick - low) / (high - low)
            draw.line([(LEFT, y), (WIDTH - RIGHT, y)], fill=GRID)
            draw.text((LEFT - 8, y), format(tick, fmt), fill=INK, font=small, anchor="rm")
        for tick in x_ticks:
            x = x_of(tick)
            draw.line([(x, top), (x, bottom)], fill=GRID)
            draw.text((x, bottom + 6), f"{tick:g}", fill=INK, font=small, anchor="mt")
        draw.rectangle([(LEFT, top), (WIDTH - RIGHT, bottom)], outline=INK)
        draw.text((LEFT, top - 8), label, fill=INK, font=font, anchor="lb")

    def y_in(top: float, low: float, high: float, value: float) -> float:
        return top + panel - panel * (min(high, max(low, value)) - low) / (high - low)

    # Win rate panel, with the 95% interval as a band and 50% marked.
    top: float = TOP
    panel_axes(top, 0.0, 1.0, f"win rate against {opponent} (95% interval)", [0, 0.25, 0.5, 0.75, 1.0], ".2f")
    band = [(x_of(p.episodes), y_in(top, 0, 1, p.win_high)) for p in points] + [
        (x_of(p.episodes), y_in(top, 0, 1, p.win_low)) for p in reversed(points)
    ]
    if len(points) > 1:
        draw.polygon(band, fill=BAND)
    draw.line([(LEFT, y_in(top, 0, 1, 0.5)), (WIDTH - RIGHT, y_in(top, 0, 1, 0.5))], fill=INK, width=1)
    _series(draw, [(x_of(p.episodes), y_in(top, 0, 1, p.win_rate)) for p in points], WIN)

    # Regret panel.
    top = TOP + panel + GAP
    high = max(max(p.mean_regret for p in points), 0.5) * 1.1
    panel_axes(top, 0.0, high, "mean regret against exact values (points per decision)", _ticks(0, high), "g")
    _series(draw, [(x_of(p.episodes), y_in(top, 0, high, p.mean_regret)) for p in points], REGRET)
    draw.text((WIDTH / 2, HEIGHT - 18), "episodes of self-play", fill=INK, font=font, anchor="mm")
    if title:
        draw.text((WIDTH / 2, 16), title, fill=INK, font=font, anchor="mm")
    path.parent.mkdir(parents=True, exist_ok=True)
    image.save(path, format="PNG")


def _series(draw: ImageDraw.ImageDraw, xy: list[tuple[float, float]], colour: tuple[int, int, int]) -> None:
    if len(xy) > 1:
        draw.line(xy, fill=colour, width=2)
    for x, y in xy:
        draw.ellipse([(x - 3, y - 3), (x + 3, y + 3)], fill=colour)
