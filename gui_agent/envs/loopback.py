"""Free ports on the loopback interface, for the servers an environment starts (VNC, an
app's control interface) and that only this machine may reach."""

from __future__ import annotations

import socket


def free_loopback_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now.

    The port is free when this returns; a server binding it a moment later can still lose
    it to another process, so servers that can retry on another port should.
    """
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


__all__ = ["free_loopback_port"]
