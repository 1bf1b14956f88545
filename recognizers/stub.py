"""`stub`: labels from files, no network. For offline play, replays and tests.

It reads, in order (earlier sources win):
1. JSON label files given as `files` (or none);
2. the shipped `fixtures/recognizers/stub_labels.json`, when the source tree is present;
3. the user's `stub_labels.json` in the user cache directory;
4. every answer the paid recognizers stored in the label cache (SQLite), mapped to the catalog.

A JSON label file is `{"labels": {url: landmark or {"landmark": ..., "confidence": ...}}}` (or the
inner mapping alone). Keys may be full URLs or paths; cards match on either.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import platformdirs

from recognizers.cache import APP_NAME, LabelCache
from recognizers.observation import Observation, to_label
from recognizers.oracle import index_by_url, url_keys
from rummy import bounded_json
from rummy.labels import CardLabel

SHIPPED_LABELS = Path(__file__).resolve().parent.parent / "fixtures" / "recognizers" / "stub_labels.json"


def user_labels_path() -> Path:
    return Path(platformdirs.user_cache_dir(APP_NAME)) / "stub_labels.json"


class StubLabelsError(ValueError):
    """A label file is unreadable or has the wrong shape."""


def read_label_file(path: Path) -> dict[str, tuple[str, float]]:
    try:
        data: Any = bounded_json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise StubLabelsError(f"stub label file {path} is not readable JSON: {error}") from error
    if isinstance(data, dict) and isinstance(data.get("labels"), dict):
        data = data["labels"]
    if not isinstance(data, dict):
        raise StubLabelsError(f"stub label file {path} must hold an object of url -> landmark")
    labels: dict[str, tuple[str, float]] = {}
    for url, value in data.items():
        if isinstance(value, str):
            labels[url] = (value, 1.0)
        elif isinstance(value, dict) and isinstance(value.get("landmark"), str):
            try:
                labels[url] = (value["landmark"], float(value.get("confidence", 1.0)))
            except (TypeError, ValueError):
                raise StubLabelsError(f"stub label file {path}: confidence of {url} is not a number") from None
        else:
            raise StubLabelsError(f"stub label file {path}: entry {url} is neither a name nor {{landmark, confidence}}")
    return labels


class StubRecognizer:
    name = "stub"

    def __init__(
        self,
        files: Iterable[str | Path] = (),
        *,
        labels: Mapping[str, str] | None = None,
        cache: LabelCache | None = None,
        shipped: bool = True,
        user: bool = True,
    ) -> None:
        self._labels: dict[str, tuple[str, float]] = {}
        for url, landmark in (labels or {}).items():
            self._labels.setdefault(url, (landmark, 1.0))
        paths = [Path(file) for file in files]
        if shipped and SHIPPED_LABELS.exists():
            paths.append(SHIPPED_LABELS)
        if user and user_labels_path().exists():
            paths.append(user_labels_path())
        for path in paths:
            if not path.exists():
                raise StubLabelsError(f"stub label file {path} does not exist")
            for url, entry in read_label_file(path).items():
                self._labels.setdefault(url, entry)
        self._indexed = index_by_url(self._labels)
        self._observations: dict[str, Observation] = {}
        if cache is not None:
            for _backend, url, observation in cache.items():
                self._observations.setdefault(url, observation)
        self._observations = index_by_url(self._observations)
        self.sources = [str(path) for path in paths] + ([repr(cache)] if cache is not None else [])

    def __repr__(self) -> str:
        return f"StubRecognizer({len(self._labels)} labels, {len(self._observations)} cached answers)"

    def recognize(self, cards: Sequence[tuple[int, str]], catalog: Sequence[str]) -> dict[int, CardLabel]:
        in_catalog = set(catalog)
        result: dict[int, CardLabel] = {}
        for card_id, url in cards:
            keys = url_keys(url)
            entry = next((self._indexed[key] for key in keys if key in self._indexed), None)
            if entry is not None:
                landmark, confidence = entry
                if landmark in in_catalog:
                    result[card_id] = CardLabel(landmark, confidence)
                else:
                    result[card_id] = CardLabel(None, 0.0, f"stub label {landmark!r} for {url} is not in the catalog")
                continue
            observation = next((self._observations[key] for key in keys if key in self._observations), None)
            if observation is not None:
                result[card_id] = to_label(observation, catalog)
            else:
                result[card_id] = CardLabel(None, 0.0, f"stub has no label for {url} (offline; no network used)")
        return result
