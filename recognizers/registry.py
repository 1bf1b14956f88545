"""Recognizers by name: `get_recognizer("azure")`, `"customvision"`, `"stub"`, `"oracle"`, `"noisy:0.1"`.

`noisy:RATE[:INNER]` wraps INNER (default `oracle`) and corrupts a seeded fraction RATE of its
labels; `corrected:INNER` makes INNER's labels consistent with the round's deck (4 types, 10 each);
`FIRST+SECOND` labels every card with FIRST and asks SECOND about single cards where the player's
decision hangs on them (recognizers/second_opinion.py; option `asks_per_round`);
`errors:FILE[:INNER]` (FILE a .json) reads INNER with the error model `measure recognizer-errors` wrote in FILE
(`errors:assumed:INNER` with the assumed one; recognizers/error_file.py);
`PATH.py[:INNER]` is the user's own recognizer file, and an installed package can add names through the
entry-point group `rummy_vision.recognizers` (recognizers/user_file.py).
Options are keyword arguments; those a backend does not take are ignored, so one options dict can
serve any name:

- all paid backends: `config` (TOML path), `cache` (SQLite path, or a LabelCache),
  `tier` (free, standard or RATE/PERIOD, see recognizers/tiers.py; also from the environment or config
  file; with none set, free, and a warning says so): every call takes a slot of one limiter shared by all
  the user's processes (`limiter_path`, default in the user data directory; `limiter` to give one),
  `parallel` (calls at once),
  `retry` (RetrySettings), `sleep`/`clock` (tests), `env` (a mapping instead of os.environ),
  `private_hosts` (hosts whose pictures go as bytes), `images` (an ImageFetcher)
- azure: `endpoint`, `key`, `mode` ("analyze" or "domain")
- customvision: `prediction_url`, `key`, `threshold`
- stub: `labels_files`, `labels` (a {url: landmark} mapping)
- oracle: `base_url`, `game_id`, `source` (a {url: landmark} mapping or a callable returning one)
- local: `gallery` (SQLite path, or a Gallery; default beside the label cache), `local_threshold`
- noisy: `noise_seed`, `noise_model` ("ranked", "flat" or "harsh"), `runner_up`, `in_round`, `unknown`
  (`harsh:RATE[:INNER]` is `noisy` with the harsh model; `silent:RATE[:INNER]` is harsh with no wrong names,
  RATE of the cards unanswered)
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from recognizers.cache import LabelCache
from recognizers.corrected import CorrectingRecognizer
from recognizers.error_file import stated_errors
from recognizers.noisy import NoisyRecognizer
from recognizers.second_opinion import ASKS_PER_ROUND, SecondOpinion
from recognizers.settings import Settings, SettingsError, load_settings
from recognizers.shared_limiter import SharedRateLimiter, default_limiter_path
from recognizers.tiers import FREE, TIER_ENV, tier_setting
from recognizers.user_file import entry_point_factory, load_recognizer_file, split_file_spec
from rummy.labels import Recognizer

log = logging.getLogger("recognizers")
_FREE_TIER_SAID: set[str] = set()  # services already warned, in this process, that no tier is set

NAMES = (
    "azure",
    "customvision",
    "stub",
    "oracle",
    "local[:INNER]",
    "noisy:RATE[:INNER]",
    "harsh:RATE[:INNER]",
    "silent:RATE[:INNER]",
    "corrected:INNER",
    "errors:FILE[:INNER]",
    "PATH.py[:INNER]",
    "FIRST+SECOND",
)


def names_help() -> str:
    """Every form a --recognizer takes, for help texts (built from NAMES, so a new recognizer shows up)."""
    return ", ".join(NAMES) + " (INNER is another of these, e.g. corrected:azure)"


def get_recognizer(spec: str, **options: Any) -> Recognizer:
    """The recognizer `spec` names, configured from options, the environment and the config file."""
    first_spec, plus, second_spec = spec.partition("+")
    if plus:
        return _second_opinion(spec, first_spec, second_spec, options)
    # A built-in wrapper's INNER may be a file (`noisy:0.1:mine.py`): only a spec that starts with none is one.
    path, inner_spec = (None, spec) if _wrapper(spec) else split_file_spec(spec)
    if path is not None:
        return load_recognizer_file(path, get_recognizer(inner_spec or "oracle", **options), options)
    name, _, rest = spec.strip().partition(":")
    # A package may add names, never replace ours: one that registered `oracle` would otherwise stand in for the
    # true labels without a word.
    plugged = None if name.lower() in BUILT_IN else entry_point_factory(name)
    if plugged is not None:
        return load_recognizer_file(None, get_recognizer(rest or "oracle", **options), options, factory=plugged)
    name = name.lower()
    if name in ("noisy", "harsh", "silent"):
        return _noisy(spec, name, rest, options)
    if name == "local":
        # numpy, PIL and the gallery (~0.3 s): only when this recognizer is asked for
        from recognizers.local import DEFAULT_THRESHOLD, LocalRecognizer

        teacher = get_recognizer(rest, **options) if rest else None
        return LocalRecognizer(
            _gallery(options, _settings(options)), teacher, threshold=options.get("local_threshold", DEFAULT_THRESHOLD)
        )
    if name == "corrected":
        return CorrectingRecognizer(get_recognizer(rest or "oracle", **options))
    if name == "errors":
        return stated_errors(rest, lambda inner_spec: get_recognizer(inner_spec, **options))
    if rest:
        raise ValueError(f"{name} takes no parameters after ':' (got {spec!r})")
    if name == "oracle":
        from recognizers.oracle import OracleRecognizer  # loads httpx (~0.1 s): only when this recognizer is asked for

        if options.get("source") is not None:
            return OracleRecognizer.from_mapping(options["source"])
        return OracleRecognizer(options.get("base_url"), options.get("game_id"))
    if name == "stub":
        # loads httpx through recognizers.oracle (~0.1 s): only when this recognizer is asked for
        from recognizers.stub import StubRecognizer

        cache = _cache(options, _settings(options)) if options.get("cache") is not False else None
        return StubRecognizer(options.get("labels_files", ()), labels=options.get("labels"), cache=cache)
    if name == "azure":
        return _azure(options)
    if name == "customvision":
        return _customvision(options)
    raise ValueError(f"unknown recognizer {spec!r}; known: {', '.join(NAMES)}")


WRAPPERS = ("noisy", "harsh", "silent", "local", "corrected", "errors")
BUILT_IN = (*WRAPPERS, "oracle", "stub", "azure", "customvision")  # names no installed package can take


def _wrapper(spec: str) -> bool:
    head, colon, _rest = spec.strip().partition(":")
    return bool(colon) and head.lower() in WRAPPERS


def _second_opinion(spec: str, first_spec: str, second_spec: str, options: dict[str, Any]) -> Recognizer:
    """FIRST+SECOND: FIRST labels every card, SECOND is asked again where it pays."""
    if not first_spec.strip() or not second_spec.strip():
        raise ValueError(f"FIRST+SECOND needs a recognizer on both sides of '+' (got {spec!r})")
    # The second service errs independently of the first: simulated noise gets a seed of its own.
    second_options = {**options, "noise_seed": f"second:{options.get('noise_seed', 0)}"}
    return SecondOpinion(
        get_recognizer(first_spec, **options),
        get_recognizer(second_spec, **second_options),
        asks_per_round=options.get("asks_per_round", ASKS_PER_ROUND),
    )


def _noisy(spec: str, name: str, rest: str, options: dict[str, Any]) -> Recognizer:
    """noisy:RATE[:INNER], harsh:RATE[:INNER] and silent:RATE[:INNER]: INNER's labels (default: oracle) with
    simulated errors."""
    rate_text, _, inner_spec = rest.partition(":")
    try:
        rate = float(rate_text)
    except ValueError:
        raise ValueError(f"{name} needs a rate, as in {name}:0.1 (got {spec!r})") from None
    inner = get_recognizer(inner_spec or "oracle", **options)
    # silent: harsh's own draws with no wrong name; at the same seed silent:0.05 leaves unanswered exactly the
    # cards harsh leaves unanswered, so the two figures split what harsh's errors cost.
    silent = name == "silent"
    try:
        return NoisyRecognizer(
            inner,
            0.0 if silent else rate,
            seed=options.get("noise_seed", 0),
            model="harsh" if name in ("harsh", "silent") else options.get("noise_model", "ranked"),
            runner_up=options.get("runner_up", 0.8),
            in_round=options.get("in_round", 0.8),
            unknown=rate if silent else options.get("unknown", 0.05),
            # the spec's own word, so that a source line never calls a harsh recognizer "noisy"
            name=f"{name}:{rate:g}:{inner.name}",
        )
    except ValueError as error:
        raise ValueError(f"{spec!r}: {error}") from None


def _azure(options: dict[str, Any]) -> Recognizer:
    # loads httpx and the Azure SDK: only when this recognizer is asked for
    from recognizers.azure import AzureRecognizer

    settings = _settings(options)
    endpoint = options.get("endpoint") or settings.azure_endpoint
    key = options.get("key") or settings.azure_key
    if not endpoint or not key:
        raise SettingsError(
            "azure needs AZURE_VISION_ENDPOINT and AZURE_VISION_KEY in the environment, or [azure] endpoint "
            f"and key in the config file ({settings.source})"
        )
    return AzureRecognizer(
        endpoint, key, mode=options.get("mode", "analyze"), **_api_options(options, settings, "azure")
    )


def _customvision(options: dict[str, Any]) -> Recognizer:
    # loads httpx (~0.1 s): only when this recognizer is asked for
    from recognizers.customvision import CustomVisionRecognizer

    settings = _settings(options)
    url = options.get("prediction_url") or settings.customvision_url
    key = options.get("key") or settings.customvision_key
    if not url or not key:
        raise SettingsError(
            "customvision needs CUSTOM_VISION_PREDICTION_URL and CUSTOM_VISION_PREDICTION_KEY in the environment, "
            f"or [customvision] prediction_url and prediction_key in the config file ({settings.source})"
        )
    threshold = options.get("threshold", settings.customvision_threshold)
    return CustomVisionRecognizer(url, key, threshold=threshold, **_api_options(options, settings, "customvision"))


def _settings(options: Mapping[str, Any]) -> Settings:
    return load_settings(options.get("config"), options.get("env"))


def _cache(options: Mapping[str, Any], settings: Settings) -> Any:
    given = options.get("cache")
    if isinstance(given, LabelCache):
        return given
    path = given or settings.cache_path
    return LabelCache(Path(path) if path and path != ":memory:" else path)


def _gallery(options: Mapping[str, Any], settings: Settings) -> Any:
    """The gallery named in options, else `gallery.sqlite3` beside the label cache."""
    from recognizers.gallery import Gallery  # numpy and PIL (~0.2 s): only for local

    given = options.get("gallery")
    if isinstance(given, Gallery):
        return given
    if given:
        return Gallery(given)
    cache = options.get("cache") or settings.cache_path
    if cache == ":memory:":
        return Gallery(":memory:")
    if cache and not hasattr(cache, "path"):
        return Gallery(Path(cache).parent / "gallery.sqlite3")
    return Gallery()


def _say_free_tier_assumed(service: str) -> None:
    """Warn once per process and service: a user who set no tier may have a faster key and not know why it crawls."""
    if service in _FREE_TIER_SAID:
        return
    _FREE_TIER_SAID.add(service)
    log.warning(
        "%s: no Azure tier set, so the free tier's limit applies (%s), shared by all your processes through %s; "
        'a standard key: --tier standard, %s=standard or tier = "standard" in [azure] of the config file',
        service,
        FREE.describe().partition(": ")[2],
        default_limiter_path(),
        TIER_ENV,
    )


def _api_options(options: Mapping[str, Any], settings: Settings, service: str) -> dict[str, Any]:
    # loads httpx (~0.1 s): only for the paid services
    from recognizers.image_source import DEFAULT_MAX_BYTES, ImageFetcher
    from recognizers.remote import RetrySettings  # loads httpx (~0.1 s): only for the paid services

    chosen: dict[str, Any] = {"cache": _cache(options, settings)}
    chosen["images"] = options.get("images") or ImageFetcher(
        (*settings.private_hosts, *options.get("private_hosts", ())),
        max_bytes=settings.image_max_bytes or DEFAULT_MAX_BYTES,
    )
    for key in ("sleep", "clock"):
        if key in options:
            chosen[key] = options[key]
    if "retry" in options:
        chosen["retry"] = options["retry"]
    elif "retry" not in chosen:
        chosen["retry"] = RetrySettings()
    if options.get("limiter"):
        chosen["limiter"] = options["limiter"]
    else:  # one limiter for all matches and processes of this user, with the month's count
        tier = tier_setting(options.get("tier"), env=options.get("env"), config=options.get("config"))
        if tier is None:
            tier = FREE
            _say_free_tier_assumed(service)
        limiter_args = {key: options[key] for key in ("sleep", "clock") if key in options}
        limiter = SharedRateLimiter(tier, options.get("limiter_path"), key_name=service, **limiter_args)
        chosen["limiter"] = limiter
        chosen["parallel"] = min(tier.calls, 8)
    if "parallel" in options:
        chosen["parallel"] = int(options["parallel"])
    return chosen
