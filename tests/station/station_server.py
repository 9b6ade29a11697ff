"""A real station on loopback for tests: uvicorn in a thread, on a socket bound to port 0."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.paths import TASKS

SUM_COLUMN = TASKS / "desktop" / "calc" / "sum-column.yaml"
CALC_SUITE = TASKS / "desktop" / "calc"


@dataclass
class RunningStation:
    url: str
    station: Any
    #: The served app: the guard, with the Starlette app (and so every route) as its ``app``.
    app: Any

    def token(self, name: str) -> str:
        return next(a.token for a in self.station.accounts.accounts if a.name == name)

    def bearer(self, name: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token(name)}"}

    def items_of(self, name: str) -> list[Any]:
        return self.station.queue.items(name)


@contextlib.contextmanager
def running_station(suite: list[str | Path], dataset: Path, **options: Any) -> Iterator[RunningStation]:
    """Build the station as ``gui-agent annotate`` does and serve it until the block ends.

    The server thread is stopped and joined, and every live desktop closed (by PID), in a
    ``finally``, whatever the test did.
    """
    import uvicorn

    from gui_agent.cli.annotate import build_station

    station, app = build_station([str(s) for s in suite], dataset, **options)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", ws="wsproto", lifespan="on"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, name="station-test-server", daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 20
        while not server.started:
            if not thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the station did not start")
            time.sleep(0.05)
        yield RunningStation(f"http://127.0.0.1:{port}", station, app)
    finally:
        server.should_exit = True
        thread.join(timeout=60)
        station.close()
        sock.close()
