"""Helpers for the desktop tests: xev as a real X client that reports the input it gets,
and process bookkeeping (is anything we started still alive?)."""

from __future__ import annotations

import re
import time
from pathlib import Path

from gui_agent.envs import procfs
from gui_agent.envs.desktop.steps import LaunchArgs, LaunchStep
from gui_agent.envs.procfs import process_state
from gui_agent.polling import poll

#: xev in a window titled "Event Tester", reporting only keyboard and button events.
XEV = LaunchStep(launch=LaunchArgs(command=["xev", "-event", "keyboard", "-event", "button"], window="Event Tester"))

_EVENT = re.compile(
    r"(ButtonPress|ButtonRelease|KeyPress|KeyRelease) event, serial \d+, synthetic \w+, window 0x[0-9a-f]+,\n"
    r"\s+root 0x[0-9a-f]+, subw 0x[0-9a-f]+, time \d+, \(-?\d+,-?\d+\), root:\((-?\d+),(-?\d+)\),\n"
    r"\s+state 0x[0-9a-f]+, (?:button (\d+)|keycode \d+ \(keysym 0x[0-9a-f]+, (\w+)\))"
)


def xev_events(env, *, wait_s: float = 0.3) -> list[tuple[str, str, int, int]]:  # type: ignore[no-untyped-def]
    """(event, button or keysym, root x, root y) for every press/release xev printed so far."""
    time.sleep(wait_s)  # xev prints asynchronously
    log = Path(env.home).parent / "private" / "logs" / "xev.log"
    text = log.read_text(errors="replace")
    return [(m[1], m[4] or m[5], int(m[2]), int(m[3])) for m in _EVENT.finditer(text)]


def presses(events: list[tuple[str, str, int, int]]) -> list[str]:
    return [detail for kind, detail, _, _ in events if kind in ("KeyPress", "ButtonPress")]


def alive(pids: list[int]) -> list[int]:
    """The PIDs that still exist and are not zombies."""
    return [pid for pid in pids if process_state(pid) not in (None, "Z")]


def wait_gone(pids: list[int], timeout_s: float = 10.0) -> list[int]:
    poll(lambda: not alive(pids), timeout_s=timeout_s, interval_s=0.05)
    return alive(pids)


def children_of(pid: int) -> list[int]:
    """Direct children of ``pid``, zombies included."""
    return procfs.children(pid, include_zombies=True)
