"""``gui-agent import-osworld TASK.json``: OSWorld task configs -> our task files."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from gui_agent.cli.failure import fail

EXAMPLES = """\
examples:
  gui-agent import-osworld evaluation_examples/examples/libreoffice_calc/1e8df695-....json
  gui-agent import-osworld osworld/*.json --out datasets/tasks/osworld
  gui-agent import-osworld TASK.json --stdout        # print the task file instead

What converts (instruction, download/open/launch/execute/sleep/activate_window/close_window
steps, postconfig, compare_table sheet_data and compare_csv evaluators) and what has no
equivalent is printed per task, and written into the task's description. Files OSWorld
downloads from the internet become declared inputs: put each URL's file at the printed
path next to the task file before running it.

Exit status: 0 every task converted completely, 1 some parts have no equivalent (the task
files are still written), 2 bad input (unreadable or not an OSWorld config).
"""


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "import-osworld",
        help="convert OSWorld task configs (JSON) into task files",
        description="Convert OSWorld task configs into task files, listing what has no equivalent.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("configs", nargs="+", type=Path, metavar="TASK.json", help="OSWorld task config(s)")
    parser.add_argument("--out", type=Path, default=Path("datasets/tasks/osworld"),
                        help="folder for the task files (default: datasets/tasks/osworld)")
    parser.add_argument("--stdout", action="store_true", help="print the task file(s) instead of writing them")
    parser.add_argument("--force", action="store_true", help="overwrite existing task files")
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.markup import escape

    from gui_agent.task import dump_task
    from gui_agent.task.osworld_import import convert_osworld

    console = Console(highlight=False)
    status = 0
    for path in args.configs:
        try:
            config = json.loads(path.read_text(encoding="utf-8"))
            conversion = convert_osworld(config)
        except (OSError, UnicodeDecodeError) as exc:
            return fail(console, f"{path}: cannot read it: {exc}")
        except json.JSONDecodeError as exc:
            return fail(console, f"{path}:{exc.lineno}: not JSON: {exc.msg}")
        except ValueError as exc:  # not an OSWorld config, or the result does not fit our schema
            return fail(console, f"{path}: {exc}")
        text = dump_task(conversion.task)
        task_id = conversion.task.id
        if args.stdout:
            print(text)
            target = None
        else:
            domain = config.get("snapshot") or "desktop"
            target = args.out / f"{domain}-{config['id']}.yaml"
            if target.exists() and not args.force:
                return fail(console, f"{target} exists (--force overwrites it)")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
        verdict = "[green]converted[/green]" if conversion.complete else "[yellow]converted in part[/yellow]"
        where = f" -> {escape(str(target))}" if target is not None else ""
        console.print(f"{verdict} {escape(str(path))}{where} ({escape(task_id)})", soft_wrap=True)
        for item in conversion.inputs:
            folder = target.parent if target is not None else Path(".")
            console.print(f"  input to supply: {escape(str(folder / item.path))} <- {escape(item.url)}", soft_wrap=True)
        for part in conversion.unsupported:
            console.print(f"  [yellow]no equivalent:[/yellow] {escape(part)}", soft_wrap=True)
        for note in conversion.notes:
            console.print(f"  note: {escape(note)}", soft_wrap=True)
        if not conversion.complete:
            status = 1
    return status
