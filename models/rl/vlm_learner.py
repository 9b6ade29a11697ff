"""The learner of an ``hf:`` VLM: LoRA on the language model, trained on the action text's log-probability.

The objective is the pixel learner's, the same function
(:func:`gui_agent.models.rl.learner.clipped_objective`) on the same group-relative
advantages; only the decision's numbers come from tokens
(:mod:`gui_agent.models.rl.vlm_tokens`):

* ``log pi_theta(a|s)``: the sum over the sampled action tokens, LoRA on;
* the reference is the same model with its adapter disabled (``disable_adapter()``): the
  starting policy costs no second copy of the weights, and the KL to it is exact over the
  vocabulary at each action token, summed over the action;
* the entropy bonus is summed over the action the same way.

Prompts differ in length and image count, so each decision is its own forward pass and a
minibatch's gradients are accumulated before one optimizer step (as ``train vlm`` does).

Publishing weights is saving the adapter (``save_pretrained``) as a folder under the run's
``weights/``; the workers attach it (:mod:`gui_agent.models.rl.vlm_rollout_policy`). The
run's checkpoint is ``<out>/policy/``: the adapter, the optimizer's state and the run's
state (:meth:`VlmLearner.save`), from which ``--resume`` continues. When the run finishes,
the adapter is also merged into the model and saved as ``<out>/model/``, a plain
transformers model that ``--policy hf:<out>/model`` serves (as ``train vlm --lora`` does).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import os
import random
import shutil
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

import torch

from gui_agent.models.rl.checkpoints import CHECKPOINTS_DIR, RunState
from gui_agent.models.rl.groups import TrainGroup
from gui_agent.models.rl.learner import LearnerConfig, clipped_objective
from gui_agent.models.rl.starts import VLM_PREFIX
from gui_agent.models.rl.vlm_rollout_policy import ADAPTER_WEIGHTS
from gui_agent.models.rl.vlm_tokens import VlmStep, action_logits, sequence_entropy, sequence_kl, sequence_logp, token_ids
from gui_agent.models.vlm.loading import LoadedVlm
from gui_agent.models.vlm.settings import ServeSettings

#: The run's latest VLM policy: adapter, optimizer, run state.
POLICY_DIR = "policy"
#: The finished run's policy, merged: a plain model folder (``--policy hf:<out>/model``).
MODEL_DIR = "model"
STATE_FILE = "rl_state.json"
OPTIMIZER_FILE = "optimizer.pt"


class VlmLearner:
    """Trains ``vlm.model``'s LoRA adapter (a peft model); see the module doc.

    Args:
        vlm: the model with its adapter attached (:func:`load_for_training`).
        temperature: the rollouts' sampling temperature; actions are scored at it.
    """

    #: Published weights are a folder (an adapter), not a file.
    weights_suffix = ""

    def __init__(self, vlm: LoadedVlm, config: LearnerConfig, *, temperature: float = 1.0,
                 settings: ServeSettings | None = None) -> None:
        self.vlm, self.model, self.config, self.temperature = vlm, vlm.model, config, temperature
        self.settings = settings or ServeSettings()
        self.parameters = [p for p in self.model.parameters() if p.requires_grad]
        self.optimizer = torch.optim.Adam(self.parameters, lr=config.lr)
        self.model.eval()  # no dropout: the learner scores actions as the rollouts did

    def publish(self, path: str | Path) -> None:
        """Save the adapter as the folder ``path`` (written beside it, then renamed into place)."""
        _save_adapter(self.model, Path(path))

    def state(self) -> dict[str, Any]:
        return {"optimizer": self.optimizer.state_dict()}

    def load_state(self, state: dict[str, Any]) -> None:
        if state.get("optimizer"):
            self.optimizer.load_state_dict(state["optimizer"])

    def save(self, out: Path, state: RunState, *, settings: dict[str, Any], finished: bool, keep_copy: bool) -> Path:
        """Write ``<out>/policy/`` (and a numbered copy, without the optimizer, when ``keep_copy``);
        when ``finished``, also the merged model (the learner is done then: its adapter is merged away)."""
        meta = {"rl": asdict(state), "rl_settings": settings, "finished": finished, "train_seconds": round(state.train_seconds, 1),
                "saved_at": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
                "trainable_parameters": sum(p.numel() for p in self.parameters)}
        folder = out / POLICY_DIR
        _save_adapter(self.model, folder, meta=meta, optimizer=self.state())
        if keep_copy:
            _save_adapter(self.model, out / CHECKPOINTS_DIR / f"update-{state.update:06d}", meta=meta)
        if finished:
            self._export(out / MODEL_DIR)
        return folder

    def _export(self, target: Path) -> None:
        """The adapter merged into the weights, saved with the processor and serving settings."""
        from gui_agent.models.vlm.processors import save_processor
        from gui_agent.models.vlm.settings import write_settings

        temporary = target.with_name(target.name + ".tmp")
        shutil.rmtree(temporary, ignore_errors=True)
        merged = self.model.merge_and_unload()
        merged.save_pretrained(str(temporary))
        save_processor(self.vlm.processor, temporary)
        write_settings(temporary, self.settings)
        shutil.rmtree(target, ignore_errors=True)
        os.replace(temporary, target)

    def update(self, groups: list[TrainGroup], rng: random.Random) -> dict[str, float]:
        """See :meth:`gui_agent.models.rl.learner.PolicyLearner.update`; uninformative groups are skipped."""
        decisions = [(step, advantage) for group in groups if group.informative
                     for rollout, advantage in zip(group.rollouts, group.advantages) for step in rollout.steps]
        if not decisions:
            return {"decisions": 0}
        totals: dict[str, float] = {}
        steps = 0
        for _ in range(self.config.epochs):
            order = list(range(len(decisions)))
            rng.shuffle(order)
            for begin in range(0, len(order), self.config.minibatch):
                figures = self._step([decisions[i] for i in order[begin : begin + self.config.minibatch]])
                for key, value in figures.items():
                    totals[key] = totals.get(key, 0.0) + value
                steps += 1
        return {"decisions": len(decisions), "grad_steps": steps, **{k: round(v / steps, 5) for k, v in totals.items()}}

    def _step(self, chunk: list[tuple[VlmStep, float]]) -> dict[str, float]:
        """One optimizer step on ``chunk``, its gradient accumulated one decision at a time."""
        self.optimizer.zero_grad(set_to_none=True)
        sums: dict[str, float] = {}
        for step, advantage in chunk:
            with _autocast(self.vlm.device):
                logits = action_logits(self.vlm, self.model, step, self.temperature)
                with torch.no_grad(), self.model.disable_adapter():
                    reference = action_logits(self.vlm, self.model, step, self.temperature)
            tokens = token_ids(step, logits.device)
            device = logits.device
            loss, figures = clipped_objective(
                sequence_logp(logits, tokens)[None], torch.tensor([step.logp], device=device),
                torch.tensor([advantage], dtype=torch.float32, device=device), sequence_kl(logits, reference)[None],
                sequence_entropy(logits)[None], self.config)
            (loss / len(chunk)).backward()
            for key, value in {"loss": loss.item(), **figures}.items():
                sums[key] = sums.get(key, 0.0) + value / len(chunk)
        norm = torch.nn.utils.clip_grad_norm_(self.parameters, self.config.max_grad_norm)
        self.optimizer.step()
        return {**sums, "grad_norm": float(norm)}


def _autocast(device: str) -> Any:
    """bf16 autocast on a GPU (weights stay fp32, as ``train vlm`` trains them); none on a CPU."""
    return torch.autocast("cuda", dtype=torch.bfloat16) if device.startswith("cuda") else contextlib.nullcontext()


def _save_adapter(model: Any, target: Path, *, meta: dict[str, Any] | None = None, optimizer: dict[str, Any] | None = None) -> None:
    """The adapter (and the run's state) as the folder ``target``, replaced whole: a reader
    sees the old folder or the new one."""
    target.parent.mkdir(parents=True, exist_ok=True)
    temporary = target.with_name(target.name + ".tmp")
    shutil.rmtree(temporary, ignore_errors=True)
    model.save_pretrained(str(temporary))
    if meta is not None:
        (temporary / STATE_FILE).write_text(json.dumps(meta, indent=1, default=str) + "\n", encoding="utf-8")
    if optimizer is not None:
        torch.save(optimizer, temporary / OPTIMIZER_FILE)
    if target.exists():
        old = target.with_name(target.name + ".old")
        shutil.rmtree(old, ignore_errors=True)
        os.replace(target, old)
        os.replace(temporary, target)
        shutil.rmtree(old, ignore_errors=True)
    else:
        os.replace(temporary, target)


def load_for_training(start: str, *, lora_rank: int) -> tuple[LoadedVlm, ServeSettings]:
    """The ``hf:`` model of ``start`` in fp32 with a fresh LoRA adapter (its B matrices are
    zero: the adapter starts as the identity, the policy as the model), and its serving settings."""
    from gui_agent.models.vlm.loading import load_vlm
    from gui_agent.models.vlm.settings import parse_spec, read_settings
    from gui_agent.models.vlm.sft_train import apply_lora

    source, overrides = parse_spec(start[len(VLM_PREFIX):])
    settings = (read_settings(source) if Path(source).is_dir() else ServeSettings()).merged(overrides)
    vlm = load_vlm(source, family=settings.family, device=settings.device, dtype="float32")
    apply_lora(vlm, lora_rank)
    return vlm, replace(settings, family=vlm.family.name)


def start_vlm_learner(start: str, out: Path, config: LearnerConfig, *, lora_rank: int, temperature: float,
                      resume: bool) -> tuple[RunState, VlmLearner]:
    """The learner of a run from ``start`` (``hf:...``), and the run's state: the saved
    ones in ``<out>/policy/`` when resuming, else new."""
    from peft import set_peft_model_state_dict
    from safetensors.torch import load_file

    vlm, settings = load_for_training(start, lora_rank=lora_rank)
    learner = VlmLearner(vlm, config, temperature=temperature, settings=settings)
    folder = out / POLICY_DIR
    if not (resume and (folder / STATE_FILE).is_file()):  # a new run, or one killed before its first save
        return RunState(), learner
    set_peft_model_state_dict(vlm.model, load_file(str(folder / ADAPTER_WEIGHTS), device=str(vlm.device)))
    if (folder / OPTIMIZER_FILE).is_file():
        learner.load_state(torch.load(folder / OPTIMIZER_FILE, map_location=vlm.device, weights_only=True))
    return RunState.from_meta(json.loads((folder / STATE_FILE).read_text(encoding="utf-8"))), learner
