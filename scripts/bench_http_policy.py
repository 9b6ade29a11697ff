#!/usr/bin/env python
"""Benchmark ``--policy openai:MODEL`` against one real ``transformers serve`` on loopback, in one run.

A tiny Idefics3 model (``models/vlm/tiny.py``) is taught one oracle demonstration
(MiniWoB++ click-button, seed 0, real Chromium) with ``train_vlm`` and served by
``transformers serve`` (the OpenAI-compatible server of ``transformers[serving]``) on
127.0.0.1, on the CPU, as ``tests/models/http/test_served_model.py`` does. Then:

* **policy overhead per step**: ``OpenAIChatPolicy.act`` on the demonstration's screenshot
  (SFT prompt built, screenshot PNG-encoded as base64, the openai SDK's request, the
  server's generation, the reply parsed into canonical actions), against two baselines of
  the *same request body* (captured once from the policy, then resent): a bare HTTP round
  trip with the standard library's ``http.client`` on a kept-alive connection
  (``json.dumps`` done once, ``json.loads`` of the answer), and the openai SDK's
  ``chat.completions.create(**body)``. Calls alternate, so load falls on all alike; the
  replies must be the same text. The ratio policy / bare is the policy's overhead. Also
  the server alone: requests per second to 1 and 2 bare clients sending at once;
* **episodes per second** of ``gui-agent eval`` (the CLI, as a user runs it) with 1 and 2
  workers against the one server, on click-button seed 0 repeated (the instance the model
  was taught, so every episode is the same work: one model call, one click); the rate
  over the run's own wall time (worker start-up included) and once the workers are up
  (first result to last), and the scaling from 1 to 2 workers. Two workers run both
  pinned to a CPU each (the default) and floating (``--no-pin-cpus``): here the server
  shares the two CPUs with the workers and their browsers, which a server on a GPU box
  does not;
* **cost figures of a run**: ``gui-agent eval`` of ``openai:gpt-4o`` pointed at the loopback
  stand-in of ``tests/models/http/standin.py``, which answers every request with the same
  documented chat-completion example (a ``click`` tool call, 1,200 prompt and 30 completion
  tokens); the cost per episode, per success and pass^k per dollar from ``results.json``.
  These are the price table (``models/http/pricing.py``) applied to the stand-in's token
  counts: no money was spent and no real model was asked.

The server is an ``OwnedProcess`` (its own session), stopped by PID when the run ends.

Usage:
    python scripts/bench_http_policy.py [--steps 30] [--episodes 30] [--rounds 2] [--json out.json]   # ~2 min
"""

from __future__ import annotations

import argparse
import datetime as dt
import http.client
import json
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from types import SimpleNamespace
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

TASKS = ROOT / "datasets" / "tasks" / "miniwob"
#: The stand-in's one answer: a click where click-button seed 0's button is (it misses on click-test seed 0).
STANDIN_CLICK = {"x": 25, "y": 73}
STANDIN_TOKENS = (1200, 30)
#: The eval configurations: name, workers, pinned to CPUs (the default; ``--no-pin-cpus`` floats them).
CONFIGS = [("x1", 1, True), ("x2", 2, True), ("x2 floating", 2, False)]


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _ms(values: list[float]) -> dict[str, float]:
    return {"median_ms": statistics.median(values) * 1000, "p95_ms": _pct(values, 0.95) * 1000, "n": len(values)}


def _env() -> dict[str, str]:
    return {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}


# --------------------------------------------------------------------------- the served model
def teach(root: Path) -> tuple[Path, Path, float]:
    """The click-button demonstration and a tiny Idefics3 model taught it; returns (demo, model, training s)."""
    from gui_agent.registry import load_policy
    from gui_agent.runner import run_episode
    from gui_agent.task import load_task
    from gui_agent.models.vlm.sft_train import TrainConfig, train_vlm

    demo = run_episode(load_task(TASKS / "click-button.yaml"), load_policy("oracle"), out_dir=root / "demo", seed=0)
    started = time.monotonic()
    train_vlm(TrainConfig(inputs=(str(demo.episode_path),), out=str(root / "model"), model="tiny:idefics3", epochs=60, lr=5e-3))
    return demo.episode_path, root / "model", time.monotonic() - started


