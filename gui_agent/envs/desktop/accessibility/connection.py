"""A D-Bus client connection that sends calls in batches and waits for all the answers.

Reading a tree is many small questions to one app (its role, states, name, box, text, for
every node). Asked one at a time, each waits for a round trip through the bus daemon and
the app's main loop; sent all at once, the app answers them back to back. :meth:`call_many`
writes a batch and reads the replies by serial, with one deadline for the whole batch:
an app that stops answering (hung, or stopped by a signal) makes it raise
:class:`~gui_agent.errors.EnvHungError`, never wait forever.

Authentication is the EXTERNAL mechanism over a Unix socket (the bus checks our uid),
which is what a private session bus started by the environment accepts.
"""

from __future__ import annotations

import os
import selectors
import socket
import time
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from gui_agent.envs.desktop.accessibility.wire import Reply, decode_message, encode_call, message_size
from gui_agent.errors import EnvDiedError, EnvError, EnvHungError

#: Calls in flight at once: enough to keep the app busy, few enough to bound the daemon's queue.
_WINDOW = 2048
_READ_SIZE = 1 << 20

#: What a reply is handed to.
OnReply = Callable[[Reply], None]


class Call(NamedTuple):
    """One method call: where it goes and what it asks (a tuple: a tree read makes thousands)."""

    destination: str
    path: str
    interface: str
    member: str
    signature: str = ""
    args: tuple[Any, ...] = ()


def _socket_path(address: str) -> str:
    """The socket of a ``unix:path=...`` or ``unix:abstract=...`` bus address."""
    for candidate in address.split(";"):
        transport, _, params = candidate.partition(":")
        if transport != "unix":
            continue
        keys = dict(p.split("=", 1) for p in params.split(",") if "=" in p)
        if "path" in keys:
            return keys["path"]
        if "abstract" in keys:
            return "\0" + keys["abstract"]
    raise EnvError(f"unsupported D-Bus address {address!r} (only unix:path= and unix:abstract= are)")


