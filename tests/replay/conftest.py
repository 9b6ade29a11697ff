"""Source episodes for replay tests: the oracle on MiniWoB++ in real headless Chromium,
through the real runner; and task files whose page is laid out differently."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.paths import REPO

ROOT = REPO
MINIWOB = ROOT / "datasets" / "tasks" / "miniwob"

#: click-button moved: a wider viewport, the task area pushed right, a spacer above it and
#: the page scrolled (the setup runs after every reset, so it must be idempotent).
SHIFTED_SETUP = (
    "if (!document.getElementById('spacer')) document.body.insertAdjacentHTML('afterbegin', "
    "'<div id=\"spacer\" style=\"height:600px\"></div>'); "
    "document.getElementById('wrap').style.marginLeft = '57px'; window.scrollTo(0, 560);"
)
#: click-button with the button the instruction asks for taken out of the page.
REMOVED_SETUP = (
    "const want = document.querySelector('#query').textContent.match(/\"(.*)\"/)[1]; "
    "document.querySelectorAll('#area button').forEach((b) => { if (b.textContent.trim() === want) b.remove(); });"
)
#: click-button shifted and restyled: the image patch no longer matches, the selector does.
RESTYLED_SETUP = SHIFTED_SETUP + (
    " document.querySelectorAll('#area button').forEach((b) => { b.style.background = '#102080'; "
    "b.style.color = '#ffff00'; b.style.fontSize = '9px'; });"
)


def task_variant(base: Path, out: Path, *, script: str, viewport: tuple[int, int] | None = None) -> Path:
    """A copy of a task file with a setup script (and another viewport)."""
    text = base.read_text()
    if viewport is not None:
        text = text.replace("viewport: {width: 160, height: 210}", f"viewport: {{width: {viewport[0]}, height: {viewport[1]}}}")
    text = text.replace("evaluator:", f"setup:\n  - run_js: {{script: {json.dumps(script)}}}\nevaluator:", 1)
    out.write_text(text)
    return out


@pytest.fixture(scope="session")
def oracle_episodes(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[Path]]:
    """Successful oracle episodes: click-button seeds 1-4, enter-text seeds 0-1, click-checkboxes seed 2."""
    from gui_agent.envs.factory import make_env
    from gui_agent.registry import load_policy
    from gui_agent.runner import run_episode
    from gui_agent.task import load_task

    root = tmp_path_factory.mktemp("oracle-episodes")
    policy = load_policy("oracle")
    found: dict[str, list[Path]] = {}
    for name, seeds in (("click-button", (1, 2, 3, 4)), ("enter-text", (0, 1)), ("click-checkboxes", (2,))):
        task = load_task(MINIWOB / f"{name}.yaml")
        env = make_env(task)
        try:
            for seed in seeds:
                result = run_episode(task, policy, out_dir=root / name, seed=seed, env=env)
                assert result.success, f"the oracle failed {name} seed {seed}: {result.reason}"
                found.setdefault(name, []).append(result.episode_path)
        finally:
            env.close()
    return found


@pytest.fixture
def copy_episode(tmp_path: Path):  # type: ignore[no-untyped-def]
    def copy(path: Path) -> Path:
        target = tmp_path / "copies" / path.name
        shutil.copytree(path, target)
        return target

    return copy
