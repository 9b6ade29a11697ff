"""A VLM as a rollout policy: it samples its replies with the run's LoRA weights and remembers them.

The :class:`~gui_agent.models.rl.rollout_policy.RolloutPolicy` of an ``hf:`` model. It is
the inference policy (:class:`gui_agent.models.vlm.policy.VlmPolicy`: the SFT row
builder's prompt, the format's parser, the action history) with two differences: each
reply is *sampled* at the run's temperature, and each decision is kept as a
:class:`~gui_agent.models.rl.vlm_tokens.VlmStep` -- the prompt's messages and screenshots,
the generated ids, and their log-probability under the weights that sampled them.

A reply that does not parse ends the episode as the agent's error (as in any run), and is
still a decision: its rollout scores zero and the learner is shown what not to say.

Weights are LoRA adapters the learner published (``save_pretrained`` folders): the first
is attached with :class:`peft.PeftModel`, later ones replace its state in place.
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import torch

from gui_agent.envs.base import Observation
from gui_agent.models.rl.vlm_tokens import VlmStep, behaviour_logp
from gui_agent.models.vlm.generation import generate, to_pil
from gui_agent.models.vlm.policy import load_vlm_policy
from gui_agent.policy import PolicyOutput, TaskContext

#: What a published adapter folder holds (peft's ``save_pretrained``).
ADAPTER_WEIGHTS = "adapter_model.safetensors"


class VlmRolloutPolicy:
    """Samples an ``hf:`` VLM's actions with the run's adapter (see the module doc).

    Args:
        argument: the model, as ``hf:`` takes it (``PATH_OR_ID[?options]``).
        temperature: the sampling temperature (the learner scores at the same one).
    """

    def __init__(self, argument: str, *, temperature: float = 1.0) -> None:
        if temperature <= 0:
            raise ValueError(f"the sampling temperature must be > 0, got {temperature}")
        self.policy = load_vlm_policy(argument)
        self.vlm = self.policy.vlm
        self.temperature = temperature
        self.version = 0
        self.name = "hf-rl:v0"
        self._steps: list[VlmStep] = []

    def load_weights(self, path: str | Path | None, version: int) -> None:
        """Act with the adapter published in ``path`` (None or empty: the model without one)."""
        from peft import PeftModel, set_peft_model_state_dict
        from safetensors.torch import load_file

        model = self.vlm.model
        if path:
            folder = Path(path)
            if not (folder / ADAPTER_WEIGHTS).is_file():
                raise FileNotFoundError(f"{folder}: no published adapter ({ADAPTER_WEIGHTS})")
            if isinstance(model, PeftModel):
                set_peft_model_state_dict(model, load_file(str(folder / ADAPTER_WEIGHTS), device=str(self.vlm.device)))
                model.base_model.enable_adapter_layers()
            else:
                self.vlm.model = PeftModel.from_pretrained(model, str(folder)).to(self.vlm.device)
            self.vlm.model.eval()
        elif isinstance(model, PeftModel):
            model.base_model.disable_adapter_layers()
        self.version = version
        self.name = f"hf-rl:v{version}"

    def seed(self, seed: int) -> None:
        """Seed the sampling of the next episode (generation draws from torch's generator)."""
        torch.manual_seed(seed)

    def reset(self, task: TaskContext) -> None:
        self.policy.reset(task)
        self._steps = []

    def steps(self) -> list[VlmStep]:
        return list(self._steps)

    def act(self, observation: Observation) -> PolicyOutput:
        """Sample a reply; remember it as taken; its parsed action (ActionParseError: none parses)."""
        started = time.perf_counter()
        messages, images = self.policy.prompt(observation)
        answer = generate(self.vlm, messages, images, max_new_tokens=self.policy.settings.max_new_tokens,
                          temperature=self.temperature)
        step = VlmStep(messages=messages, images=[np.asarray(to_pil(image)) for image in images], tokens=answer.token_ids[0],
                       logp=0.0, version=self.version)
        step.logp = behaviour_logp(self.vlm, step, self.temperature)
        self._steps.append(step)
        output = self.policy.read(answer, observation)[0]
        self.policy.accept(observation, output)
        output.info = {**output.info, "logp": round(step.logp, 4), "version": self.version}
        if output.usage is not None:
            output.usage = output.usage.model_copy(update={"latency_s": round(time.perf_counter() - started, 6)})
        return output

