"""`rummy-vision recognizers import DIR`, `export DIR`, `list`, `forget` and `stats`: the local recognizer's gallery."""

# Imports inside functions: each command loads its own work when it runs, so that `rummy-vision --help`
# and the other commands start without loading the search, the server, the recognizers and numba.

from __future__ import annotations

import datetime
import hashlib
import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

PICTURE_SUFFIXES = {".jpg", ".jpeg", ".png", ".webp", ".gif", ".bmp"}

app = typer.Typer(
    help="The `local` recognizer's gallery of labelled pictures: import pictures, show what it knows.",
    no_args_is_help=True,
)

GalleryOption = Annotated[
    Path | None,
    typer.Option(help="Gallery file (default: gallery.sqlite3 beside the label cache)."),
]


def _open(gallery: Path | None):  # type: ignore[no-untyped-def]
    from recognizers.gallery import Gallery

    return Gallery(gallery)


def _import_plan(console: Any, folder: Path) -> list[tuple[str, Path]]:
    """(landmark, picture) for every picture in FOLDER/LANDMARK/; exits 2 when there is none."""
    from recognizers.matching import match_name
    from rummy.catalog import DEFAULT_CATALOG

    if not folder.is_dir():
        typer.echo(f"error: {folder} is not a directory", err=True)
        raise typer.Exit(2)
    plan: list[tuple[str, Path]] = []
    for sub in sorted(path for path in folder.iterdir() if path.is_dir()):
        found = match_name(sub.name, DEFAULT_CATALOG)
        if found is None:
            console.print(f"[yellow]skipped {sub.name}/: not a catalog landmark[/]")
            continue
        plan.extend(
            (found.landmark, path)
            for path in sorted(sub.iterdir())
            if path.is_file() and path.suffix.lower() in PICTURE_SUFFIXES
        )
    if not plan:
        typer.echo(f"error: no pictures in {folder}/<landmark name>/", err=True)
        raise typer.Exit(2)
    return plan


@app.command("import")
def import_pictures(
    folder: Annotated[
        Path,
        typer.Argument(help="DIR/LANDMARK/* pictures (a folder per landmark name), the layout `serve --images` reads."),
    ],
    gallery: GalleryOption = None,
) -> None:
    """Add a folder of labelled pictures to the gallery (pictures already in it are skipped)."""

    from recognizers.local import LocalRecognizer
    from rummy.terminal_text import escape

    console = Console(stderr=True)
    plan = _import_plan(console, folder)
    recognizer = LocalRecognizer(_open(gallery))
    added = skipped = broken = 0
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task("importing", total=len(plan))
        for landmark, path in plan:
            data = path.read_bytes()
            if recognizer.learn(data, landmark, source="import"):
                added += 1
            else:
                from recognizers.features import open_image

                known = recognizer.gallery.landmark_of(hashlib.sha256(data).hexdigest())
                if known is not None and known != landmark:
                    console.print(
                        f"[yellow]{escape(str(path))} is in the gallery as {escape(known)!r}, not {escape(landmark)!r};"
                        " `rummy-vision recognizers forget` removes the wrong one, then import again[/]"
                    )
                    skipped += 1
                    progress.advance(task)
                    continue
                try:
                    open_image(data)
                    skipped += 1
                except ValueError as error:
                    broken += 1
                    console.print(f"[yellow]{escape(str(path))}: {escape(str(error))}; skipped[/]")
            progress.advance(task)
    landmarks = len({landmark for landmark, _ in plan})
    typer.echo(
        f"added {added} picture(s) of {landmarks} landmark(s) to {recognizer.gallery.path}"
        + (f"; {skipped} already there" if skipped else "")
        + (f"; {broken} unreadable" if broken else "")
    )


