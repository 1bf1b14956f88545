"""Custom Vision training through the SDK against a fake training endpoint on loopback, then prediction."""

from __future__ import annotations

import base64
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from recognizers_fakes import serve, stop

from recognizers.customvision_training import CustomVisionTrainer, TrainingError, export_by_tag
from recognizers.registry import get_recognizer
from rummy.catalog import DEFAULT_CATALOG

TRAINING_KEY = "training-key-0123456789"
PREDICTION_KEY = "prediction-key-9876543210"
RESOURCE = "/subscriptions/s/resourceGroups/g/providers/Microsoft.CognitiveServices/accounts/pred"
BASE = "/customvision/v3.4-preview/training"


@dataclass
class FakeTraining:
    base_url: str = ""
    calls: list[str] = field(default_factory=list)
    keys: set[str] = field(default_factory=set)
    tags: dict[str, str] = field(default_factory=dict)  # tag id -> name
    pictures: dict[str, str] = field(default_factory=dict)  # picture name -> tag name
    contents: dict[str, bytes] = field(default_factory=dict)  # picture name -> the bytes uploaded
    published: dict[str, str] = field(default_factory=dict)  # publish name -> prediction resource
    polls: int = 0


def iteration(project: str, status: str) -> dict[str, Any]:
    return {"id": "it-1", "name": "Iteration 1", "status": status, "projectId": project, "exportable": False}


@pytest.fixture
def fake_training():
    fake = FakeTraining()
    app = FastAPI()

    @app.middleware("http")
    async def record(request: Request, call_next):  # type: ignore[no-untyped-def]
        fake.calls.append(f"{request.method} {request.url.path}")
        fake.keys.add(request.headers.get("Training-key", request.headers.get("Prediction-Key", "")))
        if request.headers.get("Training-key", TRAINING_KEY) != TRAINING_KEY:
            return JSONResponse({"code": "Unauthorized", "message": "bad key"}, status_code=401)
        return await call_next(request)

    @app.get(f"{BASE}/domains")
    def domains() -> list[dict[str, Any]]:
        return [
            {"id": "d-obj", "name": "General", "type": "ObjectDetection", "exportable": False, "enabled": True},
            {"id": "d-gen", "name": "General", "type": "Classification", "exportable": False, "enabled": True},
        ]

    @app.post(f"{BASE}/projects")
    def project(name: str, domainId: str, classificationType: str) -> dict[str, Any]:  # noqa: N803
        assert (domainId, classificationType) == ("d-gen", "Multiclass")
        return {"id": "p-1", "name": name, "description": ""}

    @app.post(f"{BASE}/projects/p-1/tags")
    def tag(name: str) -> dict[str, Any]:
        tag_id = str(uuid.uuid4())
        fake.tags[tag_id] = name
        return {"id": tag_id, "name": name, "type": "Regular", "imageCount": 0}

    @app.post(f"{BASE}/projects/p-1/images/files")
    async def upload(request: Request) -> dict[str, Any]:
        body = await request.json()
        assert len(body["images"]) <= 64
        for image in body["images"]:
            fake.contents[image["name"]] = base64.b64decode(image["contents"])
            assert fake.contents[image["name"]]
            fake.pictures[image["name"]] = fake.tags[image["tagIds"][0]]
        return {"isBatchSuccessful": True, "images": [{"sourceUrl": i["name"], "status": "OK"} for i in body["images"]]}

    @app.post(f"{BASE}/projects/p-1/train")
    def train() -> dict[str, Any]:
        return iteration("p-1", "Training")

    @app.get(f"{BASE}/projects/p-1/iterations/it-1")
    def get_iteration() -> dict[str, Any]:
        fake.polls += 1
        return iteration("p-1", "Completed" if fake.polls >= 2 else "Training")

    @app.post(f"{BASE}/projects/p-1/iterations/it-1/publish")
    def publish(publishName: str, predictionId: str) -> bool:  # noqa: N803
        fake.published[publishName] = predictionId
        return True

    @app.post("/customvision/v3.0/Prediction/p-1/classify/iterations/{name}/url")
    async def predict(name: str, request: Request) -> JSONResponse:
        if request.headers.get("Prediction-Key") != PREDICTION_KEY:
            return JSONResponse({"code": "Unauthorized", "message": "bad key"}, status_code=401)
        if name not in fake.published:
            return JSONResponse({"code": "NotFoundIteration", "message": "not published"}, status_code=404)
        picture = str((await request.json())["Url"]).rsplit("/", 1)[1]
        tag = fake.pictures.get(picture, "giralda")
        others = [n for n in set(fake.tags.values()) if n != tag]
        predictions = [{"probability": 0.9, "tagId": "t", "tagName": tag}] + [
            {"probability": 0.1 / len(others), "tagId": "u", "tagName": n} for n in others
        ]
        return JSONResponse({"id": "x", "project": "p-1", "iteration": "it-1", "predictions": predictions})

    served = serve(app)
    fake.base_url = served.base_url
    yield fake
    stop(served)


