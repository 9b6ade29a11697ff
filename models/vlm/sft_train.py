"""Supervised fine-tuning of a VLM on our episodes' chat rows, full or LoRA (peft).

The loss is on the assistant turn only (:func:`gui_agent.models.vlm.sft_data.encode_row`). One row
is one optimizer micro-step (batch size 1: prompts differ in image count and length);
``grad_accum`` rows make one update. A LoRA run is merged into the base weights before
saving, so the output folder is a plain transformers model: ``--policy hf:OUT`` serves it
with the format, images and history it was trained with (``gui_agent_vlm.json``), and
``train_report.json`` keeps the losses.

``model="tiny:FAMILY"`` starts from a tiny random model of that family whose tokenizer is
trained on the rows' own texts (:mod:`gui_agent.models.vlm.tiny`): for tests and for trying the
pipeline on a CPU, not for a useful agent.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from gui_agent.errors import ModelError
from gui_agent.export.sft import SftOptions
from gui_agent.models.vlm.families import FAMILIES, Family
from gui_agent.models.vlm.loading import LoadedVlm, choose_device, choose_family, load_vlm, read_config
from gui_agent.models.vlm.processors import save_processor
from gui_agent.models.vlm.settings import ServeSettings, write_settings
from gui_agent.models.vlm.sft_data import SftData, check_frames, encode_row, load_rows, row_texts

#: A small real VLM (Idefics3 architecture, 256M parameters) a CPU can fine-tune.
DEFAULT_MODEL = "HuggingFaceTB/SmolVLM-256M-Instruct"
REPORT_FILE = "train_report.json"
#: Gradient norm clip: one odd row must not undo what the others taught.
MAX_GRAD_NORM = 1.0
#: Linear layers of the language model that LoRA adapts (the vision tower stays frozen).
LORA_TARGETS = r".*(language_model|text_model)\..*\.(q_proj|k_proj|v_proj|o_proj|gate_proj|up_proj|down_proj)"


@dataclass(frozen=True)
class TrainConfig:
    """One fine-tuning run; see ``gui-agent train vlm --help`` for each option."""

    inputs: tuple[str, ...]
    out: str
    model: str = DEFAULT_MODEL
    family: str | None = None
    action_format: str | None = None
    images: int = 1
    history: int = 5
    epochs: int = 3
    lr: float | None = None
    lora: bool = False
    lora_rank: int = 16
    grad_accum: int = 1
    seed: int = 0
    device: str | None = None
    overwrite: bool = False
    #: torch CPU threads (None: torch's default).
    threads: int | None = None

    def learning_rate(self) -> float:
        """Default: 2e-4 for LoRA adapters, 1e-5 for full fine-tuning (pretrained weights)."""
        if self.lr is not None:
            return self.lr
        return 2e-4 if self.lora else 1e-5


@dataclass
class TrainReport:
    """What a run did; also written to ``OUT/train_report.json``."""

    out: str
    model: str
    family: str
    action_format: str
    rows: int
    epochs: int
    updates: int
    epoch_losses: list[float]
    seconds: float
    trainable_parameters: int
    parameters: int
    lora: bool
    skipped: dict[str, int] = field(default_factory=dict)


#: Called after each row with (epoch, row index in epoch, rows per epoch, loss).
ProgressCallback = Callable[[int, int, int, float], None]


def _target_family(config: TrainConfig) -> Family:
    if config.model.startswith("tiny:"):
        name = config.model.split(":", 1)[1]
        if name not in FAMILIES:
            raise ModelError(f"--model tiny:FAMILY: unknown family {name!r}; expected one of {', '.join(FAMILIES)}")
        return FAMILIES[name]
    return choose_family(read_config(config.model), source=config.model, override=config.family)


def _check_out(out: Path, overwrite: bool) -> None:
    if out.exists() and not out.is_dir():
        raise ModelError(f"--out {out}: exists and is not a folder")
    if out.is_dir() and any(out.iterdir()) and not overwrite:
        raise ModelError(f"--out {out}: folder exists and is not empty; choose another or pass --overwrite")


def _load(config: TrainConfig, family: Family, data: SftData) -> LoadedVlm:
    if config.model.startswith("tiny:"):
        from gui_agent.models.vlm.tiny import build_tiny

        texts = sorted({text for row in data.rows for text in row_texts(row)})
        model, processor = build_tiny(family.name, texts, seed=config.seed)
        device = choose_device(config.device)
        model.to(device)
        return LoadedVlm(model=model, processor=processor, family=family, source=config.model, device=device, dtype="float32")
    # Weights train in fp32 (exact updates at small learning rates); a GPU runs under bf16 autocast.
    return load_vlm(config.model, family=config.family, device=config.device, dtype="float32")


def apply_lora(vlm: LoadedVlm, rank: int) -> None:
    """Wrap ``vlm.model`` in a peft LoRA of ``rank`` on the language model's linear layers (see :data:`LORA_TARGETS`)."""
    from peft import LoraConfig, get_peft_model

    lora = LoraConfig(r=rank, lora_alpha=2 * rank, lora_dropout=0.0, target_modules=LORA_TARGETS, bias="none")
    try:
        vlm.model = get_peft_model(vlm.model, lora)
    except ValueError as exc:
        raise ModelError(f"{vlm.source}: LoRA found no language-model layers to adapt ({exc})") from None


