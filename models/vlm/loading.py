"""Loading a transformers VLM of a supported family, on the right device in the right dtype.

Every failure a user can cause is a :class:`~gui_agent.errors.ModelError` that says what
was wrong and what to do: a path that is not a model, a hub id that is not cached while
offline, a ``model_type`` no family handles (the supported ones are listed), a quantised
checkpoint that needs a GPU on a CPU-only machine, a device that does not exist.

The hub is asked last, and only when it can be reached: a local folder and the hub cache
come first, and one TCP connection says whether the hub is there at all. Left to itself,
the hub client retried for about 23 s before saying that a mistyped folder
(``runs/my-sft``, which looks like a hub id) was not a model, or that a machine without a
network had no copy of one.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gui_agent.errors import ModelError
from gui_agent.models.vlm.families import FAMILIES, Family, family_for_model_type, supported_model_types

#: Quantisation methods whose kernels run on CUDA only.
_GPU_ONLY_QUANTIZATION = ("bitsandbytes", "gptq", "awq", "fp8", "fbgemm_fp8", "aqlm", "eetq", "hqq", "exl2", "marlin")
_DTYPES = ("float32", "bfloat16", "float16")
_HUB_ID = re.compile(r"[A-Za-z0-9][\w.-]*(/[\w.-]+)?")


@dataclass
class LoadedVlm:
    """A model and its processor, ready to prompt.

    Attributes:
        model: the ``...ForConditionalGeneration`` module, in eval mode, on ``device``.
        processor: the family's processor (tokenizer, image processor, chat template).
        family: how it is prompted and read.
        source: the folder or hub id it came from.
        device: where it runs (``cpu``, ``cuda``...).
        dtype: the weights' dtype name.
    """

    model: Any
    processor: Any
    family: Family
    source: str
    device: str
    dtype: str

    @property
    def tokenizer(self) -> Any:
        return self.processor.tokenizer

    def pixel_bounds(self) -> tuple[int, int]:
        """(min_pixels, max_pixels) the image processor resizes into (Qwen families)."""
        size = self.processor.image_processor.size
        low = getattr(size, "shortest_edge", None) or getattr(size, "min_pixels", None)
        high = getattr(size, "longest_edge", None) or getattr(size, "max_pixels", None)
        if low is None or high is None:
            raise ModelError(f"{self.source}: the image processor states no min/max pixels ({size})")
        return int(low), int(high)


def _offline() -> bool:
    """HF_HUB_OFFLINE as set now (huggingface_hub reads it once, at import)."""
    return os.environ.get("HF_HUB_OFFLINE", "").strip().lower() in ("1", "true", "yes", "on")


def hub_problem() -> str | None:
    """Why the hub cannot be reached from here (one TCP connection), or None when it can."""
    from huggingface_hub import constants

    from gui_agent.models.http.probe import connection_problem

    problem = connection_problem(constants.ENDPOINT, timeout_s=HUB_PROBE_TIMEOUT_S)
    return None if problem is None else f"the hub at {constants.ENDPOINT} cannot be reached: {problem}"


#: Seconds the hub's TCP connection may take before the hub counts as unreachable.
HUB_PROBE_TIMEOUT_S = 3.0


def _cached_config(source: str) -> str | None:
    """The hub cache's copy of ``source``'s config.json, without the network (or transformers); None if there is none."""
    from huggingface_hub import try_to_load_from_cache

    try:
        found = try_to_load_from_cache(source, "config.json")
    except ValueError:  # not a valid repo id after all
        return None
    return found if isinstance(found, str) else None


def read_config(source: str, *, local_files_only: bool | None = None, offline_because: str | None = None) -> dict[str, Any]:
    """The model's ``config.json`` as a dict, from a folder, the hub cache, or the hub.

    Args:
        local_files_only: never ask the hub (also when ``HF_HUB_OFFLINE=1``).
        offline_because: why the caller knows the hub cannot be reached (said in the error).
    """
    path = Path(source).expanduser()
    if path.exists():
        if not path.is_dir():
            raise ModelError(f"{source}: not a model folder (it is a file); give the folder holding config.json")
        config_file = path / "config.json"
        if not config_file.is_file():
            raise ModelError(f"{source}: not a model: no config.json in it (a transformers model folder has config.json, "
                             "weights and its processor files)")
    elif not _HUB_ID.fullmatch(source):
        raise ModelError(f"{source}: no such folder, and not a hub id (like Qwen/Qwen2-VL-2B-Instruct)")
    else:
        found = _cached_config(source)
        if found is None:
            parent = Path(source).parent
            if parent != Path(".") and parent.expanduser().is_dir():
                raise ModelError(f"{source}: no such folder ({parent}/ is here, {source} is not), and no such model "
                                 "in the hub cache")
            if local_files_only or _offline():
                why = offline_because or ("HF_HUB_OFFLINE is set" if _offline() else "local files only")
                raise ModelError(f"{source}: no such folder, and no such model in the hub cache ({why}: only models "
                                 "already in the cache load)")
            problem = offline_because or hub_problem()
            if problem is not None:
                raise ModelError(f"{source}: no such folder, and no such model in the hub cache; {problem}. Give a model "
                                 "folder, or download the model where there is a network (it is cached for later)")
            from transformers.utils import cached_file

            try:
                found = cached_file(source, "config.json")
            except (OSError, ValueError) as exc:
                raise ModelError(f"{source}: no such folder, and no such model on the hub: {str(exc).splitlines()[0]}") from None
        if found is None:
            raise ModelError(f"{source}: the hub repo has no config.json; it is not a transformers model")
        config_file = Path(found)
    try:
        data = json.loads(config_file.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ModelError(f"{config_file}: unreadable model config ({exc})") from None
    if not isinstance(data, dict):
        raise ModelError(f"{config_file}: not a model config (expected a JSON object)")
    return data


def choose_family(config: dict[str, Any], *, source: str, override: str | None = None) -> Family:
    """The family from ``override`` or the config's ``model_type``."""
    if override is not None:
        if override not in FAMILIES:
            raise ModelError(f"unknown family {override!r}; expected one of {', '.join(FAMILIES)}")
        return FAMILIES[override]
    model_type = config.get("model_type")
    family = family_for_model_type(str(model_type)) if model_type else None
    if family is None:
        raise ModelError(
            f"{source}: model_type {model_type!r} is not supported as a policy; supported: "
            f"{', '.join(supported_model_types())} (Qwen2-VL, Qwen2.5-VL and UI-TARS built on them, Idefics3/SmolVLM). "
            "If it is built on one of these, add ?family=NAME to the spec"
        )
    return family


