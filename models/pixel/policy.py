"""The pixel policy as a :class:`gui_agent.policy.Policy`: screenshot + instruction in, one action out.

It sees only what a person would: the screenshot, the instruction and its own previous
actions (never the DOM). Each step runs the network once and takes the most likely
action kind; a click goes to the centre of the best heatmap cell, typed text is the best
token span of the instruction.
"""

from __future__ import annotations

import time
from pathlib import Path

import torch

from gui_agent.actions import Action, Click, Done, Hotkey, Type
from gui_agent.envs.base import Observation
from gui_agent.episode.format import Usage
from gui_agent.policy import PolicyOutput, TaskContext
from gui_agent.models.pixel.checkpoint import load_checkpoint
from gui_agent.models.pixel.dataset import Sample, collate, instruction_tokens
from gui_agent.models.pixel.history import KINDS, History
from gui_agent.models.pixel.network import pixel_of
from gui_agent.models.pixel.screen import frame_tensor, screen_scale
from gui_agent.models.pixel.text import (
    MAX_SPAN_TOKENS,
    Token,
    encode_tokens,
    find_span,
    span_text,
)

#: The checkpoint shipped with gui-agent: the default policy of ``gui-agent run``.
DEFAULT_CHECKPOINT = Path(__file__).resolve().parent / "checkpoints" / "miniwob-pixel.pt"


