"""``gui-agent validate``: check task files and show what each one says.

Authors run it before committing a task suite: a task that loads here loads in the
runner, and the summary shows how the runner reads it (defaults filled in, keys
normalised), which catches a check that is valid YAML but not what was meant.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # imported lazily at run time, to keep ``gui-agent --help`` fast
    from rich.text import Text
    from rich.tree import Tree

    from gui_agent.task import Task

EXAMPLES = """\
examples:
  gui-agent validate datasets/tasks/miniwob/click-button.yaml
  gui-agent validate datasets/tasks/desktop/           # every *.yaml / *.yml below the folder
  gui-agent validate -q datasets/tasks/miniwob/*.yaml  # one line per file

exit status: 0 when every file is valid, 1 when any is not (each problem is printed as
FILE:LINE: key.path: what is wrong and what was expected).
"""



def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``validate`` subcommand to the ``gui-agent`` parser."""
    parser = subparsers.add_parser(
        "validate",
        help="check task files (task.yaml) and summarise them",
        description="Check task files against the task schema and print a readable summary of\n"
        "each: id, instruction, environment, setup steps, the evaluator tree, limits and\n"
        "guards, with defaults filled in as the runner will see them.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "paths", nargs="+", metavar="TASK.yaml", type=Path,
        help="task files, or folders to search for *.yaml and *.yml files",
    )
    parser.add_argument(
        "-q", "--quiet", action="store_true", help="print one line per file instead of a summary",
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Validate every file named in ``args.paths``; 0 when all are valid, else 1."""
    from rich.console import Console
    from rich.text import Text

    from gui_agent.errors import TaskFileError
    from gui_agent.task import load_task
    from gui_agent.task.task_inputs import missing_input_errors

    out = Console(highlight=False)
    err = Console(stderr=True, highlight=False, soft_wrap=True)
    files, missing = _expand(args.paths)
    bad = len(missing)
    for folder in missing:
        err.print(Text(f"✗ {folder}: no task files (*.yaml, *.yml) in this folder", style="red"))
    for path in files:
        try:
            task = load_task(path)
        except TaskFileError as exc:
            bad += 1
            err.print(Text(f"✗ {exc}", style="red"))
            continue
        if absent := missing_input_errors(task):  # it loads, but cannot run without its files
            bad += 1
            for exc in absent:
                err.print(Text(f"✗ {exc}", style="red"))
            continue
        if args.quiet:
            out.print(Text(f"✓ {path}: {task.id}", style="green"), soft_wrap=True)
        else:
            out.print(_summary(path, task))
    total = len(files) + len(missing)
    if total > 1 or bad:
        style = "red" if bad else "green"
        (err if bad else out).print(Text(f"{total - bad} valid, {bad} invalid", style=style), soft_wrap=True)
    return 1 if bad else 0


def _expand(paths: list[Path]) -> tuple[list[Path], list[Path]]:
    """Files as given, folders replaced by their task files; also folders with none."""
    from gui_agent.evaluate.suite import task_files_in

    files: list[Path] = []
    empty: list[Path] = []
    for path in paths:
        if path.is_dir():
            found = task_files_in(path)  # the folders 'gui-agent eval' and 'annotate' would read
            if found:
                files.extend(found)
            else:
                empty.append(path)
        else:
            files.append(path)  # a missing file is reported by load_task
    return files, empty


# --------------------------------------------------------------------------- the summary


def _value(value: Any) -> str:
    """One value for a one-line summary: strings quoted, long ones cut, newlines shown."""
    if isinstance(value, str):
        text = json.dumps(value, ensure_ascii=False)
        return text if len(text) <= 80 else text[:77] + '..."'
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}={_value(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def _args(data: dict[str, Any]) -> str:
    return " ".join(f"{k}={_value(v)}" for k, v in data.items() if v is not None)


def _line(label: str, value: str | Text = "") -> Text:
    from rich.text import Text

    return Text.assemble((label, "bold"), value if isinstance(value, Text) else Text(value))


def _summary(path: Path, task: Task) -> Tree:
    from rich.text import Text
    from rich.tree import Tree

    tree = Tree(Text(f"✓ {path}", style="green bold"))
    tree.add(_line("id: ", task.id))
    if task.instruction_from_env:
        tree.add(_line("instruction: ", Text("(generated by the environment at reset)", style="italic")))
    else:
        tree.add(_line("instruction: ", _value(task.instruction)))
    if task.description:
        tree.add(_line("description: ", _value(task.description)))
    if task.tags:
        tree.add(_line("tags: ", ", ".join(task.tags)))
    if task.source:
        tree.add(_line("source: ", task.source))
    env = task.environment.model_dump(mode="json")
    tree.add(_line("environment: ", f"{env.pop('kind')} {_args(env)}"))
    for title, steps in (("setup", task.setup), ("post_steps", task.post_steps)):
        if steps:
            branch = tree.add(_line(f"{title}: ", f"{len(steps)} step{'s' if len(steps) != 1 else ''}"))
            for i, step in enumerate(steps, 1):
                branch.add(Text.assemble(f"{i}. ", (step.name, "cyan"), " ", _args(step.args.model_dump(mode="json"))))
    if task.evaluator is None:
        tree.add(_line("evaluator: ", Text("none (no automatic evaluation)", style="italic")))
    else:
        _add_check(tree.add(_line("evaluator")), task.evaluator)
    tree.add(_line("limits: ", _args(task.limits.model_dump(mode="json"))))
    guards = task.guards
    branch = tree.add(_line("guards"))
    branch.add(_line("forbidden_keys: ", ", ".join("+".join(c) for c in guards.forbidden_keys) or "none"))
    branch.add(_line("forbidden_text: ", ", ".join(_value(t) for t in guards.forbidden_text) or "none"))
    branch.add(_line("protected_paths: ", ", ".join(guards.protected_paths) or "none"))
    doom = guards.doom_loop
    branch.add(_line("doom_loop: ", f"max_repeats={doom.max_repeats}" if doom is not None else "off"))
    return tree


def _add_check(parent: Tree, check: Any) -> None:
    from rich.text import Text

    from gui_agent.checks.tree import AllOfCheck, AnyOfCheck, NotCheck

    if isinstance(check, (AllOfCheck, AnyOfCheck)):
        node = parent.add(Text(check.name, style="magenta bold"))
        for child in check.args:
            _add_check(node, child)
    elif isinstance(check, NotCheck):
        _add_check(parent.add(Text("not", style="magenta bold")), check.not_)
    else:
        args = check.args.model_dump(mode="json", exclude_none=True)
        parent.add(Text.assemble((check.name, "cyan"), " ", _args(args)))

