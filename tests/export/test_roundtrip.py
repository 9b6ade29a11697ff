"""Export -> import gives back the same episodes: frames byte for byte, actions exactly."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from gui_agent.actions import Click, Done, Drag, Hotkey, Move, Scroll, Type, Wait
from gui_agent.cli import main
from gui_agent.episode import (
    ActorInfo,
    EnvInfo,
    ScreenSize,
    read_episode,
)
from gui_agent.export import (
    ExportError,
    ExportOptions,
    SplitSpec,
    export_dataset,
    import_dataset,
)
from tests.synthetic_episodes import frame, write_synthetic

EVERY_ACTION = [
    Click(10, 20), Click(5, 6, button="right", count=2), Click(7, 8, button="middle", count=3), Move(30, 3),
    Drag(1, 2, 40, 30, button="right"), Scroll(20, 20, dx=-2, dy=3), Type("naïve — ünïcode ✓\nline2"),
    Hotkey(("ctrl", "shift", "t")), Wait(0.25), Wait(2), Done(success=False, answer=None, handoff=True),
]


def _files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _assert_same_episode(original: Path, imported: Path) -> None:
    a, b = read_episode(original), read_episode(imported)
    assert a.actions() == b.actions()
    assert a.meta == b.meta
    assert [s.model_dump() for s in a.steps] == [s.model_dump() for s in b.steps]
    frames_a = {k: v for k, v in _files(original).items() if k.startswith("frames/")}
    frames_b = {k: v for k, v in _files(imported).items() if k.startswith("frames/")}
    assert frames_a == frames_b and frames_a  # byte for byte


def test_runner_episodes_round_trip_bit_exact_through_the_cli(runner_episodes: Path, tmp_path: Path) -> None:
    out, back = tmp_path / "ds", tmp_path / "back"
    assert main(["export", str(runner_episodes), "--out", str(out), "--split", "train=0.5,test=0.5", "--quiet"]) == 0
    assert main(["import", str(out), "--out", str(back), "--quiet"]) == 0
    originals = sorted(p.name for p in runner_episodes.iterdir())
    assert sorted(p.name for p in back.iterdir()) == originals
    for name in originals:
        # Nothing to scrub in these, so every file comes back identical, JSON included.
        assert _files(runner_episodes / name) == _files(back / name), name


def test_every_action_kind_frame_after_and_final_frame_round_trip(tmp_path: Path) -> None:
    source = tmp_path / "in"
    write_synthetic(source, "all", EVERY_ACTION, thoughts=[None, *["t"] * (len(EVERY_ACTION) - 1)])
    # An episode with frames after steps (as the recorder may write), no final frame, usage and events.
    from gui_agent.episode import Usage
    from gui_agent.episode.writer import write_frame_atomic

    after = write_synthetic(
        source, "after", [Click(i, i) for i in range(3)], task_id="t/after", instruction="x",
        actor=ActorInfo(type="policy", name="p"), env=EnvInfo(kind="browser", screen=ScreenSize(width=32, height=24), scale=2.0),
        labels={"reviewed": True}, frames=[frame(32, 24, i) for i in range(3)], thoughts=[None] * 3, step_details=False,
        per_step=[{"usage": Usage(input_tokens=5, images=1, latency_s=0.5), "events": (i * 2, i * 2 + 2),
                   "info": {"nested": {"k": [1, 2]}}, "error": "boom" if i == 1 else None} for i in range(3)],
        final=False, outcome=None,
    )
    write_frame_atomic(after / "frames" / "000001_after.png", frame(32, 24, 99))
    lines = (after / "steps.jsonl").read_text().splitlines()
    patched = json.loads(lines[1]) | {"frame_after": "frames/000001_after.png"}
    lines[1] = json.dumps(patched, separators=(",", ":"))
    (after / "steps.jsonl").write_text("\n".join(lines) + "\n")
    # And an episode with no steps at all.
    write_synthetic(source, "empty", [], task_id="t/empty", instruction="nothing", actor=ActorInfo(type="human", name="h"),
                    size=(8, 8), labels={}, final=frame(8, 8, 1), outcome=None)

    out, back = tmp_path / "ds", tmp_path / "back"
    report = export_dataset([source], out, ExportOptions(scrub=False, split=SplitSpec((("a", 0.5), ("b", 0.5)))))
    assert report.episodes == 3 and not report.skipped
    imported = import_dataset(out, back)
    assert not imported.skipped and len(imported.episodes) == 3
    for name in ("all", "after"):
        _assert_same_episode(source / name, back / name)
    assert read_episode(back / "empty").meta == read_episode(source / "empty").meta
    assert read_episode(back / "empty").final_frame == "frames/000000.png"
    assert (back / "empty" / "frames" / "000000.png").read_bytes() == (source / "empty" / "frames" / "000000.png").read_bytes()
    assert read_episode(back / "after").steps[1].frame_after == "frames/000001_after.png"


def test_episode_spanning_several_shards_round_trips(tmp_path: Path) -> None:
    rng = np.random.default_rng(0)
    noisy = [rng.integers(0, 255, (60, 80, 3), dtype=np.uint8) for _ in range(25)]
    write_synthetic(tmp_path / "in", "long", [Click(i, i) for i in range(25)], size=(80, 60), frames=noisy)
    out = tmp_path / "ds"
    export_dataset([tmp_path / "in"], out, ExportOptions(shard_bytes=40_000, row_group_rows=3))
    assert len(list((out / "data" / "steps").iterdir())) >= 3
    report = import_dataset(out, tmp_path / "back")
    assert report.steps == 25
    _assert_same_episode(tmp_path / "in" / "long", tmp_path / "back" / "long")


def test_import_never_overwrites_and_reports_what_it_skipped(tmp_path: Path) -> None:
    write_synthetic(tmp_path / "in", "one", [Click(1, 1)])
    write_synthetic(tmp_path / "in", "two", [Click(2, 2)])
    out = tmp_path / "ds"
    export_dataset([tmp_path / "in"], out)
    back = tmp_path / "back"
    (back / "one").mkdir(parents=True)
    (back / "one" / "mine.txt").write_text("keep me")
    report = import_dataset(out, back)
    assert [p.name for p in report.episodes] == ["two"]
    assert report.skipped[0][0] == "one" and "already exists" in report.skipped[0][1]
    assert (back / "one" / "mine.txt").read_text() == "keep me"
    assert main(["import", str(out), "--out", str(tmp_path / "back2"), "--quiet"]) == 0
    assert main(["import", str(out), "--out", str(tmp_path / "back2"), "--quiet"]) == 1  # all exist now


def test_import_refuses_hostile_paths_in_a_tampered_dataset(tmp_path: Path) -> None:
    write_synthetic(tmp_path / "in", "good", [Click(1, 1), Click(2, 2)])
    write_synthetic(tmp_path / "in", "evil", [Click(1, 1)])
    out = tmp_path / "ds"
    export_dataset([tmp_path / "in"], out)
    shard = next((out / "data" / "steps").glob("*.parquet"))
    table = pq.read_table(shard)
    rows = table.to_pylist()
    for row in rows:
        if row["episode_id"] == "evil":
            row["image"]["path"] = "../../escaped.png"
    pq.write_table(pa.Table.from_pylist(rows, schema=table.schema), shard)
    report = import_dataset(out, tmp_path / "back")
    assert [p.name for p in report.episodes] == ["good"]
    assert report.skipped == [("evil", "frame path '../../escaped.png' is not a plain frames/NNNNNN.png (or .webp) inside the episode")]
    assert not (tmp_path / "escaped.png").exists() and not (tmp_path / "back" / "evil").exists()


def test_import_of_a_dataset_without_steps_says_so(tmp_path: Path) -> None:
    write_synthetic(tmp_path / "in", "one", [Click(1, 1)])
    out = tmp_path / "ds"
    export_dataset([tmp_path / "in"], out, ExportOptions(formats=("sft",)))
    with pytest.raises(ExportError, match="only datasets exported with --format steps"):
        import_dataset(out, tmp_path / "back")
    with pytest.raises(ExportError, match="no such folder, and not a hub repo id"):
        import_dataset(tmp_path / "no" / "such" / "dir", tmp_path / "back")
    with pytest.raises(ExportError, match="cannot reach the hub|no such dataset"):
        import_dataset("someone/not-cached", tmp_path / "back", cache_dir=tmp_path / "cache")  # offline
