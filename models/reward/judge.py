"""Judges: a success verdict for an episode whose task has no programmatic evaluator.

Two kinds, one interface (:class:`Judge`), chosen by a spec (:func:`load_judge`):

* ``CKPT`` -- a trained reward model (:class:`RewardModelJudge`): P(success) from its
  outcome scorer, against the threshold stored in the checkpoint.
* ``hf:MODEL[?votes=5&temperature=0.7&family=...&device=...&dtype=...&max_new_tokens=8]``
  -- any transformers VLM the VLM policy can load (:class:`VlmJudge`), asked "did the
  agent complete the task? YES or NO" with the first, the last-but-one and the final
  screenshots; ``votes`` sampled replies are counted and the majority wins (a tie or no
  readable vote is a failure). The model is not called at all when the screen did not
  change between the first and the final frame: nothing happened, so the task, which
  asks for something to be done, was not done (the verdict says it was skipped).

:meth:`VlmJudge.judge_step` does the same for one step (did it make progress?): an
unchanged screen is "no progress" without a model call.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from gui_agent.actions import Action, action_to_text
from gui_agent.errors import ModelError, RewardDataError
from gui_agent.models.reward.transitions import episode_trajectory, screen_changed
from gui_agent.models.spec_options import Options, number, parse_spec, text, whole

_VOTE = re.compile(r"\b(yes|no)\b", re.IGNORECASE)


@dataclass
class Verdict:
    """A judge's answer. ``score`` is P(success) (reward model) or the share of YES votes (VLM)."""

    success: bool
    score: float
    judge: str
    detail: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"success": self.success, "score": round(self.score, 4), "judge": self.judge, **self.detail}


class Judge(Protocol):
    name: str

    def judge_episode(self, path: str | Path) -> Verdict:
        """The verdict on a finished episode folder."""


class RewardModelJudge:
    """A trained reward model's outcome scorer as a judge."""

    def __init__(self, model: Any, name: str) -> None:
        self.model = model
        self.name = name

    def judge_episode(self, path: str | Path) -> Verdict:
        frames, actions, instruction = episode_trajectory(path)
        score = self.model.score_outcome(frames, actions, instruction)
        return Verdict(success=score >= self.model.outcome_threshold, score=score, judge=self.name,
                       detail={"threshold": self.model.outcome_threshold})


def count_votes(replies: Sequence[str]) -> tuple[int, int]:
    """(yes, no) among replies; a reply's first YES/NO word is its vote, a reply with neither abstains."""
    yes = no = 0
    for reply in replies:
        match = _VOTE.search(reply)
        if match is None:
            continue
        if match.group(1).lower() == "yes":
            yes += 1
        else:
            no += 1
    return yes, no


@dataclass(frozen=True)
class VlmJudgeSettings:
    votes: int = 5
    temperature: float = 0.7
    max_new_tokens: int = 8
    family: str | None = None
    device: str | None = None
    dtype: str | None = None


#: Options of an ``hf:`` judge: every :class:`VlmJudgeSettings` field.
OPTIONS: Options = {
    "votes": whole(1), "temperature": number(0), "max_new_tokens": whole(1), "family": text, "device": text, "dtype": text,
}


def _parse_spec(spec: str) -> tuple[str, VlmJudgeSettings]:
    """(model folder or id, settings) of an ``hf:MODEL[?options]`` judge spec."""
    source, values = parse_spec("hf", spec.removeprefix("hf:"), OPTIONS, noun="judge option",
                                missing="needs a model folder or hub id, e.g. --judge hf:Qwen/Qwen2-VL-2B-Instruct?votes=5")
    settings = VlmJudgeSettings(**values)
    if settings.votes > 1 and settings.temperature == 0:
        raise ModelError(f"{spec}: {settings.votes} votes need temperature > 0 (greedy decoding gives one answer {settings.votes} times)")
    return source, settings


