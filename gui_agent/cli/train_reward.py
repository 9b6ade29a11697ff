"""``gui-agent train reward DATA... --out CKPT``: train the step and outcome reward model."""

from __future__ import annotations

import argparse
from pathlib import Path

from gui_agent.cli.arguments import positive_int
from gui_agent.cli.failure import fail

EXAMPLES = """\
examples:
  gui-agent eval datasets/tasks/miniwob/click-tab.yaml --seeds 0-4 --out runs/oracle   # oracle episodes
  gui-agent make-reward-data runs/oracle --out data/reward                 # the replayer's labelled data
  gui-agent train reward data/reward --out runs/reward-ckpt
  gui-agent train reward data/reward --out runs/reward-val --val-tasks miniwob/click-tab,miniwob/login-user
  gui-agent train reward data/reward --out runs/reward-ckpt --epochs 20 --resume   # continue after a stop

DATA is one or more folders written by 'gui-agent make-reward-data' (reward.jsonl: steps
labelled progress/neutral/harmful; outcomes.jsonl: episodes and their evaluator's verdict).
The step scorer reads (screen before, action, screen after, instruction); the outcome scorer
reads a whole trajectory. Pixels, actions and the instruction only: no DOM, no environment
reward. --val-tasks holds whole tasks out and reports step F1 (progress vs the rest) and
outcome F1 (success) on them after every epoch.

Output (CKPT/): reward_model.pt (use it with 'gui-agent eval --judge CKPT' or
'--best-of N --reward-model CKPT'), training_state.pt (what --resume continues from),
metrics.json (per-epoch losses and validation figures). A checkpoint is written after every
epoch. Exit status: 0 done, 2 bad input (missing or damaged data or checkpoint), 130 interrupted.
"""


def register(kinds: argparse._SubParsersAction) -> None:
    parser = kinds.add_parser(
        "reward",
        help="train the reward model (step and outcome scorers) on reward data",
        description="Train a reward model on the replayer's reward data: a step scorer "
        "(progress/neutral/harmful) and an outcome scorer (success), with validation on held-out tasks.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("data", nargs="+", type=Path, help="reward-data folders (gui-agent make-reward-data --out)")
    parser.add_argument("--out", type=Path, required=True, help="checkpoint folder")
    parser.add_argument("--epochs", type=positive_int, default=3, help="passes over the training data (default: 3; more fit the training tasks and judge new kinds of task worse)")
    parser.add_argument("--batch-size", type=positive_int, default=32, help="examples per update (default: 32)")
    parser.add_argument("--lr", type=float, default=2e-3, help="learning rate (default: 0.002)")
    parser.add_argument("--val-tasks", type=_task_list, default=[], help="comma-separated task ids held out for validation")
    parser.add_argument("--seed", type=int, default=0, help="seed of initialisation and shuffling (default: 0)")
    parser.add_argument("--threads", type=positive_int, help="CPU threads for torch (default: torch's choice)")
    parser.add_argument("--resume", action="store_true", help="continue the training in --out")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(handler=handle)


def _task_list(text: str) -> list[str]:
    return [t.strip() for t in text.split(",") if t.strip()]


def handle(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.markup import escape

    from gui_agent.errors import GuiAgentError

    console = Console(highlight=False, stderr=False)
    if (args.out / "training_state.pt").exists() and not args.resume:
        return fail(console, f"{args.out} already holds a training run: pass --resume to continue it, or choose another --out")
    try:
        from tqdm import tqdm

        from gui_agent.models.reward.data import load_reward_data
        from gui_agent.models.reward.training import TrainOptions, train_reward_model

        data = load_reward_data(args.data)
        console.print(f"data: {len(data.steps)} step samples, {len(data.outcomes)} outcome samples, {len(data.tasks)} tasks")
        options = TrainOptions(out=args.out, epochs=args.epochs, batch_size=args.batch_size, lr=args.lr, val_tasks=args.val_tasks,
                               seed=args.seed, resume=args.resume, threads=args.threads)
        with tqdm(total=None, disable=args.quiet, unit="batch", dynamic_ncols=True) as bar:
            def progress(done: int, total: int, text: str) -> None:
                bar.total = total
                bar.n = done
                bar.set_description(text, refresh=False)
                bar.refresh()

            result = train_reward_model(data, options, progress=progress)
    except KeyboardInterrupt:
        console.print(f"[yellow]interrupted[/yellow]; the last finished epoch is in {escape(str(args.out))}. Continue with the same command and --resume")
        return 130
    except (GuiAgentError, ValueError) as exc:
        return fail(console, str(exc))
    last = result.history[-1] if result.history else {}
    console.print(f"trained {result.epochs_run} epoch(s) in {result.seconds:.1f} s; checkpoint: {escape(str(result.checkpoint))}", soft_wrap=True)
    if "val" in last:
        for level in ("step", "outcome"):
            if level in last["val"]:
                v = last["val"][level]
                console.print(f"held-out {level}: F1 {v['f1']:.3f} (precision {v['precision']:.3f}, recall {v['recall']:.3f}, n={v['count']})")
    return 0
