"""A real SMTP server on loopback (aiosmtpd), owned by a desktop environment.

The mail client of a desktop task sends through it; every message it receives is kept
(in memory and as ``NNNN.eml`` in its folder) for the ``email_received`` check. It runs
on its own asyncio loop in a daemon thread of this process, listening on 127.0.0.1 on a
port the OS picks, so nothing outside the machine can reach it and two environments
never collide. Nothing is relayed anywhere.

Example:
    >>> server = SmtpServer(store_dir=Path("/tmp/mail"))
    >>> port = server.start()
    >>> ...  # smtplib.SMTP("127.0.0.1", port).sendmail(...)
    >>> [m["Subject"] for m in server.messages()]
    >>> server.stop()
"""

from __future__ import annotations

import asyncio
import email
import email.policy
import threading
from dataclasses import dataclass
from email.message import EmailMessage
from pathlib import Path
from typing import Any

from gui_agent.errors import EnvError


@dataclass(frozen=True)
class ReceivedMail:
    """One message the server accepted: the SMTP envelope and the parsed message."""

    mail_from: str
    rcpt_tos: tuple[str, ...]
    message: EmailMessage
    raw: bytes


class _Handler:
    """aiosmtpd handler: accept every message, keep it."""

    def __init__(self, server: SmtpServer) -> None:
        self.server = server

    async def handle_DATA(self, smtp: Any, session: Any, envelope: Any) -> str:
        raw = envelope.original_content or envelope.content
        if isinstance(raw, str):
            raw = raw.encode("utf-8")
        self.server._store(envelope.mail_from or "", tuple(envelope.rcpt_tos), raw)
        return "250 Message accepted for delivery"


class SmtpServer:
    """An SMTP server on 127.0.0.1 that keeps what it receives.

    Args:
        store_dir: folder the received messages are also written to (``0001.eml``...).
        hostname: the name it greets with.
    """

    def __init__(self, *, store_dir: Path, hostname: str = "mail.example.test") -> None:
        self.store_dir = store_dir
        self.hostname = hostname
        self.port: int | None = None
        self._lock = threading.Lock()
        self._received: list[ReceivedMail] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._server: asyncio.base_events.Server | None = None

    def start(self, timeout_s: float = 10.0) -> int:
        """Start listening; return the port."""
        try:
            from aiosmtpd.smtp import SMTP
        except ImportError:
            raise EnvError("the SMTP server needs aiosmtpd: pip install aiosmtpd") from None
        self.store_dir.mkdir(parents=True, exist_ok=True)
        loop = asyncio.new_event_loop()
        ready = threading.Event()
        failure: list[BaseException] = []

        async def serve() -> None:
            handler = _Handler(self)
            self._server = await loop.create_server(
                lambda: SMTP(handler, hostname=self.hostname, enable_SMTPUTF8=True, loop=loop), host="127.0.0.1", port=0
            )
            self.port = self._server.sockets[0].getsockname()[1]

        def run() -> None:
            asyncio.set_event_loop(loop)
            try:
                loop.run_until_complete(serve())
            except BaseException as exc:  # noqa: BLE001 - reported to start()
                failure.append(exc)
                ready.set()
                loop.close()
                return
            ready.set()
            try:
                loop.run_forever()
            finally:
                if self._server is not None:
                    self._server.close()
                    loop.run_until_complete(self._server.wait_closed())
                pending = [t for t in asyncio.all_tasks(loop) if not t.done()]
                for task in pending:
                    task.cancel()
                if pending:
                    loop.run_until_complete(asyncio.wait(pending, timeout=1.0))
                loop.close()

        self._loop = loop
        self._thread = threading.Thread(target=run, name="gui-agent-smtp", daemon=True)
        self._thread.start()
        if not ready.wait(timeout_s) or failure:
            self.stop()
            why = f": {failure[0]}" if failure else ""
            raise EnvError(f"the loopback SMTP server did not start{why}")
        assert self.port is not None
        return self.port

    def _store(self, mail_from: str, rcpt_tos: tuple[str, ...], raw: bytes) -> None:
        message = email.message_from_bytes(raw, policy=email.policy.default)
        with self._lock:
            self._received.append(ReceivedMail(mail_from, rcpt_tos, message, raw))  # type: ignore[arg-type]
            index = len(self._received)
        (self.store_dir / f"{index:04d}.eml").write_bytes(raw)

    def received(self) -> list[ReceivedMail]:
        """Every message received so far, oldest first."""
        with self._lock:
            return list(self._received)

    def messages(self) -> list[EmailMessage]:
        return [r.message for r in self.received()]

    def clear(self) -> None:
        with self._lock:
            self._received.clear()

    def stop(self) -> None:
        """Stop listening and end the thread; safe to call twice."""
        loop, thread = self._loop, self._thread
        self._loop = self._thread = None
        if loop is not None and thread is not None and thread.is_alive():
            try:
                loop.call_soon_threadsafe(loop.stop)
            except RuntimeError:
                pass
            thread.join(5.0)
