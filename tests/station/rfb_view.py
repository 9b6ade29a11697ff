"""A live view as the page's noVNC holds it: the station's VNC websocket, RFB handshake
done, asking for frames. Tests use it to tell a working view from one that was closed."""

from __future__ import annotations

import struct

import websocket

from tests.station.station_server import RunningStation


class RfbView:
    """One live view of ``item_id`` signed in as ``name`` (RFB 3.8, security type None).

    Raises on connect when the station refuses the websocket or x11vnc does not answer.
    """

    def __init__(self, server: RunningStation, name: str, item_id: str, *, timeout_s: float = 30.0) -> None:
        url = server.url.replace("http", "ws", 1) + f"/api/items/{item_id}/vnc"
        self.ws = websocket.create_connection(url, timeout=timeout_s, subprotocols=["binary"],
                                              header=[f"Authorization: Bearer {server.token(name)}"])
        self._buffer = b""
        try:
            version = self._read(12)
            assert version.startswith(b"RFB 003."), version
            self.ws.send_binary(b"RFB 003.008\n")
            (count,) = self._read(1)
            assert 1 in self._read(count), "x11vnc -nopw offers security type None"
            self.ws.send_binary(b"\x01")
            assert self._read(4) == b"\0\0\0\0", "security handshake failed"
            self.ws.send_binary(b"\x01")  # ClientInit: shared, as noVNC asks
            width, height = struct.unpack(">HH", self._read(4))
            self._bytes_per_pixel = self._read(16)[0] // 8  # the pixel format starts with bits per pixel
            (name_length,) = struct.unpack(">I", self._read(4))
            self._read(name_length)
            self.size = (width, height)
        except BaseException:
            self.ws.close()
            raise

    def _read(self, n: int) -> bytes:
        while len(self._buffer) < n:
            data = self.ws.recv()
            if not data:
                raise ConnectionError("the live view was closed")
            self._buffer += data if isinstance(data, bytes) else data.encode()
        head, self._buffer = self._buffer[:n], self._buffer[n:]
        return head

    def frame_arrives(self) -> bool:
        """Ask for one pixel of the screen (a FramebufferUpdateRequest) and read x11vnc's
        whole answer, so nothing is left unread between calls.

        True when the update arrives; False when the station or x11vnc closed the view.
        """
        try:
            self.ws.send_binary(struct.pack(">BBHHHH", 3, 0, 0, 0, 1, 1))
            while True:
                (kind,) = self._read(1)
                if kind == 0:  # FramebufferUpdate
                    (rects,) = struct.unpack(">xH", self._read(3))
                    for _ in range(rects):
                        _, _, width, height, encoding = struct.unpack(">HHHHi", self._read(12))
                        assert encoding == 0, f"raw encoding expected (none other was offered), got {encoding}"
                        self._read(width * height * self._bytes_per_pixel)
                    return True
                if kind == 2:  # Bell
                    continue
                if kind == 3:  # ServerCutText
                    (length,) = struct.unpack(">xxxI", self._read(7))
                    self._read(length)
                    continue
                raise AssertionError(f"unexpected RFB message type {kind}")
        except (websocket.WebSocketException, ConnectionError, OSError):
            return False

    def close(self) -> None:
        self.ws.close()
