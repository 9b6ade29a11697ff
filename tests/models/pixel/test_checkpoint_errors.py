"""Bad checkpoints and bad training input give clear errors (exit 2 on the command line)."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from gui_agent.cli import main
from gui_agent.errors import PolicyCheckpointError
from gui_agent.models.pixel.checkpoint import load_checkpoint, save_checkpoint
from gui_agent.models.pixel.network import NetConfig, PixelPolicyNet
from tests.paths import REPO

TASK = REPO / "datasets" / "tasks" / "miniwob" / "click-tab.yaml"


def test_a_missing_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(PolicyCheckpointError, match="no such checkpoint"):
        load_checkpoint(tmp_path / "nope.pt")


@pytest.mark.filterwarnings("ignore:Detected pickle protocol")  # torch's note on the garbage bytes
def test_a_corrupt_file_is_not_a_readable_checkpoint(tmp_path: Path) -> None:
    bad = tmp_path / "bad.pt"
    bad.write_bytes(b"\x80\x04garbage, not a checkpoint" * 10)
    with pytest.raises(PolicyCheckpointError, match="not a readable checkpoint"):
        load_checkpoint(bad)


def test_another_models_checkpoint_is_refused(tmp_path: Path) -> None:
    other = tmp_path / "other.pt"
    torch.save({"format": "gui-agent/reward-model", "model": {}}, other)
    with pytest.raises(PolicyCheckpointError, match="not a pixel-policy checkpoint"):
        load_checkpoint(other)


def test_weights_of_other_sizes_are_refused(tmp_path: Path, tiny_net_config) -> None:
    path = tmp_path / "sizes.pt"
    save_checkpoint(path, PixelPolicyNet(tiny_net_config), {})
    payload = torch.load(path, weights_only=True)
    payload["config"] = NetConfig().to_dict()  # claims the default sizes, holds tiny weights
    torch.save(payload, path)
    with pytest.raises(PolicyCheckpointError, match="weights do not fit"):
        load_checkpoint(path)


def test_run_with_a_corrupt_pixel_checkpoint_exits_2(tmp_path: Path, capsys) -> None:
    bad = tmp_path / "bad.pt"
    bad.write_text("hello")
    assert main(["run", str(TASK), "--policy", f"pixel:{bad}", "--out", str(tmp_path / "runs")]) == 2
    assert "not a readable checkpoint" in capsys.readouterr().out
    assert not (tmp_path / "runs").exists()


def test_train_policy_on_an_empty_or_non_episode_folder_exits_2(tmp_path: Path, capsys) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["train", "policy", str(empty), "--out", str(tmp_path / "p.pt"), "--quiet"]) == 2
    assert "no episodes" in capsys.readouterr().out
    (empty / "readme.txt").write_text("no episode here")
    assert main(["train", "policy", str(empty), "--out", str(tmp_path / "p.pt"), "--quiet"]) == 2
    assert "no episodes" in capsys.readouterr().out
    assert main(["train", "policy", str(tmp_path / "missing"), "--out", str(tmp_path / "p.pt"), "--quiet"]) == 2
    assert "no such file" in capsys.readouterr().out
    assert not (tmp_path / "p.pt").exists()


def test_train_policy_refuses_to_overwrite_without_resume(tmp_path: Path, capsys) -> None:
    existing = tmp_path / "p.pt"
    existing.write_bytes(b"precious")
    assert main(["train", "policy", str(tmp_path), "--out", str(existing)]) == 2
    assert "--resume" in capsys.readouterr().out
    assert existing.read_bytes() == b"precious"


def test_train_policy_writes_a_loadable_checkpoint(demos: Path, tmp_path: Path, capsys) -> None:
    out = tmp_path / "cli.pt"
    assert main(["train", "policy", str(demos), "--out", str(out), "--epochs", "1", "--quiet", "--threads", "1"]) == 0
    assert "finished: 1 epochs" in capsys.readouterr().out
    loaded = load_checkpoint(out)
    assert loaded.meta["data"]["train_samples"] > 0 and loaded.meta["train_seconds"] > 0
