"""``export --video``: the recorder's screen.mp4 decoded back through datasets + torchcodec.

The clips are written by the recorder's own writer (:class:`gui_agent.recorder.video.VideoRecorder`,
H.264 through PyAV, fragmented MP4). Its frame source is scripted: the real screen grabber
needs a display and gives no ground truth to compare decoded frames with (the grabber ->
video path is tested on Xvfb in tests/recorder). Everything after the source is real.
"""

from __future__ import annotations

import bisect
import json
import shutil
import sys
import threading
from pathlib import Path

import datasets
import numpy as np
import pytest

from gui_agent.actions import Click
from gui_agent.cli import main
from gui_agent.episode import (
    Outcome,
)
from gui_agent.episode.format import VIDEO_FILE, VIDEO_TIMESTAMPS_FILE
from gui_agent.export import import_dataset
from gui_agent.recorder.screen import Frame
from gui_agent.recorder.video import VideoRecorder
from tests.synthetic_episodes import write_synthetic

WIDTH, HEIGHT = 320, 200
FPS = 20.0
#: H.264 (crf 30, 4:2:0) is lossy: mean absolute difference per channel, in levels of 255.
MAX_MEAN_DIFF = 3.0


def screen_picture(i: int) -> np.ndarray:
    """A desktop-like picture: a title bar, a window that moves with ``i``, a button, lines of 'text'."""
    pixels = np.full((HEIGHT, WIDTH, 3), 228, np.uint8)
    pixels[:18] = (40, 60, 110)
    x, y = 10 + (i * 13) % 150, 30 + (i * 7) % 60
    pixels[y : y + 100, x : x + 150] = 250
    pixels[y + 70 : y + 90, x + 90 : x + 140] = ((i * 40) % 256, 150, 255 - (i * 40) % 256)
    for line in range(4):
        top = y + 12 + line * 14
        pixels[top : top + 5, x + 8 : x + 8 + 30 + (i * 11 + line * 29) % 100] = 30
    return pixels


class ScriptedScreen:
    """Hands VideoRecorder a new known frame on each ``latest()``, as ScreenCapture would a new grab."""

    def __init__(self, pictures: list[np.ndarray], times: list[float]):
        self.pictures, self.times = pictures, times
        self.handed = 0
        self.done = threading.Event()

    def latest(self) -> Frame | None:
        if self.handed == len(self.pictures):
            self.done.set()
            return None
        rgb = self.pictures[self.handed]
        bgra = np.concatenate([rgb[..., ::-1], np.full((HEIGHT, WIDTH, 1), 255, np.uint8)], axis=-1)
        frame = Frame(t=self.times[self.handed], width=WIDTH, height=HEIGHT, bgra=bgra.tobytes())
        self.handed += 1
        return frame


def record_clip(folder: Path, pictures: list[np.ndarray], times: list[float]) -> None:
    """screen.mp4 + screen_timestamps.json in ``folder``, by the recorder's writer."""
    screen = ScriptedScreen(pictures, times)
    recorder = VideoRecorder(folder, screen, fps=FPS)  # type: ignore[arg-type]
    recorder.start()
    try:
        assert screen.done.wait(30), "the video writer stopped taking frames"
    finally:
        recorder.stop()
    assert recorder.error is None, recorder.error
    assert recorder.times == times


def recorded_episode(root: Path, episode_id: str, n_frames: int = 24, step_frames: tuple[int, ...] = (3, 10, 17)) -> tuple[Path, list[np.ndarray]]:
    """An episode whose steps happen at video frames ``step_frames``, with its recorded video."""
    pictures = [screen_picture(i) for i in range(n_frames)]
    times = [round(0.5 + 0.25 * i, 4) for i in range(n_frames)]  # recording time, not the video's own pts
    folder = write_synthetic(
        root, episode_id, [Click(100, 100) for _ in step_frames], task_id="desktop/video", instruction="click three buttons",
        size=(WIDTH, HEIGHT), labels={}, frames=[pictures[k] for k in step_frames], thoughts=[None] * len(step_frames),
        times=[times[k] + 0.01 for k in step_frames], step_details=False, final=pictures[-1],
        outcome=Outcome(success=True, reward=1.0, termination="done"),
    )
    record_clip(folder, pictures, times)
    return folder, pictures


