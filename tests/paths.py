"""Where the tests find the repository's files (one place, whatever folder a test is in)."""

from __future__ import annotations

from pathlib import Path

#: The repository root.
REPO = Path(__file__).resolve().parents[1]
#: The shipped task suites.
TASKS = REPO / "datasets" / "tasks"
#: The shipped MiniWoB++ task files.
MINIWOB_TASKS = TASKS / "miniwob"
#: Task files and configs made for the tests (malformed ones included).
FIXTURES = REPO / "tests" / "fixtures"
