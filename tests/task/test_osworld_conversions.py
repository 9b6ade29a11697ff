"""What OSWorld's steps and evaluator functions become, config by config; no config
crashes the importer (every wrong shape is an error naming the key); Windows variants
get names of their own."""

from __future__ import annotations

import copy
import json
import time
from pathlib import Path
from typing import Any

import pytest

from gui_agent.cli import main
from gui_agent.errors import OsworldConfigError
from gui_agent.task import load_task
from gui_agent.task.osworld_import import convert_osworld, task_file_name
from tests.paths import FIXTURES

SAMPLES = FIXTURES / "osworld"


def sample(fragment: str) -> dict[str, Any]:
    (path,) = SAMPLES.glob(f"*{fragment}*.json")
    return json.loads(path.read_text())


def converted(fragment: str) -> dict[str, Any]:
    conversion = convert_osworld(sample(fragment))
    assert conversion.complete, conversion.unsupported
    return conversion.task.model_dump(mode="json", by_alias=True, exclude_unset=True)


def test_compare_table_rules_become_typed_checks() -> None:
    chart = converted("0326d92d")["evaluator"]["all_of"]
    assert chart[1] == {"chart_equal": {"path": "SalesRep.xlsx", "sheet": 0, "expected": "inputs/2_SalesRep_gt1.xlsx", "props": ["type", "title"]}}
    freeze = converted("4188d3a4")["evaluator"]["all_of"][0]
    assert freeze == {"freeze_equal": {"path": "Freeze_row_column.xlsx", "sheet": 0, "expected": "inputs/Freeze_row_column_gold.xlsx"}}
    zoom = converted("1334ca3e")["evaluator"]["all_of"][0]
    assert zoom == {"sheet_zoom": {"path": "Zoom_Out_Oversized_Cells.xlsx", "sheet": 0, "zoom": {"method": "lt", "ref": 260}}}


def test_sheets_compared_within_the_saved_file_and_by_name() -> None:
    checks = converted("0cecd4f3")["evaluator"]["all_of"]
    assert checks[0] == {"sheet_names": {"path": "copy_sheet_insert.xlsx", "same_as": "inputs/copy_sheet_insert_gold.xlsx"}}
    assert checks[1] == {"sheet_data_equal": {"path": "copy_sheet_insert.xlsx", "sheets": [0], "expected_sheets": [1], "precision": 4}}
    assert checks[2]["sheet_data_equal"]["expected"] == "inputs/copy_sheet_insert_gold.xlsx"


def test_sheet_print_reads_the_gold_csv_and_drops_the_export_step() -> None:
    conversion = convert_osworld(sample("0bf05a7d"))
    task = conversion.task.model_dump(mode="json", by_alias=True, exclude_unset=True)
    assert task["evaluator"] == {"sheet_print_equal": {"path": "Customers_New_7digit_Id.xlsx", "sheet": 0,
                                                       "expected": "inputs/Customers_New_7digit_Id_gold-Sheet1.csv", "ignore_case": False}}
    assert not any("run_command" in step for step in task["post_steps"])
    assert any("exports the sheet itself" in note for note in conversion.notes)
    assert [i.path for i in conversion.inputs] == ["inputs/Customers_New_7digit_Id.xlsx", "inputs/Customers_New_7digit_Id_gold-Sheet1.csv"]


def test_infeasible_tasks_must_be_reported_infeasible() -> None:
    for fragment in ("2bd59342", "bb8ccc78"):
        assert converted(fragment)["evaluator"] == {"infeasible_reported": {}}


def test_writer_functions() -> None:
    subscript = converted("0b17a146")["evaluator"]["all_of"]
    assert subscript[0]["document_text_equal"]["expected"] == "inputs/H2O_Factsheet_WA_Gold.docx"
    assert subscript[1] == {"run_format": {"path": "Desktop/H2O_Factsheet_WA.docx", "subscript": True}}
    assert converted("ecc2413d")["evaluator"] == {"page_breaks": {"path": "Desktop/Sample_Statutory_Declaration.docx"}}
    highlights = converted("6a33f9b9")
    assert highlights["environment"]["apps"] == ["writer"]
    assert highlights["evaluator"]["all_of"][1]["run_format"] == {
        "path": "Desktop/sample-recruitment-phone-script.odt", "mode": "none", "highlight": "FFFF00"}


