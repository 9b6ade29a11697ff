"""``--policy openai:...`` against a real ``transformers serve`` on loopback, on real Chromium.

A tiny Idefics3 model (:mod:`gui_agent.models.vlm.tiny`) is taught one demonstration (click-button,
seed 0) and served by ``transformers serve``, the OpenAI-compatible server of the
``transformers[serving]`` extra. Served, it must act exactly as the demonstration did and
solve the page, with the server's own token counts in the step record: the guarantee the
``hf:`` tests give in-process. Idefics3 because its processor needs no torchvision (which
is not installed here); transformers' Qwen video processors require torchvision to serve.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from gui_agent.episode import read_episode
from gui_agent.registry import load_policy
from gui_agent.runner import run_episode
from gui_agent.task import load_task
from tests.models.vlm.vlm_support import run_oracle
from tests.paths import MINIWOB_TASKS, REPO

pytestmark = pytest.mark.slow


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict]:
    from gui_agent.models.vlm.sft_train import TrainConfig, train_vlm

    root = tmp_path_factory.mktemp("served")
    demo = run_oracle(root / "demo", [("click-button", 0)])[0]
    model = root / "model"
    train_vlm(TrainConfig(inputs=(str(demo),), out=str(model), model="tiny:idefics3", epochs=60, lr=5e-3))
    port = _free_port()
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "OMP_NUM_THREADS": "1"}
    log = open(root / "serve.log", "wb")  # noqa: SIM115 - closed below
    server = subprocess.Popen([str(Path(sys.executable).with_name("transformers")), "serve", str(model), "--host", "127.0.0.1",
                               "--port", str(port), "--device", "cpu"], stdout=log, stderr=log, env=env, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            assert server.poll() is None, (root / "serve.log").read_text()[-2000:]
            try:
                with urllib.request.urlopen(f"{url}/v1/models", timeout=2) as answer:
                    if str(model) in answer.read().decode():
                        break
            except OSError:
                pass
            assert time.monotonic() < deadline, "transformers serve did not come up"
            time.sleep(0.25)
        yield {"url": url, "model": model, "demo": demo, "root": root}
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(15)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait(5)
        log.close()


def test_the_served_model_acts_as_taught_and_solves_the_page(served: dict, tmp_path: Path) -> None:
    spec = f"openai:{served['model']}?base_url={served['url']}/v1&format=pyautogui&max_tokens=48"
    out = tmp_path / "runs"
    run = subprocess.run([sys.executable, "-m", "gui_agent", "run", str(MINIWOB_TASKS / "click-button.yaml"), "--policy", spec,
                          "--out", str(out), "--quiet"], capture_output=True, text=True, timeout=180, cwd=REPO)
    assert run.returncode == 0, run.stdout + run.stderr
    episode = read_episode(next(out.iterdir()))
    demo = read_episode(served["demo"])
    assert [s.action for s in episode.steps] == [s.action for s in demo.steps]
    assert episode.meta.outcome.success is True and episode.meta.actor.name == f"openai:{served['model']}"
    step = episode.steps[0]
    assert step.thought == demo.steps[0].thought
    assert step.usage.images == 1 and step.usage.retries == 0 and step.usage.cost_usd is None  # self-hosted: no price
    # The server's token counts are the in-process model's: the same prompt reached the same model.
    local = run_episode(load_task(MINIWOB_TASKS / "click-button.yaml"), load_policy(f"hf:{served['model']}?max_new_tokens=48"),
                        out_dir=tmp_path / "local", seed=0)
    local_step = read_episode(local.episode_path).steps[0]
    assert (step.usage.input_tokens, step.usage.output_tokens) == (local_step.usage.input_tokens, local_step.usage.output_tokens)
    assert step.usage.input_tokens > 50


def test_eval_with_two_workers_against_one_server(served: dict, tmp_path: Path) -> None:
    spec = f"openai:{served['model']}?base_url={served['url']}/v1&format=pyautogui&max_tokens=48&max_concurrent=1"
    out = tmp_path / "eval"
    run = subprocess.run([sys.executable, "-m", "gui_agent", "eval", str(MINIWOB_TASKS / "click-button.yaml"), "--policy", spec,
                          "--repeats", "4", "--same-seed", "--workers", "2", "--out", str(out), "--quiet"],
                         capture_output=True, text=True, timeout=300, cwd=REPO)
    assert run.returncode == 0, run.stdout + run.stderr
    results = json.loads((out / "results.json").read_text())["overall"]
    assert (results["scored"], results["successes"], results["service_failures"]) == (4, 4, 0)
    assert results["usage"]["input_tokens"] > 4 * 50


def test_ray_actors_against_one_server(served: dict, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import logging

    import ray

    private = Path(tempfile.mkdtemp(prefix="gah-", dir="/tmp"))  # short: Ray's socket paths must fit 107 bytes
    monkeypatch.setenv("TMPDIR", str(private))
    ray.init(num_cpus=2, include_dashboard=False, logging_level=logging.WARNING, log_to_driver=False)
    try:
        address = ray.get_runtime_context().gcs_address
        spec = f"openai:{served['model']}?base_url={served['url']}/v1&format=pyautogui&max_tokens=48&max_concurrent=1"
        out = tmp_path / "ray"
        run = subprocess.run([sys.executable, "-m", "gui_agent", "eval", str(MINIWOB_TASKS / "click-button.yaml"), "--policy", spec,
                              "--repeats", "3", "--same-seed", "--workers", "2", "--ray", address, "--out", str(out), "--quiet"],
                             capture_output=True, text=True, timeout=300, cwd=REPO, env={**os.environ, "TMPDIR": str(private)})
    finally:
        ray.shutdown()
        shutil.rmtree(private, ignore_errors=True)
    assert run.returncode == 0, run.stdout + run.stderr
    results = json.loads((out / "results.json").read_text())
    assert results["run"]["backend"] == "ray"
    assert (results["overall"]["scored"], results["overall"]["successes"]) == (3, 3)
