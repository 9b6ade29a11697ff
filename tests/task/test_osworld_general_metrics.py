"""OSWorld's general and os metrics, its system getters and its shell set-up steps, converted:
what each becomes, what has no equivalent (and says why), and that a converted check
judges real files and commands the way OSWorld's metric does."""

from __future__ import annotations

import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from gui_agent.checks.evaluation import evaluate
from gui_agent.checks.osworld import METRICS, NO_EQUIVALENT
from gui_agent.checks.osworld import general
from gui_agent.checks.osworld.getters import GETTERS
from gui_agent.checks.osworld.getters import NO_EQUIVALENT as NO_GETTER
from gui_agent.checks.osworld.getters.system import command_argv, shell_line
from gui_agent.errors import OsworldConfigError, OsworldUnsupported
from gui_agent.task.osworld_import import convert_osworld
from tests.checks.check_helpers import FolderProbe

RULE = "rule"


def config(evaluator: dict[str, Any], steps: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    return {"id": "0000-test", "snapshot": "os", "instruction": "test", "related_apps": ["os"], "config": steps or [],
            "evaluator": evaluator}


def converted(evaluator: dict[str, Any], steps: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    conversion = convert_osworld(config(evaluator, steps))
    assert conversion.complete, conversion.unsupported
    return conversion.task.model_dump(mode="json", by_alias=True, exclude_unset=True)


def unsupported(evaluator: dict[str, Any], steps: list[dict[str, Any]] | None = None) -> list[str]:
    conversion = convert_osworld(config(evaluator, steps))
    assert not conversion.complete
    return conversion.unsupported


def shell_getter(line: str) -> dict[str, Any]:
    return {"type": "vm_command_line", "command": line, "shell": True}


def rule(**rules: Any) -> dict[str, Any]:
    return {"type": RULE, "rules": rules}


class HomeProbe(FolderProbe):
    """Commands see the folder as ``$HOME`` (as a desktop session's do)."""

    def run_command(self, argv: Sequence[str], *, timeout_s: float = 30.0) -> subprocess.CompletedProcess[str]:
        return subprocess.run(list(argv), cwd=self.home, capture_output=True, text=True, timeout=timeout_s, check=False,
                              stdin=subprocess.DEVNULL, env={"PATH": "/usr/bin:/bin", "HOME": str(self.home)})


# ---------------------------------------------------------------------- metrics


def test_every_general_and_os_metric_is_converted_or_says_why() -> None:
    osworld = {"exact_match", "fuzzy_match", "is_in_list", "check_include_exclude", "literal_match",
               "check_direct_json_object", "is_included_all_json_objects", "diff_text_file", "file_contains",
               "compare_terminal_and_txt", "check_line_number", "fuzzy_place_math", "compare_python_pure_text",
               "compare_time_in_speedtest_results", "is_gold_text_included_in_pdf", "run_sqlite3",
               "check_gnome_favorite_apps", "is_utc_0", "check_text_enlarged", "check_moved_jpgs", "is_in_vm_clickboard"}
    assert osworld <= set(METRICS) | set(NO_EQUIVALENT)
    assert set(general.NO_EQUIVALENT) == {"check_gnome_favorite_apps", "is_utc_0", "check_text_enlarged"}
    assert "GNOME Shell" in unsupported({"func": "check_gnome_favorite_apps", "result": shell_getter("gsettings get x y"),
                                         "expected": rule(expected=["a"])})[0]
    assert "timedatectl" in unsupported({"func": "is_utc_0", "result": shell_getter("timedatectl status")})[0]


@pytest.mark.parametrize(("evaluator", "check"), [
    ({"func": "exact_match", "result": shell_getter("[ -f /home/user/a.txt ] && echo yes"), "expected": rule(expected="yes\n")},
     {"value": {"of": {"command_output": {"command": ["bash", "-c", '[ -f "$HOME"/a.txt ] && echo yes'], "strip": False,
                                          "timeout_s": 120.0}}, "equals": "yes\n"}}),
    ({"func": "check_include_exclude", "result": {"type": "vm_terminal_output"}, "expected": rule(include=["54\n"], exclude=[])},
     {"value": {"of": {"terminal_text": {}}, "include": ["54\n"], "exclude": []}}),
    ({"func": "check_include_exclude", "result": {"type": "vm_command_error", "command": ["python", "-c", "import x"]},
      "expected": rule(include=[], exclude=["Error:"])},
     {"value": {"of": {"command_output": {"command": ["python", "-c", "import x"], "stream": "stderr", "strip": False,
                                          "timeout_s": 120.0}}, "include": [], "exclude": ["Error:"]}}),
    ({"func": "is_in_list", "result": {"type": "vm_command_line", "command": ["ls", "/home/user/Desktop"]}, "expected": rule(expected="a")},
     {"value": {"of": {"command_output": {"command": ["ls", "Desktop"], "strip": False, "timeout_s": 120.0}}, "include": ["a"]}}),
    ({"func": "fuzzy_match", "result": {"type": "vm_file", "path": "/home/user/a.txt", "dest": "a"}, "expected": rule(expected="abc")},
     {"value": {"of": {"file_text": {"path": "a.txt"}}, "fuzzy": {"ref": "abc", "min_ratio": 1.0}}}),
    ({"func": "check_moved_jpgs", "result": {"type": "list_directory", "path": "/home/user/Desktop/cpjpg"},
      "expected": rule(expected=["a.jpg"])},
     {"value": {"of": {"folder_entries": {"path": "Desktop/cpjpg"}}, "set_equals": ["a.jpg"]}}),
    ({"func": "is_in_vm_clickboard", "result": rule(expected="/home/user/x.docx"),
      "expected": {"type": "vm_command_line", "command": "xsel --clipboard --output", "shell": "true"}},
     {"value": {"of": {"clipboard": {}}, "include": ["/home/user/x.docx"]}}),
    ({"func": "file_contains", "result": {"type": "vm_file", "path": "/home/user/r.txt", "dest": "r"}, "expected": rule(expected=["CPU"])},
     {"value": {"of": {"file_text": {"path": "r.txt"}}, "include": ["CPU"]}}),
    ({"func": "check_line_number", "result": {"type": "vm_file", "path": "/home/user/r.txt", "dest": "r"}, "expected": rule(expected="31")},
     {"value": {"of": {"file_text": {"path": "r.txt"}}, "lines_matching": {"pattern": general.TIME_OF_DAY, "count": 31}}}),
    ({"func": "run_sqlite3", "result": {"type": "vm_file", "path": "/home/user/m.sqlite", "dest": "m"}, "expected": rule(sql="select 1")},
     {"value": {"of": {"sqlite_value": {"path": "m.sqlite", "sql": "select 1"}}, "rule": {"method": "ge", "ref": 1}}}),
    ({"func": "fuzzy_place_math", "result": {"type": "vm_file", "path": "/home/user/Desktop/A.docx", "dest": "A"},
      "expected": rule(expected=["x", "y"])},
     {"value": {"of": {"docx_text": {"path": "Desktop/A.docx"}}, "fuzzy_words": {"answers": ["x", "y"], "count": 3, "min_score": 1.0}}}),
    ({"func": "compare_time_in_speedtest_results",
      "result": {"type": "vm_file", "path": "/home/user/Test/S-.csv", "dest": "S-.csv", "time_suffix": True},
      "expected": {"type": "time_diff_range", "diff_range_in_minutes": "60"}},
     {"value": {"of": {"file_text": {"path": "Test/S-.csv", "dated": "%Y_%m_%d"}}, "recent_time": {"within_minutes": 60.0}}}),
])
def test_metric_conversions(evaluator: dict[str, Any], check: dict[str, Any]) -> None:
    assert converted(evaluator)["evaluator"] == check


def test_file_pairs_become_same_as_with_the_gold_as_a_declared_input() -> None:
    url = "https://example.org/gold.txt"
    pairs = {"diff_text_file": "lines", "compare_python_pure_text": "no_whitespace", "compare_terminal_and_txt": "text",
             "is_included_all_json_objects": "json_within", "is_gold_text_included_in_pdf": "values_in"}
    for func, how in pairs.items():
        conversion = convert_osworld(config({"func": func, "result": {"type": "vm_file", "path": "/home/user/a.py", "dest": "a"},
                                             "expected": {"type": "cloud_file", "path": url, "dest": "gold.txt"}}))
        task = conversion.task.model_dump(mode="json", by_alias=True, exclude_unset=True)
        of = {"pdf_text": {"path": "a.py"}} if how == "values_in" else {"file_text": {"path": "a.py"}}
        assert task["evaluator"] == {"value": {"of": of, "same_as": {"of": {"task_file_text": {"path": "inputs/gold.txt"}}, "how": how}}}
        assert [(i.path, i.url) for i in conversion.inputs] == [("inputs/gold.txt", url)]


def test_direct_json_objects_and_relative_dates() -> None:
    result = {"type": "vm_command_line", "command": "python /home/user/Desktop/s.py", "shell": "true"}
    plain = converted({"func": "check_direct_json_object", "result": result, "expected": rule(expected={"a": ["x"]}, expect_in_result=True)})
    assert plain["evaluator"]["value"]["json_object"] == {"expected": {"a": ["x"]}, "expect_in_result": True}
    assert plain["evaluator"]["value"]["of"]["command_output"]["command"] == ["bash", "-c", 'python "$HOME"/Desktop/s.py']
    dated = converted({"func": "check_direct_json_object", "result": {"type": "vm_file", "path": "/home/user/o.json", "dest": "o"},
                       "expected": {"type": "rule_relativeTime", "rules": {"relativeTime": {"from": "next Monday"},
                                                                            "expected": {"time": "{DoW}"}}}})
    assert dated["evaluator"]["value"]["json_object"]["relative_time"] == {"from": "next Monday"}
    assert "cannot date" in unsupported({"func": "check_direct_json_object", "result": result,
                                         "expected": {"type": "rule_relativeTime", "rules": {"relativeTime": {"from": "someday"},
                                                                                             "expected": {"time": "x"}}}})[0]


def test_literal_match_and_wrong_shapes() -> None:
    literal = converted({"func": "literal_match", "result": {"type": "content_from_vm_file", "path": "/home/user/r.xlsx",
                                                             "file_type": "xlsx", "file_content": "last_row"},
                         "expected": rule(expected="x"), "options": {"type": "list", "ignore_case": True}})
    assert literal["evaluator"] == {"value": {"of": {"xlsx_last_row": {"path": "r.xlsx"}},
                                              "literal": {"ref": {"expected": "x"}, "as_list": True, "ignore_case": True}}}
    assert "only known when the check runs" in unsupported({"func": "literal_match", "result": {"type": "vm_file", "path": "a", "dest": "a"},
                                                            "expected": {"type": "info_from_website", "url": "https://x"}})[0]
    with pytest.raises(OsworldConfigError, match="expected.rules.expected"):
        convert_osworld(config({"func": "exact_match", "result": shell_getter("ls"), "expected": rule(wanted="x")}))
    with pytest.raises(OsworldConfigError, match="number of lines"):
        convert_osworld(config({"func": "check_line_number", "result": {"type": "vm_file", "path": "a", "dest": "a"},
                                "expected": rule(expected="many")}))


# ---------------------------------------------------------------------- getters and command lines


def test_every_system_getter_converts_or_says_why() -> None:
    system = {"vm_command_line", "vm_command_error", "vm_terminal_output", "vm_screen_size", "vm_window_size",
              "vm_wallpaper", "list_directory", "rule", "rule_relativeTime", "time_diff_range", "content_from_vm_file",
              "vm_file", "cloud_file", "cache_file", "replay"}
    assert system <= set(GETTERS) | set(NO_GETTER)
    assert {"vm_wallpaper", "replay"} <= set(NO_GETTER)


@pytest.mark.parametrize(("line", "reason"), [
    ("gsettings get org.gnome.desktop.screensaver lock-enabled", "'gsettings'"),
    ("pulseaudio --start\npactl list sinks | head -n 1", "'pulseaudio'"),
    ("which spotify", "'which'"),
    ("echo password | sudo -S apt-get install -y expect", "'apt-get' as root (sudo)"),
    ("echo password | sudo -S su - charles", "'su' as root"),
    ("mkdir /home/test1", "'/home/test1', outside the home folder"),
    ("[ -d '/test' ] && echo yes", "'/test'"),
    ("pkill chrome", "kills processes by name"),
])
def test_machine_commands_have_no_equivalent(line: str, reason: str) -> None:
    with pytest.raises(OsworldUnsupported, match=reason.replace("(", r"\(").replace(")", r"\)")):
        shell_line(line)


def test_shell_lines_reach_the_home_folder_however_quoted(tmp_path: Path) -> None:
    (tmp_path / "a b").mkdir()
    (tmp_path / "a b" / "x.txt").write_text("found")
    for line in ("cat '/home/user/a b/x.txt'", 'cat "/home/user/a b/x.txt"', "cd /home/user && cat a\\ b/x.txt",
                 "export DBUS_SESSION_BUS_ADDRESS='unix:path=/run/user/1000/bus'\ncat ~/'a b'/x.txt"):
        argv = command_argv(line, True, "evaluator.result")
        done = subprocess.run(argv, capture_output=True, text=True, env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}, cwd="/")
        assert done.stdout == "found", (line, argv, done.stderr)
    with pytest.raises(OsworldUnsupported, match="'/home/username'"):  # another user's home is not the VM user's
        shell_line("echo /home/username")
    assert shell_line("echo 'password' | sudo -S touch ~/Desktop/todo.txt && sudo mkdir ~/Desktop/done") == \
        "touch ~/Desktop/todo.txt && mkdir ~/Desktop/done"
    assert command_argv(["ls", "/home/user/Desktop/Paper_reading"], False, "x") == ["ls", "Desktop/Paper_reading"]
    assert command_argv("ls ~/Desktop", False, "x") == ["ls", "Desktop"]


def test_a_converted_exact_match_judges_the_home_folder_like_osworld(tmp_path: Path) -> None:
    task = converted(
        {"func": "exact_match",
         "result": shell_getter("[ -d ~/Desktop/todo_list_Jan_2 ] && echo 'Directory exists.' || echo 'Directory does not exist.'"),
         "expected": rule(expected="Directory exists.\n")},
        [{"type": "execute", "parameters": {"command": "echo 'password' | sudo -S mkdir ~/Desktop/todo_list_Jan_1", "shell": True}}])
    assert task["setup"] == [{"run_command": {"command": ["bash", "-c", "mkdir ~/Desktop/todo_list_Jan_1"]}}]
    probe = HomeProbe(tmp_path)
    (tmp_path / "Desktop").mkdir()
    probe.run_command(task["setup"][0]["run_command"]["command"])
    from gui_agent.task import load_task_text
    import yaml

    loaded = load_task_text(yaml.safe_dump({k: task[k] for k in ("id", "instruction", "environment", "evaluator")}))
    assert not evaluate(loaded.evaluator, probe).success  # the folder is still todo_list_Jan_1
    (tmp_path / "Desktop" / "todo_list_Jan_1").rename(tmp_path / "Desktop" / "todo_list_Jan_2")
    assert evaluate(loaded.evaluator, probe).success


# ---------------------------------------------------------------------- set-up steps


def pyautogui(code: str) -> dict[str, Any]:
    return {"type": "execute", "parameters": {"command": ["python", "-c", f"import pyautogui; import time; {code}"]}}


def test_gnome_terminal_keys_xdg_open_and_killall_become_steps() -> None:
    steps = [
        pyautogui("time.sleep(0.5); pyautogui.click(960, 540); time.sleep(0.5); pyautogui.hotkey('ctrl', 'alt', 't'); time.sleep(0.5)"),
        {"type": "activate_window", "parameters": {"window_name": "Terminal"}},
        pyautogui("pyautogui.write('cd testDir'); pyautogui.press('enter')"),
        {"type": "execute", "parameters": {"command": "export DBUS_SESSION_BUS_ADDRESS='unix:path=/run/user/1000/bus'\n"
                                                      "xdg-open /home/user/project", "shell": True}},
        {"type": "execute", "parameters": {"command": "export DBUS_SESSION_BUS_ADDRESS='unix:path=/run/user/1000/bus'\n"
                                                      "gnome-terminal --maximize --working-directory=/home/user/Desktop", "shell": True}},
        {"type": "execute", "parameters": {"command": ["/bin/bash", "-c", "killall gnome-terminal-server"]}},
        {"type": "execute", "parameters": {"command": "echo x > p.sh && nohup ./p.sh > /dev/null 2>&1 &", "shell": True}},
        {"type": "execute", "parameters": {"command": "chmod +x setup.sh", "shell": "true"}},
        pyautogui("pyautogui.press('down', presses=8, interval=0.01); time.sleep(1); pyautogui.scroll(-2)"),
    ]
    task = converted({"func": "infeasible"}, steps)
    assert task["environment"]["apps"] == ["terminal", "file_manager"]
    assert task["setup"] == [
        {"input_actions": {"pyautogui": "time.sleep(0.5); pyautogui.click(960, 540); time.sleep(0.5)"}},
        {"launch": {"app": "terminal"}},
        {"sleep": {"seconds": 0.5}},
        {"activate_window": {"title": "Terminal"}},
        {"input_actions": {"pyautogui": "pyautogui.write('cd testDir'); pyautogui.press('enter')"}},
        {"open_file": {"path": "project", "app": "file_manager"}},
        {"launch": {"app": "terminal", "args": ["--maximize", "--working-directory=Desktop"]}},
        {"close_window": {"wm_class": "^XTerm$"}},
        {"launch": {"command": ["bash", "-c", "echo x > p.sh && nohup ./p.sh > /dev/null 2>&1 &"], "wait": False}},
        {"run_command": {"command": ["bash", "-c", "chmod +x setup.sh"]}},
        {"input_actions": {"pyautogui": "pyautogui.moveTo(960, 540); pyautogui.press('down', presses=8, interval=0.01); "
                                        "time.sleep(1); pyautogui.scroll(-2)"}},
    ]


def test_steps_without_equivalent_say_why() -> None:
    reasons = unsupported({"func": "infeasible"}, [
        {"type": "execute", "parameters": {"command": "gsettings set org.gnome.desktop.notifications show-banners true", "shell": True}},
        {"type": "command", "parameters": {"command": ["pip", "install", "pygame"]}},
        {"type": "googledrive", "parameters": {}},
        {"type": "login", "parameters": {}},
    ])
    assert ["gsettings" in reasons[0], "'pip'" in reasons[1], "Google Drive" in reasons[2], "website account" in reasons[3]] == [True] * 4
