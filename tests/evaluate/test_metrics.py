"""pass@k, pass^k and the Wilson interval against hand-computed tables and brute force; the summary."""

from __future__ import annotations

import itertools
import math

import pytest

from gui_agent.evaluate.metrics import pass_at_k, pass_hat_k, wilson_interval
from gui_agent.evaluate.report import summarize, table_rows, to_markdown

# (n, c, k, pass@k, pass^k), worked by hand from the definitions:
#   pass@k = 1 - C(n-c, k) / C(n, k)     pass^k = C(c, k) / C(n, k)
TABLE = [
    (5, 2, 1, 0.4, 0.4),                      # both are c/n at k = 1
    (5, 2, 2, 1 - 3 / 10, 1 / 10),            # C(3,2)=3, C(5,2)=10, C(2,2)=1
    (5, 2, 3, 1 - 1 / 10, 0.0),               # C(3,3)=1, C(5,3)=10; C(2,3)=0
    (5, 2, 4, 1.0, 0.0),                      # only 3 failures: every 4 tries hold a success
    (5, 4, 2, 1.0, 6 / 10),                   # C(1,2)=0; C(4,2)=6
    (5, 4, 3, 1.0, 4 / 10),                   # C(4,3)=4, C(5,3)=10
    (8, 6, 4, 1.0, 15 / 70),                  # C(2,4)=0; C(6,4)=15, C(8,4)=70
    (8, 2, 4, 1 - 15 / 70, 0.0),              # C(6,4)=15
    (10, 3, 5, 1 - 21 / 252, 0.0),            # C(7,5)=21, C(10,5)=252
    (10, 7, 5, 1.0, 21 / 252),                # C(3,5)=0; C(7,5)=21
    (4, 0, 2, 0.0, 0.0),
    (4, 4, 4, 1.0, 1.0),
]


@pytest.mark.parametrize(("n", "c", "k", "at_k", "hat_k"), TABLE)
def test_hand_computed_table(n: int, c: int, k: int, at_k: float, hat_k: float) -> None:
    assert pass_at_k(n, c, k) == pytest.approx(at_k, abs=1e-12)
    assert pass_hat_k(n, c, k) == pytest.approx(hat_k, abs=1e-12)


@pytest.mark.parametrize(("n", "c"), [(n, c) for n in range(1, 8) for c in range(n + 1)])
def test_estimators_equal_the_fraction_of_k_subsets(n: int, c: int) -> None:
    """Unbiased estimators = the share of all k-subsets of the n tries with >= 1 / only successes."""
    tries = [True] * c + [False] * (n - c)
    for k in range(1, n + 1):
        subsets = list(itertools.combinations(tries, k))
        assert pass_at_k(n, c, k) == pytest.approx(sum(any(s) for s in subsets) / len(subsets))
        assert pass_hat_k(n, c, k) == pytest.approx(sum(all(s) for s in subsets) / len(subsets))


def test_fewer_tries_than_k_give_no_estimate_and_bad_input_is_refused() -> None:
    assert pass_at_k(2, 1, 3) is None and pass_hat_k(2, 1, 3) is None
    for bad in [(3, 4, 1), (3, -1, 1), (3, 1, 0)]:
        with pytest.raises(ValueError):
            pass_at_k(*bad)


# Wilson 95 % intervals as published (e.g. Newcombe 1998, Table I; Wikipedia's worked values).
WILSON = [
    (7, 10, 0.3968, 0.8922),
    (0, 10, 0.0, 0.2775),
    (10, 10, 0.7225, 1.0),
    (1, 2, 0.0945, 0.9055),
    (50, 100, 0.4038, 0.5962),
    (81, 263, 0.2553, 0.3662),   # Newcombe's example 81/263
    (0, 1, 0.0, 0.7935),
]


@pytest.mark.parametrize(("c", "n", "low", "high"), WILSON)
def test_wilson_interval_matches_published_values(c: int, n: int, low: float, high: float) -> None:
    lo, hi = wilson_interval(c, n)
    assert lo == pytest.approx(low, abs=6e-5) and hi == pytest.approx(high, abs=6e-5)
    assert wilson_interval(0, 0) is None


def _record(task: str, repeat: int, success: bool | None, **extra) -> dict:
    return {"key": f"{task}#{repeat}", "task_id": task, "repeat": repeat, "success": success,
            "reward": 1.0 if success else 0.0, "steps": extra.pop("steps", 2), "duration_s": 1.0,
            "termination": "done" if success is not None else "env_error", **extra}


