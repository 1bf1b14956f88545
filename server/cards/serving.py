"""Serving card pictures: a drawn card per token, or a real photo from `serve --images DIR`."""

from __future__ import annotations

import hashlib
import logging
import threading
from collections import deque
from collections.abc import Iterable
from pathlib import Path

from cachetools import LRUCache
from PIL import Image, ImageOps, UnidentifiedImageError

from recognizers.features import check_size
from server.cards import drawing_process
from server.cards.picture_folder import PictureFolder
from server.cards.prerender import PrerenderQueue
from server.cards.render import card_bytes, small_webp_pair, to_png, to_small_webp

log = logging.getLogger("server.cards")

PHOTO_SIDE = 640  # photos are served at most this many pixels a side
PNG_TYPE, SMALL_TYPE = "image/png", "image/webp"
PHOTO_SUFFIXES = {".jpg", ".jpeg", ".png", ".webp", ".gif", ".bmp"}


# Bounds of the two picture caches, in bytes: a page's small WebP is about 5 KB (a 40-card deal in both
# variants is about 0.4 MB, so 64 MB holds some 160 deals); a bot's full PNG is about 140 KB.
SMALL_CACHE_BYTES = 64 * 1024 * 1024
FULL_CACHE_BYTES = 128 * 1024 * 1024

# Cards of deals made before any page looked, kept to be drawn once one does: the newest 10 deals
# (about 14 s of drawing), so a person opening a busy bots' server does not start minutes of it.
UNWATCHED_CARDS = 10 * 40
WAIT_FOR_WORKER_S = 30.0  # a page's picture the worker has not drawn yet: after this, drawn by the request

Key = tuple[str, bool, bool]  # (token, captioned, small)


