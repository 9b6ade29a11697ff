"""Saving and loading pixel-policy checkpoints, with errors that say what is wrong.

A checkpoint is one ``torch.save`` file holding a plain dict: a format tag and version,
the network's sizes (:class:`NetConfig`), its weights, metadata (training time, data,
validation figures) and, while training is unfinished, the optimizer and progress needed
to resume. It is loaded with ``weights_only=True``, so a checkpoint cannot run code.
Writes go to a temporary file renamed into place: an interrupted save never leaves a
half-written checkpoint behind.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

import torch

from gui_agent.errors import PolicyCheckpointError
from gui_agent.models.pixel.network import NetConfig, PixelPolicyNet

FORMAT = "gui-agent/pixel-policy"
FORMAT_VERSION = 1


@dataclass
class Checkpoint:
    """A loaded checkpoint: the network (in eval mode), its metadata and resumable state."""

    model: PixelPolicyNet
    meta: dict[str, Any]
    training: dict[str, Any] | None


def save_checkpoint(path: str | Path, model: PixelPolicyNet, meta: dict[str, Any], training: dict[str, Any] | None = None) -> None:
    """Write ``model`` (and ``training`` state, if resumable) to ``path`` atomically."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    payload = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "config": model.config.to_dict(),
        "model": model.state_dict(),
        "meta": meta,
        "training": training,
    }
    temporary = target.with_name(target.name + ".tmp")
    torch.save(payload, temporary)
    os.replace(temporary, target)


def load_checkpoint(path: str | Path) -> Checkpoint:
    """Load a checkpoint written by :func:`save_checkpoint`.

    Raises:
        PolicyCheckpointError: the file is missing, unreadable (corrupt, not a torch file),
            another kind of checkpoint, of a newer format, or its weights do not fit.
    """
    source = Path(path)
    if not source.is_file():
        raise PolicyCheckpointError(f"{source}: no such checkpoint file")
    try:
        payload = torch.load(source, map_location="cpu", weights_only=True)
    except Exception as exc:  # noqa: BLE001 - torch raises many kinds for a damaged file
        reason = next((line.strip() for line in str(exc).splitlines() if line.strip()), "")[:200]
        raise PolicyCheckpointError(f"{source}: not a readable checkpoint (damaged or not a torch file): {type(exc).__name__}: {reason}") from None
    if not isinstance(payload, dict) or payload.get("format") != FORMAT:
        found = payload.get("format") if isinstance(payload, dict) else type(payload).__name__
        raise PolicyCheckpointError(f"{source}: not a pixel-policy checkpoint (format {found!r}, expected {FORMAT!r})")
    version = payload.get("format_version")
    if not isinstance(version, int) or version > FORMAT_VERSION:
        raise PolicyCheckpointError(f"{source}: checkpoint format version {version!r} is newer than this gui-agent reads (up to {FORMAT_VERSION})")
    config = _config(source, payload.get("config"))
    model = PixelPolicyNet(config)
    try:
        model.load_state_dict(payload["model"])
    except (RuntimeError, KeyError, TypeError) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise PolicyCheckpointError(f"{source}: weights do not fit the pixel-policy network: {first}") from None
    model.eval()
    return Checkpoint(model=model, meta=dict(payload.get("meta") or {}), training=payload.get("training"))


def _config(source: Path, raw: object) -> NetConfig:
    known = {f.name for f in fields(NetConfig)}
    if not isinstance(raw, dict) or set(raw) - known or not all(isinstance(v, int) for v in raw.values()):
        raise PolicyCheckpointError(f"{source}: network sizes missing or unknown ({raw!r}); expected integer fields {sorted(known)}")
    return NetConfig(**raw)
