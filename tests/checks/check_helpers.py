"""Evaluating one desktop check on plain folders, for the check tests.

:class:`FolderProbe` is the desktop probe protocol over real folders (the episode's home
and the task's folder), so a check reads real files exactly as it does after an episode.
"""

from __future__ import annotations

import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import yaml

from gui_agent.task import load_task_text
from gui_agent.checks.evaluation import evaluate


class FolderProbe:
    """``home`` for task paths, ``task_dir`` for shipped files, ``done`` as the agent's ending."""

    def __init__(self, home: Path, task_dir: Path | None = None, done: dict[str, Any] | None = None) -> None:
        self.home, self.task_dir, self.done = home, task_dir or home, done
        self.ports: dict[str, int] = {}  # app -> control port, for checks of a running app

    def resolve_path(self, path: str) -> Path:
        return self.home / path.removeprefix("~/")

    def task_file(self, path: str) -> Path:
        found = self.task_dir / path
        if not found.exists():
            raise FileNotFoundError(f"no shipped file {path!r} in {self.task_dir}")
        return found

    def received_mail(self) -> list[Any]:
        return []

    def reported_done(self) -> dict[str, Any] | None:
        return self.done

    def app_port(self, app: str) -> int:
        port = self.ports.get(app)
        if port is None:
            raise RuntimeError(f"no control port for {app!r} in this folder probe")
        return port

    def run_command(self, argv: Sequence[str], *, timeout_s: float = 30.0) -> subprocess.CompletedProcess[str]:
        """Run ``argv`` in the home folder (real commands, as on the desktop)."""
        return subprocess.run(list(argv), cwd=self.home, capture_output=True, text=True, timeout=timeout_s, check=False,
                              stdin=subprocess.DEVNULL)

    def write(self, path: str, text: str) -> Path:
        """Put ``text`` at ``path`` in the home folder (its folders made), as an app would have."""
        target = self.home / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
        return target


def check(spec: dict[str, Any], probe: FolderProbe, apps: str = "calc") -> dict[str, Any]:
    """Validate ``spec`` (one check, as in a task file) in a desktop task and evaluate it; the report."""
    text = yaml.safe_dump({
        "id": "test.check", "instruction": "test",
        "environment": {"kind": "desktop", "apps": [apps]}, "evaluator": spec,
    })
    task = load_task_text(text)
    return evaluate(task.evaluator, probe).detail  # type: ignore[arg-type]


def passes(spec: dict[str, Any], probe: FolderProbe, apps: str = "calc") -> bool:
    report = check(spec, probe, apps)
    assert "error" not in report, report
    return bool(report["passed"])
