"""Starter bot files for the arena's editor, written out by `rummy-vision new-bot`.

Each template in `files/` is one self-contained Python file that uses only the standard library and
`requests` (what the arena's editor offers), so it runs unchanged there and locally with
`rummy-vision play --bot`. They are package data, not modules of this package.
"""

from __future__ import annotations

from importlib import resources

TEMPLATES: dict[str, str] = {
    "random": "random legal moves, no API keys (the arena editor's first template)",
    "vision": "Azure Computer Vision landmarks (cached by picture URL, rate-limited) and a greedy player",
    "customvision": "an Azure Custom Vision classifier's prediction URL and a greedy player",
    "strong": "Azure Computer Vision landmarks and an expectimax search over card counts (exact near the end)",
}


def template_source(name: str) -> str:
    """The text of template `name` (one of TEMPLATES)."""
    if name not in TEMPLATES:
        raise ValueError(f"unknown template {name!r}; choose one of {', '.join(TEMPLATES)}")
    return resources.files("bot.templates").joinpath("files", f"{name}.py").read_text(encoding="utf-8")
