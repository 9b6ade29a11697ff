"""Locally made inputs for imported OSWorld vlc tasks (the real videos are on the internet),
written where the import declares them (``inputs/NAME`` next to the task file).

ffmpeg makes them from its test sources: a moving test card (``testsrc2``, so every frame
differs) with a tone, in H.264/AAC at 4:2:0 like the videos people download (VLC's X11
output has no converter for the 4:4:4 that ffmpeg picks for an RGB source).
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path


def make_video(path: Path, *, seconds: float = 30.0, size: str = "640x360", tone_hz: int = 440,
               pattern: str = "testsrc2", rate: int = 25) -> Path:
    """A ``seconds``-long video of ffmpeg's ``pattern`` test card with a ``tone_hz`` tone at ``path``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        ["ffmpeg", "-nostdin", "-v", "error", "-y",
         "-f", "lavfi", "-i", f"{pattern}=duration={seconds}:size={size}:rate={rate}",
         "-f", "lavfi", "-i", f"sine=frequency={tone_hz}:duration={seconds}",
         "-shortest", "-pix_fmt", "yuv420p", "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac", str(path)],
        check=True, capture_output=True, timeout=120,
    )
    return path


def music_video(inputs: Path) -> None:
    """59f21cfb: the music video on the Desktop."""
    make_video(inputs / "Rick Astley - Never Gonna Give You Up _Official Music Video_.mp4")


def gen_2(inputs: Path) -> None:
    """8d9fd4e2: a video VLC starts at 0:15. It must still play when the agent acts, and the
    ``launch`` step waits for a quiet screen, which a playing video never gives, up to its
    timeout (60 s): 150 s of colour bars at 5 frames a second (a small file)."""
    make_video(inputs / "Gen 2.mp4", seconds=150.0, pattern="smptebars", rate=5)


def nothing(inputs: Path) -> None:
    """Settings tasks start VLC on no file."""
    inputs.mkdir(parents=True, exist_ok=True)


#: OSWorld task id -> the maker of its inputs.
MAKERS: dict[str, Callable[[Path], None]] = {
    "59f21cfb-0120-4326-b255-a5b827b38967": music_video,
    "8d9fd4e2-6fdb-46b0-b9b9-02f06495c62f": gen_2,
    "a5bbbcd5-b398-4c91-83d4-55e1e31bbb81": nothing,
    "8ba5ae7a-5ae5-4eab-9fcc-5dd4fe3abf89": nothing,
}
