"""Imported OSWorld gimp tasks end to end through ``gui-agent run`` on the real desktop
(Xvfb, GIMP 2.10) with locally made inputs: the desktop oracle's script passes, and a
wrong script that does real work in GIMP fails, with the check having seen that work.

Three tasks whose checks differ: the mirrored berry (SSIM of the export, flipped back,
with the original), the darker photo (its brightness against the original, and the
brightness-normalised MSE), and the hidden docks (a line of the ``sessionrc`` GIMP writes
when the post steps quit it).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from gui_agent.models.policies.desktop_oracle import osworld_gimp
from gui_agent.models.policies.desktop_oracle.policy import DesktopOraclePolicy
from tests.task.osworld_gimp_inputs import MAKERS
from tests.task.osworld_e2e import imported, leaf, passes_right_and_fails_wrong, scripted

_MODULE = "py:tests.task.test_osworld_e2e_gimp"


def flip_vertically() -> DesktopOraclePolicy:
    """72f83cdc done wrong: Image > Transform > Flip Vertically."""
    return scripted(osworld_gimp.MIRROR, lambda: osworld_gimp.flip("v"), "scripted-flip-vertically")


def brighter() -> DesktopOraclePolicy:
    """7a4deb26 done wrong: Brightness-Contrast with +40 brightness."""
    return scripted(osworld_gimp.DARKER, lambda: osworld_gimp.brightness(40), "scripted-brighter")


def single_window_off() -> DesktopOraclePolicy:
    """d52d6308 done wrong: the docks become windows of their own instead of being hidden."""
    return scripted(osworld_gimp.HIDE_DOCKS, osworld_gimp.single_window_mode_off, "scripted-single-window-off")


def mirrored_the_wrong_way(detail: dict[str, Any]) -> bool:
    observed = leaf(detail, "image_similar")["observed"]
    return observed["image"] == "320x240 RGB" and observed["ssim"]["ssim"] < 0.5


def made_it_brighter(detail: dict[str, Any]) -> bool:
    observed = leaf(detail, "image_measure")["observed"]
    return observed["brightness"] > observed["reference"] + 10


def left_docks_shown(detail: dict[str, Any]) -> bool:
    return leaf(detail, "gimp_config")["observed"]["same_key"] == ["(hide-docks no)"]


#: Fixture -> the wrong solution, and what its check must have observed.
CASES: dict[str, tuple[str, Callable[[dict[str, Any]], bool]]] = {
    "gimp-72f83cdc-bf76-4531-9a1b-eb893a13f8aa": (f"{_MODULE}:flip_vertically", mirrored_the_wrong_way),
    "gimp-7a4deb26-d57d-4ea9-9a73-630f66a7b568": (f"{_MODULE}:brighter", made_it_brighter),
    "gimp-d52d6308-ec58-42b7-a2c9-de80e4837b2b": (f"{_MODULE}:single_window_off", left_docks_shown),
}


@pytest.mark.slow
@pytest.mark.parametrize("name", CASES)
def test_imported_gimp_task_passes_the_oracle_and_fails_real_wrong_work(name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    wrong, saw_the_wrong_work = CASES[name]
    task_file = imported(name, tmp_path / "tasks", MAKERS[name.split("-", 1)[1]])
    passes_right_and_fails_wrong(task_file, wrong, saw_the_wrong_work, tmp_path, capsys)
