"""The policy side of reinforcement learning: a policy that samples, and remembers what it sampled.

:class:`RolloutPolicy` is what the rollout workers need from any trainable policy: it is
an ordinary :class:`gui_agent.policy.Policy` (so every rollout is an ordinary episode,
run by :func:`gui_agent.runner.run_episode`), it acts by *sampling*, it can take new
weights between episodes, and after an episode it hands over the decisions it took with
their log-probabilities under the weights that took them (the behaviour policy, for the
learner's importance ratio).

:class:`PixelRolloutPolicy` is the pixel network's;
:class:`gui_agent.models.rl.vlm_rollout_policy.VlmRolloutPolicy` is a VLM's: its steps
are the prompt and the sampled action tokens, its log-probability the sum over those
tokens, its weights a LoRA adapter. The learner side is
:class:`gui_agent.models.rl.learner.PolicyLearner`.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import torch

from gui_agent.actions import Action, Click, Done, Hotkey, Type
from gui_agent.envs.base import Observation
from gui_agent.episode.format import Usage
from gui_agent.models.pixel.checkpoint import load_checkpoint
from gui_agent.models.pixel.dataset import Sample, collate, instruction_tokens
from gui_agent.models.pixel.history import KINDS, History
from gui_agent.models.pixel.network import PixelPolicyNet, pixel_of
from gui_agent.models.pixel.screen import frame_tensor, screen_scale
from gui_agent.models.pixel.text import Token, encode_tokens, span_text
from gui_agent.models.rl import distribution
from gui_agent.models.rl.distribution import Choice
from gui_agent.policy import PolicyOutput, TaskContext


@dataclass
class RolloutStep:
    """One decision of a rollout: the network's input and the action taken (a
    :class:`Sample` whose targets are the sampled action), the screen as a uint8
    ``(3, H, W)`` array, and its log-probability under the weights of ``version``."""

    sample: Sample
    frame: np.ndarray
    logp: float
    version: int


class RolloutPolicy(Protocol):
    """What a rollout worker needs from a policy it trains (see the module doc)."""

    name: str
    version: int

    def reset(self, task: TaskContext) -> None: ...

    def act(self, observation: Observation) -> PolicyOutput: ...

    def load_weights(self, path: str | Path | None, version: int) -> None:
        """Act with the weights published as ``version`` in ``path`` from now on (None: the start's)."""

    def seed(self, seed: int) -> None:
        """Seed the sampling of the next episode."""

    def steps(self) -> list[Any]:
        """The decisions of the current episode so far (since the last :meth:`reset`)."""


def load_state(path: str | Path) -> dict[str, torch.Tensor]:
    """Weights published by the learner (a plain state dict, loaded without running code)."""
    return torch.load(Path(path), map_location="cpu", weights_only=True)


class PixelRolloutPolicy:
    """The pixel policy, sampling its actions (see :mod:`gui_agent.models.rl.distribution`).

    Args:
        checkpoint: the pixel checkpoint the run starts from (its network sizes and weights).
    """

    def __init__(self, checkpoint: str | Path) -> None:
        loaded = load_checkpoint(checkpoint)
        self.model: PixelPolicyNet = loaded.model.eval()
        self._initial = {k: v.clone() for k, v in self.model.state_dict().items()}
        self.version = 0
        self.name = f"pixel-rl:v{self.version}"
        self._generator = torch.Generator().manual_seed(0)
        self._instruction = ""
        self._tokens: list[Token] = instruction_tokens("")
        self._history = History()
        self._steps: list[RolloutStep] = []

    def load_weights(self, path: str | Path | None, version: int) -> None:
        self.model.load_state_dict(load_state(path) if path else self._initial)
        self.model.eval()
        self.version = version
        self.name = f"pixel-rl:v{version}"

    def seed(self, seed: int) -> None:
        self._generator.manual_seed(seed)

    def reset(self, task: TaskContext) -> None:
        self._instruction = task.instruction
        self._tokens = instruction_tokens(task.instruction)
        self._history = History()
        self._steps = []

    def steps(self) -> list[RolloutStep]:
        return list(self._steps)

    def act(self, observation: Observation) -> PolicyOutput:
        """Sample an action; remember it (and its input and log-probability) as taken."""
        started = time.perf_counter()
        if observation.instruction and not self._instruction:
            self.reset(TaskContext(task_id="", instruction=observation.instruction))
        screen_h, screen_w = observation.screenshot.shape[:2]
        scale = screen_scale(screen_h, screen_w, self.model.config.max_side)
        frame = frame_tensor(observation.screenshot, self.model.config.max_side)
        chars, words = encode_tokens(self._tokens)
        sample = Sample(
            frame=0, chars=chars, words=words, typed=self._history.typed_counts(len(self._tokens)),
            step=self._history.step_id(), previous=self._history.previous_kind,
            clicks=[(x * scale, y * scale) for x, y in self._history.clicks], kind=0, click=None, span=None, task="", group="",
        )
        batch = collate([sample], [frame])
        with torch.no_grad():
            outputs = self.model(batch["images"], batch["chars"], batch["words"], batch["typed"], batch["token_mask"],
                                 batch["step"], batch["previous"])
        choice, logp = distribution.sample(outputs, self._generator)
        columns = outputs["click"].shape[2]
        action, span = self._action(choice, columns, scale, screen_w, screen_h)
        sample.kind = choice.kind
        if choice.cell is not None:
            row, col = divmod(choice.cell, columns)
            sample.click = (pixel_of(col), pixel_of(row))
        sample.span = (choice.start, choice.end) if choice.start is not None and choice.end is not None else None
        self._steps.append(RolloutStep(sample=sample, frame=frame.numpy(), logp=logp, version=self.version))
        self._history.record(action, span)
        usage = Usage(images=1, latency_s=round(time.perf_counter() - started, 6))
        return PolicyOutput(actions=[action], thought=f"sampled {KINDS[choice.kind]} (log p {logp:.2f}, v{self.version})", usage=usage)

    def _action(self, choice: Choice, columns: int, scale: float, width: int, height: int) -> tuple[Action, tuple[int, int] | None]:
        """The canonical action of a choice, and the typed token span (for the history)."""
        kind = KINDS[choice.kind]
        if kind == "click" and choice.cell is not None:
            row, col = divmod(choice.cell, columns)
            x = min(width - 1, max(0, round(pixel_of(col) / scale)))
            y = min(height - 1, max(0, round(pixel_of(row) / scale)))
            return Click(x, y), None
        if kind == "type" and choice.start is not None and choice.end is not None:
            text = span_text(self._instruction, self._tokens, choice.start, choice.end)
            if not text:  # an empty instruction has nothing to type: the episode ends there, failed
                return Done(success=False), None
            return Type(text), (choice.start, choice.end)
        if kind == "enter":
            return Hotkey(("enter",)), None
        return Done(success=True), None
