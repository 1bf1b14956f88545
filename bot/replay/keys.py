"""Single keypresses from a terminal, without Enter: for stepping through a replay.

`KeyReader(fd)` puts the terminal in cbreak mode (keys arrive one by one, Ctrl-C still interrupts)
while it is entered and restores it afterwards. Arrow, Home and End keys arrive as
escape sequences; they are read whole and named ("right", "home", ...). Other keys are their text.
"""

from __future__ import annotations

import os
import select
import termios
import tty
from typing import Any

# The sequences terminals send for the keys we use (xterm, VT100 application mode, the Linux console).
SEQUENCES = {
    "\x1b[A": "up",
    "\x1b[B": "down",
    "\x1b[C": "right",
    "\x1b[D": "left",
    "\x1bOA": "up",
    "\x1bOB": "down",
    "\x1bOC": "right",
    "\x1bOD": "left",
    "\x1b[H": "home",
    "\x1b[F": "end",
    "\x1bOH": "home",
    "\x1bOF": "end",
    "\x1b[1~": "home",
    "\x1b[4~": "end",
    "\x1b[7~": "home",
    "\x1b[8~": "end",
    "\x1b[5~": "pageup",
    "\x1b[6~": "pagedown",
}
ESCAPE_WAIT_S = 0.05  # the rest of an escape sequence arrives at once; a lone Esc is followed by nothing


class KeyReader:
    """Single keys from the terminal `fd`: cbreak mode from `__enter__` to `__exit__`.

    Enter it before the first screen is drawn, so a key pressed as soon as the screen shows is not
    caught (and echoed, then flushed) by the terminal's line editing.
    """

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self._saved: list[Any] | None = None

    def __enter__(self) -> KeyReader:
        self._saved = termios.tcgetattr(self.fd)
        tty.setcbreak(self.fd, termios.TCSANOW)  # TCSANOW: keep keys typed ahead
        return self

    def __exit__(self, *_exc: object) -> None:
        if self._saved is not None:
            termios.tcsetattr(self.fd, termios.TCSADRAIN, self._saved)

    def read(self) -> str | None:
        """The next key, or None at the end of input."""
        return _read_key(self.fd)


def _read_key(fd: int) -> str | None:
    first = os.read(fd, 1)
    if not first:
        return None
    if first != b"\x1b":
        return _decode(first, fd)
    sequence = first
    while select.select([fd], [], [], ESCAPE_WAIT_S)[0]:
        sequence += os.read(fd, 1)
        text = sequence.decode("ascii", "replace")
        if text in SEQUENCES:
            return SEQUENCES[text]
        if len(sequence) >= 6:
            break
    text = sequence.decode("ascii", "replace")
    return "escape" if text == "\x1b" else text


def _decode(first: bytes, fd: int) -> str:
    """One character, reading the rest of a multi-byte UTF-8 character if it started one."""
    data = first
    while True:
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            if len(data) >= 4:
                return data.decode("utf-8", "replace")
            data += os.read(fd, 1)
