"""Evaluation at scale: many tasks, k tries each, on local workers or Ray, streamed to a ledger.

One module per job:

* :mod:`.metrics`: pass@1 with a Wilson interval, unbiased pass@k and pass^k;
* :mod:`.suite`: which task files a suite names;
* :mod:`.worker`: what runs episodes in a worker (policy + browser, retries), sent to the
  pools of :mod:`gui_agent.workers` (local processes or Ray actors);
* :mod:`.ledger`: the streamed JSONL ledger and the run manifest (resume);
* :mod:`.report` / :mod:`.plot`: results JSON, Markdown and console table; the PNG;
* :mod:`.run`: :func:`evaluate_suite`, the whole run.

Nothing here is imported by ``import gui_agent``; Ray and matplotlib load only when used.
"""

from __future__ import annotations

from gui_agent.evaluate.metrics import pass_at_k, pass_hat_k, wilson_interval

__all__ = ["pass_at_k", "pass_hat_k", "wilson_interval"]
