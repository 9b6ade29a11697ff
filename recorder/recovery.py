"""Recovering a recording the recorder did not finish (SIGKILL, power cut, crash).

:func:`gui_agent.episode.recover` repairs ``steps.jsonl`` and marks the episode
``recovered``; then the raw events after the last written step (typing still in progress,
a click waiting for a possible double-click) are reduced again from ``events.jsonl`` and
appended as steps without keyframes (``info.recovered_from_events``). So what a crash
loses is at most the events of the last tick that never reached the file.
"""

from __future__ import annotations

import socket
from pathlib import Path

from gui_agent.episode import read_episode, recover
from gui_agent.episode.format import EPISODE_FILE, EVENTS_FILE, Stats
from gui_agent.episode.labels import RECORDER
from gui_agent.episode.reader import Episode, read_meta
from gui_agent.episode.writer import EpisodeWriter, write_meta
from gui_agent.recorder.events import read_events
from gui_agent.recorder.reduce import ReduceConfig, reduce_events


def recorder_alive(labels: dict) -> bool:
    """True if the recorder that wrote these labels still runs on this host (never recover those)."""
    info = RECORDER.get(labels) or {}
    pid, host = info.get("pid"), info.get("host")
    if not isinstance(pid, int) or host != socket.gethostname():
        return False
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as handle:
            return b"record" in handle.read()
    except OSError:
        return False


def find_unfinished(root: str | Path) -> list[Path]:
    """Episode folders under ``root`` still marked ``recording`` whose recorder is gone."""
    found = []
    for meta_file in sorted(Path(root).glob(f"*/{EPISODE_FILE}")):
        try:
            meta = read_meta(meta_file.parent)
        except Exception:  # noqa: BLE001 - not ours to judge here
            continue
        if meta.status == "recording" and not recorder_alive(meta.labels):
            found.append(meta_file.parent)
    return found


def recover_recording(path: str | Path, config: ReduceConfig | None = None) -> Episode:
    """Repair one unfinished recording in place and return it (``status: recovered``)."""
    folder = Path(path)
    if read_meta(folder).status != "recording":
        return read_episode(folder)
    episode = recover(folder)
    events = read_events(folder / EVENTS_FILE, lenient=True)
    covered = max((s.events[1] for s in episode.steps if s.events), default=0)
    tail = [r for r in reduce_events(events, config) if r.start >= covered]
    if not tail:
        return episode
    writer = EpisodeWriter.reopen(folder)
    for r in tail:
        writer.add_step(r.action, t=max(0.0, r.t), events=(r.start, r.end), info={**r.info, "recovered_from_events": True})
    writer.close()
    meta = episode.meta.model_copy(update={"stats": Stats(steps=writer.n_steps, duration_s=round(max(episode.meta.stats.duration_s, tail[-1].t), 3))})
    write_meta(folder, meta)
    return read_episode(folder)
