"""Fixtures of the RL tests: the evaluation tests' own (a private temp dir per run, so its
leftover processes can be found by it, and the clean-up of the processes a test started, by
PID); an RL run starts browsers and workers just as an evaluation does."""

from __future__ import annotations

from tests.evaluate.conftest import kill_on_exit, private_tmp

__all__ = ["kill_on_exit", "private_tmp"]
