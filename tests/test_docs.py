"""The Markdown documentation stays true: its relative links resolve and the commands it shows exist.

Covers README.md and every docs/**/*.md. Fast and offline: no browser, no models.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import re
import shlex
from pathlib import Path
from urllib.parse import unquote

import pytest

from gui_agent.cli import build_parser
from tests.paths import REPO

DOC_FILES = sorted([REPO / "README.md", *(REPO / "docs").rglob("*.md")])

#: A fenced code block: an opening fence of three or more backticks or tildes, its body, the same fence again.
_FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})[^\n]*\n(?P<body>.*?)^[ \t]*(?P=fence)[ \t]*$", re.MULTILINE | re.DOTALL)
#: Inline code, kept as a placeholder so that link text made of code (``[`x`](path)``) still parses.
_INLINE_CODE = re.compile(r"(`+)(?!`).*?(?<!`)\1(?!`)", re.DOTALL)
#: ``[text](target)`` and ``![alt](target)``, with an optional ``"title"``.
_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?(?P<target>[^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
#: ``gui-agent WORD`` (also ``.venv/bin/gui-agent WORD``), not part of a longer name.
_COMMAND = re.compile(r"(?<![\w-])gui-agent[ \t]+(?P<sub>[A-Za-z][\w-]*)(?:[ \t]+(?P<next>[A-Za-z][\w-]*))?")


def _rel(path: Path) -> str:
    return path.relative_to(REPO).as_posix()


def _prose(text: str) -> str:
    """The text with code blocks removed and inline code replaced, where links are real links."""
    text = _FENCE.sub("", text)
    return _INLINE_CODE.sub("code", text)


def relative_links(text: str) -> list[str]:
    """Link targets in Markdown ``text`` that point into the repository (no URLs, no bare anchors)."""
    targets = []
    for match in _LINK.finditer(_prose(text)):
        target = match.group("target")
        if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", target) or target.startswith("#"):
            continue  # http(s)://, mailto:, ... and anchors within the page
        targets.append(target)
    return targets


def code_blocks(text: str) -> list[str]:
    """The bodies of the fenced code blocks in ``text``."""
    return [match.group("body") for match in _FENCE.finditer(text)]


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


@pytest.fixture(scope="module")
def commands() -> dict[str, argparse.ArgumentParser]:
    return _subcommands(build_parser())


def test_the_documentation_is_there():
    assert (REPO / "README.md").is_file()
    assert (REPO / "docs" / "README.md").is_file()
    assert len(DOC_FILES) > 5


@pytest.mark.parametrize("doc", DOC_FILES, ids=_rel)
def test_relative_links_resolve(doc: Path):
    missing = []
    for target in relative_links(doc.read_text(encoding="utf-8")):
        path = unquote(target.split("#", 1)[0])
        if path and not (doc.parent / path).exists():
            missing.append(target)
    assert not missing, f"{_rel(doc)}: links to missing files or folders: {', '.join(missing)}"


@pytest.mark.parametrize("doc", DOC_FILES, ids=_rel)
def test_commands_in_code_blocks_exist(doc: Path, commands: dict[str, argparse.ArgumentParser]):
    unknown = []
    for block in code_blocks(doc.read_text(encoding="utf-8")):
        for match in _COMMAND.finditer(block):
            sub, nxt = match.group("sub"), match.group("next")
            if sub not in commands:
                unknown.append(f"'gui-agent {sub}' (commands: {', '.join(sorted(commands))})")
                continue
            nested = _subcommands(commands[sub])
            if nested and nxt is not None and nxt not in nested:
                unknown.append(f"'gui-agent {sub} {nxt}' ({sub} has: {', '.join(sorted(nested))})")
    assert not unknown, f"{_rel(doc)}: unknown commands in code blocks: {'; '.join(unknown)}"


def test_the_checks_catch_mistakes(commands: dict[str, argparse.ArgumentParser]):
    """The scanners find what they must (so a passing run means something)."""
    text = (
        "See [the format](docs/nowhere.md#x), ![pic](img/a.png \"t\"), [web](https://example.org), "
        "[anchor](#top), `[not a link](code.md)`.\n\n```bash\ngui-agent frobnicate --x\n"
        "gui-agent train policy runs --out p.pt\n.venv/bin/gui-agent train nonsense\n```\n"
    )
    assert relative_links(text) == ["docs/nowhere.md#x", "img/a.png"]
    found = [(m.group("sub"), m.group("next")) for block in code_blocks(text) for m in _COMMAND.finditer(block)]
    assert found == [("frobnicate", None), ("train", "policy"), ("train", "nonsense")]
    assert "frobnicate" not in commands
    assert {"policy", "reward", "vlm"} <= set(_subcommands(commands["train"]))


def doc_commands(block: str) -> list[str]:
    """The ``gui-agent`` command lines of a code block: lines that start with one (a shell's
    ``$`` and ``.venv/bin/`` allowed), continuation lines joined, chains (``&&``, ``;``,
    ``|``) split and ``$(...)`` stood in for by one word."""
    text = re.sub(r"\s*\\\n\s*", " ", block)
    commands = []
    for line in text.splitlines():
        line = re.sub(r"\$\([^)]*\)", "substituted", line.strip().removeprefix("$ "))
        if not re.match(r"(\.venv/bin/)?gui-agent\s", line):
            continue
        commands += [part.strip() for part in re.split(r"&&|\|\||;|\|", line) if re.match(r"\s*(\.venv/bin/)?gui-agent\s", part)]
    return commands


@pytest.mark.parametrize("doc", DOC_FILES, ids=_rel)
def test_commands_in_code_blocks_parse(doc: Path) -> None:
    """Every command a page shows is accepted by the real argument parser: its options exist
    and its values are valid (`--seeds 5-2`, a misspelt option or choice fail here)."""
    refused = []
    for block in code_blocks(doc.read_text(encoding="utf-8")):
        for command in doc_commands(block):
            errors = io.StringIO()
            try:
                with contextlib.redirect_stderr(errors), contextlib.redirect_stdout(io.StringIO()):
                    build_parser().parse_args(shlex.split(command, comments=True)[1:])
            except SystemExit as exc:
                if exc.code:
                    refused.append(f"{command!r}: {errors.getvalue().strip().splitlines()[-1]}")
    assert not refused, f"{_rel(doc)}: commands the parser refuses:\n" + "\n".join(refused)


def test_the_parse_check_reads_commands_as_a_shell_would() -> None:
    block = "gui-agent run t.yaml --seeds 0-4 \\\n    --out runs/x   # comment\n$ .venv/bin/gui-agent show runs/x && gui-agent export \\\n" \
            "  $(gui-agent annotate --list-accepted --out a) --out b\nsee gui-agent eval: the prose\n"
    assert doc_commands(block) == ["gui-agent run t.yaml --seeds 0-4 --out runs/x   # comment", ".venv/bin/gui-agent show runs/x",
                                   "gui-agent export substituted --out b"]
