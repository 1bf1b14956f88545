"""Choosing a game style from GM-GetListOfGameStyles and reading its move time."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.client.protocol_client import Answer


class StyleError(ValueError):
    """No usable game style; the message lists what the server offers."""


@dataclass(frozen=True)
class ChosenStyle:
    style_id: int
    move_time_s: float | None
    rounds: int | None
    stake: Any = None


def move_time_ms(info: Any) -> int | None:
    """The move time in GameTypeSpecificInfo: the local server's `MoveTimeMs`, or any numeric key naming a time."""
    if not isinstance(info, dict):
        return None
    for key, value in info.items():
        name = key.lower().replace(" ", "").replace("_", "")
        if ("time" in name or "timeout" in name) and isinstance(value, int | float) and not isinstance(value, bool):
            return int(value)
    return None


def choose_style(answer: Answer, wanted: int | None) -> ChosenStyle:
    styles = [style for style in answer.body.get("GameStyles") or [] if isinstance(style, dict)]
    if wanted is None:
        free = [style for style in styles if not style.get("Stake")]
        if not (free or styles):
            raise StyleError("the server lists no game styles")
        if len({style.get("GameType") for style in styles}) > 1:
            raise StyleError(f"the server hosts several game types; pick one with --game-style: {_listing(styles)}")
        style = (free or styles)[0]
    else:
        matching = [style for style in styles if style.get("GameStyleId") == wanted]
        if not matching:
            raise StyleError(f"game style {wanted} is not offered; the server lists {_listing(styles)}")
        style = matching[0]
    info = style.get("GameTypeSpecificInfo")
    time_ms = move_time_ms(info)
    rounds = info.get("Rounds") if isinstance(info, dict) else None
    return ChosenStyle(
        style_id=int(style["GameStyleId"]),
        move_time_s=None if time_ms is None else time_ms / 1000,
        rounds=rounds if isinstance(rounds, int) else None,
        stake=style.get("Stake"),
    )


def _listing(styles: list[dict[str, Any]]) -> str:
    return (
        "; ".join(
            f"{style.get('GameStyleId')} (type {style.get('GameType')}, stake {style.get('Stake')}, "
            f"{style.get('GameTypeSpecificInfo')})"
            for style in styles
        )
        or "nothing"
    )
