"""A reviewer watching a recording: her view is view only on the station's side, whatever
her client sends. A real RFB client speaks to the real station's websocket, in front of
the task's x11vnc and desktop; what she sends must reach neither the desktop (the
recorder's raw events) nor the annotator's episode (its steps)."""

from __future__ import annotations

import json
import struct
from pathlib import Path

import pytest
import requests
import websocket

from gui_agent.episode import read_episode
from gui_agent.station.view_only import KEY_EVENT, POINTER_EVENT, ViewOnlyError, ViewOnlyFilter
from gui_agent.polling import wait_until
from tests.station.station_server import SUM_COLUMN, running_station


def _handshake(version: bytes = b"RFB 003.008\n") -> bytes:
    return version + b"\x01" + b"\x00"  # security None, ClientInit asking for an exclusive desktop


def test_the_filter_passes_what_asks_for_pixels_and_drops_input() -> None:
    asks = (bytes([0, 0, 0, 0]) + bytes(16)  # SetPixelFormat
            + struct.pack(">BxHii", 2, 2, 0, -223)  # SetEncodings: Raw, DesktopSize
            + struct.pack(">BBHHHH", 3, 1, 0, 0, 1280, 800)  # FramebufferUpdateRequest
            + struct.pack(">BBHHHH", 150, 1, 0, 0, 1280, 800)  # EnableContinuousUpdates
            + struct.pack(">BxxxIB", 248, 0, 2) + b"ok")  # Fence with 2 bytes of payload
    changes = [struct.pack(">BBHH", POINTER_EVENT, 1, 10, 20),  # a click
               struct.pack(">BBxxI", KEY_EVENT, 1, ord("x")),  # a key
               struct.pack(">Bxxxi", 6, 5) + b"hello",  # ClientCutText: the clipboard into the desktop
               struct.pack(">Bxxxi", 6, -3) + b"abc",  # its extended form
               struct.pack(">BBHII", 255, 0, 1, 0x61, 30),  # QEMU extended key event
               struct.pack(">BxBB", 250, 1, 2),  # XVP: reboot
               struct.pack(">BxHHBx", 251, 800, 600, 1) + bytes(16)]  # SetDesktopSize
    stream = _handshake() + b"".join(changes[:2]) + asks + b"".join(changes[2:]) + asks
    for chunk in (len(stream), 1, 3, 7):  # however the websocket splits it
        view = ViewOnlyFilter()
        passed = b"".join(view.feed(stream[i:i + chunk]) for i in range(0, len(stream), chunk))
        assert passed == b"RFB 003.008\n\x01\x01" + asks + asks  # shared forced, every change gone
        assert view.dropped == 7

    old = ViewOnlyFilter()  # RFB 3.3: the server picks the security type, the client goes on to ClientInit
    assert old.feed(b"RFB 003.003\n\x00" + struct.pack(">BBHH", POINTER_EVENT, 0, 1, 1)) == b"RFB 003.003\n\x01"

    long_text = ViewOnlyFilter()  # a long clipboard is skipped as it arrives, never held
    long_text.feed(_handshake())
    assert long_text.feed(struct.pack(">Bxxxi", 6, 100_000) + b"a" * 1000) == b""
    assert len(long_text._buffer) == 0
    assert long_text.feed(b"a" * 99_000 + struct.pack(">BBHHHH", 3, 1, 0, 0, 8, 8)) == struct.pack(">BBHHHH", 3, 1, 0, 0, 8, 8)

    for bad in (_handshake() + bytes([99]), _handshake() + bytes([255, 1]), b"RFB 003.008\n\x02", b"GET / HTTP/1.1\r\n"):
        with pytest.raises(ViewOnlyError):
            ViewOnlyFilter().feed(bad)


