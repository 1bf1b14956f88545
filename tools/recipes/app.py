"""`python tools/measure.py NAME`: the recipes behind this repository's own figures, one Typer app.

The commands live in three modules (tables, play, serving), each on its own Typer; this app takes all of
theirs, so the subcommands stand side by side as `rummy-vision measure`'s do.
"""

from __future__ import annotations

import typer

from tools.recipes import cli_play, cli_serving, cli_tables

PROG = "python tools/measure.py"

# Named so that a test runner records the same command line as the script does.
app = typer.Typer(
    name=PROG,
    help="Recipes that reproduce this repository's figures (docs/, README.md); not installed. Each writes its "
    "result, with the repository's commit, to the repository's measurements/NAME.json (--out for another "
    "folder). A user's own bots and recognizers are measured by `rummy-vision measure`.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode="markdown",
)

for group in (cli_tables.recipes, cli_play.recipes, cli_serving.recipes):
    app.registered_commands += group.registered_commands


def main() -> None:
    # The recorded command line starts with this name, so a stored result says how to run it again.
    app(prog_name=PROG)
