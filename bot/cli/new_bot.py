"""`rummy-vision new-bot PATH --template NAME`: write a starter bot file for the arena's editor."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from bot.cli.command_name import command_name
from bot.templates import TEMPLATES, template_source

NEXT_STEPS = {
    "random": "No keys needed.",
    "vision": "Set AZURE_VISION_ENDPOINT and AZURE_VISION_KEY (or paste them into the file for the arena's editor; "
    "never commit them). Free keys: AZURE_CALLS_PER_PERIOD=20, AZURE_PERIOD_SECONDS=60 (the default); "
    "standard keys: AZURE_PERIOD_SECONDS=1.",
    "customvision": "Set CUSTOM_VISION_PREDICTION_URL and CUSTOM_VISION_PREDICTION_KEY (or paste them into the file "
    "for the arena's editor; never commit them).",
    "strong": "Set AZURE_VISION_ENDPOINT and AZURE_VISION_KEY as for the vision template; without them every card "
    "is unknown and the search plays on hand sizes and points alone.",
}

# The variables `serve --vision` prints that each labelling template reads.
OFFLINE_VISION = {
    "vision": "AZURE_VISION_ENDPOINT, AZURE_VISION_KEY",
    "customvision": "CUSTOM_VISION_PREDICTION_URL, CUSTOM_VISION_PREDICTION_KEY",
    "strong": "AZURE_VISION_ENDPOINT, AZURE_VISION_KEY",
}


def register(app: typer.Typer) -> None:
    app.command(name="new-bot")(new_bot)


def new_bot(
    path: Annotated[Path, typer.Argument(help="The file to write, e.g. mybot.py.")],
    template: Annotated[
        str,
        typer.Option(
            "--template",
            "-t",
            help="Which starter: " + "; ".join(f"{name}: {text}" for name, text in TEMPLATES.items()) + ".",
        ),
    ] = "random",
    force: Annotated[bool, typer.Option("--force", help="Overwrite PATH if it exists.")] = False,
) -> None:
    """Write a starter bot that runs unchanged in the arena's editor (standard library + requests) and locally.

    Play it locally with `rummy-vision play --bot PATH`, or paste it into the arena's editor.
    """
    if template not in TEMPLATES:
        raise typer.BadParameter(f"unknown template {template!r}; choose one of {', '.join(TEMPLATES)}")
    if path.exists() and not force:
        typer.echo(f"{path} exists; pass --force to overwrite it", err=True)
        raise typer.Exit(1)
    if path.suffix != ".py":
        raise typer.BadParameter(f"{path} should end in .py (the bot runners load it as a Python file)")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(template_source(template), encoding="utf-8")
    except OSError as error:
        typer.echo(f"cannot write {path}: {error}", err=True)
        raise typer.Exit(1) from None

    typer.echo(f"Wrote the {template} template to {path}.")
    typer.echo(NEXT_STEPS[template])
    typer.echo(f"Play it locally: {command_name()} play --bot {path} --opponent housebot-practise")
    if template in OFFLINE_VISION:
        typer.echo(
            f"With labels but no key: start the referee with `{command_name()} serve --vision oracle` (or an error"
            " model: --vision harsh:0.1); it answers this bot's vision calls for its own cards and prints the"
            f" variables to set (endpoint and key: {OFFLINE_VISION[template]}) before `play --bot {path}`."
        )
