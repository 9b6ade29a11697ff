"""Human-paced recordings of MiniWoB++ tasks: the real recorder, xdotool playing the human.

What the human does comes from the scripted oracle (run headless first, same task and
seed, so the same instruction and layout); *how* it is done is a person's pace: a
pause to read the task, 0.5-1.5 s between actions, a pointer move before each click,
typing at about 6.7 characters a second (xdotool's per-key delay). The recorder is the
real ``gui-agent record --browser miniwob:TASK --seed N`` in a subprocess on our own
Xvfb; it sees only X input events, as with a person. Used by ``tests/replay`` and by
``scripts/bench_replay.py``. Every process started here is stopped by PID.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from gui_agent.actions import (
    Action,
    Click,
    Done,
    Drag,
    Hotkey,
    Move,
    Scroll,
    Type,
    Wait,
)
from gui_agent.polling import poll
from tests.paths import REPO

MINIWOB_TASKS = REPO / "datasets" / "tasks" / "miniwob"
#: The recorder's screen; small, so grabbing and encoding keyframes stays cheap.
SCREEN = (800, 600)
#: MiniWoB++'s instruction bar colour (core.css ``#query``): its top-left is the page's (0, 0).
_QUERY_YELLOW = (255, 255, 0)


@dataclass(frozen=True)
class HumanPace:
    """How fast the simulated person works (seconds; characters per second)."""

    read_s: tuple[float, float] = (1.0, 2.0)
    between_s: tuple[float, float] = (0.5, 1.5)
    aim_s: tuple[float, float] = (0.15, 0.35)
    chars_per_s: float = 6.7


def oracle_actions(task_name: str, seed: int, *, env: object | None = None) -> list[Action]:
    """The oracle's actions (page pixels) for ``task_name`` with ``seed``, from a headless run
    (in ``env`` when given: one browser for many plans)."""
    from gui_agent.episode import read_episode
    from gui_agent.registry import load_policy
    from gui_agent.runner import run_episode
    from gui_agent.task import load_task

    scratch = Path(tempfile.mkdtemp(prefix="gui-agent-human-plan-"))
    try:
        result = run_episode(load_task(MINIWOB_TASKS / f"{task_name}.yaml"), load_policy("oracle"), out_dir=scratch,
                             seed=seed, env=env)  # type: ignore[arg-type]
        if not result.success:
            raise RuntimeError(f"the oracle failed {task_name} seed {seed}: {result.reason}")
        return [a for a in read_episode(result.episode_path).actions() if not isinstance(a, Done)]
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _page_origin(display: str, timeout_s: float = 30.0) -> tuple[int, int]:
    """Screen position of the page's (0, 0): the top-left of the yellow instruction bar."""
    import mss

    with mss.MSS(display=display) as sct:

        def origin() -> tuple[int, int] | None:
            shot = sct.grab(sct.monitors[0])
            img = np.frombuffer(shot.raw, np.uint8).reshape(shot.height, shot.width, 4)[..., 2::-1]
            ys, xs = np.nonzero((img == _QUERY_YELLOW).all(axis=-1))
            return (int(xs.min()), int(ys.min())) if len(xs) > 1000 else None

        found = poll(origin, timeout_s=timeout_s, interval_s=0.2)
    if found is None:
        raise RuntimeError("the MiniWoB++ page did not appear on the recorder's screen")
    return found


class _Xdotool:
    def __init__(self, display: str) -> None:
        self.env = {**os.environ, "DISPLAY": display}

    def __call__(self, *args: str) -> None:
        subprocess.run(["xdotool", *args], env=self.env, check=True, capture_output=True, timeout=60)


