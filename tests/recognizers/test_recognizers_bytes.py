"""Pictures a cloud cannot reach go as bytes: the real SDK's stream calls against the fake Azure
server on loopback, and Custom Vision's image endpoint under pytest-httpx."""

from __future__ import annotations

import hashlib
import io

import pytest
from PIL import Image
from pytest_httpx import HTTPXMock
from recognizers_fakes import GOOD_KEY, FakeAzure, FakeClock, stream_key

from recognizers.azure import AzureRecognizer
from recognizers.cache import LabelCache
from recognizers.customvision import CustomVisionRecognizer, image_endpoint
from recognizers.image_source import ImageFetcher, is_private_url
from recognizers.limiter import RateLimiter
from recognizers.registry import get_recognizer
from rummy.catalog import DEFAULT_CATALOG


def png(colour: tuple[int, int, int]) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (40, 30), colour).save(out, format="PNG")
    return out.getvalue()


PICTURE = png((200, 30, 40))


def make(fake: FakeAzure, clock: FakeClock, mode: str = "analyze", **kw) -> AzureRecognizer:
    return AzureRecognizer(
        fake.base_url,
        GOOD_KEY,
        mode=mode,
        cache=kw.pop("cache", None) or LabelCache(":memory:", clock=clock),
        limiter=RateLimiter(1000, clock=clock, sleep=clock.sleep),
        sleep=clock.sleep,
        clock=clock,
        **kw,
    )


@pytest.mark.parametrize(
    ("url", "private"),
    [
        ("http://127.0.0.1:8000/cards/a.png", True),
        ("http://[::1]:8000/cards/a.png", True),
        ("http://localhost:8000/cards/a.png", True),
        ("http://cards.localhost/a.png", True),
        ("http://10.1.2.3/a.png", True),
        ("http://172.16.0.9/a.png", True),
        ("http://192.168.1.20:8000/a.png", True),
        ("http://169.254.1.1/a.png", True),
        ("http://mybox.lan/a.png", True),  # named in the config
        ("https://arena.example/cards/a.png", False),
        ("http://8.8.8.8/a.png", False),
        ("not a url", False),
    ],
)
def test_which_urls_a_cloud_cannot_fetch(url: str, private: bool) -> None:
    assert is_private_url(url, ["MyBox.lan"]) is private


def test_loopback_picture_goes_as_the_exact_bytes_once(fake_azure: FakeAzure, clock: FakeClock) -> None:
    fake_azure.images = {"a.png": PICTURE, "copy.png": PICTURE}
    fake_azure.script = {stream_key(PICTURE): ["error_500", "analyze_landmark"]}
    cache = LabelCache(":memory:", clock=clock)
    recognizer = make(fake_azure, clock, cache=cache)
    url = f"{fake_azure.base_url}/img/a.png"
    label = recognizer.recognize([(1, url)], DEFAULT_CATALOG)[1]
    assert label.landmark == "forbidden city"
    # A 500 and a retry: the picture was downloaded once and sent whole both times.
    assert fake_azure.streams == [PICTURE, PICTURE] and fake_azure.image_gets == 1
    assert [call for call in fake_azure.calls] == [("analyze", stream_key(PICTURE))] * 2
    assert cache.content_hash("azure", url) == hashlib.sha256(PICTURE).hexdigest()
    # The same picture at another URL (say, a re-dealt card): fetched to hash it, never sent again.
    again = recognizer.recognize([(2, f"{fake_azure.base_url}/img/copy.png")], DEFAULT_CATALOG)[2]
    assert again.landmark == "forbidden city" and len(fake_azure.streams) == 2