@app.command("export")
def export_pictures(
    folder: Annotated[Path, typer.Argument(help="Where to write DIR/LANDMARK/* (created if missing).")],
    landmark: Annotated[str | None, typer.Option(help="Only this landmark's pictures.")] = None,
    gallery: GalleryOption = None,
) -> None:
    """Write the gallery's labelled pictures by tag (a folder per landmark), the layout `train-customvision` reads.

    Entries added before the gallery kept pictures have none to write; the count of those is printed.
    """
    store = _open(gallery)
    try:
        exported = store.export_pictures(folder, landmark)
    except OSError as error:
        typer.echo(f"error: cannot write to {folder}: {error.strerror or error}", err=True)
        raise typer.Exit(1) from None
    finally:
        store.close()
    for tag in sorted(exported.files):
        typer.echo(f"{tag}: {len(exported.files[tag])}")
    typer.echo(f"exported {exported.describe()}")


@app.command("list")
def list_pictures(
    landmark: Annotated[str | None, typer.Option(help="Only this landmark's pictures.")] = None,
    gallery: GalleryOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")] = False,
) -> None:
    """Every picture in the gallery: its id (for `forget`), landmark, source, content hash and when it came."""

    from rummy.terminal_text import escape

    store = _open(gallery)
    try:
        pictures = store.pictures(landmark)
    finally:
        store.close()
    if as_json:
        typer.echo(json.dumps(pictures))
        return
    table = Table("id", "landmark", "source", "hash", "added", title=f"{len(pictures)} picture(s)")
    for picture in pictures:
        added = datetime.datetime.fromtimestamp(float(picture["AddedAt"])).isoformat(" ", "seconds")  # type: ignore[arg-type]
        table.add_row(
            str(picture["Id"]),
            escape(str(picture["Landmark"])),
            escape(str(picture["Source"])),
            str(picture["Hash"])[:12],
            added,
        )
    Console().print(table)


@app.command()
def forget(
    ids: Annotated[list[int] | None, typer.Argument(help="Ids of the pictures to remove (see `list`).")] = None,
    landmark: Annotated[str | None, typer.Option(help="Remove every picture of this landmark instead.")] = None,
    gallery: GalleryOption = None,
) -> None:
    """Remove pictures from the gallery (a wrong label is forgotten, then the picture can be imported again)."""
    if bool(ids) == (landmark is not None):
        typer.echo("error: give picture ids or --landmark NAME (one of the two)", err=True)
        raise typer.Exit(2)
    store = _open(gallery)
    try:
        chosen = list(ids or []) if landmark is None else [int(str(p["Id"])) for p in store.pictures(landmark)]
        unknown = sorted(set(chosen) - {int(str(p["Id"])) for p in store.pictures()})
        if unknown:
            typer.echo(f"error: no picture with id {', '.join(map(str, unknown))} (see `recognizers list`)", err=True)
            raise typer.Exit(2)
        removed = store.forget(chosen)
    finally:
        store.close()
    typer.echo(f"removed {removed} picture(s) from {store.path}")


@app.command()
def stats(
    gallery: GalleryOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")] = False,
) -> None:
    """The gallery per landmark, how often it answered, and the calls to the inner recognizer it saved."""

    store = _open(gallery)
    per_landmark = store.pictures_by_landmark()
    counters = store.counters()
    seen = counters.get("pictures", 0)
    hit_rate = counters.get("gallery_answers", 0) / seen if seen else 0.0
    if as_json:
        typer.echo(
            json.dumps(
                {
                    "gallery": str(store.path),
                    "landmarks": per_landmark,
                    "counters": counters,
                    "hit_rate": round(hit_rate, 4),
                },
                indent=1,
            )
        )
        return
    console = Console()
    table = Table(title=f"Gallery {store.path}")
    for column in ("landmark", "pictures", "from"):
        table.add_column(column)
    for landmark in sorted(per_landmark):
        sources = per_landmark[landmark]
        table.add_row(
            landmark,
            str(sum(sources.values())),
            ", ".join(f"{source} {count}" for source, count in sorted(sources.items())),
        )
    console.print(table if per_landmark else "The gallery is empty: rummy-vision recognizers import DIR")
    console.print(
        f"pictures asked about {seen}, answered from the gallery {counters.get('gallery_answers', 0)} "
        f"(hit rate {hit_rate:.1%}); inner recognizer asked {counters.get('inner_asked', 0)}, "
        f"calls saved {counters.get('calls_saved', 0)}, pictures learned {counters.get('learned', 0)}"
    )
