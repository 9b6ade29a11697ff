"""One imported OSWorld task of each of the ten domains, with the maker of its locally made
inputs: what the mixed-domain evaluation test and the reset benchmark run.

Each is a task the domain's end-to-end test solves with the desktop oracle, so a run of
all ten with ``--policy desktop-oracle`` should pass every one.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path

from gui_agent.cli import main
from tests.paths import FIXTURES
from tests.task import osworld_gimp_inputs, osworld_local_inputs, osworld_multi_apps_inputs, osworld_vlc_inputs
from tests.task import osworld_vscode_inputs
from tests.task.osworld_os_inputs import BR, write_inputs


def _no_inputs(inputs: Path) -> None:
    """A task that needs no downloaded file."""


#: Domain -> (the sample config's name under tests/fixtures/osworld, the maker of its inputs).
SAMPLES: dict[str, tuple[str, Callable[[Path], None]]] = {
    "chrome": ("chrome-af630914-714e-4a24-a7bb-f9af687d3b91", _no_inputs),
    "gimp": ("gimp-72f83cdc-bf76-4531-9a1b-eb893a13f8aa", osworld_gimp_inputs.MAKERS["72f83cdc-bf76-4531-9a1b-eb893a13f8aa"]),
    "libreoffice_calc": ("libreoffice_calc-1e8df695-bd1b-45b3-b557-e7d599cf7597",
                         osworld_local_inputs.MAKERS["1e8df695-bd1b-45b3-b557-e7d599cf7597"]),
    "libreoffice_impress": ("libreoffice_impress-73c99fb9-f828-43ce-b87a-01dc07faa224",
                            osworld_local_inputs.MAKERS["73c99fb9-f828-43ce-b87a-01dc07faa224"]),
    "libreoffice_writer": ("libreoffice_writer-3ef2b351-8a84-4ff2-8724-d86eae9b842e",
                           osworld_local_inputs.MAKERS["3ef2b351-8a84-4ff2-8724-d86eae9b842e"]),
    "multi_apps": ("multi_apps-bc2b57f3-686d-4ec9-87ce-edf850b7e442",
                   osworld_multi_apps_inputs.MAKERS["bc2b57f3-686d-4ec9-87ce-edf850b7e442"]),
    "os": (BR, partial(write_inputs, BR)),
    "thunderbird": ("thunderbird-2ad9387a-65d8-4e33-ad5b-7580065a27ca",
                    osworld_local_inputs.MAKERS["2ad9387a-65d8-4e33-ad5b-7580065a27ca"]),
    "vlc": ("vlc-8d9fd4e2-6fdb-46b0-b9b9-02f06495c62f", osworld_vlc_inputs.MAKERS["8d9fd4e2-6fdb-46b0-b9b9-02f06495c62f"]),
    "vs_code": ("vs_code-0ed39f63-6049-43d4-ba4d-5fa2fe04a951",
                osworld_vscode_inputs.MAKERS["0ed39f63-6049-43d4-ba4d-5fa2fe04a951"]),
}


def import_sample(domain: str, folder: Path) -> Path:
    """Import the domain's sample into ``folder`` (``gui-agent import-osworld``), make its
    inputs in ``folder/inputs``, and return the task file."""
    name, make_inputs = SAMPLES[domain]
    if main(["import-osworld", str(FIXTURES / "osworld" / f"{name}.json"), "--out", str(folder), "--force"]) != 0:
        raise AssertionError(f"{name} did not import completely")
    make_inputs(folder / "inputs")
    return folder / f"{name}.yaml"
