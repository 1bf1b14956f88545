"""`rummy-vision recognize URL... [--recognizer NAME] [--json]`."""

# Imports inside functions: each command loads its own work when it runs, so that `rummy-vision --help`
# and the other commands start without loading the search, the server, the recognizers and numba.

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from recognizers.registry import names_help

TIER_HELP = (
    "Azure tier: free (20 calls a minute, 5,000 a month), standard (20 a second) or a rate like 10/s; one "
    "limit shared by all your processes and matches, Custom Vision too (default: RUMMY_VISION_AZURE_TIER, else "
    "tier in the config file's [azure], else free, with a warning)."
)


def register(app: typer.Typer) -> None:
    from bot.cli.gallery import app as gallery_app
    from recognizers.customvision_commands import register as register_training

    app.command()(recognize)
    register_training(gallery_app)  # recognizers train-customvision
    app.add_typer(gallery_app, name="recognizers")


def recognize(
    urls: Annotated[list[str], typer.Argument(help="Card image URLs (or paths, for the stub).")],
    recognizer: Annotated[str, typer.Option("--recognizer", "-r", help=names_help())] = "stub",
    cache: Annotated[Path | None, typer.Option(help="SQLite label cache (default: the user cache dir).")] = None,
    config: Annotated[Path | None, typer.Option(help="TOML config file with endpoints and keys.")] = None,
    base_url: Annotated[
        str | None, typer.Option(help="oracle: the local server's base URL, with or without /prod/.")
    ] = None,
    game_id: Annotated[int | None, typer.Option(help="oracle: the match's GameId.")] = None,
    tier: Annotated[str | None, typer.Option(help=TIER_HELP)] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")] = False,
) -> None:
    """Label card images with catalog landmarks and print each label with its confidence."""

    from recognizers.registry import get_recognizer
    from rummy.catalog import DEFAULT_CATALOG
    from rummy.labels import checked_answers, recognize_within

    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    # The numbers given to the cards below are not the gamestate's card ids: the oracle matches by URL.
    options: dict[str, object] = {"base_url": base_url, "game_id": game_id}
    if cache is not None:
        options["cache"] = str(cache)
    if config is not None:
        options["config"] = str(config)
    if tier is not None:
        options["tier"] = tier
    try:
        chosen = get_recognizer(recognizer, **options)
    except ValueError as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(2) from None
    cards = list(enumerate(urls, start=1))
    try:
        # Checked as play reads an answer: a skipped card, a name outside the catalog or a bad confidence is shown
        # unknown with the reason, where a user's file made this command crash or print a wrong label.
        labels = checked_answers(chosen, recognize_within(chosen, cards, DEFAULT_CATALOG, None), cards, DEFAULT_CATALOG)
    except (Exception, SystemExit) as error:  # noqa: BLE001 - a user's recognizer may raise (or exit) anything
        did = f"exited (SystemExit {error.code!r})" if isinstance(error, SystemExit) else f"raised {error!r}"
        typer.echo(f"error: recognizer {chosen.name} {did}", err=True)
        raise typer.Exit(1) from None
    if as_json:
        rows = [
            {"url": url, "landmark": labels[i].landmark, "confidence": labels[i].confidence, "reason": labels[i].reason}
            for i, url in cards
        ]
        typer.echo(json.dumps(rows, indent=1))
        return
    table = Table(title=f"Recognizer {chosen.name}")
    for column in ("url", "landmark", "confidence", "reason"):
        table.add_column(column)
    for i, url in cards:
        label = labels[i]
        table.add_row(url, label.landmark or "unknown", f"{label.confidence:.2f}", label.reason)
    Console().print(table)
