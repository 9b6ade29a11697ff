"""gui-agent installs under one import namespace, so a user's own top-level packages never collide.

A user's project often has its own ``models/`` (or ``replay/``, ``recorder/``, ``station/``)
package; a distribution that installed top-level packages of those names would be
shadowed by it (or shadow it). These tests run from a folder holding such packages.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.paths import REPO

USER_PACKAGES = ("models", "replay", "recorder", "station")


@pytest.fixture
def users_project(tmp_path: Path) -> Path:
    """A folder with the user's own ``models/``, ``replay/``, ``recorder/`` and ``station/`` packages."""
    for name in USER_PACKAGES:
        (tmp_path / name).mkdir()
        (tmp_path / name / "__init__.py").write_text(f"OWNER = 'user'\nNAME = {name!r}\n")
    return tmp_path


def _run(argv: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {"PATH": str(Path(sys.executable).parent) + ":/usr/bin:/bin", "PYTHONPATH": ""}
    return subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=120, env=env)


def test_library_imports_find_ours_and_the_users_packages_side_by_side(users_project: Path) -> None:
    code = (
        "import models, replay, recorder, station\n"
        "assert {models.OWNER, replay.OWNER, recorder.OWNER, station.OWNER} == {'user'}\n"
        "import gui_agent.models.policies.specs, gui_agent.replay.builder, gui_agent.recorder.reduce, gui_agent.station.queue\n"
        "import gui_agent.models, gui_agent.replay, gui_agent.recorder, gui_agent.station\n"
        "print(gui_agent.models.__file__, gui_agent.station.__file__)\n"
    )
    result = _run([sys.executable, "-c", code], users_project)
    assert result.returncode == 0, result.stderr
    assert str(REPO / "models") in result.stdout and str(REPO / "station") in result.stdout


def test_python_dash_m_gui_agent_resolves_policies_from_a_folder_with_its_own_models(users_project: Path) -> None:
    """``--policy pixel`` loads gui-agent's pixel policy, not ``models`` of the current folder."""
    code = "from gui_agent.registry import load_policy; p = load_policy('pixel'); print(type(p).__module__)"
    result = _run([sys.executable, "-c", code], users_project)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "gui_agent.models.pixel.policy"
    help_run = _run([sys.executable, "-m", "gui_agent", "run", "--help"], users_project)
    assert help_run.returncode == 0, help_run.stderr


@pytest.mark.slow
def test_the_cli_runs_a_task_with_the_pixel_policy_from_a_folder_with_its_own_models(users_project: Path) -> None:
    cli = Path(sys.executable).parent / "gui-agent"
    task = REPO / "datasets" / "tasks" / "miniwob" / "click-button.yaml"
    result = _run([str(cli), "run", str(task), "--policy", "pixel", "--out", str(users_project / "runs"), "--quiet"], users_project)
    assert result.returncode in (0, 1), result.stdout + result.stderr  # success or the agent's failure, never a crash
    assert "Traceback" not in result.stderr
    assert list((users_project / "runs").rglob("episode.json"))
