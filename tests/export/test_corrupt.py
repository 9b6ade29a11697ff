"""Corrupt episodes among good ones are reported and skipped; the export goes on."""

from __future__ import annotations

import shutil
from pathlib import Path

import datasets
import pytest

from gui_agent.actions import Click, Type
from gui_agent.cli import main
from tests.synthetic_episodes import write_synthetic


def _make_inputs(root: Path) -> dict[str, str]:
    """Good episodes and one of each kind of damage; returns bad name -> expected reason."""
    for n in range(3):
        write_synthetic(root, f"good{n}", [Click(n, n), Type("ok")])
    bad: dict[str, str] = {}
    path = write_synthetic(root, "truncated-png", [Click(1, 1), Click(2, 2)])
    data = (path / "frames" / "000001.png").read_bytes()
    (path / "frames" / "000001.png").write_bytes(data[: len(data) // 2])
    bad["truncated-png"] = "000001.png: corrupt PNG"
    path = write_synthetic(root, "flipped-bit", [Click(1, 1)])
    data = bytearray((path / "frames" / "000000.png").read_bytes())
    data[60] ^= 0xFF  # inside the image data: the chunk CRC no longer matches
    (path / "frames" / "000000.png").write_bytes(bytes(data))
    bad["flipped-bit"] = "000000.png: corrupt PNG"
    path = write_synthetic(root, "garbage-line", [Click(1, 1), Click(2, 2)])
    lines = (path / "steps.jsonl").read_text().splitlines()
    (path / "steps.jsonl").write_text(lines[0] + "\n{not json\n" + lines[1] + "\n")
    bad["garbage-line"] = "steps.jsonl:2: invalid JSON"
    path = write_synthetic(root, "bad-meta", [Click(1, 1)])
    (path / "episode.json").write_text('{"format_version": 1, "episode_id": ')
    bad["bad-meta"] = "episode.json:1: invalid JSON"
    path = write_synthetic(root, "missing-frame", [Click(1, 1)])
    (path / "frames" / "000000.png").unlink()
    bad["missing-frame"] = "missing frame"
    write_synthetic(root, "unfinished", [Click(1, 1)], size=(8, 8), final=False, finalize=False)  # a crash: status stays "recording"
    bad["unfinished"] = "status: recording"
    shutil.copytree(root / "good0", root / "nested" / "copy-of-good0")
    bad["copy-of-good0"] = "duplicate episode id 'good0'"
    return bad


def test_corrupt_episodes_are_reported_and_skipped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = _make_inputs(tmp_path / "in")
    out = tmp_path / "ds"
    assert main(["export", str(tmp_path / "in"), "--out", str(out), "--quiet"]) == 0
    printed = capsys.readouterr().out
    for name, reason in bad.items():
        line = next((line for line in printed.splitlines() if line.startswith("skipped") and f"/{name}" in line), None)
        assert line is not None and reason in line, (name, printed)
    assert f"{len(bad)} episode(s) skipped" in printed
    episodes = datasets.load_dataset(str(out), "episodes", split="train", cache_dir=str(tmp_path / "c"))
    assert sorted(episodes["episode_id"]) == ["good0", "good1", "good2"]
    steps = datasets.load_dataset(str(out), "steps", split="train", cache_dir=str(tmp_path / "c"))
    assert len(steps) == 6  # nothing half-written from the skipped ones
    assert f"{len(bad)} corrupt or unfinished episode(s)" in (out / "README.md").read_text()
    assert not list(out.rglob("*.partial"))


def test_all_corrupt_exports_nothing_and_says_why(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write_synthetic(tmp_path / "in", "only", [Click(1, 1)])
    (path / "frames" / "000000.png").write_bytes(b"not a png at all")
    assert main(["export", str(tmp_path / "in"), "--out", str(tmp_path / "ds"), "--quiet"]) == 1
    printed = capsys.readouterr().out
    assert "nothing could be exported" in printed and "000000.png" in printed


def test_paths_and_reasons_with_brackets_are_printed_verbatim(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Before: rich read "[pid=1]" in a folder name as a tag and dropped it, and "[/b]" crashed the command."""
    root = tmp_path / "in [pid=1] [/b]"
    write_synthetic(root, "good", [Click(1, 1)])
    path = write_synthetic(root, "broken", [Click(1, 1)])
    (path / "frames" / "000000.png").unlink()
    out = tmp_path / "ds [x]"
    assert main(["export", str(root), "--out", str(out), "--quiet"]) == 0
    printed = capsys.readouterr().out
    assert f"skipped {path}: " in printed, printed
    assert f"to {out} (" in printed, printed
