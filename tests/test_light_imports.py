"""An annotator's laptop records without torch; `gui-agent --help` starts without Playwright."""

from __future__ import annotations

import subprocess
import sys

CHECK = """
import sys
import gui_agent, gui_agent.actions, gui_agent.episode, gui_agent.task, gui_agent.runner
import gui_agent.action_formats, gui_agent.evaluation, gui_agent.cli, recorder
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
import models.vlm.policy, models.vlm.sft_train, gui_agent.export.sft
print(",".join(sorted(m for m in ("datasets", "pyarrow") if m in sys.modules)))
"""


def test_a_vlm_policy_loads_without_the_export_operations_datasets() -> None:
    """A GPU box that only serves or fine-tunes a model needs no ``datasets`` (~0.8 s to import, pyarrow with it)."""
    result = subprocess.run([sys.executable, "-c", SERVE_CHECK], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == ""
