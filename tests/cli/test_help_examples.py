"""Every example in every ``--help`` is a command that works as written.

Each example line (``  gui-agent ...`` in a command's epilog) is parsed by the real
argument parser, so a misspelt option, a bad value or a command that does not exist
fails here. Those that can run on this machine (offline, no GPU, no vendor key, no
person at the screen, minutes at most) are then run by a shell, in the order the help
lists them, command after command, in one scratch folder where ``datasets/`` is the
checkout's: so an example may use what an earlier one made (``runs/tabs``), as a user
following the help would. Each example that is not run says why, and an example no
reason covers is run: a new example is tried unless someone says why it cannot be.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import re
import shlex
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from gui_agent.cli import build_parser
from tests.paths import REPO

#: (command, pattern, why it is not run here). The first that matches an example wins.
NOT_RUN: list[tuple[str, str, str]] = [
    ("", r"gui-agent record\b", "records a person at an X display"),
    ("", r"gui-agent annotate\b", "serves the annotation station until it is stopped"),
    ("import-osworld", r"", "needs OSWorld's task configs (a clone of its repository)"),
    ("train policy", r"", "trains on thousands of demonstrations its first example makes (hours on a CPU)"),
    ("train vlm", r"", "fine-tunes a vision-language model on demonstrations of a whole suite"),
    ("train reward", r"", "needs reward data: every episode replayed and varied nine ways (many minutes on a CPU)"),
    ("train rl", r"train rl miniwob-pixel", "trains on the whole pixel suite (up to an hour), or needs a reward model of your own"),
    ("train rl", r"--from 'hf:", "needs a vision-language model of your own, taught its format by `train vlm`"),
    ("make-reward-data", r"make-reward-data|export reward-data", "replays and varies every episode nine ways (many minutes)"),
    ("", r"--headed|--display", "needs an X display"),
    ("", r"--push|import my-org/", "needs the Hugging Face hub"),
    ("", r"--ray", "starts Ray workers"),
    ("", r"\b[A-Z][A-Z_]{2,}\b", "names a placeholder (TASK.yaml, EPISODE...) to replace with your own"),
    ("", r"runs/\S*2026\d{4}T", "names an episode id of the writer's own run"),
    ("", r"\brecordings/|\bannotations\b|vm1/|my-tasks/", "needs a person's recordings, a station's DATASET or your own tasks"),
    ("", r"\beval (miniwob|desktop)\b", "a whole suite: hundreds of episodes (or desktop apps)"),
]


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def help_examples() -> list[tuple[str, str]]:
    """(command, example) for every ``  gui-agent ...`` line of every command's epilog, in --help order."""
    found: list[tuple[str, str]] = []

    def walk(prefix: str, parser: argparse.ArgumentParser) -> None:
        for line in (parser.epilog or "").splitlines():
            if line.startswith(" ") and line.lstrip().startswith("gui-agent "):
                found.append((prefix, line.strip()))
        for name, sub in _subparsers(parser).items():
            walk(f"{prefix} {name}".strip(), sub)

    walk("", build_parser())
    return found


def commands_of(example: str) -> list[list[str]]:
    """The gui-agent command lines of an example: comments dropped, ``&&`` chains split,
    ``$(gui-agent ...)`` both run and stood in for by one path."""
    inner = re.findall(r"\$\(([^)]*)\)", example)
    text = re.sub(r"\$\([^)]*\)", "substituted/episode", example)
    commands = []
    for part in [*text.split("&&"), *inner]:
        argv = shlex.split(part, comments=True)
        assert argv and argv[0] == "gui-agent", f"not a gui-agent command: {part!r} in {example!r}"
        commands.append(argv[1:])
    return commands


def why_not_run(command: str, example: str) -> str | None:
    for name, pattern, reason in NOT_RUN:
        if (not name or command == name) and re.search(pattern, example):
            return reason
    return None


EXAMPLES = help_examples()


def test_every_command_with_options_has_examples() -> None:
    commands = {command for command, _ in EXAMPLES}
    expected = {"run", "validate", "show", "record", "review", "eval", "export", "import", "import-osworld", "replay",
                "make-reward-data", "annotate", "train policy", "train vlm", "train reward", "train rl"}
    assert expected <= commands, f"no examples in the --help of: {sorted(expected - commands)}"


@pytest.mark.parametrize(("command", "example"), EXAMPLES, ids=[f"{c}: {e[:70]}" for c, e in EXAMPLES])
def test_each_example_parses(command: str, example: str) -> None:
    parser = build_parser()
    for argv in commands_of(example):
        errors = io.StringIO()
        try:
            with contextlib.redirect_stderr(errors):
                parser.parse_args(argv)
        except SystemExit as exc:
            pytest.fail(f"`gui-agent {command} --help` shows {example!r}, which the parser refuses (exit {exc.code}):\n"
                        f"{errors.getvalue()}")


def test_the_parse_check_catches_a_wrong_example() -> None:
    parser = build_parser()
    for wrong in ("gui-agent run t.yaml --seeds 5-2", "gui-agent export runs/ --output x", "gui-agent train rewards d --out c"):
        with pytest.raises(SystemExit), contextlib.redirect_stderr(io.StringIO()):
            for argv in commands_of(wrong):
                parser.parse_args(argv)


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, dict[str, str]]]:
    """A user's working folder: the checkout's datasets/, the venv's gui-agent on PATH, offline."""
    folder = tmp_path_factory.mktemp("user")
    (folder / "datasets").symlink_to(REPO / "datasets")
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
           "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "COLUMNS": "120"}
    env.pop("DISPLAY", None)
    yield folder, env


RUNNABLE = [(c, e) for c, e in EXAMPLES if why_not_run(c, e) is None]


def test_some_examples_of_the_commands_that_do_the_work_are_run() -> None:
    run_here = {command for command, _ in RUNNABLE}
    assert {"run", "validate", "show", "eval", "export", "import", "replay"} <= run_here, run_here


@pytest.mark.slow  # real Chromium: the runnable examples, one after another
@pytest.mark.parametrize(("command", "example"), RUNNABLE, ids=[f"{c}: {e[:70]}" for c, e in RUNNABLE])
def test_each_example_that_can_run_here_runs(command: str, example: str, scratch: tuple[Path, dict[str, str]]) -> None:
    folder, env = scratch
    result = subprocess.run(["bash", "-c", example], cwd=folder, env=env, capture_output=True, text=True, timeout=600, check=False)
    output = result.stdout + result.stderr
    # 0, or 1 where the command says an agent failed (a random policy): either way it ran as written.
    assert result.returncode in (0, 1), f"`{example}` (from `gui-agent {command} --help`) exited {result.returncode}:\n{output}"
    assert "Traceback" not in output and not re.search(r"^error:", output, re.MULTILINE), f"`{example}`:\n{output}"
    if result.returncode == 1:
        assert re.match(r"gui-agent (run|eval|replay)\b", example) and "FAILURE" in output, f"`{example}` exited 1:\n{output}"
