"""The child process that runs a user's bot file: `python user_bot_worker.py READ_FD WRITE_FD BOT_FILE`.

Standard library only, and run as a script (not through the package), so the process starts fast and
whatever the user's code does (hold the GIL, print, exit, return any object) the parent stays in time.
The module is executed once; its globals live for as long as the process: one match.

Messages are JSON over the two pipes. The parent sends {"seq": N, "gamestate": {...}}. The child
answers {"loaded": true} or {"load_error": "..."} once, then per request
{"seq": N, "move": <JSON text or null>, "problem": "...", "think_s": T, "log": "..."}: the move is the
returned value as JSON text (through its to_json() if it has one), or null with `problem` saying what was
wrong; `log` is what the bot printed while choosing it (the arena's editor shows it per move), its first
MAX_MOVE_LOG characters and a line saying how much was cut. The prints also go on to stderr as they come.
"""

from __future__ import annotations

import contextlib
import ctypes
import importlib.util
import json
import os
import signal
import sys
import threading
import time
import traceback
from multiprocessing.connection import Connection
from typing import Any

MAX_MOVE_CHARS = 4096  # a real move is a few dozen characters
MAX_MOVE_LOG = 4096  # characters of a bot's prints kept with each move
MAX_SHOWN = 120
BOT_NICENESS = 5


def safe_repr(value: Any) -> str:
    """repr() that survives anything: a raising __repr__, ints too long for str(), huge containers."""
    try:
        text = repr(value)
    except BaseException as error:  # noqa: BLE001 -- user code may raise anything, even SystemExit
        try:
            kind = type(value).__name__
        except BaseException:  # noqa: BLE001
            kind = "object"
        return f"<{kind} object whose repr() raised {type(error).__name__}>"
    return text if len(text) <= MAX_SHOWN else text[: MAX_SHOWN - 3] + "..."


def describe_error(error: BaseException) -> str:
    try:
        message = str(error)
    except BaseException:  # noqa: BLE001
        message = "<str() of the exception raised too>"
    if len(message) > MAX_SHOWN:
        message = message[: MAX_SHOWN - 3] + "..."
    return f"{type(error).__name__}: {message}" if message else type(error).__name__


def move_text(raw: Any) -> tuple[str | None, str]:
    """(the returned value as JSON text, "") or (None, why it cannot be sent)."""
    if raw is None:
        return None, "calculate_move returned None"
    try:
        to_json = getattr(raw, "to_json", None)
        if callable(to_json):
            raw = to_json()
    except BaseException as error:  # noqa: BLE001
        return None, f"calculate_move returned {safe_repr(raw)}, whose to_json() raised {describe_error(error)}"
    try:
        text = json.dumps(raw, allow_nan=False)
    except BaseException as error:  # noqa: BLE001 -- TypeError, ValueError (NaN, huge int), RecursionError
        return None, f"calculate_move returned a value that is not JSON ({describe_error(error)}): {safe_repr(raw)}"
    if len(text) > MAX_MOVE_CHARS:
        return None, f"calculate_move returned {len(text)} characters of JSON, far more than a move: {safe_repr(raw)}"
    return text, ""


class MoveLog:
    """What the bot prints during one calculate_move call, at most MAX_MOVE_LOG characters of it."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._parts: list[str] | None = None
        self._size = 0
        self._cut = 0

    def start(self) -> None:
        with self._lock:
            self._parts, self._size, self._cut = [], 0, 0

    def add(self, text: str) -> None:
        with self._lock:
            if self._parts is None:
                return
            kept = text[: max(0, MAX_MOVE_LOG - self._size)]
            self._parts.append(kept)
            self._size += len(kept)
            self._cut += len(text) - len(kept)

    def take(self) -> str:
        with self._lock:
            text = "".join(self._parts or ())
            if self._cut:
                text += f"\n[{self._cut} more characters cut: a move keeps the first {MAX_MOVE_LOG} of its log]"
            self._parts = None
            return text


class Tee:
    """A text stream that writes on to `live` and adds what is written to the move's log."""

    def __init__(self, live: Any, log: MoveLog) -> None:
        self._live = live
        self._log = log

    def write(self, text: Any) -> int:
        if isinstance(text, str):
            self._log.add(text)
        with contextlib.suppress(Exception):  # a closed stderr must not cost the move
            self._live.write(text)
            # Line by line, as the arena's editor shows them: a block-buffered pipe held a match's prints until
            # the worker exited, and a worker stopped at the match's end lost them (the README walk saw none).
            if isinstance(text, str) and "\n" in text:
                self._live.flush()
        return len(text) if isinstance(text, str) else 0

    def flush(self) -> None:
        with contextlib.suppress(Exception):
            self._live.flush()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._live, name)