def serve(model: Path, root: Path, threads: int) -> tuple[Any, str, float]:
    """``transformers serve MODEL`` on a free loopback port, up and listing the model; (process, URL, start-up s)."""
    import socket

    from gui_agent.envs.owned_process import OwnedProcess

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    server = OwnedProcess([str(Path(sys.executable).with_name("transformers")), "serve", str(model), "--host", "127.0.0.1",
                           "--port", str(port), "--device", "cpu"], name="transformers serve",
                          env={**_env(), "OMP_NUM_THREADS": str(threads)}, log_path=root / "serve.log")
    started = time.monotonic()
    server.start()
    url = f"http://127.0.0.1:{port}"
    deadline = started + 180
    while True:
        if not server.is_alive():
            raise RuntimeError(f"transformers serve exited: {server.log_tail()}")
        try:
            with urllib.request.urlopen(f"{url}/v1/models", timeout=2) as answer:
                if str(model) in answer.read().decode():
                    return server, url, time.monotonic() - started
        except OSError:
            pass
        if time.monotonic() > deadline:
            server.stop()
            raise RuntimeError(f"transformers serve did not come up in 180 s: {server.log_tail()}")
        time.sleep(0.25)


# --------------------------------------------------------------------------- 1. overhead per step
class _Recording:
    """An openai client that keeps the keyword arguments of its one ``chat.completions.create``."""

    def __init__(self, client: Any) -> None:
        self.base_url = client.base_url
        self.body: dict[str, Any] = {}
        self.chat = SimpleNamespace(completions=SimpleNamespace(create=self._create))
        self._client = client

    def _create(self, **body: Any) -> Any:
        self.body = json.loads(json.dumps(body))
        return self._client.chat.completions.create(**body)


def bench_overhead(url: str, model: Path, demo: Path, steps: int) -> dict[str, Any]:
    import numpy as np
    import openai
    from PIL import Image

    from gui_agent.actions import action_to_dict
    from gui_agent.envs.base import Observation
    from gui_agent.episode import read_episode
    from gui_agent.policy import TaskContext
    from gui_agent.registry import load_policy
    from gui_agent.models.http.openai_chat import OpenAIChatPolicy

    episode = read_episode(demo)
    frame = np.asarray(Image.open(demo / episode.steps[0].frame_before).convert("RGB"))
    observation = Observation(screenshot=frame)
    task = TaskContext(task_id=episode.meta.task.id, instruction=episode.meta.task.instruction, seed=0)
    spec = f"openai:{model}?base_url={url}/v1&format=pyautogui&max_tokens=48"
    policy = load_policy(spec)
    sdk = openai.OpenAI(base_url=f"{url}/v1", api_key="not-needed", timeout=120, max_retries=0)

    # The exact body the policy sends, captured once from the policy's own code.
    recording = _Recording(sdk)
    capture = OpenAIChatPolicy(str(model), endpoint=policy.endpoint, action_format="pyautogui", max_tokens=48, client=recording)
    capture.reset(task)
    capture.act(observation)
    body = recording.body
    payload = json.dumps(body).encode()
    connection = http.client.HTTPConnection("127.0.0.1", int(url.rsplit(":", 1)[1]), timeout=120)
    headers = {"content-type": "application/json", "authorization": "Bearer not-needed"}

    def bare() -> str:
        connection.request("POST", "/v1/chat/completions", body=payload, headers=headers)
        answer = connection.getresponse()
        data = answer.read()
        if answer.status != 200:
            raise RuntimeError(f"HTTP {answer.status}: {data[:300]!r}")
        return json.loads(data)["choices"][0]["message"]["content"]

    def sdk_call() -> str:
        return sdk.chat.completions.create(**body).choices[0].message.content

    def policy_call() -> Any:
        policy.reset(task)
        started = time.perf_counter()
        output = policy.act(observation)
        return time.perf_counter() - started, output

    for _ in range(3):  # warm up: the server's first calls, the SDK's and the connection's set-up
        policy_call(), sdk_call(), bare()
    policy_s, sdk_s, bare_s, replies = [], [], [], set()
    output = None
    for _ in range(steps):
        seconds, output = policy_call()
        policy_s.append(seconds)
        replies.add(output.raw)
        started = time.perf_counter()
        replies.add(sdk_call())
        sdk_s.append(time.perf_counter() - started)
        started = time.perf_counter()
        replies.add(bare())
        bare_s.append(time.perf_counter() - started)
    connection.close()
    concurrency = {n: _server_rate(url, payload, headers, clients=n, requests=steps) for n in (1, 2)}
    if len(replies) != 1:
        raise RuntimeError(f"the three ways got different replies: {sorted(replies)}")
    taught = [step.action for step in episode.steps]
    acted = [action_to_dict(action) for action in output.actions]
    return {
        "policy": _ms(policy_s), "sdk": _ms(sdk_s), "bare": _ms(bare_s),
        "ratio": statistics.median(policy_s) / statistics.median(bare_s),
        "sdk_ratio": statistics.median(sdk_s) / statistics.median(bare_s),
        "input_tokens": output.usage.input_tokens, "output_tokens": output.usage.output_tokens,
        "server_requests_per_s": concurrency, "server_scaling": concurrency[2] / concurrency[1],
        "body_kb": len(payload) / 1024, "screen": f"{frame.shape[1]}x{frame.shape[0]}", "acts_as_taught": acted == taught,
    }


