"""Reply formats are named in one place: no branch on a format's name outside gui_agent/action_formats/.

A format's prompt, parser, writer and image size are its record in
``gui_agent.action_formats.FORMATS``; code elsewhere asks the record
(``fmt.image_size``, ``fmt.tools``, ``fmt.parse(...)``) instead of comparing names, so a
new format is one module and one registration (docs/actions.md).
"""

from __future__ import annotations

import ast

from gui_agent.action_formats import FORMATS
from tests.paths import REPO

#: Where formats are used (tests name formats freely).
PACKAGES = ("gui_agent", "models", "replay", "recorder", "station", "scripts")
HOME = REPO / "gui_agent" / "action_formats"
_PREFIX_CALLS = ("startswith", "endswith", "removeprefix", "removesuffix")


def _names(node: ast.AST) -> set[str]:
    """Format names a string constant, or a tuple/list/set display of them, holds."""
    elements = node.elts if isinstance(node, (ast.Tuple, ast.List, ast.Set)) else [node]
    return {e.value for e in elements if isinstance(e, ast.Constant) and e.value in FORMATS}


def format_branches(source: str) -> list[str]:
    """Every place ``source`` decides by a format's name: ``fmt == "uitars"``, ``fmt in ("qwen2.5", "qwen3")``,
    ``{"uitars": ..., "pyautogui": ...}[fmt]``, ``case "json":``, ``action_format.removeprefix("qwen")``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        hit = False
        if isinstance(node, ast.Compare):
            for op, left, right in zip(node.ops, [node.left, *node.comparators], node.comparators):
                if isinstance(op, (ast.Eq, ast.NotEq, ast.Is, ast.IsNot)):
                    hit |= bool(_names(left) | _names(right)) and not isinstance(left, ast.Tuple) and not isinstance(right, ast.Tuple)
                elif isinstance(op, (ast.In, ast.NotIn)):
                    hit |= isinstance(right, (ast.Tuple, ast.List, ast.Set)) and bool(_names(right))
        elif isinstance(node, ast.Dict):  # a table by format (one key may be data: {"pyautogui": code})
            hit = sum(1 for key in node.keys if key is not None and _names(key)) > 1
        elif isinstance(node, ast.MatchValue):
            hit = bool(_names(node.value))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _PREFIX_CALLS:
            hit = "format" in ast.unparse(node.func.value).lower()
        if hit:
            found.append(f"{getattr(node, 'lineno', '?')}: {ast.unparse(node)[:100]}")
    return found


def test_the_check_finds_the_branches_it_forbids() -> None:
    bad = '''
if action_format == "uitars": pass
if self.action_format in ("qwen2.5", "qwen3", "opencua"): pass
if kind != "pyautogui": pass
version = self.action_format.removeprefix("qwen")
bounds = {"uitars": 1, "opencua": 2}[name]
match fmt:
    case "json": pass
'''
    assert len(format_branches(bad)) == 6
    fine = '''
if "pyautogui" not in code: pass
step = {"input_actions": {"pyautogui": code}}
if fmt.parses and isinstance(fmt.image_size, SmartResize): pass
Family("qwen2_vl", ("qwen2_vl",), "uitars-v1")
'''
    assert format_branches(fine) == []


def test_no_code_outside_the_registry_branches_on_a_format_name() -> None:
    offenders = []
    for package in PACKAGES:
        for path in sorted((REPO / package).rglob("*.py")):
            if HOME in path.parents:
                continue
            offenders += [f"{path.relative_to(REPO)}:{where}" for where in format_branches(path.read_text(encoding="utf-8"))]
    assert offenders == []
