"""A client of the local referee's admin API (server/admin.py): bot accounts and runs, over HTTP only.

The token is read from the file the referee names in its public `GET /admin` hint, so it works for the
user's own referee on this machine and for no other: elsewhere `find` says in one line what to do.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from types import TracebackType
from typing import Any
from urllib.parse import quote

import httpx

from bot.matches.run_spec import RunSpec

BOTS_ADD_HINT = "create two bot accounts there with `rummy-vision bots add NAME` and pass them with --accounts FILE"


def server_root(base_url: str) -> str:
    """The server's root URL (ending in /), beside its protocol base `.../prod/`."""
    return str(httpx.URL(base_url).join("../"))


class AdminUnavailable(RuntimeError):
    """This client cannot use the server's admin API (not the user's local referee, or no such API)."""


class ServerAdmin:
    """Admin calls to one referee; `find(base_url)` locates its token."""

    def __init__(self, base_url: str, token: str, *, timeout_s: float = 30.0) -> None:
        self.root = httpx.URL(server_root(base_url))
        self.http = httpx.Client(timeout=timeout_s, headers={"Authorization": f"Bearer {token}"})

    @classmethod
    def find(cls, base_url: str, *, elsewhere: str = BOTS_ADD_HINT) -> ServerAdmin:
        """The admin client of the referee at `base_url`, with the token from the file its hint names;
        `elsewhere` says what to do when it is not the user's own referee."""
        url = httpx.URL(base_url).join("../admin")
        try:
            answer = httpx.get(url, timeout=15)
        except httpx.HTTPError as error:
            raise AdminUnavailable(f"cannot reach {url} ({error}); is `rummy-vision serve` running there?") from None
        try:
            hint = answer.json()
        except ValueError:
            hint = None
        token_file = hint.get("TokenFile") if isinstance(hint, dict) else None
        if not isinstance(token_file, str):
            raise AdminUnavailable(f"{url} has no admin API (not a local Rummy Vision referee): {elsewhere}")
        try:
            token = Path(token_file).read_text(encoding="utf-8").strip()
        except OSError as error:
            raise AdminUnavailable(
                f"cannot read the admin token of {base_url} at {token_file} ({error.strerror or error});"
                f" unless it is your own referee on this machine, {elsewhere}"
            ) from None
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
            answer = response.json()
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
