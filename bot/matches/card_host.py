"""The pictures of an in-process round, served on loopback so that a user's bot file can fetch them.

Over a server, a bot's gamestate carries absolute card URLs (`http://host:port/cards/<token>.png`).
In process there is no referee server, so each process that plays a round with a user's bot file
starts one small HTTP server on 127.0.0.1 (the referee's own `/cards/` route and card drawings) and
the file's gamestates carry URLs on it: a bot that fetches or labels its pictures behaves the same
in `match`, `match --server` and `play`.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

import uvicorn
from fastapi import FastAPI

from rummy.cards import Card, token_of
from server.cards import CardImages
from server.cards.routes import router as cards_router

START_TIMEOUT_S = 10.0


class _Landmarks:
    """The landmark behind each token of the rounds in play; stands in for the referee of the cards route."""

    def __init__(self) -> None:
        self._by_token: dict[str, str] = {}
        self._lock = threading.Lock()

    def add(self, cards: Iterable[Card]) -> list[str]:
        tokens = []
        with self._lock:
            for card in cards:
                token = token_of(card.url)
                self._by_token[token] = card.kind
                tokens.append(token)
        return tokens

    def remove(self, tokens: Iterable[str]) -> None:
        with self._lock:
            for token in tokens:
                self._by_token.pop(token, None)

    def landmark_of_token(self, token: str) -> str | None:
        with self._lock:
            return self._by_token.get(token)

    def card_in_play(self, token: str) -> bool:
        """Every card shown here is a card of a round in play: no caption (a bot would read its name)."""
        return True


class CardHost:
    """The card route under uvicorn on 127.0.0.1:<free port>, in a daemon thread; `base` is its URL."""

    def __init__(self, images: CardImages | None = None) -> None:
        self.landmarks = _Landmarks()
        app = FastAPI(docs_url=None, redoc_url=None, openapi_url=None)
        app.include_router(cards_router)
        app.state.referee = self.landmarks
        self.images = images or CardImages()  # with photos_dir: a photo of the card's landmark, else a drawing
        app.state.images = self.images
        # log_config=None: leave the process's logging alone (see server.serving.server_config)
        config = uvicorn.Config(
            app, host="127.0.0.1", port=0, log_level="warning", lifespan="off", access_log=False, log_config=None
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, name="card-host", daemon=True)
        self._thread.start()
        deadline = time.monotonic() + START_TIMEOUT_S
        while not self._server.started:
            if time.monotonic() > deadline or not self._thread.is_alive():
                raise RuntimeError("could not serve the round's card pictures on 127.0.0.1")
            time.sleep(0.01)
        port = self._server.servers[0].sockets[0].getsockname()[1]
        self.base = f"http://127.0.0.1:{port}"

    def close(self) -> None:
        """Stop serving (a host made for one job; the process's own, card_host(), lives as long as the process)."""
        self._server.should_exit = True
        self._thread.join(timeout=START_TIMEOUT_S)

    @contextmanager
    def showing(self, cards: Iterable[Card]) -> Iterator[str]:
        """Serve these cards' pictures while the block runs; yields the URL prefix for their gamestates."""
        tokens = self.landmarks.add(cards)
        try:
            yield self.base
        finally:
            self.landmarks.remove(tokens)


_host: CardHost | None = None
_host_lock = threading.Lock()


def card_host() -> CardHost:
    """This process's card host, started on first use (each worker process gets its own)."""
    global _host
    with _host_lock:
        if _host is None:
            _host = CardHost()
        return _host
