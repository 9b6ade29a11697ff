"""Behaviour cloning of the pixel policy on episodes, with validation and resumable checkpoints.

The loss is the sum of cross-entropies of the action kind, the click cell (for clicks)
and the start/end token of the typed span (for typing copied from the instruction). The
learning rate warms up, then follows a cosine to zero over whichever ends first: the
epochs or the time budget. After every epoch (and on Ctrl-C) the checkpoint is written
with the optimizer state, so ``resume=True`` continues where it stopped; a finished run
drops the optimizer state to keep the file small.
"""

from __future__ import annotations

import math
import platform
import random
import time
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import torch
import torch.nn.functional as F
from tqdm import tqdm

from gui_agent.errors import PolicyCheckpointError
from gui_agent.models.pixel.checkpoint import Checkpoint, load_checkpoint, save_checkpoint
from gui_agent.models.pixel.dataset import Demonstrations, Sample, collate, load_demonstrations
from gui_agent.models.pixel.network import STRIDE, NetConfig, PixelPolicyNet


@dataclass(frozen=True)
class TrainConfig:
    """How to train. ``time_budget_s`` stops training (cleanly, with a checkpoint) when spent."""

    epochs: int = 10
    batch_size: int = 16
    lr: float = 2e-3
    weight_decay: float = 1e-4
    val_fraction: float = 0.1
    shift: int = 6
    seed: int = 0
    time_budget_s: float | None = None
    warmup_steps: int = 100
    #: torch CPU threads (None: torch's default).
    threads: int | None = None


@dataclass
class TrainResult:
    """What a training run did; the same figures are in the checkpoint's metadata."""

    checkpoint: Path
    epochs_done: int
    steps: int
    train_seconds: float
    finished: bool
    history: list[dict[str, float]] = field(default_factory=list)
    data: dict[str, Any] = field(default_factory=dict)


def losses(outputs: dict[str, torch.Tensor], batch: dict[str, torch.Tensor]) -> dict[str, torch.Tensor]:
    """Per-head losses; a head with no target in the batch contributes zero."""
    parts = {"kind": F.cross_entropy(outputs["kind"], batch["kind"])}
    for name, logits, target in (
        ("click", outputs["click"].flatten(1), batch["click"]),
        ("start", outputs["start"], batch["start"]),
        ("end", outputs["end"], batch["end"]),
    ):
        valid = target >= 0
        parts[name] = F.cross_entropy(logits[valid], target[valid]) if valid.any() else logits.new_zeros(())
    return parts


def train(
    episodes: Iterable[str | Path],
    out: str | Path,
    *,
    config: TrainConfig | None = None,
    net_config: NetConfig | None = None,
    resume: bool = False,
    val_episodes: Iterable[str | Path] | None = None,
    progress: bool = True,
    log: Callable[[str], None] = print,
) -> TrainResult:
    """Train on ``episodes`` and write the checkpoint to ``out``.

    Args:
        episodes: episode folders or folders holding them (searched recursively).
        out: checkpoint file, rewritten after every epoch.
        resume: continue the run in ``out`` (its network sizes win over ``net_config``).
        val_episodes: validate on these instead of a held-out share of seeds.

    Raises:
        PolicyDataError: no usable episodes.
        PolicyCheckpointError: ``resume`` and ``out`` is missing or not a pixel checkpoint.
    """
    out = Path(out)
    config = config or TrainConfig()
    rng = random.Random(config.seed)
    if config.threads:
        torch.set_num_threads(config.threads)
    torch.manual_seed(config.seed)
    previous = load_checkpoint(out) if resume else None
    if previous is not None and previous.training is None and previous.meta.get("finished") and previous.meta.get("epochs_done", 0) >= config.epochs:
        raise PolicyCheckpointError(f"{out}: training already finished ({previous.meta.get('epochs_done')} epochs); ask for more --epochs to continue")
    model = previous.model if previous else PixelPolicyNet(net_config or NetConfig())
    data = load_demonstrations(
        episodes, max_side=model.config.max_side, val_fraction=config.val_fraction, val_paths=val_episodes, progress=progress
    )
    log(f"data: {data.summary['train_samples']} training and {data.summary['val_samples']} validation steps "
        f"from {data.summary['episodes']} episodes" + (f"; skipped {data.summary['skipped']}" if data.summary["skipped"] else ""))
    optimizer = torch.optim.AdamW(model.parameters(), lr=config.lr, weight_decay=config.weight_decay)
    state: dict[str, Any] = {"epochs_done": 0, "step": 0, "train_seconds": 0.0, "cpu_seconds": 0.0, "history": []}
    if previous is not None:
        _restore(previous, state, optimizer)
        rng.seed(config.seed + int(state["epochs_done"]))
        log(f"resuming {out} after epoch {state['epochs_done']} ({state['train_seconds']:.0f} s trained)")
    steps_per_epoch = math.ceil(len(data.train) / config.batch_size)
    total_steps = steps_per_epoch * config.epochs
    started = time.monotonic() - float(state["train_seconds"])
    cpu_started = time.process_time() - float(state["cpu_seconds"])

    def elapsed() -> float:
        return time.monotonic() - started

    def schedule() -> float:
        done = state["step"] / max(1, total_steps)
        if config.time_budget_s:
            done = max(done, elapsed() / config.time_budget_s)
        warm = min(1.0, (state["step"] + 1) / max(1, config.warmup_steps))
        return config.lr * warm * 0.5 * (1 + math.cos(math.pi * min(1.0, done)))

    def out_of_time() -> bool:
        return bool(config.time_budget_s) and elapsed() >= config.time_budget_s

    def save(finished: bool) -> None:
        state["cpu_seconds"] = time.process_time() - cpu_started
        meta = _meta(model, config, data, state, elapsed(), finished)
        save_checkpoint(out, model, meta, None if finished else {"optimizer": optimizer.state_dict()})

    interrupted = False
    try:
        while state["epochs_done"] < config.epochs and not out_of_time():
            model.train()
            order = list(data.train)
            rng.shuffle(order)
            bar = tqdm(range(0, len(order), config.batch_size), desc=f"epoch {state['epochs_done'] + 1}/{config.epochs}",
                       unit="batch", disable=not progress, leave=False)
            running = 0.0
            for index, begin in enumerate(bar):
                batch = collate(order[begin : begin + config.batch_size], data.frames, shift=config.shift, rng=rng)
                for group in optimizer.param_groups:
                    group["lr"] = schedule()
                loss = _step(model, optimizer, batch)
                state["step"] += 1
                running = loss if index == 0 else 0.95 * running + 0.05 * loss
                bar.set_postfix(loss=f"{running:.3f}", lr=f"{optimizer.param_groups[0]['lr']:.1e}")
                if out_of_time():
                    break
            state["epochs_done"] += 1
            figures = {"epoch": state["epochs_done"], "train_loss": round(running, 4), **evaluate(model, data.val, data.frames)}
            state["history"].append(figures)
            log("  ".join(f"{k}={v}" for k, v in figures.items()) + f"  ({elapsed():.0f} s)")
            save(finished=False)
    except KeyboardInterrupt:
        interrupted = True
        log(f"interrupted: saving {out}; continue with --resume")
    finished = not interrupted and (state["epochs_done"] >= config.epochs or out_of_time())
    save(finished=finished)
    return TrainResult(checkpoint=out, epochs_done=int(state["epochs_done"]), steps=int(state["step"]),
                       train_seconds=elapsed(), finished=finished, history=list(state["history"]), data=data.summary)


