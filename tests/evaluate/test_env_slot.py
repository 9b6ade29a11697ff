"""The environment slot keeps one environment across episodes: what it builds the
environment from decides, and nothing else (the runner's own limits do not)."""

from __future__ import annotations

from pathlib import Path

import pytest

from gui_agent.runner import EnvSlot
from gui_agent.task import load_task
from tests.paths import REPO

PIXEL = REPO / "datasets" / "tasks" / "miniwob-pixel"
DESKTOP_TASK = "id: t\ninstruction: Look.\nenvironment: {kind: desktop, screen: {width: 640, height: 480}}\n"


@pytest.mark.slow
def test_tasks_that_differ_only_in_the_runners_limits_share_one_browser(tmp_path: Path) -> None:
    button, option = load_task(PIXEL / "click-button.yaml"), load_task(PIXEL / "click-option.yaml")
    assert button.limits.max_steps != option.limits.max_steps  # what used to force a new browser
    slot = EnvSlot()
    try:
        first = slot.get(button)
        first.reset(seed=0)
        browser = first.pid  # type: ignore[attr-defined]
        assert browser is not None
        assert slot.get(option) is first
        obs, _ = first.reset(seed=0)
        assert obs.instruction and "Select" in obs.instruction  # click-option's page, in the same browser
        assert first.pid == browser  # type: ignore[attr-defined]
        slower = option.model_copy(update={"limits": option.limits.model_copy(update={"step_timeout_s": 20})})
        assert slot.get(slower) is not first  # the environment is built with the step timeout: a new one
    finally:
        slot.close()


def test_desktop_tasks_from_other_folders_get_their_own_desktop(tmp_path: Path) -> None:
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "task.yaml").write_text(DESKTOP_TASK)
    slot = EnvSlot()
    try:
        first = slot.get(load_task(tmp_path / "a" / "task.yaml"))  # built, not started
        assert slot.get(load_task(tmp_path / "a" / "task.yaml")) is first
        assert slot.get(load_task(tmp_path / "b" / "task.yaml")) is not first  # its setup files are elsewhere
    finally:
        slot.close()
