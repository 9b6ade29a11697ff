"""The network between a browser and the station, which a test can cut and mend.

:class:`TcpProxy` forwards TCP connections from a port on 127.0.0.1 to the station. While
cut, it drops every open connection (an annotator's wifi gone) and closes new ones as they
come; mended, it forwards again, perhaps to another port (the station restarted there).
Its threads end and its sockets close when the ``with`` block ends, whatever happened.
"""

from __future__ import annotations

import socket
import threading
from types import TracebackType


class TcpProxy:
    def __init__(self, upstream_port: int):
        self.upstream_port = upstream_port
        self._listener = socket.create_server(("127.0.0.1", 0))
        self._listener.settimeout(0.2)
        self.port = self._listener.getsockname()[1]
        self._lock = threading.Lock()
        self._open: list[socket.socket] = []
        self._cut = False
        self._closed = threading.Event()
        self._threads: list[threading.Thread] = []

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> "TcpProxy":
        self._spawn(self._accept)
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None) -> None:
        self._closed.set()
        self._drop()
        self._listener.close()
        for thread in list(self._threads):
            thread.join(timeout=5)

    def cut(self) -> None:
        """Drop every connection now, and every new one until :meth:`mend`."""
        with self._lock:
            self._cut = True
        self._drop()

    def mend(self, upstream_port: int | None = None) -> None:
        """Forward again (to ``upstream_port`` if given)."""
        with self._lock:
            if upstream_port is not None:
                self.upstream_port = upstream_port
            self._cut = False

    def _spawn(self, target, *args) -> None:
        thread = threading.Thread(target=target, args=args, name="test-tcp-proxy", daemon=True)
        self._threads.append(thread)
        thread.start()

    def _drop(self) -> None:
        with self._lock:
            sockets, self._open = self._open, []
        for sock in sockets:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            sock.close()

    def _accept(self) -> None:
        while not self._closed.is_set():
            try:
                client, _ = self._listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            with self._lock:
                cut, port = self._cut, self.upstream_port
            if cut:
                client.close()
                continue
            try:
                server = socket.create_connection(("127.0.0.1", port), timeout=5)
            except OSError:
                client.close()
                continue
            server.settimeout(None)
            with self._lock:
                self._open += [client, server]
            self._spawn(self._pump, client, server)
            self._spawn(self._pump, server, client)

    @staticmethod
    def _pump(source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        for sock in (source, sink):
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
