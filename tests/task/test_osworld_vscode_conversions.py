"""What OSWorld's VS Code metrics and getter become: every function of OSWorld's
metrics/vscode.py is converted or listed with its reason, and real configs (vs_code, and
the multi_apps evaluators that use these metrics, their shapes as OSWorld writes them)
convert to the checks that judge what OSWorld's functions do."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from gui_agent.checks.osworld import METRICS, NO_EQUIVALENT
from gui_agent.checks.osworld import vscode as vscode_metrics
from gui_agent.checks.osworld.getters import GETTERS, code as code_getters
from gui_agent.errors import OsworldConfigError
from gui_agent.task.osworld_import import convert_osworld
from tests.paths import FIXTURES

#: Every function of OSWorld's desktop_env/evaluators/metrics/vscode.py (its helper
#: compare_pdf_content is part of compare_zip_files).
OSWORLD_VSCODE_METRICS = (
    "check_json_keybindings", "check_json_settings", "compare_text_file", "compare_zip_files", "compare_config",
    "compare_answer", "is_extension_installed", "check_python_file_by_test_suite", "check_python_file_by_gold_file",
    "check_html_background_image", "compare_result_files",
)


def fixture(config_id: str) -> dict[str, Any]:
    return json.loads((FIXTURES / "osworld" / f"vs_code-{config_id}.json").read_text())


def evaluator_of(config: dict[str, Any]) -> dict[str, Any]:
    conversion = convert_osworld(config)
    assert conversion.complete, conversion.unsupported
    return conversion.task.model_dump(mode="json", exclude_none=True, by_alias=True)["evaluator"]


def with_evaluator(evaluator: dict[str, Any], config: dict[str, Any] | None = None) -> dict[str, Any]:
    """A config (a vs_code one by default) with another evaluator."""
    changed = copy.deepcopy(config or fixture("276cc624-87ea-4f08-ab93-f770e3790175"))
    changed["evaluator"] = evaluator
    return changed


def test_every_vscode_metric_and_getter_is_converted_or_says_why_not() -> None:
    for name in OSWORLD_VSCODE_METRICS:
        assert (name in METRICS) != (name in NO_EQUIVALENT), name
    assert set(vscode_metrics.METRICS) | set(vscode_metrics.NO_EQUIVALENT) == set(OSWORLD_VSCODE_METRICS)
    assert all(reason.startswith("no equivalent: ") for reason in vscode_metrics.NO_EQUIVALENT.values())
    assert "vscode_config" in GETTERS and set(code_getters.GETTERS) == {"vscode_config"}


def test_settings_and_keybindings_configs() -> None:
    assert evaluator_of(fixture("276cc624-87ea-4f08-ab93-f770e3790175")) == {
        "json_settings": {"path": ".config/Code/User/settings.json", "expected": {"editor.wordWrapColumn": 50}}}
    assert evaluator_of(fixture("6ed0a554-cbee-4b44-84ea-fd6c042f4fe1")) == {"json_settings": {
        "path": "project.code-workspace", "expected": {"folders": [{"path": "project"}, {"path": "data1"}, {"path": "data2"}]}}}
    assert evaluator_of(fixture("ea98c5d7-3cf9-4f9b-8ad3-366b58e0fcae")) == {"vscode_keybinding": {
        "path": ".config/Code/User/keybindings.json",
        "binding": {"key": "ctrl+f", "command": "-list.find", "when": "listFocus && listSupportsFind"}}}


def test_text_file_with_its_save_before_the_check() -> None:
    conversion = convert_osworld(fixture("ec71221e-ac43-46f9-89b8-ee7d80f7e1c5"))
    task = conversion.task.model_dump(mode="json", exclude_none=True, by_alias=True)
    assert task["evaluator"] == {"text_file_equal": {"path": "Desktop/test.py", "expected": "inputs/test_gold.py",
                                                     "ignore_blanks": False, "ignore_case": False}}
    assert {"hotkey": {"keys": ["ctrl", "s"]}} in task["post_steps"]  # OSWorld saves before reading
    assert task["setup"][1]["launch"] == {"app": "vscode", "args": ["Desktop/test.py"], "wait": True, "timeout_s": 60.0}
    assert {i.path for i in conversion.inputs} == {"inputs/test.py", "inputs/test_gold.py"}


def test_extension_and_listing_configs_judge_the_commands_output() -> None:
    assert evaluator_of(fixture("0512bb38-d531-4acf-9e7e-0add90816068")) == {"value": {
        "of": {"command_output": {"command": ["code", "--list-extensions", "|", "grep", "undefined_publisher.test"],
                                  "stream": "stdout", "strip": False, "timeout_s": 120.0}},
        "include": ["undefined_publisher.test"]}}
    listing = evaluator_of(fixture("57242fad-77ca-454f-b71b-f187181a9f23"))["value"]
    assert listing["of"]["command_output"]["command"][:2] == ["ls", "Desktop"] and listing["include"] == ["test.py"]
    absent = with_evaluator({"func": "is_extension_installed", "result": {"type": "vm_command_line", "command": ["code", "--list-extensions"]},
                             "expected": {"type": "rule", "rules": {"type": "not_contain", "expected": "ms-python.python"}}})
    assert evaluator_of(absent)["value"]["exclude"] == ["ms-python.python"]
    other = copy.deepcopy(absent)
    other["evaluator"]["expected"]["rules"]["type"] = "regex"
    with pytest.raises(OsworldConfigError, match="contain or not_contain"):
        convert_osworld(other)


def test_compare_config_reads_a_file_or_runs_a_vs_code_command() -> None:
    assert evaluator_of(fixture("982d12a5-beab-424f-8d38-d2a48429e511")) == {"value": {
        "of": {"file_text": {"path": ".config/Code/User/settings.json"}}, "equals": '{"workbench.colorTheme": "Visual Studio Dark"}\n'}}
    assert evaluator_of(fixture("53ad5833-3455-407b-bbc6-45b4c79ab8fb")) == {"value": {
        "of": {"vscode_command_result": {"command": "OpenProject", "path": "OpenProject.txt", "window": "Visual Studio Code", "timeout_s": 10.0}},
        "equals": "project"}}
    answer = with_evaluator({"func": "compare_answer", "result": {"type": "vm_command_line", "command": ["cat", "/home/user/a.txt"]},
                             "expected": {"type": "rule", "rules": {"expected": "42\n"}}})
    assert evaluator_of(answer)["value"]["equals"] == "42\n"


# Evaluators of OSWorld's multi_apps configs that use these metrics (as the configs write them).
TEST_SUITE = {"func": "check_python_file_by_test_suite", "result": {
    "type": "vm_file", "multi": True, "path": ["/home/user/Desktop/snake/food.py", "/home/user/Desktop/snake/main.py"],
    "dest": ["food.py", "main.py"]}, "expected": {"type": "cloud_file", "path": "https://example.test/suite", "dest": "test_suite.py"}}
RESULT_FILES = {"func": "compare_result_files", "result": {"type": "vm_file", "path": "/home/user/Desktop/result.txt", "dest": "result.txt"},
                "expected": {"type": "cloud_file", "path": "https://example.test/gold", "dest": "result_gold.txt"}}
ZIP_FILES = {"func": "compare_zip_files", "expected": {"type": "cloud_file", "path": "https://example.test/zip", "dest": "Gold.zip"},
             "result": {"type": "vm_file", "path": "/home/user/Essay.zip", "dest": "Essay.zip"}}
BACKGROUND = {"func": "check_html_background_image", "result": {"type": "vm_file", "path": "/home/user/Desktop/index.html", "dest": "index.html"},
              "expected": {"type": "rule", "rules": {"type:": "value", "value": "anmi_sharper.png"}}}


def test_multi_apps_evaluators() -> None:
    assert evaluator_of(with_evaluator(TEST_SUITE)) == {"python_test_suite": {
        "files": [{"path": "Desktop/snake/food.py", "name": "food.py"}, {"path": "Desktop/snake/main.py", "name": "main.py"}],
        "suite": "inputs/test_suite.py", "function": "test", "timeout_s": 120.0}}
    assert evaluator_of(with_evaluator(RESULT_FILES)) == {"result_file_equal": {"path": "Desktop/result.txt", "expected": "inputs/result_gold.txt"}}
    assert evaluator_of(with_evaluator(ZIP_FILES)) == {"zip_equal": {"path": "Essay.zip", "expected": "inputs/Gold.zip", "pdf_similarity": 0.95}}
    assert evaluator_of(with_evaluator(BACKGROUND)) == {"html_background_image": {"path": "Desktop/index.html", "image": "anmi_sharper.png"}}
    named = with_evaluator({**TEST_SUITE, "options": {"test_function_name": "test_rotation"}})
    assert evaluator_of(named)["python_test_suite"]["function"] == "test_rotation"
    wrong = with_evaluator({**TEST_SUITE, "result": {**TEST_SUITE["result"], "dest": ["food.py"]}})
    with pytest.raises(OsworldConfigError, match="a file name for each"):
        convert_osworld(wrong)


def test_the_gold_file_stub_has_no_equivalent() -> None:
    stub = with_evaluator({"func": "check_python_file_by_gold_file", "result": RESULT_FILES["result"], "expected": RESULT_FILES["expected"]})
    conversion = convert_osworld(stub)
    assert not conversion.complete and "empty stub" in conversion.unsupported[0]


def test_text_file_options_must_be_flags() -> None:
    config = fixture("ec71221e-ac43-46f9-89b8-ee7d80f7e1c5")
    config["evaluator"]["options"] = {"ignore_blanks": True}
    assert evaluator_of(config)["text_file_equal"]["ignore_blanks"] is True
    config["evaluator"]["options"] = {"ignore_case": "yes"}
    with pytest.raises(OsworldConfigError, match="true or false"):
        convert_osworld(config)
