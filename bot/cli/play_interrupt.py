"""What Ctrl-C does while `rummy-vision play` runs.

While a game offer waits, Ctrl-C cancels it. In a match, the first Ctrl-C lets the match finish (leaving
would lose it on time) and says so; a second one quits at once.

A signal handler runs in the main thread between two bytecodes, possibly in the middle of the live
status's write to stderr: writing from the handler itself would re-enter that write and crash the
command ("reentrant call inside BufferedWriter"). So the handler never writes: a short-lived thread
prints its notice, waiting for the console's lock like any other writer.
"""

from __future__ import annotations

import threading
from typing import Any, Protocol

from rich.console import Console

FINISHING = "[yellow]Ctrl-C: finishing this match, then stopping (Ctrl-C again to quit now)[/]"


class HasPhase(Protocol):
    phase: str


class CtrlC:
    """The SIGINT handler of `play`: `interrupted` tells whether Ctrl-C was pressed at all."""

    def __init__(self, runner: HasPhase, stop: threading.Event, err: Console) -> None:
        self.runner = runner
        self.stop = stop
        self.err = err
        self.interrupted = threading.Event()
        self._notices: list[threading.Thread] = []

    def __call__(self, _signum: int, _frame: Any) -> None:
        self.interrupted.set()
        if self.runner.phase == "offering":  # the offer is in flight: stop as soon as its PlayerKey is known
            self.stop.set()
            return
        if self.runner.phase == "playing" and not self.stop.is_set():
            self.stop.set()
            self._say(FINISHING)
            return
        raise KeyboardInterrupt

    def _say(self, text: str) -> None:
        notice = threading.Thread(target=self.err.print, args=(text,), name="ctrl-c notice", daemon=True)
        self._notices.append(notice)
        notice.start()

    def flush(self, timeout_s: float = 5.0) -> None:
        """Wait for the notices still printing, so they come before the command's last lines."""
        for notice in self._notices:
            notice.join(timeout_s)
