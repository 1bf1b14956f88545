"""`serve --vision [RECOGNIZER]`: the vision calls the starter templates make, answered for this referee's cards.

With it the `vision`, `customvision` and `strong` templates play with labels offline: point
AZURE_VISION_ENDPOINT (and the Custom Vision prediction URL) at the referee and use its key. Answered:

- Azure Computer Vision v3.2 `POST /vision/v3.2/analyze?details=Landmarks` (JSON `{"url": ...}` or the
  picture's bytes), `POST /vision/v3.2/models/landmarks/analyze` (the landmark domain model) and
  `POST /vision/v3.2/describe` (what the SDK asks when the domain model saw nothing), key in
  `Ocp-Apim-Subscription-Key`;
- Custom Vision `POST /customvision/v3.0/Prediction/PROJECT/classify/iterations/NAME/url` (`{"Url": ...}`)
  and `.../image` (bytes), key in `Prediction-Key`,

in those services' JSON shapes, errors included (401 for a missing or wrong key, 400 for a picture that is
not one of this referee's cards). A card is known by its URL (`.../cards/TOKEN.png`, any host) or by the
bytes this server sent for it. The answer is the card's true landmark, or what the named error model says
(`noisy:0.1`, `harsh:0.1`, `corrected:harsh:0.2`...: recognizers/noisy.py), seeded per card so a card
always gets the same answer; the harsh model's "round" is the cards in view in the card's match.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections import OrderedDict
from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse

from recognizers.observation import candidates_of
from recognizers.registry import get_recognizer
from rummy.labels import CardLabel, Recognizer
from server.cards import HEIGHT, WIDTH

DEFAULT_VISION_KEY = "rummy-vision-local-key"
TRUTH = "oracle"
# The error models the service can play; each wraps the true labels ("oracle").
MODEL_PARTS = {"oracle", "noisy", "harsh", "corrected"}
MAX_IMAGE_BYTES = 4 * 1024 * 1024  # Azure's and Custom Vision's limit
REMEMBERED_PICTURES = 50_000  # picture digests kept to know a card by its bytes (64-byte entries)
MODEL_VERSION = "2021-05-01"
CUSTOM_VISION_PATH = "/customvision/{version}/Prediction/{project}/classify/iterations/{iteration}/{kind}"

AZURE_401 = (
    "Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an "
    "active subscription and use a correct regional API endpoint for your resource."
)
AZURE_401_MISSING = (
    "Access denied due to missing subscription key. Make sure to include subscription key when making requests "
    "to an API."
)


def check_spec(spec: str) -> str:
    """`spec` if the service can play it (the truth or an error model over it), else ValueError."""
    spec = spec.strip() or TRUTH
    names = [part.lower() for part in spec.split(":") if not _is_number(part)]
    if not names or any(name not in MODEL_PARTS for name in names) or names[-1] not in ("oracle", "noisy", "harsh"):
        raise ValueError(
            f"--vision takes the truth (oracle) or an error model over it, e.g. noisy:0.1, harsh:0.1, "
            f"corrected:harsh:0.2; not {spec!r}"
        )
    get_recognizer(spec, source={})  # a bad rate says so now, not at the first call
    return spec


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def token_of_card_url(url: str) -> str | None:
    """The token of a card URL (`.../cards/TOKEN.png` or `.jpg`, any host), or None for another URL."""
    path = url.split("?", 1)[0].split("#", 1)[0]
    head, _, name = path.rpartition("/")
    if not head.endswith("/cards") and head != "cards":
        return None
    for suffix in (".png", ".jpg"):
        if name.endswith(suffix) and len(name) > len(suffix):
            return name[: -len(suffix)]
    return None


def display_name(landmark: str) -> str:
    """How Azure writes a landmark: each word capitalised ("Saint Joseph's Oratory")."""
    return " ".join(word[:1].upper() + word[1:] for word in landmark.split(" "))


class VisionService:
    """What the vision routes need: the cards' true landmarks (from the referee), the pictures sent, the model."""

    def __init__(self, referee: Any, spec: str, key: str, *, seed: int | str = 0) -> None:
        self.referee = referee
        self.spec = check_spec(spec)
        self.key = key
        self.seed = seed
        self._pictures: OrderedDict[str, str] = OrderedDict()  # sha256 of a picture sent -> card token
        self._models: dict[int, Recognizer] = {}  # per match: the error model keeps a round's context
        self._asked: dict[str, str] = {}  # {"/cards/TOKEN": landmark} of the cards in view, for the oracle inside
        self.asked = {"url": 0, "bytes": 0}  # pictures asked about, by how they came (tests, logs)

    def saw_picture(self, token: str, data: bytes) -> None:
        """Remember that the picture `data` shows card `token` (the card route calls it for bots' PNGs)."""
        digest = hashlib.sha256(data).hexdigest()
        self._pictures[digest] = token
        self._pictures.move_to_end(digest)
        while len(self._pictures) > REMEMBERED_PICTURES:
            self._pictures.popitem(last=False)

    def token_of_picture(self, data: bytes) -> str | None:
        return self._pictures.get(hashlib.sha256(data).hexdigest())

    def label(self, token: str) -> CardLabel | None:
        """What the service says card `token` shows; None when it is not a card this referee dealt."""
        truth = self.referee.landmark_of_token(token)
        if truth is None:
            return None
        if self.spec == TRUTH:
            return CardLabel(truth, 1.0)
        game_id, in_view = self._in_view(token)
        cards = dict(in_view)
        cards.setdefault(token, truth)
        model = self._model(game_id)
        catalog = self._catalog(game_id)
        ids = {name: number for number, name in enumerate(sorted(cards))}
        asked = [(ids[name], f"/cards/{name}") for name in sorted(cards)]
        self._asked = {f"/cards/{name}": kind for name, kind in cards.items()}
        labels = model.recognize(asked, catalog)
        return labels[ids[token]]

    def _in_view(self, token: str) -> tuple[int, dict[str, str]]:
        """The match holding `token` and {token: landmark} of the cards in view in its round (-1, {} if none)."""
        for game_id, live in list(self.referee.live.items()):
            if token in live.tokens:
                shown = live.match.current
                cards = [*shown.hands[0], *shown.hands[1], *shown.laid]
                return game_id, {_token(card.url): card.kind for card in cards}
        return -1, {}

    def _catalog(self, game_id: int) -> tuple[str, ...]:
        live = self.referee.live.get(game_id)
        if live is not None:
            return tuple(live.match.rules.catalog)
        return tuple(self.referee.settings.rules.catalog)

    def _model(self, game_id: int) -> Recognizer:
        model = self._models.get(game_id)
        if model is None:
            self._models = {g: m for g, m in self._models.items() if g in self.referee.live}  # forget ended ones
            model = get_recognizer(self.spec, source=lambda: self._asked, noise_seed=self.seed)
            self._models[game_id] = model
        return model


