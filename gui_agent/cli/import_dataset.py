"""``gui-agent import DIR_OR_REPO --out DIR``: an exported dataset back into episode folders."""

from __future__ import annotations

import argparse
from pathlib import Path

from gui_agent.cli.failure import fail
from gui_agent.cli.progress import progress_bar

EXAMPLES = """\
examples:
  gui-agent import exports/demo --out episodes/
  gui-agent import my-org/gui-trajectories --out episodes/          # from the hub
  gui-agent import my-org/gui-trajectories --revision v1.0 --out episodes/

Frames come back byte for byte and actions exactly as exported (typed text that export
scrubbed stays scrubbed). Only datasets exported with '--format steps' (configs 'steps'
and 'episodes') can be imported. Existing episode folders are never overwritten: such an
episode is reported and skipped. Exit status: 0 all imported, 1 some skipped, 2 bad input.
"""


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "import",
        help="turn an exported dataset (folder or hub repo) back into episode folders",
        description="Turn a dataset written by 'gui-agent export' (a local folder or a hub dataset repo) "
        "back into episode folders in the trajectory format.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("source", help="an exported dataset folder, or a hub dataset repo id (owner/name)")
    parser.add_argument("--out", type=Path, required=True, help="folder to write episode folders into")
    parser.add_argument("--revision", help="hub branch, tag or commit (default: main)")
    parser.add_argument("--endpoint", help="hub URL (default: $HF_ENDPOINT or huggingface.co)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.markup import escape

    from gui_agent.export import ExportError, import_dataset

    console = Console(highlight=False)
    err = Console(stderr=True, highlight=False)
    try:
        if args.quiet or not err.is_terminal:
            report = import_dataset(args.source, args.out, endpoint=args.endpoint, revision=args.revision)
        else:
            with progress_bar(err, "importing", remaining=False) as progress:
                bar = progress.add_task("import", total=None)
                report = import_dataset(
                    args.source, args.out, endpoint=args.endpoint, revision=args.revision,
                    on_progress=lambda done, total: progress.update(bar, completed=done, total=total),
                )
    except ExportError as exc:
        return fail(console, str(exc))
    for episode_id, reason in report.skipped:
        console.print(f"[yellow]skipped[/yellow] {escape(str(episode_id))}: {escape(str(reason))}", soft_wrap=True)
    console.print(f"imported {len(report.episodes)} episode(s), {report.steps} step(s) into {escape(str(report.out))}", soft_wrap=True)
    return 1 if report.skipped else 0
