"""The trajectory format: write, read, damage, recover."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest
from pydantic import ValidationError

from gui_agent.actions import Click, Hotkey, Type
from gui_agent.episode import (
    ActorInfo,
    EnvInfo,
    EpisodeWriter,
    Outcome,
    ScreenSize,
    TaskInfo,
    read_episode,
    recover,
)
from gui_agent.episode.format import EPISODE_FILE, STEPS_FILE, frame_path
from gui_agent.errors import EpisodeFormatError
from tests.synthetic_episodes import write_synthetic

TASK = TaskInfo(id="demo/task", instruction="Click the button", source="test")
ENV = EnvInfo(kind="browser", screen=ScreenSize(width=64, height=48))
ACTOR = ActorInfo(type="policy", name="test")


def frame(value: int) -> np.ndarray:
    pixels = np.zeros((48, 64, 3), dtype=np.uint8)
    pixels[:, :, 0] = value
    pixels[value % 48, :, 1] = 255
    return pixels


def write_episode(root: Path, n_steps: int = 3, finalize: bool = True, frame_format: str = "png") -> Path:
    actions = [Click(10, 20), Type("hello\n"), Hotkey(("ctrl", "s")), Click(1, 2, button="right", count=2)]
    return write_synthetic(
        root, "ep", [actions[i % len(actions)] for i in range(n_steps)], task_id=TASK.id, instruction=TASK.instruction,
        env=ENV, actor=ACTOR, labels={}, frame_format=frame_format, frames=[frame(i) for i in range(n_steps)],
        step_details=False, final=frame(n_steps) if finalize else False, finalize=finalize,
        outcome=Outcome(success=True, reward=1.0, termination="done"),
    )


def test_round_trip_keeps_actions_frames_and_outcome(tmp_path: Path) -> None:
    path = write_episode(tmp_path, n_steps=4)
    episode = read_episode(path)
    assert episode.meta.status == "complete"
    assert episode.meta.stats.steps == 4
    assert episode.meta.outcome is not None and episode.meta.outcome.success is True
    assert episode.actions() == [Click(10, 20), Type("hello\n"), Hotkey(("ctrl", "s")), Click(1, 2, button="right", count=2)]
    assert [s.thought for s in episode.steps] == ["step 0", "step 1", "step 2", "step 3"]
    for i, step in enumerate(episode.steps):
        assert np.array_equal(episode.load_frame(step.frame_before), frame(i))  # PNG is lossless
    assert episode.final_frame == frame_path(4)


def test_webp_frames_are_lossless_and_named_by_the_episode(tmp_path: Path) -> None:
    rng = np.random.default_rng(1)
    noisy = rng.integers(0, 256, (48, 64, 3), dtype=np.uint8)  # every value, no structure to hide behind
    writer = EpisodeWriter.create(tmp_path, task=TASK, env=ENV, actor=ACTOR, episode_id="ep", frame_format="webp")
    writer.add_step(Click(1, 2), frame_before=noisy)
    writer.add_step(Type("x"), frame_before=frame(1))
    writer.add_final_frame(frame(2))
    writer.finalize(Outcome(success=True))
    assert json.loads((writer.path / EPISODE_FILE).read_text())["frame_format"] == "webp"
    episode = read_episode(writer.path)
    assert [s.frame_before for s in episode.steps] == ["frames/000000.webp", "frames/000001.webp"]
    assert episode.final_frame == frame_path(2, "webp") == "frames/000002.webp"
    data = (writer.path / "frames" / "000000.webp").read_bytes()
    assert data[:4] == b"RIFF" and data[8:16] == b"WEBPVP8L"  # VP8L: the lossless bitstream
    assert np.array_equal(episode.load_frame(episode.steps[0].frame_before), noisy)
    assert np.array_equal(episode.load_frame(episode.final_frame), frame(2))
    assert sorted(p.name for p in (writer.path / "frames").iterdir()) == ["000000.webp", "000001.webp", "000002.webp"]


def test_an_episode_json_without_frame_format_reads_as_png(tmp_path: Path) -> None:
    path = write_episode(tmp_path, n_steps=2)
    meta = json.loads((path / EPISODE_FILE).read_text())
    # PNG episodes are written without the field, as every episode before it existed, so
    # readers that predate it (they reject unknown keys) still read them.
    assert "frame_format" not in meta
    episode = read_episode(path)
    assert episode.meta.frame_format == "png" and episode.final_frame == "frames/000002.png"


def test_an_unknown_frame_format_is_a_clear_error(tmp_path: Path) -> None:
    path = write_episode(tmp_path, n_steps=1)
    meta = json.loads((path / EPISODE_FILE).read_text())
    meta["frame_format"] = "jpeg"  # lossy: not a trajectory frame format
    (path / EPISODE_FILE).write_text(json.dumps(meta))
    with pytest.raises(EpisodeFormatError) as info:
        read_episode(path)
    assert info.value.path == path / EPISODE_FILE and "frame_format" in str(info.value) and "'jpeg'" in str(info.value)
    with pytest.raises(ValueError, match="unknown frame format 'jpeg'"):
        frame_path(0, "jpeg")  # type: ignore[arg-type]
    with pytest.raises(ValidationError):
        EpisodeWriter.create(tmp_path, task=TASK, env=ENV, actor=ACTOR, episode_id="ep2", frame_format="jpeg")  # type: ignore[arg-type]
    assert not (tmp_path / "ep2").exists()  # nothing created for a bad call


def test_recover_keeps_webp_frames_and_drops_half_written_ones(tmp_path: Path) -> None:
    path = write_episode(tmp_path, n_steps=3, finalize=False, frame_format="webp")
    (path / "frames" / "000003.webp.tmp").write_bytes(b"RIFF half a frame")
    episode = recover(path)
    assert episode.meta.status == "recovered" and episode.meta.frame_format == "webp"
    assert [np.array_equal(episode.load_frame(s.frame_before), frame(i)) for i, s in enumerate(episode.steps)] == [True] * 3
    assert not list(path.glob("frames/*.tmp"))


def test_episode_json_is_recording_until_finalized(tmp_path: Path) -> None:
    writer = EpisodeWriter.create(tmp_path, task=TASK, env=ENV, actor=ACTOR, episode_id="ep")
    writer.add_step(Click(1, 1), frame_before=frame(0))
    # A reader sees every flushed step while the episode is still being written.
    episode = read_episode(writer.path)
    assert episode.meta.status == "recording" and len(episode.steps) == 1
    writer.finalize(Outcome(success=False))
    assert read_episode(writer.path).meta.status == "complete"


def test_create_refuses_to_overwrite(tmp_path: Path) -> None:
    write_episode(tmp_path)
    with pytest.raises(FileExistsError):
        EpisodeWriter.create(tmp_path, task=TASK, env=ENV, actor=ACTOR, episode_id="ep")


# --- damaged episodes: strict errors name file, line, problem; lenient returns the valid part


def test_truncated_last_line(tmp_path: Path) -> None:
    path = write_episode(tmp_path, n_steps=3, finalize=False)
    steps = path / STEPS_FILE
    steps.write_text(steps.read_text()[:-15])  # cut mid-record, as a crash would
    with pytest.raises(EpisodeFormatError) as info:
        read_episode(path)
    assert info.value.path == steps and info.value.line == 3
    assert "truncated" in str(info.value) and f"{steps}:3" in str(info.value)
    lenient = read_episode(path, lenient=True)
    assert len(lenient.steps) == 2 and len(lenient.problems) == 1


def test_bad_json_in_the_middle(tmp_path: Path) -> None:
    path = write_episode(tmp_path, n_steps=4)
    steps = path / STEPS_FILE
    lines = steps.read_text().splitlines()
    lines[1] = '{"index": 1, "t": 0.5, "action": {"kind": "click", "x": 3'
    steps.write_text("\n".join(lines) + "\n")
    with pytest.raises(EpisodeFormatError) as info:
        read_episode(path)
    assert info.value.line == 2 and "invalid JSON" in info.value.problem
    lenient = read_episode(path, lenient=True)
    assert [s.index for s in lenient.steps] == [0, 1, 2]
    assert lenient.steps[1].thought == "step 2"


def test_invalid_action_in_a_step(tmp_path: Path) -> None:
    path = write_episode(tmp_path, n_steps=2)
    steps = path / STEPS_FILE
    lines = steps.read_text().splitlines()
    record = json.loads(lines[0])
    record["action"] = {"kind": "teleport", "x": 1}
    lines[0] = json.dumps(record)
    steps.write_text("\n".join(lines) + "\n")
    with pytest.raises(EpisodeFormatError) as info:
        read_episode(path)
    assert info.value.line == 1 and "teleport" in info.value.problem


def test_missing_frame(tmp_path: Path) -> None:
    path = write_episode(tmp_path, n_steps=3)
    (path / frame_path(1)).unlink()
    with pytest.raises(EpisodeFormatError) as info:
        read_episode(path)
    assert info.value.path == path / frame_path(1)
    assert f"{STEPS_FILE} line 2" in info.value.problem
    lenient = read_episode(path, lenient=True)
    assert len(lenient.steps) == 3 and lenient.steps[1].frame_before is None


def test_newer_format_version(tmp_path: Path) -> None:
    path = write_episode(tmp_path)
    meta = json.loads((path / EPISODE_FILE).read_text())
    meta["format_version"] = 99
    (path / EPISODE_FILE).write_text(json.dumps(meta))
    with pytest.raises(EpisodeFormatError, match="format version 99 is newer"):
        read_episode(path, lenient=True)


def test_bad_episode_json_names_its_line(tmp_path: Path) -> None:
    path = write_episode(tmp_path)
    (path / EPISODE_FILE).write_text('{\n  "episode_id": "ep",\n  "task": oops\n}')
    with pytest.raises(EpisodeFormatError) as info:
        read_episode(path)
    assert info.value.line == 3


def test_not_an_episode_folder(tmp_path: Path) -> None:
    with pytest.raises(EpisodeFormatError, match="not an episode"):
        read_episode(tmp_path)


def test_recover_repairs_and_keeps_the_damaged_original(tmp_path: Path) -> None:
    path = write_episode(tmp_path, n_steps=3, finalize=False)
    steps = path / STEPS_FILE
    original = steps.read_text()[:-10]
    steps.write_text(original)
    (path / "frames" / "000009.png.tmp").write_bytes(b"half a frame")
    episode = recover(path)
    assert episode.meta.status == "recovered"
    assert episode.meta.stats.steps == 2 and len(episode.steps) == 2
    assert episode.meta.outcome is not None and episode.meta.outcome.termination == "interrupted"
    assert "recovery_problems" in episode.meta.labels
    assert (path / (STEPS_FILE + ".damaged")).read_text() == original
    assert not list(path.glob("frames/*.tmp"))
    assert read_episode(path).meta.status == "recovered"  # strict read now passes


WRITER_SCRIPT = textwrap.dedent(
    """
    import sys, time
    import numpy as np
    from gui_agent.actions import Click
    from gui_agent.episode import ActorInfo, EnvInfo, EpisodeWriter, ScreenSize, TaskInfo
    writer = EpisodeWriter.create(sys.argv[1], episode_id="ep",
        task=TaskInfo(id="t", instruction="i"), actor=ActorInfo(type="human", name="a"),
        env=EnvInfo(kind="desktop", screen=ScreenSize(width=320, height=240)))
    rng = np.random.default_rng(0)
    i = 0
    while True:
        writer.add_step(Click(i % 320, i % 240), frame_before=rng.integers(0, 255, (240, 320, 3), dtype=np.uint8))
        print(i, time.monotonic(), flush=True)
        i += 1
    """
)


@pytest.mark.parametrize("kill_after_s", [0.3, 0.77, 1.5])
def test_sigkill_at_any_moment_loses_at_most_the_last_second(tmp_path: Path, kill_after_s: float) -> None:
    proc = subprocess.Popen([sys.executable, "-c", WRITER_SCRIPT, str(tmp_path)], stdout=subprocess.PIPE, text=True)
    try:
        reported: list[tuple[int, float]] = []
        deadline = None
        for line in proc.stdout:  # type: ignore[union-attr]
            index, when = line.split()
            reported.append((int(index), float(when)))
            deadline = deadline or time.monotonic() + kill_after_s
            if time.monotonic() >= deadline:
                break
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    killed_at = time.monotonic()
    episode = recover(tmp_path / "ep")
    # Every step the writer had reported more than a second before the kill is there.
    must_have = [i for i, when in reported if killed_at - when > 1.0]
    assert len(episode.steps) >= (max(must_have) + 1 if must_have else 0)
    assert len(episode.steps) >= len(reported)  # in fact nothing flushed is lost
    for step in episode.steps[-2:]:
        assert step.frame_before and (tmp_path / "ep" / step.frame_before).is_file()
