"""The Ray path on a real local Ray head started here: same results as local workers,
a killed actor replaced, and ``--resume`` (run by ``gui-agent eval --ray ADDRESS``)."""

from __future__ import annotations

import logging
import os
import signal
from collections import Counter
from pathlib import Path

import pytest
import ray

from tests.evaluate.eval_helpers import finish, ledger_lines, start_eval, wait_for
from tests.evaluate.eval_procs import alive
from tests.paths import MINIWOB_TASKS as MINIWOB
from tests.paths import REPO

TASKS = [str(MINIWOB / f"{name}.yaml") for name in ("click-test", "click-button", "focus-text")]
SLOW = "py:tests.evaluate.slow_policies:SlowOracle"


@pytest.mark.slow
def test_ray_actors_give_the_same_results_replace_a_dead_actor_and_resume(
    private_tmp: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kill_on_exit
) -> None:
    # The head's processes (and the actors' browsers) inherit these: TMPDIR puts Ray's
    # session and the browsers' temp dirs where the leak check looks; PYTHONPATH lets
    # actors import the test policy.
    monkeypatch.setenv("TMPDIR", private_tmp)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep))
    ray.init(num_cpus=2, include_dashboard=False, logging_level=logging.WARNING, log_to_driver=False)
    try:
        address = ray.get_runtime_context().gcs_address
        out = tmp_path / "ray"
        args = [*TASKS, "--repeats", "3", "--workers", "2", "--policy", SLOW, "--quiet"]
        proc = start_eval([*args, "--ray", address, "--out", str(out)], private_tmp)
        kill_on_exit.append(proc)
        wait_for(lambda: len(ledger_lines(out)) >= 1, timeout_s=180, what="a first episode on Ray", proc=proc)
        victim = int(ledger_lines(out)[0]["worker"].rsplit(":", 1)[1])
        assert alive(victim)
        os.kill(victim, signal.SIGKILL)  # the actor's process, mid-run
        code, text = finish(proc)
        assert code == 0, text
        assert f"pid {victim}" in text and "died" in text and "replacing it" in text
        ray_lines = ledger_lines(out)
        assert Counter(r["key"] for r in ray_lines) == Counter({f"miniwob/{t}#{r}": 1 for t in ("click-test", "click-button", "focus-text") for r in range(3)})
        assert all(r["success"] is True for r in ray_lines)
        assert len({r["worker"] for r in ray_lines}) >= 2 and not alive(victim)

        # The same work on local workers gives the same results, episode by episode.
        local = tmp_path / "local"
        code, text = finish(start_eval([*args, "--out", str(local)], private_tmp))
        assert code == 0, text
        facts = lambda lines: {r["key"]: (r["seed"], r["success"], r["reward"], r["steps"]) for r in lines}
        assert facts(ray_lines) == facts(ledger_lines(local))

        # Resume on Ray with one more try per task: only the three new episodes run.
        code, text = finish(start_eval([*TASKS, "--repeats", "4", "--workers", "2", "--policy", SLOW, "--quiet",
                                        "--ray", address, "--out", str(out), "--resume"], private_tmp))
        assert code == 0, text
        assert "resuming: 9 of 12 episodes already in the ledger, 3 to run" in text
        lines = ledger_lines(out)
        assert len(lines) == 12 and lines[:9] == ray_lines
        assert sorted(r["repeat"] for r in lines[9:]) == [3, 3, 3]
    finally:
        ray.shutdown()


@pytest.mark.slow
def test_without_an_address_the_pool_starts_a_local_ray_and_shuts_it_down(
    private_tmp: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from gui_agent.evaluate.run import EvalOptions, evaluate_suite

    monkeypatch.setenv("TMPDIR", private_tmp)  # Ray's session dir and the browsers' temp dirs
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    assert not ray.is_initialized()
    notes: list[str] = []
    results = evaluate_suite(EvalOptions(suite=[TASKS[0]], policy="oracle", repeats=3, out_dir=tmp_path / "run",
                                         workers=2, ray=True), on_note=notes.append)
    assert not ray.is_initialized()  # started by the pool, and shut down by it
    assert results["overall"]["scored"] == 3 and results["overall"]["pass^k"] == 1.0
    assert results["run"]["backend"] == "ray" and not notes