def _token(url: str) -> str:
    return token_of_card_url(url) or url.rsplit("/", 1)[-1]


router = APIRouter(tags=["vision (serve --vision)"])


async def vision_service(request: Request) -> VisionService:
    """The app's service (a dependency, as server/deps.py's: kept here so the vision code loads only with it)."""
    service: VisionService = request.app.state.vision
    return service


VisionDep = Annotated[VisionService, Depends(vision_service)]


def _azure_error(status: int, code: str, message: str, inner: str | None = None) -> JSONResponse:
    error: dict[str, Any] = {"code": code, "message": message}
    if inner is not None:
        error["innererror"] = {"code": inner, "message": message}
    return JSONResponse({"error": error}, status_code=status)


def _azure_key_refusal(request: Request, service: VisionService) -> JSONResponse | None:
    given = request.headers.get("Ocp-Apim-Subscription-Key") or request.query_params.get("subscription-key")
    if not given:
        return _azure_error(401, "401", AZURE_401_MISSING)
    if given != service.key:
        return _azure_error(401, "401", AZURE_401)
    return None


async def _picture(request: Request, service: VisionService, url_field: str) -> tuple[str | None, str | None]:
    """(token, None) for the card the request shows, or (None, why) when it is not one of ours."""
    size = request.headers.get("content-length", "")
    if size.isdigit() and int(size) > MAX_IMAGE_BYTES:
        return None, "size"
    body = await request.body()
    if len(body) > MAX_IMAGE_BYTES:
        return None, "size"
    kind = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    if kind == "application/json":
        try:
            data = json.loads(body)
        except ValueError:
            return None, "json"
        url = data.get(url_field) if isinstance(data, dict) else None
        if not isinstance(url, str) or not url:
            return None, "url"
        token = token_of_card_url(url)
        if token is None or service.referee.landmark_of_token(token) is None:
            return None, "url"
        service.asked["url"] += 1
        return token, None
    if not body:
        return None, "image"
    token = service.token_of_picture(body)
    if token is None:
        return None, "image"
    service.asked["bytes"] += 1
    return token, None


