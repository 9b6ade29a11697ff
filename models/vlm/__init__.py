"""Transformers vision-language models as GUI policies, and their fine-tuning.

Public API (what the policy, the trainer and the reward model's judge build on)::

    from gui_agent.models.vlm import load_vlm, generate, VlmPolicy

    vlm = load_vlm("runs/my-vlm")                      # folder or hub id; bf16 on GPU, fp32 on CPU
    answer = generate(vlm, messages, [screenshot])      # chat messages in the SFT export's layout
    answer.texts[0], answer.usage                       # reply text; tokens, images, latency

Modules: :mod:`.families` (what differs per model family), :mod:`.loading` (model +
processor, clear errors), :mod:`.processors` (processors without torchvision),
:mod:`.generation` (prompt -> text; replies are read by their format, :data:`gui_agent.action_formats.FORMATS`),
:mod:`.settings` (``hf:`` spec options, the trained model's serving settings),
:mod:`.policy` (the policy), :mod:`.sft_data` / :mod:`.sft_train` (fine-tuning),
:mod:`.tiny` (tiny random models for tests). Importing this package loads neither torch
nor transformers; loading a model does.
"""

from gui_agent.models.vlm.families import FAMILIES, Family
from gui_agent.models.vlm.generation import Generation, generate, prepare_inputs, prompt_text
from gui_agent.models.vlm.loading import LoadedVlm, load_vlm
from gui_agent.models.vlm.policy import VlmPolicy, load_vlm_policy

__all__ = [
    "FAMILIES",
    "Family",
    "Generation",
    "LoadedVlm",
    "VlmPolicy",
    "generate",
    "load_vlm",
    "load_vlm_policy",
    "prepare_inputs",
    "prompt_text",
]
