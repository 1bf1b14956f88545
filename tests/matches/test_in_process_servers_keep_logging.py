"""A command that serves over HTTP inside the process (the card host of a bot-file match, play-human's own
referee) must not point the process's loggers at the streams it happened to run under: under a test runner
those streams are closed once the command returns, and every later server warning then fails on them."""

from __future__ import annotations

import gc
import logging
from pathlib import Path

from typer.testing import CliRunner

from bot.cli import app
from server.embedded import EmbeddedServer
from server.settings import Settings

ROOT = Path(__file__).resolve().parents[2]


def _handlers_on_closed_streams() -> list[str]:
    loggers = [logging.getLogger(), *(logging.getLogger(name) for name in list(logging.root.manager.loggerDict))]
    return [
        f"{logger.name}: {handler!r}"
        for logger in loggers
        for handler in logger.handlers
        if isinstance(handler, logging.StreamHandler) and getattr(handler.stream, "closed", False)
    ]


def test_a_bot_file_match_leaves_no_logger_on_the_runners_closed_stream(capsys) -> None:
    bot = ROOT / "bot" / "templates" / "files" / "random.py"
    result = CliRunner().invoke(app, ["match", str(bot), "greedy", "--rounds", "1", "--no-record"])
    assert result.exit_code == 0, result.output
    del result
    gc.collect()  # the runner's streams are closed when it is collected
    assert _handlers_on_closed_streams() == []
    logging.getLogger("uvicorn.error").warning("a server warning after the command returned")
    assert "Logging error" not in capsys.readouterr().err


def test_an_embedded_referee_started_under_a_runner_leaves_no_logger_on_its_stream(tmp_path) -> None:
    def start_and_stop() -> None:
        with EmbeddedServer(Settings(db_path=tmp_path / "r.sqlite3")):
            pass

    # Run inside a runner's isolation, as `play-human` starts its own referee.
    with CliRunner().isolation():
        start_and_stop()
    gc.collect()
    assert _handlers_on_closed_streams() == []
