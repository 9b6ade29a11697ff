"""One OSWorld evaluator function being converted: its ``result``, ``expected`` and
``options``, with the files they name (:class:`Metric`), and the pieces several families'
conversions share (OSWorld's value rules, expect/unexpect lists).

What a conversion returns is a list of checks as a task file writes them (plain dicts,
validated when the converted task is); :class:`OsworldUnsupported` says a part has no
equivalent, :class:`~gui_agent.checks.osworld.config.ConfigError` that the config's
shape is wrong.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from gui_agent.checks.osworld.config import home_path
from gui_agent.errors import OsworldConfigError, OsworldUnsupported
from gui_agent.checks.value_rules import FLAG_NAMES

#: A check as a task file writes it (``{"cell_value": {...}}``).
Check = dict[str, Any]
#: The getters :class:`Metric` reads itself: files (the VM's, downloads, post steps'
#: output) and literal rules. Every other getter is a source (:mod:`..getters`).
BUILT_IN_GETTERS = frozenset({"vm_file", "cloud_file", "cache_file", "rule"})


class Files(Protocol):
    """What metric conversion needs from the config being converted (its inputs and outputs)."""

    def declare(self, url: str, name: str) -> str: ...

    def downloaded(self, vm_path: str) -> str | None: ...

    def cache_file(self, name: str) -> str | None: ...

    def cache_producer(self, name: str) -> list[str] | None: ...

    def drop_producer(self, name: str, reason: str) -> None: ...


class Metric:
    """One ``func`` of an evaluator with its ``result``, ``expected`` and ``options``."""

    def __init__(self, func: str, result: Any, expected: Any, options: Any, where: str, files: Files) -> None:
        self.func, self.result, self.expected, self.where, self.files = func, result, expected, where, files
        if options is not None and not isinstance(options, dict):
            raise OsworldConfigError(f"{where}.options", f"expected a mapping, got {type(options).__name__}")
        self.options: dict[str, Any] = options or {}

    # ------------------------------------------------------------------ files
    def result_paths(self) -> list[str]:
        """The home-relative paths a ``vm_file`` result names (several with ``multi``)."""
        result = self.result
        if not isinstance(result, dict):
            raise OsworldConfigError(f"{self.where}.result", f"expected a mapping with 'type', got {kind_of(result)}")
        kind = result.get("type")
        if kind == "vm_file":
            paths = result.get("path")
            listed = paths if isinstance(paths, list) else [paths]
            if not listed or not all(isinstance(p, str) and p for p in listed):
                raise OsworldConfigError(f"{self.where}.result.path", "expected a path (or a list of paths with multi)")
            return [home_path(p) for p in listed]
        if kind == "cache_file":
            name = result.get("path")
            if not isinstance(name, str) or not name:
                raise OsworldConfigError(f"{self.where}.result.path", "expected the cache file's name")
            made = self.files.cache_file(name)
            if made is None:
                raise OsworldUnsupported(f"the result is the cache file {name!r}, which no post step writes")
            return [made]
        raise OsworldUnsupported(f"results of type {kind!r} have no equivalent (files in the home folder do: vm_file, cache_file)")

    def result_path(self, *suffixes: str) -> str:
        paths = self.result_paths()
        if suffixes:
            fitting = [p for p in paths if p.lower().endswith(suffixes)]
            if fitting:
                return fitting[0]
        return paths[0]

    def expected_files(self) -> list[str]:
        """Task paths of the expected file(s): declared inputs."""
        expected = self.expected
        if not isinstance(expected, dict):
            raise OsworldConfigError(f"{self.where}.expected", f"expected a mapping with 'type', got {kind_of(expected)}")
        kind = expected.get("type")
        paths = expected.get("path")
        listed = paths if isinstance(paths, list) else [paths]
        if not listed or not all(isinstance(p, str) and p for p in listed):
            raise OsworldConfigError(f"{self.where}.expected.path", "expected a path or URL (or a list of them with multi)")
        if kind == "cloud_file":
            dests = expected.get("dest")
            names = dests if isinstance(dests, list) else [dests] * len(listed)
            if len(names) != len(listed):
                raise OsworldConfigError(f"{self.where}.expected.dest", f"expected {len(listed)} names, one per path")
            return [self.files.declare(url, name if isinstance(name, str) and name else url) for url, name in zip(listed, names)]
        if kind == "vm_file":
            found = []
            for path in listed:
                local = self.files.downloaded(path)
                if local is None:
                    raise OsworldUnsupported(f"the expected file {path!r} is made in the VM, not downloaded, so it cannot be supplied")
                found.append(local)
            return found
        raise OsworldUnsupported(f"expected of type {kind!r} has no equivalent here (files: cloud_file, vm_file)")

    def expected_file(self, *suffixes: str) -> str:
        files = self.expected_files()
        fitting = [f for f in files if f.lower().endswith(suffixes)] if suffixes else files
        return (fitting or files)[0]

    def rules(self) -> dict[str, Any]:
        """``expected.rules`` of a ``rule`` expectation."""
        if not isinstance(self.expected, dict) or self.expected.get("type") != "rule":
            raise OsworldConfigError(f"{self.where}.expected", "expected {type: rule, rules: ...}")
        rules = self.expected.get("rules")
        if not isinstance(rules, (dict, list)):
            raise OsworldConfigError(f"{self.where}.expected.rules", f"expected a mapping, got {kind_of(rules)}")
        return rules if isinstance(rules, dict) else {"list": rules}


def kind_of(value: Any) -> str:
    """What a config value is, for messages (``nothing``, ``str``, ``list``)."""
    return "nothing" if value is None else type(value).__name__


def value_rule(rule: Any, where: str) -> dict[str, Any]:
    """An OSWorld rule (``{method, ref}``) at ``where`` in the config as our value rule's fields."""
    if not isinstance(rule, dict) or "method" not in rule:
        raise OsworldConfigError(where, "expected a rule {method: ..., ref: ...}")
    try:
        return _from_osworld(rule)
    except ValueError as exc:
        raise OsworldUnsupported(str(exc)) from None