class CardImages:
    """Card pictures per token, kept in two LRU caches bounded in bytes (pages' small WebPs, bots' PNGs).

    The pages' small pictures are drawn ahead by one background worker (`prerender`): the referee hands it
    each deal as it is made (drawn once a person's page has looked at this server: `watch`), and the viewer
    a finished match it is about to show, so that a page's request is answered with bytes already made.
    A page's picture not drawn yet when asked (`picture`) is put first in the worker's line and waited
    for; `drawn_on_request` counts those, for the tests and `tools/measure.py viewer-load`. Bots' PNGs are drawn
    on request.

    With `folder` (beside the records file), the small pictures are also kept on disk and read from there
    when memory has not got them: a restarted server, or one showing a match another process recorded,
    serves pictures drawn before. Not with `photos_dir`: photos are read from their files, which may change.
    `drawn` counts every card drawn (ahead or on request).

    `captions=True` (`serve --captions`) captions every drawn card; otherwise only a request that
    asks for one (`caption=True`, for people) gets it. Photos from `photos_dir` are never captioned.
    """

    def __init__(
        self,
        photos_dir: Path | None = None,
        *,
        captions: bool = False,
        folder: PictureFolder | None = None,
        small_cache_bytes: int = SMALL_CACHE_BYTES,
        full_cache_bytes: int = FULL_CACHE_BYTES,
    ) -> None:
        self.photos_dir = photos_dir
        self.captions = captions
        self._small: LRUCache[Key, bytes] = LRUCache(maxsize=small_cache_bytes, getsizeof=len)
        self._full: LRUCache[Key, bytes] = LRUCache(maxsize=full_cache_bytes, getsizeof=len)
        self._lock = threading.Lock()
        self.drawn_on_request = 0
        self.drawn = 0
        self.folder = folder if photos_dir is None else None
        self._ahead = PrerenderQueue(self._draw_small_pair, workers=drawing_process.PROCESSES)
        self.watched = False  # a person's page has asked this server for something
        self._unwatched: deque[tuple[str, str]] = deque(maxlen=UNWATCHED_CARDS)

    def png(self, token: str, landmark: str, *, caption: bool = False) -> bytes:
        return self.picture(token, landmark, caption=caption)[0]

    def cached(self, token: str, *, caption: bool = False, small: bool = False) -> tuple[bytes, str] | None:
        """The picture if it is drawn already (no drawing: cheap enough for the event loop)."""
        data = self._get((token, caption or self.captions, small))
        return None if data is None else (data, SMALL_TYPE if small else PNG_TYPE)

    def picture(self, token: str, landmark: str, *, caption: bool = False, small: bool = False) -> tuple[bytes, str]:
        """The picture's bytes and media type: PNG at full size (what bots get), or with `small` a
        WebP at the pages' display size (a few KB instead of about 100 KB); drawn now if not cached."""
        key = (token, caption or self.captions, small)
        cached = self._get(key)
        if cached is not None:
            return cached, SMALL_TYPE if small else PNG_TYPE
        if small:
            with self._lock:
                self.drawn_on_request += 1
            # The worker draws it next (both variants at once) unless it is stopped: one drawing, not two.
            self.prerender([(token, landmark)], first=True)
            self._ahead.wait_for_card(token, WAIT_FOR_WORKER_S)
            data = self._get(key)  # None if the worker was stopped, or the cache let it go already
            if data is not None:
                return data, SMALL_TYPE
        data = self._render(token, landmark, key[1], small)
        self._put(key, data)
        return data, SMALL_TYPE if small else PNG_TYPE

    def prerender(
        self, cards: Iterable[tuple[str, str]], *, first: bool = False, later: Iterable[tuple[str, str]] = ()
    ) -> None:
        """Draw the small pictures, captioned and not, of these (token, landmark) cards in the background,
        in the given order; `first` puts them ahead of the cards already waiting (a page asks for them now),
        and the `later` cards (a deal's deck: shown only when drawn) wait behind every other card.

        Until a person's page has asked this server for something (`watch`), the cards wait undrawn (the
        newest UNWATCHED_CARDS of them): a server only bots play on spends no time on pictures for people.
        """
        wanted = [card for card in cards if not self._has_small_pair(card[0])]
        behind = [card for card in later if not self._has_small_pair(card[0])]
        if first:
            self.watch()
        with self._lock:
            if not (self.watched or first):
                self._unwatched.extend(wanted + behind)
                return
        self._ahead.add(wanted, first=first)
        self._ahead.add(behind, later=True)

    def watch(self) -> None:
        """A person's page is looking: from now on every deal is drawn as it is made, the waiting ones now
        (behind the new ones: they were dealt to bots before anyone looked)."""
        with self._lock:
            if self.watched:
                return
            self.watched = True
            waiting = list(self._unwatched)
            self._unwatched.clear()
        self.prerender([], later=waiting)

    def wait_prerendered(self, timeout: float) -> bool:
        """Wait until the background worker has nothing left to draw; False if it still has after `timeout` s."""
        return self._ahead.wait_idle(timeout)

    def close(self) -> None:
        """Stop the background worker (what it had not drawn yet is drawn on request)."""
        self._ahead.close()

    def _get(self, key: Key) -> bytes | None:
        with self._lock:
            data = (self._small if key[2] else self._full).get(key)
        if data is None and key[2] and self.folder is not None:
            data = self.folder.get(key[0], key[1])
            if data is not None:
                with self._lock:
                    self._small[key] = data
        return data

    def _put(self, key: Key, data: bytes) -> None:
        with self._lock:
            (self._small if key[2] else self._full)[key] = data

    def _has_small_pair(self, token: str) -> bool:
        return all(self._get((token, caption, True)) is not None for caption in {True, self.captions})

    def _draw_small_pair(self, token: str, landmark: str) -> None:
        if self._has_small_pair(token):
            return
        photo = self._photo(token, landmark)
        if photo is not None:
            small = to_small_webp(photo)
            pair = (small, small)
        else:  # in the drawing process: never waiting for the GIL behind the searches
            pair = drawing_process.drawn(small_webp_pair, landmark, token, self.captions)
        with self._lock:
            self.drawn += 1
        for caption, data in zip((False, True), pair, strict=True):
            key = (token, caption or self.captions, True)
            self._put(key, data)
            if self.folder is not None and photo is None:
                self.folder.put(token, key[1], data)

    def _render(self, token: str, landmark: str, caption: bool, small: bool = False) -> bytes:
        with self._lock:
            self.drawn += 1
        photo = self._photo(token, landmark)
        if photo is None:
            return drawing_process.drawn(card_bytes, landmark, token, caption, small)
        return to_small_webp(photo) if small else to_png(photo)

    def photo_files(self, landmark: str) -> list[Path]:
        if self.photos_dir is None:
            return []
        folder = self.photos_dir / landmark
        if not folder.is_dir():
            return []
        return sorted(path for path in folder.iterdir() if path.suffix.lower() in PHOTO_SUFFIXES and path.is_file())

    def photo_for(self, token: str, landmark: str) -> Path | None:
        """The photo file a card shows (None: no photo of its landmark, a drawing is shown)."""
        files = self.photo_files(landmark)
        if not files:
            return None
        # The same token always shows the same photo.
        return files[int(hashlib.sha256(token.encode()).hexdigest(), 16) % len(files)]

    def _photo(self, token: str, landmark: str) -> Image.Image | None:
        chosen = self.photo_for(token, landmark)
        if chosen is None:
            return None
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
