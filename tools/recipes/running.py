"""How a recipe runs: as a product measurement (bot/cli/measuring.py), but kept in the repository's
`measurements/` with the repository's commit, whatever directory `python tools/measure.py` runs in."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer

from bot.cli.measuring import measure_run
from tools.recipes.record import MEASUREMENTS, REPOSITORY

OUT_HELP = "Folder for the result file (default: the repository's measurements/, which the docs cite)."
OutOption = Annotated[Path, typer.Option(help=OUT_HELP)]

__all__ = ["MEASUREMENTS", "OutOption", "run_recipe"]


def run_recipe(
    ctx: typer.Context,
    name: str,
    work: Callable[[], Any],
    *,
    seeds: Any,
    settings: dict[str, Any],
    out: Path,
    save: bool,
    refused: tuple[type[Exception], ...] = (),
) -> Any:
    """Time `work` and store its figures in OUT/NAME.json with the repository's commit (bot.cli.measuring)."""
    return measure_run(
        ctx, name, work, seeds=seeds, settings=settings, out=out, save=save, refused=refused, checkout=REPOSITORY
    )
