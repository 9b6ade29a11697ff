"""Reading reward data: counts and labels from a real generated set; clear errors for bad input."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gui_agent.errors import FileFormatError, RewardDataError
from gui_agent.models.reward.data import load_reward_data


def test_loads_steps_and_outcomes_with_tasks_and_labels(reward_data: Path) -> None:
    data = load_reward_data([reward_data])
    outcome_lines = (reward_data / "outcomes.jsonl").read_text().splitlines()
    step_lines = (reward_data / "reward.jsonl").read_text().splitlines()
    assert len(data.outcomes) == len(outcome_lines) == 24  # 3 tasks x (oracle + random) x 4 seeds
    assert len(data.steps) == len(step_lines)
    assert data.tasks == ["miniwob/click-button", "miniwob/click-link", "miniwob/enter-text"]
    assert sum(o.success for o in data.outcomes) == 12  # the oracle's, and no random success on these seeds
    labels = {json.loads(line)["label"] for line in step_lines}
    assert labels == {"progress", "neutral", "harmful"}
    held_out = data.only_tasks(["miniwob/enter-text"])
    assert {e.task_id for e in held_out.steps} == {"miniwob/enter-text"}


def test_missing_folder_and_folder_without_samples(tmp_path: Path) -> None:
    with pytest.raises(RewardDataError, match="no such reward-data folder"):
        load_reward_data([tmp_path / "nope"])
    with pytest.raises(RewardDataError, match="neither reward.jsonl nor outcomes.jsonl"):
        load_reward_data([tmp_path])


def test_corrupt_line_names_file_and_line(reward_data: Path, tmp_path: Path) -> None:
    copy = tmp_path / "data"
    shutil.copytree(reward_data, copy)
    lines = (copy / "reward.jsonl").read_text().splitlines()
    lines[2] = lines[2][:30]
    (copy / "reward.jsonl").write_text("\n".join(lines) + "\n")
    with pytest.raises(FileFormatError, match=r"reward.jsonl:3: invalid JSON"):
        load_reward_data([copy])


def test_missing_episode_and_missing_frame_are_named(reward_data: Path, tmp_path: Path) -> None:
    copy = tmp_path / "data"
    shutil.copytree(reward_data, copy)
    first = json.loads((copy / "reward.jsonl").read_text().splitlines()[0])
    frame = copy / first["episode"] / "frames" / f"{first['step_index'] + 1:06d}.png"
    frame.unlink()
    with pytest.raises(RewardDataError, match=rf"sample {first['sample_id']}: frame {first['step_index'] + 1} of .* is missing"):
        load_reward_data([copy])
    shutil.rmtree(copy / first["episode"])
    with pytest.raises(RewardDataError, match="its episode folder .* does not exist"):
        load_reward_data([copy])


def test_cli_bad_data_exits_2_with_the_reason(tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, "-m", "gui_agent", "train", "reward", str(tmp_path / "missing"), "--out", str(tmp_path / "ckpt")],
                            check=False, capture_output=True, text=True, timeout=120)
    assert result.returncode == 2
    assert "no such reward-data folder" in result.stdout
    assert not (tmp_path / "ckpt").exists()


@pytest.mark.slow
def test_reads_what_make_reward_data_writes(tmp_path: Path) -> None:
    """The replayer's real output (simulator variants, prefix labels) loads into examples."""
    from tests.models.reward.reward_helpers import TASKS_DIR

    from gui_agent.registry import load_policy
    from gui_agent.runner import run_episode
    from gui_agent.task import load_task

    demo = run_episode(load_task(TASKS_DIR / "click-button.yaml"), load_policy("oracle"), out_dir=tmp_path / "demos", seed=0)
    assert demo.success
    out = tmp_path / "data"
    made = subprocess.run([sys.executable, "-m", "gui_agent", "make-reward-data", str(demo.episode_path), "--out", str(out)],
                          check=False, capture_output=True, text=True, timeout=300)
    assert made.returncode == 0, made.stdout + made.stderr
    data = load_reward_data([out])
    outcomes = [json.loads(line) for line in (out / "outcomes.jsonl").read_text().splitlines()]
    assert len(data.outcomes) == len(outcomes) >= 3
    assert {o.success for o in data.outcomes} == {True, False}  # the replay succeeds, some variants fail
    assert len(data.steps) == len((out / "reward.jsonl").read_text().splitlines()) > 0
    assert {e.task_id for e in data.steps} == {"miniwob/click-button"}
