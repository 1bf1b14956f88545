"""Running the app under uvicorn so that stopping it ends matches ABORTED, not on time.

uvicorn waits for open requests before it runs the app's shutdown, and long polls hold theirs for up
to 5 s, during which deadlines would keep firing. `RefereeServer` tells the referee first: deadlines
stop and every long poll answers at once; then uvicorn closes as usual and the app's shutdown marks
the matches still running ABORTED (stakes refunded).
"""

from __future__ import annotations

import socket
from typing import Any

import uvicorn


class RefereeServer(uvicorn.Server):
    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        app: Any = self.config.app
        referee = getattr(getattr(app, "state", None), "referee", None)
        if referee is not None:
            referee.begin_shutdown()
        await super().shutdown(sockets)


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
    config = uvicorn.Config(app, host=host, port=port, log_level=log_level, access_log=access_log)
    RefereeServer(config).run(sockets=sockets)
