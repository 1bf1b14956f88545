"""`oracle`: the true labels, from the local server's oracle endpoint or from a mapping in process.

The local server (started with `--oracle`) answers `GET {base}/oracle/labels/{GameId}` with
`{card id: landmark}` for the cards in view in the match's current round (both hands and the laid
cards; nothing about the deck), in id order, and with `?by=url` keyed by the cards' URL paths. This
recognizer asks by URL: card ids repeat from round to round (the arena's 0..39 in every round), so an
answer kept by id would name a later round's card 7 by an earlier round's; a URL names one card of the
match. A mapping in process is `{card url: landmark}`; gamestate URLs are absolute (the server's base +
"/cards/<token>.jpg") and the answer may use either form, so cards are matched on the full URL, on its
path and on its "/cards/..." part (a public URL with a path of its own).

The oracle exists for tests and for measuring strategies without recognition errors; the arena
has no such endpoint.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from typing import Any
from urllib.parse import urlsplit

import httpx

from rummy.belief import TRUE_LABELS
from rummy.capped_http import RECORD_BYTES, capped_client
from rummy.labels import CardLabel

log = logging.getLogger("recognizers")

LabelSource = Mapping[str, str] | Callable[[], Mapping[str, str]]


def url_keys(url: str) -> tuple[str, ...]:
    """The keys a card URL may be stored under: itself and, for an absolute URL, its path."""
    path = urlsplit(url).path
    return (url, path) if path and path != url else (url,)


def card_path(url: str) -> tuple[str, ...]:
    """The "/cards/..." part of a card URL, if it has one: the server's own path, whatever base it is served under."""
    return ("/cards/" + url.rsplit("/cards/", 1)[-1],) if "/cards/" in url else ()


def index_by_url(mapping: Mapping[str, Any]) -> dict[str, Any]:
    """`mapping` keyed by full URL and by path too, so either form of a card URL finds its entry."""
    indexed: dict[str, Any] = {}
    for url, value in mapping.items():
        for key in url_keys(str(url)):
            indexed.setdefault(key, value)
    return indexed


class OracleRecognizer:
    name = "oracle"
    error_model = TRUE_LABELS  # the referee's own labels: never wrong

    def __init__(
        self,
        base_url: str | None = None,
        game_id: int | None = None,
        *,
        source: LabelSource | None = None,
        client: httpx.Client | None = None,
        timeout: float = 5.0,
    ) -> None:
        if source is None and not base_url:
            raise ValueError("oracle needs a server base URL (and a GameId) or a {url: landmark} source")
        self.base_url = _server_root(base_url) if base_url else None
        self.game_id = game_id  # a bot sets it from the gamestate's GameId when a match starts
        self._source = source
        self._http = client
        self._timeout = timeout
        self._known: dict[str, str] = {}
        self._logged: set[str] = set()

    @classmethod
    def from_mapping(cls, source: LabelSource) -> OracleRecognizer:
        """An oracle over `{url: landmark}` (or a callable returning it) for matches run in process."""
        return cls(source=source)

    def __repr__(self) -> str:
        where = f"base_url={self.base_url!r}, game_id={self.game_id!r}" if self.base_url else "source=<mapping>"
        return f"OracleRecognizer({where})"

    def recognize(self, cards: Sequence[tuple[int, str]], catalog: Sequence[str]) -> dict[int, CardLabel]:
        if any(self._landmark(url) is None for _card_id, url in cards):
            try:
                self._known = index_by_url(self._fetch())
            except (httpx.HTTPError, ValueError) as error:
                reason = f"oracle unavailable: {error}"
                if reason not in self._logged:
                    self._logged.add(reason)
                    log.warning("%s (affected cards are unknown)", reason)
                return {card_id: CardLabel(None, 0.0, reason) for card_id, _ in cards}
        in_catalog = set(catalog)
        labels: dict[int, CardLabel] = {}
        for card_id, url in cards:
            landmark = self._landmark(url)
            if landmark is None:
                labels[card_id] = CardLabel(None, 0.0, f"oracle has no label for {url}")
            elif landmark not in in_catalog:
                labels[card_id] = CardLabel(None, 0.0, f"oracle label {landmark!r} is not in the catalog")
            else:
                labels[card_id] = CardLabel(landmark, 1.0)
        return labels

    def _landmark(self, url: str) -> str | None:
        keys = (*url_keys(url), *card_path(url))
        return next((self._known[key] for key in keys if key in self._known), None)

    def _fetch(self) -> Mapping[str, str]:
        if self._source is not None:
            return self._source() if callable(self._source) else self._source
        if self.game_id is None:
            raise ValueError("oracle needs the match's GameId (set game_id)")
        client = self._http or capped_client(RECORD_BYTES, whole_s=2 * self._timeout + 5, timeout=self._timeout)
        try:
            url = f"{self.base_url}/oracle/labels/{self.game_id}"
            try:
                response = client.get(url, params={"by": "url"})
            except httpx.ConnectError:
                raise ValueError(f"connection refused at {self.base_url}: is the server running?") from None
            if response.status_code != 200:
                raise ValueError(_refusal(url, response))
            data = response.json()
        finally:
            if self._http is None:
                client.close()
        if not isinstance(data, dict) or not all(isinstance(v, str) for v in data.values()):
            raise ValueError("oracle answer is not a {card URL: landmark} object")
        return data


def _refusal(url: str, response: httpx.Response) -> str:
    try:
        message = response.json().get("ErrorMessage")
    except (ValueError, AttributeError):
        message = None
    if message:
        return f"{url}: {message}"
    if response.status_code == 404:
        return f"{url} does not exist: is this the referee, started with --oracle?"
    return f"{url} answered HTTP {response.status_code}"


def _server_root(base_url: str) -> str:
    """The server's root, whether the user gave it or the protocol base under /prod/ (both forms are accepted)."""
    trimmed = base_url.rstrip("/")
    return trimmed[: -len("/prod")] if trimmed.endswith("/prod") else trimmed