def _from_osworld(rule: dict[str, Any]) -> dict[str, Any]:
    """An OSWorld rule (``{"method": "approx:0.001", "ref": 3}``, ``"re.S"``, ``"range.te"``)
    as our :class:`~gui_agent.checks.value_rules.ValueRule` fields.

    Raises:
        ValueError: the method has no equivalent here.
    """
    method = str(rule.get("method", ""))
    ref = rule.get("ref")
    if method.startswith("approx:"):
        return {"method": "approx", "ref": ref, "tolerance": float(method.split(":", 1)[1])}
    if method == "re" or method.startswith("re."):
        flags = [f for f in method.split(".")[1:] if f]
        unknown = [f for f in flags if f not in FLAG_NAMES]
        if unknown:
            raise ValueError(f"regex flags {unknown} are not re flag names")
        return {"method": "re", "ref": ref, "flags": flags}
    if method.startswith("range.") and len(method) == 8:
        return {"method": "in_range", "ref": ref, "inclusive": method[6:8]}
    if method in ("eq", "ne", "lt", "le", "ge", "gt", "str_list_eq", "str_set_eq"):
        return {"method": method, "ref": ref}
    raise ValueError(f"match method {method!r} has no equivalent")


def expect_unexpect(rules: dict[str, Any], where: str, convert: Callable[[Any, str], Any]) -> dict[str, Any]:
    """``expect`` and ``unexpect`` of OSWorld's rules, each converted; at least one must be there."""
    out = {}
    for key in ("expect", "unexpect"):
        if key in rules:
            out[key] = convert(rules[key], f"{where}.{key}")
    if not out:
        raise OsworldConfigError(where, "expected 'expect' and/or 'unexpect'")
    return out


def records(value: Any, where: str) -> list[dict[str, Any]]:
    """OSWorld's expected records (filters, accounts, CSV rows): field values as text, lists kept."""
    if not isinstance(value, list) or not all(isinstance(r, dict) for r in value):
        raise OsworldConfigError(where, "expected a list of records (mappings)")
    return [{str(k): (v if isinstance(v, list) else str(v)) for k, v in r.items()} for r in value]
