"""How a VLM is served as a policy: the ``hf:`` spec's options and the file training leaves.

``--policy hf:PATH_OR_ID`` serves a model with its family's defaults; options follow a
``?``, e.g. ``hf:runs/vlm?images=2&history=3&max_new_tokens=128``:

=================  =========================================================  ============
option             meaning                                                    default
=================  =========================================================  ============
family             qwen2_vl, qwen2_5_vl or idefics3 (overrides model_type)    from config
format             reply format: uitars, uitars-v1, pyautogui                 family's
images             screenshots per prompt (the current one and N-1 before)    1
history            previous actions listed in the prompt                      5
max_new_tokens     longest reply                                              256
device             cpu, cuda, cuda:1 ...                                      cuda if any
dtype              float32, bfloat16, float16                                 bf16 on GPU,
                                                                              fp32 on CPU
=================  =========================================================  ============

``gui-agent train vlm`` writes :data:`SETTINGS_FILE` next to the model with the format,
images and history it was trained with, so ``hf:DIR`` prompts exactly as in training;
options in the spec still override it.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any

from gui_agent.errors import ModelError
from gui_agent.models import spec_options
from gui_agent.models.spec_options import Options, text, whole

#: Written by ``gui-agent train vlm`` into the model folder.
SETTINGS_FILE = "gui_agent_vlm.json"


@dataclass(frozen=True)
class ServeSettings:
    """Everything besides the weights that decides what a VLM policy asks and reads.

    ``None`` means "the default": the family's, or the machine's for device and dtype.
    """

    family: str | None = None
    format: str | None = None
    images: int = 1
    history: int = 5
    max_new_tokens: int = 256
    device: str | None = None
    dtype: str | None = None

    def merged(self, overrides: dict[str, Any]) -> ServeSettings:
        """These settings with ``overrides`` (already typed) applied."""
        return replace(self, **overrides)

    def to_json(self) -> dict[str, Any]:
        return {key: value for key, value in asdict(self).items() if key not in ("device", "dtype")}


_NAMES = [f.name for f in fields(ServeSettings)]
#: Options of ``hf:``: every :class:`ServeSettings` field.
OPTIONS: Options = {
    "family": text, "format": text, "images": whole(1), "history": whole(0), "max_new_tokens": whole(1),
    "device": text, "dtype": text,
}


def parse_spec(argument: str) -> tuple[str, dict[str, Any]]:
    """``PATH_OR_ID[?options]`` (the part after ``hf:``) -> (path or id, typed overrides)."""
    return spec_options.parse_spec(
        "hf", argument, OPTIONS,
        missing="needs a model folder or hub id, e.g. --policy hf:runs/my-vlm or hf:ByteDance-Seed/UI-TARS-1.5-7B",
    )


def read_settings(model_dir: str | Path) -> ServeSettings:
    """The settings a trained model folder records, or the defaults when it records none."""
    path = Path(model_dir) / SETTINGS_FILE
    if not path.is_file():
        return ServeSettings()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ModelError(f"{path}: unreadable ({exc}); delete it to serve the model with its family's defaults") from None
    if not isinstance(data, dict):
        raise ModelError(f"{path}: expected a JSON object")
    unknown = set(data) - set(_NAMES)
    if unknown:
        raise ModelError(f"{path}: unknown key(s) {sorted(unknown)}; expected {', '.join(_NAMES)}")
    return ServeSettings(**data)


def write_settings(model_dir: str | Path, settings: ServeSettings) -> Path:
    path = Path(model_dir) / SETTINGS_FILE
    path.write_text(json.dumps(settings.to_json(), indent=2) + "\n", encoding="utf-8")
    return path
