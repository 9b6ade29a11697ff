"""``gui-agent import-osworld TASK.json``: OSWorld task configs -> our task files."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from gui_agent.cli.failure import print_error

EXAMPLES = """\
examples (OSWorld's configs: a clone of https://github.com/xlang-ai/OSWorld):
  gui-agent import-osworld OSWorld/evaluation_examples/examples/libreoffice_calc/1e8df695-bd1b-45b3-b557-e7d599cf7597.json
  gui-agent import-osworld OSWorld/evaluation_examples/examples/libreoffice_calc/*.json --out my-tasks/calc
  gui-agent import-osworld OSWorld/evaluation_examples/examples/thunderbird/*.json --fetch   # and each task's inputs
  gui-agent import-osworld TASK.json --stdout              # print the task file instead

What converts (docs/osworld.md: steps, and the evaluator functions of the Calc, Writer,
Impress and Thunderbird tasks) and what has no equivalent is printed per task and
written into the task's description. Files OSWorld downloads become declared inputs
(inputs/NAME next to the task file): --fetch downloads them into a cache (resuming an
interrupted download) and copies them there; or put each URL's file there by hand.

Exit status: 0 every task converted completely (and with --fetch, every input is there),
1 some parts have no equivalent or some inputs could not be downloaded (the task files
are still written), 2 some configs could not be read (the others are still converted).
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
    parser.add_argument("--fetch", action="store_true", help="download each task's declared inputs next to its task file")
    parser.add_argument("--cache", type=Path, default=None,
                        help="folder downloads are kept in (default: ~/.cache/gui-agent/inputs)")
    parser.set_defaults(handler=handle)


def _read(path: Path) -> Any:
    """The config's JSON, or an error naming the file (OSError, bad UTF-8, bad JSON)."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"{path}: cannot read it: {exc}") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path}:{exc.lineno}: not JSON: {exc.msg}") from None


def handle(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.markup import escape

    from gui_agent.errors import OsworldConfigError
    from gui_agent.task import dump_task
    from gui_agent.task.osworld_import import convert_osworld, task_file_name

    if args.fetch and args.stdout:
        print_error(Console(highlight=False), "--fetch writes the inputs next to the task files; it does not go with --stdout")
        return 2
    console = Console(highlight=False)
    status = 0
    targets: set[Path] = set()
    for path in args.configs:
        try:
            config = _read(path)
            conversion = convert_osworld(config, config_path=path)
        except OsworldConfigError as exc:
            print_error(console, f"{path}: {exc}")
            status = 2
            continue
        except ValueError as exc:
            print_error(console, str(exc))
            status = 2
            continue
        text = dump_task(conversion.task)
        target = None if args.stdout else args.out / task_file_name(config, path)
        if target is None:
            print(text)
        else:
            if target in targets or (target.exists() and not args.force):
                why = "another config of this call converts to it too" if target in targets else "it exists (--force overwrites it)"
                print_error(console, f"{path}: not written to {target}: {why}")
                status = 2
                continue
            targets.add(target)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
        verdict = "[green]converted[/green]" if conversion.complete else "[yellow]converted in part[/yellow]"
        where = f" -> {escape(str(target))}" if target is not None else ""
        console.print(f"{verdict} {escape(str(path))}{where} ({escape(conversion.task.id)})", soft_wrap=True)
        folder = target.parent if target is not None else Path(".")
        for item in conversion.inputs:
            if not args.fetch:
                console.print(f"  input to supply: {escape(str(folder / item.path))} <- {escape(item.url)}", soft_wrap=True)
        for part in conversion.unsupported:
            console.print(f"  [yellow]no equivalent:[/yellow] {escape(part)}", soft_wrap=True)
        for note in conversion.notes:
            console.print(f"  note: {escape(note)}", soft_wrap=True)
        if not conversion.complete:
            status = max(status, 1)
        if args.fetch and conversion.inputs and not _fetch(console, conversion.inputs, folder, args.cache):
            status = max(status, 1)
    return status


def _fetch(console: Any, inputs: list[Any], folder: Path, cache: Path | None) -> bool:
    """Download ``inputs`` into ``folder`` through the cache with a progress bar; False if any failed."""
    from rich.markup import escape

    from gui_agent.cli.progress import progress_bar
    from gui_agent.errors import InputFetchError
    from gui_agent.task.input_fetch import default_cache_dir, fetch_input

    cache_dir = cache or default_cache_dir()
    failed = []
    with progress_bar(console, "{task.description}", remaining=True) as progress:
        for item in inputs:
            destination = folder / item.path
            if destination.exists():
                continue
            bar = progress.add_task(escape(item.path), total=None)

            def advance(done: int, total: int | None, bar: Any = bar) -> None:
                progress.update(bar, completed=done, total=total)

            try:
                fresh = fetch_input(item.url, destination, cache_dir=cache_dir, on_progress=advance)
            except InputFetchError as exc:
                failed.append(f"{item.path}: {exc}")
                progress.remove_task(bar)
                continue
            progress.remove_task(bar)
            console.print(f"  fetched {escape(str(destination))}" + ("" if fresh else " (from the cache)"), soft_wrap=True)
    for failure in failed:
        print_error(console, f"  download failed: {failure}")
    return not failed