class PixelPolicy:
    """Acts from pixels with a trained :class:`gui_agent.models.pixel.network.PixelPolicyNet`.

    A :class:`gui_agent.policy.SamplingPolicy`: :meth:`sample` gives several candidates
    from one network call (for best-of-N selection by a reward model).

    Args:
        checkpoint: a file written by ``gui-agent train policy`` (default: the shipped one).

    Raises:
        PolicyCheckpointError: the checkpoint is missing, damaged or not a pixel policy's.
    """

    def __init__(self, checkpoint: str | Path | None = None) -> None:
        self.checkpoint = Path(checkpoint) if checkpoint else DEFAULT_CHECKPOINT
        loaded = load_checkpoint(self.checkpoint)
        self.model = loaded.model
        self.meta = loaded.meta
        self.name = f"pixel:{self.checkpoint.name}"
        self._instruction = ""
        self._tokens: list[Token] = instruction_tokens("")
        self._history = History()

    def reset(self, task: TaskContext) -> None:
        self._instruction = task.instruction
        self._tokens = instruction_tokens(task.instruction)
        self._history = History()

    def act(self, observation: Observation) -> PolicyOutput:
        """The most likely action; remembered as taken."""
        output = self.sample(observation, 1)[0]
        self.accept(observation, output)
        return output

    def sample(self, observation: Observation, n: int, *, temperature: float = 1.0) -> list[PolicyOutput]:
        """Up to ``n`` distinct candidates from one network call: the most likely action
        first, then samples (kind, cell and span drawn at ``temperature``). The episode
        memory is untouched until :meth:`accept`."""
        started = time.perf_counter()
        if observation.instruction and not self._instruction:
            self.reset(TaskContext(task_id="", instruction=observation.instruction))
        screen_h, screen_w = observation.screenshot.shape[:2]
        max_side = self.model.config.max_side
        scale = screen_scale(screen_h, screen_w, max_side)
        frame = frame_tensor(observation.screenshot, max_side)
        chars, words = encode_tokens(self._tokens)
        sample = Sample(
            frame=0, chars=chars, words=words, typed=self._history.typed_counts(len(self._tokens)),
            step=self._history.step_id(), previous=self._history.previous_kind,
            clicks=[(x * scale, y * scale) for x, y in self._history.clicks], kind=0, click=None, span=None, task="", group="",
        )
        batch = collate([sample], [frame])
        with torch.no_grad():
            outputs = self.model(batch["images"], batch["chars"], batch["words"], batch["typed"], batch["token_mask"], batch["step"], batch["previous"])
        scores = {key: value[0] for key, value in outputs.items()}
        kind_probs = torch.softmax(scores["kind"], dim=0)
        info = {"kind_probs": {k: round(float(p), 4) for k, p in zip(KINDS, kind_probs)}}
        candidates = [self._greedy(kind_probs, scores, scale, screen_w, screen_h)]
        generator = torch.Generator().manual_seed(self._history.steps * 7919 + n)
        for _ in range(8 * max(0, n - 1)):
            if len(candidates) >= n:
                break
            candidate = self._sampled(scores, scale, screen_w, screen_h, max(temperature, 1e-3), generator)
            if candidate is not None and all(candidate[0] != seen[0] for seen in candidates):
                candidates.append(candidate)
        latency = round(time.perf_counter() - started, 6)
        return [PolicyOutput(actions=[action], thought=thought, usage=Usage(images=1, latency_s=latency), info=dict(info))
                for action, thought in candidates]

    def accept(self, observation: Observation, output: PolicyOutput) -> None:
        """Remember ``output`` (one of :meth:`sample`'s) as the action taken."""
        for action in output.actions:
            span = find_span(self._instruction, self._tokens, action.text) if isinstance(action, Type) else None
            self._history.record(action, span)

    def _click(self, cell: int, columns: int, scale: float, width: int, height: int) -> Click:
        row, col = divmod(cell, columns)
        x = min(width - 1, max(0, round(pixel_of(col) / scale)))
        y = min(height - 1, max(0, round(pixel_of(row) / scale)))
        return Click(x, y)

    def _greedy(self, kind_probs: torch.Tensor, scores: dict[str, torch.Tensor], scale: float, width: int, height: int) -> tuple[Action, str]:
        for kind_index in kind_probs.argsort(descending=True).tolist():
            kind = KINDS[kind_index]
            confidence = float(kind_probs[kind_index])
            if kind == "click":
                click = self._click(int(scores["click"].flatten().argmax()), scores["click"].shape[1], scale, width, height)
                return click, f"click ({click.x}, {click.y}), p(kind)={confidence:.2f}"
            if kind == "type":
                text = self._best_span(scores["start"], scores["end"])
                if text:
                    return Type(text), f"type {text!r}, p(kind)={confidence:.2f}"
                continue  # nothing typeable in the instruction: next most likely kind
            if kind == "enter":
                return Hotkey(("enter",)), f"press Enter, p(kind)={confidence:.2f}"
            return Done(success=True), f"done, p(kind)={confidence:.2f}"
        return Done(success=False), "no action fits"

    def _sampled(self, scores: dict[str, torch.Tensor], scale: float, width: int, height: int, temperature: float,
                 generator: torch.Generator) -> tuple[Action, str] | None:
        def draw(logits: torch.Tensor) -> int:
            return int(torch.multinomial(torch.softmax(logits.flatten() / temperature, dim=0), 1, generator=generator))

        kind = KINDS[draw(scores["kind"])]
        if kind == "click":
            click = self._click(draw(scores["click"]), scores["click"].shape[1], scale, width, height)
            return click, f"sampled click ({click.x}, {click.y})"
        if kind == "type":
            first = draw(scores["start"])
            last = first + draw(scores["end"][first : first + MAX_SPAN_TOKENS])
            text = span_text(self._instruction, self._tokens, first, last)
            return (Type(text), f"sampled type {text!r}") if text else None
        if kind == "enter":
            return Hotkey(("enter",)), "sampled Enter"
        return Done(success=True), "sampled done"

    def _best_span(self, start: torch.Tensor, end: torch.Tensor) -> str:
        n = len(self._tokens)
        best, best_score = None, float("-inf")
        for first in range(n):
            for last in range(first, min(n, first + MAX_SPAN_TOKENS)):
                score = float(start[first] + end[last])
                if score > best_score:
                    best, best_score = (first, last), score
        return span_text(self._instruction, self._tokens, *best) if best else ""
