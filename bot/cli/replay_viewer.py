"""Sending a replay file to the user's local server, whose viewer then shows it (server/viewer_files.py).

The upload is an admin call: `ServerAdmin.find` reads the token beside the records file the user names
(never a path the server names), so this works for your own `rummy-vision serve` on this machine. The
server keeps only what its viewer shows.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.matches.server_admin import AdminUnavailable, ServerAdmin

ELSEWHERE = "files are sent to your own `rummy-vision serve` on this machine (give its URL with --server)"


class ViewerRefused(RuntimeError):
    """The file could not be sent, or the server refused it; the message says why, in one line."""


def send_to_viewer(path: Path, server: str, records: Path | None = None) -> dict[str, Any]:
    """Send `path` to the server at `server` (its root URL), whose records file is `records` (default: the
    default one); the server's answer (FileId, Viewer, Review, ...)."""
    try:
        data = path.read_bytes()
    except OSError as error:
        raise ViewerRefused(f"cannot read {path}: {error.strerror or error}") from None
    base = server.rstrip("/") + "/prod/"
    try:
        with ServerAdmin.find(base, records=records, elsewhere=ELSEWHERE) as admin:
            return admin.add_replay_file(path.name, data)
    except AdminUnavailable as error:
        raise ViewerRefused(str(error)) from None
    except RuntimeError as error:
        raise ViewerRefused(str(error)) from None
