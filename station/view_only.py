"""A watcher's VNC connection, with everything that would change the desktop taken out.

The station relays each live view's websocket to the desktop's ``x11vnc`` byte for byte
(:mod:`gui_agent.station.routes.vnc`). For anyone but the item's annotator (a reviewer watching), the bytes
from the browser go through :class:`ViewOnlyFilter` first, so what she does can reach
neither the desktop nor the annotator's episode, whatever her page or client sends.

The filter reads the client's half of RFB 3.3-3.8 (RFC 6143): the version, the security
type (only None: the station's ``x11vnc`` has no password, the station's sign-in guards
it), ``ClientInit`` (forced to shared, so a watcher never disconnects the annotator), then
message after message. Messages that only ask for pixels pass: ``SetPixelFormat``,
``SetEncodings``, ``FramebufferUpdateRequest``, ``EnableContinuousUpdates``, ``Fence``.
Input and desktop changes are dropped: ``KeyEvent``, ``PointerEvent``, ``ClientCutText``,
QEMU's extended key event, XVP (shutdown/reboot) and ``SetDesktopSize``. A message type it
does not know ends the connection (:class:`ViewOnlyError`): without its length, nothing
after it could be told apart from input.
"""

from __future__ import annotations

from gui_agent.station.errors import ViewOnlyError

#: Client-to-server message types that only ask for pixels.
SET_PIXEL_FORMAT, SET_ENCODINGS, UPDATE_REQUEST, CONTINUOUS_UPDATES, FENCE = 0, 2, 3, 150, 248
#: Client-to-server message types that would change the desktop.
KEY_EVENT, POINTER_EVENT, CLIENT_CUT_TEXT, XVP, SET_DESKTOP_SIZE, QEMU = 4, 5, 6, 250, 251, 255

_SECURITY_NONE = 1
_SHARED = b"\x01"


class ViewOnlyFilter:
    """Feed it the client's bytes as they come (split anywhere); it returns what may go on.

    Example:
        >>> f = ViewOnlyFilter()
        >>> f.feed(b"RFB 003.008\\n\\x01\\x00")  # version, security None, ClientInit (exclusive)
        b'RFB 003.008\\n\\x01\\x01'
        >>> f.feed(bytes([5, 1, 0, 10, 0, 20]))  # a click at (10, 20): dropped
        b''
    """

    def __init__(self) -> None:
        self._buffer = bytearray()
        self._stage = "version"  # version -> security -> init -> messages
        self._skip = 0  # bytes of a dropped message still to come (a long ClientCutText)
        self.dropped = 0  # input messages taken out so far

    def feed(self, data: bytes) -> bytes:
        """The part of ``data`` (with what was held back before) that may reach the server.

        Raises:
            ViewOnlyError: a security type other than None, or a message type not known.
        """
        if self._skip:
            taken = min(self._skip, len(data))
            self._skip -= taken
            data = data[taken:]
        self._buffer += data
        out = bytearray()
        while True:
            passed = self._next()
            if passed is None:
                return bytes(out)
            out += passed

    def _next(self) -> bytes | None:
        """One whole handshake part or message off the buffer: what passes of it, or None if incomplete."""
        buf = self._buffer
        if self._stage == "version":
            if len(buf) < 12:
                return None
            version = bytes(buf[:12])
            if not (version.startswith(b"RFB 003.") and version.endswith(b"\n")):
                raise ViewOnlyError(f"not an RFB version: {version!r}")
            # RFB 3.3: the server picks the security type, the client says nothing.
            self._stage = "init" if version[8:11] == b"003" else "security"
            return self._take(12, keep=True)
        if self._stage == "security":
            if not buf:
                return None
            if buf[0] != _SECURITY_NONE:
                raise ViewOnlyError(f"security type {buf[0]} (the station's x11vnc offers only None)")
            self._stage = "init"
            return self._take(1, keep=True)
        if self._stage == "init":
            if not buf:
                return None
            self._take(1, keep=False)
            self._stage = "messages"
            return _SHARED
        if not buf:
            return None
        size, keep = self._message(buf)
        if size is None:
            return None
        if not keep:
            self.dropped += 1
            if size > len(buf):  # a long text: skip its rest as it arrives, never hold it
                self._skip = size - len(buf)
                self._buffer = bytearray()
                return b""
        elif size > len(buf):
            return None
        return self._take(size, keep=keep)

    @staticmethod
    def _message(buf: bytearray) -> tuple[int | None, bool]:
        """(whole length or None while its header is incomplete, whether it passes) of the message at ``buf``'s start."""
        kind = buf[0]

        def header(n: int) -> bool:
            return len(buf) >= n

        if kind == SET_PIXEL_FORMAT:
            return 20, True
        if kind == SET_ENCODINGS:
            return (4 + 4 * int.from_bytes(buf[2:4], "big"), True) if header(4) else (None, True)
        if kind in (UPDATE_REQUEST, CONTINUOUS_UPDATES):
            return 10, True
        if kind == FENCE:
            return (9 + buf[8], True) if header(9) else (None, True)
        if kind == KEY_EVENT:
            return 8, False
        if kind == POINTER_EVENT:
            return 6, False
        if kind == CLIENT_CUT_TEXT:  # a negative length is the extended clipboard's: as long, either way
            return (8 + abs(int.from_bytes(buf[4:8], "big", signed=True)), False) if header(8) else (None, False)
        if kind == XVP:
            return 4, False
        if kind == SET_DESKTOP_SIZE:
            return (8 + 16 * buf[6], False) if header(8) else (None, False)
        if kind == QEMU:
            if not header(2):
                return None, False
            if buf[1] == 0:  # extended key event
                return 12, False
            raise ViewOnlyError(f"QEMU client message {buf[1]} is not known")
        raise ViewOnlyError(f"client message type {kind} is not known")

    def _take(self, size: int, *, keep: bool) -> bytes:
        part = bytes(self._buffer[:size])
        del self._buffer[:size]
        return part if keep else b""
