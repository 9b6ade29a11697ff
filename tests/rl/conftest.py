"""Fixtures of the RL tests: a private temp dir per run (so its leftover processes can be found
by it) and the clean-up of the processes a test started, by PID."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Iterator

import pytest

from tests.evaluate.eval_procs import wait_until_none_mention


@pytest.fixture
def private_tmp() -> Iterator[str]:
    """A short temp dir for the run's browsers (TMPDIR); at the end nothing may mention it."""
    folder = tempfile.mkdtemp(prefix="garl-", dir="/tmp")
    try:
        yield folder
    finally:
        left = wait_until_none_mention(folder)
        for pid in left:  # clean up by PID even when the test failed (a SIGSTOPped one too)
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        shutil.rmtree(folder, ignore_errors=True)
        assert not left, f"processes left running: {left}"


@pytest.fixture
def kill_on_exit() -> Iterator[list[subprocess.Popen]]:
    """Processes a test started; any still running at the end are killed by PID."""
    procs: list[subprocess.Popen] = []
    yield procs
    for proc in procs:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
