"""Training the reward model: step scorer and outcome scorer, one loop, resumable.

Validation holds out whole *tasks* (``val_tasks``), because the question a reward model
must answer is whether it judges tasks it never saw. Each epoch ends with a checkpoint
(:mod:`gui_agent.models.reward.checkpoint`); ``resume=True`` continues from the last one, refusing
data that differs from what it was trained on. The decision thresholds stored in the
checkpoint are fixed at even odds (:data:`DECISION_THRESHOLD`), never tuned on validation tasks.

While training the step scorer, a quarter of the transitions have their after-screen
hidden (``after_known`` 0), so that the same network can rank actions before they are
taken (:class:`gui_agent.models.reward.best_of.BestOfNPolicy`). While training the outcome scorer, a
quarter of the trajectories have their last action's effect hidden (:func:`_hide_last_effect`),
so that an episode whose last action changed nothing on screen is judged by what that action was.
"""

from __future__ import annotations

import hashlib
import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from gui_agent.errors import RewardCheckpointError, RewardDataError
from gui_agent.models.reward.checkpoint import (
    load_training_state,
    save_model,
    save_training_state,
    write_metrics,
)
from gui_agent.models.reward.data import OutcomeExample, RewardData, StepExample
from gui_agent.models.reward.metrics import binary_scores
from gui_agent.models.reward.network import (
    NetConfig,
    OutcomeNet,
    StepNet,
    collate_trajectories,
    collate_transitions,
    progress_probability,
    step_scores,
)
from gui_agent.models.reward.transitions import CHANGE_THRESHOLD, LAST_STEPS

#: Share of step transitions trained with the after-screen hidden.
HIDE_AFTER = 0.25
#: Share of trajectories trained with their last action's effect hidden (see :func:`_hide_last_effect`).
HIDE_LAST_EFFECT = 0.25
#: P(progress) / P(success) at which a step / trajectory counts as positive. The losses are
#: class-balanced, so 0.5 is the even odds point; it is not tuned on any evaluation data.
DECISION_THRESHOLD = 0.5


@dataclass
class TrainOptions:
    """Settings of :func:`train_reward_model`.

    Attributes:
        out: the checkpoint folder.
        epochs: passes over the training examples. 3 by default: on tasks it never saw, the
            model grows more pessimistic with every pass while ranking no better, so
            fewer passes judge a new kind of task better (``scripts/bench_reward.py --cv 5``:
            outcome F1 0.772 after 8 passes, 0.804 after 3).
        batch_size / lr / weight_decay: the optimiser's.
        val_tasks: task ids kept out of training and used for validation.
        seed: seeds shuffling and initialisation.
        resume: continue from ``out``'s training state.
        threads: torch CPU threads (None: torch's default).
        config: network sizes.
    """

    out: Path
    epochs: int = 3
    batch_size: int = 32
    lr: float = 2e-3
    weight_decay: float = 1e-4
    val_tasks: list[str] = field(default_factory=list)
    seed: int = 0
    resume: bool = False
    threads: int | None = None
    config: NetConfig = field(default_factory=NetConfig)


@dataclass
class TrainResult:
    checkpoint: Path
    epochs_run: int
    seconds: float
    history: list[dict[str, Any]]
    train_tasks: list[str]
    val_tasks: list[str]


#: Progress callback: (done batches, total batches, text describing the current state).
ProgressFn = Callable[[int, int, str], None]


def _fingerprint(data: RewardData) -> str:
    digest = hashlib.sha256()
    for e in data.steps:
        digest.update(f"s|{e.sample_id}|{e.label}\n".encode())
    for o in data.outcomes:
        digest.update(f"o|{o.sample_id}|{int(o.success)}\n".encode())
    return digest.hexdigest()[:16]


def _hide_after(batch: dict[str, torch.Tensor], rows: torch.Tensor) -> None:
    """Make ``rows`` of a transition batch look like 'action not taken yet' (as encode_transition does)."""
    batch["after"][rows] = batch["before"][rows]
    batch["glimpse_after"][rows] = batch["glimpse_before"][rows]
    batch["after_known"][rows] = 0.0
    batch["change"][rows] = 0.0


def _hide_last_effect(batch: dict[str, Any], rows: torch.Tensor) -> None:
    """Make ``rows`` of a trajectory batch look as if their last action changed nothing on screen.

    Why: an episode can end on an action whose effect is never drawn (a link whose click
    ends the task, a submit button), so its outcome must be judged from *what* was done,
    not from what appeared. In training data such successes are rare (4 of the 717
    unchanged-screen episodes of the benchmark's 55 earlier MiniWoB++ tasks), so a network
    learns "nothing changed at the end means failure" and misjudges every task that ends
    that way (click-link: all 59 successes). Hiding the last effect keeps
    the label (the action was taken either way) and leaves only what was clicked or
    typed to tell success from failure.

    The counts follow :func:`gui_agent.models.reward.transitions.encode_trajectory`'s definitions (a
    change there must change them here; the test compares the two); "first and final screen
    differ" is read off the thumbnails, as the full screens are not in the batch.
    """
    steps = batch["steps"]
    last = torch.nonzero(rows).squeeze(1) * LAST_STEPS + (LAST_STEPS - 1)
    steps["after"][last] = steps["before"][last]
    steps["glimpse_after"][last] = steps["glimpse_before"][last]
    last_changed = steps["change"][last, 0].clone()
    steps["change"][last] = 0.0
    batch["final"][rows] = steps["before"][last]
    first, final = batch["first"][rows], batch["final"][rows]
    stats = batch["stats"]
    length = torch.expm1(stats[rows, 0] * 3.0).round().clamp(min=1.0)
    stats[rows, 1] = stats[rows, 1] + last_changed / length
    stats[rows, 2] = ((final - first).abs() > CHANGE_THRESHOLD / 255.0).flatten(1).any(1).float()


