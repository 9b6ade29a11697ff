"""At most N requests in flight to one endpoint, across every worker process of a machine.

``gui-agent eval --workers 8`` against one vLLM server (or one API key with a rate limit)
should not send eight requests at once when the server takes two. Each worker is its own
process, so the limit is kept in the file system: an endpoint has N slot files, and a
request holds an exclusive ``flock`` on one of them while it is in flight. The kernel
releases the lock when the holder dies, so a killed worker never keeps a slot. Ray actors
on one machine share the slots the same way; actors on other machines have their own.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

#: Where the slot files live (per user, under the temp dir).
SLOTS_DIR = "gui-agent-endpoint-slots"
_POLL_S = 0.01


class EndpointSlots:
    """The request slots of one endpoint.

    Args:
        endpoint: the service's base URL (the slots are shared by everything naming it).
        limit: requests in flight at once, machine-wide.
        root: folder of the slot files (default: the temp dir's :data:`SLOTS_DIR`).
    """

    def __init__(self, endpoint: str, limit: int, *, root: Path | None = None) -> None:
        if limit < 1:
            raise ValueError(f"max_concurrent must be at least 1, got {limit}")
        digest = hashlib.sha256(endpoint.encode()).hexdigest()[:16]
        self.folder = (root or Path(tempfile.gettempdir()) / f"{SLOTS_DIR}-{os.getuid()}") / digest
        self.limit = limit

    @contextmanager
    def slot(self) -> Iterator[int]:
        """Hold one slot for the duration of a request (waits while all are taken); yields its number."""
        self.folder.mkdir(parents=True, exist_ok=True)
        handles = []
        try:
            for index in range(self.limit):
                handles.append(open(self.folder / f"slot-{index}.lock", "a+b"))  # noqa: SIM115 - closed below
            while True:
                for index, handle in enumerate(handles):
                    try:
                        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
                    except BlockingIOError:
                        continue
                    try:
                        yield index
                    finally:
                        fcntl.flock(handle.fileno(), fcntl.LOCK_UN)
                    return
                time.sleep(_POLL_S)
        finally:
            for handle in handles:
                handle.close()


__all__ = ["SLOTS_DIR", "EndpointSlots"]