def test_impress_functions_and_setup_clicks() -> None:
    moved = converted("15aece23")
    assert moved["environment"]["apps"] == ["impress"]
    # examine_shape: false with a position option: the shapes are compared by OSWorld's own
    # layout rules (its slide's title moved below its original top, the rest unmoved).
    compared = moved["evaluator"]["presentation_equal"]
    assert compared["shapes"] is False and compared["path"] == "Desktop/134_2.pptx"
    assert {"otherwise": "anything", "text": "Product Comparison", "lower": True, "min_top": 3600000} in compared["layout"]
    clicks = converted("21760ecb")
    assert {"input_actions": {"pyautogui": clicks["setup"][-1]["input_actions"]["pyautogui"]}} == clicks["setup"][-1]
    assert "doubleClick(x=960, y=540)" in clicks["setup"][-1]["input_actions"]["pyautogui"]
    audio = converted("c59742c0")["evaluator"]
    assert audio == {"presentation_media": {"path": "Desktop/Mady_and_Mia_Baseball.pptx", "kind": "audio", "slide": 0, "same_as": "inputs/Baseball.mp3"}}


def test_thunderbird_functions() -> None:
    accounts = convert_osworld(sample("bb5e4c0d"))
    task = accounts.task.model_dump(mode="json", by_alias=True, exclude_unset=True)
    assert task["evaluator"] == {"thunderbird_accounts": {"profile": ".thunderbird", "unexpect": [
        {"url": "imap://outlook.office365.com", "user": "anonym-x2024@outlook.com"}]}}
    assert "post_steps" not in task and [i.path for i in accounts.inputs] == ["inputs/thunderbird-profile.tar.gz"]
    folders = converted("2ad9387a")
    assert folders["post_steps"] == [{"run_command": {"command": ["ls", "-R", ".thunderbird/t5q2a5hp.default-release/Mail/Local Folders"],
                                                      "check": False, "stdout": ".osworld-cache/thunder-local-folder.ls"}}]
    assert folders["evaluator"]["lines_match"]["path"] == ".osworld-cache/thunder-local-folder.ls"
    prefs = converted("08c73485")
    assert prefs["post_steps"][0] == {"close_window": {"wm_class": "^thunderbird$"}}
    assert prefs["evaluator"]["thunderbird_prefs"]["unexpect"] == {
        "mail.server.default.autosync_offline_stores": {"method": "eq", "ref": False}}
    filters = converted("35253b65")["evaluator"]["thunderbird_filters"]
    assert filters["expect"] == [{"enabled": "yes", "action": "Forward", "actionValue": "anonym-x2024@gmail.com", "condition": ["ALL"]}]


def test_windows_variants_get_their_own_names_and_ids(tmp_path: Path) -> None:
    config = sample("1e8df695")
    linux, windows = tmp_path / f"{config['id']}.json", tmp_path / f"{config['id']}-win.json"
    for path in (linux, windows):
        path.write_text(json.dumps(config))
    assert task_file_name(config, linux) != task_file_name(config, windows)
    assert main(["import-osworld", str(linux), str(windows), "--out", str(tmp_path / "out")]) == 0
    ids = sorted(load_task(p).id for p in (tmp_path / "out").glob("*.yaml"))
    assert ids == [f"osworld.libreoffice_calc.{config['id']}", f"osworld.libreoffice_calc.{config['id']}.win"]


def test_a_bad_config_is_an_error_naming_file_and_key_and_the_others_still_convert(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = sample("1e8df695")
    bad = copy.deepcopy(good)
    bad["evaluator"]["result"] = ["not", "a", "mapping"]
    (tmp_path / "bad.json").write_text(json.dumps(bad))
    (tmp_path / "good.json").write_text(json.dumps(good))
    code = main(["import-osworld", str(tmp_path / "bad.json"), str(tmp_path / "good.json"), "--out", str(tmp_path / "out")])
    out = capsys.readouterr().out
    assert code == 2
    assert "bad.json: evaluator.result: expected a mapping with 'type', got list" in out
    assert [p.name for p in (tmp_path / "out").glob("*.yaml")] == [task_file_name(good)]


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix] if prefix else []
    if isinstance(value, dict):
        found += [p for k, v in value.items() for p in _paths(v, (*prefix, k))]
    elif isinstance(value, list):
        found += [p for i, v in enumerate(value) for p in _paths(v, (*prefix, i))]
    return found


def _replaced(config: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    changed = copy.deepcopy(config)
    target = changed
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return changed


def test_no_config_crashes_the_importer() -> None:
    """Every value of every sample, replaced by a value of each wrong kind: the import
    converts it or raises OsworldConfigError naming a key, never anything else."""
    started, tried, errors = time.monotonic(), 0, 0
    for path in sorted(SAMPLES.glob("*.json")):
        config = json.loads(path.read_text())
        for where in _paths(config):
            for wrong in (None, 7, "", ["x"], {"type": 3}):
                tried += 1
                try:
                    convert_osworld(_replaced(config, where, wrong), config_path=path)
                except OsworldConfigError as exc:
                    errors += 1
                    assert exc.key and str(exc).startswith(exc.key), exc
    assert tried > 2000 and errors > 100, (tried, errors)
    assert time.monotonic() - started < 120
