"""The one recognizer rule of `match` and `play`: which recognizer a strategy gets, and which it is refused."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from recognizers.live import LABELLING_CHOICES, blind_reason, default_recognizer

# Imports inside functions: two users import this module without what its functions load: the bot client
# playing a bot file (through match_bots) needs no strategies.registry (numpy and the kernel's tables,
# ~0.3 s), and the CLI's start (through local_match) no httpx and oracle (~0.1 s).


def chosen_recognizer(strategy: str, given: str | None, base_url: str | None = None) -> str:
    """The recognizer named, else the default for where the match is played (in process: `base_url` None).

    Raises ValueError when there is no default there (the arena) and the strategy plays by labels."""
    from strategies.registry import needs_labels

    if given is not None:
        return given
    default = default_recognizer(base_url)
    if default is not None:
        return default
    if not needs_labels(strategy):
        return "stub"  # never asked: the strategy does not look at labels
    raise ValueError(
        f"strategy {strategy!r} plays by the cards' labels and {base_url} serves no true labels: name a"
        f" --recognizer ({LABELLING_CHOICES})"
    )


def refuse_blind(strategy: str, recognizer_spec: str, recognizer: Any) -> None:
    """Raise ValueError when `strategy` plays by labels and `recognizer` cannot give any for live cards."""
    from strategies.registry import needs_labels

    reason = blind_reason(recognizer)
    if reason is not None and needs_labels(strategy):
        raise ValueError(
            f"strategy {strategy!r} plays by the cards' labels, but recognizer {recognizer_spec!r} cannot label"
            f" live cards: {reason}. Choose one that can: {LABELLING_CHOICES}"
        )


def split_player(spec: str) -> tuple[str, str | None]:
    """("perfect", "harsh:0.1") from "perfect@harsh:0.1": a player with its own recognizer; (spec, None)
    without `@` (or for a bot file whose own path holds one)."""
    if "@" not in spec or Path(spec).expanduser().is_file():
        return spec, None
    from strategies.registry import strategy_names  # as needs_labels above: the registry only when asked

    # At the first `@` that ends a whole player (a strategy, with its options, or a bot file): a recognizer
    # file's path may hold an `@` of its own.
    names = set(strategy_names())
    for index in (i for i, char in enumerate(spec) if char == "@"):
        player, recognizer = spec[:index].strip(), spec[index + 1 :].strip()
        if player and recognizer and (player.split(":", 1)[0] in names or Path(player).expanduser().is_file()):
            return player, recognizer
    player, _, recognizer = spec.rpartition("@")
    if not player.strip() or not recognizer.strip():
        raise ValueError(f"{spec!r}: write PLAYER@RECOGNIZER, e.g. perfect@harsh:0.1")
    return player.strip(), recognizer.strip()


# Recognizers that label live cards without the referee's true labels (their keys or gallery set up).
SEEING_CHOICES = "local:azure, azure, customvision, or local with a filled gallery"


def oracle_off_reason(recognizer: Any) -> str | None:
    """Why `recognizer` (the oracle, or one wrapping it) gets no true labels from its server, or None.

    Asks the server's oracle once: a referee started without --oracle has no such route (a plain 404),
    while one with it answers for an unknown match with its own ErrorMessage. An unreachable server is
    not judged here (playing says so)."""
    import httpx

    from recognizers.oracle import OracleRecognizer
    from rummy.capped_http import GAMESTATE_BYTES, capped_client  # loads httpx, as above: only when asked

    oracle = recognizer
    while oracle is not None and not isinstance(oracle, OracleRecognizer):
        oracle = getattr(oracle, "inner", None)
    if oracle is None or oracle.base_url is None:
        return None
    url = f"{oracle.base_url}/oracle/labels/0"
    try:
        with capped_client(GAMESTATE_BYTES, whole_s=15.0, timeout=5.0) as http:
            response = http.get(url)
    except httpx.HTTPError:
        return None
    if response.status_code != 404:
        return None
    try:
        said = response.json()
    except ValueError:
        said = None
    if isinstance(said, dict) and "ErrorMessage" in said:
        return None  # the oracle is there; it only knows no match 0
    return f"the server at {oracle.base_url} serves no true labels (it was started without --oracle)"


def refuse_without_oracle(strategy: str, recognizer_spec: str, recognizer: Any) -> None:
    """Raise ValueError when `strategy` plays by labels from an oracle its server does not serve: in process
    the same strategy is refused a recognizer that cannot label, so over a server it is too."""
    from strategies.registry import needs_labels

    if not needs_labels(strategy):
        return
    reason = oracle_off_reason(recognizer)
    if reason is not None:
        raise ValueError(
            f"strategy {strategy!r} plays by the cards' labels, but recognizer {recognizer_spec!r} cannot label"
            f" live cards: {reason}. Start it with `rummy-vision serve --oracle`, or name a --recognizer that"
            f" can label: {SEEING_CHOICES}"
        )
