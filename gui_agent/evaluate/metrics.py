"""Success metrics over repeated tries: pass@1 with a Wilson interval, pass@k and pass^k.

For a task tried ``n`` times with ``c`` successes:

* pass@k: the chance that at least one of ``k`` tries succeeds, estimated without bias
  from all ``n >= k`` tries (Chen et al. 2021, "Evaluating Large Language Models Trained
  on Code", eq. 1): ``1 - C(n-c, k) / C(n, k)``.
* pass^k: the chance that all ``k`` tries succeed (Yao et al. 2024, "tau-bench", eq. 1):
  ``C(c, k) / C(n, k)``. pass^1 = pass@1 = c/n; pass^k falls with k for an unreliable agent.
* the Wilson score interval of the success probability (Wilson 1927), which stays inside
  [0, 1] and is sensible for 0 or n successes, unlike the normal approximation.

Over a suite, pass@k and pass^k are averaged over tasks (each task counts once, as in
both papers); pass@1's interval is on the pooled tries. Tries with ``n < k`` scored tries
(environment failures are never scored) give no estimate (None).
"""

from __future__ import annotations

import math
from statistics import NormalDist

#: z of a two-sided 95 % interval.
Z95 = NormalDist().inv_cdf(0.975)


def _check(n: int, c: int, k: int) -> None:
    if n < 0 or not 0 <= c <= n or k < 1:
        raise ValueError(f"need n >= 0, 0 <= c <= n and k >= 1; got n={n}, c={c}, k={k}")


def pass_at_k(n: int, c: int, k: int) -> float | None:
    """Unbiased pass@k from ``c`` successes in ``n`` tries; None when ``n < k``."""
    _check(n, c, k)
    if n < k:
        return None
    if n - c < k:
        return 1.0
    return 1.0 - math.comb(n - c, k) / math.comb(n, k)


def pass_hat_k(n: int, c: int, k: int) -> float | None:
    """Unbiased pass^k (all ``k`` tries succeed) from ``c`` successes in ``n`` tries; None when ``n < k``."""
    _check(n, c, k)
    if n < k:
        return None
    return math.comb(c, k) / math.comb(n, k)


def wilson_interval(successes: int, n: int, z: float = Z95) -> tuple[float, float] | None:
    """The Wilson score interval of a success rate; None for ``n == 0``."""
    _check(n, successes, 1)
    if n == 0:
        return None
    p = successes / n
    denominator = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def mean(values: list[float]) -> float | None:
    """The arithmetic mean, or None for no values."""
    return sum(values) / len(values) if values else None
