"""gui-agent make-reward-data on a recording a reviewer edited: a step marked as a mistake is a harmful sample."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from gui_agent.cli import main
from gui_agent.episode import apply_edit, read_episode
from gui_agent.export.reward import read_reward_samples

pytestmark = pytest.mark.slow  # real Chromium


def test_a_marked_mistake_becomes_a_harmful_human_sample(oracle_episodes, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    source = shutil.copytree(oracle_episodes["enter-text"][0], tmp_path / "source")
    steps = read_episode(source).steps
    typed = next(s.index for s in steps if s.action["kind"] == "type")
    apply_edit(source, {"op": "mistake", "step": typed}, by="reviewer")
    out = tmp_path / "rd"
    assert main(["make-reward-data", str(source), "--out", str(out), "--kinds", "click_offset_small", "--quiet"]) == 0
    samples = list(read_reward_samples(out))
    replay = [s for s in samples if s.sample_id.endswith(f"/replay/{s.step_index}")]
    assert replay, "the replay of the source gave no samples"
    by_step = {s.step_index: s for s in replay}
    assert by_step[typed].label == "harmful" and by_step[typed].reward == 0.0
    assert by_step[typed].source == "human" and by_step[typed].detail["mistake"] is True
    assert all(s.label == "progress" and s.source == "replay" for s in replay if s.step_index != typed)
    # the variant's step that carries out the marked step is labelled the same way
    variant = [s for s in samples if "/click_offset_small/" in s.sample_id and s.detail["original_step"] == typed]
    assert variant and all(s.label == "harmful" and s.detail["mistake"] for s in variant)
