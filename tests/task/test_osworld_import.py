"""``gui-agent import-osworld``: the eight OSWorld samples, what converts and what does not,
and a converted task run on real LibreOffice with locally supplied inputs."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import openpyxl
import pytest

from gui_agent.actions import Done
from gui_agent.checks.osworld.config import home_path
from gui_agent.cli import main
from gui_agent.envs.base import Observation
from gui_agent.policy import PolicyOutput, TaskContext
from gui_agent.runner import run_episode
from gui_agent.task import load_task
from gui_agent.task.osworld_import import convert_osworld
from tests.paths import REPO

ROOT = REPO
#: The eight OSWorld configs (Apache-2.0, unchanged; see the README there).
SAMPLES = ROOT / "tests" / "fixtures" / "osworld"
CALC_SAMPLE = "libreoffice_calc-1e8df695-bd1b-45b3-b557-e7d599cf7597.json"


def _sample(name: str) -> dict:
    return json.loads((SAMPLES / name).read_text())


def test_calc_task_converts_completely() -> None:
    conversion = convert_osworld(_sample(CALC_SAMPLE))
    assert conversion.complete and not conversion.unsupported
    task = conversion.task.model_dump(mode="json", by_alias=True, exclude_unset=True)
    assert task["id"] == "osworld.libreoffice_calc.1e8df695-bd1b-45b3-b557-e7d599cf7597"
    assert task["source"] == "osworld:1e8df695-bd1b-45b3-b557-e7d599cf7597"
    assert task["environment"] == {"kind": "desktop", "screen": {"width": 1920, "height": 1080}, "apps": ["calc"]}
    assert task["setup"] == [
        {"place_file": {"path": "WeeklySales.xlsx", "from": "inputs/WeeklySales.xlsx",
                        "source_url": conversion.inputs[0].url}},
        {"open_file": {"path": "WeeklySales.xlsx", "app": "calc"}},
    ]
    assert task["post_steps"] == [
        {"activate_window": {"title": r"^WeeklySales\.xlsx\ \-\ LibreOffice\ Calc$"}},
        {"sleep": {"seconds": 0.5}}, {"hotkey": {"keys": ["ctrl", "s"]}}, {"sleep": {"seconds": 0.5}},
    ]
    assert task["evaluator"] == {"sheet_data_equal": {"path": "WeeklySales.xlsx", "expected": "inputs/6_WeeklySales_gt1.xlsx", "sheets": [0],
                                                      "precision": 4}}
    assert [i.path for i in conversion.inputs] == ["inputs/WeeklySales.xlsx", "inputs/6_WeeklySales_gt1.xlsx"]
    assert all(i.url.startswith("https://huggingface.co/") for i in conversion.inputs)


@pytest.mark.parametrize(
    ("name", "unsupported"),
    [
        ("thunderbird-37b9808f-b2b4-4177-ab00-9ddfae4bad27.json", ["it runs 'timedatectl'", "it runs 'timedatectl'"]),
    ],
)
def test_parts_without_equivalent_are_listed(name: str, unsupported: list[str]) -> None:
    conversion = convert_osworld(_sample(name))
    assert not conversion.complete
    assert len(conversion.unsupported) == len(unsupported)
    for part, needle in zip(conversion.unsupported, unsupported):
        assert needle in part
    assert "Parts with no equivalent" in (conversion.task.description or "")
    if any("postconfig" not in u for u in conversion.unsupported):
        assert conversion.task.evaluator is None  # never a partial evaluator


def test_checks_of_the_accessibility_tree_turn_the_apps_accessibility_on() -> None:
    conversion = convert_osworld(_sample("thunderbird-15c3b339-88f7-4a86-ab16-e71c58dcb01e.json"))
    assert conversion.complete, conversion.unsupported
    assert conversion.task.environment.accessibility is True
    assert "accessibility_tree" in json.dumps(conversion.task.model_dump(mode="json", by_alias=True, exclude_unset=True)["evaluator"])

def test_thunderbird_steps_become_home_relative() -> None:
    task = convert_osworld(_sample("thunderbird-10a730d5-d414-4b40-b479-684bed1ae522.json")).task
    dumped = task.model_dump(mode="json", by_alias=True, exclude_unset=True)
    assert dumped["environment"]["apps"] == ["thunderbird"] and "mail" in dumped["environment"]
    assert dumped["setup"][1] == {"run_command": {"command": [
        "tar", "-xzv", "--recursive-unlink", "-f", "thunderbird-profile.tar.gz", "-C", "."]}}
    assert dumped["setup"][2] == {"launch": {"app": "thunderbird"}}


def test_paths_outside_the_vm_home_have_no_equivalent() -> None:
    assert home_path("/home/user/a/b.xlsx") == "a/b.xlsx"
    config = _sample(CALC_SAMPLE)
    config["config"][0]["parameters"]["files"][0]["path"] = "/tmp/x.xlsx"
    conversion = convert_osworld(config)
    assert any("outside the VM user's home" in u for u in conversion.unsupported)
    with pytest.raises(ValueError, match="not an OSWorld task config"):
        convert_osworld({"hello": 1})


def test_cli_writes_valid_task_files_and_reports(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    names = sorted(p.name for p in SAMPLES.glob("*.json"))
    assert len(names) >= 25
    code = main(["import-osworld", *[str(SAMPLES / n) for n in names], "--out", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 1  # some parts have no equivalent
    written = sorted(tmp_path.glob("*.yaml"))
    assert [p.stem for p in written] == [n.removesuffix(".json") for n in names]  # domain-id, as the configs are named
    for path in written:
        load_task(path)  # every file is valid
    assert "converted libreoffice_calc-1e8df695" in out.replace(str(SAMPLES) + "/", "")
    assert "input to supply:" in out and "no equivalent:" in out
    assert main(["import-osworld", str(SAMPLES / names[0]), "--out", str(tmp_path)]) == 2  # exists, no --force
    (tmp_path / "bad.json").write_text("{not json")
    assert main(["import-osworld", str(tmp_path / "bad.json")]) == 2
    assert "bad.json:1: not JSON" in capsys.readouterr().out


class FinishAtOnce:
    name = "finish-at-once"

    def reset(self, task: TaskContext) -> None:
        pass

    def act(self, observation: Observation) -> PolicyOutput:
        return PolicyOutput(actions=[Done()])


@pytest.mark.slow
def test_converted_task_runs_with_supplied_inputs(tmp_path: Path) -> None:
    """The converted setup (place + open in Calc), post steps (activate, Ctrl+S) and the
    sheet_data_equal check run for real; the inputs are supplied locally, as the import says."""
    assert main(["import-osworld", str(SAMPLES / CALC_SAMPLE), "--out", str(tmp_path)]) == 0
    inputs = tmp_path / "inputs"
    inputs.mkdir()
    workbook = openpyxl.Workbook()
    for row in (["Week", "Sales", "COGS"], [1, 100, 60], [2, 120, 70]):
        workbook.active.append(row)
    workbook.save(inputs / "WeeklySales.xlsx")
    shutil.copyfile(inputs / "WeeklySales.xlsx", inputs / "6_WeeklySales_gt1.xlsx")  # gold: "already solved"
    task = load_task(next(tmp_path.glob("*.yaml")))
    result = run_episode(task, FinishAtOnce(), out_dir=tmp_path / "runs")
    assert result.success, result.detail
    workbook.active["D1"] = "Profit"  # now the gold has a column the file lacks
    workbook.save(inputs / "6_WeeklySales_gt1.xlsx")
    result = run_episode(task, FinishAtOnce(), out_dir=tmp_path / "runs")
    assert not result.success and "D1 is None, expected 'Profit'" in result.detail["reason"]