def _azure_bad_picture(why: str) -> JSONResponse:
    if why == "size":
        return _azure_error(400, "InvalidRequest", "The input image is too large.", "InvalidImageSize")
    if why == "json":
        return _azure_error(400, "InvalidRequest", "The request body is not valid JSON.", "InvalidRequestBody")
    if why == "url":
        return _azure_error(
            400, "InvalidRequest", "Image URL is not a card this local referee dealt.", "InvalidImageUrl"
        )
    return _azure_error(
        400, "InvalidRequest", "Input data is not a card picture this local referee sent.", "InvalidImageFormat"
    )


def _landmarks(label: CardLabel) -> list[dict[str, Any]]:
    if label.landmark is None:
        return []
    return [
        {"name": display_name(name), "confidence": round(float(score), 4)}
        for name, score in candidates_of(label)
        if name
    ]


def _envelope(**fields: Any) -> dict[str, Any]:
    return {
        **fields,
        "requestId": str(uuid.uuid4()),
        "metadata": {"width": WIDTH, "height": HEIGHT, "format": "Png"},
        "modelVersion": MODEL_VERSION,
    }


@router.post("/vision/v3.2/analyze")
async def azure_analyze(request: Request, service: VisionDep) -> JSONResponse:
    """Azure Computer Vision v3.2 analyze: landmarks under `categories[].detail` when `details` has Landmarks."""
    refused = _azure_key_refusal(request, service)
    if refused is not None:
        return refused
    token, why = await _picture(request, service, "url")
    if token is None:
        return _azure_bad_picture(why or "url")
    label = service.label(token)
    assert label is not None
    details = request.query_params.get("details", "").lower().split(",")
    features = request.query_params.get("visualFeatures", "").lower().split(",")
    category: dict[str, Any] = {"name": "building_", "score": 0.9}
    if "landmarks" in details:
        category["detail"] = {"landmarks": _landmarks(label)}
    fields: dict[str, Any] = {"categories": [category]}
    if "tags" in features:
        fields["tags"] = [{"name": "building", "confidence": 0.9}]
    if "description" in features:
        fields["description"] = {"tags": ["building"], "captions": []}
    return JSONResponse(_envelope(**fields))


@router.post("/vision/v3.2/models/{model}/analyze")
async def azure_domain_model(model: str, request: Request, service: VisionDep) -> JSONResponse:
    """Azure Computer Vision v3.2 domain model analyze: `result.landmarks` (only the landmarks model here)."""
    refused = _azure_key_refusal(request, service)
    if refused is not None:
        return refused
    if model != "landmarks":
        return _azure_error(
            400, "InvalidRequest", f"Model '{model}' is not served by the local referee.", "NotSupportedModel"
        )
    token, why = await _picture(request, service, "url")
    if token is None:
        return _azure_bad_picture(why or "url")
    label = service.label(token)
    assert label is not None
    return JSONResponse(_envelope(result={"landmarks": _landmarks(label)}))


@router.post("/vision/v3.2/describe")
async def azure_describe(request: Request, service: VisionDep) -> JSONResponse:
    """Azure Computer Vision v3.2 describe: no caption names a landmark here (the landmark calls do that)."""
    refused = _azure_key_refusal(request, service)
    if refused is not None:
        return refused
    token, why = await _picture(request, service, "url")
    if token is None:
        return _azure_bad_picture(why or "url")
    return JSONResponse(_envelope(description={"tags": ["building", "outdoor"], "captions": []}))