class VlmJudge:
    """A transformers VLM asked for a YES/NO verdict, with ``votes`` sampled replies counted.

    Attributes:
        calls: model calls made so far (skipped judgements make none).
    """

    def __init__(self, vlm: Any, settings: VlmJudgeSettings, name: str) -> None:
        self.vlm = vlm
        self.settings = settings
        self.name = name
        self.calls = 0

    def _ask(self, question: str, images: list[np.ndarray]) -> tuple[int, int, list[str], dict[str, Any]]:
        from gui_agent.models.vlm.generation import generate

        votes = self.settings.votes
        reply = generate(self.vlm, self.messages(question, len(images)), images, max_new_tokens=self.settings.max_new_tokens,
                         num_samples=votes, temperature=self.settings.temperature if votes > 1 else None)
        self.calls += 1
        yes, no = count_votes(reply.texts)
        usage = reply.usage.model_dump(exclude_none=True) if hasattr(reply.usage, "model_dump") else {}
        return yes, no, reply.texts, usage

    def _verdict(self, yes: int, no: int, replies: list[str], usage: dict[str, Any]) -> Verdict:
        return Verdict(success=yes > no, score=yes / (yes + no) if yes + no else 0.0, judge=self.name,
                       detail={"votes": {"yes": yes, "no": no, "abstain": len(replies) - yes - no}, "replies": replies, "usage": usage})

    @staticmethod
    def outcome_question(frames: list[np.ndarray], actions: list[Action], instruction: str) -> tuple[str, list[np.ndarray]]:
        """The question and the screenshots shown for an outcome (first, last-but-one, final)."""
        shown = [frames[0]] + ([frames[-2]] if len(frames) > 2 else []) + [frames[-1]]
        listed = "\n".join(f"{i + 1}. {action_to_text(a)}" for i, a in enumerate(actions[-20:])) or "(none)"
        question = (f"A computer-use agent was given this task: {instruction}\nIts actions, in order:\n{listed}\n"
                    "The screenshots show the screen before its first action, before its last action, and at the end. "
                    "Did the agent complete the task?")
        return question, shown

    @staticmethod
    def messages(question: str, images: int) -> list[dict[str, Any]]:
        """The chat turn asking ``question`` about ``images`` screenshots (the VLM helper's message layout)."""
        content: list[dict[str, Any]] = [{"type": "text", "text": question}]
        content += [{"type": "image"} for _ in range(images)]
        content.append({"type": "text", "text": "Answer with one word: YES or NO."})
        return [{"role": "user", "content": content}]

    def judge_outcome(self, frames: list[np.ndarray], actions: list[Action], instruction: str) -> Verdict:
        """Was the task done? ``frames`` from the first screen to the final one."""
        if not frames:
            raise RewardDataError("a trajectory to judge needs at least one screen")
        if not any(screen_changed(frames[0], f) for f in frames[1:]):
            return Verdict(success=False, score=0.0, judge=self.name,
                           detail={"skipped": "the screen never changed, so nothing was done; the model was not asked"})
        return self._verdict(*self._ask(*self.outcome_question(frames, actions, instruction)))

    def judge_step(self, before: np.ndarray, action: Action, after: np.ndarray, instruction: str) -> Verdict:
        """Did this step make progress on the task? An unchanged screen is 'no' without asking the model."""
        if not screen_changed(before, after):
            return Verdict(success=False, score=0.0, judge=self.name,
                           detail={"skipped": "the screen did not change; the model was not asked"})
        question = (f"A computer-use agent works on this task: {instruction}\nIt did: {action_to_text(action)}\n"
                    "The screenshots show the screen before and after. Did this action make progress on the task?")
        return self._verdict(*self._ask(question, [before, after]))

    def judge_episode(self, path: str | Path) -> Verdict:
        return self.judge_outcome(*episode_trajectory(path))


def load_judge(spec: str) -> Judge:
    """A judge from its spec: a reward-model checkpoint folder, or ``hf:MODEL[?options]`` (see the module docstring).

    Raises:
        RewardCheckpointError: the checkpoint is missing or damaged.
        ModelError: the VLM cannot be loaded, or an option is wrong.
    """
    if spec.startswith("hf:"):
        source, settings = _parse_spec(spec)
        from gui_agent.models.vlm.loading import load_vlm

        vlm = load_vlm(source, family=settings.family, device=settings.device, dtype=settings.dtype)
        return VlmJudge(vlm, settings, name=f"vlm:{source}")
    from gui_agent.models.reward.model import RewardModel

    return RewardModelJudge(RewardModel.load(spec), name=f"reward-model:{spec}")


def check_judge(spec: str) -> None:
    """Fail fast, before any episode runs, on a judge spec that cannot work (cheap: loads no weights).

    Raises:
        RewardCheckpointError: a checkpoint path that is missing or not a reward model.
        ModelError: an ``hf:`` model folder/id that is not a model, or a bad option.
    """
    if spec.startswith("hf:"):
        source, settings = _parse_spec(spec)
        from gui_agent.models.vlm.loading import choose_family, read_config

        choose_family(read_config(source), source=source, override=settings.family)
        return
    from gui_agent.models.reward.checkpoint import load_payload

    payload = load_payload(spec)
    if payload.get("outcome_state") is None:
        from gui_agent.errors import RewardCheckpointError

        raise RewardCheckpointError(f"{spec}: has no outcome scorer, which a judge needs (train it on data with outcomes.jsonl)")
