"""Reward-model checkpoints: one folder, the model in one file, the training state in another.

::

    CKPT/
      reward_model.pt    format tag, network sizes, step and outcome weights, decision
                         thresholds, what it was trained on, its validation figures
      training_state.pt  optimiser states, the epoch reached, RNG state, the data's
                         fingerprint: what ``--resume`` continues from
      metrics.json       the validation figures per epoch, for people and plots

Both ``.pt`` files are written atomically (temp file + rename), so a kill mid-save leaves
the previous epoch's checkpoint intact.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import torch

from gui_agent.errors import RewardCheckpointError

MODEL_FILE = "reward_model.pt"
STATE_FILE = "training_state.pt"
METRICS_FILE = "metrics.json"
FORMAT = "gui-agent-reward-model"
#: 2: typed text is encoded by :func:`gui_agent.models.reward.encoding.typed_text_overlap` and no
#: longer read by the text encoder; a format-1 network expects the old inputs.
#: 3: the action vector also says whether typed text is a near miss of the instruction
#: (:func:`gui_agent.models.reward.encoding.typed_text_near_miss`); a format-2 network has one input fewer.
FORMAT_VERSION = 3


def _save_atomic(obj: Any, path: Path) -> None:
    tmp = path.with_name(path.name + ".tmp")
    torch.save(obj, tmp)
    os.replace(tmp, path)


def save_model(folder: Path, payload: dict[str, Any]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    _save_atomic({"format": FORMAT, "format_version": FORMAT_VERSION, **payload}, folder / MODEL_FILE)
    return folder / MODEL_FILE


def save_training_state(folder: Path, state: dict[str, Any]) -> None:
    _save_atomic(state, folder / STATE_FILE)


def write_metrics(folder: Path, history: list[dict[str, Any]]) -> None:
    tmp = folder / (METRICS_FILE + ".tmp")
    tmp.write_text(json.dumps(history, indent=1), encoding="utf-8")
    os.replace(tmp, folder / METRICS_FILE)


def model_file(path: str | Path) -> Path:
    """The model file of a checkpoint given as its folder or the file itself."""
    path = Path(path)
    file = path / MODEL_FILE if path.is_dir() else path
    if not file.exists():
        raise RewardCheckpointError(f"{path}: no reward-model checkpoint here (expected {MODEL_FILE}; train one with 'gui-agent train reward DATA --out {path}')")
    return file


def load_payload(path: str | Path) -> dict[str, Any]:
    """The model file's content, checked to be a reward model of a known format version."""
    file = model_file(path)
    try:
        payload = torch.load(file, map_location="cpu", weights_only=True)
    except Exception as exc:  # noqa: BLE001 - torch raises many kinds for a damaged file
        raise RewardCheckpointError(f"{file}: not a readable checkpoint ({type(exc).__name__}: {exc})") from None
    if not isinstance(payload, dict) or payload.get("format") != FORMAT:
        raise RewardCheckpointError(f"{file}: not a gui-agent reward-model checkpoint")
    version = payload.get("format_version", 0)
    if version > FORMAT_VERSION:
        raise RewardCheckpointError(f"{file}: written by a newer version (format {version}, this reads {FORMAT_VERSION})")
    if version < FORMAT_VERSION:
        raise RewardCheckpointError(f"{file}: format {version} encodes typed text differently from this version's {FORMAT_VERSION}; "
                                    f"retrain it: gui-agent train reward DATA --out {file.parent}")
    return payload


def load_training_state(folder: Path) -> dict[str, Any] | None:
    file = folder / STATE_FILE
    if not file.exists():
        return None
    try:
        return torch.load(file, map_location="cpu", weights_only=False)
    except Exception as exc:  # noqa: BLE001
        raise RewardCheckpointError(f"{file}: cannot resume from a damaged training state ({type(exc).__name__}: {exc})") from None
