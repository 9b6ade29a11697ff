"""From ledger records to results: per task and overall, as JSON, Markdown and a console table.

Only scored episodes (``success`` true or false) enter the success metrics; an episode
whose environment failed on every attempt (``success`` None) is counted apart, with its
fault, and so is one whose policy's model service stayed down (``service_failures``).
Faults that were retried away are counted too (``env_faults``): an environment that needs
three tries per episode is worth knowing about even when every score is in.

Cost: when the policy prices its calls (``usage.cost_usd``), each group has the money
spent (every episode that called the model, unscored ones too), the mean cost of a scored
episode, the money spent per success, and ``pass^k_per_usd`` (pass^k divided by the cost
of one episode: reliability bought per dollar an attempt costs).
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from gui_agent.episode.writer import write_json_atomic
from gui_agent.evaluate.ledger import LedgerRecord
from gui_agent.evaluate.metrics import mean, pass_at_k, pass_hat_k, wilson_interval

RESULTS_JSON = "results.json"
RESULTS_MD = "results.md"
_USAGE_KEYS = ("input_tokens", "output_tokens", "images", "cached_tokens", "retries")


def _round(value: float | None, digits: int = 4) -> float | None:
    return None if value is None else round(value, digits)


def _ratio(value: float | None, count: int) -> float | None:
    """``value / count``; None when there is no value or nothing to divide by."""
    return value / count if value is not None and count else None


def _cost(records: list[LedgerRecord]) -> float | None:
    """US dollars the priced records cost together; None when none of them is priced."""
    priced = [r.usage.cost_usd for r in records if r.usage.cost_usd is not None]
    return sum(priced) if priced else None


def _counts(names: Iterable[str]) -> dict[str, int]:
    return dict(sorted(Counter(names).items()))


def _env_faults(records: list[LedgerRecord]) -> dict[str, int]:
    """Every environment fault: each failed attempt's, and one for each item given up without
    per-attempt records (a lost worker); a service's outage is not one."""
    faults = [f.fault or "error" for r in records for f in r.env_failures]
    faults += [r.fault or "error" for r in records if r.given_up]
    return _counts(faults)


def _usage(records: list[LedgerRecord]) -> dict[str, int]:
    return {key: sum(getattr(r.usage, key) for r in records) for key in _USAGE_KEYS}


def _means(scored: list[LedgerRecord]) -> dict[str, float | None]:
    """Reward, steps and wall time of the mean scored episode."""
    return {
        "mean_reward": _round(mean([r.reward for r in scored])),
        "mean_steps": _round(mean([float(r.steps) for r in scored]), 2),
        "mean_wall_s": _round(mean([r.duration_s for r in scored]), 3),
    }


def _guard_events(records: list[LedgerRecord]) -> dict[str, int]:
    return _counts(f"{e.guard}:{e.kind}" for r in records for e in r.guard_events)


def _group(records: list[LedgerRecord], k: int) -> dict[str, Any]:
    """Metrics of a group of records (one task's, or all of them pooled)."""
    scored = [r for r in records if r.scored]
    n, c = len(scored), sum(1 for r in scored if r.success)
    usage = _usage(scored)
    # Money spent counts every episode that called the model, scored or not (a service that
    # failed midway was still paid for); the cost of an episode is the scored ones' mean.
    cost = _cost(records)
    service = sum(1 for r in records if r.service_failed)
    ci = wilson_interval(c, n)
    return {
        "episodes": len(records),
        "scored": n,
        "successes": c,
        "pass@1": _round(_ratio(c, n)),
        "pass@1_ci95": [round(ci[0], 4), round(ci[1], 4)] if ci else None,
        **_means(scored),
        "usage": usage,
        "tokens_per_episode": _round(_ratio(usage["input_tokens"] + usage["output_tokens"], n), 1),
        "cost_usd": _round(cost, 6),
        "cost_per_episode": _round(_ratio(_cost(scored), n), 6),
        "cost_per_success": _round(_ratio(cost, c), 6),
        "env_failures": len(records) - n - service,
        "service_failures": service,
        "env_faults": _env_faults(records),
        "retried_episodes": sum(1 for r in scored if r.env_failures),
        "terminations": _counts(r.termination or "?" for r in records),
        "guard_events": _guard_events(records),
    }


def _per_usd(value: float | None, cost_per_episode: float | None) -> float | None:
    return _round(value / cost_per_episode, 4) if value is not None and cost_per_episode else None


