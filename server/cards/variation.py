"""One 'photo' of a drawn scene: viewpoint, crop, light, colour, focus and sensor noise vary per card.

Arena cards are different photographs of the same landmark. The ranges here are wide enough that
no two cards share pixels and a recognizer has to generalise from a few examples, and narrow enough
that the scene's layout and its landmark's palette still tell it apart from the other 31.
"""

from __future__ import annotations

import random

import numpy as np
from PIL import Image, ImageEnhance, ImageFilter

BORDER_FILL = (235, 235, 235)


def photograph(scene: Image.Image, rng: random.Random) -> Image.Image:
    """A varied photo of `scene` at the same size; every choice comes from `rng`."""
    width, height = scene.size
    image = _viewpoint(scene, rng)
    image = image.rotate(rng.uniform(-6, 6), resample=Image.Resampling.BICUBIC, fillcolor=BORDER_FILL)
    image = _crop(image, rng)
    image = ImageEnhance.Color(image).enhance(rng.uniform(0.85, 1.15))
    image = ImageEnhance.Contrast(image).enhance(rng.uniform(0.85, 1.15))
    image = image.filter(ImageFilter.GaussianBlur(rng.uniform(0.0, 1.0)))
    pixels = np.asarray(image, dtype=np.float32)
    pixels = pixels * _side_light(width, height, rng)[:, :, None]
    noise = np.random.default_rng(rng.getrandbits(32)).normal(0.0, rng.uniform(2.0, 7.0), pixels.shape)
    return Image.fromarray(np.clip(pixels + noise, 0, 255).astype(np.uint8), "RGB")


def _viewpoint(image: Image.Image, rng: random.Random) -> Image.Image:
    """A slightly different camera position: each corner of the picture moves by up to 5%."""
    width, height = image.size
    corners: list[tuple[float, float]] = [(0, 0), (width, 0), (width, height), (0, height)]
    moved = [(x + rng.uniform(-0.05, 0.05) * width, y + rng.uniform(-0.05, 0.05) * height) for x, y in corners]
    coefficients = _perspective_coefficients(corners, moved)
    return image.transform(
        image.size, Image.Transform.PERSPECTIVE, coefficients, Image.Resampling.BICUBIC, fillcolor=BORDER_FILL
    )


def _perspective_coefficients(
    target: list[tuple[float, float]], source: list[tuple[float, float]]
) -> tuple[float, ...]:
    """PIL's 8 perspective coefficients mapping output points `target` to input points `source`."""
    rows = []
    for (x, y), (u, v) in zip(target, source, strict=True):
        rows.append([x, y, 1, 0, 0, 0, -u * x, -u * y])
        rows.append([0, 0, 0, x, y, 1, -v * x, -v * y])
    solution = np.linalg.solve(np.array(rows, dtype=np.float64), np.array(source, dtype=np.float64).reshape(8))
    return tuple(float(value) for value in solution)


def _crop(image: Image.Image, rng: random.Random) -> Image.Image:
    """Framing: 80-95% of the picture, anywhere in it, scaled back to full size."""
    width, height = image.size
    zoom = rng.uniform(0.8, 0.95)
    w, h = width * zoom, height * zoom
    left, top = rng.uniform(0, width - w), rng.uniform(0, height - h)
    box = (round(left), round(top), round(left + w), round(top + h))
    return image.crop(box).resize((width, height), Image.Resampling.BICUBIC)


def _side_light(width: int, height: int, rng: random.Random) -> np.ndarray:
    """Light falling from one side: a gain from `low` to `high` along a random direction."""
    angle = rng.uniform(0, 2 * np.pi)
    low, high = sorted((rng.uniform(0.85, 1.0), rng.uniform(0.95, 1.1)))
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    along = (xs / width - 0.5) * np.cos(angle) + (ys / height - 0.5) * np.sin(angle)
    span = float(np.abs(np.cos(angle)) + np.abs(np.sin(angle)))
    result: np.ndarray = low + (high - low) * (along / span + 0.5)
    return result
