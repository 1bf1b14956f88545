"""The gallery's own copies of its pictures, and their export as a folder of labelled pictures by tag.

The `local` recognizer compares feature vectors, but training a Custom Vision classifier needs the
pictures themselves, so each gallery entry keeps a copy: the picture's own bytes when they are at most
`KEEP_MAX_BYTES` in a format Custom Vision takes (PNG, JPEG, BMP, GIF), else a JPEG re-encoding at most
`KEEP_MAX_SIDE` pixels on its longer side (Custom Vision trains on 256 px and up; a card is 256x320).
`export_pictures` writes them as `DIR/<landmark>/<hash>.<ext>`, the layout `train-customvision` and
`recognizers import` read. Entries added before pictures were kept have none: the export counts them.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from pathlib import Path

from PIL import Image, UnidentifiedImageError

KEEP_MAX_BYTES = 512 * 1024
KEEP_MAX_SIDE = 1024
_KEPT_AS_IS = {"PNG": "png", "JPEG": "jpg", "BMP": "bmp", "GIF": "gif"}


def bounded_copy(data: bytes) -> tuple[bytes, str] | None:
    """(bytes to keep, file suffix) for a picture, at most about KEEP_MAX_BYTES; None if it is no picture."""
    try:
        with Image.open(io.BytesIO(data)) as image:
            kind = image.format or ""
            if kind in _KEPT_AS_IS and len(data) <= KEEP_MAX_BYTES:
                return data, _KEPT_AS_IS[kind]
            smaller = image.convert("RGB")
    except (UnidentifiedImageError, OSError, ValueError, Image.DecompressionBombError):
        return None
    smaller.thumbnail((KEEP_MAX_SIDE, KEEP_MAX_SIDE), Image.Resampling.LANCZOS)
    out = io.BytesIO()
    smaller.save(out, format="JPEG", quality=90)
    return out.getvalue(), "jpg"


@dataclass
class Exported:
    """What an export wrote: {landmark: picture files}, and the entries that had no picture to write."""

    folder: Path
    files: dict[str, list[Path]] = field(default_factory=dict)
    without_picture: dict[str, int] = field(default_factory=dict)

    @property
    def written(self) -> int:
        return sum(len(paths) for paths in self.files.values())

    def describe(self) -> str:
        text = f"{self.written} picture(s) of {len(self.files)} landmark(s) in {self.folder}"
        missing = sum(self.without_picture.values())
        if missing:
            text += (
                f"; {missing} gallery entr{'y has' if missing == 1 else 'ies have'} no picture (added before the "
                "gallery kept pictures): import those pictures again to export them"
            )
        return text
