"""measurements/README.md lists the command behind every kind of stored result: each parses, every subcommand of
`rummy-vision measure` and of the recipes (`python tools/measure.py`) is there, and every file it names exists."""

from __future__ import annotations

import json
import re
import shlex

import pytest
import typer
from test_readme_commands import MEASUREMENTS_INDEX, _parse

from bot.cli import app
from tools.recipes.app import PROG
from tools.recipes.app import app as recipes_app

FOLDER = MEASUREMENTS_INDEX.parent


def _rows() -> list[tuple[str, str]]:
    """(command, what it writes) for every row of the index's command table."""
    text = MEASUREMENTS_INDEX.read_text()
    rows = re.findall(rf"^\| `((?:rummy-vision|{re.escape(PROG)}) [^`]+)` \| ([^|]+) \|", text, re.M)
    return [(command, writes.strip()) for command, writes in rows]


def _parse_recipe(args: list[str]) -> str:
    """Parse a recipe's command line like the script would, without running it."""
    root = typer.main.get_command(recipes_app)
    ctx = root.make_context(PROG, list(args))
    name, command, rest = root.resolve_command(ctx, [*getattr(ctx, "_protected_args", []), *ctx.args])
    command.make_context(name, rest, parent=ctx)
    return str(name)


def test_the_index_has_rows() -> None:
    assert len(_rows()) >= 20


@pytest.mark.parametrize("command", [command for command, _ in _rows()])
def test_each_command_parses(command: str) -> None:
    if command.startswith(PROG + " "):
        assert _parse_recipe(shlex.split(command)[2:])
    else:
        assert _parse(shlex.split(command)[1:])


def test_every_measure_subcommand_and_every_recipe_is_listed() -> None:
    measure = typer.main.get_command(app).commands["measure"]  # type: ignore[attr-defined]
    listed = {shlex.split(command)[2] for command, _ in _rows() if command.startswith("rummy-vision measure ")}
    assert set(measure.commands) == listed
    recipes = typer.main.get_command(recipes_app).commands  # type: ignore[attr-defined]
    assert set(recipes) == {shlex.split(command)[2] for command, _ in _rows() if command.startswith(PROG + " ")}


@pytest.mark.parametrize(("command", "writes"), [row for row in _rows() if row[1] != "(none stored)"])
def test_every_file_named_exists(command: str, writes: str) -> None:
    pattern = writes.strip("`")
    found = list((FOLDER.parent if "/" in pattern else FOLDER).glob(pattern))
    assert found, f"{command}: {writes} is not in the repository"


def test_no_stored_result_is_from_a_run_cut_short() -> None:
    """A run cut short (`measure noise-cost` stores its rows as they finish) says so; none is kept as a result."""
    cut = []
    for path in sorted(FOLDER.glob("*.json")):
        figures = json.loads(path.read_text(encoding="utf-8")).get("figures")
        if isinstance(figures, dict) and figures.get("unfinished"):
            cut.append(f"{path.name}: {figures['unfinished']}")
    assert not cut, "\n".join(cut)
