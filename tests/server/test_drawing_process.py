"""Card pictures under `serve` are drawn in a process of their own (issue 41: beside GIL-holding searches a
picture waited at every Pillow step), drawn the same as in a thread, and that process never outlives its server."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from concurrent.futures.process import BrokenProcessPool

import pytest

from server.cards import drawing_process
from server.cards.render import card_bytes, small_webp_pair


@pytest.fixture
def started() -> Iterator[None]:
    drawing_process.start()
    try:
        yield
    finally:
        drawing_process.stop()


def test_without_serve_the_calling_thread_draws() -> None:
    assert drawing_process.drawn(os.getpid) == os.getpid()
    assert drawing_process._pool is None


def test_under_serve_cards_are_drawn_in_another_process_and_the_same(started: None) -> None:
    assert drawing_process.drawn(os.getpid) != os.getpid()
    assert drawing_process.drawn(card_bytes, "giralda", "7", False, True) == card_bytes("giralda", "7", False, True)
    assert drawing_process.drawn(small_webp_pair, "big ben", "3", False) == small_webp_pair("big ben", "3", False)


def test_after_stop_the_thread_draws_again(started: None) -> None:
    drawing_process.stop()
    assert drawing_process.drawn(os.getpid) == os.getpid()


def test_an_unusable_process_falls_back_to_the_thread(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    class Broken:
        def submit(self, *_args: object) -> object:
            raise BrokenProcessPool("the drawing process died")

        def shutdown(self, **_kwargs: object) -> None:
            pass

    monkeypatch.setattr(drawing_process, "_pool", Broken())
    monkeypatch.setattr(drawing_process, "_broken", False)
    assert drawing_process.drawn(os.getpid) == os.getpid()
    assert drawing_process._broken and "unusable" in caplog.text
    assert drawing_process.drawn(os.getpid) == os.getpid()  # and stays in the thread, without retrying


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as stat:
        return stat.read().split(")")[-1].split()[0] != "Z"


def test_the_drawing_process_exits_when_its_server_is_killed() -> None:
    # A server that exits without shutting its pool down (as `kill`, or the exit after a stuck shutdown).
    server = textwrap.dedent(
        """
        import os, sys
        from server.cards import drawing_process
        drawing_process.start()
        print(drawing_process.drawn(os.getpid), flush=True)
        os._exit(0)
        """
    )
    done = subprocess.run([sys.executable, "-c", server], capture_output=True, text=True, timeout=300, check=True)
    child = int(done.stdout.split()[-1])
    gone_by = time.monotonic() + 60  # a bound on behaviour (it polls its parent each second), not a speed
    while _alive(child) and time.monotonic() < gone_by:
        time.sleep(0.2)
    assert not _alive(child)
