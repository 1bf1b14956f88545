"""Every command's --help reads like a usual Typer/Rich CLI: TEXT/INTEGER types, flags without a type, A B usage."""

from __future__ import annotations

import re

import typer
from typer.testing import CliRunner

from bot.cli import app

runner = CliRunner()


def _command_paths() -> list[list[str]]:
    root = typer.main.get_command(app)
    paths: list[list[str]] = [[]]
    for name, command in root.commands.items():  # type: ignore[attr-defined]
        paths.append([name])
        for sub in getattr(command, "commands", {}):
            paths.append([name, sub])
    return paths


def test_help_shows_usual_types_and_usage() -> None:
    paths = _command_paths()
    assert ["match"] in paths and ["bots", "add"] in paths
    for path in paths:
        result = runner.invoke(app, [*path, "--help"], terminal_width=100)
        assert result.exit_code == 0, (path, result.output)
        text = result.output
        assert not re.search(r"<(bool|str|int|float|path)[^>]*>", text), (path, text)
        usage = next(line for line in text.splitlines() if "Usage:" in line)
        assert "{" not in usage, (path, usage)
    match_help = runner.invoke(app, ["match", "--help"], terminal_width=100).output
    assert "Usage: rummy-vision match [OPTIONS] A B" in match_help
    assert re.search(r"--duplicate\s+Play each deal", match_help)  # a flag has no type column


def test_help_reflows_docstring_paragraphs_to_the_terminal_width() -> None:
    # Docstrings wrap at the source's width; help must not keep those line breaks (ragged text).
    text = runner.invoke(app, ["match", "--help"], terminal_width=100).output
    assert not any(line.strip().endswith("only the times") for line in text.splitlines()), text
    assert "IMAGES/LANDMARK/*" in runner.invoke(app, ["serve", "--help"], terminal_width=100).output