def _batches(items: list, size: int, rng: random.Random) -> list[list]:  # type: ignore[type-arg]
    order = list(items)
    rng.shuffle(order)
    return [order[i:i + size] for i in range(0, len(order), size)]


def predict_steps(net: StepNet, examples: list[StepExample], batch_size: int = 64, *, progress: bool = False) -> list[float]:
    """Step scores (expected reward), or P(progress) with ``progress=True``, of examples in order."""
    net.eval()
    out: list[float] = []
    with torch.inference_mode():
        for start in range(0, len(examples), batch_size):
            chunk = examples[start:start + batch_size]
            logits = net(collate_transitions([e.arrays for e in chunk]))
            out += (progress_probability(logits) if progress else step_scores(logits)).tolist()
    return out


def predict_outcomes(net: OutcomeNet, examples: list[OutcomeExample], batch_size: int = 32) -> list[float]:
    """P(success) of examples, in order."""
    net.eval()
    out: list[float] = []
    with torch.inference_mode():
        for start in range(0, len(examples), batch_size):
            chunk = examples[start:start + batch_size]
            out += torch.sigmoid(net(collate_trajectories([e.arrays for e in chunk]))).tolist()
    return out


def evaluate_split(step_net: StepNet | None, outcome_net: OutcomeNet | None, data: RewardData, *, step_threshold: float,
                   outcome_threshold: float) -> dict[str, Any]:
    """Step F1 (progress vs the rest) and outcome F1 (success) of the nets on ``data``."""
    result: dict[str, Any] = {}
    if step_net is not None and data.steps:
        scores = predict_steps(step_net, data.steps, progress=True)
        result["step"] = binary_scores([s >= step_threshold for s in scores], [e.label == 0 for e in data.steps]).to_dict()
    if outcome_net is not None and data.outcomes:
        probs = predict_outcomes(outcome_net, data.outcomes)
        result["outcome"] = binary_scores([p >= outcome_threshold for p in probs], [e.success for e in data.outcomes]).to_dict()
    return result


def _split_tasks(data: RewardData, val_tasks: list[str]) -> tuple[RewardData, RewardData]:
    """The training and the validation data: whole tasks held out.

    Raises:
        RewardDataError: a validation task is not in the data, or no training sample is left.
    """
    known = set(data.tasks)
    unknown = [t for t in val_tasks if t not in known]
    if unknown:
        raise RewardDataError(f"validation task(s) {unknown} are not in the data; its tasks are: {', '.join(sorted(known))}")
    train = data.only_tasks(known - set(val_tasks))
    val = data.only_tasks(val_tasks)
    if not train.steps and not train.outcomes:
        raise RewardDataError("no training samples are left once the validation tasks are held out")
    return train, val


def _training_state(out: Path, fingerprint: str, val_tasks: list[str]) -> dict[str, Any]:
    """The training state to resume from in ``out``, made from the same data and validation tasks.

    Raises:
        RewardCheckpointError: no training state, or one from other data or validation tasks.
    """
    state = load_training_state(out)
    if state is None:
        raise RewardCheckpointError(f"{out}: nothing to resume (no training_state.pt); train without --resume first")
    if state["fingerprint"] != fingerprint or state["val_tasks"] != sorted(val_tasks):
        raise RewardCheckpointError(f"{out}: was trained on other data or validation tasks; resume with the same DATA and --val-tasks")
    return state


