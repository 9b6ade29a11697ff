"""Every command that reads episodes takes an eval's --out: one rule (gui_agent.episode.finder).

Before, `show` and `replay` took episode folders only and `make-reward-data` looked one
level down, so `gui-agent make-reward-data runs/oracle/episodes` (train reward's own
example) failed on an eval folder, whose episodes are episodes/<task>/repeat-NNN/<id>/.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from gui_agent.cli import main
from tests.paths import MINIWOB_TASKS

pytestmark = pytest.mark.slow  # a real eval (workers, Chromium) and replays


@pytest.fixture(scope="module")
def eval_out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("runs") / "oracle"
    result = subprocess.run([sys.executable, "-m", "gui_agent", "eval", str(MINIWOB_TASKS / "click-button.yaml"), "--policy",
                             "oracle", "--seeds", "1-2", "--out", str(out), "--quiet"], capture_output=True, text=True,
                            timeout=600, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    return out


def test_show_and_review_take_a_folder_holding_one_episode_and_count_several(eval_out: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["show", str(eval_out)]) == 2
    said = capsys.readouterr().out
    assert "holds 2 episodes, and this takes one" in said and "repeat-000" in said and "repeat-001" in said
    one = eval_out / "episodes" / "miniwob-click-button" / "repeat-000"
    assert main(["show", str(one)]) == 0
    assert "miniwob/click-button" in capsys.readouterr().out
    assert main(["review", str(one)]) == 0
    assert "review:" in capsys.readouterr().out and len(list(one.glob("*/review.html"))) == 1


def test_replay_make_reward_data_export_and_train_take_an_eval_folder(eval_out: Path, tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["replay", str(eval_out), "--out", str(tmp_path / "replays"), "--quiet"]) == 0
    assert capsys.readouterr().out.count("SUCCESS replay of") == 2

    assert main(["make-reward-data", str(eval_out / "episodes"), "--out", str(tmp_path / "rd"), "--kinds", "click_offset_large",
                 "--quiet"]) == 0
    assert "2 source episode(s): 2/2 replays succeeded" in capsys.readouterr().out

    assert main(["export", str(eval_out), "--out", str(tmp_path / "hf"), "--quiet"]) == 0
    assert "exported 2 episode(s)" in capsys.readouterr().out

    assert main(["train", "policy", str(eval_out), "--out", str(tmp_path / "pixel.pt"), "--epochs", "1", "--quiet"]) == 0
    assert (tmp_path / "pixel.pt").is_file()
