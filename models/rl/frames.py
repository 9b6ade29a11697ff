"""Dropping an episode's screens, keeping the episode (``gui-agent train rl --keep-frames-every N``).

An RL run writes thousands of episodes; their frames are most of the disk they take.
The learner gets each rollout's screens from its worker directly, so an episode on disk
needs them only for people and tools that look at it later. Without frames an episode
is still a valid episode of the trajectory format: each step keeps its action, reward,
timings and thought, its ``frame_before`` is simply absent, and so is the final frame.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

from gui_agent.episode.format import FRAMES_DIR, STEPS_FILE


def drop_frames(episode: str | Path) -> int:
    """Remove the frames of the episode folder ``episode``; returns how many files went.

    ``steps.jsonl`` is rewritten first (atomically) without frame references, then the
    ``frames/`` folder removed, so the episode is valid at every moment.
    """
    folder = Path(episode)
    steps = folder / STEPS_FILE
    if steps.is_file():
        lines = []
        for line in steps.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            record = json.loads(line)
            record.pop("frame_before", None)
            record.pop("frame_after", None)
            lines.append(json.dumps(record, ensure_ascii=False))
        temporary = steps.with_name(steps.name + ".tmp")
        temporary.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
        os.replace(temporary, steps)
    frames = folder / FRAMES_DIR
    count = sum(1 for _ in frames.iterdir()) if frames.is_dir() else 0
    shutil.rmtree(frames, ignore_errors=True)
    return count