def train_reward_model(data: RewardData, options: TrainOptions, *, progress: ProgressFn | None = None) -> TrainResult:
    """Train (or resume training) the step and outcome scorers on ``data`` and checkpoint each epoch.

    Raises:
        RewardDataError: nothing left to train on once validation tasks are removed.
        RewardCheckpointError: ``resume`` without a training state in ``out``, or with other data.
    """
    if options.threads:
        torch.set_num_threads(options.threads)
    out = Path(options.out)
    train, val = _split_tasks(data, options.val_tasks)
    fingerprint = _fingerprint(data)
    torch.manual_seed(options.seed)
    config = options.config
    shared = StepNet(config)  # the outcome scorer reads trajectories through the step scorer
    step_net = shared if train.steps else None
    outcome_net = OutcomeNet(config, shared) if train.outcomes else None
    nets = [n for n in (step_net, outcome_net) if n is not None]
    unique = list({id(p): p for net in nets for p in net.parameters()}.values())
    optimizer = torch.optim.AdamW(unique, lr=options.lr, weight_decay=options.weight_decay)
    steps_per_epoch = len(_batches(train.steps, options.batch_size, random.Random(0))) + len(_batches(train.outcomes, options.batch_size, random.Random(0)))
    total = steps_per_epoch * options.epochs
    # Cosine decay to 5 % of the rate: late epochs refine instead of jumping around.
    schedule = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda step: 0.05 + 0.95 * 0.5 * (1 + math.cos(math.pi * min(step / max(total, 1), 1.0))))
    history: list[dict[str, Any]] = []
    first_epoch = 0
    rng = random.Random(options.seed)
    if options.resume:
        state = _training_state(out, fingerprint, options.val_tasks)
        for net, key in ((step_net, "step_state"), (outcome_net, "outcome_state")):
            if net is not None:
                net.load_state_dict(state[key])
        optimizer.load_state_dict(state["optimizer"])
        schedule.load_state_dict(state["schedule"])
        first_epoch, history = state["epoch"], state["history"]
        rng.setstate(state["rng"])
        torch.set_rng_state(state["torch_rng"])
    # Step labels keep their natural frequencies (progress is the most common label and
    # weighting it down cost recall on unseen tasks); outcomes are balanced.
    step_loss_fn = nn.CrossEntropyLoss() if step_net else None
    positives = sum(o.success for o in train.outcomes)
    pos_weight = torch.tensor([(len(train.outcomes) - positives) / max(positives, 1)]) if train.outcomes else None
    outcome_loss_fn = nn.BCEWithLogitsLoss(pos_weight=pos_weight) if outcome_net else None
    done = steps_per_epoch * first_epoch
    started = time.monotonic()
    step_threshold, outcome_threshold = DECISION_THRESHOLD, DECISION_THRESHOLD
    for epoch in range(first_epoch, options.epochs):
        losses: dict[str, list[float]] = {"step": [], "outcome": []}
        jobs = [("step", b) for b in _batches(train.steps, options.batch_size, rng)]
        jobs += [("outcome", b) for b in _batches(train.outcomes, options.batch_size, rng)]
        rng.shuffle(jobs)
        for net in nets:
            net.train()
        for kind, chunk in jobs:
            if kind == "step":
                assert step_net is not None and step_loss_fn is not None
                batch = collate_transitions([e.arrays for e in chunk])
                hide = torch.rand(len(chunk)) < HIDE_AFTER
                if hide.any():
                    _hide_after(batch, hide)
                loss = step_loss_fn(step_net(batch), torch.tensor([e.label for e in chunk]))
            else:
                assert outcome_net is not None and outcome_loss_fn is not None
                batch = collate_trajectories([e.arrays for e in chunk])
                hide = (torch.rand(len(chunk)) < HIDE_LAST_EFFECT) & (batch["mask"][:, -1] > 0)
                if hide.any():
                    _hide_last_effect(batch, hide)
                loss = outcome_loss_fn(outcome_net(batch), torch.tensor([float(e.success) for e in chunk]))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            schedule.step()
            losses[kind].append(loss.item())
            done += 1
            if progress is not None:
                progress(done, total, f"epoch {epoch + 1}/{options.epochs} {kind} loss {np.mean(losses[kind]):.3f}")
        record: dict[str, Any] = {"epoch": epoch + 1, "step_loss": _mean(losses["step"]), "outcome_loss": _mean(losses["outcome"]),
                                  "step_threshold": step_threshold, "outcome_threshold": outcome_threshold,
                                  "seconds": round(time.monotonic() - started, 2)}
        if val.steps or val.outcomes:
            record["val"] = evaluate_split(step_net, outcome_net, val, step_threshold=step_threshold, outcome_threshold=outcome_threshold)
        history.append(record)
        info = {"train_tasks": train.tasks, "val_tasks": sorted(options.val_tasks), "epochs": epoch + 1, "history": history,
                "samples": {"steps": len(train.steps), "outcomes": len(train.outcomes)}}
        save_model(out, {"config": config.to_dict(), "step_state": step_net.state_dict() if step_net else None,
                         "outcome_state": outcome_net.state_dict() if outcome_net else None,
                         "step_threshold": step_threshold, "outcome_threshold": outcome_threshold, "info": info})
        save_training_state(out, {"epoch": epoch + 1, "history": history, "fingerprint": fingerprint, "val_tasks": sorted(options.val_tasks),
                                  "step_state": step_net.state_dict() if step_net else None,
                                  "outcome_state": outcome_net.state_dict() if outcome_net else None,
                                  "optimizer": optimizer.state_dict(), "schedule": schedule.state_dict(), "rng": rng.getstate(),
                                  "torch_rng": torch.get_rng_state()})
        write_metrics(out, history)
    return TrainResult(checkpoint=out, epochs_run=options.epochs - first_epoch, seconds=round(time.monotonic() - started, 2),
                       history=history, train_tasks=train.tasks, val_tasks=sorted(options.val_tasks))


def _mean(values: list[float]) -> float | None:
    return round(float(np.mean(values)), 5) if values else None
