"""The first /play/api/options builds every house bot and coach (loading tables: up to a minute beside busy
searches). It is built in a worker thread, so the server answers everything else meanwhile (issue 41), and a
success is remembered while a failure is tried again."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import httpx
import pytest

from server import house_agents
from server.play import views
from strategies.baselines import GreedyStrategy


@pytest.fixture(autouse=True)
def forget_builds() -> Iterator[None]:
    views._built.clear()
    yield
    views._built.clear()


def test_the_server_answers_while_the_options_are_being_built(
    start_play_server, monkeypatch: pytest.MonkeyPatch
) -> None:
    building, release = threading.Event(), threading.Event()

    def slow() -> GreedyStrategy:
        building.set()
        release.wait(120)
        return GreedyStrategy()

    monkeypatch.setitem(house_agents.HOUSE_BOTS, "housebot-slow", slow)
    server = start_play_server(seed=3)
    answer: dict[str, httpx.Response] = {}
    asking = threading.Thread(target=lambda: answer.setdefault("options", server.client.get("/play/api/options")))
    asking.start()
    try:
        assert building.wait(60)
        page = httpx.get(f"{server.base}/play", timeout=60)  # on the event loop, while the build goes on
        assert page.status_code == 200 and not release.is_set()
    finally:
        release.set()
        asking.join(120)
    slow_bot = next(bot for bot in answer["options"].json()["Opponents"] if bot["Name"] == "housebot-slow")
    assert slow_bot["Available"] is True


def test_a_success_is_remembered_and_a_failure_tried_again() -> None:
    calls = {"good": 0, "bad": 0}

    def good() -> object:
        calls["good"] += 1
        return object()

    def bad() -> object:
        calls["bad"] += 1
        raise FileNotFoundError("no table here yet: run `rummy-vision solve`")

    for _ in range(3):
        assert views.unavailable_once(good) is None
        assert views.unavailable_once(bad) == "no table here yet: run `rummy-vision solve`"
    assert calls == {"good": 1, "bad": 3}
