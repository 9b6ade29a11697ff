"""Reward data from a desktop episode: LibreOffice Calc under real Xvfb, variants executed.

One desktop-oracle episode of sort-descending (the Name Box, the Data menu, Sort
Descending, save) goes through ``gui-agent make-reward-data`` with the two click-offset
kinds: the source is replayed, each variant is executed from the task's start state (a
fresh Calc on a fresh copy of the file) and judged by the task's evaluator on the saved
file, and its steps are labelled by executing prefixes. The rows written must follow the
executed outcomes.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from gui_agent.cli import main
from gui_agent.episode import read_episode
from gui_agent.export.reward import read_outcomes, read_reward_samples, resolve_episode
from gui_agent.registry import load_policy
from gui_agent.runner import run_episode
from gui_agent.task import load_task
from tests.paths import REPO

ROOT = REPO


@pytest.mark.slow
def test_desktop_reward_data_labels_follow_the_executed_outcomes(tmp_path: Path) -> None:
    task = load_task(ROOT / "datasets/tasks/desktop/calc/sort-descending.yaml")
    recorded = run_episode(task, load_policy("desktop-oracle"), out_dir=tmp_path / "recorded")
    assert recorded.success, recorded.reason
    out = tmp_path / "reward-data"
    assert main(["make-reward-data", str(recorded.episode_path), "--out", str(out),
                 "--kinds", "click_offset_small,click_offset_large", "--quiet"]) == 0
    outcomes = {o.perturbation: o for o in read_outcomes(out)}
    assert set(outcomes) == {None, "click_offset_small", "click_offset_large"}
    samples = list(read_reward_samples(out))
    for kind, outcome in outcomes.items():
        episode = read_episode(resolve_episode(out, outcome.episode))
        assert episode.meta.env.kind == "desktop"
        assert episode.meta.outcome.success is outcome.success, kind  # the row is the evaluator's verdict
        labels = [s.label for s in sorted((s for s in samples if s.episode == outcome.episode), key=lambda s: s.step_index)]
        assert len(labels) == len(episode.steps), kind
        if outcome.success:
            assert "harmful" not in labels, (kind, labels)
        else:
            changed = outcome.detail["step"]
            assert labels[:changed] == ["progress"] * changed, labels  # the task was still finishable
            assert labels[changed] == "harmful", labels  # the offset click lost it
    assert outcomes[None].success  # the source replays to success
    # 2 px off a menu item still opens it: sorted and saved, accepted by the evaluator
    assert outcomes["click_offset_small"].success
    # a fifth of the screen off misses the menu item: the saved table is not sorted
    assert not outcomes["click_offset_large"].success
