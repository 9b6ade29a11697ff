"""A VLM's decision as tokens: what it was asked, the ids it sampled, and their probabilities.

The rollout side (:mod:`gui_agent.models.rl.vlm_rollout_policy`) and the learner
(:mod:`gui_agent.models.rl.vlm_learner`) score an action the same way, here, so the
importance ratio compares like with like: the prompt is rebuilt exactly as generation
built it (:func:`gui_agent.models.vlm.generation.prepare_inputs`), the sampled ids are
appended as they were generated (never re-tokenized from the text), and the logits are
divided by the sampling temperature, so the behaviour log-probability is that of the
distribution the action was really drawn from.

The log-probability of an action is the sum over its tokens; so are its KL to the
reference and its entropy (each exact over the vocabulary at every action token, along
the sampled reply).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import torch

from gui_agent.models.vlm.generation import prepare_inputs
from gui_agent.models.vlm.loading import LoadedVlm
from gui_agent.models.vlm.sft_data import with_reply


@dataclass
class VlmStep:
    """One decision of a VLM rollout.

    Attributes:
        messages: the chat turns it was asked (the SFT row builder's prompt).
        images: the screenshots of the prompt, oldest first, as RGB uint8 arrays.
        tokens: the generated ids, the end-of-turn token included when it stopped on one.
        logp: their log-probability under the weights of ``version`` (at the run's temperature).
        version: the published weights that sampled it.
    """

    messages: list[dict[str, Any]]
    images: list[np.ndarray]
    tokens: list[int]
    logp: float
    version: int


def action_logits(vlm: LoadedVlm, model: Any, step: VlmStep, temperature: float) -> torch.Tensor:
    """Logits (``len(step.tokens)`` x vocabulary, fp32, over ``temperature``) of ``model``
    at each action token's position, given the prompt and the action tokens before it."""
    inputs = prepare_inputs(vlm, step.messages, list(step.images))
    prompt_length = int(inputs["input_ids"].shape[1])
    encoded = with_reply(inputs, step.tokens)
    logits = model(**encoded).logits[0, prompt_length - 1 : prompt_length - 1 + len(step.tokens)]
    return logits.float() / temperature


def token_ids(step: VlmStep, device: Any) -> torch.Tensor:
    return torch.tensor(step.tokens, dtype=torch.long, device=device)


def sequence_logp(logits: torch.Tensor, tokens: torch.Tensor) -> torch.Tensor:
    """Sum of the log-probabilities of ``tokens`` under ``logits`` (one row per token)."""
    return torch.log_softmax(logits, dim=-1).gather(1, tokens[:, None]).sum()


def sequence_kl(logits: torch.Tensor, reference: torch.Tensor) -> torch.Tensor:
    """Sum over the action's positions of KL(policy || reference), exact over the vocabulary."""
    logp, ref = torch.log_softmax(logits, dim=-1), torch.log_softmax(reference, dim=-1)
    return (logp.exp() * (logp - ref)).sum()


def sequence_entropy(logits: torch.Tensor) -> torch.Tensor:
    """Sum over the action's positions of the policy's entropy."""
    logp = torch.log_softmax(logits, dim=-1)
    return -(logp.exp() * logp).sum()


@torch.no_grad()
def behaviour_logp(vlm: LoadedVlm, step: VlmStep, temperature: float) -> float:
    """The log-probability of ``step``'s action under ``vlm``'s current weights."""
    logits = action_logits(vlm, vlm.model, step, temperature)
    return float(sequence_logp(logits, token_ids(step, logits.device)))