def _task_group(records: list[LedgerRecord], k: int) -> dict[str, Any]:
    """One task's metrics, with its pass@k, pass^k and pass^j for j = 1..k."""
    group = _group(records, k)
    n, c = group["scored"], group["successes"]
    group["pass@k"] = _round(pass_at_k(n, c, k))
    group["pass^k"] = _round(pass_hat_k(n, c, k))
    group["pass^j"] = {str(j): _round(pass_hat_k(n, c, j)) for j in range(1, k + 1)}
    group["pass^k_per_usd"] = _per_usd(group["pass^k"], group["cost_per_episode"])
    return group


def _task_mean(tasks: list[dict[str, Any]], value: Any) -> float | None:
    """The mean over tasks of ``value(task)``, leaving out tasks without one."""
    return _round(mean([v for v in map(value, tasks) if v is not None]))


def _overall(records: list[LedgerRecord], tasks: list[dict[str, Any]], k: int) -> dict[str, Any]:
    """The pooled metrics; pass@k, pass^k and pass^j averaged over tasks (each task counts once)."""
    overall = _group(records, k)
    for name in ("pass@k", "pass^k"):
        overall[name] = _task_mean(tasks, lambda t, name=name: t[name])
    overall["pass^j"] = {str(j): _task_mean(tasks, lambda t, j=j: t["pass^j"][str(j)]) for j in range(1, k + 1)}
    overall["pass^k_per_usd"] = _per_usd(overall["pass^k"], overall["cost_per_episode"])
    overall["tasks"] = len(tasks)
    overall["tasks_with_k_scored"] = sum(1 for t in tasks if t["pass@k"] is not None)
    return overall


def summarize(records: Iterable[LedgerRecord | Mapping[str, Any]], *, k: int, run: dict[str, Any] | None = None) -> dict[str, Any]:
    """Results of an evaluation from its ledger records.

    Args:
        records: one per episode (the ledger's latest line per key), typed or as the
            line's JSON object.
        k: the number of tries per task, for pass@k and pass^k.
        run: the run's manifest (policy, suite...), copied into the results.
    """
    everything = [LedgerRecord.parse(record) for record in records]
    by_task: dict[str, list[LedgerRecord]] = defaultdict(list)
    for record in everything:
        by_task[record.task_id].append(record)
    tasks = [{"task_id": task_id, **_task_group(by_task[task_id], k)} for task_id in sorted(by_task)]
    unscored = [{"key": r.key, "fault": r.fault, "reason": r.reason, "episode": r.episode} for r in everything if not r.scored]
    return {"k": k, "run": run or {}, "overall": _overall(everything, tasks, k), "tasks": tasks,
            "groups": _groups(everything, tasks, k), "unscored": unscored}


def task_group(task_id: str) -> str:
    """The group a task id belongs to: the id less its last part (``osworld.chrome`` for
    ``osworld.chrome.<uuid>``, an imported task's domain), or the id itself without dots."""
    return task_id.rsplit(".", 1)[0] if "." in task_id else task_id


def _groups(records: list[LedgerRecord], tasks: list[dict[str, Any]], k: int) -> list[dict[str, Any]]:
    """Metrics per group of tasks (see :func:`task_group`), when the run mixes several groups."""
    names = sorted({task_group(t["task_id"]) for t in tasks})
    if len(names) < 2:
        return []
    return [{"group": name, **_overall([r for r in records if task_group(r.task_id) == name],
                                       [t for t in tasks if task_group(t["task_id"]) == name], k)} for name in names]


def write_results(out_dir: Path, results: dict[str, Any]) -> tuple[Path, Path]:
    """Write ``results.json`` and ``results.md``; return their paths."""
    json_path, md_path = out_dir / RESULTS_JSON, out_dir / RESULTS_MD
    write_json_atomic(json_path, results)
    md_path.write_text(to_markdown(results), encoding="utf-8")
    return json_path, md_path


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}"


def _usd(value: float | None) -> str:
    return "-" if value is None else f"{value:.4f}"


def _ci(value: list[float] | None) -> str:
    return "-" if not value else f"[{100 * value[0]:.1f}, {100 * value[1]:.1f}]"


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """``1 task``, ``2 tasks``: a count with its noun in the right number (``nouns``: an irregular plural)."""
    return f"{count} {noun if count == 1 else nouns or noun + 's'}"


def headline(results: dict[str, Any]) -> str:
    """``12 tasks x 4 tries``: what the table is about."""
    return f"{plural(results['overall']['tasks'], 'task')} x {plural(results['k'], 'try', 'tries')}"


