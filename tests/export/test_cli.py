"""The export/import commands: help, progress, and clear errors for bad input."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from gui_agent.actions import Click
from gui_agent.cli import build_parser, main
from gui_agent.export import ExportOptions, export_dataset
from tests.synthetic_episodes import write_synthetic


def test_commands_are_registered_with_examples(capsys: pytest.CaptureFixture[str]) -> None:
    commands = build_parser()._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    assert {"export", "import"} <= set(commands)
    for name in ("export", "import"):
        with pytest.raises(SystemExit):
            main([name, "--help"])
        assert "examples:" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--split", "train=0.9,test=0.2"], "ratios add up to 1.1"),
        (["--split", "train=0.5,train=0.5"], "named twice"),
        (["--split", "tr-ain"], "not a valid split name"),
        (["--format", "parquet"], "unknown format(s) ['parquet']"),
        (["--sft-images", "0", "--format", "sft"], "--sft-images must be at least 1"),
    ],
)
def test_bad_options_exit_2_with_the_reason(tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], message: str) -> None:
    write_synthetic(tmp_path / "in", "ep", [Click(1, 1)])
    assert main(["export", str(tmp_path / "in"), "--out", str(tmp_path / "ds"), "--quiet", *extra]) == 2
    assert message in capsys.readouterr().out
    assert not (tmp_path / "ds").exists()  # nothing touched on bad input


def test_bad_inputs_and_outputs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["export", str(tmp_path / "missing"), "--out", str(tmp_path / "ds")]) == 2
    assert "missing: no such file or folder" in capsys.readouterr().out
    (tmp_path / "empty").mkdir()
    assert main(["export", str(tmp_path / "empty"), "--out", str(tmp_path / "ds")]) == 2
    assert "holds no episode" in capsys.readouterr().out

    write_synthetic(tmp_path / "in", "ep", [Click(1, 1)])
    busy = tmp_path / "busy"
    busy.mkdir()
    (busy / "notes.txt").write_text("mine")
    assert main(["export", str(tmp_path / "in"), "--out", str(busy)]) == 2
    assert "not empty and not an earlier export (notes.txt)" in capsys.readouterr().out

    out = tmp_path / "ds"
    assert main(["export", str(tmp_path / "in"), "--out", str(out), "--quiet"]) == 0
    capsys.readouterr()
    assert main(["export", str(tmp_path / "in"), "--out", str(out), "--quiet"]) == 2
    assert "pass --overwrite" in capsys.readouterr().out
    assert main(["export", str(tmp_path / "in"), "--out", str(out), "--quiet", "--overwrite", "--split", "a=0.5,b=0.5"]) == 0
    assert sorted(p.name for p in (out / "data" / "steps").iterdir()) in (
        ["a-00000-of-00001.parquet"], ["b-00000-of-00001.parquet"])  # the old train shard is gone

    assert main(["import", str(tmp_path / "nowhere"), "--out", str(tmp_path / "x")]) == 2
    assert "no such folder, and not a hub repo id" in capsys.readouterr().out


def test_progress_callback_and_bar(tmp_path: Path) -> None:
    for i in range(3):
        write_synthetic(tmp_path / "in", f"ep{i}", [Click(1, 1)] * (i + 1))
    calls: list[tuple[int, int, int]] = []
    export_dataset([tmp_path / "in"], tmp_path / "ds", ExportOptions(), on_progress=lambda *a: calls.append(a))
    assert calls == [(1, 3, 1), (2, 3, 3), (3, 3, 6)]
    # On a terminal the command shows a rich progress bar (forced here).
    env = {**os.environ, "FORCE_COLOR": "1", "COLUMNS": "120"}
    result = subprocess.run([sys.executable, "-m", "gui_agent", "export", str(tmp_path / "in"), "--out", str(tmp_path / "ds2")],
                            env=env, capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "exporting" in result.stderr and "3/3" in result.stderr