def _custom_vision_error(status: int, code: str, message: str, *, wrapped: bool = False) -> JSONResponse:
    body = {"code": code, "message": message}
    return JSONResponse({"error": body} if wrapped else body, status_code=status)


async def _custom_vision(
    request: Request, service: VisionService, project: str, iteration: str, url_field: str | None
) -> JSONResponse:
    given = request.headers.get("Prediction-Key", "")
    if not given:
        return _custom_vision_error(401, "401", AZURE_401_MISSING, wrapped=True)
    if given != service.key:
        return _custom_vision_error(401, "401", AZURE_401, wrapped=True)
    if url_field is not None and not request.headers.get("content-type", "").startswith("application/json"):
        return _custom_vision_error(400, "BadRequestImageUrl", "Invalid image url")
    token, why = await _picture(request, service, url_field or "Url")
    if token is None:
        if why == "size":
            return _custom_vision_error(400, "BadRequestImageSizeBytes", "Image size in bytes is too large.")
        if url_field is not None:
            return _custom_vision_error(400, "BadRequestImageUrl", "Invalid image url")
        return _custom_vision_error(400, "BadRequestImageFormat", "Bad Request Image Format")
    label = service.label(token)
    assert label is not None
    catalog = service._catalog(service._in_view(token)[0])
    scores = dict(candidates_of(label)) if label.landmark is not None else {}
    if scores:  # a classifier's probabilities: the named ones, the rest of the mass spread over the other tags
        top = max(scores.values())
        scores = {name: score * 0.99 / top if name == label.landmark else score for name, score in scores.items()}
    rest = max(0.0, 1.0 - sum(scores.values())) / max(1, len(catalog) - len(scores))
    predictions = [
        {
            "probability": round(scores.get(name, rest), 6),
            "tagId": str(uuid.uuid5(uuid.NAMESPACE_URL, f"rummy-vision-tag:{name}")),
            "tagName": name,
            "tagType": "Regular",
        }
        for name in catalog
    ]
    predictions.sort(key=lambda item: -float(item["probability"]))  # type: ignore[arg-type]
    return JSONResponse(
        {
            "id": str(uuid.uuid4()),
            "project": project,
            "iteration": iteration,
            "created": datetime.now(UTC).isoformat().replace("+00:00", "Z"),
            "predictions": predictions,
        }
    )


@router.post("/customvision/{version}/Prediction/{project}/classify/iterations/{iteration}/url")
async def custom_vision_url(
    version: str, project: str, iteration: str, request: Request, service: VisionDep
) -> JSONResponse:
    """Custom Vision classify by image URL (`{"Url": ...}`): every tag's probability, best first."""
    return await _custom_vision(request, service, project, iteration, "Url")


@router.post("/customvision/{version}/Prediction/{project}/classify/iterations/{iteration}/image")
async def custom_vision_image(
    version: str, project: str, iteration: str, request: Request, service: VisionDep
) -> JSONResponse:
    """Custom Vision classify by image bytes: every tag's probability, best first."""
    return await _custom_vision(request, service, project, iteration, None)


def how_to_point_bots(base: str, key: str) -> list[str]:
    """The environment that makes the starter templates use this referee's vision service."""
    prediction = base + CUSTOM_VISION_PATH.format(version="v3.0", project="local", iteration="local", kind="url")
    return [
        f"AZURE_VISION_ENDPOINT={base}",
        f"AZURE_VISION_KEY={key}",
        "AZURE_CALLS_PER_PERIOD=1000 AZURE_PERIOD_SECONDS=1",
        f"CUSTOM_VISION_PREDICTION_URL={prediction}",
        f"CUSTOM_VISION_PREDICTION_KEY={key}",
        "CUSTOM_VISION_CALLS_PER_PERIOD=1000 CUSTOM_VISION_PERIOD_SECONDS=1",
    ]
