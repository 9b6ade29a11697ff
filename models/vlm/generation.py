"""Prompting a loaded VLM with chat messages and screenshots, and reading its text back.

This is the public "ask a VLM" API that the policy and the reward model's judge share::

    vlm = load_vlm("Qwen/Qwen2-VL-2B-Instruct")
    answer = generate(vlm, messages, [screenshot], max_new_tokens=64)
    answer.texts[0], answer.usage

``messages`` are chat turns in the layout of our SFT export (:mod:`gui_agent.export.sft`):
``{"role": ..., "content": [{"type": "text", "text": ...}, {"type": "image"}]}``, one image
part per screenshot, in order. Screenshots may be PIL images or RGB uint8 arrays.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from gui_agent.episode.format import Usage
from gui_agent.models.vlm.loading import LoadedVlm


@dataclass
class Generation:
    """What one model call produced.

    Attributes:
        texts: one reply per sample, end-of-turn and padding removed.
        usage: prompt tokens (image tokens included), generated tokens (all samples), images,
            and the wall time of preprocessing plus generation.
        inputs: the processor's tensors for the prompt (``image_grid_thw`` tells the frame
            a Qwen model saw).
        token_ids: each sample's generated ids, its end-of-turn token included when it
            stopped on one (what RL scores: the text alone may tokenize otherwise).
    """

    texts: list[str]
    usage: Usage
    inputs: Any
    token_ids: list[list[int]] = field(default_factory=list)


def to_pil(image: Any) -> Any:
    """A PIL RGB image from a PIL image, an (H, W, 3) uint8 array, or ``{"bytes": PNG}``."""
    from PIL import Image

    if isinstance(image, Image.Image):
        return image.convert("RGB") if image.mode != "RGB" else image
    if isinstance(image, np.ndarray):
        return Image.fromarray(image.astype(np.uint8, copy=False)).convert("RGB")
    if isinstance(image, dict) and image.get("bytes") is not None:
        import io

        return Image.open(io.BytesIO(image["bytes"])).convert("RGB")
    raise TypeError(f"expected a PIL image, an RGB array or {{'bytes': ...}}, got {type(image).__name__}")


def prompt_text(vlm: LoadedVlm, messages: list[dict[str, Any]]) -> str:
    """The prompt as text (chat template applied, generation prompt appended)."""
    return vlm.processor.apply_chat_template(messages, add_generation_prompt=True, tokenize=False)


def prepare_inputs(vlm: LoadedVlm, messages: list[dict[str, Any]], images: list[Any]) -> Any:
    """The processor's tensors for a prompt, on the model's device."""
    text = prompt_text(vlm, messages)
    inputs = vlm.processor(text=[text], images=[to_pil(image) for image in images] or None, return_tensors="pt")
    return inputs.to(vlm.device)


def end_token_ids(vlm: LoadedVlm) -> list[int]:
    """Token ids that end a reply: the family's end of turn, and the tokenizer's eos."""
    tokenizer = vlm.tokenizer
    ids = []
    for token in (vlm.family.end_of_turn, tokenizer.eos_token):
        if token is None:
            continue
        token_id = tokenizer.convert_tokens_to_ids(token)
        if token_id is not None and token_id != tokenizer.unk_token_id and token_id not in ids:
            ids.append(token_id)
    return ids


def generate(
    vlm: LoadedVlm,
    messages: list[dict[str, Any]],
    images: list[Any],
    *,
    max_new_tokens: int = 256,
    num_samples: int = 1,
    temperature: float | None = None,
) -> Generation:
    """Greedy (``temperature`` None) or sampled replies to one prompt.

    ``num_samples`` > 1 needs a ``temperature``: greedy decoding would give N copies.
    """
    import torch

    if num_samples < 1:
        raise ValueError(f"num_samples must be at least 1, got {num_samples}")
    if num_samples > 1 and not temperature:
        raise ValueError("several samples need a temperature > 0 (greedy decoding gives one answer)")
    started = time.monotonic()
    inputs = prepare_inputs(vlm, messages, images)
    prompt_length = int(inputs["input_ids"].shape[1])
    ends = end_token_ids(vlm)
    pad = vlm.tokenizer.pad_token_id if vlm.tokenizer.pad_token_id is not None else ends[0]
    sampling: dict[str, Any] = {"do_sample": False}
    if temperature:
        sampling = {"do_sample": True, "temperature": float(temperature), "top_k": 0, "top_p": 1.0}
    with torch.inference_mode():
        output = vlm.model.generate(
            **inputs,
            max_new_tokens=max_new_tokens,
            num_return_sequences=num_samples,
            eos_token_id=ends,
            pad_token_id=pad,
            **sampling,
        )
    texts, generated, token_ids = [], 0, []
    for row in output[:, prompt_length:].tolist():
        cut = next((i for i, token in enumerate(row) if token in ends), None)
        generated += len(row) if cut is None else cut + 1
        texts.append(decode_reply(vlm, row[:cut]))
        token_ids.append(row if cut is None else row[: cut + 1])
    usage = Usage(
        input_tokens=prompt_length,
        output_tokens=generated,
        images=len(images),
        latency_s=round(time.monotonic() - started, 6),
    )
    return Generation(texts=texts, usage=usage, inputs=inputs, token_ids=token_ids)


def decode_reply(vlm: LoadedVlm, token_ids: list[int]) -> str:
    """Reply text of generated ids, special tokens kept (UI-TARS' ``<|box_start|>``) except
    padding, end of turn and eos; surrounding spaces (SmolVLM's reply prefix) removed."""
    tokenizer = vlm.tokenizer
    drop = set(end_token_ids(vlm)) | ({tokenizer.pad_token_id} if tokenizer.pad_token_id is not None else set())
    text = tokenizer.decode([t for t in token_ids if t not in drop], skip_special_tokens=False)
    return text.strip()
