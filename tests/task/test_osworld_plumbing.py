"""What OSWorld's configs do for its VM's sake, converted to what this desktop does:
``socat`` forwarding DevTools (left out), ``pkill APP`` (the app quit), windows named after
Google's and Microsoft's programs (found by our apps' titles), gedit for text files."""

from __future__ import annotations

from typing import Any

import pytest

from gui_agent.envs.desktop.apps.catalogue import get_app
from gui_agent.task.osworld_import import convert_osworld


def _config(steps: list[dict[str, Any]], post: list[dict[str, Any]] | None = None, apps: list[str] | None = None) -> dict:
    return {"id": "plumbing", "instruction": "x", "related_apps": apps or ["chrome"], "config": steps,
            "evaluator": {"func": "infeasible", "postconfig": post or []}}


def _dumped(config: dict) -> dict:
    conversion = convert_osworld(config)
    assert conversion.complete, conversion.unsupported
    return conversion.task.model_dump(mode="json", by_alias=True, exclude_unset=True)


def test_socat_is_left_out_and_chrome_launches_with_its_own_port() -> None:
    task = _dumped(_config([
        {"type": "launch", "parameters": {"command": ["google-chrome", "--remote-debugging-port=1337"]}},
        {"type": "launch", "parameters": {"command": ["socat", "tcp-listen:9222,fork", "tcp:localhost:1337"]}},
    ]))
    assert task["setup"] == [{"launch": {"app": "chrome"}}]


@pytest.mark.parametrize("step", [
    {"type": "launch", "parameters": {"command": ["pkill", "chrome"]}},
    {"type": "execute", "parameters": {"command": ["pkill", "chrome"]}},
    {"type": "execute", "parameters": {"command": "pkill chrome", "shell": True}},
])
def test_pkill_of_an_app_quits_that_app(step: dict) -> None:
    assert _dumped(_config([], post=[step]))["post_steps"] == [{"quit_app": {"app": "chrome"}}]


def test_pkill_of_something_else_is_still_refused() -> None:
    conversion = convert_osworld(_config([{"type": "execute", "parameters": {"command": ["pkill", "python"]}}]))
    assert not conversion.complete


def test_windows_named_after_the_vms_programs_are_found_by_our_titles() -> None:
    task = _dumped(_config([{"type": "activate_window", "parameters": {"window_name": "Google Chrome"}}]))
    assert task["setup"] == [{"activate_window": {"title": get_app("chrome").window_title}}]
    assert task["environment"]["apps"] == ["chrome"]


def test_text_and_json_files_open_in_gedit_whose_titles_are_osworlds() -> None:
    task = _dumped(_config([
        {"type": "open", "parameters": {"path": "/home/user/Desktop/restaurants.txt"}},
        {"type": "activate_window", "parameters": {"window_name": "restaurants.txt (~/Desktop) - gedit", "strict": True}},
    ], apps=["os"]))
    assert task["setup"][0] == {"open_file": {"path": "Desktop/restaurants.txt", "app": "text_editor"}}
    import re
    assert re.search(task["setup"][1]["activate_window"]["title"], "restaurants.txt (~/Desktop) - gedit")
    assert re.search(get_app("text_editor").window_for_file("restaurants.txt"), "restaurants.txt (~/Desktop) - gedit")


def test_extensions_from_the_marketplace_are_refused_and_vsix_files_install() -> None:
    online = convert_osworld(_config([{"type": "execute", "parameters": {"command": ["code", "--install-extension", "ms-python.python"]}}],
                                     apps=["vscode"]))
    assert not online.complete and "marketplace" in online.unsupported[0]
    local = _dumped(_config([{"type": "execute", "parameters": {"command": ["code", "--install-extension", "/home/user/eval.vsix"]}}],
                            apps=["vscode"]))
    assert local["setup"] == [{"run_command": {"command": ["code", "--install-extension", "eval.vsix"]}}]


def test_a_config_in_a_windows_folder_is_a_windows_variant() -> None:
    from gui_agent.task.osworld_import import is_windows_variant, task_file_name

    config = _config([])
    assert is_windows_variant("OSWorld/evaluation_examples/examples/Windows/multi_apps/x.json", config)
    assert not is_windows_variant("OSWorld/evaluation_examples/examples/multi_apps/x.json", config)
    assert task_file_name(config, "examples/Windows/multi_apps/plumbing.json") == "multi_apps-plumbing-win.yaml"


def test_an_empty_evaluator_function_is_a_config_error_naming_it() -> None:
    from gui_agent.errors import OsworldConfigError

    config = _config([])
    config["evaluator"] = {"func": "", "result": {}, "expected": {}}
    with pytest.raises(OsworldConfigError, match="evaluator.func: empty"):
        convert_osworld(config)