def test_summary_per_task_and_overall_with_env_failures_apart() -> None:
    records = (
        [_record("a", r, s) for r, s in enumerate([True, True, False, True])]                   # 3/4
        + [_record("b", r, s) for r, s in enumerate([True, False, False, False])]               # 1/4
        + [_record("c", 0, True), _record("c", 1, None, fault="dead", reason="browser died"),   # 2/3 scored
           _record("c", 2, True, env_failures=[{"attempt": 1, "fault": "hung"}]),
           _record("c", 3, False, usage={"input_tokens": 100, "output_tokens": 20, "images": 1})]
    )
    results = summarize(records, k=2)
    tasks = {t["task_id"]: t for t in results["tasks"]}
    assert (tasks["a"]["scored"], tasks["a"]["successes"]) == (4, 3)
    assert tasks["a"]["pass@k"] == pytest.approx(1.0)                 # 1 - C(1,2)/C(4,2)
    assert tasks["a"]["pass^k"] == pytest.approx(0.5)                 # C(3,2)/C(4,2) = 3/6
    assert tasks["b"]["pass@k"] == pytest.approx(0.5)                 # 1 - C(3,2)/C(4,2) = 1 - 3/6
    assert tasks["b"]["pass^k"] == 0.0
    c = tasks["c"]
    assert (c["scored"], c["successes"], c["env_failures"]) == (3, 2, 1)   # the env failure is not scored
    assert c["pass^k"] == pytest.approx(round(1 / 3, 4))                    # C(2,2)/C(3,2)
    assert c["env_faults"] == {"dead": 1, "hung": 1} and c["retried_episodes"] == 1
    overall = results["overall"]
    assert (overall["scored"], overall["successes"], overall["env_failures"]) == (11, 6, 1)
    assert overall["pass@1"] == pytest.approx(round(6 / 11, 4))           # pooled tries
    lo, hi = wilson_interval(6, 11)
    assert overall["pass@1_ci95"] == [round(lo, 4), round(hi, 4)]
    assert overall["pass^k"] == pytest.approx(round((0.5 + 0.0 + round(1 / 3, 4)) / 3, 4))  # tasks averaged
    assert overall["pass^j"]["1"] == pytest.approx(round((3 / 4 + 1 / 4 + round(2 / 3, 4)) / 3, 4))
    assert overall["usage"] == {"input_tokens": 100, "output_tokens": 20, "images": 1, "cached_tokens": 0, "retries": 0}
    assert overall["cost_usd"] is None and overall["pass^k_per_usd"] is None  # nothing priced: no money figures
    assert overall["tokens_per_episode"] == pytest.approx(round(120 / 11, 1))
    assert results["unscored"] == [{"key": "c#1", "fault": "dead", "reason": "browser died", "episode": None}]
    page = to_markdown(results)
    assert "| a | 3/4 | 75.0 |" in page and "c#1" in page and "pass^2" in page
    assert math.isclose(tasks["a"]["pass@1"], 0.75)


def test_cost_figures_and_policy_service_failures_apart() -> None:
    priced = lambda usd: {"input_tokens": 1000, "output_tokens": 50, "images": 1, "cost_usd": usd}  # noqa: E731
    records = (
        [_record("a", r, s, usage=priced(0.02)) for r, s in enumerate([True, True, False, True])]
        + [_record("b", 0, True, usage=priced(0.04)), _record("b", 1, False, usage=priced(0.04)),
           _record("b", 2, None, termination="service_error", fault="unavailable", reason="policy service: 503 x4",
                   usage=priced(0.01)),  # paid for, then the service went down
           _record("b", 3, None, fault="dead", reason="browser died")]
    )
    results = summarize(records, k=2)
    tasks = {t["task_id"]: t for t in results["tasks"]}
    a, b, overall = tasks["a"], tasks["b"], results["overall"]
    assert a["cost_usd"] == pytest.approx(0.08) and a["cost_per_episode"] == pytest.approx(0.02)
    assert a["cost_per_success"] == pytest.approx(round(0.08 / 3, 6))
    assert a["pass^k_per_usd"] == pytest.approx(round(0.5 / 0.02, 4))      # pass^2 = C(3,2)/C(4,2) = 0.5
    assert (b["scored"], b["env_failures"], b["service_failures"]) == (2, 1, 1)
    assert b["cost_per_episode"] == pytest.approx(0.04) and b["pass^k"] == 0.0 and b["pass^k_per_usd"] == 0.0
    assert (overall["scored"], overall["env_failures"], overall["service_failures"]) == (6, 1, 1)
    assert b["env_faults"] == overall["env_faults"] == {"dead": 1}  # the service's outage is not an environment fault
    assert b["cost_usd"] == pytest.approx(0.09)  # the unscored episode's calls were spent too
    assert overall["cost_usd"] == pytest.approx(0.17) and overall["cost_per_success"] == pytest.approx(round(0.17 / 4, 6))
    assert {u["key"] for u in results["unscored"]} == {"b#2", "b#3"}
    page = to_markdown(results)
    assert "1 environment failures and 1 policy service failures not scored" in page
    assert "Cost: $0.1700 in all" in page
    header, rows = table_rows(results)
    assert "$/ep" in header and rows[0][header.index("$/ep")] == "0.0200"


def test_a_service_outage_is_never_an_environment_fault() -> None:
    records = [_record("a", 0, None, termination="service_error", fault="unavailable", reason="policy service: 503 x4"),
               _record("a", 1, True)]
    results = summarize(records, k=2)
    overall = results["overall"]
    assert (overall["env_failures"], overall["service_failures"], overall["env_faults"]) == (0, 1, {})
    assert results["tasks"][0]["env_faults"] == {}
    page = to_markdown(results)
    assert "0 environment failures and 1 policy service failures not scored" in page and "Environment faults" not in page