def gallery(tmp_path: Path, per_tag: int = 6) -> Path:
    folder = tmp_path / "pictures"
    for landmark in ("trevi fountain", "big ben", "giralda"):
        (folder / landmark).mkdir(parents=True)
        for n in range(per_tag):
            (folder / landmark / f"{landmark.replace(' ', '-')}-{n}.png").write_bytes(f"png {landmark} {n}".encode())
    return folder


def test_export_groups_pictures_by_tag_and_refuses_thin_tags(tmp_path: Path) -> None:
    exported = export_by_tag(gallery(tmp_path))
    assert sorted(exported) == ["big ben", "giralda", "trevi fountain"] and all(len(v) == 6 for v in exported.values())
    with pytest.raises(TrainingError, match="at least 5 pictures per tag"):
        export_by_tag(gallery(tmp_path / "thin", per_tag=3))


def test_train_publish_then_customvision_predicts(fake_training: FakeTraining, tmp_path: Path) -> None:
    sleeps: list[float] = []
    trainer = CustomVisionTrainer(fake_training.base_url, TRAINING_KEY, sleep=sleeps.append, poll_s=2.0)
    published = trainer.train_and_publish(
        export_by_tag(gallery(tmp_path, per_tag=30)),
        project_name="rummy landmarks",
        publish_name="landmarks-v1",
        prediction_resource_id=RESOURCE,
    )
    assert published.pictures == 90 and fake_training.published == {"landmarks-v1": RESOURCE}
    assert sum(1 for call in fake_training.calls if call.endswith("/images/files")) == 2, "batches of at most 64"
    assert sleeps == [2.0, 2.0] and TRAINING_KEY not in repr(trainer)
    recognizer = get_recognizer(
        "customvision", prediction_url=published.prediction_url, key=PREDICTION_KEY, cache=":memory:"
    )
    labels = recognizer.recognize([(1, "https://cards.example/big-ben-4.png")], DEFAULT_CATALOG)
    assert labels[1].landmark == "big ben"


def test_a_refused_key_is_a_clear_error(fake_training: FakeTraining, tmp_path: Path) -> None:
    trainer = CustomVisionTrainer(fake_training.base_url, "wrong-key", sleep=lambda s: None)
    with pytest.raises(TrainingError, match="listing domains: the service answered 401"):
        trainer.train_and_publish(
            export_by_tag(gallery(tmp_path)), project_name="p", publish_name="v1", prediction_resource_id=RESOURCE
        )


def test_cli_trains_and_prints_the_prediction_url(fake_training: FakeTraining, tmp_path: Path, monkeypatch) -> None:
    from typer.testing import CliRunner

    from bot.cli.main import app

    monkeypatch.setenv("CUSTOM_VISION_TRAINING_KEY", TRAINING_KEY)
    monkeypatch.setattr("recognizers.customvision_training.time.sleep", lambda s: None)
    args = ["recognizers", "train-customvision", str(gallery(tmp_path)), "--prediction-resource-id", RESOURCE]
    result = CliRunner().invoke(app, [*args, "--endpoint", fake_training.base_url, "--publish-name", "v2"])
    assert result.exit_code == 0, result.output
    assert f"{fake_training.base_url}/customvision/v3.0/Prediction/p-1/classify/iterations/v2/url" in result.output
    assert TRAINING_KEY not in result.output
    monkeypatch.delenv("CUSTOM_VISION_TRAINING_KEY")
    result = CliRunner().invoke(app, [*args, "--endpoint", fake_training.base_url])
    assert result.exit_code == 2 and "CUSTOM_VISION_TRAINING_KEY" in result.output


