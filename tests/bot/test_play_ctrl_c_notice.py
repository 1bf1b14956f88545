"""Ctrl-C in the middle of the live status's write to stderr: the notice waits for that write to end.

A signal handler runs between two bytecodes of the main thread, so Ctrl-C can land inside a write to
stderr. A handler that wrote to stderr itself then re-entered that write: a fresh-clone CI run saw
`play --forever` end with "RuntimeError: reentrant call inside <_io.BufferedWriter name='<stderr>'>"
instead of finishing its match. Here the handler is called from inside a write, as the signal would.
"""

from __future__ import annotations

import io
import threading

import pytest
from rich.console import Console

from bot.cli.play_interrupt import CtrlC


class Phase:
    def __init__(self, phase: str) -> None:
        self.phase = phase


class StderrInterruptedMidWrite(io.StringIO):
    """Refuses a write that starts inside another one in the same thread, as BufferedWriter does; the
    first write delivers Ctrl-C to `handler` before it completes."""

    def __init__(self) -> None:
        super().__init__()
        self.handler: CtrlC | None = None
        self._writing: set[int] = set()

    def write(self, text: str) -> int:
        me = threading.get_ident()
        if me in self._writing:
            raise RuntimeError("reentrant call inside <_io.BufferedWriter name='<stderr>'>")
        self._writing.add(me)
        try:
            handler, self.handler = self.handler, None
            if handler is not None:
                handler(2, None)  # SIGINT arrives while this write is under way
            return super().write(text)
        finally:
            self._writing.discard(me)


def test_ctrl_c_during_a_write_lets_the_match_finish_and_prints_its_notice_after_the_write() -> None:
    stderr = StderrInterruptedMidWrite()
    err = Console(file=stderr, force_terminal=False, width=200)
    stop = threading.Event()
    ctrl_c = CtrlC(Phase("playing"), stop, err)
    stderr.handler = ctrl_c
    err.print("match 1: game 7, move 3")  # the live status, interrupted mid-write
    ctrl_c.flush()
    said = stderr.getvalue()
    assert stop.is_set() and ctrl_c.interrupted.is_set()
    assert said.index("match 1: game 7, move 3") < said.index("finishing this match")


def test_a_second_ctrl_c_quits_at_once_and_one_during_an_offer_only_stops() -> None:
    err = Console(file=io.StringIO(), width=200)
    stop = threading.Event()
    runner = Phase("offering")
    ctrl_c = CtrlC(runner, stop, err)
    ctrl_c(2, None)
    assert stop.is_set() and err.file.getvalue() == ""  # type: ignore[attr-defined]
    runner.phase = "playing"  # the offer was taken and the match runs: stop is already set
    with pytest.raises(KeyboardInterrupt):
        ctrl_c(2, None)
