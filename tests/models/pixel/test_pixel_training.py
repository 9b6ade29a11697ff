"""Training on real oracle episodes: the loss falls, checkpoints round-trip and resume."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from gui_agent.errors import PolicyDataError
from gui_agent.models.pixel.checkpoint import load_checkpoint, save_checkpoint
from gui_agent.models.pixel.dataset import collate, load_demonstrations
from gui_agent.models.pixel.network import PixelPolicyNet
from gui_agent.models.pixel.train import TrainConfig, evaluate, train

FAST = {"batch_size": 8, "lr": 3e-3, "val_fraction": 0.0, "warmup_steps": 2, "shift": 2}


@pytest.mark.slow
def test_a_few_seconds_of_training_lower_the_loss(demos: Path, tiny_net_config, tmp_path: Path) -> None:
    data = load_demonstrations([demos], max_side=tiny_net_config.max_side, val_fraction=0.0, progress=False)
    kinds = {sample.kind for sample in data.train}
    assert kinds == {0, 1}  # clicks and typing
    torch.manual_seed(0)
    before = evaluate(PixelPolicyNet(tiny_net_config), data.train, data.frames)["val_loss"]
    result = train([demos], tmp_path / "p.pt", config=TrainConfig(epochs=25, **FAST), net_config=tiny_net_config, progress=False, log=lambda _: None)
    after = evaluate(load_checkpoint(tmp_path / "p.pt").model, data.train, data.frames)["val_loss"]
    assert result.finished and result.epochs_done == 25
    assert after < 0.6 * before, (before, after)


def test_checkpoint_round_trip_gives_identical_outputs(demos: Path, tiny_net_config, tmp_path: Path) -> None:
    data = load_demonstrations([demos], max_side=tiny_net_config.max_side, val_fraction=0.0, progress=False)
    batch = collate(data.train[:6], data.frames)
    inputs = [batch[k] for k in ("images", "chars", "words", "typed", "token_mask", "step", "previous")]
    model = PixelPolicyNet(tiny_net_config).eval()
    save_checkpoint(tmp_path / "m.pt", model, {"note": "round trip"})
    loaded = load_checkpoint(tmp_path / "m.pt")
    with torch.no_grad():
        expected, got = model(*inputs), loaded.model(*inputs)
    assert loaded.model.config == tiny_net_config and loaded.meta == {"note": "round trip"}
    for key in expected:
        assert torch.equal(expected[key], got[key]), key


def test_an_interrupted_run_resumes_where_it_stopped(demos: Path, tiny_net_config, tmp_path: Path) -> None:
    out = tmp_path / "r.pt"
    config = TrainConfig(epochs=3, **FAST)

    def interrupt_after_first_epoch(line: str) -> None:
        if line.startswith("epoch=1 "):
            raise KeyboardInterrupt

    first = train([demos], out, config=config, net_config=tiny_net_config, progress=False, log=interrupt_after_first_epoch)
    assert not first.finished and first.epochs_done == 1
    saved = load_checkpoint(out)
    assert saved.training is not None and saved.training["optimizer"]["state"]  # resumable state kept
    assert saved.meta["epochs_done"] == 1 and saved.meta["step"] == first.steps

    second = train([demos], out, config=config, resume=True, progress=False, log=lambda _: None)
    assert second.finished and second.epochs_done == 3
    assert second.steps == 3 * first.steps  # continued, not restarted
    final = load_checkpoint(out)
    assert final.training is None and len(final.meta["history"]) == 3  # finished: optimizer dropped


def test_training_without_episodes_says_so(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("not an episode")
    with pytest.raises(PolicyDataError, match="no episodes"):
        load_demonstrations([tmp_path], max_side=320, progress=False)
    with pytest.raises(PolicyDataError, match="no such file"):
        load_demonstrations([tmp_path / "missing"], max_side=320, progress=False)


def test_a_station_dataset_gives_only_the_accepted_demonstrations(tmp_path: Path) -> None:
    from gui_agent.models.pixel.dataset import find_episodes
    from tests.export.test_station_datasets import station_dataset

    dataset = station_dataset(tmp_path / "annotations", {"ep-ok": "accepted", "ep-no": "rejected", "ep-new": None})
    assert [p.name for p in find_episodes([dataset])] == ["ep-ok"]
    rejected_only = station_dataset(tmp_path / "other", {"ep-no": "rejected"})
    with pytest.raises(PolicyDataError, match="reviewer accepted"):
        find_episodes([rejected_only])
