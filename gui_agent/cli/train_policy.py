"""``gui-agent train policy EPISODES... --out CKPT``: behaviour-clone the pixel policy.

The trainer lives in :mod:`gui_agent.models.pixel.train` and is imported inside the handler, so
``gui-agent --help`` never loads torch.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from gui_agent.cli.failure import fail

EXAMPLES = """\
examples:
  # demonstrations from the oracle on training seeds (evaluation seeds 0-49 stay unseen)
  gui-agent eval datasets/tasks/miniwob-pixel --seeds 1000-1249 --out runs/demos
  gui-agent train policy runs/demos/episodes --out runs/pixel.pt --time-budget 35
  gui-agent run datasets/tasks/miniwob/click-tab.yaml --policy pixel:runs/pixel.pt --seeds 0-9

  gui-agent train policy runs/demos/episodes --out runs/pixel.pt --resume --epochs 12
  gui-agent train policy runs/demos/episodes --val runs/held-out/episodes --out runs/pixel.pt

EPISODES are episode folders or folders holding them (searched recursively): oracle
demonstrations, human recordings, any episodes in the trajectory format. Failed episodes
are skipped. Left clicks, typing (copied from the instruction), Enter and done are
learned; other steps are skipped and counted. The checkpoint is rewritten after every
epoch with the optimizer state; --resume continues it. Ctrl-C saves before stopping.
Exit status: 0 trained, 2 bad input (no episodes, unusable checkpoint), 130 interrupted.
"""


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "policy",
        help="train the pixel-in policy by behaviour cloning on episodes",
        description="Train the built-in pixel policy (screenshot + instruction in; click heatmap, "
        "action kind and typed span out) on episodes, validating on held-out seeds.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("episodes", nargs="+", type=Path, help="episode folders, or folders holding them")
    parser.add_argument("--out", type=Path, required=True, help="checkpoint file to write (e.g. runs/pixel.pt)")
    parser.add_argument("--epochs", type=int, default=10, help="passes over the data (default: 10)")
    parser.add_argument("--time-budget", type=float, metavar="MINUTES", help="stop after this much training time, with a saved checkpoint")
    parser.add_argument("--batch-size", type=int, default=16, help="steps per batch (default: 16)")
    parser.add_argument("--lr", type=float, default=2e-3, help="peak learning rate (default: 2e-3)")
    parser.add_argument("--val-fraction", type=float, default=0.1, help="share of (task, seed) groups held out for validation (default: 0.1)")
    parser.add_argument("--val", type=Path, nargs="+", metavar="EPISODES", help="validate on these episodes instead of a held-out share")
    parser.add_argument("--shift", type=int, default=6, help="augmentation: random screen shift in pixels (default: 6; 0 = off)")
    parser.add_argument("--seed", type=int, default=0, help="random seed of shuffling and augmentation (default: 0)")
    parser.add_argument("--threads", type=int, help="CPU threads for torch (default: torch's choice)")
    parser.add_argument("--resume", action="store_true", help="continue the training run saved in --out")
    parser.add_argument("--quiet", action="store_true", help="no progress bars")
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.markup import escape

    from gui_agent.errors import GuiAgentError

    console = Console(highlight=False)
    if args.epochs < 1 or args.batch_size < 1 or not 0 <= args.val_fraction < 1 or (args.time_budget is not None and args.time_budget <= 0):
        return fail(console, "--epochs and --batch-size must be >= 1, --val-fraction in [0, 1), --time-budget > 0")
    if args.out.is_dir():
        return fail(console, f"--out {args.out} is a folder; give a checkpoint file name, e.g. {args.out / 'pixel.pt'}")
    if args.out.exists() and not args.resume:
        return fail(console, f"{args.out} exists; pass --resume to continue it or choose another --out")

    from gui_agent.models.pixel.train import TrainConfig, train

    config = TrainConfig(
        epochs=args.epochs, batch_size=args.batch_size, lr=args.lr, val_fraction=args.val_fraction,
        shift=args.shift, seed=args.seed, time_budget_s=args.time_budget * 60 if args.time_budget else None,
        threads=args.threads,
    )
    try:
        result = train(args.episodes, args.out, config=config, resume=args.resume, val_episodes=args.val,
                       progress=not args.quiet, log=lambda line: console.print(line, soft_wrap=True, markup=False))
    except GuiAgentError as exc:
        return fail(console, str(exc))
    state = "finished" if result.finished else "interrupted (continue with --resume)"
    console.print(f"{state}: {result.epochs_done} epochs, {result.steps} steps, {result.train_seconds:.0f} s; checkpoint {escape(str(result.checkpoint))}", soft_wrap=True)
    return 0 if result.finished else 130
