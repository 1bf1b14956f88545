"""The two bot accounts `match --server --accounts FILE` plays as, read from a TOML file:

    [a]
    bot_id = "my-first-bot"
    password = "..."
    [b]
    bot_id = "my-second-bot"
    password = "..."

For a server whose admin API this client cannot use: the accounts are made there beforehand with
`rummy-vision bots add NAME`. Errors name the file and the table, never a password.
"""

from __future__ import annotations

import tomllib
from pathlib import Path


def read_accounts(path: Path) -> list[tuple[str, str]]:
    """[(bot id, password) for A, for B]; a ValueError in one line when the file cannot give them."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise ValueError(f"cannot read the accounts file {path}: {error.strerror or error}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise ValueError(f"the accounts file {path} is not TOML: {error}") from None
    found = []
    for seat in ("a", "b"):
        table = data.get(seat)
        bot_id = table.get("bot_id") if isinstance(table, dict) else None
        password = table.get("password") if isinstance(table, dict) else None
        if not isinstance(bot_id, str) or not bot_id.strip() or not isinstance(password, str) or not password:
            raise ValueError(
                f"the accounts file {path} needs a table [{seat}] with bot_id and password (text): the account"
                f" {seat.upper()} plays as"
            )
        found.append((bot_id.strip(), password))
    if found[0][0] == found[1][0]:
        raise ValueError(f"the accounts file {path} names {found[0][0]!r} for both A and B: a bot cannot play itself")
    return found
