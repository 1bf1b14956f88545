"""`customvision`: an Azure Custom Vision classifier's prediction endpoints, via httpx.

POST <prediction url> with header `Prediction-Key` and body `{"Url": image_url}`; a picture the
service cannot reach itself (a local server's card) goes as bytes to the image endpoint instead:
the same URL ending `/image` rather than `/url`, with `Content-Type: application/octet-stream`
(or `image_url`, when the prediction URL has another shape). The answer's
`predictions` are (tagName, probability) pairs. Tags are named after catalog landmarks (any
spelling the name matcher accepts); the top tag must reach `threshold` probability.
"""

from __future__ import annotations

from typing import Any

import httpx

from recognizers.failures import ApiFailure
from recognizers.observation import Observation
from recognizers.remote import OUTAGE_PAUSE, ApiRecognizer, failure_for_status
from recognizers.secrets import MASK, Secret


class CustomVisionRecognizer(ApiRecognizer):
    name = "customvision"

    def __init__(
        self,
        prediction_url: str,
        key: Secret | str,
        *,
        threshold: float = 0.5,
        timeout: float = 15.0,
        client: httpx.Client | None = None,
        image_url: str | None = None,
        **options: Any,
    ) -> None:
        secret = key if isinstance(key, Secret) else Secret(key)
        if not prediction_url or not secret:
            raise ValueError(
                "customvision needs a prediction URL and a key "
                "(CUSTOM_VISION_PREDICTION_URL, CUSTOM_VISION_PREDICTION_KEY)"
            )
        if not 0.0 <= threshold <= 1.0:
            raise ValueError(f"customvision threshold must be between 0 and 1, not {threshold}")
        super().__init__(secrets=(secret.reveal(),), threshold=threshold, **options)
        self.prediction_url = prediction_url
        self.image_url = image_url or image_endpoint(prediction_url)
        self._key = secret
        self.timeout = timeout
        self._http = client if client is not None else httpx.Client(timeout=timeout)

    def __repr__(self) -> str:
        return f"CustomVisionRecognizer(prediction_url={self.prediction_url!r}, key={MASK!r})"

    def _fetch(self, url: str, image: bytes | None = None) -> Observation:
        timeout = self._request_timeout(self.timeout)
        try:
            if image is not None:
                response = self._http.post(
                    self.image_url,
                    headers={"Prediction-Key": self._key.reveal(), "Content-Type": "application/octet-stream"},
                    content=image,
                    timeout=timeout,
                )
            else:
                response = self._http.post(
                    self.prediction_url,
                    headers={"Prediction-Key": self._key.reveal(), "Content-Type": "application/json"},
                    json={"Url": url},
                    timeout=timeout,
                )
        except httpx.TransportError as error:
            raise ApiFailure(
                f"customvision endpoint unreachable: {type(error).__name__}", retryable=True, pause=OUTAGE_PAUSE
            ) from None
        body = _json_or_none(response)
        if response.status_code != 200:
            raise failure_for_status(response.status_code, _error_message(body, response), response.headers, self.name)
        if not isinstance(body, dict) or not isinstance(body.get("predictions"), list):
            raise ApiFailure(f"customvision answered without a predictions list: {response.text[:80]!r}")
        predictions: list[tuple[str, float]] = []
        for item in body["predictions"]:
            if not isinstance(item, dict) or not isinstance(item.get("tagName"), str):
                raise ApiFailure(f"customvision prediction without a tagName: {str(item)[:80]!r}")
            try:
                predictions.append((item["tagName"], float(item.get("probability", 0.0))))
            except (TypeError, ValueError):
                raise ApiFailure(f"customvision probability is not a number: {str(item)[:80]!r}") from None
        predictions.sort(key=lambda pair: -pair[1])
        return Observation(tuple(predictions), (), "customvision")


def image_endpoint(prediction_url: str) -> str:
    """The image endpoint beside a URL endpoint: `.../classify/iterations/NAME/url` -> `.../image`."""
    base, query = (prediction_url.split("?", 1) + [""])[:2]
    stem = base.rstrip("/")
    if stem.lower().endswith("/url"):
        stem = stem[: -len("/url")] + "/image"
    elif not stem.lower().endswith("/image"):
        stem += "/image"
    return stem + (f"?{query}" if query else "")


def _json_or_none(response: httpx.Response) -> Any:
    try:
        return response.json()
    except ValueError:
        return None


def _error_message(body: Any, response: httpx.Response) -> str:
    """Custom Vision errors are {"code", "message"}; gateways (401, 429) wrap them in {"error": ...}."""
    if isinstance(body, dict):
        wrapped = body.get("error")
        inner = wrapped if isinstance(wrapped, dict) else body
        code, message = inner.get("code"), inner.get("message")
        if code or message:
            return f"({code}) {message}" if code else str(message)
    return response.reason_phrase or "no error message"
