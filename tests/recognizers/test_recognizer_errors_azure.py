"""`measure recognizer-errors azure --photos DIR`: the photos are served on loopback, the Azure SDK sends each
one as bytes to the fake Azure server, which names a landmark from what the picture shows. The counts are
exactly what that server's one deliberate confusion implies."""

from __future__ import annotations

import io

import pytest
from PIL import Image
from recognizers_fakes import GOOD_KEY, FakeAzure

from bot.measure.recognizer_errors import FIT_SEED, ask_rounds, fitted_model

COLOURS = {  # a solid colour per landmark: what the fake service reads from each picture
    "big ben": (200, 30, 30),
    "giralda": (30, 200, 30),
    "trevi fountain": (30, 30, 200),
    "bryggen": (200, 200, 30),
    "alamo mission in san antonio": (30, 200, 200),
}
CONFUSED = ("alamo mission in san antonio", "big ben")  # the one mistake the fake service makes


def read_colour(picture: bytes) -> str:
    """The landmark of the nearest colour at the picture's centre, but the alamo is taken for big ben."""
    image = Image.open(io.BytesIO(picture)).convert("RGB")
    pixel = image.getpixel((image.width // 2, image.height // 2))
    assert isinstance(pixel, tuple)
    name = min(COLOURS, key=lambda n: sum((a - b) ** 2 for a, b in zip(COLOURS[n], pixel, strict=True)))
    return CONFUSED[1] if name == CONFUSED[0] else name


@pytest.fixture
def photos(tmp_path):
    folder = tmp_path / "photos"
    for landmark, colour in COLOURS.items():
        (folder / landmark).mkdir(parents=True)
        for index in range(2):
            Image.new("RGB", (96, 96), colour).save(folder / landmark / f"{index}.png")
    return folder


def test_azure_is_measured_on_photos_through_its_sdk(fake_azure: FakeAzure, photos, tmp_path, monkeypatch) -> None:
    fake_azure.picture_labeller = read_colour
    config = tmp_path / "recognizers.toml"
    config.write_text(f'[cache]\npath = "{tmp_path / "labels.sqlite3"}"\n', encoding="utf-8")
    monkeypatch.setenv("RUMMY_VISION_CONFIG", str(config))
    monkeypatch.setenv("AZURE_VISION_ENDPOINT", fake_azure.base_url)
    monkeypatch.setenv("AZURE_VISION_KEY", GOOD_KEY)
    monkeypatch.setenv("RUMMY_VISION_AZURE_TIER", "1000/s")  # the rate limit is tested elsewhere

    counts = ask_rounds("azure", FIT_SEED, 2, photos=photos)

    truths = [answer.truth for answer in counts.answers]
    assert counts.cards == 2 * 40 and counts.unanswered == 0, "every photo reached the service and was named"
    assert set(truths) <= set(COLOURS), "only landmarks with photos are dealt"
    assert fake_azure.calls and all(path == "analyze" for path, _ in fake_azure.calls)
    assert len(fake_azure.streams) == len(fake_azure.calls), "loopback photos go as bytes, through the SDK"
    assert set(fake_azure.keys_seen) == {GOOD_KEY}
    assert len(fake_azure.calls) <= len(counts.photos), "a photo already named is not paid for again (the cache)"
    alamo = truths.count(CONFUSED[0])
    assert counts.right == counts.cards - alamo, "right on every photo but the alamo's"
    named_wrong = sum(1 for a in counts.answers if a.truth != a.top and CONFUSED[1] in a.in_round)
    assert counts.in_round - counts.right == named_wrong and counts.outside == alamo - named_wrong
    if named_wrong:
        model = fitted_model(counts)
        assert model.error_rate == pytest.approx(named_wrong / counts.in_round)
