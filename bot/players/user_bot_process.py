"""A user's bot file running in its own process, one process per match, guarded by a time budget.

The process executes the file once (its module globals live for the whole match, as on the arena) and
answers one gamestate at a time. The parent only waits on a pipe, so it answers in time whatever the
bot does: hold the GIL in one long C call, sleep, exit, print, or return a value that cannot be sent.
A call that overruns is not interrupted: the bot keeps its state, the turn gets a safe move, and the
late answer is dropped when it comes. When the match ends the process is stopped (killed if needed).

`warm()` starts the process early (while an offer waits for an opponent), so that slow import-time code
runs before the first deadline; if it is still loading when a move is due, a safe move goes out.

What the bot prints goes through a pipe the client drains in a thread: the first MAX_BOT_OUTPUT bytes
per match are copied to the client's stderr, the rest is dropped, so a bot printing without end can
neither flood the terminal nor block the client. Answers are read from their pipe without blocking,
within the move's deadline, and a length header past MAX_ANSWER_BYTES (a bot writing into the pipe
itself) ends the bot's process. The process leads its own process group, and stopping it stops the
whole group: children the bot started do not outlive the match.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import secrets
import select
import signal
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from bot.players.bot_descendants import MARK_VARIABLE, bot_descendants
from bot.players.deadline import BotOutcome, Budget, check_move
from bot.players.faults import Fault
from rummy import bounded_json
from rummy.moves import MalformedMove

WORKER = Path(__file__).with_name("user_bot_worker.py")
STOP_WAIT_S = 0.5
MAX_BOT_OUTPUT = 16 * 1024  # bytes of a bot's prints shown per match
MAX_ANSWER_BYTES = 1 << 20  # an answer is a move and at most a fault report with its traceback


class BotProcessError(RuntimeError):
    """The bot file could not be loaded (syntax error, exception at import, no calculate_move)."""


class BrokenPipeProtocol(Exception):
    """The answer pipe carries something no worker sends (a bot wrote into it)."""


class AnswerReader:
    """Messages framed as multiprocessing.Connection frames them (a 4-byte big-endian length, then the
    bytes), read without ever blocking past a timeout, and never longer than `max_bytes`."""

    def __init__(self, fd: int, max_bytes: int = MAX_ANSWER_BYTES) -> None:
        self.fd = fd
        self.max_bytes = max_bytes
        self._buffer = bytearray()
        os.set_blocking(fd, False)

    def read(self, timeout_s: float | None) -> bytes | None:
        """One whole message, or None when none completed within `timeout_s` (None: wait for one).
        EOFError when the pipe is closed; BrokenPipeProtocol for a frame no worker sends."""
        deadline = None if timeout_s is None else time.monotonic() + timeout_s
        while True:
            message = self._take()
            if message is not None:
                return message
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            ready, _, _ = select.select([self.fd], [], [], left)
            if not ready:
                return None
            try:
                chunk = os.read(self.fd, 1 << 16)
            except BlockingIOError:
                continue
            if not chunk:
                raise EOFError
            self._buffer += chunk

    def _take(self) -> bytes | None:
        if len(self._buffer) < 4:
            return None
        (size,) = struct.unpack("!i", self._buffer[:4])
        if not 0 <= size <= self.max_bytes:
            raise BrokenPipeProtocol(f"an answer of {size} bytes announced (at most {self.max_bytes} are taken)")
        if len(self._buffer) < 4 + size:
            return None
        message = bytes(self._buffer[4 : 4 + size])
        del self._buffer[: 4 + size]
        return message

    def close(self) -> None:
        with contextlib.suppress(OSError):
            os.close(self.fd)


def forward_output(source: io.BufferedReader, limit: int = MAX_BOT_OUTPUT) -> None:
    """Copy the first `limit` bytes of a bot's output to our stderr, drain and drop the rest."""
    shown = 0
    target = getattr(sys.stderr, "buffer", None)
    with source:
        while chunk := source.read1(1 << 16):
            if shown >= limit:
                continue
            part = chunk[: limit - shown]
            shown += len(chunk)
            with contextlib.suppress(
                Exception
            ):  # our stderr closed or odd: the bot's prints are not ours to lose a move for
                if target is not None:
                    target.write(part)
                    target.flush()
                else:
                    sys.stderr.write(part.decode(errors="replace"))
                if shown > limit:
                    note = f"\n[the bot printed more than {limit // 1024} KB; the rest of its output is dropped]\n"
                    sys.stderr.write(note)


