"""How one referee server is set up."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import platformdirs

from rummy import DEFAULT_RULES, RulesConfig


def default_db_path() -> Path:
    """Where records live unless --db says otherwise, e.g. ~/.local/share/rummy-vision/records.sqlite3 on Linux."""
    return Path(platformdirs.user_data_dir("rummy-vision")) / "records.sqlite3"


@dataclass(frozen=True)
class Settings:
    db_path: Path | str
    images_dir: Path | None = None  # real photos in DIR/<landmark name>/*; drawn cards otherwise
    oracle: bool = False  # serve GET /oracle/labels/{GameId}
    captions: bool = False  # print the landmark's name on every drawn card (demos); else only on ?caption=1
    clock: Callable[[], float] = time.time  # epoch seconds, for deadlines and timestamps
    move_time_ms: int | None = None  # replaces every style's move time (tests, slow machines)
    seed: int | None = None  # match seeds become "<seed>:<n>" so a test can replay deals; random otherwise
    public_url: str | None = None  # base of card URLs; by default the base URL each request came in on
    keep_finished_s: float = 600.0  # how long PlayerKeys of an ended match keep answering GAME_HAS_ENDED
    # A waiting offer whose owner has made no call for this long (no poll in progress either) expires:
    # a crashed client's offer must not pair the next bot with one that never moves.
    offer_idle_expiry_s: float = 10.0
    max_offers_per_bot: int = 5  # waiting offers one bot may hold at once
    # The rules' open choices (RulesConfig switches, rummy/RULES.md); the defaults are the decided ones.
    rules: RulesConfig = DEFAULT_RULES
    # The admin API (server/admin.py) answers loopback callers only, unless this lets other machines in.
    admin_remote: bool = False
    # Host names a request may name in its Host header besides 127.0.0.1, localhost and ::1 (the bind
    # address, `serve --host-name`): a page of another site whose name was rebound to 127.0.0.1 names
    # its own host and is refused (DNS rebinding).
    host_names: tuple[str, ...] = ()
    # Addresses whose X-Forwarded-For / X-Forwarded-Proto are believed (`serve --forwarded-allow-ips`,
    # comma-separated, as uvicorn's option): none by default, so no caller, loopback included, can claim
    # another address to pass the per-address caps and login throttles.
    forwarded_allow_ips: str = ""
    # `serve --vision [RECOGNIZER]`: answer the templates' Azure and Custom Vision calls (server/vision.py)
    # with the truth ("oracle") or an error model; None: no vision routes.
    vision: str | None = None
    vision_key: str = "rummy-vision-local-key"