def _restore(previous: Checkpoint, state: dict[str, Any], optimizer: torch.optim.Optimizer) -> None:
    """Continue where the checkpoint ``previous`` left off: its counters and history, and the
    optimizer's state when the run was not finished."""
    state.update({k: previous.meta[k] for k in ("epochs_done", "step", "train_seconds", "cpu_seconds", "history") if k in previous.meta})
    if previous.training and "optimizer" in previous.training:
        optimizer.load_state_dict(previous.training["optimizer"])


def _step(model: PixelPolicyNet, optimizer: torch.optim.Optimizer, batch: dict[str, torch.Tensor]) -> float:
    """One optimisation step on ``batch``; returns its loss."""
    parts = losses(model(*_inputs(batch)), batch)
    loss = sum(parts.values())
    optimizer.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 5.0)
    optimizer.step()
    return float(loss.item())


@torch.no_grad()
def evaluate(model: PixelPolicyNet, samples: list[Sample], frames: list[torch.Tensor], batch_size: int = 32) -> dict[str, float]:
    """Validation figures: loss, kind accuracy, clicks within one cell of the target, exact spans."""
    if not samples:
        return {}
    model.eval()
    totals = {"val_loss": 0.0, "kind_acc": 0.0, "click_acc": 0.0, "span_acc": 0.0}
    counts = {"clicks": 0, "spans": 0}
    for begin in range(0, len(samples), batch_size):
        batch = collate(samples[begin : begin + batch_size], frames)
        outputs = model(*_inputs(batch))
        size = len(batch["kind"])
        totals["val_loss"] += float(sum(losses(outputs, batch).values())) * size
        totals["kind_acc"] += float((outputs["kind"].argmax(1) == batch["kind"]).sum())
        width = outputs["click"].shape[2]
        valid = batch["click"] >= 0
        if valid.any():
            guess = outputs["click"].flatten(1)[valid].argmax(1)
            target = batch["click"][valid]
            near = ((guess // width - target // width).abs() <= 1) & ((guess % width - target % width).abs() <= 1)
            totals["click_acc"] += float(near.sum())
            counts["clicks"] += int(valid.sum())
        spans = batch["start"] >= 0
        if spans.any():
            exact = (outputs["start"][spans].argmax(1) == batch["start"][spans]) & (outputs["end"][spans].argmax(1) == batch["end"][spans])
            totals["span_acc"] += float(exact.sum())
            counts["spans"] += int(spans.sum())
    n = len(samples)
    return {
        "val_loss": round(totals["val_loss"] / n, 4),
        "kind_acc": round(totals["kind_acc"] / n, 4),
        "click_acc": round(totals["click_acc"] / max(1, counts["clicks"]), 4),
        "span_acc": round(totals["span_acc"] / max(1, counts["spans"]), 4),
    }


def _inputs(batch: dict[str, torch.Tensor]) -> tuple[torch.Tensor, ...]:
    return (batch["images"], batch["chars"], batch["words"], batch["typed"], batch["token_mask"], batch["step"], batch["previous"])


def _meta(model: PixelPolicyNet, config: TrainConfig, data: Demonstrations, state: dict[str, Any], seconds: float, finished: bool) -> dict[str, Any]:
    return {
        "epochs_done": int(state["epochs_done"]),
        "step": int(state["step"]),
        "train_seconds": round(seconds, 1),
        "cpu_seconds": round(float(state["cpu_seconds"]), 1),
        "history": list(state["history"]),
        "finished": finished,
        "train_config": asdict(config),
        "data": data.summary,
        "saved_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "machine": {"cpus": torch.get_num_threads(), "torch": str(torch.__version__), "python": platform.python_version()},
        "click_cell_px": STRIDE,
        "parameters": sum(p.numel() for p in model.parameters()),
    }
