"""`rummy-vision recognizers train-customvision DIR|--from-gallery`: train and publish a Custom Vision classifier."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Annotated

import typer

# Imports inside functions: the CLI registers these commands at every start; what they run (the Custom
# Vision training SDK, the gallery with numpy and PIL) loads when one runs.

TRAINING_KEY_ENV = "CUSTOM_VISION_TRAINING_KEY"
TRAINING_ENDPOINT_ENV = "CUSTOM_VISION_TRAINING_ENDPOINT"


def register(app: typer.Typer) -> None:
    app.command(name="train-customvision")(train_customvision)


def train_customvision(
    folder: Annotated[
        Path | None, typer.Argument(help="Labelled pictures: one subfolder per landmark, named like it.")
    ] = None,
    *,
    prediction_resource_id: Annotated[
        str, typer.Option(help="The Azure resource id of your Custom Vision prediction resource (to publish to).")
    ],
    project: Annotated[str, typer.Option(help="Name of the new Custom Vision project.")] = "rummy-vision landmarks",
    publish_name: Annotated[str, typer.Option(help="Name the trained iteration is published under.")] = "landmarks",
    endpoint: Annotated[
        str | None, typer.Option(help=f"Training endpoint (default: env {TRAINING_ENDPOINT_ENV}).")
    ] = None,
    from_gallery: Annotated[
        bool, typer.Option("--from-gallery", help="Train on the local gallery's pictures instead of DIR.")
    ] = False,
    gallery: Annotated[
        Path | None, typer.Option(help="Gallery file for --from-gallery (default: beside the label cache).")
    ] = None,
) -> None:
    """Create a Classification (Multiclass, General) project, upload the pictures with a tag per landmark,
    train it and publish the iteration; print the prediction URL for `customvision` and the starter bot.

    The training key comes from the environment variable CUSTOM_VISION_TRAINING_KEY (never an option, so it
    stays out of shell history).
    """
    from recognizers.customvision_training import CustomVisionTrainer, TrainingError, export_by_tag

    url = endpoint or os.environ.get(TRAINING_ENDPOINT_ENV, "")
    key = os.environ.get(TRAINING_KEY_ENV, "")
    if not url or not key:
        typer.echo(f"error: set {TRAINING_KEY_ENV} and --endpoint (or {TRAINING_ENDPOINT_ENV})", err=True)
        raise typer.Exit(2)
    if (folder is None) == (not from_gallery):
        typer.echo("error: give a folder of labelled pictures or --from-gallery (one of the two)", err=True)
        raise typer.Exit(2)
    try:
        with tempfile.TemporaryDirectory(prefix="rummy-vision-gallery-") as scratch:
            pictures = export_by_tag(folder) if folder is not None else _gallery_pictures(gallery, Path(scratch))
            trainer = CustomVisionTrainer(url, key)
            published = trainer.train_and_publish(
                pictures,
                project_name=project,
                publish_name=publish_name,
                prediction_resource_id=prediction_resource_id,
                progress=lambda message: typer.echo(message, err=True),
            )
    except TrainingError as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(1) from None
    typer.echo(f"Trained on {published.pictures} pictures of {len(published.tags)} landmarks.")
    typer.echo(f"CUSTOM_VISION_PREDICTION_URL={published.prediction_url}")
    typer.echo("Set CUSTOM_VISION_PREDICTION_KEY to the prediction resource's key, then use --recognizer customvision.")


def _gallery_pictures(gallery: Path | None, folder: Path) -> dict[str, list[Path]]:
    """The gallery's pictures by tag, exported into `folder` (which must outlive the upload)."""
    from recognizers.customvision_training import export_by_tag
    from recognizers.gallery import Gallery

    store = Gallery(gallery)
    try:
        exported = store.export_pictures(folder)
    finally:
        store.close()
    typer.echo(f"from the gallery: {exported.describe()}", err=True)
    return export_by_tag(folder)
