"""``gui-agent train rl`` end to end on real Chromium: the run's files, resume, and success rising.

Small configurations (groups of 3-6, one or two groups per update, a handful of updates)
that still do what a long run does: rollouts on a worker with its browser kept open,
updates, published weights, checkpoints in the pixel format, the curve and the ledger.
"""

from __future__ import annotations

import json
import signal
from pathlib import Path

import pytest

from gui_agent.episode.reader import read_episode
from gui_agent.models.pixel.checkpoint import load_checkpoint
from gui_agent.registry import load_policy
from tests.evaluate.eval_helpers import finish, wait_for
from tests.paths import MINIWOB_TASKS
from tests.rl.rl_helpers import blank_kind_checkpoint, jsonl, start_train

pytestmark = pytest.mark.slow

TWO_TASKS = [str(MINIWOB_TASKS / "click-test.yaml"), str(MINIWOB_TASKS / "click-button.yaml")]


def test_a_short_run_writes_policy_checkpoints_curve_and_ledger_and_resumes(private_tmp: str, tmp_path: Path, kill_on_exit) -> None:
    out = tmp_path / "rl"
    common = [*TWO_TASKS, "--group-size", "3", "--groups-per-update", "1", "--checkpoint-every", "2",
              "--keep-frames-every", "2", "--out", str(out), "--quiet"]
    proc = start_train([*common, "--updates", "2"], private_tmp)
    kill_on_exit.append(proc)
    code, text = finish(proc, timeout_s=300)
    assert code == 0, text
    assert "finished: 2 updates" in text
    for name in ("policy.pt", "reference.pt", "checkpoints/update-000002.pt", "curve.png", "per_task.json", "per_task.md",
                 "updates.jsonl", "run.json"):
        assert (out / name).is_file(), name
    # The checkpoint is a pixel policy's, as `--policy pixel:CKPT` loads it.
    policy = load_policy(f"pixel:{out / 'policy.pt'}")
    updates = jsonl(out / "updates.jsonl")
    assert policy.meta["rl"]["update"] == 2 and policy.meta["rl"]["version"] == sum(1 for u in updates if u["decisions"])
    first = jsonl(out / "ledger.jsonl")
    assert len(first) >= 6 and {r["task_id"] for r in first} <= {"miniwob/click-test", "miniwob/click-button"}
    for record in first:  # every rollout is an ordinary, complete episode
        episode = read_episode(out / record["episode"])
        assert episode.meta.status == "complete" and episode.meta.actor.name.startswith("pixel-rl:v")
        assert len(episode.steps) == record["steps"]
        kept = (3 * record["group"] + record["repeat"]) % 2 == 0  # --keep-frames-every 2
        assert all((step.frame_before is not None) == kept for step in episode.steps), record["key"]
    per_task = json.loads((out / "per_task.json").read_text())
    assert per_task["overall"]["rollouts"] == len(first)

    proc = start_train([*common, "--updates", "4", "--resume"], private_tmp)
    kill_on_exit.append(proc)
    code, text = finish(proc, timeout_s=300)
    assert code == 0, text
    updates = jsonl(out / "updates.jsonl")
    assert [u["update"] for u in updates] == [1, 2, 3, 4]
    ledger = jsonl(out / "ledger.jsonl")
    assert len({r["key"] for r in ledger}) == len(ledger) > len(first)  # new groups, new keys: nothing overwritten
    sessions = json.loads((out / "run.json").read_text())["sessions"]
    assert [s["resumed"] for s in sessions] == [False, True] and all(s["env_steps_per_s"] > 0 for s in sessions)
    assert load_checkpoint(out / "policy.pt").meta["rl"]["update"] == 4 and (out / "checkpoints/update-000004.pt").is_file()
    # Resuming with other settings is refused, before anything starts.
    proc = start_train([*TWO_TASKS, "--group-size", "5", "--out", str(out), "--resume", "--quiet"], private_tmp)
    kill_on_exit.append(proc)
    code, text = finish(proc, timeout_s=120)
    assert code == 2 and "other settings" in text and "group_size" in text


def test_success_rises_on_a_taught_task(private_tmp: str, tmp_path: Path, kill_on_exit) -> None:
    """From a policy that clicks the one button only about a third of the time, a few
    updates on evaluator rewards make clicking it the rule."""
    start = blank_kind_checkpoint(tmp_path / "blank.pt")
    out = tmp_path / "rl"
    proc = start_train([str(MINIWOB_TASKS / "click-test.yaml"), "--from", str(start), "--lr", "1e-3", "--group-size", "6",
                        "--groups-per-update", "2", "--updates", "8", "--out", str(out), "--quiet"], private_tmp)
    kill_on_exit.append(proc)
    code, text = finish(proc, timeout_s=400)
    assert code == 0, text
    scored = [r for r in jsonl(out / "ledger.jsonl") if r["success"] is not None]
    first, last = scored[:12], scored[-12:]
    rate = lambda rows: sum(r["success"] for r in rows) / len(rows)  # noqa: E731
    print(f"success: first 12 rollouts {rate(first):.2f}, last 12 {rate(last):.2f}")
    assert rate(first) <= 0.6 and rate(last) >= rate(first) + 0.3, (rate(first), rate(last))
    updates = jsonl(out / "updates.jsonl")
    assert updates[-1]["suite_success"] > updates[0]["suite_success"]
    assert updates[-1]["version"] >= 4 and all(u["lag_mean"] is None or u["lag_mean"] <= 1 for u in updates)


def test_ctrl_c_saves_the_policy_stops_everything_and_resume_continues(private_tmp: str, tmp_path: Path, kill_on_exit) -> None:
    out = tmp_path / "rl"
    args = [str(MINIWOB_TASKS / "click-test.yaml"), "--group-size", "3", "--groups-per-update", "1", "--out", str(out), "--quiet"]
    proc = start_train([*args, "--updates", "1000"], private_tmp)
    kill_on_exit.append(proc)
    wait_for(lambda: len(jsonl(out / "updates.jsonl")) >= 2, what="two updates", proc=proc, timeout_s=180)
    proc.send_signal(signal.SIGINT)
    code, text = finish(proc, timeout_s=120)
    assert code == 130 and "--resume" in text, text
    done = load_checkpoint(out / "policy.pt").meta["rl"]["update"]
    assert done >= 2 and done == len(jsonl(out / "updates.jsonl"))
    proc = start_train([*args, "--updates", str(done + 1), "--resume"], private_tmp)
    kill_on_exit.append(proc)
    code, text = finish(proc, timeout_s=300)
    assert code == 0 and f"finished: {done + 1} updates" in text, text
