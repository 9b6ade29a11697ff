"""Looking for leftover processes (tests only), through :mod:`gui_agent.envs.procfs`."""

from __future__ import annotations

from gui_agent.envs import procfs
from gui_agent.polling import poll

state = procfs.process_state
alive = procfs.is_alive


def mentioning(needle: str) -> dict[int, str]:
    """Live processes (zombies excluded) whose command line contains ``needle``, with it."""
    return {pid: procfs.command_line(pid) or "" for pid in procfs.processes_mentioning(needle)}


def wait_until_none_mention(needle: str, timeout_s: float = 15.0) -> dict[int, str]:
    """Wait for every process mentioning ``needle`` to end; return those still there."""
    poll(lambda: not mentioning(needle), timeout_s=timeout_s, interval_s=0.1)
    return mentioning(needle)


def browser_main_pids(needle: str) -> list[int]:
    """Chromium main processes (session leaders) whose command line mentions ``needle``."""
    pids = []
    for pid, cmd in mentioning(needle).items():
        stat = procfs.read_stat(pid)
        if stat is not None and stat.session == pid and "--user-data-dir" in cmd and "crashpad" not in cmd:
            pids.append(pid)
    return pids
