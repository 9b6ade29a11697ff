"""Training lowers the loss and beats chance on held-out seeds; checkpoints round-trip and resume."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from gui_agent.errors import RewardCheckpointError, RewardDataError
from gui_agent.models.reward.data import RewardData, load_reward_data
from gui_agent.models.reward.model import RewardModel
from gui_agent.models.reward.network import NetConfig
from gui_agent.models.reward.training import (
    TrainOptions,
    predict_outcomes,
    predict_steps,
    train_reward_model,
)

SMALL = NetConfig(width=8, text_dims=16, hidden=32)  # as the conftest's fixtures use


@pytest.mark.slow
def test_training_lowers_loss_and_beats_chance_on_held_out_seeds(reward_data: Path, tmp_path: Path) -> None:
    data = load_reward_data([reward_data])
    # Seeds 0-2 train, seed 3 is held out (the records' group is "task|seed").
    groups = {}
    for name in ("reward.jsonl", "outcomes.jsonl"):
        for line in (reward_data / name).read_text().splitlines():
            record = json.loads(line)
            groups[record["sample_id"]] = record["group"]
    train = RewardData([e for e in data.steps if not groups[e.sample_id].endswith("|3")],
                       [e for e in data.outcomes if not groups[e.sample_id].endswith("|3")])
    test = RewardData([e for e in data.steps if groups[e.sample_id].endswith("|3")],
                      [e for e in data.outcomes if groups[e.sample_id].endswith("|3")])
    assert test.steps and test.outcomes
    result = train_reward_model(train, TrainOptions(out=tmp_path / "ckpt", epochs=8, config=SMALL, threads=1))
    first, last = result.history[0], result.history[-1]
    assert last["step_loss"] < first["step_loss"]
    assert last["outcome_loss"] < first["outcome_loss"]
    model = RewardModel.load(tmp_path / "ckpt")
    assert model.step_net is not None and model.outcome_net is not None
    # Chance ranks a random positive above a random negative half of the time (AUC 0.5).
    step_auc = _auc(predict_steps(model.step_net, test.steps, progress=True), [e.label == 0 for e in test.steps])
    outcome_auc = _auc(predict_outcomes(model.outcome_net, test.outcomes), [e.success for e in test.outcomes])
    print(f"held-out seeds: step AUC {step_auc:.3f}, outcome AUC {outcome_auc:.3f}")
    assert step_auc > 0.75 and outcome_auc > 0.75


def _auc(scores: list[float], positive: list[bool]) -> float:
    """Probability that a positive example scores above a negative one (ties count half)."""
    pos = [s for s, p in zip(scores, positive) if p]
    neg = [s for s, p in zip(scores, positive) if not p]
    assert pos and neg
    return sum((a > b) + 0.5 * (a == b) for a in pos for b in neg) / (len(pos) * len(neg))


def test_checkpoint_round_trip_gives_identical_scores(reward_data: Path, trained_checkpoint: Path) -> None:
    data = load_reward_data([reward_data])
    one, two = RewardModel.load(trained_checkpoint), RewardModel.load(trained_checkpoint / "reward_model.pt")
    assert predict_steps(one.step_net, data.steps[:10]) == predict_steps(two.step_net, data.steps[:10])
    assert predict_outcomes(one.outcome_net, data.outcomes[:6]) == predict_outcomes(two.outcome_net, data.outcomes[:6])
    assert one.info["train_tasks"] == data.tasks and one.info["epochs"] == 6


def test_resume_continues_where_it_stopped_and_refuses_other_data(reward_data: Path, tmp_path: Path) -> None:
    data = load_reward_data([reward_data])
    small = data.only_tasks(["miniwob/click-button"])
    out = tmp_path / "ckpt"
    seen: list[int] = []

    def stop_in_third_epoch(done: int, total: int, text: str) -> None:
        seen.append(done)
        if done == total * 2 // 3 + 1:  # first batch of epoch 3: as if Ctrl-C came here
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        train_reward_model(small, TrainOptions(out=out, epochs=3, config=SMALL, threads=1), progress=stop_in_third_epoch)
    assert RewardModel.load(out).info["epochs"] == 2  # the last finished epoch is on disk
    resumed = train_reward_model(small, TrainOptions(out=out, epochs=3, config=SMALL, threads=1, resume=True))
    assert resumed.epochs_run == 1 and [h["epoch"] for h in resumed.history] == [1, 2, 3]
    straight = train_reward_model(small, TrainOptions(out=tmp_path / "straight", epochs=3, config=SMALL, threads=1))
    assert straight.history[-1]["step_loss"] == pytest.approx(resumed.history[-1]["step_loss"], rel=1e-4)
    assert straight.history[-1]["outcome_loss"] == pytest.approx(resumed.history[-1]["outcome_loss"], rel=1e-4)
    with pytest.raises(RewardCheckpointError, match="other data"):
        train_reward_model(data, TrainOptions(out=out, epochs=4, config=SMALL, threads=1, resume=True))
    with pytest.raises(RewardCheckpointError, match="nothing to resume"):
        train_reward_model(small, TrainOptions(out=tmp_path / "fresh", epochs=1, config=SMALL, resume=True))
    with pytest.raises(RewardDataError, match="not in the data"):
        train_reward_model(small, TrainOptions(out=tmp_path / "x", val_tasks=["miniwob/nope"], config=SMALL))


def test_missing_and_corrupt_checkpoints_are_clear_errors(trained_checkpoint: Path, tmp_path: Path) -> None:
    with pytest.raises(RewardCheckpointError, match="no reward-model checkpoint here"):
        RewardModel.load(tmp_path / "none")
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "reward_model.pt").write_bytes((trained_checkpoint / "reward_model.pt").read_bytes()[:500])
    with pytest.raises(RewardCheckpointError, match="not a readable checkpoint"):
        RewardModel.load(broken)
    other = tmp_path / "other"
    other.mkdir()
    torch.save({"weights": [1, 2]}, other / "reward_model.pt")
    with pytest.raises(RewardCheckpointError, match="not a gui-agent reward-model checkpoint"):
        RewardModel.load(other)
    payload = torch.load(trained_checkpoint / "reward_model.pt", map_location="cpu", weights_only=True)
    payload["format_version"] = 99
    newer = tmp_path / "newer"
    newer.mkdir()
    torch.save(payload, newer / "reward_model.pt")
    with pytest.raises(RewardCheckpointError, match="newer version"):
        RewardModel.load(newer)
    for version in (1, 2):  # typed text was encoded otherwise: its network would be fed other inputs
        payload["format_version"] = version
        older = tmp_path / f"older-{version}"
        older.mkdir()
        torch.save(payload, older / "reward_model.pt")
        with pytest.raises(RewardCheckpointError, match=f"format {version} encodes typed text differently.*retrain it"):
            RewardModel.load(older)


@pytest.mark.slow
def test_cli_trains_with_validation_tasks_and_refuses_to_overwrite(reward_data: Path, tmp_path: Path) -> None:
    out = tmp_path / "ckpt"
    command = [sys.executable, "-m", "gui_agent", "train", "reward", str(reward_data), "--out", str(out), "--epochs", "1",
               "--val-tasks", "miniwob/enter-text", "--threads", "1", "--quiet"]
    result = subprocess.run(command, check=False, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "held-out step: F1" in result.stdout and "held-out outcome: F1" in result.stdout
    model = RewardModel.load(out)
    assert model.info["val_tasks"] == ["miniwob/enter-text"] and "miniwob/enter-text" not in model.info["train_tasks"]
    again = subprocess.run(command, check=False, capture_output=True, text=True, timeout=300)
    assert again.returncode == 2 and "--resume" in again.stdout


def test_resume_from_a_damaged_training_state_is_a_clear_error(reward_data: Path, trained_checkpoint: Path, tmp_path: Path) -> None:
    import shutil

    copy = tmp_path / "ckpt"
    shutil.copytree(trained_checkpoint, copy)
    (copy / "training_state.pt").write_bytes(b"\x00" * 64)
    with pytest.raises(RewardCheckpointError, match="damaged training state"):
        train_reward_model(load_reward_data([reward_data]), TrainOptions(out=copy, epochs=7, config=SMALL, threads=1, resume=True))
    assert RewardModel.load(copy).info["epochs"] == 6  # the model file is untouched


def test_hiding_the_last_effect_looks_like_a_last_action_that_changed_nothing() -> None:
    """The augmentation must produce what encoding a real no-effect ending gives, else the network learns an artefact."""
    import numpy as np

    from gui_agent.actions import Click
    from gui_agent.models.reward.network import collate_trajectories
    from gui_agent.models.reward.training import _hide_last_effect
    from gui_agent.models.reward.transitions import encode_trajectory

    def screen(*boxes: tuple[int, int]) -> np.ndarray:
        image = np.full((120, 160, 3), 255, dtype=np.uint8)
        for x, y in boxes:
            image[y:y + 20, x:x + 30] = (200, 30, 30)
        return image

    first, middle, shown = screen(), screen((10, 10)), screen((10, 10), (100, 70))
    actions = [Click(20, 20), Click(110, 80)]
    instruction = 'Click the link "Ok".'
    seen = encode_trajectory([first, middle, shown], actions, instruction)
    unseen = encode_trajectory([first, middle, middle], actions, instruction)
    other = encode_trajectory([first, middle], actions[:1], instruction)

    batch = collate_trajectories([seen, other])
    _hide_last_effect(batch, torch.tensor([True, False]))
    expected = collate_trajectories([unseen, other])
    for key in ("final", "stats", "mask"):
        torch.testing.assert_close(batch[key], expected[key], msg=key)
    for key in ("before", "after", "glimpse_before", "glimpse_after", "change", "action", "after_known"):
        torch.testing.assert_close(batch["steps"][key], expected["steps"][key], msg=key)
    assert not torch.equal(collate_trajectories([seen])["final"], expected["final"][:1])  # the effect was there to hide