OUTPUT_COPIED_S = 2.0  # at most, for a pipe that a process outside our reach still holds open


class UserBotProcess:
    """One match of a user's bot file: `run(gamestate, budget)` gives a checked move or says why not."""

    def __init__(self, path: Path) -> None:
        self.path = path = path.expanduser().resolve()
        read_requests, write_requests = os.pipe()
        read_answers, write_answers = os.pipe()
        # -P: the worker's own folder (bot/) must not shadow the standard library for the user's imports
        args = [sys.executable, "-P", "-X", "utf8", str(WORKER), str(read_requests), str(write_answers), str(path)]
        # Every process the bot starts inherits this mark, even one that starts its own session (os.setsid)
        # and so leaves the process group: close() finds and stops those too (bot.players.bot_descendants).
        self._mark = f"{MARK_VARIABLE}={secrets.token_hex(12)}"
        self._process = subprocess.Popen(
            args,
            env={**os.environ, MARK_VARIABLE: self._mark.split("=", 1)[1]},
            pass_fds=(read_requests, write_answers),
            stdin=subprocess.DEVNULL,
            stderr=subprocess.PIPE,  # the worker sends its stdout there too
            cwd=str(path.parent),
            start_new_session=True,  # its own process group: stopped whole, children included
        )
        os.close(read_requests)
        os.close(write_answers)
        assert self._process.stderr is not None
        self._output = threading.Thread(
            target=forward_output, args=(self._process.stderr,), name="bot-output", daemon=True
        )
        self._output.start()
        self._requests = Connection(write_requests, readable=False)
        self._answers = AnswerReader(read_answers)
        self._loaded = False
        self._load_error: str | None = None
        self._seq = 0
        self._waiting_for: int | None = None  # the seq of a request still being worked on (or loading)
        self._exited = False  # the pipe closed: the process is gone (os._exit, a crash, killed)

    # --- lifecycle ----------------------------------------------------------------------------

    def wait_loaded(self, timeout_s: float | None = None) -> bool:
        """Wait until the module is loaded; False if still loading. Raises BotProcessError if it failed."""
        if not self._loaded and self._load_error is None:
            self._take_answers(timeout_s)
        if self._load_error is not None:
            raise BotProcessError(self._load_error)
        return self._loaded

    def labels(self) -> dict[int, str]:
        """A bot file labels cards itself; its replays show card ids."""
        return {}

    def cards_unknown(self) -> tuple[int, int]:
        """A bot file labels cards itself: nothing of ours was asked."""
        return 0, 0

    def unknown_reasons(self) -> dict[str, int]:
        return {}

    def label_view(self, gamestate: dict[str, Any], record: Callable[[dict[int, str]], None] | None) -> None:
        """A bot file labels cards itself: there is nothing of ours to record."""

    def close(self) -> None:
        self._requests.close()
        self._answers.close()
        process = self._process
        # Found before any signal: the worker (a subreaper) still holds every descendant under it.
        strays = bot_descendants(process.pid, self._mark)
        if process.poll() is None:
            self._signal_group(signal.SIGTERM)  # a bot busy in a long C call does not see a closed pipe
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(STOP_WAIT_S)
        self._signal_group(signal.SIGKILL)  # whatever is left of the group: the bot's own children too
        # Children that left the group (os.setsid) and orphans adopted by init: by descent or by the mark.
        for pid in strays | bot_descendants(process.pid, self._mark):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        process.wait()
        # The bot's last prints are copied to our stderr before the match is reported (the copier is a
        # daemon thread: a command that ends right after would cut them off).
        self._output.join(OUTPUT_COPIED_S)

    def _signal_group(self, signal_number: int) -> None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self._process.pid, signal_number)

    def __enter__(self) -> UserBotProcess:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # --- moves --------------------------------------------------------------------------------

    def run(self, gamestate: dict[str, Any], budget: Budget) -> BotOutcome:
        started = time.monotonic()
        if self._load_error is not None:
            return BotOutcome(None, f"the bot could not start: {self._load_error}", 0.0)
        self._take_answers(0.0)
        if not self._loaded:
            self._take_answers(0.0)
        if self._waiting_for is not None:
            still = "loading its file" if not self._loaded else "busy with an earlier move it overran"
            return BotOutcome(None, f"the bot is still {still}", 0.0)
        if self._exited or self._process.poll() is not None:
            return BotOutcome(None, f"the bot's process has exited ({self._exit_code()})", 0.0)
        self._seq += 1
        seq = self._seq
        try:
            self._requests.send_bytes(json.dumps({"seq": seq, "gamestate": gamestate}).encode())
        except OSError as error:
            return BotOutcome(None, f"the bot's process is gone ({error})", 0.0)
        self._waiting_for = seq
        answer = self._take_answers(max(0.0, budget.left()), until_seq=seq)
        think = time.monotonic() - started
        if answer is None:
            if self._load_error is not None:
                return BotOutcome(None, f"the bot could not start: {self._load_error}", think)
            if not self._loaded:
                return BotOutcome(None, f"the bot file was still loading after {think * 1000:.0f} ms", think)
            if self._exited:
                return BotOutcome(None, f"the bot's process exited ({self._exit_code()})", think)
            return BotOutcome(None, f"calculate_move overran its budget of {think * 1000:.0f} ms", think)
        text, problem = answer.get("move"), str(answer.get("problem") or "")
        think = float(answer.get("think_s") or think)
        sent_log = answer.get("log")
        log = sent_log if isinstance(sent_log, str) else ""
        if text is None:
            sent = answer.get("fault")
            fault = Fault.from_json(sent) if isinstance(sent, dict) else None
            return BotOutcome(None, problem or "calculate_move gave no move", think, None, fault, log)
        try:
            raw = bounded_json.loads(text)
            move = check_move(raw, gamestate)
        except (ValueError, RecursionError, MalformedMove) as error:
            problem = f"calculate_move returned an unusable move ({error}): {_short(text)}"
            return BotOutcome(None, problem, think, text, log=log)
        return BotOutcome(move, "", think, raw, log=log)

    def _exit_code(self) -> str:
        try:
            return f"code {self._process.wait(0.1)}"
        except subprocess.TimeoutExpired:  # it closed its pipe but runs on: it is stopped at the match's end
            return "its pipe was closed"

    def _take_answers(self, timeout_s: float | None, until_seq: int | None = None) -> dict[str, Any] | None:
        """Read what the process has sent within `timeout_s`; the answer to `until_seq` if it came."""
        deadline = None if timeout_s is None else time.monotonic() + timeout_s
        while True:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            try:
                raw = self._answers.read(left)
                if raw is None:
                    return None
                message: dict[str, Any] = bounded_json.loads(raw)
            except (EOFError, OSError, BrokenPipeProtocol, ValueError) as error:
                self._waiting_for = None
                self._exited = True
                if isinstance(error, BrokenPipeProtocol | ValueError):
                    self._signal_group(signal.SIGKILL)  # it wrote into its answer pipe: nothing it sends can be read
                    self._process.wait()
                if not self._loaded and self._load_error is None:
                    self._load_error = f"the bot's process exited while loading ({self._exit_code()})"
                return None
            if not isinstance(message, dict):
                continue
            if "loaded" in message:
                self._loaded = True
                if until_seq is None and self._waiting_for is None:
                    return message
            elif "load_error" in message:
                self._load_error = str(message["load_error"])
                self._waiting_for = None
                return None
            elif message.get("seq") == self._waiting_for:
                self._waiting_for = None
                if until_seq is not None and message["seq"] == until_seq:
                    return message
                # a late answer to a turn that already got a safe move: dropped


def _short(text: str, limit: int = 120) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."
