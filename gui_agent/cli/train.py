"""``gui-agent train KIND``: one command for every trainer, one module per kind.

Each kind (``policy``, ``vlm``, ``reward``, ``rl``) lives in ``gui_agent/cli/train_<kind>.py``
with ``register(subparsers)``; the trainers themselves are in ``models/`` and are imported
inside the handlers, so ``gui-agent --help`` never loads torch.
"""

from __future__ import annotations

import argparse
import importlib

#: Trainer modules (``gui_agent.cli.train_<name>``), in the order ``--help`` lists them.
TRAIN_MODULES: tuple[str, ...] = ("policy", "vlm", "reward", "rl")


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "train",
        help="train a policy, a vision-language model or a reward model on episodes, or a policy by online RL",
        description="Train models on episodes in the trajectory format. Run 'gui-agent train KIND --help'.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    kinds = parser.add_subparsers(dest="train_kind", metavar="KIND")
    for name in TRAIN_MODULES:
        importlib.import_module(f"gui_agent.cli.train_{name}").register(kinds)
    parser.set_defaults(handler=lambda args: _no_kind(parser))


def _no_kind(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return 2