def _play(action: Action, origin: tuple[int, int], x: _Xdotool, pace: HumanPace, rng: random.Random) -> None:
    ox, oy = origin
    if isinstance(action, (Click, Move)):
        x("mousemove", str(ox + action.x), str(oy + action.y))
        time.sleep(rng.uniform(*pace.aim_s))
        if isinstance(action, Click):
            button = {"left": "1", "middle": "2", "right": "3"}[action.button]
            x("click", "--repeat", str(action.count), "--delay", "80", button)
    elif isinstance(action, Type):
        text, enter = (action.text[:-1], True) if action.text.endswith("\n") else (action.text, False)
        if text:
            x("type", "--delay", str(round(1000 / pace.chars_per_s)), text)
        if enter:
            x("key", "Return")
    elif isinstance(action, Hotkey):
        names = {"ctrl": "ctrl", "alt": "alt", "shift": "shift", "enter": "Return", "escape": "Escape", "backspace": "BackSpace", "tab": "Tab",
                 "space": "space", "up": "Up", "down": "Down", "left": "Left", "right": "Right", "delete": "Delete"}
        x("key", "+".join(names.get(k, k) for k in action.keys))
    elif isinstance(action, Scroll):
        x("mousemove", str(ox + action.x), str(oy + action.y))
        time.sleep(rng.uniform(*pace.aim_s))
        if action.dy:
            x("click", "--repeat", str(abs(action.dy)), "--delay", "60", "5" if action.dy > 0 else "4")
    elif isinstance(action, Drag):
        x("mousemove", str(ox + action.x1), str(oy + action.y1))
        time.sleep(rng.uniform(*pace.aim_s))
        x("mousedown", "1")
        for f in (0.33, 0.66, 1.0):
            x("mousemove", str(ox + round(action.x1 + f * (action.x2 - action.x1))), str(oy + round(action.y1 + f * (action.y2 - action.y1))))
            time.sleep(0.08)
        x("mouseup", "1")
    elif isinstance(action, Wait):
        time.sleep(action.seconds)  # a person waits for the page too (not an input event: not recorded)
    else:
        raise TypeError(f"the human player cannot play {action!r}")


def record_human(task_name: str, seed: int, out_dir: Path, *, actions: list[Action] | None = None,
                 pace: HumanPace = HumanPace(), rng_seed: int = 0, timeout_s: float = 60.0) -> Path:
    """Record ``task_name`` with ``seed`` solved at a human pace; returns the episode folder.

    Starts an Xvfb and ``gui-agent record --browser miniwob:TASK --seed N`` on it, plays
    ``actions`` (default: the oracle's) with xdotool, stops the recorder with SIGTERM and
    stops both by PID, also on failure.
    """
    from gui_agent.envs.desktop.xvfb import XvfbDisplay

    actions = oracle_actions(task_name, seed) if actions is None else actions
    rng = random.Random(f"{task_name}:{seed}:{rng_seed}")
    xvfb = XvfbDisplay(width=SCREEN[0], height=SCREEN[1])
    display = xvfb.start()
    recorder: subprocess.Popen[str] | None = None
    lines: list[str] = []
    try:
        recorder = subprocess.Popen(
            [sys.executable, "-m", "gui_agent", "record", "--display", display, "--out", str(out_dir),
             "--browser", f"miniwob:{task_name}", "--seed", str(seed), "--notes", ""],
            cwd=REPO, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            env={**os.environ, "DISPLAY": display, "PYTHONUNBUFFERED": "1"},
        )
        ready = threading.Event()

        def read() -> None:
            assert recorder is not None and recorder.stdout is not None
            for line in recorder.stdout:
                lines.append(line)
                if line.startswith("recording to"):
                    ready.set()
            ready.set()

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        if not ready.wait(timeout_s) or recorder.poll() is not None:
            raise RuntimeError("the recorder did not start:\n" + "".join(lines))
        origin = _page_origin(display)
        xdotool = _Xdotool(display)
        time.sleep(rng.uniform(*pace.read_s))  # reading the instruction
        for i, action in enumerate(actions):
            if i:
                time.sleep(rng.uniform(*pace.between_s))
            _play(action, origin, xdotool, pace, rng)
        time.sleep(0.5)
        recorder.send_signal(signal.SIGTERM)
        rc = recorder.wait(timeout_s)
        reader.join(5)
        if rc != 0:
            raise RuntimeError(f"the recorder exited {rc}:\n" + "".join(lines))
        for line in lines:
            if line.startswith("episode: "):
                return Path(line.split()[1])
        raise RuntimeError("the recorder printed no episode path:\n" + "".join(lines))
    finally:
        if recorder is not None and recorder.poll() is None:
            recorder.kill()
            recorder.wait(10)
        xvfb.stop()


def recorded_duration_s(episode_path: Path) -> float:
    """How long the person took: from the task being shown to the last recorded action."""
    from gui_agent.episode import read_episode

    episode = read_episode(episode_path)
    shown = float(episode.meta.labels.get("miniwob", {}).get("shown_t", 0.0))
    return max(step.t for step in episode.steps) - shown
