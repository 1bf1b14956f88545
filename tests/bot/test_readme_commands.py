"""Every `rummy-vision ...` line of the shell blocks of the README and the docs/ pages names a real command with
options it accepts, and the --recognizer help of every command lists every recognizer form."""

from __future__ import annotations

import re
import shlex

import pytest
import typer
from doc_pages import REPO, bash_blocks, commands
from typer.testing import CliRunner

from bot.cli import app
from recognizers.registry import NAMES

MEASUREMENTS_INDEX = REPO / "measurements" / "README.md"


def _readme_commands() -> list[str]:
    """The commands of the README's and the docs pages' shell blocks, in reading order, each once."""
    return commands()


def _parse(args: list[str]) -> str:
    """Parse like the CLI would, without running: raises click's UsageError for an unknown command or option."""
    root = typer.main.get_command(app)
    ctx = root.make_context("rummy-vision", list(args))
    name, command, rest = root.resolve_command(ctx, [*getattr(ctx, "_protected_args", []), *ctx.args])
    while hasattr(command, "resolve_command"):
        ctx = command.make_context(name, rest, parent=ctx)
        name, command, rest = command.resolve_command(ctx, [*getattr(ctx, "_protected_args", []), *ctx.args])
    command.make_context(name, rest, parent=ctx)
    return str(name)


def test_the_readme_shows_the_main_commands() -> None:
    used = {shlex.split(command)[1] for command in _readme_commands()}
    assert {"match", "play", "serve", "bots", "tournament", "replay", "selfplay"} <= used


@pytest.mark.parametrize("command", _readme_commands())
def test_readme_command_parses(command: str) -> None:
    args = shlex.split(command.replace("...", "secret"))[1:]
    if "--help" in args:
        shown = CliRunner().invoke(app, args)
        assert shown.exit_code == 0 and "Usage:" in shown.output, shown.output
        return
    assert _parse(args)


@pytest.mark.parametrize("command", ["play", "match", "tournament", "recognize"])
def test_recognizer_help_lists_every_form(command: str) -> None:
    text = " ".join(CliRunner().invoke(app, [command, "--help"], terminal_width=400).output.split())
    for form in NAMES:
        assert form in text, (command, form)


def test_every_python_module_and_test_file_the_docs_run_exists() -> None:
    """The pages' shell blocks and the measurements' index name modules and benchmark files that exist."""
    import importlib.util

    text = "\n".join(bash_blocks()) + MEASUREMENTS_INDEX.read_text(encoding="utf-8")
    modules = {name for name in re.findall(r"python -m ([\w.]+)", text)}
    files = set(re.findall(r"\b(tests/[\w/]+\.py)\b", text))
    assert modules and files, "expected the benchmarks' pytest lines"
    missing = sorted(name for name in modules if importlib.util.find_spec(name) is None)
    missing += sorted(name for name in files if not (REPO / name).is_file())
    assert not missing, f"the docs run modules or files that do not exist: {missing}"
