"""What `gui-agent run` prints and returns when an episode has no verdict, and after several seeds."""

from __future__ import annotations

import json
from pathlib import Path

from gui_agent.cli import main
from gui_agent.cli.run import NOT_JUDGED
from tests.paths import MINIWOB_TASKS

TASK = MINIWOB_TASKS / "click-tab.yaml"


def _without_evaluator(tmp_path: Path) -> Path:
    """click-tab with its evaluator taken out: nothing judges the episode."""
    text = TASK.read_text().replace("evaluator:\n  miniwob_reward: {min: 1.0}\n", "")
    assert "evaluator" not in text
    task = tmp_path / "no-evaluator.yaml"
    task.write_text(text)
    return task


def test_a_task_with_no_evaluator_says_not_judged_and_has_its_own_exit_status(tmp_path: Path, capsys) -> None:
    out_dir = tmp_path / "out"
    code = main(["run", str(_without_evaluator(tmp_path)), "--policy", "oracle", "--out", str(out_dir), "--quiet"])
    out = capsys.readouterr().out
    assert code == NOT_JUDGED and code not in (0, 1, 2, 3)
    assert "NO VERDICT miniwob/click-tab" in out and "no evaluator" in out
    assert "FAILURE" not in out and "SUCCESS" not in out
    (episode,) = [p for p in out_dir.iterdir() if p.is_dir()]
    assert json.loads((episode / "episode.json").read_text())["outcome"]["success"] is None


def test_several_seeds_end_with_a_summary_line(tmp_path: Path, capsys) -> None:
    assert main(["run", str(TASK), "--policy", "oracle", "--seeds", "0-2", "--out", str(tmp_path), "--quiet"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[-1] == "3 episodes: 3 succeeded"


def test_the_exit_status_is_documented_in_help(capsys) -> None:
    try:
        main(["run", "--help"])
    except SystemExit:
        pass
    assert f"{NOT_JUDGED} none failed but some were not judged" in " ".join(capsys.readouterr().out.split())
