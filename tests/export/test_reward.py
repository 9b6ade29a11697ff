"""--format reward: the replayer's reward samples (schema defined in gui_agent.export.reward)."""

from __future__ import annotations

import json
from pathlib import Path

import datasets
import numpy as np
import pytest

from gui_agent.actions import Click, Type, action_to_dict
from gui_agent.cli import main
from gui_agent.export import ExportError, ExportOptions, export_dataset
from gui_agent.export.reward import REWARD_FILE
from tests.synthetic_episodes import frame, write_synthetic


def _samples(root: Path) -> Path:
    write_synthetic(root / "episodes", "src", [Click(10, 10), Type("a@b.io")], task_id="t/reward")
    lines = [
        {"sample_id": "s1", "episode": "episodes/src", "step_index": 0, "action": action_to_dict(Click(10, 10)),
         "reward": 1.0, "label": "progress", "source": "recorded", "group": "g0"},
        {"sample_id": "s2", "episode": "episodes/src", "step_index": 0, "action": action_to_dict(Click(60, 40)),
         "reward": 0.0, "label": "harmful", "perturbation": "click_offset", "group": "g0", "detail": {"dx": 50}},
        {"sample_id": "s3", "episode": "episodes/src", "step_index": 1, "action": action_to_dict(Type("a@b.io")),
         "reward": 1.0, "label": "progress"},
        {"sample_id": "bad-step", "episode": "episodes/src", "step_index": 7, "action": action_to_dict(Click(1, 1)),
         "reward": 0.5, "label": "neutral"},
        {"sample_id": "bad-reward", "episode": "episodes/src", "step_index": 0, "action": action_to_dict(Click(1, 1)),
         "reward": 3, "label": "progress"},
    ]
    text = "\n".join(json.dumps(line) for line in lines) + "\n{oops\n"
    (root / REWARD_FILE).write_text(text)
    return root


def test_reward_samples_export_with_screenshots_and_bad_lines_are_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _samples(tmp_path / "replay")
    out = tmp_path / "ds"
    assert main(["export", str(root), "--out", str(out), "--format", "reward", "--quiet"]) == 0
    printed = capsys.readouterr().out
    assert f"exported 3 reward sample(s) to {out}" in printed  # not "0 episode(s), 0 step(s)"
    assert "reward.jsonl:4: step 7 is past the episode's 2 steps" in printed
    assert "reward.jsonl:5: field 'reward'" in printed and "reward.jsonl:6: invalid JSON" in printed
    rows = datasets.load_dataset(str(out), "reward", split="train", cache_dir=str(tmp_path / "c"))
    assert rows["sample_id"] == ["s1", "s2", "s3"]
    assert rows["label"] == ["progress", "harmful", "progress"] and rows["reward"] == [1.0, 0.0, 1.0]
    assert rows[1]["action_text"] == "click(60, 40)" and json.loads(rows[1]["detail"]) == {"dx": 50}
    assert rows[2]["action"]["text"] == "[EMAIL]"  # scrubbed like everything else
    assert np.array_equal(np.asarray(rows[1]["image"]), frame(64, 48, 0))


def test_reward_without_reward_data_says_what_is_missing(tmp_path: Path) -> None:
    write_synthetic(tmp_path / "in", "ep", [Click(1, 1)])
    with pytest.raises(ExportError, match="found no reward.jsonl .* 'gui-agent make-reward-data"):
        export_dataset([tmp_path / "in"], tmp_path / "ds", ExportOptions(formats=("reward",)))
    assert not (tmp_path / "ds").exists()


def test_reward_data_layout_round_trips_and_names_bad_lines(tmp_path: Path) -> None:
    from gui_agent.errors import FileFormatError
    from gui_agent.export.reward import (
        OutcomeSample,
        PreferencePair,
        RewardDataWriter,
        RewardSample,
        read_outcomes,
        read_preferences,
        read_reward_samples,
    )

    out = tmp_path / "data"
    with RewardDataWriter(out) as writer:
        rel = writer.relative(out / "episodes" / "e1")
        writer.add(RewardSample(sample_id="s", episode=rel, step_index=0, action=action_to_dict(Click(1, 2)),
                                label="harmful", reward=0.0, perturbation="click_offset_large"))
        writer.add(OutcomeSample(sample_id="o", episode=rel, task_id="t", instruction="i", success=True, reward=1.0))
        writer.add(PreferencePair(pair_id="p", task_id="t", instruction="i", chosen=rel, rejected="episodes/e2",
                                  chosen_reward=1.0, rejected_reward=0.0, reason="success over failure"))
    assert rel == "episodes/e1"
    assert [s.label for s in read_reward_samples(out)] == ["harmful"]
    assert [o.success for o in read_outcomes(out)] == [True]
    assert [p.chosen for p in read_preferences(out / "preferences.jsonl")] == ["episodes/e1"]

    # a torn last line (a killed run) is dropped on reopening; the ids already written are known
    with open(out / "reward.jsonl", "a") as handle:
        handle.write('{"sample_id": "torn", "epi')
    with RewardDataWriter(out) as writer:
        assert writer.has("s") and writer.has("o") and writer.has("p") and not writer.has("torn")
    assert [s.sample_id for s in read_reward_samples(out)] == ["s"]

    with open(out / "outcomes.jsonl", "a") as handle:
        handle.write('{"sample_id": "o2", "episode": "x", "task_id": "t", "instruction": "i", "success": "maybe", "reward": 1}\n')
    with pytest.raises(FileFormatError, match=r"outcomes.jsonl:2: field 'success'"):
        list(read_outcomes(out))
    with pytest.raises(FileFormatError, match="no such file"):
        list(read_preferences(tmp_path / "nowhere"))
