"""``gui-agent train vlm EPISODES_OR_SFT_EXPORT... --out DIR``: fine-tune a vision-language model.

The trainer lives in :mod:`gui_agent.models.vlm.sft_train` and is imported inside the handler, so
``gui-agent --help`` never loads torch or transformers.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from gui_agent.action_formats import format_names
from gui_agent.cli.failure import fail
from gui_agent.cli.progress import progress_bar

EXAMPLES = """\
examples:
  # oracle demonstrations -> a fine-tuned SmolVLM (the default --model), served as a policy
  gui-agent eval miniwob --seeds 1000-1099 --out runs/demos
  gui-agent train vlm runs/demos/episodes --out runs/smolvlm-sft --epochs 2
  gui-agent run datasets/tasks/miniwob/click-button.yaml --policy hf:runs/smolvlm-sft --seeds 0-9

  # UI-TARS-1.5 with LoRA (merged into the weights when done), on an sft export
  gui-agent export runs/demos --out exports/sft --format sft --action-format uitars
  gui-agent train vlm exports/sft --format uitars --model ByteDance-Seed/UI-TARS-1.5-7B --lora --out runs/uitars-lora

  # the whole pipeline on a CPU in a minute: a tiny random Qwen2-VL
  gui-agent train vlm runs/demos/episodes --model tiny:qwen2_vl --epochs 50 --lr 2e-3 --out runs/tiny

Inputs are episode folders (searched recursively; failed episodes are left out) or
folders written by 'gui-agent export --format sft' (their 'train' split). Rows are built by the export's own
row builder, which is also what the policy prompts with, so training and inference ask
the same question. The reply format defaults to the model family's (Qwen2-VL: uitars-v1,
Qwen2.5-VL/UI-TARS-1.5: uitars, Idefics3/SmolVLM: pyautogui); an export keeps its own
(UI-TARS exports need --format uitars or uitars-v1: v1 and 1.5 rows share one prompt).
The loss is on the assistant's reply only. OUT holds a plain transformers model (LoRA is
merged), its processor, gui_agent_vlm.json (format, images, history for --policy hf:OUT)
and train_report.json. Exit status: 0 trained, 2 bad input (nothing written).
"""


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "vlm",
        help="fine-tune a vision-language model (full or LoRA) on episodes or an sft export",
        description="Supervised fine-tuning of a transformers VLM (Qwen2-VL, Qwen2.5-VL/UI-TARS, Idefics3/SmolVLM) "
        "on our episodes' chat rows, loss on the assistant turn; the result runs as --policy hf:OUT.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("inputs", nargs="+", type=Path, metavar="EPISODES_OR_SFT_EXPORT",
                        help="episode folders (or folders holding them), or sft export folders")
    parser.add_argument("--out", type=Path, required=True, help="folder for the fine-tuned model (new or empty)")
    parser.add_argument("--model", default=None,
                        help="base model: folder, hub id, or tiny:FAMILY (default: HuggingFaceTB/SmolVLM-256M-Instruct)")
    parser.add_argument("--family", choices=("qwen2_vl", "qwen2_5_vl", "idefics3"),
                        help="prompt family, when the model's config does not say (default: from model_type)")
    parser.add_argument("--format", dest="action_format", choices=format_names(sft=True, parses=True),
                        help="reply format of rows built from episodes (default: the family's); with a UI-TARS "
                        "sft export, which one it is (v1 and 1.5 rows share a prompt)")
    parser.add_argument("--images", type=int, default=1, help="screenshots per prompt, from episodes (default: 1)")
    parser.add_argument("--history", type=int, default=5, help="previous actions per prompt, from episodes (default: 5)")
    parser.add_argument("--epochs", type=int, default=3, help="passes over the rows (default: 3)")
    parser.add_argument("--lr", type=float, help="peak learning rate, decayed linearly to 0 (default: 1e-5; 2e-4 with --lora)")
    parser.add_argument("--lora", action="store_true", help="train LoRA adapters on the language model (peft), merged at the end")
    parser.add_argument("--lora-rank", type=int, default=16, help="LoRA rank (default: 16)")
    parser.add_argument("--grad-accum", type=int, default=1, help="rows per optimizer update (default: 1)")
    parser.add_argument("--seed", type=int, default=0, help="seed of initialisation and shuffling (default: 0)")
    parser.add_argument("--device", help="cpu, cuda, cuda:N (default: cuda if available)")
    parser.add_argument("--threads", type=int, help="CPU threads for torch (default: torch's choice)")
    parser.add_argument("--overwrite", action="store_true", help="write into a non-empty --out")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.markup import escape

    from gui_agent.errors import GuiAgentError

    console = Console(highlight=False)
    if args.images < 1 or args.history < 0 or args.lora_rank < 1:
        return fail(console, "--images and --lora-rank must be >= 1, --history >= 0")

    from gui_agent.models.vlm.sft_train import DEFAULT_MODEL, TrainConfig, train_vlm

    config = TrainConfig(
        inputs=tuple(str(p) for p in args.inputs), out=str(args.out), model=args.model or DEFAULT_MODEL,
        family=args.family, action_format=args.action_format, images=args.images, history=args.history,
        epochs=args.epochs, lr=args.lr, lora=args.lora, lora_rank=args.lora_rank, grad_accum=args.grad_accum,
        seed=args.seed, device=args.device, overwrite=args.overwrite, threads=args.threads,
    )
    try:
        report = _train_with_progress(console, config, train_vlm, quiet=args.quiet)
    except GuiAgentError as exc:
        return fail(console, str(exc))
    losses = ", ".join(f"{x:.4f}" for x in report.epoch_losses[-3:])
    console.print(
        f"trained {report.family} ({report.action_format} replies) on {report.rows} rows: {report.epochs} epochs, "
        f"{report.updates} updates, {report.seconds:.0f} s; last epoch losses {losses}", soft_wrap=True)
    if report.skipped:
        console.print("left out: " + "; ".join(f"{escape(reason)} ({n})" for reason, n in report.skipped.items()), soft_wrap=True)
    console.print(escape(f"model: {report.out}  (run it with --policy hf:{report.out})"), soft_wrap=True)
    return 0


def _train_with_progress(console, config, train, *, quiet: bool):  # type: ignore[no-untyped-def]
    """Run ``train`` with a rich bar over all rows of all epochs, showing the running loss."""
    if quiet:
        return train(config)
    with progress_bar(console, "{task.description}", after="loss {task.fields[loss]}", transient=False) as progress:
        bar = progress.add_task("fine-tuning", total=None, loss="-")
        running: list[float] = []

        def on_row(epoch: int, position: int, rows: int, loss: float) -> None:
            running.append(loss)
            del running[:-rows]
            progress.update(bar, total=rows * config.epochs, completed=epoch * rows + position,
                            description=f"epoch {epoch + 1}/{config.epochs}", loss=f"{sum(running) / len(running):.4f}")

        return train(config, on_row=on_row)