def choose_device(requested: str | None) -> str:
    import torch

    if requested is None:
        return "cuda" if torch.cuda.is_available() else "cpu"
    if requested.startswith("cuda") and not torch.cuda.is_available():
        raise ModelError(f"device {requested!r} asked for, but this machine has no CUDA GPU; use device=cpu")
    if not (requested == "cpu" or requested.startswith("cuda") or requested == "mps"):
        raise ModelError(f"unknown device {requested!r}; expected cpu, cuda or cuda:N")
    return requested


def choose_dtype(requested: str | None, device: str) -> str:
    """bf16 on a GPU that has it (fp16 on one without), fp32 on CPU: CPU kernels are fastest
    and exact in fp32, and small models fit."""
    import torch

    if requested is not None:
        if requested not in _DTYPES:
            raise ModelError(f"unknown dtype {requested!r}; expected one of {', '.join(_DTYPES)}")
        return requested
    if device.startswith("cuda"):
        return "bfloat16" if torch.cuda.is_bf16_supported() else "float16"
    return "float32"


def check_runs_on(config: dict[str, Any], *, source: str, device: str) -> None:
    """Refuse a checkpoint whose quantisation kernels need a GPU when there is none."""
    quant = config.get("quantization_config")
    if not quant or device.startswith("cuda"):
        return
    method = str(quant.get("quant_method", "unknown")) if isinstance(quant, dict) else "unknown"
    if method in _GPU_ONLY_QUANTIZATION or method == "unknown":
        raise ModelError(
            f"{source}: this checkpoint is quantised ({method}) and its kernels need a CUDA GPU; this run is on "
            f"{device}. Use the unquantised model, or run on a machine with a GPU (device=cuda)"
        )


def load_vlm(
    source: str,
    *,
    family: str | None = None,
    device: str | None = None,
    dtype: str | None = None,
    local_files_only: bool | None = None,
) -> LoadedVlm:
    """Load a model folder or hub id for prompting.

    Args:
        source: a folder (``config.json``, weights, processor files) or a hub id.
        family: force a family instead of the config's ``model_type``.
        device: ``cpu``, ``cuda``, ``cuda:N``; default a GPU when there is one.
        dtype: default bf16 on GPU, fp32 on CPU.
        local_files_only: never touch the network (also when ``HF_HUB_OFFLINE=1``).

    Raises:
        ModelError: see the module docstring.
    """
    # A hub id with the hub out of reach loads from the cache alone: asking the hub for
    # updates would cost its retries first.
    asks_hub = not (local_files_only or _offline() or Path(source).expanduser().exists())
    unreachable = hub_problem() if asks_hub else None
    local_files_only = bool(local_files_only) or unreachable is not None
    config = read_config(source, local_files_only=local_files_only, offline_because=unreachable)
    chosen = choose_family(config, source=source, override=family)
    device = choose_device(device)
    check_runs_on(config, source=source, device=device)
    dtype = choose_dtype(dtype, device)

    import torch
    from transformers import AutoModelForImageTextToText

    from gui_agent.models.vlm.processors import load_processor

    offline = bool(local_files_only) or _offline()
    try:
        # adapter_kwargs: transformers looks for a PEFT adapter of a hub id without passing
        # local_files_only on, and would ask the hub (with its retries) even offline.
        model = AutoModelForImageTextToText.from_pretrained(source, dtype=getattr(torch, dtype), local_files_only=offline,
                                                            adapter_kwargs={"local_files_only": offline})
        processor = load_processor(source, chosen.name, fallback_chat_template=chosen.chat_template, local_files_only=offline)
    except (OSError, ValueError, KeyError) as exc:
        raise ModelError(f"{source}: cannot load it as a {chosen.name} model: {exc}") from None
    model.to(device)
    model.eval()
    return LoadedVlm(model=model, processor=processor, family=chosen, source=source, device=device, dtype=dtype)
