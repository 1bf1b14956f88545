"""A referee running inside this process, on a free loopback port: for tests and for scripts
that want a real server over real HTTP without starting `rummy-vision serve` by hand."""

from __future__ import annotations

import threading
import time
from types import TracebackType

from server.app import create_app
from server.serving import RefereeServer, server_config
from server.settings import Settings


class EmbeddedServer:
    """The real app under uvicorn on 127.0.0.1:<free port>, in a daemon thread; `prod` is its protocol base."""

    def __init__(self, settings: Settings, *, start_timeout_s: float = 10.0) -> None:
        self.settings = settings
        self.app = create_app(settings)
        self.server = RefereeServer(
            server_config(self.app, host="127.0.0.1", port=0, log_level="warning", own_logging=False)
        )
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + start_timeout_s
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the embedded server did not start")
            time.sleep(0.01)
        port = self.server.servers[0].sockets[0].getsockname()[1]
        self.base = f"http://127.0.0.1:{port}"
        self.prod = f"{self.base}/prod/"

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)

    def __enter__(self) -> EmbeddedServer:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.stop()