class RfbClient:
    """A small RFB 3.8 client over the station's websocket, as noVNC is one (Raw pixels only)."""

    def __init__(self, url: str, token: str):
        self.ws = websocket.create_connection(url, timeout=30, header=[f"Authorization: Bearer {token}"], subprotocols=["binary"])
        self._buffer = bytearray()
        self.size = (0, 0)
        self.bytes_per_pixel = 4

    def _read(self, n: int) -> bytes:
        while len(self._buffer) < n:
            self._buffer += self.ws.recv()
        data = bytes(self._buffer[:n])
        del self._buffer[:n]
        return data

    def handshake(self) -> None:
        assert self._read(12).startswith(b"RFB 003.")
        self.ws.send_binary(b"RFB 003.008\n")
        types = self._read(self._read(1)[0])
        assert 1 in types, types
        self.ws.send_binary(b"\x01")
        assert self._read(4) == b"\x00\x00\x00\x00"
        self.ws.send_binary(b"\x01")  # shared
        width, height = struct.unpack(">HH", self._read(4))
        pixel_format = self._read(16)
        self._read(struct.unpack(">I", self._read(4))[0])  # the desktop's name
        self.size, self.bytes_per_pixel = (width, height), pixel_format[0] // 8
        self.ws.send_binary(struct.pack(">BxHi", 2, 1, 0))  # SetEncodings: Raw

    def click(self, x: int, y: int) -> None:
        for mask in (0, 1, 0):
            self.ws.send_binary(struct.pack(">BBHH", POINTER_EVENT, mask, x, y))

    def key(self, keysym: int) -> None:
        for down in (1, 0):
            self.ws.send_binary(struct.pack(">BBxxI", KEY_EVENT, down, keysym))

    def sync(self) -> None:
        """Ask for one pixel and read until the update comes: x11vnc has handled what was sent before."""
        self.ws.send_binary(struct.pack(">BBHHHH", 3, 0, 0, 0, 1, 1))
        while True:
            kind = self._read(1)[0]
            if kind == 0:  # FramebufferUpdate
                self._read(1)
                for _ in range(struct.unpack(">H", self._read(2))[0]):
                    _, _, w, h, encoding = struct.unpack(">HHHHi", self._read(12))
                    assert encoding == 0, encoding
                    self._read(w * h * self.bytes_per_pixel)
                return
            if kind == 1:  # SetColourMapEntries
                self._read(3)
                self._read(6 * struct.unpack(">H", self._read(2))[0])
            elif kind == 3:  # ServerCutText
                self._read(3)
                self._read(struct.unpack(">I", self._read(4))[0])
            elif kind != 2:  # Bell has no body
                raise AssertionError(f"server message {kind}")

    def close(self) -> None:
        self.ws.close()


def _wait_for(predicate, what: str, timeout_s: float = 30.0):
    return wait_until(predicate, timeout_s=timeout_s, what=what, interval_s=0.2)


@pytest.mark.slow  # x11vnc, Xvfb and Calc: scripts/setup.sh installs them
def test_a_reviewers_input_reaches_neither_the_desktop_nor_the_episode(tmp_path: Path) -> None:
    with running_station([SUM_COLUMN], tmp_path / "dataset", annotators=1) as server:
        item = server.items_of("annotator1")[0].item_id
        api = f"{server.url}/api/items/{item}"
        auth = server.bearer("annotator1")
        vnc = server.url.replace("http", "ws") + f"/api/items/{item}/vnc"
        assert requests.post(api + "/take", headers=auth).status_code == 200
        episode = server.station.queue.dataset / requests.post(api + "/start", headers=auth).json()["episode"]

        # The annotator's view closes: the recording pauses, and a reviewer's view does not resume it.
        annotator = RfbClient(vnc, server.token("annotator1"))
        annotator.handshake()
        annotator.close()
        _wait_for(lambda: requests.get(api, headers=auth).json()["paused_for_viewers"], "the pause")
        reviewer = RfbClient(vnc, server.token("reviewer"))
        annotator = None
        try:
            reviewer.handshake()
            reviewer.sync()
            assert reviewer.size == (1280, 800)  # she sees the desktop
            assert requests.get(api, headers=auth).json()["paused_for_viewers"] is True
            annotator = RfbClient(vnc, server.token("annotator1"))
            annotator.handshake()
            _wait_for(lambda: not requests.get(api, headers=auth).json()["paused"], "the resume")

            # She clicks and types through her view; then the annotator clicks elsewhere.
            reviewer.click(700, 500)
            reviewer.key(ord("x"))
            reviewer.sync()
            annotator.click(300, 400)
            annotator.sync()

            def annotator_click_recorded() -> bool:
                steps = episode / "steps.jsonl"
                return steps.exists() and any(json.loads(line)["action"]["kind"] == "click" for line in steps.read_text().splitlines())

            _wait_for(annotator_click_recorded, "the annotator's click in the episode")
        finally:
            reviewer.close()
            if annotator is not None:
                annotator.close()
        gave_up = requests.post(api + "/give-up", headers=auth)
        assert gave_up.status_code == 200, gave_up.text

    recorded = read_episode(episode)
    clicks = [(s.action["x"], s.action["y"]) for s in recorded.steps if s.action["kind"] == "click"]
    assert clicks == [(300, 400)], [s.action for s in recorded.steps]
    assert not [s.action for s in recorded.steps if s.action["kind"] in ("type", "key", "hotkey")]
    events = [json.loads(line) for line in (episode / "events.jsonl").read_text().splitlines()]
    assert events and not [e for e in events if (e.get("x"), e.get("y")) == (700, 500) or e.get("key") == "x"], events