class BusConnection:
    """A connection to one bus, as one client (it says Hello and gets a unique name), or
    straight to one app (``peer=True``: no bus daemon in between, no Hello).

    Args:
        address: the bus address (``unix:path=/.../bus``).
        timeout_s: limit for connecting and saying Hello.
        peer: the address is an app's own server (AT-SPI's ``GetApplicationBusAddress``).

    Not thread-safe; close it with :meth:`close` (or use it as a context manager).
    """

    def __init__(self, address: str, *, timeout_s: float = 5.0, peer: bool = False) -> None:
        self.address = address
        self.unique_name = ""
        self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._buffer = bytearray()
        self._serial = 0
        deadline = time.monotonic() + timeout_s
        try:
            self._sock.settimeout(timeout_s)
            self._sock.connect(_socket_path(address))
            self._authenticate()
            self._sock.setblocking(False)
            self._selector: selectors.BaseSelector | None = selectors.DefaultSelector()
            self._selector.register(self._sock, selectors.EVENT_READ)
            if peer:
                return
            hello = Call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "Hello")
            (reply,) = self.call_many([hello], deadline=deadline)
        except OSError as exc:
            self._sock.close()
            raise EnvDiedError(f"the accessibility bus ({address}) does not answer: {exc}") from None
        if reply is None or reply.is_error:
            self.close()
            raise EnvError(f"the accessibility bus refused us: {reply.body if reply else 'no answer'}")
        self.unique_name = str(reply.body[0])

    def _authenticate(self) -> None:
        uid = str(os.getuid()).encode().hex()
        self._sock.sendall(b"\0AUTH EXTERNAL " + uid.encode() + b"\r\n")
        answer = b""
        while not answer.endswith(b"\r\n"):
            chunk = self._sock.recv(512)
            if not chunk:
                raise OSError("the bus closed the connection during authentication")
            answer += chunk
        if not answer.startswith(b"OK "):
            raise OSError(f"the bus refused authentication: {answer.decode(errors='replace').strip()}")
        self._sock.sendall(b"BEGIN\r\n")

    # ------------------------------------------------------------------ calls
    def call_many(self, calls: Sequence[Call], *, deadline: float) -> list[Reply | None]:
        """Send ``calls`` and return their replies in the same order.

        An error reply is returned as it is (``reply.is_error``): an object that went
        away between two questions is the app's business, not a fault.

        Raises:
            EnvHungError: not every reply came before ``deadline`` (``time.monotonic()``).
            EnvDiedError: the bus closed the connection.
        """
        replies: list[Reply | None] = [None] * len(calls)
        pipeline = Pipeline(self)
        for index, call in enumerate(calls):
            pipeline.ask(call, lambda reply, index=index: replies.__setitem__(index, reply))
        pipeline.run(deadline=deadline)
        return replies

    def _next_serial(self) -> int:
        self._serial = self._serial % 0xFFFFFFFF + 1
        return self._serial

    def _exchange(self, outgoing: bytearray, waiting: dict[int, OnReply], deadline: float) -> list[tuple[OnReply, Reply]]:
        """Write what the socket takes, read what came; one wait at most. Returns the
        replies that arrived, with whom each is for."""
        left = deadline - time.monotonic()
        if left <= 0:
            raise EnvHungError(f"{len(waiting)} accessibility call(s) got no answer in time")
        assert self._selector is not None
        events = selectors.EVENT_READ | (selectors.EVENT_WRITE if outgoing else 0)
        self._selector.modify(self._sock, events)
        arrived: list[tuple[OnReply, Reply]] = []
        for _key, mask in self._selector.select(left):
            if mask & selectors.EVENT_WRITE:
                try:
                    sent = self._sock.send(outgoing)
                except BlockingIOError:
                    sent = 0
                except OSError as exc:
                    raise EnvDiedError(f"the accessibility bus went away: {exc}") from None
                del outgoing[:sent]
            if mask & selectors.EVENT_READ:
                arrived += self._read(waiting)
        return arrived

    def _read(self, waiting: dict[int, OnReply]) -> list[tuple[OnReply, Reply]]:
        try:
            chunk = self._sock.recv(_READ_SIZE)
        except BlockingIOError:
            return []
        except OSError as exc:
            raise EnvDiedError(f"the accessibility bus went away: {exc}") from None
        if not chunk:
            raise EnvDiedError("the accessibility bus closed the connection")
        buffer = self._buffer
        buffer += chunk
        offset = 0
        arrived = []
        while (size := message_size(buffer, offset)) is not None and len(buffer) - offset >= size:
            try:
                reply = decode_message(bytes(buffer[offset:offset + size]))
            except ValueError as exc:
                raise EnvError(f"unreadable message on the accessibility bus: {exc}") from None
            offset += size
            callback = waiting.pop(reply.reply_to, None) if reply.reply_to else None
            if callback is not None:
                arrived.append((callback, reply))
        del buffer[:offset]
        return arrived

    # ------------------------------------------------------------------ end
    def close(self) -> None:
        """Close the socket (safe to call twice)."""
        selector = getattr(self, "_selector", None)
        if selector is not None:
            selector.close()
            self._selector = None
        self._sock.close()

    def __enter__(self) -> BusConnection:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class Pipeline:
    """Questions whose answers may raise further questions, all kept in flight.

    :meth:`ask` queues a call with the function its reply goes to; that function may ask
    more. :meth:`run` sends and reads until nothing is left to ask or wait for, so a
    tree's deeper levels are asked while the app still answers for the upper ones.
    """

    def __init__(self, connection: BusConnection) -> None:
        self._connection = connection
        self._queue: list[tuple[Call, OnReply]] = []

    def ask(self, call: Call, on_reply: OnReply) -> None:
        self._queue.append((call, on_reply))

    def run(self, *, deadline: float) -> None:
        """Send every queued call and hand each reply on, until none is left.

        Raises:
            EnvHungError: replies still missing at ``deadline``. EnvDiedError: the bus went away.
        """
        connection = self._connection
        waiting: dict[int, OnReply] = {}
        outgoing = bytearray()
        while self._queue or waiting or outgoing:
            queue, self._queue = self._queue, []
            room = _WINDOW - len(waiting)
            for (destination, path, interface, member, signature, args), on_reply in queue[:room]:
                serial = connection._next_serial()
                outgoing += encode_call(serial, destination=destination, path=path, interface=interface, member=member,
                                        signature=signature, args=args)
                waiting[serial] = on_reply
            self._queue = queue[room:] + self._queue
            for on_reply, reply in connection._exchange(outgoing, waiting, deadline):
                on_reply(reply)


__all__ = ["BusConnection", "Call", "OnReply", "Pipeline"]
