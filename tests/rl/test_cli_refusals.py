"""``gui-agent train rl`` refuses what cannot work before any worker or browser starts:
exit 2, one ``error:`` line, and no run left in the folder (so the same command, fixed, runs)."""

from __future__ import annotations

from pathlib import Path

import pytest

from gui_agent.cli import main
from tests.paths import MINIWOB_TASKS

CLICK = str(MINIWOB_TASKS / "click-test.yaml")


def _no_evaluator(tmp_path: Path) -> str:
    text = (MINIWOB_TASKS / "click-test.yaml").read_text()
    head, _, tail = text.partition("evaluator:")
    path = tmp_path / "no-evaluator.yaml"
    path.write_text(head + "limits:" + tail.partition("limits:")[2])
    return str(path)


@pytest.mark.parametrize(
    ("extra", "said"),
    [
        (["--group-size", "1"], "at least 2"),
        (["--reward", "reward-model"], "needs --reward-model"),
        (["--reward", "evaluatr"], "unknown source"),
        (["--reward-model", "/nowhere/reward-ckpt"], "/nowhere/reward-ckpt"),
        (["--from", "/nowhere/pixel.pt"], "no such checkpoint"),
        (["--resume"], "no RL run to resume"),
    ],
)
def test_bad_settings_are_refused_before_anything_starts(tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], said: str) -> None:
    out = tmp_path / "rl"
    code = main(["train", "rl", CLICK, "--out", str(out), "--quiet", *extra])
    text = capsys.readouterr().out
    assert code == 2 and "error:" in text and said in text, text
    assert not (out / "run.json").exists() and not (out / "ledger.jsonl").exists()


def test_a_task_nothing_can_reward_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["train", "rl", _no_evaluator(tmp_path), "--out", str(tmp_path / "rl"), "--quiet"])
    text = capsys.readouterr().out
    assert code == 2 and "has no evaluator" in text and "--reward-model" in text, text
