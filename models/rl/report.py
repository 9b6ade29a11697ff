"""What an RL run leaves in its folder for people: the learning curve and the success per task.

* ``updates.jsonl`` -- one line per update (written by the loop as it goes);
* ``curve.png`` -- against environment steps: the success over the suite (each task's
  last 20 rollouts, averaged over tasks: the batches themselves lean towards the tasks
  still being learnt), each batch's success and mean reward, and the KL to the starting
  policy and the entropy, which show whether the anchor holds;
* ``per_task.json`` / ``per_task.md`` -- per task: rollouts, success over the whole run, in
  its first and its last quarter, mean reward, environment failures, and, with a learned
  reward, how often it disagreed with the evaluator (called a success the evaluator
  failed: the reward-hacking rate).

Everything is computed from the ledger and the update history, so it can be rewritten
at any time (:func:`write_report`).
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any

from gui_agent.episode.writer import write_json_atomic
from gui_agent.evaluate.ledger import read_ledger

CURVE_FILE = "curve.png"
PER_TASK_JSON = "per_task.json"
PER_TASK_MD = "per_task.md"
UPDATES_FILE = "updates.jsonl"


def per_task(records: list[dict[str, Any]]) -> dict[str, Any]:
    """Per-task and overall figures of the rollout records (in arrival order)."""
    by_task: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for record in records:
        by_task[str(record.get("task_id"))].append(record)
    tasks = {task: _figures(rows) for task, rows in sorted(by_task.items())}
    return {"tasks": tasks, "overall": _figures(records)}


def _rate(rows: list[dict[str, Any]]) -> float | None:
    scored = [r for r in rows if r.get("success") is not None]
    return round(sum(bool(r["success"]) for r in scored) / len(scored), 4) if scored else None


def _figures(rows: list[dict[str, Any]]) -> dict[str, Any]:
    scored = [r for r in rows if r.get("success") is not None]
    quarter = max(1, len(scored) // 4)
    learned = [r for r in scored if r.get("learned") and r.get("evaluator_success") is not None]
    called = [r for r in learned if any(r["learned"].values())]
    hacked = [r for r in called if not r["evaluator_success"]]
    return {
        "rollouts": len(rows),
        "scored": len(scored),
        "success": _rate(scored),
        "success_first_quarter": _rate(scored[:quarter]),
        "success_last_quarter": _rate(scored[-quarter:]),
        "mean_reward": round(sum(float(r.get("reward") or 0) for r in scored) / len(scored), 4) if scored else None,
        "env_failures": sum(len(r.get("env_failures") or []) for r in rows),
        "unscored": len(rows) - len(scored),
        "disagreements": sum(1 for r in learned if r.get("disagreement")),
        "learned_successes": len(called),
        "learned_success_evaluator_failed": len(hacked),
        "hacking_rate": round(len(hacked) / len(called), 4) if called else None,
    }


def read_updates(out: Path) -> list[dict[str, Any]]:
    path = out / UPDATES_FILE
    if not path.exists():
        return []
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError:
            continue  # a line cut short by a kill
    return rows


def write_report(out: Path, *, ledger_file: str = "ledger.jsonl") -> dict[str, Any]:
    """(Re)write ``per_task.json``, ``per_task.md`` and ``curve.png`` from the run's files."""
    records = list(read_ledger(out / ledger_file).values())
    figures = per_task(records)
    write_json_atomic(out / PER_TASK_JSON, figures)
    (out / PER_TASK_MD).write_text(_markdown(figures), encoding="utf-8")
    plot_curve(read_updates(out), out / CURVE_FILE)
    return figures


def _percent(value: float | None) -> str:
    return "—" if value is None else f"{100 * value:.1f} %"


def _markdown(figures: dict[str, Any]) -> str:
    lines = ["| task | rollouts | success | first quarter | last quarter | mean reward | env failures | learned said success, evaluator failed |",
             "|---|---|---|---|---|---|---|---|"]
    for task, row in [*figures["tasks"].items(), ("**all tasks**", figures["overall"])]:
        hacked = f"{row['learned_success_evaluator_failed']} of {row['learned_successes']}" if row["learned_successes"] else "—"
        lines.append(f"| {task} | {row['rollouts']} | {_percent(row['success'])} | {_percent(row['success_first_quarter'])} | "
                     f"{_percent(row['success_last_quarter'])} | {row['mean_reward'] if row['mean_reward'] is not None else '—'} | "
                     f"{row['env_failures']} | {hacked} |")
    return "\n".join(lines) + "\n"


def _smooth(values: list[float], width: int = 5) -> list[float]:
    out = []
    for index in range(len(values)):
        window = values[max(0, index - width + 1) : index + 1]
        out.append(sum(window) / len(window))
    return out


def plot_curve(updates: list[dict[str, Any]], path: Path) -> Path:
    """Draw the learning curve of ``updates`` (rows of ``updates.jsonl``) to ``path``."""
    import matplotlib

    matplotlib.use("Agg")  # files only, never a window
    import matplotlib.pyplot as plt

    rows = [u for u in updates if u.get("success_rate") is not None]
    steps = [u.get("env_steps", i) for i, u in enumerate(rows)]
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    suite = [(s, u["suite_success"]) for s, u in zip(steps, rows) if u.get("suite_success") is not None]
    left.plot([p[0] for p in suite], [p[1] for p in suite], color="tab:green", linewidth=2,
              label="success, mean over tasks of their last 20 rollouts")
    for key, colour, label in (("success_rate", "tab:olive", "success of the update's batch"), ("mean_reward", "tab:blue", "mean reward of the batch")):
        values = [float(u.get(key) or 0.0) for u in rows]
        left.plot(steps, values, color=colour, alpha=0.25, linewidth=1)
        left.plot(steps, _smooth(values), color=colour, alpha=0.8, label=f"{label} (moving mean of 5)")
    left.set_xlabel("environment steps")
    left.set_ylim(-0.05, 1.05)
    left.set_title("learning curve")
    left.grid(alpha=0.3)
    left.legend(loc="lower right", fontsize=8)
    for key, colour in (("kl", "tab:red"), ("entropy", "tab:purple")):
        points = [(u.get("env_steps", i), u[key]) for i, u in enumerate(rows) if u.get(key) is not None]
        if points:
            right.plot([p[0] for p in points], [p[1] for p in points], color=colour, label=key)
    right.set_xlabel("environment steps")
    right.set_title("KL to the starting policy, entropy (per decision)")
    right.grid(alpha=0.3)
    if right.get_legend_handles_labels()[0]:
        right.legend(loc="best", fontsize=8)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path