def _server_rate(url: str, payload: bytes, headers: dict[str, str], *, clients: int, requests: int) -> float:
    """Requests per second the server answers to ``clients`` bare clients sending at once, ``requests`` each."""
    import threading

    port = int(url.rsplit(":", 1)[1])
    errors: list[str] = []

    def client() -> None:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        try:
            for _ in range(requests):
                connection.request("POST", "/v1/chat/completions", body=payload, headers=headers)
                answer = connection.getresponse()
                answer.read()
                if answer.status != 200:
                    errors.append(f"HTTP {answer.status}")
        finally:
            connection.close()

    threads = [threading.Thread(target=client) for _ in range(clients)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise RuntimeError(f"the server failed {len(errors)} requests: {errors[0]}")
    return clients * requests / (time.perf_counter() - started)


# --------------------------------------------------------------------------- 2. episodes per second
def _eval(args: list[str], out: Path, env: dict[str, str] | None = None, timeout: float = 300) -> tuple[dict[str, Any], float]:
    started = time.monotonic()
    run = subprocess.run([sys.executable, "-m", "gui_agent", "eval", *args, "--out", str(out), "--quiet"], cwd=ROOT,
                         capture_output=True, text=True, timeout=timeout, env=env or _env())
    wall = time.monotonic() - started
    if run.returncode != 0 or not (out / "results.json").exists():
        raise RuntimeError(f"gui-agent eval exited {run.returncode}:\n{run.stdout[-2000:]}\n{run.stderr[-2000:]}")
    return json.loads((out / "results.json").read_text()), wall


def bench_eval(url: str, model: Path, workers: int, episodes: int, out: Path, *, pin_cpus: bool = True) -> dict[str, Any]:
    from gui_agent.evaluate.ledger import read_manifest, read_records

    spec = f"openai:{model}?base_url={url}/v1&format=pyautogui&max_tokens=48"
    results, process_wall = _eval([str(TASKS / "click-button.yaml"), "--policy", spec, "--seeds", ",".join(["0"] * episodes),
                                   "--workers", str(workers), *([] if pin_cpus else ["--no-pin-cpus"])], out)
    session = read_manifest(out)["sessions"][-1]
    records = list(read_records(out / "ledger.jsonl").values())
    finished = sorted(dt.datetime.fromisoformat(r.finished_at).timestamp() for r in records if r.finished_at)
    steady = (len(finished) - 1) / (finished[-1] - finished[0]) if len(finished) > 1 and finished[-1] > finished[0] else float("nan")
    overall = results["overall"]
    return {
        "episodes": session["episodes"], "wall_s": session["wall_s"], "process_wall_s": process_wall,
        "episodes_per_s": session["episodes"] / session["wall_s"], "steady_episodes_per_s": steady,
        "successes": overall["successes"], "service_failures": overall["service_failures"],
        "steps": sum(r.steps for r in records),
    }


# --------------------------------------------------------------------------- 3. cost of a run
def bench_cost(root: Path, seeds: int) -> dict[str, Any]:
    from gui_agent.models.http.pricing import PRICES, price_of
    from tests.models.http.standin import Reply, StandIn, chat_completion

    answer = chat_completion("I click the button.", tool_calls=[{"name": "click", "arguments": STANDIN_CLICK}],
                             prompt_tokens=STANDIN_TOKENS[0], completion_tokens=STANDIN_TOKENS[1])
    with StandIn([Reply(body=answer)]) as server:
        spec = f"openai:gpt-4o?base_url={server.url}/v1&format=json&retries=1&backoff=0.01"
        results, _ = _eval([str(TASKS / "click-button.yaml"), str(TASKS / "click-test.yaml"), "--policy", spec,
                            "--seeds", ",".join(["0"] * seeds)], root / "cost",
                           env={**_env(), "OPENAI_API_KEY": "sk-bench-not-a-real-key-0000"})
        requests = len(server.requests)
    price = price_of("gpt-4o")
    assert price == PRICES["gpt-4o"]
    overall = results["overall"]
    tasks = {t["task_id"].split("/")[-1]: {key: t[key] for key in ("successes", "scored", "mean_steps", "cost_per_episode", "pass^k")}
             for t in results["tasks"]}
    return {
        "k": results["k"], "requests": requests, "steps": sum(round(t["mean_steps"] * t["scored"]) for t in results["tasks"]),
        "call_usd": price.cost(input_tokens=STANDIN_TOKENS[0], output_tokens=STANDIN_TOKENS[1]),
        "price": {"input": price.input, "output": price.output},
        **{key: overall[key] for key in ("episodes", "scored", "successes", "pass@1", "pass^k", "cost_usd", "cost_per_episode",
                                         "cost_per_success", "pass^k_per_usd", "service_failures")},
        "tasks": tasks,
    }


# --------------------------------------------------------------------------- report
def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=30, help="timed calls of each kind for the overhead (default: 30)")
    parser.add_argument("--episodes", type=int, default=30, help="episodes per gui-agent eval run (default: 30)")
    parser.add_argument("--rounds", type=int, default=2, help="eval runs of each configuration, in a rotated order; medians (default: 2)")
    parser.add_argument("--cost-seeds", type=int, default=3, help="tries per task of the stand-in cost run, the k (default: 3)")
    parser.add_argument("--server-threads", type=int, default=1, help="torch threads of transformers serve (default: 1)")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()

    report: dict[str, Any] = {"command": shlex.join(["python", *sys.argv]), "cpus": os.cpu_count(), "load_before": os.getloadavg()}
    with tempfile.TemporaryDirectory(prefix="bench-http-") as tmp:
        root = Path(tmp)
        print("teaching a tiny Idefics3 model the click-button demonstration ...", flush=True)
        demo, model, report["train_s"] = teach(root)
        server, url, report["server_start_s"] = serve(model, root, args.server_threads)
        try:
            print(f"transformers serve up at {url} (PID {server.pid}) in {report['server_start_s']:.1f} s; "
                  f"policy overhead, {args.steps} steps ...", flush=True)
            report["overhead"] = bench_overhead(url, model, demo, args.steps)
            runs: dict[str, list[dict[str, Any]]] = {name: [] for name, _, _ in CONFIGS}
            for round_index in range(args.rounds):
                # Every round runs every configuration, in a rotated order, so other load falls on all alike.
                shift = round_index % len(CONFIGS)
                for name, workers, pinned in CONFIGS[shift:] + CONFIGS[:shift]:
                    print(f"round {round_index + 1}/{args.rounds}: gui-agent eval, {name}, {args.episodes} episodes ...", flush=True)
                    runs[name].append(bench_eval(url, model, workers, args.episodes, root / f"eval-{name.replace(' ', '-')}-{round_index}",
                                                 pin_cpus=pinned))
        finally:
            server.stop(grace_s=10)
        print(f"cost: gui-agent eval against the stand-in, 2 tasks x {args.cost_seeds} ...", flush=True)
        report["cost"] = bench_cost(root, args.cost_seeds)
    for name, figures in runs.items():
        report[f"eval {name}"] = {
            "episodes_per_s": statistics.median(f["episodes_per_s"] for f in figures),
            "steady_episodes_per_s": statistics.median(f["steady_episodes_per_s"] for f in figures),
            "episodes_per_s_each_round": [round(f["episodes_per_s"], 3) for f in figures],
            "successes": sum(f["successes"] for f in figures), "episodes": sum(f["episodes"] for f in figures),
            "service_failures": sum(f["service_failures"] for f in figures), "runs": figures,
        }
    one = report["eval x1"]
    for name, _, _ in CONFIGS[1:]:
        two = report[f"eval {name}"]
        report[f"scaling {name}"] = two["episodes_per_s"] / one["episodes_per_s"]
        report[f"steady scaling {name}"] = two["steady_episodes_per_s"] / one["steady_episodes_per_s"]
    report["load_after"] = os.getloadavg()

    o, c = report["overhead"], report["cost"]
    print(f"\n{os.cpu_count()} CPUs, load average {report['load_before'][0]:.1f} before, {report['load_after'][0]:.1f} after; "
          f"tiny Idefics3 taught in {report['train_s']:.1f} s, served by transformers serve on the CPU "
          f"({args.server_threads} torch thread(s)), up in {report['server_start_s']:.1f} s")
    print(f"policy step ({o['screen']} screenshot, {o['input_tokens']} tokens in / {o['output_tokens']} out, "
          f"request body {o['body_kb']:.1f} KB; acts as taught: {o['acts_as_taught']}), {o['policy']['n']} steps:")
    print(f"  OpenAIChatPolicy.act      median {o['policy']['median_ms']:7.1f} ms  p95 {o['policy']['p95_ms']:7.1f} ms")
    print(f"  openai SDK, same body     median {o['sdk']['median_ms']:7.1f} ms  p95 {o['sdk']['p95_ms']:7.1f} ms  "
          f"({o['sdk_ratio']:.2f}x bare)")
    print(f"  bare http.client, same body median {o['bare']['median_ms']:5.1f} ms  p95 {o['bare']['p95_ms']:7.1f} ms")
    print(f"  policy overhead: {o['ratio']:.2f}x the bare round trip "
          f"(+{o['policy']['median_ms'] - o['bare']['median_ms']:.1f} ms median)")
    rate = o["server_requests_per_s"]
    print(f"  the server alone, bare clients sending at once: {rate[1]:.1f} requests/s with 1, {rate[2]:.1f} with 2 "
          f"({o['server_scaling']:.2f}x; transformers serve generates on one thread, one reply at a time)")
    print(f"gui-agent eval, click-button seed 0 x {args.episodes}, median of {args.rounds} round(s):")
    for name, _, _ in CONFIGS:
        e = report[f"eval {name}"]
        print(f"  {name:12s} {e['episodes_per_s']:.2f} episodes/s (each round: {e['episodes_per_s_each_round']}), "
              f"{e['steady_episodes_per_s']:.2f} once up; {e['successes']}/{e['episodes']} succeeded, "
              f"{e['service_failures']} service failures")
    for name, _, _ in CONFIGS[1:]:
        print(f"  scaling x1 -> {name}: {report[f'scaling {name}']:.2f}x whole runs, {report[f'steady scaling {name}']:.2f}x once up")
    print(f"cost of a run (NOT money spent: the price table's gpt-4o price, ${c['price']['input']:g} / ${c['price']['output']:g} "
          f"per million tokens in / out, applied to the stand-in's {STANDIN_TOKENS[0]} / {STANDIN_TOKENS[1]} tokens a call, "
          f"${c['call_usd']:.5f} a call):")
    print(f"  {c['episodes']} episodes (click-button + click-test, seed 0 x {c['k']}), {c['requests']} requests, "
          f"{c['successes']} successes, pass@1 {c['pass@1']}, pass^{c['k']} {c['pass^k']}")
    per_success = "-" if c["cost_per_success"] is None else f"${c['cost_per_success']:.5f}"
    print(f"  ${c['cost_usd']:.5f} in all; ${c['cost_per_episode']:.5f} per episode, {per_success} per success; "
          f"pass^{c['k']} per dollar an episode costs: {c['pass^k_per_usd']}")
    for name, t in c["tasks"].items():
        print(f"    {name}: {t['successes']}/{t['scored']} succeeded, {t['mean_steps']} steps, ${t['cost_per_episode']:.5f} per episode, "
              f"pass^{c['k']} {t['pass^k']}")
    print(f"command: {report['command']}")
    if args.json:
        args.json.write_text(json.dumps(report, indent=2, default=str) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
