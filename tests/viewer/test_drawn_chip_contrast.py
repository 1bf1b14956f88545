"""The viewer's "drew #id landmark" chip is readable: its text and its pill's background (the `.note` pill's
unless its own) have at least WCAG's 4.5:1 contrast for normal text."""

from __future__ import annotations

import re
from pathlib import Path

CSS = Path(__file__).resolve().parents[2] / "server" / "viewer" / "viewer.css"


def _rule(css: str, selector: str) -> dict[str, str]:
    found = re.search(rf"(?m)^{re.escape(selector)}\s*\{{([^}}]*)\}}", css)
    assert found, selector
    return {
        key.strip(): value.strip()
        for key, _, value in (part.partition(":") for part in found[1].split(";"))
        if key.strip()
    }


def _luminance(colour: str) -> float:
    digits = colour.lstrip("#")
    channels = [int(digits[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(first: str, second: str) -> float:
    high, low = sorted((_luminance(first), _luminance(second)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_the_drawn_chip_is_readable() -> None:
    css = CSS.read_text()
    pill, drawn = _rule(css, ".note"), _rule(css, ".note.drawn")
    background = drawn.get("background", pill.get("background"))
    colour = drawn.get("color", pill.get("color", "#1d2428"))
    assert background and colour and contrast(colour, background) >= 4.5, (colour, background)
