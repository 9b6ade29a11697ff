"""Looking for leftover processes in /proc (tests only)."""

from __future__ import annotations

import os
import time


def state(pid: int) -> str | None:
    """One-letter process state, or None if the process is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            stat = fh.read().decode("ascii", "replace")
    except OSError:
        return None
    return stat[stat.rfind(")") + 2 :].split(" ", 1)[0]


def alive(pid: int) -> bool:
    """Running or stopped (a zombie is dead: it only waits to be reaped)."""
    return state(pid) not in (None, "Z", "X")


def mentioning(needle: str) -> dict[int, str]:
    """Live processes (zombies excluded) whose command line contains ``needle``, with it."""
    found = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as fh:
                cmd = fh.read().replace(b"\0", b" ").decode("utf-8", "replace")
        except OSError:
            continue
        if needle in cmd and alive(int(entry)):
            found[int(entry)] = cmd
    return found


def wait_until_none_mention(needle: str, timeout_s: float = 15.0) -> dict[int, str]:
    """Wait for every process mentioning ``needle`` to end; return those still there."""
    deadline = time.monotonic() + timeout_s
    left = mentioning(needle)
    while left and time.monotonic() < deadline:
        time.sleep(0.1)
        left = mentioning(needle)
    return left


def browser_main_pids(needle: str) -> list[int]:
    """Chromium main processes (session leaders) whose command line mentions ``needle``."""
    pids = []
    for pid, cmd in mentioning(needle).items():
        try:
            with open(f"/proc/{pid}/stat", "rb") as fh:
                stat = fh.read().decode("ascii", "replace")
        except OSError:
            continue
        fields = stat[stat.rfind(")") + 2 :].split()
        if int(fields[3]) == pid and "--user-data-dir" in cmd and "crashpad" not in cmd:
            pids.append(pid)
    return pids
