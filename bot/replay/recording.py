"""Replay files: one JSON Lines file per match, written as the match goes.

Default directory: `platformdirs.user_data_dir("rummy-vision")/replays` (e.g.
`~/.local/share/rummy-vision/replays`); `play --record DIR` chooses another. File name:
`<UTC start, YYYYmmddTHHMMSSZ>-game<GameId>-<bot id>-vs-<opponent>.jsonl` (unsafe characters become `_`).

Format, version 1. Every line is one JSON object with `"type"` and `"t"` (Unix time, seconds, float); each
line's fields and their types are declared in rummy/messages.py (`HeaderLine`, `GamestateLine`, ...):

- `{"type": "header", "version": 1, "t", "game_id", "bot_id", "opponent_id", "bot", "recognizer",
  "base_url", "game_style_id", "move_time_ms"}` -- always the first line. `bot` is
  `"strategy:<name>"` or `"file:<path>"`; `recognizer` may be null; `move_time_ms` is from the game
  style when known, else null.
- `{"type": "gamestate", "t", "call", "result", "gamestate"}` -- a gamestate as received, unchanged
  (`call` is the protocol call that brought it: GM-OfferGame, GM-PollForGameState or GM-MakeMove;
  `result` its `Result`). A gamestate equal to the previous one recorded is not written again
  (long polls repeat the state while the opponent thinks).
- `{"type": "move", "t", "move", "source", "reason", "result", "applied", "error", "think_ms",
  "rtt_ms", "budget_ms", "attempts", "retried_after", "response_deadline", "labels", "remaining_rounds"}` -- one
  MakeMove sent:
  `move` as sent (e.g. `{"Give": 12}`); `source` `"bot"` (the bot's own move) or `"fallback"` (the
  client's safe move; `reason` says why, e.g. the bot overran, raised, returned garbage, or the
  server answered INVALID_MOVE); `result` the server's `Result`, or `"NO_ANSWER"` when the answer
  was lost (`error` says how); `applied` whether the server played the move (from the answer, or,
  when unclear, from the gamestate fetched right after); `think_ms` the bot's time (null for later
  sends of the turn); `rtt_ms` the round trip; `budget_ms` the time the bot had, counted from the
  gamestate's arrival; `attempts`/`retried_after` the call's retries; `response_deadline` the
  gamestate's ResponseDeadline (server epoch ms); `labels` the landmarks the bot's recognizer gave
  the cards in view for this turn (`{"<card id>": "<landmark>"}`; empty for a bot file, which labels
  cards itself, and in files written before it existed); `remaining_rounds` the RemainingRounds of the
  gamestate moved on, the round those labels belong to (the line may follow the next round's gamestate when
  the move's answer was lost and asked for). A turn may have several move lines (a refused
  move, then a fallback); exactly one of them has `applied` true unless the turn was lost.
- `{"type": "labels", "t", "remaining_rounds", "labels"}` -- the landmarks the bot's recognizer gave cards
  in view of a gamestate it did not move on (the opponent's turn, a round's deal when the opponent moves
  first), each card once: without them a card the opponent lays before the bot's next move would be
  named by no label. `remaining_rounds` is that gamestate's RemainingRounds (the round the card ids
  belong to: the line may come after later gamestates when a paid recognizer labels in the background).
  Absent from files written before it existed and from a bot file's (which labels cards itself).
- `{"type": "note", "t", "message"}` -- something worth knowing that is not a move (a resync, an error).
- `{"type": "end", "t", "game_id", "status", "my_score", "opp_score", "moves", "fallbacks",
  "duration_s"}` -- the last line of a finished match; `status` is the final GameStatus, or
  `"ABORTED"` when the client gave up (a `note` says why).

Secrets are never recorded: no password, no PlayerKey. Each line is written whole and flushed (one at a
time: labels may come from a background thread), so a crash leaves a readable prefix; `read_replay`
skips a torn last line. Labels that come after the end line, and any line after the recorder is
closed, are dropped.
"""

from __future__ import annotations

import json
import re
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from platformdirs import user_data_dir

# Reading the lines back is rummy's (the server reads files sent to the viewer): these names stay here too.
from rummy.rebuild import ReplayError
from rummy.replay_lines import FORMAT_VERSION, labels_by_round, parse_replay

__all__ = ["FORMAT_VERSION", "MatchRecorder", "ReplayError", "default_record_dir", "labels_by_round", "read_replay"]


def default_record_dir() -> Path:
    return Path(user_data_dir("rummy-vision")) / "replays"


def _safe(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text)[:60] or "_"


@dataclass
class MatchRecorder:
    """Appends the lines of one match; `None`-safe helpers let callers record unconditionally."""

    path: Path
    _file: IO[str]
    _last_state: str | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _ended: bool = False  # the end line is written: labels coming late from a background thread are dropped

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

    def labels(self, remaining_rounds: int, labels: dict[int, str]) -> None:
        """Landmarks of cards in view of a gamestate the bot did not move on (see the format above)."""
        if labels:
            named = {str(card_id): name for card_id, name in labels.items()}
            self._write({"type": "labels", "remaining_rounds": remaining_rounds, "labels": named}, before_end=True)

    def note(self, message: str) -> None:
        self._write({"type": "note", "message": message})

    def end(self, **fields: Any) -> None:
        self._write({"type": "end", **fields}, ends=True)

    def close(self) -> None:
        with self._lock:
            if not self._file.closed:
                self._file.close()

    def _write(self, record: dict[str, Any], *, before_end: bool = False, ends: bool = False) -> None:
        """Write one line; with `before_end`, only while the end line is not written yet."""
        line = json.dumps({"t": round(time.time(), 3), **record}, default=str)
        with self._lock:
            if self._file.closed or (before_end and self._ended):
                return
            self._file.write(line + "\n")
            self._file.flush()
            self._ended = self._ended or ends


def read_replay(path: str | Path) -> list[dict[str, Any]]:
    """The records of a replay file, in order; a torn (unterminated, undecodable) last line is skipped."""
    return parse_replay(Path(path).read_text(encoding="utf-8"), str(path))
