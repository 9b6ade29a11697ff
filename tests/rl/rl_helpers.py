"""``gui-agent train rl`` as a user runs it: a real subprocess, its files read back."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import torch

from gui_agent.models.pixel.checkpoint import load_checkpoint, save_checkpoint
from gui_agent.models.pixel.policy import DEFAULT_CHECKPOINT
from tests.evaluate.eval_helpers import _as_from_a_shell, cli_env


def start_train(args: list[str], tmpdir: str) -> subprocess.Popen[str]:
    """``gui-agent train rl ARGS`` as a subprocess (stdout and stderr together, as text)."""
    return subprocess.Popen([sys.executable, "-m", "gui_agent", "train", "rl", *args], env=cli_env(tmpdir),
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, preexec_fn=_as_from_a_shell)


def jsonl(path: Path) -> list[dict]:
    if not path.exists():
        return []
    rows = []
    for line in path.read_text().splitlines():
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError:
            pass  # a line being written
    return rows


def blank_kind_checkpoint(path: Path) -> Path:
    """The shipped policy with its action-kind decision forgotten: every kind equally likely,
    'done' a little more (on click-test it ends most episodes before clicking)."""
    loaded = load_checkpoint(DEFAULT_CHECKPOINT)
    head = loaded.model.kind_head[2]
    with torch.no_grad():
        head.weight.zero_()
        head.bias.zero_()
        head.bias[3] = 1.5
    save_checkpoint(path, loaded.model, {"note": "kind head blanked for a test"})
    return path