def decoded_frames(decoder) -> np.ndarray:  # type: ignore[no-untyped-def]
    """All frames of a torchcodec VideoDecoder as (N, H, W, 3) uint8."""
    batch = decoder.get_frames_in_range(0, len(decoder))
    return batch.data.numpy().transpose(0, 2, 3, 1)


def mean_diff(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.abs(a.astype(np.int16) - b.astype(np.int16)).mean())


def test_recorded_video_loads_and_decodes_through_datasets(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from torchcodec.decoders import VideoDecoder

    folder, pictures = recorded_episode(tmp_path / "in", "ep-video")
    out = tmp_path / "ds"
    assert main(["export", str(tmp_path / "in"), "--out", str(out), "--video", "--quiet"]) == 0
    assert "video left out" not in capsys.readouterr().out
    assert "| screen video | 1 episode(s) with `video`" in (out / "README.md").read_text()

    episodes = datasets.load_dataset(str(out), "episodes", split="train")
    assert isinstance(episodes.features["video"], datasets.Video)
    row = episodes[0]
    decoder = row["video"]
    assert isinstance(decoder, VideoDecoder)
    assert (decoder.metadata.width, decoder.metadata.height) == (WIDTH, HEIGHT)
    assert len(decoder) == len(pictures)
    frames = decoded_frames(decoder)
    diffs = [mean_diff(frame, picture) for frame, picture in zip(frames, pictures)]
    assert max(diffs) < MAX_MEAN_DIFF, diffs
    for i, frame in enumerate(frames):  # each decoded frame is closest to its own recorded frame: order kept
        assert int(np.argmin([mean_diff(frame, p) for p in pictures])) == i

    # The time map lines the video up with the steps: the frame at each step's time is its screenshot.
    times = json.loads(row["video_timestamps"])["t"]
    assert len(times) == len(frames)
    steps = datasets.load_dataset(str(out), "steps", split="train")
    for step in steps:
        k = bisect.bisect_right(times, step["t"]) - 1  # the last frame shown before the step
        screenshot = np.asarray(step["image"].convert("RGB"))
        assert mean_diff(frames[k], screenshot) < MAX_MEAN_DIFF, (step["step_index"], k)
        assert int(np.argmin([mean_diff(f, screenshot) for f in frames])) == k

    # Import gives the video and its map back byte for byte.
    import_dataset(out, tmp_path / "back")
    for name in (VIDEO_FILE, VIDEO_TIMESTAMPS_FILE):
        assert (tmp_path / "back" / "ep-video" / name).read_bytes() == (folder / name).read_bytes()


def test_undecodable_videos_are_reported_and_left_out_and_nothing_else_is(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from torchcodec.decoders import VideoDecoder

    inputs = tmp_path / "in"
    whole, _ = recorded_episode(inputs, "whole")
    clip = (whole / VIDEO_FILE).read_bytes()
    for name in ("cut", "garbage", "empty", "bad-map", "no-map", "no-video"):
        shutil.copytree(whole, inputs / name)
        meta = json.loads((inputs / name / "episode.json").read_text())
        meta["episode_id"] = name
        (inputs / name / "episode.json").write_text(json.dumps(meta))
    (inputs / "cut" / VIDEO_FILE).write_bytes(clip[: len(clip) * 2 // 3])  # a recording cut mid-fragment
    (inputs / "garbage" / VIDEO_FILE).write_bytes(bytes(range(256)) * 40)
    (inputs / "empty" / VIDEO_FILE).write_bytes(b"")
    (inputs / "bad-map" / VIDEO_TIMESTAMPS_FILE).write_text('{"fps": 20, "t": [0.5, ')
    (inputs / "no-map" / VIDEO_TIMESTAMPS_FILE).unlink()
    (inputs / "no-video" / VIDEO_FILE).unlink()
    (inputs / "no-video" / VIDEO_TIMESTAMPS_FILE).unlink()

    # What the check guards against: torchcodec, which datasets decodes with, cannot read the cut file.
    with pytest.raises(RuntimeError):
        decoder = VideoDecoder(clip[: len(clip) * 2 // 3])
        decoder.get_frames_in_range(0, len(decoder))

    out = tmp_path / "ds"
    assert main(["export", str(inputs), "--out", str(out), "--video", "--quiet"]) == 0
    printed = capsys.readouterr().out.replace("\n", " ")
    reported = {
        "cut": f"{VIDEO_FILE} does not decode (",
        "garbage": f"{VIDEO_FILE} does not decode (",
        "empty": f"{VIDEO_FILE} is empty; exported without video",
        "bad-map": f"{VIDEO_TIMESTAMPS_FILE}: invalid JSON",
        "no-map": f"{VIDEO_TIMESTAMPS_FILE} is missing; video exported without its time map",
    }
    for name, reason in reported.items():
        assert f"video left out {inputs / name}: {reason}" in printed, (name, printed)
    assert printed.count("video left out") == len(reported)
    assert "exported 7 episode(s), 21 step(s)" in printed
    assert "| screen video | 3 episode(s) with `video` (H.264 MP4, `datasets.Video`); 3 undecodable left out |" in (
        out / "README.md"
    ).read_text()

    episodes = {row["episode_id"]: row for row in datasets.load_dataset(str(out), "episodes", split="train").cast_column(
        "video", datasets.Video(decode=False))}
    assert set(episodes) == {"whole", "cut", "garbage", "empty", "bad-map", "no-map", "no-video"}
    for name in ("cut", "garbage", "empty", "no-video"):
        assert episodes[name]["video"] is None and episodes[name]["video_timestamps"] is None, name
    for name in ("bad-map", "no-map"):  # a decodable video goes in even without its time map
        assert episodes[name]["video"]["bytes"] == clip and episodes[name]["video_timestamps"] is None, name
    assert episodes["whole"]["video"]["bytes"] == clip
    assert json.loads(episodes["whole"]["video_timestamps"]) == json.loads((whole / VIDEO_TIMESTAMPS_FILE).read_text())
    # Every episode keeps its steps and screenshots, whatever happened to its video.
    steps = datasets.load_dataset(str(out), "steps", split="train")
    assert sorted(steps["episode_id"]) == sorted(name for name in episodes for _ in range(3))
    assert all(image is not None for image in steps["image"])
    # And the videos that went in decode (datasets' default: decode on access).
    decoded = datasets.load_dataset(str(out), "episodes", split="train")
    for row in decoded:
        if row["video"] is not None:
            assert len(row["video"]) == 24


def test_video_without_its_decoder_is_refused_before_anything_is_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    folder, _ = recorded_episode(tmp_path / "in", "ep")
    before = sorted(p.relative_to(folder) for p in folder.rglob("*"))
    for module in ("torchcodec", "torchcodec.decoders"):  # as if it were not installed: importing it fails
        monkeypatch.setitem(sys.modules, module, None)
    out = tmp_path / "ds"
    assert main(["export", str(tmp_path / "in"), "--out", str(out), "--video"]) == 2
    printed = capsys.readouterr().out.replace("\n", " ")
    assert "--video needs the video decoder datasets uses: torchcodec is not installed" in printed
    assert "or export without --video" in printed
    assert not out.exists()
    assert sorted(p.relative_to(folder) for p in folder.rglob("*")) == before
    # Without --video the same episode exports (and never needs the decoder).
    assert main(["export", str(tmp_path / "in"), "--out", str(out), "--quiet"]) == 0
