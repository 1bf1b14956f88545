"""The lines of a bot client's replay file, read from its text (the format is in bot/replay/recording.py).

Here, not in bot/, because the server reads replay files too (a file sent to the viewer): parsing the
text and collecting the recognizer's labels need nothing but the text.
"""

from __future__ import annotations

from typing import Any

from rummy import bounded_json
from rummy.rebuild import ReplayError

FORMAT_VERSION = 1


def parse_replay(text: str, name: str) -> list[dict[str, Any]]:
    """The records of a replay file's text, in order; a torn (unterminated, undecodable) last line is skipped.
    `name` (the file's path or name) starts every error message, with the line number."""
    lines = text.split("\n")
    records: list[dict[str, Any]] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            record = bounded_json.loads(line)
        except ValueError as error:
            if number == len(lines):  # the last line had no newline: the writer died mid-line
                break
            raise ReplayError(f"{name}:{number}: not JSON: {error}") from None
        if not isinstance(record, dict) or "type" not in record:
            raise ReplayError(f"{name}:{number}: a replay line is a JSON object with a 'type'")
        records.append(record)
    if not records or records[0]["type"] != "header":
        raise ReplayError(f"{name}: the first line must be the header")
    if records[0].get("version") != FORMAT_VERSION:
        raise ReplayError(f"{name}: replay format version {records[0].get('version')!r}, expected {FORMAT_VERSION}")
    return records


def labels_by_round(lines: list[dict[str, Any]]) -> dict[int, dict[int, str]]:
    """{RemainingRounds of a round: {card id: landmark}} from every label the file holds: those recorded
    with the bot's moves and those of gamestates it did not move on (card ids are fresh each round)."""
    labels: dict[int, dict[int, str]] = {}
    current: int | None = None
    for line in lines:
        kind = line.get("type")
        if kind == "gamestate":
            current = int(line["gamestate"].get("RemainingRounds", 0))
        elif kind in ("move", "labels"):
            round_key = line.get("remaining_rounds", current)
            if round_key is None:
                continue
            for card_id, name in (line.get("labels") or {}).items():
                labels.setdefault(int(round_key), {})[int(card_id)] = str(name)
    return labels
