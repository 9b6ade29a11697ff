"""The model families a transformers VLM policy supports, and what differs between them.

A family fixes how a model is prompted and how its reply is read:

=============  =======================  ==================  ==============================
family         ``model_type`` (config)  reply format        coordinates
=============  =======================  ==================  ==============================
qwen2_vl       qwen2_vl                 ``uitars-v1``       relative 0..1000 (UI-TARS v1)
qwen2_5_vl     qwen2_5_vl               ``uitars``          pixels of the smart_resize'd
                                                            image (UI-TARS-1.5)
idefics3       idefics3 (SmolVLM)       ``pyautogui``       pixels of the screenshot
=============  =======================  ==================  ==============================

UI-TARS and the other GUI models built on Qwen2-VL / Qwen2.5-VL are these families; the
reply formats are registered ones (:data:`gui_agent.action_formats.FORMATS`, those the SFT
export writes), so a model fine-tuned on our export answers in the form this policy parses,
and the format says how the screenshot is sized and the reply read. Idefics3 / SmolVLM answer
in OSWorld's pyautogui code (``Thought: ...`` then ``Action: pyautogui.click(12, 34)``):
code is what small general VLMs have seen most of, and it needs no special tokens.
"""

from __future__ import annotations

from dataclasses import dataclass

#: Qwen2-VL's chat template (the released one): system turn, ``<|vision_start|><|image_pad|>
#: <|vision_end|>`` per image, ``<|im_start|>assistant\n`` to generate.
QWEN_CHAT_TEMPLATE = (
    "{% set image_count = namespace(value=0) %}{% set video_count = namespace(value=0) %}"
    "{% for message in messages %}{% if loop.first and message['role'] != 'system' %}"
    "<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n{% endif %}"
    "<|im_start|>{{ message['role'] }}\n{% if message['content'] is string %}{{ message['content'] }}<|im_end|>\n"
    "{% else %}{% for content in message['content'] %}"
    "{% if content['type'] == 'image' or 'image' in content or 'image_url' in content %}"
    "{% set image_count.value = image_count.value + 1 %}{% if add_vision_id %}Picture {{ image_count.value }}: {% endif %}"
    "<|vision_start|><|image_pad|><|vision_end|>"
    "{% elif content['type'] == 'video' or 'video' in content %}{% set video_count.value = video_count.value + 1 %}"
    "{% if add_vision_id %}Video {{ video_count.value }}: {% endif %}<|vision_start|><|video_pad|><|vision_end|>"
    "{% elif 'text' in content %}{{ content['text'] }}{% endif %}{% endfor %}<|im_end|>\n{% endif %}{% endfor %}"
    "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)

#: SmolVLM-Instruct's chat template (Idefics3 architecture): ``User:<image>text<end_of_utterance>``.
IDEFICS3_CHAT_TEMPLATE = (
    "<|im_start|>{% for message in messages %}{{ message['role'] | capitalize }}"
    "{% if message['content'][0]['type'] == 'image' %}{{ ':' }}{% else %}{{ ': ' }}{% endif %}"
    "{% for line in message['content'] %}{% if line['type'] == 'text' %}{{ line['text'] }}"
    "{% elif line['type'] == 'image' %}{{ '<image>' }}{% endif %}{% endfor %}<end_of_utterance>\n"
    "{% endfor %}{% if add_generation_prompt %}{{ 'Assistant:' }}{% endif %}"
)


@dataclass(frozen=True)
class Family:
    """What a model family needs to be prompted, trained and read.

    Attributes:
        name: the family's name (the ``family=`` override of an ``hf:`` spec).
        model_types: the ``model_type`` values of configs of this family.
        action_format: the name of the registered reply format it is prompted for and
            parsed with (:data:`gui_agent.action_formats.FORMATS`).
        end_of_turn: the token that ends an assistant turn: generation stops there and
            training appends it to every reply.
        reply_prefix: text between the generation prompt and the reply as the family's
            template writes a finished turn (SmolVLM writes ``Assistant: text``).
        chat_template: used when the model's processor has none.
    """

    name: str
    model_types: tuple[str, ...]
    action_format: str
    end_of_turn: str
    reply_prefix: str
    chat_template: str


FAMILIES: dict[str, Family] = {
    "qwen2_vl": Family("qwen2_vl", ("qwen2_vl",), "uitars-v1", "<|im_end|>", "", QWEN_CHAT_TEMPLATE),
    "qwen2_5_vl": Family("qwen2_5_vl", ("qwen2_5_vl",), "uitars", "<|im_end|>", "", QWEN_CHAT_TEMPLATE),
    "idefics3": Family("idefics3", ("idefics3",), "pyautogui", "<end_of_utterance>", " ", IDEFICS3_CHAT_TEMPLATE),
}


def supported_model_types() -> list[str]:
    """Every ``model_type`` some family handles, sorted (for error messages)."""
    return sorted(t for family in FAMILIES.values() for t in family.model_types)


def family_for_model_type(model_type: str) -> Family | None:
    """The family of a config's ``model_type``, or None when no family handles it."""
    for family in FAMILIES.values():
        if model_type in family.model_types:
            return family
    return None
