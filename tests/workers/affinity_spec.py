"""A pool worker that reports the CPUs it and a child process may run on (tests only)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from typing import Any

_CHILD = "import json, os; print(json.dumps(sorted(os.sched_getaffinity(0))))"


class AffinityWorker:
    def run(self, item: Any) -> dict[str, Any]:
        child = subprocess.run([sys.executable, "-c", _CHILD], capture_output=True, text=True, check=True)
        return {"key": item.key, "pid": os.getpid(), "own": sorted(os.sched_getaffinity(0)), "child": json.loads(child.stdout)}

    def close(self) -> None:
        pass


@dataclass(frozen=True)
class AffinitySpec:
    def build(self) -> AffinityWorker:
        return AffinityWorker()
