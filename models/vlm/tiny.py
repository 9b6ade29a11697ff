"""Tiny, randomly initialised models of each supported family, built offline from a config.

Why: tests and benchmarks must drive the real loading, prompting, generation and training
code paths (``from_pretrained`` included) without downloading a multi-GB checkpoint. A tiny
model here is a real model of its architecture -- same classes, same processor, same chat
template -- with a few small layers and a byte-level BPE tokenizer trained on a few strings
(the prompts it will see), so it runs in milliseconds on a CPU.

    >>> from gui_agent.models.vlm.tiny import save_tiny_model
    >>> save_tiny_model("qwen2_vl", "/tmp/tiny-qwen2-vl")   # then --policy hf:/tmp/tiny-qwen2-vl

The processors are the PIL (non-torchvision) ones: torchvision is not a dependency.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from gui_agent.action_formats.image_size import UITARS_MIN_PIXELS
from gui_agent.models.vlm.families import FAMILIES, IDEFICS3_CHAT_TEMPLATE, QWEN_CHAT_TEMPLATE
from gui_agent.models.vlm.processors import make_processor, save_processor

#: Largest Qwen image, kept small so a tiny model sees at most ~400 merged image tokens.
QWEN_MAX_PIXELS = 400 * 28 * 28

_QWEN_SPECIAL = [
    "<|endoftext|>", "<|im_start|>", "<|im_end|>", "<|object_ref_start|>", "<|object_ref_end|>",
    "<|box_start|>", "<|box_end|>", "<|quad_start|>", "<|quad_end|>", "<|vision_start|>",
    "<|vision_end|>", "<|vision_pad|>", "<|image_pad|>", "<|video_pad|>",
]
_IDEFICS3_SPECIAL = [
    "<|endoftext|>", "<|im_start|>", "<end_of_utterance>", "<fake_token_around_image>", "<image>",
    "<global-img>", *[f"<row_{r}_col_{c}>" for r in range(1, 7) for c in range(1, 7)],
]

#: Text the tokenizer is trained on besides the caller's: the action vocabulary of every
#: format, so replies tokenize into few tokens.
_BASE_CORPUS = [
    (
        "Thought: click the button. Action: click(start_box='(12,34)') left_double right_single hover drag scroll "
        "hotkey(key='ctrl c') type(content='hello\\n') wait() finished(content='x') call_user()"
    ),
    (
        "pyautogui.click(12, 34) pyautogui.doubleClick pyautogui.write('abc') pyautogui.press('enter') "
        "pyautogui.hotkey('ctrl', 'a') WAIT DONE FAIL"
    ),
    (
        "click(12, 34) type(\"hello\") hotkey(\"ctrl\", \"a\") scroll(1, 2, dy=3) done(success=True) "
        "0123456789 , . ( ) ' \" : = _ - Task: Previous actions: none"
    ),
    "User: Assistant: system user assistant",
]


def train_tokenizer(family: str, texts: Iterable[str] = (), *, vocab_size: int = 4000) -> Any:
    """A byte-level BPE tokenizer (``transformers`` fast tokenizer) trained on ``texts``.

    Byte-level, so any text (instructions of unseen seeds, unicode) still tokenizes; the
    family's special tokens (image pads, vision start/end, turn ends) are single tokens.
    """
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    special = _QWEN_SPECIAL if _is_qwen(family) else _IDEFICS3_SPECIAL
    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tokenizer.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        special_tokens=special,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    tokenizer.train_from_iterator([*_BASE_CORPUS, *texts], trainer=trainer)
    if _is_qwen(family):
        return PreTrainedTokenizerFast(
            tokenizer_object=tokenizer,
            eos_token="<|im_end|>",
            pad_token="<|endoftext|>",
            extra_special_tokens={"image_token": "<|image_pad|>", "video_token": "<|video_pad|>",
                                  "vision_bos_token": "<|vision_start|>", "vision_eos_token": "<|vision_end|>"},
        )
    return PreTrainedTokenizerFast(
        tokenizer_object=tokenizer,
        bos_token="<|im_start|>",
        eos_token="<end_of_utterance>",
        pad_token="<|endoftext|>",
    )


def _is_qwen(family: str) -> bool:
    return family in ("qwen2_vl", "qwen2_5_vl")


def build_tiny(
    family: str, texts: Iterable[str] = (), *, seed: int = 0, hidden_size: int = 128, layers: int = 2
) -> tuple[Any, Any]:
    """(model, processor) of ``family`` with random weights: ``hidden_size`` wide, ``layers`` deep.

    ``texts``: strings the tokenizer is trained on (typically the prompts and replies the
    model will be trained on), besides a fixed corpus of action vocabulary.
    """
    import torch

    if family not in FAMILIES:
        raise ValueError(f"unknown family {family!r}; expected one of {', '.join(FAMILIES)}")
    torch.manual_seed(seed)
    tokenizer = train_tokenizer(family, texts)
    if family == "qwen2_vl":
        return _qwen(tokenizer, hidden_size, layers, v2_5=False)
    if family == "qwen2_5_vl":
        return _qwen(tokenizer, hidden_size, layers, v2_5=True)
    return _idefics3(tokenizer, hidden_size, layers)


def _text_config(tokenizer: Any, hidden_size: int, layers: int) -> dict[str, Any]:
    return {
        "vocab_size": len(tokenizer),
        "hidden_size": hidden_size,
        "intermediate_size": hidden_size * 2,
        "num_hidden_layers": layers,
        "num_attention_heads": 4,
        "num_key_value_heads": 2,
        "max_position_embeddings": 4096,
        "eos_token_id": tokenizer.eos_token_id,
        "pad_token_id": tokenizer.pad_token_id,
        "bos_token_id": tokenizer.bos_token_id if tokenizer.bos_token_id is not None else tokenizer.pad_token_id,
        "tie_word_embeddings": False,
    }


def _qwen(tokenizer: Any, hidden_size: int, layers: int, *, v2_5: bool) -> tuple[Any, Any]:
    from transformers import (
        Qwen2_5_VLConfig,
        Qwen2_5_VLForConditionalGeneration,
        Qwen2VLConfig,
        Qwen2VLForConditionalGeneration,
    )
    from transformers.models.qwen2_vl.image_processing_pil_qwen2_vl import Qwen2VLImageProcessorPil

    ids = {name: tokenizer.convert_tokens_to_ids(token) for name, token in (
        ("image_token_id", "<|image_pad|>"), ("video_token_id", "<|video_pad|>"),
        ("vision_start_token_id", "<|vision_start|>"), ("vision_end_token_id", "<|vision_end|>"))}
    text = _text_config(tokenizer, hidden_size, layers)
    head_dim = hidden_size // text["num_attention_heads"]
    # mrope sections split the rotary half-dimension into (temporal, height, width).
    half = head_dim // 2
    section = [half - 2 * (half // 4), half // 4, half // 4]
    text["rope_parameters"] = {"rope_type": "default", "rope_theta": 10000.0, "mrope_section": section}
    if v2_5:
        vision = {"depth": layers, "hidden_size": 32, "intermediate_size": 64, "num_heads": 2,
                  "out_hidden_size": hidden_size, "patch_size": 14, "spatial_merge_size": 2,
                  "temporal_patch_size": 2, "window_size": 56, "fullatt_block_indexes": [layers - 1]}
        config = Qwen2_5_VLConfig(text_config=text, vision_config=vision, **ids)
        model = Qwen2_5_VLForConditionalGeneration(config)
    else:
        vision = {"depth": layers, "embed_dim": 32, "hidden_size": hidden_size, "num_heads": 2, "mlp_ratio": 2,
                  "patch_size": 14, "spatial_merge_size": 2, "temporal_patch_size": 2}
        config = Qwen2VLConfig(text_config=text, vision_config=vision, **ids)
        model = Qwen2VLForConditionalGeneration(config)
    # The smallest image is UI-TARS' lower bound, so the smart_resize frame of a UI-TARS-1.5
    # reply is the one the ``uitars`` format assumes by default.
    image_processor = Qwen2VLImageProcessorPil(min_pixels=UITARS_MIN_PIXELS, max_pixels=QWEN_MAX_PIXELS)
    processor = make_processor("qwen2_5_vl" if v2_5 else "qwen2_vl", image_processor=image_processor,
                               tokenizer=tokenizer, chat_template=QWEN_CHAT_TEMPLATE)
    return model, processor


def _idefics3(tokenizer: Any, hidden_size: int, layers: int) -> tuple[Any, Any]:
    from transformers import Idefics3Config, Idefics3ForConditionalGeneration, Idefics3Processor
    from transformers.models.idefics3.image_processing_pil_idefics3 import Idefics3ImageProcessorPil

    image_size, patch_size, scale_factor = 64, 16, 2
    text = {"model_type": "llama", **_text_config(tokenizer, hidden_size, layers), "head_dim": hidden_size // 4}
    vision = {"hidden_size": 32, "intermediate_size": 64, "num_hidden_layers": layers, "num_attention_heads": 2,
              "image_size": image_size, "patch_size": patch_size}
    config = Idefics3Config(text_config=text, vision_config=vision, scale_factor=scale_factor,
                            image_token_id=tokenizer.convert_tokens_to_ids("<image>"))
    model = Idefics3ForConditionalGeneration(config)
    image_processor = Idefics3ImageProcessorPil(
        do_image_splitting=False, size={"longest_edge": image_size}, max_image_size={"longest_edge": image_size}
    )
    image_seq_len = (image_size // patch_size) ** 2 // scale_factor**2
    processor = Idefics3Processor(image_processor=image_processor, tokenizer=tokenizer, image_seq_len=image_seq_len,
                                  chat_template=IDEFICS3_CHAT_TEMPLATE)
    return model, processor


def save_tiny_model(family: str, out: str | Path, texts: Iterable[str] = (), *, seed: int = 0) -> Path:
    """Build a tiny model of ``family`` and save it (model, processor, tokenizer) in ``out``."""
    model, processor = build_tiny(family, texts, seed=seed)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(out)
    save_processor(processor, out)
    return out
