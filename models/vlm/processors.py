"""Processors of each family, built without torchvision (images only).

Why this module exists: transformers 5 builds Qwen2-VL / Qwen2.5-VL processors with a video
processor, and both ``AutoProcessor.from_pretrained`` and the processor's own class check
need torchvision for it (huggingface/transformers#48558), even when no video is ever
processed. torchvision's wheel needs another torch than the one installed here, so it is
not a dependency. The processors below are the stock classes with the video processor made
optional; the image processors are the PIL ones, which resize exactly as the
torchvision ones do (``smart_resize`` for Qwen).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from transformers import Idefics3Processor, Qwen2_5_VLProcessor, Qwen2VLProcessor


class _VideoOptional:
    """Mixin: accept ``video_processor=None`` (the class check resolves it through torchvision)."""

    def check_argument_for_proper_class(self, argument_name: str, argument: Any) -> Any:
        if argument is None and argument_name == "video_processor":
            return None
        return super().check_argument_for_proper_class(argument_name, argument)  # type: ignore[misc]


class ImageOnlyQwen2VLProcessor(_VideoOptional, Qwen2VLProcessor):
    """Qwen2VLProcessor for images only; saved as a plain ``Qwen2VLProcessor``."""


class ImageOnlyQwen2_5_VLProcessor(_VideoOptional, Qwen2_5_VLProcessor):
    """Qwen2_5_VLProcessor for images only; saved as a plain ``Qwen2_5_VLProcessor``."""


_PROCESSOR_CLASSES = {
    "qwen2_vl": ImageOnlyQwen2VLProcessor,
    "qwen2_5_vl": ImageOnlyQwen2_5_VLProcessor,
    "idefics3": Idefics3Processor,
}
_STOCK_NAMES = {ImageOnlyQwen2VLProcessor.__name__: "Qwen2VLProcessor",
                ImageOnlyQwen2_5_VLProcessor.__name__: "Qwen2_5_VLProcessor"}


def make_processor(family: str, *, image_processor: Any, tokenizer: Any, chat_template: str | None, **kwargs: Any) -> Any:
    """A family's processor from its parts."""
    return _PROCESSOR_CLASSES[family](image_processor=image_processor, tokenizer=tokenizer,
                                      chat_template=chat_template, **kwargs)


def _image_processor_class(family: str) -> Any:
    if family == "idefics3":
        from transformers.models.idefics3.image_processing_pil_idefics3 import Idefics3ImageProcessorPil

        return Idefics3ImageProcessorPil
    from transformers.models.qwen2_vl.image_processing_pil_qwen2_vl import Qwen2VLImageProcessorPil

    return Qwen2VLImageProcessorPil


def load_processor(path: str, family: str, *, fallback_chat_template: str, local_files_only: bool = False) -> Any:
    """Load a family's processor from a model folder or hub id (tokenizer, PIL image processor,
    chat template, and for Idefics3 the image sequence length of ``processor_config.json``)."""
    from transformers import AutoTokenizer
    from transformers.utils import cached_file

    tokenizer = AutoTokenizer.from_pretrained(path, local_files_only=local_files_only)
    image_processor = _image_processor_class(family).from_pretrained(path, local_files_only=local_files_only)
    settings: dict[str, Any] = {}
    config_file = cached_file(path, "processor_config.json", local_files_only=local_files_only,
                              _raise_exceptions_for_missing_entries=False)
    if config_file:
        settings = json.loads(Path(config_file).read_text(encoding="utf-8"))
    extra = {"image_seq_len": settings["image_seq_len"]} if family == "idefics3" and "image_seq_len" in settings else {}
    chat_template = getattr(tokenizer, "chat_template", None) or _read_chat_template(path, local_files_only) or fallback_chat_template
    return make_processor(family, image_processor=image_processor, tokenizer=tokenizer, chat_template=chat_template, **extra)


def _read_chat_template(path: str, local_files_only: bool) -> str | None:
    from transformers.utils import cached_file

    for name in ("chat_template.jinja", "chat_template.json"):
        found = cached_file(path, name, local_files_only=local_files_only, _raise_exceptions_for_missing_entries=False)
        if found:
            text = Path(found).read_text(encoding="utf-8")
            return json.loads(text)["chat_template"] if name.endswith(".json") else text
    return None


def save_processor(processor: Any, out: str | Path) -> None:
    """Save a processor in the layout of a released model, which stock transformers (with
    torchvision) loads too: tokenizer files, ``preprocessor_config.json``,
    ``chat_template.jinja`` and ``processor_config.json`` naming the stock class.

    The Qwen parts are saved one by one: ``ProcessorMixin.save_pretrained`` touches every
    attribute, the missing video processor included.
    """
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    name = type(processor).__name__
    if name not in _STOCK_NAMES:
        processor.save_pretrained(out)
        return
    processor.tokenizer.save_pretrained(out)
    processor.image_processor.save_pretrained(out)
    if processor.chat_template:
        (out / "chat_template.jinja").write_text(processor.chat_template, encoding="utf-8")
    (out / "processor_config.json").write_text(
        json.dumps({"processor_class": _STOCK_NAMES[name]}, indent=2) + "\n", encoding="utf-8"
    )
