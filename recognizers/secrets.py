"""Keep API keys out of reprs, logs and error messages."""

from __future__ import annotations

from collections.abc import Iterable

MASK = "****"


class Secret:
    """A string that never shows itself: `str()`, `repr()` and f-strings print a mask."""

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        self._value = value

    def reveal(self) -> str:
        return self._value

    def __bool__(self) -> bool:
        return bool(self._value)

    def __repr__(self) -> str:
        return f"Secret({MASK!r})"

    def __str__(self) -> str:
        return MASK

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Secret) and other._value == self._value

    def __hash__(self) -> int:
        return hash(self._value)


def redact(text: str, secrets: Iterable[str]) -> str:
    """`text` with every secret value replaced by the mask."""
    for secret in secrets:
        if secret and len(secret) >= 4:
            text = text.replace(secret, MASK)
    return text
