"""An RL run's checkpoints, in the format ``gui-agent train policy`` writes (``--policy pixel:CKPT`` runs them).

``<out>/policy.pt`` is the latest policy, rewritten after every update's save point: a
pixel-policy checkpoint (:mod:`gui_agent.models.pixel.checkpoint`) whose metadata says
what the RL run did (``meta["rl"]``: updates, environment steps, drops, the per-update
history) and whose resumable state holds the optimizer's. ``<out>/checkpoints/update-NNNNNN.pt``
keeps a copy every ``--checkpoint-every`` updates, without the optimizer. The policy the
run started from is copied to ``<out>/reference.pt`` once, so the KL anchor and the
workers' version 0 are the same file on every resume, wherever the original went.
"""

from __future__ import annotations

import datetime as dt
import platform
import shutil
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import torch

from gui_agent.models.pixel.checkpoint import load_checkpoint, save_checkpoint
from gui_agent.models.pixel.network import PixelPolicyNet

POLICY_FILE = "policy.pt"
REFERENCE_FILE = "reference.pt"
CHECKPOINTS_DIR = "checkpoints"
WEIGHTS_DIR = "weights"


@dataclass
class RunState:
    """What an RL run has done so far; saved in every checkpoint, restored by ``--resume``."""

    update: int = 0
    version: int = 0
    next_group: int = 0
    env_steps: int = 0
    rollouts: int = 0
    train_seconds: float = 0.0
    idle_seconds: float = 0.0
    dropped: dict[str, int] = field(default_factory=dict)
    broken_attempts: dict[str, int] = field(default_factory=dict)
    history: list[dict[str, Any]] = field(default_factory=list)

    @classmethod
    def from_meta(cls, meta: dict[str, Any]) -> RunState:
        known = {k: v for k, v in (meta.get("rl") or {}).items() if k in cls.__dataclass_fields__}
        return cls(**known)


def copy_reference(start: Path, out: Path) -> Path:
    """Copy the starting checkpoint into the run (once); returns its path there."""
    target = out / REFERENCE_FILE
    if not target.exists():
        load_checkpoint(start)  # refuse anything that is not a pixel checkpoint before copying it
        temporary = target.with_name(target.name + ".tmp")
        shutil.copyfile(start, temporary)
        temporary.replace(target)
    return target


def save_policy(out: Path, model: PixelPolicyNet, state: RunState, *, settings: dict[str, Any], optimizer: dict[str, Any],
                finished: bool, keep_copy: bool) -> Path:
    """Write ``<out>/policy.pt`` (and a numbered copy when ``keep_copy``)."""
    meta = {
        "rl": asdict(state),
        "rl_settings": settings,
        "finished": finished,
        "train_seconds": round(state.train_seconds, 1),
        "saved_at": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
        "machine": {"cpus": torch.get_num_threads(), "torch": str(torch.__version__), "python": platform.python_version()},
        "parameters": sum(p.numel() for p in model.parameters()),
    }
    path = out / POLICY_FILE
    save_checkpoint(path, model, meta, {"optimizer": optimizer.get("optimizer")})
    if keep_copy:
        save_checkpoint(out / CHECKPOINTS_DIR / f"update-{state.update:06d}.pt", model, meta, None)
    return path


def weights_path(out: Path, version: int, suffix: str = ".pt") -> Path:
    """Where the weights of ``version`` are published for the rollout workers: a file
    (``suffix`` ``.pt``, the pixel network's) or a folder (``""``, a VLM's LoRA adapter)."""
    return out / WEIGHTS_DIR / f"v{version:06d}{suffix}"


def retire_weights(out: Path, keep_from: int) -> None:
    """Remove published weights older than version ``keep_from`` (no rollout may use them any more)."""
    folder = out / WEIGHTS_DIR
    if not folder.is_dir():
        return
    for path in folder.glob("v*"):
        try:
            version = int(path.name[1:].split(".", 1)[0])
        except ValueError:
            continue
        if version < keep_from and path.is_dir():
            shutil.rmtree(path, ignore_errors=True)
        elif version < keep_from:
            path.unlink(missing_ok=True)
