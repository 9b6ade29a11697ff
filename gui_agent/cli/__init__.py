"""The ``gui-agent`` command line. Each subcommand is a module with ``register(subparsers)``.

Subcommand modules import heavy packages (Playwright, torch, models/) inside their
handlers, so ``gui-agent --help`` stays fast and light.
"""

from __future__ import annotations

import argparse
import importlib
import sys

#: Subcommand modules, in the order ``--help`` lists them.
COMMAND_MODULES = ("run", "validate", "show", "record", "review", "eval", "export", "import_dataset", "import_osworld", "train", "replay", "make_reward_data", "annotate")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="gui-agent",
        description="Record, run, replay, train and export GUI-agent trajectories.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="Run 'gui-agent COMMAND --help' for a command's options and examples.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(f"gui_agent.cli.{name}").register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "handler", None):
        parser.print_help()
        return 2
    from gui_agent.cli.quiet import libraries_quieted

    with libraries_quieted(bool(getattr(args, "quiet", False))):  # --quiet hushes transformers & co. too
        return int(args.handler(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
