"""Episodes with lossless WebP frames (the recorder's default) export and import byte for byte."""

from __future__ import annotations

import io
from pathlib import Path

import datasets
import numpy as np
import pyarrow.parquet as pq
import pytest
from PIL import Image

from gui_agent.actions import Click, Type
from gui_agent.cli import main
from gui_agent.episode import read_episode
from gui_agent.export import ExportOptions, export_dataset, import_dataset
from tests.synthetic_episodes import frame, write_synthetic


def _frames(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((folder / "frames").iterdir())}


def test_webp_frames_are_embedded_as_they_are_and_come_back_exactly(tmp_path: Path) -> None:
    source = tmp_path / "in"
    webp = write_synthetic(source, "webp", [Click(1, 2), Type("hi"), Click(3, 4)], frame_format="webp")
    png = write_synthetic(source, "png", [Click(5, 6)])  # one export may mix both
    out, back = tmp_path / "ds", tmp_path / "back"
    report = export_dataset([source], out, ExportOptions(scrub=False))
    assert report.episodes == 2 and not report.skipped

    shard = pq.ParquetFile(next((out / "data" / "steps").glob("train-*.parquet")))
    cells = {(r["episode_id"], r["image"]["path"]): r["image"]["bytes"] for r in shard.read(columns=["episode_id", "image"]).to_pylist()}
    assert cells[("webp", "frames/000001.webp")] == (webp / "frames" / "000001.webp").read_bytes()  # not re-encoded
    assert cells[("png", "frames/000000.png")] == (png / "frames" / "000000.png").read_bytes()

    # datasets' Image() decodes the WebP cells to the exact pixels.
    steps = datasets.load_dataset(str(out), "steps", split="train", cache_dir=str(tmp_path / "cache"))
    row = next(r for r in steps if r["episode_id"] == "webp" and r["step_index"] == 2)
    assert np.array_equal(np.asarray(row["image"].convert("RGB")), frame(64, 48, 2))

    imported = import_dataset(out, back)
    assert not imported.skipped and len(imported.episodes) == 2
    for name in ("webp", "png"):
        original, copy = read_episode(source / name), read_episode(back / name)
        assert copy.meta == original.meta  # frame_format included, though the table has no column for it
        assert [s.model_dump() for s in copy.steps] == [s.model_dump() for s in original.steps]
        assert _frames(back / name) == _frames(source / name)
    assert read_episode(back / "webp").meta.frame_format == "webp"
    assert read_episode(back / "webp").final_frame == "frames/000003.webp"


def _damaged(root: Path) -> dict[str, str]:
    """WebP episodes with one kind of damage each; returns name -> expected reason."""
    bad = {}
    path = write_synthetic(root, "cut-webp", [Click(1, 1), Click(2, 2)], frame_format="webp")
    data = (path / "frames" / "000001.webp").read_bytes()
    (path / "frames" / "000001.webp").write_bytes(data[: len(data) - 7])
    bad["cut-webp"] = "000001.webp: corrupt WebP (the file holds"
    path = write_synthetic(root, "png-named-webp", [Click(1, 1)], frame_format="webp")
    buf = io.BytesIO()
    Image.fromarray(frame(64, 48, 0)).save(buf, format="PNG")
    (path / "frames" / "000000.webp").write_bytes(buf.getvalue())
    bad["png-named-webp"] = "000000.webp: not a WebP (PNG)"
    path = write_synthetic(root, "garbage-webp", [Click(1, 1)], frame_format="webp")
    data = bytearray((path / "frames" / "000000.webp").read_bytes())
    data[12:] = bytes(len(data) - 12)  # the size is right, the bitstream is zeros
    (path / "frames" / "000000.webp").write_bytes(bytes(data))
    bad["garbage-webp"] = "000000.webp: corrupt WebP"
    return bad


def test_damaged_webp_frames_are_reported_and_the_episode_skipped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "in"
    write_synthetic(source, "good", [Click(1, 1)], frame_format="webp")
    bad = _damaged(source)
    assert main(["export", str(source), "--out", str(tmp_path / "ds"), "--quiet"]) == 0
    printed = capsys.readouterr().out
    for name, reason in bad.items():
        line = next((line for line in printed.splitlines() if line.startswith("skipped") and f"/{name}" in line), None)
        assert line is not None and reason in line, (name, printed)
    steps = datasets.load_dataset(str(tmp_path / "ds"), "steps", split="train", cache_dir=str(tmp_path / "c"))
    assert steps["episode_id"] == ["good"]
