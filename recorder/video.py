"""Optional low-rate continuous video (``screen.mp4``) with its frame -> time map.

Off by default (``--video-fps 0``). A thread takes the screen thread's latest frame
``fps`` times a second (no extra grab) and encodes it with PyAV (H.264, ultrafast, a
keyframe every 10 s) into a *fragmented* MP4 (a fragment a second), so a file cut short
by a crash is still readable up to its last whole fragment. ``screen_timestamps.json`` (``{"fps": ..., "t":
[...]}``) lists each encoded frame's recording time (:mod:`gui_agent.recorder.clock`) and is
rewritten atomically after each fragment (about once a second). After a crash the two
may differ by up to a fragment: frame ``i`` has time ``t[i]`` for ``i < min(len)``.
Blanked (privacy) frames are encoded black; paused time is not encoded.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from gui_agent.episode.format import VIDEO_FILE, VIDEO_TIMESTAMPS_FILE
from gui_agent.episode.writer import write_json_atomic
from gui_agent.recorder.screen import ScreenCapture

#: Seconds per MP4 fragment: what a crash can cut from the video's end.
FRAGMENT_S = 1
#: Seconds between H.264 keyframes: fragments may start mid-GOP, so this only costs seeking.
KEYFRAME_EVERY_S = 10


class VideoRecorder:
    def __init__(self, folder: Path, screen: ScreenCapture, *, fps: float = 2.0, crf: int = 30):
        self.folder = folder
        self.screen = screen
        self.fps = fps
        self.crf = crf
        self.times: list[float] = []
        self.error: str | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        import av  # noqa: F401 - fail at start, not in the thread, if PyAV is missing

        self._thread = threading.Thread(target=self._run, name="screen-video", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(10.0)

    def _open(self, width: int, height: int) -> tuple[Any, Any]:
        import av

        container = av.open(str(self.folder / VIDEO_FILE), mode="w", format="mp4",
                            options={"movflags": "empty_moov+default_base_moof", "frag_duration": str(FRAGMENT_S * 1_000_000),
                                     "flush_packets": "1"})
        stream = container.add_stream("libx264", rate=max(1, round(self.fps)))
        stream.width, stream.height = width - width % 2, height - height % 2
        stream.pix_fmt = "yuv420p"
        stream.options = {"preset": "ultrafast", "tune": "zerolatency", "crf": str(self.crf),
                          "g": str(max(1, round(self.fps * KEYFRAME_EVERY_S)))}
        return container, stream

    def _run(self) -> None:
        import av

        container = stream = None
        last_t = None
        per_fragment = max(1, round(self.fps * FRAGMENT_S))
        try:
            while not self._stop.wait(1.0 / self.fps):
                frame = self.screen.latest()
                if frame is None or frame.t == last_t:
                    continue
                last_t = frame.t
                if container is None:
                    container, stream = self._open(frame.width, frame.height)
                pixels = frame.rgb()[: stream.height, : stream.width]
                video_frame = av.VideoFrame.from_ndarray(pixels.copy(), format="rgb24")
                video_frame.pts = len(self.times)
                for packet in stream.encode(video_frame):
                    container.mux(packet)
                self.times.append(round(frame.t, 4))
                if len(self.times) % per_fragment == 0:  # a fragment (about a second) is complete
                    self._save_times()
        except Exception as exc:  # noqa: BLE001 - the video is optional: report, keep recording
            self.error = f"video stopped: {exc}"
        finally:
            if container is not None:
                try:
                    for packet in stream.encode():
                        container.mux(packet)
                    container.close()
                except Exception as exc:  # noqa: BLE001
                    self.error = self.error or f"video not closed cleanly: {exc}"
            self._save_times()

    def _save_times(self) -> None:
        write_json_atomic(self.folder / VIDEO_TIMESTAMPS_FILE, {"fps": self.fps, "t": list(self.times)})
