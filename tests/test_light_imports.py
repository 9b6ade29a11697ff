"""An annotator's laptop records without torch; `gui-agent --help` starts without Playwright."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from tests.paths import REPO

CHECK = """
import sys
import gui_agent, gui_agent.actions, gui_agent.episode, gui_agent.task, gui_agent.runner
import gui_agent.action_formats, gui_agent.checks.evaluation, gui_agent.cli, gui_agent.recorder
from gui_agent.cli import build_parser
build_parser()
heavy = sorted(m for m in ("torch", "transformers", "playwright", "miniwob", "gymnasium") if m in sys.modules)
print(",".join(heavy))
"""


def test_core_imports_load_no_heavy_package() -> None:
    result = subprocess.run([sys.executable, "-c", CHECK], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == ""


SERVE_CHECK = """
import sys
import gui_agent.models.vlm.policy, gui_agent.models.vlm.sft_train, gui_agent.export.sft
print(",".join(sorted(m for m in ("datasets", "pyarrow") if m in sys.modules)))
"""


def test_a_vlm_policy_loads_without_the_export_operations_datasets() -> None:
    """A GPU box that only serves or fine-tunes a model needs no ``datasets`` (~0.8 s to import, pyarrow with it)."""
    result = subprocess.run([sys.executable, "-c", SERVE_CHECK], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == ""


REWARD_DATA_CHECK = """
import sys
import gui_agent.export.reward, gui_agent.replay.builder
print(",".join(sorted(m for m in ("datasets", "pyarrow", "torch") if m in sys.modules)))
"""


def test_the_reward_data_format_reads_and_writes_without_datasets() -> None:
    """Replay writes and models read reward data; only the export's Features need ``datasets``."""
    result = subprocess.run([sys.executable, "-c", REWARD_DATA_CHECK], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == ""


def _imported_modules(path: Path) -> set[str]:
    """Every module an ``import`` or ``from ... import`` in ``path`` names, at any depth (lazy ones too)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return found


def test_the_core_never_imports_models_and_only_models_imports_torch() -> None:
    """The core reaches policies and scorers through the registry (entry points), never by import.

    The one exception is a CLI command's handler, which imports the package it drives
    (``gui-agent train`` imports ``models``) when it runs, as docs/architecture.md allows.
    """
    offenders = []
    for package in ("gui_agent", "recorder", "replay"):
        for path in sorted((REPO / package).rglob("*.py")):
            if path.parent == REPO / "gui_agent" / "cli":
                continue
            for module in _imported_modules(path):
                top = module.split(".")[0]
                if top in ("torch", "transformers") or module == "gui_agent.models" or module.startswith("gui_agent.models."):
                    offenders.append(f"{path.relative_to(REPO)}: imports {module}")
    assert offenders == []