def test_domain_mode_streams_both_calls(fake_azure: FakeAzure, clock: FakeClock) -> None:
    fake_azure.images = {"a.png": PICTURE}
    fake_azure.script = {stream_key(PICTURE): ["domain_none", "describe_caption"]}
    label = make(fake_azure, clock, mode="domain").recognize([(1, f"{fake_azure.base_url}/img/a.png")], DEFAULT_CATALOG)
    assert label[1].landmark == "haystack rock"
    assert [path for path, _ in fake_azure.calls] == ["models/landmarks/analyze", "describe"]
    assert fake_azure.streams == [PICTURE, PICTURE] and fake_azure.image_gets == 1


def test_public_urls_still_go_as_urls(fake_azure: FakeAzure, clock: FakeClock) -> None:
    url = "https://arena.example/cards/1.png"
    fake_azure.script = {url: ["analyze_landmark"]}
    assert make(fake_azure, clock).recognize([(1, url)], DEFAULT_CATALOG)[1].landmark == "forbidden city"
    assert fake_azure.calls == [("analyze", url)] and fake_azure.streams == []


def test_oversized_or_missing_pictures_are_unknown_and_cost_no_call(fake_azure: FakeAzure, clock: FakeClock) -> None:
    fake_azure.images = {"big.png": PICTURE}
    recognizer = make(fake_azure, clock, images=ImageFetcher(max_bytes=len(PICTURE) - 1))
    labels = recognizer.recognize(
        [(1, f"{fake_azure.base_url}/img/big.png"), (2, f"{fake_azure.base_url}/img/gone.png")], DEFAULT_CATALOG
    )
    assert labels[1].landmark is None and "larger than" in labels[1].reason
    assert labels[2].landmark is None and "404" in labels[2].reason
    assert fake_azure.calls == []


def test_config_hosts_reach_the_fetcher(tmp_path) -> None:
    config = tmp_path / "recognizers.toml"
    config.write_text('[azure]\nendpoint = "https://x.example"\nkey = "k"\n[images]\nprivate_hosts = ["mybox.lan"]\n')
    recognizer = get_recognizer("azure", config=str(config), env={}, cache=":memory:")
    assert isinstance(recognizer, AzureRecognizer)
    assert recognizer.images.needs_bytes("http://mybox.lan/cards/1.png")
    assert not recognizer.images.needs_bytes("https://arena.example/cards/1.png")


PREDICTION_URL = "https://vision.example/customvision/v3.0/Prediction/p1/classify/iterations/it1/url"
IMAGE_URL = "https://vision.example/customvision/v3.0/Prediction/p1/classify/iterations/it1/image"


def test_custom_vision_sends_loopback_pictures_to_the_image_endpoint(httpx_mock: HTTPXMock, clock: FakeClock) -> None:
    card = "http://127.0.0.1:8765/cards/t1.png"
    httpx_mock.add_response(url=card, method="GET", content=PICTURE, headers={"Content-Type": "image/png"})
    httpx_mock.add_response(
        url=IMAGE_URL,
        method="POST",
        json={"predictions": [{"tagName": "Bryggen", "probability": 0.91, "tagId": "t"}]},
    )
    recognizer = CustomVisionRecognizer(
        PREDICTION_URL,
        "cv-key",
        cache=LabelCache(":memory:", clock=clock),
        limiter=RateLimiter(1000, clock=clock, sleep=clock.sleep),
        sleep=clock.sleep,
        clock=clock,
    )
    assert recognizer.recognize([(1, card)], DEFAULT_CATALOG)[1].landmark == "bryggen"
    sent = httpx_mock.get_requests(method="POST")
    assert len(sent) == 1 and sent[0].content == PICTURE
    assert sent[0].headers["Content-Type"] == "application/octet-stream"
    assert sent[0].headers["Prediction-Key"] == "cv-key"


def test_image_endpoint_beside_the_url_endpoint() -> None:
    assert image_endpoint(PREDICTION_URL) == IMAGE_URL
    assert image_endpoint(PREDICTION_URL + "?application=x") == IMAGE_URL + "?application=x"
    assert image_endpoint(IMAGE_URL) == IMAGE_URL