def load(path: str) -> Any:
    spec = importlib.util.spec_from_file_location("rummy_vision_user_bot", path)
    if spec is None or spec.loader is None:
        raise ImportError(f"{path} cannot be loaded as a module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses and pickling look the module up by name
    spec.loader.exec_module(module)
    calculate_move = getattr(module, "calculate_move", None)
    if not callable(calculate_move):
        raise LookupError(f"bot file {path} does not define calculate_move(gamestate)")
    return calculate_move


def user_traceback(error: BaseException, path: str) -> str:
    """Where in the user's file it went wrong: the last frame in that file, as `line N`."""
    lines = [frame.lineno for frame in traceback.extract_tb(error.__traceback__) if frame.filename == path]
    return f" at line {lines[-1]} of {os.path.basename(path)}" if lines else ""


def become_subreaper() -> None:
    """Linux: orphans among the bot's descendants (a double fork, a child that started its own session and
    lost its parent) are adopted by this process, not by init, so the parent still finds them under it
    when the match ends (user_bot_process)."""
    if sys.platform != "linux":
        return
    with contextlib.suppress(OSError, AttributeError):
        pr_set_child_subreaper = 36
        ctypes.CDLL(None, use_errno=True).prctl(pr_set_child_subreaper, 1, 0, 0, 0)


def main(argv: list[str]) -> int:
    read_fd, write_fd, path = int(argv[1]), int(argv[2]), argv[3]
    requests, answers = Connection(read_fd, writable=False), Connection(write_fd, readable=False)
    os.dup2(2, 1)  # the bot's prints go to stderr: stdout may carry the tool's JSON output
    become_subreaper()
    # Ctrl-C in a terminal reaches the whole process group: the parent decides when this process stops.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # When the bot and the client compete for a busy CPU, the client must win: it sends the safe moves.
    with contextlib.suppress(OSError, AttributeError):  # not everywhere (Windows has no nice)
        os.nice(BOT_NICENESS)
    sys.path.insert(0, os.path.dirname(path))  # as for a script: the bot may import its neighbours
    move_log = MoveLog()
    sys.stdout, sys.stderr = Tee(sys.stdout, move_log), Tee(sys.stderr, move_log)
    try:
        calculate_move = load(path)
    except BaseException as error:  # noqa: BLE001
        if isinstance(error, SyntaxError):
            problem = f"bot file {path} has a syntax error at line {error.lineno}: {error.msg}"
        elif isinstance(error, LookupError) and "calculate_move" in str(error):
            problem = str(error)
        else:
            problem = f"bot file {path} failed while loading: {describe_error(error)}{user_traceback(error, path)}"
        answers.send_bytes(json.dumps({"load_error": problem}).encode())
        return 1
    answers.send_bytes(b'{"loaded": true}')
    while True:
        try:
            request = json.loads(requests.recv_bytes())
        except (EOFError, OSError):
            return 0  # the parent closed the pipe: the match is over
        started = time.perf_counter()
        move_log.start()
        try:
            raw = calculate_move(request["gamestate"])
        except BaseException as error:  # noqa: BLE001 -- SystemExit and KeyboardInterrupt included
            text = None
            problem = f"calculate_move raised {describe_error(error)}{user_traceback(error, path)}"
            fault = _fault_of(error, path)
        else:
            text, problem = move_text(raw)
            fault = None
        think_s = time.perf_counter() - started
        log = move_log.take()
        answer = {"seq": request["seq"], "move": text, "problem": problem, "think_s": think_s, "fault": fault}
        if log:
            answer["log"] = log
        answers.send_bytes(json.dumps(answer).encode())


def _fault_of(error: BaseException, path: str) -> dict[str, str] | None:
    """The exception as the client's fault report wants it (traceback into the user's file), or None."""
    try:
        faults = sys.modules.get("_rummy_faults")  # loaded once per process: a crashing bot raises every move
        if faults is None:
            faults_file = os.path.join(os.path.dirname(__file__), "faults.py")
            spec = importlib.util.spec_from_file_location("_rummy_faults", faults_file)
            assert spec is not None and spec.loader is not None
            faults = importlib.util.module_from_spec(spec)
            sys.modules["_rummy_faults"] = faults  # dataclasses look their module up while the class is built
            spec.loader.exec_module(faults)
        report: dict[str, str] = faults.fault_from_exception(error, user_file=path).to_json()
        return report
    except Exception:  # noqa: BLE001 -- a fault report must never cost the move
        sys.modules.pop("_rummy_faults", None)  # a half-loaded module is not kept: the next fault tries again
        return None


if __name__ == "__main__":
    sys.exit(main(sys.argv))
