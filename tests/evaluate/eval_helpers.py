"""Helpers for the evaluation tests: ``gui-agent eval`` run as a real subprocess, its ledger read."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

from gui_agent.polling import poll
from tests.paths import REPO


def cli_env(tmpdir: str) -> dict[str, str]:
    env = dict(os.environ)
    env["TMPDIR"] = tmpdir
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)  # py:tests.... policies
    return env


def _as_from_a_shell() -> None:
    # A child inherits its parent's blocked-signal mask and ignored signals across exec. In a
    # whole-suite run something earlier in the pytest process left SIGINT undeliverable, and a
    # run started from it never saw the Ctrl-C the test sends; a user's shell starts commands
    # with SIGINT deliverable and at its default, so the subprocess starts that way here too.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGINT])
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def start_eval(args: list[str], tmpdir: str) -> subprocess.Popen[str]:
    """``gui-agent eval ARGS`` as a subprocess (stdout and stderr together, as text)."""
    return subprocess.Popen([sys.executable, "-m", "gui_agent", "eval", *args], env=cli_env(tmpdir),
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, preexec_fn=_as_from_a_shell)


def finish(proc: subprocess.Popen[str], timeout_s: float = 240) -> tuple[int, str]:
    try:
        out, _ = proc.communicate(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, _ = proc.communicate()
        raise AssertionError(f"gui-agent eval did not finish in {timeout_s} s:\n{out}")
    return proc.returncode, out


def ledger_lines(out: Path) -> list[dict]:
    path = out / "ledger.jsonl"
    if not path.exists():
        return []
    lines = []
    for line in path.read_text().splitlines():
        try:
            lines.append(json.loads(line))
        except json.JSONDecodeError:
            pass
    return lines


def wait_for(predicate, timeout_s: float = 120, what: str = "condition", proc: subprocess.Popen | None = None) -> None:
    def ready() -> bool:
        if predicate():
            return True
        if proc is not None and proc.poll() is not None:
            raise AssertionError(f"the run ended (rc {proc.returncode}) before {what}:\n{proc.stdout.read() if proc.stdout else ''}")
        return False

    if not poll(ready, timeout_s=timeout_s, interval_s=0.05):
        raise AssertionError(f"timed out waiting for {what}")
