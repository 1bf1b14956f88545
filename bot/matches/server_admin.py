"""A client of the local referee's admin API (server/admin.py): bot accounts and runs, over HTTP only.

The token is never read from a path a server names (a hostile server would name any file and get its
contents back): it is the one the user gives (RUMMY_VISION_ADMIN_TOKEN), or the one in the private token
file beside the records file the user points at (`--db`, by default the default records file). Before a
token from that file is sent, the server must prove it holds it for the port it was reached on
(server/admin.py), so nothing else listening there gets it. Elsewhere `find` says in one line what to do.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re
import secrets
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType
from typing import Any
from urllib.parse import quote

import httpx

from bot.matches.run_spec import RunSpec
from rummy import bounded_json
from rummy.capped_http import GAMESTATE_BYTES, capped_client
from rummy.private_files import read_private
from server.settings import default_db_path

TOKEN_ENV = "RUMMY_VISION_ADMIN_TOKEN"
TOKEN_SUFFIX = ".admin-token"  # server.admin's (this module reaches the referee over HTTP only)
TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]{16,200}")
BOTS_ADD_HINT = "create two bot accounts there with `rummy-vision bots add NAME` and pass them with --accounts FILE"


def server_root(base_url: str) -> str:
    """The server's root URL (ending in /), beside its protocol base `.../prod/`."""
    return str(httpx.URL(base_url).join("../"))


def _proof(token: str, challenge: str, port: int) -> str:
    return hmac.new(token.encode(), f"{challenge}|{port}".encode(), hashlib.sha256).hexdigest()


class AdminUnavailable(RuntimeError):
    """This client cannot use the server's admin API (not the user's local referee, or no such API)."""


class ServerAdmin:
    """Admin calls to one referee; `find(base_url)` locates its token."""

    def __init__(self, base_url: str, token: str, *, timeout_s: float = 30.0) -> None:
        self.root = httpx.URL(server_root(base_url))
        self.http = capped_client(
            GAMESTATE_BYTES, whole_s=2 * timeout_s, timeout=timeout_s, headers={"Authorization": f"Bearer {token}"}
        )

    @classmethod
    def find(cls, base_url: str, *, records: Path | None = None, elsewhere: str = BOTS_ADD_HINT) -> ServerAdmin:
        """The admin client of the referee at `base_url`, with the token the user gives (RUMMY_VISION_ADMIN_TOKEN)
        or the one beside `records` (default: the default records file) once the referee proved it holds it;
        `elsewhere` says what to do when it is not the user's own referee."""
        url = httpx.URL(base_url).join("../admin")
        given = os.environ.get(TOKEN_ENV, "").strip()
        if given:
            if not TOKEN_SHAPE.fullmatch(given):
                raise AdminUnavailable(f"{TOKEN_ENV} is not an admin token (letters, digits, - and _ only)")
            return cls(base_url, given)
        token_file = Path(f"{records if records is not None else default_db_path()}{TOKEN_SUFFIX}")
        try:
            token = read_private(token_file, 256).decode("ascii", errors="replace").strip()
        except OSError as error:
            raise AdminUnavailable(
                f"cannot read the admin token {token_file} ({error.strerror or error}); name the server's records"
                f" file with --db, or, unless it is your own referee on this machine, {elsewhere}"
            ) from None
        if not TOKEN_SHAPE.fullmatch(token):
            raise AdminUnavailable(f"{token_file} does not hold an admin token")
        challenge = secrets.token_hex(16)
        try:
            with capped_client(GAMESTATE_BYTES, whole_s=30.0, timeout=15) as http:
                answer = http.get(url, params={"challenge": challenge})
            hint = bounded_json.loads(answer.content)
        except httpx.HTTPError as error:
            raise AdminUnavailable(f"cannot reach {url} ({error}); is `rummy-vision serve` running there?") from None
        except ValueError:
            hint = None
        if not isinstance(hint, dict) or "RemoteAllowed" not in hint:
            raise AdminUnavailable(f"{url} has no admin API (not a local Rummy Vision referee): {elsewhere}")
        expected = _proof(token, challenge, url.port or (443 if url.scheme == "https" else 80))
        if not isinstance(hint.get("Proof"), str) or not hmac.compare_digest(hint["Proof"], expected):
            raise AdminUnavailable(
                f"the server at {url} is not the referee of {token_file} (it cannot prove it holds that token);"
                f" name its records file with --db, or {elsewhere}"
            )
        return cls(base_url, token)

    def add_bot(self, name: str, *, user: str | None = None, iterations: int | None = None) -> str:
        """Register `name` and return its password."""
        body: dict[str, Any] = {"Name": name, "User": user}
        if iterations is not None:
            body["Iterations"] = iterations
        answer = self._call("POST", "admin/bots", body)
        return str(answer["Password"])

    def remove_bot(self, name: str) -> None:
        self._call("DELETE", f"admin/bots/{quote(name, safe='')}")

    def add_run(self, run: RunSpec, games: Sequence[tuple[int, str]], created_at: float) -> int:
        """Group recorded matches (GameId, label) under `run`; the run's id."""
        body = {
            "Kind": run.kind,
            "Title": run.title,
            "CreatedAt": created_at,
            "Players": list(run.players),
            "Standings": run.standings.to_json(),
            "Games": [{"GameId": game_id, "Label": label} for game_id, label in games],
        }
        return int(self._call("POST", "admin/runs", body)["RunId"])

    def forget_games(self, game_ids: Sequence[int]) -> None:
        """Delete these finished matches from the server's records."""
        self._call("POST", "admin/games/forget", {"GameIds": list(game_ids)})

    def add_replay_file(self, name: str, data: bytes) -> dict[str, Any]:
        """Send a replay file to the server's viewer (server/viewer_files.py): its FileId and viewer paths."""
        return self._call("POST", f"viewer/api/files?name={quote(name, safe='')}", content=data)

    def _call(
        self, method: str, path: str, body: dict[str, Any] | None = None, *, content: bytes | None = None
    ) -> dict[str, Any]:
        url = self.root.join(path)
        try:
            if content is not None:
                response = self.http.request(method, url, content=content)
            else:
                response = self.http.request(method, url, json=body)
            answer = bounded_json.loads(response.content)
        except (httpx.HTTPError, ValueError) as error:
            raise RuntimeError(f"admin call {method} {url} failed: {error}") from None
        if response.status_code >= 300 or not isinstance(answer, dict):
            said = answer.get("ErrorMessage") if isinstance(answer, dict) else None
            raise RuntimeError(f"admin call {method} {url} refused ({response.status_code}): {said or answer}")
        return answer

    def close(self) -> None:
        self.http.close()

    def __enter__(self) -> ServerAdmin:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()
