"""Ctrl-C for a long command, however it was started.

A command that a script starts in the background (`cmd &`) inherits an ignored SIGINT, and Python then
never raises KeyboardInterrupt: `kill -INT` would be ignored and a build would run on to its end. A command
that promises a clean stop on Ctrl-C takes SIGINT back for as long as it runs.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def ctrl_c_raises() -> Iterator[None]:
    """Within the block, SIGINT raises KeyboardInterrupt even where it was inherited as ignored."""
    if threading.current_thread() is not threading.main_thread():  # only the main thread may set handlers
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