def picture(seed: int, side: int = 300) -> bytes:
    """A PNG of random coloured blocks (a picture the gallery can describe), `side` pixels square."""
    import io
    import random

    from PIL import Image, ImageDraw

    rng = random.Random(seed)
    image = Image.new("RGB", (side, side), tuple(rng.randrange(256) for _ in range(3)))
    draw = ImageDraw.Draw(image)
    for _ in range(12):
        x, y = rng.randrange(side), rng.randrange(side)
        draw.rectangle((x, y, x + side // 4, y + side // 5), fill=tuple(rng.randrange(256) for _ in range(3)))
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def noise_picture(side: int) -> bytes:
    """A PNG of random pixels: large on disk, so the gallery keeps a smaller copy."""
    import io
    import random

    from PIL import Image

    image = Image.frombytes("RGB", (side, side), random.Random(side).randbytes(side * side * 3))
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def test_the_gallery_keeps_its_pictures_and_trains_custom_vision_from_them(
    fake_training: FakeTraining, tmp_path: Path, monkeypatch
) -> None:
    import sqlite3

    import numpy as np
    from typer.testing import CliRunner

    from bot.cli.main import app
    from recognizers.gallery import Gallery
    from recognizers.gallery_pictures import KEEP_MAX_BYTES, KEEP_MAX_SIDE
    from recognizers.local import LocalRecognizer

    path = tmp_path / "gallery.sqlite3"
    # A gallery from before pictures were kept: one entry, features only.
    with sqlite3.connect(path) as old:
        old.execute(
            "CREATE TABLE pictures (id INTEGER PRIMARY KEY, landmark TEXT NOT NULL, content_hash TEXT NOT NULL UNIQUE,"
            " source TEXT NOT NULL, version INTEGER NOT NULL, vectors BLOB NOT NULL, dims INTEGER NOT NULL,"
            " added_at REAL NOT NULL)"
        )
        vectors = np.zeros((1, 4), dtype=np.float32).tobytes()
        old.execute("INSERT INTO pictures VALUES (1, 'giralda', 'old', 'import', 0, ?, 4, 0)", (vectors,))
    store = Gallery(path)
    learner = LocalRecognizer(store)
    kept: dict[str, bytes] = {}
    for index, landmark in enumerate(["trevi fountain"] * 5 + ["big ben"] * 5):
        data = picture(index)
        assert learner.learn(data, landmark, source="import")
        kept[data.hex()] = data
    large = noise_picture(1400)
    assert len(large) > KEEP_MAX_BYTES and learner.learn(large, "big ben", source="azure")
    store.close()

    runner = CliRunner()
    done = runner.invoke(app, ["recognizers", "export", str(tmp_path / "out"), "--gallery", str(path)])
    assert done.exit_code == 0, done.output
    folded = " ".join(done.output.split())
    assert "big ben: 6" in folded and "trevi fountain: 5" in folded
    assert "1 gallery entry has no picture" in folded, "the old entry is counted, not silently dropped"
    written = sorted((tmp_path / "out").rglob("*.*"))
    assert len(written) == 11 and {p.parent.name for p in written} == {"big ben", "trevi fountain"}
    as_is = [p for p in written if p.suffix == ".png"]
    assert len(as_is) == 10 and all(p.read_bytes().hex() in kept for p in as_is), "small pictures are kept as they are"
    (smaller,) = [p for p in written if p.suffix == ".jpg"]
    from PIL import Image

    with Image.open(smaller) as image:
        assert max(image.size) == KEEP_MAX_SIDE and len(smaller.read_bytes()) < len(large)
    again = runner.invoke(app, ["recognizers", "export", str(tmp_path / "out"), "--gallery", str(path)])
    assert again.exit_code == 0 and len(sorted((tmp_path / "out").rglob("*.*"))) == 11

    monkeypatch.setenv("CUSTOM_VISION_TRAINING_KEY", TRAINING_KEY)
    monkeypatch.setattr("recognizers.customvision_training.time.sleep", lambda s: None)
    args = ["recognizers", "train-customvision", "--from-gallery", "--gallery", str(path)]
    args += ["--prediction-resource-id", RESOURCE, "--endpoint", fake_training.base_url]
    trained = runner.invoke(app, args)
    assert trained.exit_code == 0, trained.output
    assert "Trained on 11 pictures of 2 landmarks" in trained.output
    assert sorted(fake_training.pictures.values()).count("big ben") == 6
    uploaded = {data.hex() for data in fake_training.contents.values()}
    assert set(kept) <= uploaded, "the pictures uploaded are the gallery's own"
    both = runner.invoke(app, [*args, str(tmp_path / "out")])
    assert both.exit_code == 2 and "one of the two" in both.output
