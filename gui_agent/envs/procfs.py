"""Reading processes from Linux's ``/proc``: states, parents, sessions, command lines.

Every process the project starts is stopped by PID, never by name (docs/architecture.md), and
stopping one properly means finding what it forked: members of its session, children,
helpers that daemonised but carry our private folder on their command line. This module
is the one place that reads ``/proc`` for that; :mod:`gui_agent.envs.owned_process` and
the tests use it. Off Linux every lookup finds nothing.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

#: States of a process that has ended: a zombie waits only to be reaped, ``X`` is gone.
_DEAD_STATES = ("Z", "X")


@dataclass(frozen=True)
class ProcStat:
    """The fields of ``/proc/PID/stat`` that ownership needs.

    Attributes:
        state: one letter: ``R`` running, ``S`` sleeping, ``T``/``t`` stopped, ``Z`` zombie.
        ppid: the parent's PID.
        pgrp: the process group.
        session: the session id (the PID of the session leader).
    """

    state: str
    ppid: int
    pgrp: int
    session: int

    @property
    def alive(self) -> bool:
        """Running, sleeping or stopped; a zombie is not alive."""
        return self.state not in _DEAD_STATES


def read_stat(pid: int) -> ProcStat | None:
    """``pid``'s state, parent, group and session, or None if there is no such process."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            text = fh.read().decode("ascii", "replace")
    except OSError:
        return None
    # The command name is in parentheses and may hold spaces; the fields after it are fixed.
    fields = text[text.rfind(")") + 2 :].split()
    try:
        return ProcStat(state=fields[0], ppid=int(fields[1]), pgrp=int(fields[2]), session=int(fields[3]))
    except (IndexError, ValueError):
        return None


def process_state(pid: int) -> str | None:
    """The one-letter state of ``pid`` (``R``, ``S``, ``T`` stopped, ``Z``), or None if gone."""
    stat = read_stat(pid)
    return stat.state if stat is not None else None


def is_alive(pid: int) -> bool:
    """True if ``pid`` exists and is not a zombie (a stopped process is alive)."""
    stat = read_stat(pid)
    return stat is not None and stat.alive


def all_pids() -> list[int]:
    """Every PID in ``/proc`` at this moment."""
    try:
        return [int(entry) for entry in os.listdir("/proc") if entry.isdigit()]
    except OSError:
        return []


def children(pid: int, *, include_zombies: bool = False) -> list[int]:
    """Direct children of ``pid``; with ``include_zombies`` also the unreaped ones (a leak too)."""
    found = []
    for candidate in all_pids():
        stat = read_stat(candidate)
        if stat is not None and stat.ppid == pid and (include_zombies or stat.alive):
            found.append(candidate)
    return found


def with_descendants(roots: Iterable[int]) -> list[int]:
    """``roots`` and every live process below them (one scan of ``/proc``): the helpers an
    app starts in sessions of their own (a launcher's server and browser) included."""
    parents: dict[int, list[int]] = {}
    for candidate in all_pids():
        stat = read_stat(candidate)
        if stat is not None and stat.alive:
            parents.setdefault(stat.ppid, []).append(candidate)
    found: set[int] = set()
    stack = list(roots)
    while stack:
        pid = stack.pop()
        if pid not in found:
            found.add(pid)
            stack.extend(parents.get(pid, ()))
    return sorted(found)


def session_members(sid: int) -> list[int]:
    """Live (non-zombie) processes of session ``sid``."""
    found = []
    for candidate in all_pids():
        stat = read_stat(candidate)
        if stat is not None and stat.alive and stat.session == sid:
            found.append(candidate)
    return found


def command_line(pid: int) -> str | None:
    """``pid``'s command line with its arguments joined by spaces, or None if it is gone."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as fh:
            return fh.read().replace(b"\0", b" ").decode("utf-8", "replace").strip()
    except OSError:
        return None


def arguments(pid: int) -> list[str]:
    """``pid``'s command line as its list of arguments ([] if it is gone)."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as fh:
            raw = fh.read()
    except OSError:
        return []
    return [part.decode("utf-8", "replace") for part in raw.split(b"\0") if part]


def processes_mentioning(needle: str | Path | None) -> list[int]:
    """Live processes other than this one whose command line contains ``needle``.

    How daemonised helpers are found: a process that left our session still carries the
    private folder we gave it (a browser's crash handler) on its command line.
    """
    if needle is None or not str(needle):
        return []
    wanted = str(needle).encode()
    found = []
    for candidate in all_pids():
        if candidate == os.getpid():
            continue
        try:
            with open(f"/proc/{candidate}/cmdline", "rb") as fh:
                if wanted not in fh.read():
                    continue
        except OSError:
            continue
        if is_alive(candidate):
            found.append(candidate)
    return found


__all__ = [
    "ProcStat",
    "all_pids",
    "arguments",
    "children",
    "command_line",
    "is_alive",
    "process_state",
    "processes_mentioning",
    "read_stat",
    "session_members",
]
