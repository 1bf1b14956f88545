"""Text from elsewhere (bot names, file contents, a server's answers) made safe for a terminal.

A bot may register any name, a replay file may hold anything, and a server answers what it likes: printed
raw, `ESC[2J` clears the user's screen and an OSC sequence retitles the window or worse. `printable`
shows every control character (C0, DEL, C1, and the bidirectional overrides that reorder what is shown)
as a visible escape such as `\\x1b`; `escape` also escapes Rich markup, for text inside a markup string.
"""

from __future__ import annotations

import re

from rich.markup import escape as escape_markup

CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def _shown(found: re.Match[str]) -> str:
    code = ord(found.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: object) -> str:
    """`text` with every control character shown as an escape (`\\x1b`), never sent to the terminal."""
    return CONTROL.sub(_shown, str(text))


def escape(text: object) -> str:
    """`printable(text)` with Rich markup escaped: safe inside a string that `console.print` reads as markup."""
    return escape_markup(printable(text))


def has_control(text: str) -> bool:
    return CONTROL.search(text) is not None
