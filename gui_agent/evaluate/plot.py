"""The cost-effectiveness plot: success against what it cost, per task and overall (PNG).

Left: each task's pass@1 (with its Wilson 95 % interval) against its mean cost in US
dollars per episode when the policy prices its calls, else its mean tokens per episode
when it reports usage, else its mean steps; the overall point is drawn larger. Right: pass^j for j = 1..k, the reliability curve (flat means reliable).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

PLOT_FILE = "cost_effectiveness.png"


def _cost_axis(overall: dict[str, Any]) -> tuple[str, str]:
    """The results key the x axis shows, and its label: money when priced, else tokens when reported, else steps."""
    if overall.get("cost_per_episode") is not None:
        return "cost_per_episode", "mean cost per episode (US$)"
    if overall.get("tokens_per_episode"):
        return "tokens_per_episode", "mean tokens per episode"
    return "mean_steps", "mean steps per episode"


def plot_cost_effectiveness(results: dict[str, Any], path: Path) -> Path:
    """Draw the plot for ``results`` (see :func:`gui_agent.evaluate.report.summarize`) to ``path``."""
    import matplotlib

    matplotlib.use("Agg")  # files only, never a window
    import matplotlib.pyplot as plt

    tasks = [t for t in results["tasks"] if t["scored"]]
    overall = results["overall"]
    cost_key, cost_label = _cost_axis(overall)
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.5), gridspec_kw={"width_ratios": [3, 2]})
    for entry, style in [*((t, {"color": "tab:blue", "s": 30, "alpha": 0.8}) for t in tasks),
                         (overall, {"color": "tab:red", "s": 120, "marker": "*", "label": "all tasks"})]:
        if entry.get("pass@1") is None or entry.get(cost_key) is None:
            continue
        x, y = entry[cost_key], entry["pass@1"]
        low, high = entry["pass@1_ci95"]
        left.errorbar([x], [y], yerr=[[y - low], [high - y]], fmt="none", ecolor=style["color"], alpha=0.35, capsize=2)
        left.scatter([x], [y], **style)
    for t in tasks:
        if t.get("pass@1") is not None and t.get(cost_key) is not None and t["pass@1"] < 0.999:
            left.annotate(t["task_id"].split("/")[-1], (t[cost_key], t["pass@1"]), fontsize=7, alpha=0.8,
                          xytext=(3, -8), textcoords="offset points")
    left.set_xlabel(cost_label)
    left.set_ylabel("pass@1 (95% Wilson interval)")
    left.set_ylim(-0.05, 1.05)
    left.set_title(f"success vs cost: {results['run'].get('policy', '')}")
    left.grid(alpha=0.3)
    left.legend(loc="best", fontsize=8)
    curve = {int(j): v for j, v in overall["pass^j"].items() if v is not None}
    right.plot(list(curve), list(curve.values()), marker="o", color="tab:red")
    right.set_xlabel("j tries")
    right.set_ylabel("pass^j (all j succeed)")
    right.set_ylim(-0.05, 1.05)
    right.set_xticks(list(curve) or [1])
    right.set_title("reliability")
    right.grid(alpha=0.3)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
