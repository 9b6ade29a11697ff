"""A desktop episode (LibreOffice Calc under real Xvfb) replays to the same evaluator outcome."""

from __future__ import annotations

from pathlib import Path

import pytest

from gui_agent.episode import read_episode
from gui_agent.registry import load_policy
from gui_agent.runner import run_episode
from gui_agent.task import load_task
from gui_agent.replay.replayer import replay_episode
from gui_agent.replay.source import load_source
from tests.paths import REPO

ROOT = REPO


@pytest.mark.slow
def test_a_calc_episode_with_menu_clicks_replays_to_success(tmp_path: Path) -> None:
    task = load_task(ROOT / "datasets/tasks/desktop/calc/sort-descending.yaml")
    recorded = run_episode(task, load_policy("desktop-oracle"), out_dir=tmp_path / "recorded")
    assert recorded.success, recorded.reason
    source = load_source(recorded.episode_path)  # the task file is found from the episode's task id
    assert source.task == task
    result = replay_episode(source, out_dir=tmp_path / "replays")
    assert result.success and result.refused is None
    clicks = [r for r in result.steps if r.action["kind"] == "click"]
    assert len(clicks) == 2 and all(r.anchor and r.anchor["confident"] for r in clicks)  # menu clicks checked, not blind
    assert result.first_divergent_step is None and min(r.similarity for r in result.steps) > 0.9
    replayed = [s.action for s in read_episode(result.episode_path).steps]
    assert replayed == [s.action for s in read_episode(recorded.episode_path).steps]
