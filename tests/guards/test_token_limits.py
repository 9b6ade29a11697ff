"""``limits.max_tokens`` in a task file ends the episode as truncated; ``--max-tokens`` overrides it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from gui_agent.errors import TaskFileError
from gui_agent.guards import Budget
from gui_agent.runner import run_episode
from gui_agent.task import Limits, load_task
from tests.guards.guard_page import TASK
from tests.guards.token_policies import TokenSpender
from tests.paths import REPO


def _task_file(guard_files: dict[str, Path], limits: str, name: str) -> Path:
    text = TASK.format(url=(guard_files["folder"] / "page.html").as_uri(), protected=guard_files["protected"])
    default = "limits: {max_steps: 12, step_timeout_s: 5, episode_timeout_s: 60}"
    assert default in text
    path = guard_files["folder"] / name
    path.write_text(text.replace(default, limits), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def token_task_file(guard_files: dict[str, Path]) -> Path:
    return _task_file(guard_files, "limits: {max_steps: 12, step_timeout_s: 5, episode_timeout_s: 60, max_tokens: 1000}", "tokens.yaml")


def test_the_task_files_token_limit_truncates_the_episode(token_task_file: Path, guard_env, protected, tmp_path: Path) -> None:
    task = load_task(token_task_file)
    assert task.limits.max_tokens == 1000
    result = run_episode(task, TokenSpender(), out_dir=tmp_path, seed=0, env=guard_env)  # no budget given: the task's
    assert result.termination == "truncated" and result.reason == "token budget reached (1200 of 1000 tokens)"
    assert result.steps == 3 and result.usage == {"input_tokens": 900, "output_tokens": 300, "images": 3}
    meta = json.loads((result.episode_path / "episode.json").read_text())
    assert meta["outcome"]["termination"] == "truncated" and "token budget" in meta["outcome"]["reason"]


def test_a_runs_token_budget_replaces_the_task_files() -> None:
    limits = Limits(max_steps=5, episode_timeout_s=60, max_tokens=1000)
    assert Budget.from_limits(limits) == Budget(max_steps=5, max_seconds=60, max_tokens=1000)
    assert Budget.from_limits(limits, max_tokens=300).max_tokens == 300
    assert Budget.from_limits(Limits()).max_tokens is None


@pytest.mark.parametrize("value", ["0", "-5", "lots", "1.5", "true"])
def test_a_bad_token_limit_is_an_error_naming_the_key(guard_files: dict[str, Path], value: str) -> None:
    path = _task_file(guard_files, f"limits: {{max_steps: 12, max_tokens: {value}}}", f"bad-{value}.yaml")
    with pytest.raises(TaskFileError) as info:
        load_task(path)
    assert "limits.max_tokens" in str(info.value) and f"{path.name}:" in str(info.value)


@pytest.mark.slow
def test_eval_max_tokens_overrides_the_task_file(token_task_file: Path, protected, tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)}

    def run(out: Path, *extra: str) -> dict:
        proc = subprocess.run([sys.executable, "-m", "gui_agent", "eval", str(token_task_file), "--policy",
                               "py:tests.guards.token_policies:TokenSpender", "--out", str(out), "--quiet", *extra],
                              env=env, capture_output=True, text=True, timeout=180)
        assert proc.returncode in (0, 1) and (out / "ledger.jsonl").is_file(), proc.stdout + proc.stderr
        [line] = [json.loads(text) for text in (out / "ledger.jsonl").read_text().splitlines()]
        return line

    from_task = run(tmp_path / "task-limit")
    assert (from_task["termination"], from_task["reason"], from_task["steps"]) == ("truncated", "token budget reached (1200 of 1000 tokens)", 3)
    overridden = run(tmp_path / "cli-limit", "--max-tokens", "500")
    assert (overridden["termination"], overridden["reason"], overridden["steps"]) == ("truncated", "token budget reached (800 of 500 tokens)", 2)
    assert overridden["usage"]["input_tokens"] == 600


def test_the_runner_writes_png_frames_unless_asked_for_webp(token_task_file: Path, guard_env, protected, tmp_path: Path) -> None:
    from gui_agent.episode import read_episode

    task = load_task(token_task_file)
    png = read_episode(run_episode(task, TokenSpender(), out_dir=tmp_path / "png", seed=0, env=guard_env).episode_path)
    webp = read_episode(run_episode(task, TokenSpender(), out_dir=tmp_path / "webp", seed=0, env=guard_env,
                                    frame_format="webp").episode_path)
    assert png.meta.frame_format == "png" and png.steps[0].frame_before.endswith(".png")
    assert webp.meta.frame_format == "webp" and [s.frame_before for s in webp.steps] == [f"frames/{i:06d}.webp" for i in range(3)]
    assert webp.final_frame == "frames/000003.webp"
    # The same page in both: identical pixels, whatever the file format.
    assert (png.load_frame(png.steps[0].frame_before) == webp.load_frame(webp.steps[0].frame_before)).all()
