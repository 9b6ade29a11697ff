"""``gui-agent train rl --ray ADDRESS`` on a real local Ray head started here: rollouts on
actors, a killed actor replaced, the run to its last update."""

from __future__ import annotations

import json
import logging
import os
import signal
from pathlib import Path

import pytest
import ray

from tests.evaluate.eval_helpers import finish, wait_for
from tests.evaluate.eval_procs import alive
from tests.paths import MINIWOB_TASKS
from tests.rl.rl_helpers import jsonl, start_train


@pytest.mark.slow
def test_rollouts_on_ray_actors_and_a_killed_actor_replaced(private_tmp: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                             kill_on_exit) -> None:
    monkeypatch.setenv("TMPDIR", private_tmp)  # Ray's session and the actors' browsers: where the leak check looks
    ray.init(num_cpus=2, include_dashboard=False, logging_level=logging.WARNING, log_to_driver=False)
    try:
        address = ray.get_runtime_context().gcs_address
        out = tmp_path / "rl"
        proc = start_train([str(MINIWOB_TASKS / "login-user.yaml"), "--ray", address, "--workers", "1", "--group-size", "3",
                            "--groups-per-update", "1", "--updates", "5", "--out", str(out), "--quiet"], private_tmp)
        kill_on_exit.append(proc)
        wait_for(lambda: len(jsonl(out / "ledger.jsonl")) >= 1, timeout_s=180, what="a first rollout on Ray", proc=proc)
        victim = int(jsonl(out / "ledger.jsonl")[0]["worker"].rsplit(":", 1)[1])
        os.kill(victim, signal.SIGKILL)
        code, text = finish(proc, timeout_s=300)
        assert code == 0, text
        assert f"pid {victim}" in text and "replacing it" in text and "finished: 5 updates" in text, text
        session = json.loads((out / "run.json").read_text())["sessions"][-1]
        assert session["backend"] == "ray" and session["workers_replaced"] >= 1
        assert len({r["worker"] for r in jsonl(out / "ledger.jsonl")}) >= 2 and not alive(victim)
    finally:
        ray.shutdown()
