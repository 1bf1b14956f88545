"""Running the app under uvicorn so that stopping it ends matches ABORTED, not on time.

uvicorn waits for open requests before it runs the app's shutdown, and long polls hold theirs for up
to 5 s, during which deadlines would keep firing. `RefereeServer` tells the referee first: deadlines
stop and every long poll answers at once; then uvicorn closes as usual and the app's shutdown marks
the matches still running ABORTED (stakes refunded).

`serve` also ends the process a few seconds after that shutdown is done, even when a worker thread
is still busy (a house bot or a coach thinking cannot be interrupted, and Python waits for such
threads at exit): by then every match is recorded and the database is closed.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
from typing import Any

import uvicorn
from uvicorn.config import LOGGING_CONFIG

from server.connections import GuardedH11Protocol, quiet_accept_errors

log = logging.getLogger(__name__)
EXIT_GRACE_S = 3.0


class RefereeServer(uvicorn.Server):
    def __init__(self, config: uvicorn.Config, *, exit_after_shutdown: bool = False) -> None:
        super().__init__(config)
        self.exit_after_shutdown = exit_after_shutdown

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        app: Any = self.config.app
        referee = getattr(getattr(app, "state", None), "referee", None)
        if referee is not None:
            referee.begin_shutdown()
        await super().shutdown(sockets)
        if self.exit_after_shutdown:
            threading.Thread(target=_exit_after_grace, name="exit-after-shutdown", daemon=True).start()


def _exit_after_grace() -> None:
    threading.Event().wait(EXIT_GRACE_S)
    busy = [thread.name for thread in threading.enumerate() if not thread.daemon and thread.is_alive()]
    log.warning("stopped; not waiting for busy worker threads (%s)", ", ".join(busy) or "none")
    logging.shutdown()
    os._exit(0)


def serve_app(
    app: Any,
    *,
    host: str,
    port: int,
    log_level: str = "info",
    sockets: list[socket.socket] | None = None,
    access_log: bool = True,
) -> None:
    """Like uvicorn.run(app, ...), with the referee told first when the server stops; `sockets` are
    already listening (the port was checked before anything was created)."""
    _raise_file_limit()
    RefereeServer(
        server_config(app, host=host, port=port, log_level=log_level, access_log=access_log), exit_after_shutdown=True
    ).run(sockets=sockets)


def _raise_file_limit() -> None:
    """Open files up to the hard limit: each connection holds one until the timeouts close it."""
    try:
        import resource  # Windows has no resource module (the ImportError below)

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        wanted = 65536 if hard == resource.RLIM_INFINITY else min(hard, 65536)
        if soft != resource.RLIM_INFINITY and soft < wanted:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    except (ImportError, ValueError, OSError):
        pass


def server_config(
    app: Any, *, host: str, port: int, log_level: str = "info", access_log: bool = True, own_logging: bool = True
) -> uvicorn.Config:
    """uvicorn's settings for the referee: request headers must arrive in time (server.connections), and
    forwarded headers count only from the addresses the settings name (none by default; uvicorn's own
    default believes any caller on 127.0.0.1).

    `own_logging=False` is for a server inside another program (a command, a test): uvicorn then leaves
    the process's logging as it is, instead of binding its loggers to whatever stderr is at that moment
    (a test runner's, closed once the command returns) and closing every handler already configured."""
    quiet_accept_errors()
    settings = getattr(getattr(app, "state", None), "settings", None)
    forwarded = getattr(settings, "forwarded_allow_ips", "")
    return uvicorn.Config(
        app,
        proxy_headers=bool(forwarded),
        forwarded_allow_ips=forwarded or "",
        host=host,
        port=port,
        log_level=log_level,
        lifespan="on",
        http=GuardedH11Protocol,
        access_log=access_log,
        log_config=LOGGING_CONFIG if own_logging else None,
    )
