"""`azure`: Azure Computer Vision v3.2 through the official SDK (`ComputerVisionClient`).

Two ways to ask, chosen by `mode`:
- "analyze" (default): one `analyze_image` call with `details=[Landmarks]` plus the Description
  and Tags features, so the caption/tag fallback costs no second call. Landmarks come back under
  `categories[].detail.landmarks`.
- "domain": the landmarks domain model (`models/landmarks/analyze`, `result.landmarks`); when it
  finds none, a `describe_image` call supplies caption and tags.
"""

from __future__ import annotations

import io
from typing import Any

from azure.cognitiveservices.vision.computervision import ComputerVisionClient
from azure.cognitiveservices.vision.computervision.models import Details, VisualFeatureTypes
from azure.core.exceptions import DeserializationError
from msrest.authentication import CognitiveServicesCredentials
from msrest.exceptions import ClientRequestError, HttpOperationError

from recognizers.failures import ApiFailure
from recognizers.observation import Observation
from recognizers.remote import OUTAGE_PAUSE, ApiRecognizer, failure_for_status
from recognizers.secrets import MASK, Secret

MODES = ("analyze", "domain")


class AzureRecognizer(ApiRecognizer):
    name = "azure"

    def __init__(
        self, endpoint: str, key: Secret | str, *, mode: str = "analyze", timeout: float = 15.0, **options: Any
    ) -> None:
        if mode not in MODES:
            raise ValueError(f"azure mode must be one of {', '.join(MODES)}, not {mode!r}")
        secret = key if isinstance(key, Secret) else Secret(key)
        if not endpoint or not secret:
            raise ValueError("azure needs an endpoint and a key (AZURE_VISION_ENDPOINT, AZURE_VISION_KEY)")
        super().__init__(secrets=(secret.reveal(),), **options)
        self.endpoint = endpoint.rstrip("/")
        self.mode = mode
        self.timeout = timeout
        self._client = ComputerVisionClient(self.endpoint, CognitiveServicesCredentials(secret.reveal()))
        # The SDK's urllib3 retry would retry 5xx on its own with long backoff and ignore our
        # limiter; tenacity in ApiRecognizer does the retrying instead.
        self._client.config.retry_policy.retries = 0
        self._client.config.connection.timeout = timeout  # type: ignore[assignment]  # msrest says int; requests takes float s

    def __repr__(self) -> str:
        return f"AzureRecognizer(endpoint={self.endpoint!r}, key={MASK!r}, mode={self.mode!r})"

    def _fetch(self, url: str, image: bytes | None = None) -> Observation:
        client = self._client
        # A picture the service cannot reach goes as bytes, through the SDK's *_in_stream calls;
        # each call gets a fresh stream, since a retry must send the whole picture again.
        try:
            if self.mode == "analyze":
                features = [VisualFeatureTypes.categories, VisualFeatureTypes.description, VisualFeatureTypes.tags]
                timeout = self._request_timeout(self.timeout)
                if image is not None:
                    analysis = client.analyze_image_in_stream(
                        io.BytesIO(image), visual_features=features, details=[Details.landmarks], timeout=timeout
                    )
                else:
                    analysis = client.analyze_image(
                        url, visual_features=features, details=[Details.landmarks], timeout=timeout
                    )
                return Observation(_analysis_landmarks(analysis), _analysis_hints(analysis), "azure")
            if image is not None:
                result = client.analyze_image_by_domain_in_stream(
                    "landmarks", io.BytesIO(image), timeout=self._request_timeout(self.timeout)
                )
            else:
                result = client.analyze_image_by_domain("landmarks", url, timeout=self._request_timeout(self.timeout))
            landmarks = _domain_landmarks(result.result)
            if landmarks:
                return Observation(landmarks, (), "azure")
            # The domain model saw no landmark: a caption or tag may still name one.
            if not self._extra_call_allowed():
                return Observation((), (), "azure")
            if image is not None:
                description = client.describe_image_in_stream(
                    io.BytesIO(image), max_candidates=3, timeout=self._request_timeout(self.timeout)
                )
            else:
                description = client.describe_image(url, max_candidates=3, timeout=self._request_timeout(self.timeout))
            return Observation((), _description_hints(description, None), "azure")
        except HttpOperationError as error:  # ComputerVisionErrorResponseException is one
            raise _failure(error) from None
        except DeserializationError as error:
            raise ApiFailure(f"azure answered something that is not a v3.2 result: {error}") from None
        except ClientRequestError as error:
            raise ApiFailure(
                f"azure endpoint unreachable: {type(error).__name__}", retryable=True, pause=OUTAGE_PAUSE
            ) from None


def _failure(error: Any) -> ApiFailure:
    response = getattr(error, "response", None)
    status = getattr(response, "status_code", 0) or 0
    headers = dict(getattr(response, "headers", {}) or {})
    return failure_for_status(status, str(error.message), headers, "azure")


def _scored(items: Any, name_key: str = "name") -> tuple[tuple[str, float], ...]:
    found: list[tuple[str, float]] = []
    for item in items or ():
        if isinstance(item, dict):
            name, score = item.get(name_key), item.get("confidence", 0.0)
        else:
            name, score = getattr(item, name_key, None), getattr(item, "confidence", 0.0)
        if isinstance(name, str) and name.strip():
            try:
                found.append((name, float(score or 0.0)))
            except (TypeError, ValueError):
                found.append((name, 0.0))
    return tuple(sorted(found, key=lambda pair: -pair[1]))


def _analysis_landmarks(analysis: Any) -> tuple[tuple[str, float], ...]:
    landmarks: list[tuple[str, float]] = []
    for category in analysis.categories or ():
        detail = getattr(category, "detail", None)
        landmarks.extend(_scored(getattr(detail, "landmarks", None)))
    return tuple(sorted(landmarks, key=lambda pair: -pair[1]))


def _analysis_hints(analysis: Any) -> tuple[tuple[str, float], ...]:
    return _description_hints(analysis.description, analysis.tags)


def _description_hints(description: Any, tags: Any) -> tuple[tuple[str, float], ...]:
    hints = list(_scored(getattr(description, "captions", None), "text"))
    hints.extend(_scored(tags))
    # describe's own tag list has names only; a name is weak evidence, so it scores 0.5
    hints.extend((tag, 0.5) for tag in getattr(description, "tags", None) or () if isinstance(tag, str))
    return tuple(hints)


def _domain_landmarks(result: Any) -> tuple[tuple[str, float], ...]:
    if not isinstance(result, dict):
        return ()
    return _scored(result.get("landmarks"))
