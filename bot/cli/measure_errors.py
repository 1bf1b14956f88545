"""`rummy-vision measure recognizer-errors SPEC`: how a recognizer errs, as the belief needs to know it."""

# Imports inside functions: the recognizers load only when the command runs, so `rummy-vision --help` stays quick.

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer

from bot.cli.measuring import NAME_HELP, SaveOption, emit, measure_run
from bot.measure.record import DEFAULT_FOLDER


def recognizer_errors(
    ctx: typer.Context,
    spec: str = typer.Argument(
        ..., metavar="RECOGNIZER", help="As in --recognizer, over the oracle (harsh:0.2, mine.py, ...)."
    ),
    rounds: int | None = typer.Option(
        None, min=1, help="Simulated rounds the model is fitted on, 40 cards each (default 500; with --photos 25)."
    ),
    check_rounds: int | None = typer.Option(
        None, min=1, help="Other rounds the fitted model is checked on (default as --rounds)."
    ),
    photos: Path | None = typer.Option(
        None,
        help="A folder per landmark of labelled photos (as serve --images reads): each card shows one of them, "
        "served on loopback, so azure, customvision or local can be measured. Every card is one question to the "
        "recognizer (a paid call unless cached).",
    ),
    model_out: Path | None = typer.Option(
        None, help="Write the fitted model here (JSON); play with it as --recognizer errors:FILE.json:RECOGNIZER."
    ),
    name: str | None = typer.Option(None, help=NAME_HELP),
    out: Path = typer.Option(DEFAULT_FOLDER, help="Folder for the result file."),
    save: SaveOption = True,
) -> None:
    """How RECOGNIZER errs, measured on simulated rounds whose landmarks are known: how often its top name is
    right by confidence, how often the truth is its runner-up, how often it gives no answer; checked on other
    rounds against the assumed model. With --model-out, the model the belief can read it with."""
    from bot.measure.recognizer_errors import CHECK_SEED, FIT_SEED, PHOTO_ROUNDS, ROUNDS, NothingToMeasure, measure

    _check(spec, photos)
    rounds = rounds or (PHOTO_ROUNDS if photos else ROUNDS)
    check_rounds = check_rounds or rounds
    if photos is not None:
        emit(f"asking {spec} about {40 * (rounds + check_rounds)} cards showing photos from {photos}")
    about = {"recognizer": spec, "rounds": rounds, "deal_seeds": f"{FIT_SEED}:0..{rounds - 1}"}
    about |= {"photos": str(photos)} if photos else {}

    def work() -> Any:
        measured = measure(spec, rounds, check_rounds, _progress, photos)
        for line in measured.lines():
            emit(line)
        if model_out is not None:
            _write_model(model_out, measured.model, about, spec)
        return measured.figures()

    seeds = {"fit": f"{FIT_SEED}:0..{rounds - 1}", "check": f"{CHECK_SEED}:0..{check_rounds - 1}"}
    slug = "".join(ch if ch.isalnum() or ch in ".-" else "-" for ch in spec)
    settings = {"recognizer": spec, "rounds": rounds, "check_rounds": check_rounds} | (
        {"photos": str(photos)} if photos else {}
    )
    name = name or f"recognizer-errors-{slug}"
    measure_run(ctx, name, work, seeds=seeds, settings=settings, out=out, save=save, refused=(NothingToMeasure,))


def _check(spec: str, photos: Path | None) -> None:
    """Refuse, before any work, a recognizer that cannot be built and a photo folder that is none."""
    from recognizers.registry import get_recognizer

    try:
        get_recognizer(spec, source={})
    except (ValueError, OSError) as error:
        raise typer.BadParameter(str(error), param_hint="RECOGNIZER") from None
    if photos is not None and not photos.is_dir():
        raise typer.BadParameter(f"{photos} is no folder", param_hint="--photos")


def _progress(label: str, total: int) -> Any:
    step = max(1, total // 5)
    return lambda done: emit(f"{label}: {done}/{total} rounds") if done % step == 0 or done == total else None


def _write_model(path: Path, model: Any, about: dict[str, Any], spec: str) -> None:
    from recognizers.error_file import model_json

    path.write_text(json.dumps(model_json(model, about), indent=2) + "\n", encoding="utf-8")
    emit(f"model written to {path}: play with --recognizer errors:{path}:{spec}")


def add_to(app: typer.Typer) -> None:
    app.command("recognizer-errors")(recognizer_errors)
