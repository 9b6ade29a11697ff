"""The recorder's heavy dependencies load only when a recording starts."""

from __future__ import annotations

import subprocess
import sys

HEAVY = ("pynput", "mss", "Xlib", "playwright", "av", "torch", "transformers")


def test_cli_and_recorder_imports_stay_light():
    code = ("import sys, gui_agent, gui_agent.cli, gui_agent.recorder, gui_agent.recorder.reduce, gui_agent.recorder.review, gui_agent.recorder.edit; "
            "gui_agent.cli.build_parser(); "
            f"print([m for m in {HEAVY!r} if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, env={"PATH": "/usr/bin"})
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_record_help_lists_the_controls():
    out = subprocess.run([sys.executable, "-m", "gui_agent", "record", "--help"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0
    for flag in ("--task", "--browser", "--recover", "--pause-key", "--stop-key", "--mask-title", "--success"):
        assert flag in out.stdout
