"""Replay files: one JSON Lines file per match, written as the match goes.

Default directory: `platformdirs.user_data_dir("rummy-vision")/replays` (e.g.
`~/.local/share/rummy-vision/replays`); `play --record DIR` chooses another. File name:
`<UTC start, YYYYmmddTHHMMSSZ>-game<GameId>-<bot id>-vs-<opponent>.jsonl` (unsafe characters become `_`).

Format, version 1. Every line is one JSON object with `"type"` and `"t"` (Unix time, seconds, float):

- `{"type": "header", "version": 1, "t", "game_id", "bot_id", "opponent_id", "bot", "recognizer",
  "base_url", "game_style_id", "move_time_ms"}` -- always the first line. `bot` is
  `"strategy:<name>"` or `"file:<path>"`; `recognizer` may be null; `move_time_ms` is from the game
  style when known, else null.
- `{"type": "gamestate", "t", "call", "result", "gamestate"}` -- a gamestate as received, unchanged
  (`call` is the protocol call that brought it: GM-OfferGame, GM-PollForGameState or GM-MakeMove;
  `result` its `Result`). A gamestate equal to the previous one recorded is not written again
  (long polls repeat the state while the opponent thinks).
- `{"type": "move", "t", "move", "source", "reason", "result", "applied", "error", "think_ms",
  "rtt_ms", "budget_ms", "attempts", "retried_after", "response_deadline"}` -- one MakeMove sent:
  `move` as sent (e.g. `{"Give": 12}`); `source` `"bot"` (the bot's own move) or `"fallback"` (the
  client's safe move; `reason` says why, e.g. the bot overran, raised, returned garbage, or the
  server answered INVALID_MOVE); `result` the server's `Result`, or `"NO_ANSWER"` when the answer
  was lost (`error` says how); `applied` whether the server played the move (from the answer, or,
  when unclear, from the gamestate fetched right after); `think_ms` the bot's time (null for later
  sends of the turn); `rtt_ms` the round trip; `budget_ms` the time the bot had, counted from the
  gamestate's arrival; `attempts`/`retried_after` the call's retries; `response_deadline` the
  gamestate's ResponseDeadline (server epoch ms). A turn may have several move lines (a refused
  move, then a fallback); exactly one of them has `applied` true unless the turn was lost.
- `{"type": "note", "t", "message"}` -- something worth knowing that is not a move (a resync, an error).
- `{"type": "end", "t", "game_id", "status", "my_score", "opp_score", "moves", "fallbacks",
  "duration_s"}` -- the last line of a finished match; `status` is the final GameStatus, or
  `"ABORTED"` when the client gave up (a `note` says why).

Secrets are never recorded: no password, no PlayerKey. Each line is written whole and flushed, so a
crash leaves a readable prefix; `read_replay` skips a torn last line.
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

FORMAT_VERSION = 1


def default_record_dir() -> Path:
    from platformdirs import user_data_dir

    return Path(user_data_dir("rummy-vision")) / "replays"


def _safe(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text)[:60] or "_"


@dataclass
class MatchRecorder:
    """Appends the lines of one match; `None`-safe helpers let callers record unconditionally."""

    path: Path
    _file: IO[str]
    _last_state: str | None = None

    @classmethod
    def open(cls, directory: Path, header: dict[str, Any]) -> MatchRecorder:
        directory.mkdir(parents=True, exist_ok=True)
        stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
        players = f"{_safe(str(header.get('bot_id')))}-vs-{_safe(str(header.get('opponent_id')))}"
        stem = f"{stamp}-game{header.get('game_id')}-{players}"
        path = directory / f"{stem}.jsonl"
        serial = 1
        while path.exists():
            serial += 1
            path = directory / f"{stem}-{serial}.jsonl"
        recorder = cls(path, path.open("x", encoding="utf-8"))
        recorder._write({"type": "header", "version": FORMAT_VERSION, **header})
        return recorder

    def gamestate(self, call: str, result: str, gamestate: dict[str, Any]) -> None:
        encoded = json.dumps(gamestate, sort_keys=True)
        if encoded == self._last_state:
            return
        self._last_state = encoded
        self._write({"type": "gamestate", "call": call, "result": result, "gamestate": gamestate})

    def move(self, **fields: Any) -> None:
        self._write({"type": "move", **fields})

    def note(self, message: str) -> None:
        self._write({"type": "note", "message": message})

    def end(self, **fields: Any) -> None:
        self._write({"type": "end", **fields})

    def close(self) -> None:
        if not self._file.closed:
            self._file.close()

    def _write(self, record: dict[str, Any]) -> None:
        line = json.dumps({"t": round(time.time(), 3), **record}, default=str)
        self._file.write(line + "\n")
        self._file.flush()


class ReplayError(ValueError):
    """A replay file that cannot be read; the message names the file and line."""


def read_replay(path: str | Path) -> list[dict[str, Any]]:
    """The records of a replay file, in order; a torn (unterminated, undecodable) last line is skipped."""
    path = Path(path)
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    records: list[dict[str, Any]] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except ValueError as error:
            if number == len(lines):  # the last line had no newline: the writer died mid-line
                break
            raise ReplayError(f"{path}:{number}: not JSON: {error}") from None
        if not isinstance(record, dict) or "type" not in record:
            raise ReplayError(f"{path}:{number}: a replay line is a JSON object with a 'type'")
        records.append(record)
    if not records or records[0]["type"] != "header":
        raise ReplayError(f"{path}: the first line must be the header")
    if records[0].get("version") != FORMAT_VERSION:
        raise ReplayError(f"{path}: replay format version {records[0].get('version')!r}, expected {FORMAT_VERSION}")
    return records
