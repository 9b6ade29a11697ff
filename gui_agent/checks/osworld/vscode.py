"""OSWorld's ``metrics/vscode.py`` as our checks (the ``code`` family, and ``value`` checks
for the metrics that judge a getter's value).

===============================  ==============================================================
OSWorld metric                   check
===============================  ==============================================================
``compare_text_file``            ``text_file_equal`` (``ignore_blanks``, ``ignore_case``)
``compare_config``               ``value`` equals the rule's text (the result file's text, or
                                 what a ``vscode_config`` command wrote)
``compare_answer``               ``value`` equals the rule's ``expected``
``compare_result_files``         ``result_file_equal``
``is_extension_installed``       ``value`` includes (``contain``) / excludes (``not_contain``)
                                 the text: OSWorld's configs read ``code --list-extensions``
                                 (``code`` is the vscode app's command line) or ``ls``
``check_json_settings``          ``json_settings``
``check_json_keybindings``       ``vscode_keybinding``
``check_python_file_by_test_suite``  ``python_test_suite`` (in a separate Python, bounded)
``check_html_background_image``  ``html_background_image``
``compare_zip_files``            ``zip_equal``
===============================  ==============================================================
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable
from typing import Any

from gui_agent.checks.osworld.getters import source_of
from gui_agent.checks.osworld.metric import Check, Metric, kind_of
from gui_agent.errors import OsworldConfigError


def _rule(metric: Metric, key: str, kind: type | tuple[type, ...] | None = None) -> Any:
    """``expected.rules[key]`` (of the given type)."""
    rules = metric.rules()
    if key not in rules:
        raise OsworldConfigError(f"{metric.where}.expected.rules.{key}", "missing")
    value = rules[key]
    if kind is not None and not isinstance(value, kind):
        raise OsworldConfigError(f"{metric.where}.expected.rules.{key}", f"expected a {getattr(kind, '__name__', kind)}, got {kind_of(value)}")
    return value


def _flag(metric: Metric, name: str) -> bool:
    value = metric.options.get(name, False)
    if not isinstance(value, bool):
        raise OsworldConfigError(f"{metric.where}.options.{name}", f"expected true or false, got {kind_of(value)}")
    return value


def _result_value(metric: Metric) -> dict[str, Any]:
    return source_of(metric.result, f"{metric.where}.result", metric.files)


def compare_text_file(metric: Metric) -> list[Check]:
    return [{"text_file_equal": {"path": metric.result_path(), "expected": metric.expected_file(),
                                 "ignore_blanks": _flag(metric, "ignore_blanks"), "ignore_case": _flag(metric, "ignore_case")}}]


def compare_config(metric: Metric) -> list[Check]:
    return [{"value": {"of": _result_value(metric), "equals": _rule(metric, "expected", str)}}]


def compare_answer(metric: Metric) -> list[Check]:
    return [{"value": {"of": _result_value(metric), "equals": _rule(metric, "expected")}}]


def compare_result_files(metric: Metric) -> list[Check]:
    return [{"result_file_equal": {"path": metric.result_path(), "expected": metric.expected_file()}}]


def is_extension_installed(metric: Metric) -> list[Check]:
    kind = _rule(metric, "type", str)
    text = _rule(metric, "expected", str)
    if kind not in ("contain", "not_contain"):
        raise OsworldConfigError(f"{metric.where}.expected.rules.type", f"expected contain or not_contain, got {kind!r}")
    judgement = "include" if kind == "contain" else "exclude"
    return [{"value": {"of": _result_value(metric), judgement: [text]}}]


def check_json_settings(metric: Metric) -> list[Check]:
    return [{"json_settings": {"path": metric.result_path(), "expected": _rule(metric, "expected", dict)}}]


def check_json_keybindings(metric: Metric) -> list[Check]:
    return [{"vscode_keybinding": {"path": metric.result_path(), "binding": _rule(metric, "expected", dict)}}]


def check_python_file_by_test_suite(metric: Metric) -> list[Check]:
    paths = metric.result_paths()
    dest = metric.result.get("dest") if isinstance(metric.result, dict) else None
    names = dest if isinstance(dest, list) else [dest] if isinstance(dest, str) else [posixpath.basename(p) for p in paths]
    if len(names) != len(paths) or not all(isinstance(n, str) and n and "/" not in n for n in names):
        raise OsworldConfigError(f"{metric.where}.result.dest", f"expected a file name for each of the {len(paths)} path(s)")
    function = metric.options.get("test_function_name", "test")
    if not isinstance(function, str) or not function.isidentifier():
        raise OsworldConfigError(f"{metric.where}.options.test_function_name", f"expected a function name, got {function!r}")
    files = [{"path": p, "name": n} for p, n in zip(paths, names)]
    return [{"python_test_suite": {"files": files, "suite": metric.expected_file(".py"), "function": function}}]


def check_html_background_image(metric: Metric) -> list[Check]:
    return [{"html_background_image": {"path": metric.result_path(".html", ".htm"), "image": _rule(metric, "value", str)}}]


def compare_zip_files(metric: Metric) -> list[Check]:
    return [{"zip_equal": {"path": metric.result_path(".zip"), "expected": metric.expected_file(".zip")}}]


#: OSWorld metric name -> its conversion.
METRICS: dict[str, Callable[[Metric], list[Check]]] = {
    "compare_text_file": compare_text_file,
    "compare_config": compare_config,
    "compare_answer": compare_answer,
    "compare_result_files": compare_result_files,
    "is_extension_installed": is_extension_installed,
    "check_json_settings": check_json_settings,
    "check_json_keybindings": check_json_keybindings,
    "check_python_file_by_test_suite": check_python_file_by_test_suite,
    "check_html_background_image": check_html_background_image,
    "compare_zip_files": compare_zip_files,
}
#: OSWorld metric name -> why it has no equivalent here.
NO_EQUIVALENT: dict[str, str] = {
    "check_python_file_by_gold_file": "no equivalent: OSWorld's function is an empty stub (its body is `pass`, it "
                                      "returns None), so no result ever passes it; there is no judgement to convert",
}
