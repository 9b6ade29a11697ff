"""gedit opens a text file in a window titled as on OSWorld's Ubuntu, which imported
tasks activate by that title."""

from __future__ import annotations

from pathlib import Path

import pytest

from gui_agent.envs.factory import make_env
from gui_agent.task import load_task


@pytest.mark.slow
def test_a_text_file_opens_in_gedit_titled_as_osworld_expects(tmp_path: Path) -> None:
    (tmp_path / "inputs").mkdir()
    (tmp_path / "inputs" / "restaurants.txt").write_text("Tim Ho Wan\n")
    (tmp_path / "task.yaml").write_text(
        "id: t\ninstruction: x\nenvironment: {kind: desktop, apps: [text_editor], screen: {width: 1280, height: 800}}\n"
        "setup:\n  - place_file: {path: Desktop/restaurants.txt, from: inputs/restaurants.txt}\n"
        "  - open_file: {path: Desktop/restaurants.txt, app: text_editor}\n"
        "evaluator: {file_exists: {path: Desktop/restaurants.txt}}\n"
    )
    task = load_task(tmp_path / "task.yaml")
    with make_env(task) as env:
        env.reset(options={"setup": list(task.setup), "instruction": task.instruction})
        title = env.run_command(["xdotool", "getactivewindow", "getwindowname"]).stdout.strip()
    assert title == "restaurants.txt (~/Desktop) - gedit"