def train_vlm(config: TrainConfig, *, on_row: ProgressCallback | None = None) -> TrainReport:
    """Fine-tune ``config.model`` on ``config.inputs`` and save it in ``config.out``.

    Raises:
        ModelError: bad inputs, model or options; nothing is written then.
    """
    import torch

    if config.epochs < 1 or config.grad_accum < 1:
        raise ModelError("--epochs and --grad-accum must be at least 1")
    if config.learning_rate() <= 0:
        raise ModelError(f"--lr must be positive, got {config.lr}")
    out = Path(config.out)
    _check_out(out, config.overwrite)
    family = _target_family(config)
    options = SftOptions(action_format=config.action_format or family.action_format,
                         images=config.images, history=config.history)
    data = load_rows(config.inputs, options, declared_format=config.action_format)
    if config.threads:
        torch.set_num_threads(config.threads)
    torch.manual_seed(config.seed)
    vlm = _load(config, family, data)
    check_frames(data, vlm)
    if config.lora:
        apply_lora(vlm, config.lora_rank)
    model = vlm.model
    trainable = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.AdamW(trainable, lr=config.learning_rate(), weight_decay=0.0)
    total_updates = config.epochs * -(-len(data.rows) // config.grad_accum)
    # Linear decay to zero: the last updates are small, so the run ends settled, not mid-jump.
    schedule = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda done: max(0.0, 1.0 - done / total_updates))
    autocast = torch.autocast("cuda", dtype=torch.bfloat16) if vlm.device.startswith("cuda") else torch.autocast("cpu", enabled=False)
    order = list(range(len(data.rows)))
    shuffler = random.Random(config.seed)
    epoch_losses: list[float] = []
    updates = 0
    started = time.monotonic()
    model.train()
    for epoch in range(config.epochs):
        shuffler.shuffle(order)
        total = 0.0
        optimizer.zero_grad(set_to_none=True)
        for position, index in enumerate(order, start=1):
            example = encode_row(vlm, data.rows[index])
            with autocast:
                loss = model(**example.inputs).loss
            (loss / config.grad_accum).backward()
            if position % config.grad_accum == 0 or position == len(order):
                torch.nn.utils.clip_grad_norm_(trainable, MAX_GRAD_NORM)
                optimizer.step()
                schedule.step()
                optimizer.zero_grad(set_to_none=True)
                updates += 1
            total += float(loss.detach())
            if on_row is not None:
                on_row(epoch, position, len(order), float(loss.detach()))
        epoch_losses.append(total / len(order))
    model.eval()
    if config.lora:
        vlm.model = model = model.merge_and_unload()
    report = TrainReport(
        out=str(out), model=config.model, family=family.name, action_format=data.action_format, rows=len(data.rows),
        epochs=config.epochs, updates=updates, epoch_losses=[round(x, 6) for x in epoch_losses],
        seconds=round(time.monotonic() - started, 3),
        trainable_parameters=sum(p.numel() for p in trainable), parameters=sum(p.numel() for p in model.parameters()),
        lora=config.lora, skipped=dict(data.skipped),
    )
    _save(vlm, out, ServeSettings(family=family.name, format=data.action_format, images=data.images, history=data.history), report)
    return report


def _save(vlm: LoadedVlm, out: Path, settings: ServeSettings, report: TrainReport) -> None:
    out.mkdir(parents=True, exist_ok=True)
    vlm.model.save_pretrained(out)
    save_processor(vlm.processor, out)
    write_settings(out, settings)
    (out / REPORT_FILE).write_text(json.dumps(asdict(report), indent=2) + "\n", encoding="utf-8")


def report_dict(report: TrainReport) -> dict[str, Any]:
    return asdict(report)