def table_rows(results: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    """Header and rows (tasks, then the overall line) of the readable results table.

    At k = 1, pass@k and pass^k are pass@1 again: their columns are left out.
    """
    k = results["k"]
    priced = results["overall"].get("cost_usd") is not None
    header = ["task", "n", "pass@1 %", "95% CI", *([f"pass@{k} %", f"pass^{k} %"] if k > 1 else []), "reward", "steps",
              "wall s", "tokens/ep", *(["$/ep", "$/success"] if priced else []), "env fail", "service fail", "guards"]
    rows = []
    overall_label = "ALL (tasks averaged for pass@k, pass^k)" if k > 1 else "ALL"
    groups = [{"task_id": f"{g['group']} (all {plural(g['tasks'], 'task')})", **g} for g in results.get("groups", [])]
    for entry in [*results["tasks"], *groups, {"task_id": overall_label, **results["overall"]}]:
        money = [_usd(entry.get("cost_per_episode")), _usd(entry.get("cost_per_success"))] if priced else []
        rows.append([
            entry["task_id"], f"{entry['successes']}/{entry['scored']}", _pct(entry["pass@1"]), _ci(entry["pass@1_ci95"]),
            *([_pct(entry["pass@k"]), _pct(entry["pass^k"])] if k > 1 else []),
            "-" if entry["mean_reward"] is None else f"{entry['mean_reward']:.2f}",
            "-" if entry["mean_steps"] is None else f"{entry['mean_steps']:.1f}",
            "-" if entry["mean_wall_s"] is None else f"{entry['mean_wall_s']:.2f}",
            "-" if not entry["tokens_per_episode"] else f"{entry['tokens_per_episode']:.0f}",
            *money,
            str(entry["env_failures"]) + (f" ({sum(entry['env_faults'].values())} faults)" if entry["env_faults"] else ""),
            str(entry.get("service_failures", 0)),
            str(sum(entry["guard_events"].values())) if entry["guard_events"] else "-",
        ])
    return header, rows


def _opening(results: dict[str, Any]) -> list[str]:
    """The page's title and the paragraphs above the table: headline, cost, early stop, reliability, throughput."""
    run, overall, k = results["run"], results["overall"], results["k"]
    lines = [f"# Evaluation: {run.get('policy', '?')} on {', '.join(map(str, run.get('suite', []))) or '?'}", ""]
    lines.append(
        f"{headline(results)}: pass@1 {_pct(overall['pass@1'])} % {_ci(overall['pass@1_ci95'])}"
        + (f", pass@{k} {_pct(overall['pass@k'])} %, pass^{k} {_pct(overall['pass^k'])} %" if k > 1 else "")
        + f" ({overall['scored']} scored episodes, {overall['env_failures']} environment failures and "
        f"{overall.get('service_failures', 0)} policy service failures not scored)."
    )
    if overall.get("cost_usd") is not None:
        lines += ["", f"Cost: ${overall['cost_usd']:.4f} in all, ${_usd(overall['cost_per_episode'])} per episode, "
                      f"${_usd(overall['cost_per_success'])} per success; pass^{k} per dollar an episode costs: "
                      f"{overall['pass^k_per_usd'] if overall['pass^k_per_usd'] is not None else '-'}."]
    if run.get("stopped"):
        lines += ["", f"Stopped early: {run['stopped']}."]
    curve = ", ".join(f"pass^{j} {_pct(v)}" for j, v in overall["pass^j"].items())
    lines += ["", f"Reliability: {curve}.", ""] if k > 1 else [""]  # at k = 1, pass^1 is pass@1 again
    if run.get("episodes_per_s"):
        lines += [f"Throughput: {run['episodes_per_s']:.2f} episodes/s on {run.get('workers', '?')} {run.get('backend', '')} worker(s).", ""]
    return lines


def _closing(results: dict[str, Any]) -> list[str]:
    """The paragraphs below the table: environment faults, the episodes not scored, guard events."""
    overall, lines = results["overall"], []
    if overall["env_faults"]:
        lines += ["", "Environment faults (every attempt, retried or not): "
                  + ", ".join(f"{kind} {count}" for kind, count in overall["env_faults"].items()) + "."]
    if results["unscored"]:
        lines += ["", "## Not scored (the environment failed on every attempt, or the policy's service stayed down)", ""]
        lines += [f"- `{u['key']}`: {u['fault']}: {u['reason']}" for u in results["unscored"]]
    if overall["guard_events"]:
        lines += ["", "Guard events: " + ", ".join(f"{kind} {count}" for kind, count in overall["guard_events"].items()) + "."]
    return lines


def to_markdown(results: dict[str, Any]) -> str:
    """The results as a Markdown page: headline, per-task table, environment failures."""
    header, rows = table_rows(results)
    lines = _opening(results)
    lines.append("| " + " | ".join(header) + " |")
    lines.append("|" + "---|" * len(header))
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines + _closing(results)) + "\n"


def load_results(out_dir: Path) -> dict[str, Any]:
    return json.loads((out_dir / RESULTS_JSON).read_text(encoding="utf-8"))
