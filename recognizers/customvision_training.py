"""Train and publish a Custom Vision classifier from labelled pictures, through the official SDK.

The pictures come as a folder with one subfolder per landmark (`DIR/<landmark>/*.png`, the layout
`recognizers import` reads); each landmark becomes a tag named after it, so the `customvision`
recognizer maps the classifier's answers back to the catalog. The steps are the portal's: a
Classification project (Multiclass, the General domain), the pictures uploaded in batches with
their tag, a quick training, and the iteration published to your prediction resource. The result
is the prediction URL for image URLs, which `customvision` (and the `customvision` starter bot) use
with the prediction key.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from azure.cognitiveservices.vision.customvision.training import CustomVisionTrainingClient
from azure.cognitiveservices.vision.customvision.training.models import (
    ImageFileCreateBatch,
    ImageFileCreateEntry,
)
from msrest.authentication import ApiKeyCredentials
from msrest.exceptions import HttpOperationError

from recognizers.secrets import MASK, Secret

log = logging.getLogger("recognizers")

PICTURE_SUFFIXES = {".jpg", ".jpeg", ".png", ".bmp", ".gif", ".webp"}
BATCH_SIZE = 64  # the training API's most pictures per upload call
MIN_PER_TAG = 5  # Custom Vision refuses to train a tag with fewer pictures


class TrainingError(RuntimeError):
    """Training could not go on; the message says which step and why."""


@dataclass(frozen=True)
class Published:
    project_id: str
    iteration_id: str
    publish_name: str
    prediction_url: str  # for image URLs; with the prediction key, what `customvision` needs
    pictures: int
    tags: tuple[str, ...]


def export_by_tag(folder: Path) -> dict[str, list[Path]]:
    """{tag: picture files} from `folder/<landmark>/*`; a landmark with too few pictures is an error."""
    if not folder.is_dir():
        raise TrainingError(f"{folder} is not a folder of landmark folders")
    found: dict[str, list[Path]] = {}
    for sub in sorted(path for path in folder.iterdir() if path.is_dir()):
        pictures = sorted(p for p in sub.iterdir() if p.is_file() and p.suffix.lower() in PICTURE_SUFFIXES)
        if pictures:
            found[sub.name] = pictures
    if len(found) < 2:
        raise TrainingError(f"{folder} needs pictures of at least 2 landmarks (one subfolder each)")
    short = {tag: len(files) for tag, files in found.items() if len(files) < MIN_PER_TAG}
    if short:
        raise TrainingError(f"Custom Vision needs at least {MIN_PER_TAG} pictures per tag; too few: {short}")
    return found


def prediction_url(endpoint: str, project_id: str, publish_name: str) -> str:
    return f"{endpoint.rstrip('/')}/customvision/v3.0/Prediction/{project_id}/classify/iterations/{publish_name}/url"


class CustomVisionTrainer:
    def __init__(
        self,
        endpoint: str,
        training_key: Secret | str,
        *,
        sleep: Callable[[float], None] | None = None,
        poll_s: float = 5.0,
        timeout_s: float = 3600.0,
    ) -> None:
        secret = training_key if isinstance(training_key, Secret) else Secret(training_key)
        if not endpoint or not secret:
            raise TrainingError("training needs the Custom Vision endpoint and a training key")
        self.endpoint = endpoint.rstrip("/")
        self._client: Any = CustomVisionTrainingClient(  # type: ignore[no-untyped-call]
            self.endpoint, ApiKeyCredentials(in_headers={"Training-key": secret.reveal()})
        )
        self._sleep = sleep or time.sleep
        self.poll_s = poll_s
        self.timeout_s = timeout_s

    def __repr__(self) -> str:
        return f"CustomVisionTrainer(endpoint={self.endpoint!r}, training_key={MASK!r})"

    def _trained(self, client: Any, project_id: Any, iteration: Any, progress: Callable[[str], None]) -> Any:
        """The iteration once its training completed, asked every poll_s seconds up to timeout_s."""
        waited = 0.0
        while iteration.status != "Completed":
            if iteration.status == "Failed":
                raise TrainingError(f"training failed: {iteration.training_error_details or 'no details'}")
            if waited > self.timeout_s:
                raise TrainingError(f"training still {iteration.status} after {self.timeout_s:g} s")
            progress(f"training: {iteration.status}")
            self._sleep(self.poll_s)
            waited += self.poll_s
            iteration = client.get_iteration(project_id, iteration.id)
        return iteration

    def train_and_publish(
        self,
        pictures: Mapping[str, list[Path]],
        *,
        project_name: str,
        publish_name: str,
        prediction_resource_id: str,
        progress: Callable[[str], None] = log.info,
    ) -> Published:
        client: Any = self._client
        step = "listing domains"
        try:
            domain = next((d for d in client.get_domains() if d.type == "Classification" and d.name == "General"), None)
            if domain is None:
                raise TrainingError("the service offers no General classification domain")
            step = "creating the project"
            project = client.create_project(project_name, domain_id=domain.id, classification_type="Multiclass")
            progress(f"project {project_name} ({project.id})")
            tags: dict[str, Any] = {}
            for name in pictures:
                step = f"creating tag {name!r}"
                tags[name] = client.create_tag(project.id, name)
            entries = [
                ImageFileCreateEntry(name=path.name, contents=bytearray(path.read_bytes()), tag_ids=[tags[name].id])
                for name, paths in pictures.items()
                for path in paths
            ]
            for start in range(0, len(entries), BATCH_SIZE):
                step = f"uploading pictures {start + 1}-{min(start + BATCH_SIZE, len(entries))}"
                batch = ImageFileCreateBatch(images=entries[start : start + BATCH_SIZE])
                summary = client.create_images_from_files(project.id, batch)
                failed = [image.status for image in summary.images or [] if image.status not in ("OK", "OKDuplicate")]
                if not summary.is_batch_successful and failed:
                    raise TrainingError(f"{step}: the service refused some pictures ({', '.join(sorted(set(failed)))})")
                progress(step)
            step = "starting training"
            iteration = client.train_project(project.id)
            step = "asking how training goes"  # only get_iteration, in _trained, calls the service
            iteration = self._trained(client, project.id, iteration, progress)
            step = "publishing the iteration"
            client.publish_iteration(project.id, iteration.id, publish_name, prediction_resource_id)
        except HttpOperationError as error:
            raise TrainingError(f"{step}: the service answered {error.response.status_code}: {error}") from None
        except OSError as error:
            raise TrainingError(f"{step}: {error}") from None
        url = prediction_url(self.endpoint, project.id, publish_name)
        progress(f"published as {publish_name}: {url}")
        return Published(project.id, iteration.id, publish_name, url, len(entries), tuple(pictures))
