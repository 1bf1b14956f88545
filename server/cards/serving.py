"""Serving card pictures: a drawn card per token, or a real photo from `serve --images DIR`."""

from __future__ import annotations

import hashlib
import logging
import threading
from pathlib import Path

from cachetools import LRUCache
from PIL import Image, ImageOps, UnidentifiedImageError

from recognizers.features import check_size
from server.cards.render import draw_card, to_png, to_small_webp

log = logging.getLogger("server.cards")

PHOTO_SIDE = 640  # photos are served at most this many pixels a side
PNG_TYPE, SMALL_TYPE = "image/png", "image/webp"
PHOTO_SUFFIXES = {".jpg", ".jpeg", ".png", ".webp", ".gif", ".bmp"}


class CardImages:
    """PNG bytes per card token (and caption or not), rendered on first request and kept in an LRU cache.

    `captions=True` (`serve --captions`) captions every drawn card; otherwise only a request that
    asks for one (`caption=True`, for people) gets it. Photos from `photos_dir` are never captioned.
    """

    def __init__(self, photos_dir: Path | None = None, cache_size: int = 2048, *, captions: bool = False) -> None:
        self.photos_dir = photos_dir
        self.captions = captions
        self._cache: LRUCache[tuple[str, bool, bool], bytes] = LRUCache(maxsize=cache_size)
        self._lock = threading.Lock()

    def png(self, token: str, landmark: str, *, caption: bool = False) -> bytes:
        return self.picture(token, landmark, caption=caption)[0]

    def cached(self, token: str, *, caption: bool = False, small: bool = False) -> tuple[bytes, str] | None:
        """The picture if it is drawn already (no drawing: cheap enough for the event loop)."""
        with self._lock:
            data = self._cache.get((token, caption or self.captions, small))
        return None if data is None else (data, SMALL_TYPE if small else PNG_TYPE)

    def picture(self, token: str, landmark: str, *, caption: bool = False, small: bool = False) -> tuple[bytes, str]:
        """The picture's bytes and media type: PNG at full size (what bots get), or with `small` a
        WebP at the pages' display size (a few KB instead of about 100 KB)."""
        key = (token, caption or self.captions, small)
        with self._lock:
            cached = self._cache.get(key)
        if cached is not None:
            return cached, SMALL_TYPE if small else PNG_TYPE
        data = self._render(token, landmark, key[1], small)
        with self._lock:
            self._cache[key] = data
        return data, SMALL_TYPE if small else PNG_TYPE

    def warm(self, cards: list[tuple[str, str]], *, caption: bool = True, small: bool = True) -> threading.Thread:
        """Render (token, landmark) pictures ahead in a background thread, in the given order, so that a
        page stepping through a match finds them cached."""

        def render_all() -> None:
            for token, landmark in cards:
                self.picture(token, landmark, caption=caption, small=small)

        worker = threading.Thread(target=render_all, name="card-warm-up", daemon=True)
        worker.start()
        return worker

    def _render(self, token: str, landmark: str, caption: bool, small: bool = False) -> bytes:
        photo = self._photo(token, landmark)
        image = photo if photo is not None else draw_card(landmark, token, caption=caption)
        return to_small_webp(image) if small else to_png(image)

    def photo_files(self, landmark: str) -> list[Path]:
        if self.photos_dir is None:
            return []
        folder = self.photos_dir / landmark
        if not folder.is_dir():
            return []
        return sorted(path for path in folder.iterdir() if path.suffix.lower() in PHOTO_SUFFIXES and path.is_file())

    def _photo(self, token: str, landmark: str) -> Image.Image | None:
        files = self.photo_files(landmark)
        if not files:
            return None
        # The same token always shows the same photo.
        chosen = files[int(hashlib.sha256(token.encode()).hexdigest(), 16) % len(files)]
        try:
            with Image.open(chosen) as opened:
                check_size(opened)  # from the header: a decompression bomb is never decoded
                opened.draft("RGB", (PHOTO_SIDE, PHOTO_SIDE))  # JPEG: decode at a fraction of the size
                opened.load()
                # Re-encoding from pixels drops EXIF and any text metadata of the original file.
                image = ImageOps.exif_transpose(opened).convert("RGB")
        except (OSError, UnidentifiedImageError, ValueError, Image.DecompressionBombError) as error:
            log.warning("card photo %s cannot be read (%s); serving a drawn card instead", chosen, error)
            return None
        image.thumbnail((PHOTO_SIDE, PHOTO_SIDE))
        return image
