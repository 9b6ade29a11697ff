"""OSWorld's evaluators of files (``compare_csv``, ``check_list``, ``check_csv``,
``check_json``, ``check_pdf_pages``, ``compare_pdfs``, ``compare_pdf_images``,
``compare_archive``, ``compare_htmls``, ``compare_epub``, ``check_mp3_meta``) as checks of
the files family.

OSWorld scores ``compare_pdfs`` and ``compare_archive`` as fractions (a text similarity,
an average over files); a check passes where they give full marks.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gui_agent.checks.osworld.config import home_path
from gui_agent.checks.files.tags import EASY_NAMES
from gui_agent.errors import OsworldConfigError, OsworldUnsupported
from gui_agent.checks.osworld.metric import Check, Metric, expect_unexpect, kind_of, records, value_rule


def _known_options(metric: Metric, known: set[str]) -> None:
    unknown = sorted(set(metric.options) - known)
    if unknown:
        raise OsworldUnsupported(f"{metric.func} options {unknown} have no equivalent (known: {sorted(known)})")


def _csv_options(options: dict[str, Any]) -> dict[str, Any]:
    """OSWorld's ``compare_csv`` options as ``file_equal``'s: ``strict: false`` strips each line."""
    extra = {}
    if not options.get("strict", True):
        extra["strip"] = True
    if options.get("ignore_case", False):
        extra["ignore_case"] = True
    return extra


def compare_csv(metric: Metric) -> list[Check]:
    _known_options(metric, {"strict", "ignore_case"})
    path = metric.result_path()
    files = metric.expected_files()
    checks = [{"file_equal": {"path": path, "expected": f, **_csv_options(metric.options)}} for f in files]
    return checks if len(checks) == 1 else [{"any_of": checks}]


def _result_and_expected(metric: Metric) -> tuple[list[str], list[str]]:
    """The compared files in pairs: the result(s) the agent wrote and the expected one(s).
    A config may name them the other way round (the downloaded gold as ``result``); the
    symmetric comparisons (texts, pixels) judge the same either way."""
    result, expected = metric.result, metric.expected
    if isinstance(result, dict) and isinstance(expected, dict) and result.get("type") == "cloud_file" and expected.get("type") == "vm_file":
        metric = Metric(metric.func, expected, result, metric.options, metric.where, metric.files)
    paths, golds = metric.result_paths(), metric.expected_files()
    if len(paths) != len(golds):
        raise OsworldConfigError(f"{metric.where}.result", f"{len(paths)} result file(s) for {len(golds)} expected one(s)")
    return paths, golds


def compare_pdfs(metric: Metric) -> list[Check]:
    _known_options(metric, set())
    return [{"pdf_text": {"path": p, "expected": g}} for p, g in zip(*_result_and_expected(metric))]


def compare_pdf_images(metric: Metric) -> list[Check]:
    _known_options(metric, set())
    return [{"pdf_images": {"path": p, "expected": g}} for p, g in zip(*_result_and_expected(metric))]


#: ``compare_archive``'s ``file_type`` -> how ``archive_equal`` compares the files, and
#: the options OSWorld passes on to that comparison.
_ARCHIVE_FILES = {"text": ("text", {"ignore_blanks", "ignore_case"}), "csv": ("lines", {"strict", "ignore_case"}), "pdf": ("pdf", set())}


def compare_archive(metric: Metric) -> list[Check]:
    options = dict(metric.options)
    folder, kind = options.pop("file_path", ""), options.pop("file_type", "text")
    if not isinstance(kind, str):
        raise OsworldConfigError(f"{metric.where}.options.file_type", f"expected a file type (text, csv, pdf...), got {kind_of(kind)}")
    if kind not in _ARCHIVE_FILES:
        raise OsworldUnsupported(f"compare_archive of {kind!r} files: only text, csv and pdf files are compared in archives here")
    files, known = _ARCHIVE_FILES[kind]
    unknown = sorted(set(options) - known)
    if unknown or not isinstance(folder, str):
        raise OsworldUnsupported(f"compare_archive options {unknown or ['file_path']} have no equivalent for {kind} files")
    extra = {"ignore_blanks": True} if options.get("ignore_blanks") or options.get("strict", True) is False else {}
    if options.get("ignore_case"):
        extra["ignore_case"] = True
    check = {"path": metric.result_path(), "expected": metric.expected_file(), "folder": folder, "files": files, **extra}
    return [{"archive_equal": check}]


def compare_htmls(metric: Metric) -> list[Check]:
    _known_options(metric, set())
    return [{"html_equal": {"path": p, "expected": g}} for p, g in zip(*_result_and_expected(metric))]


def compare_epub(metric: Metric) -> list[Check]:
    _known_options(metric, set())
    return [{"epub_equal": {"path": metric.result_path(".epub"), "expected": metric.expected_file(".epub")}}]


def check_mp3_meta(metric: Metric) -> list[Check]:
    rules = metric.rules()
    unknown = sorted(set(rules) - set(EASY_NAMES))
    if unknown:
        raise OsworldUnsupported(f"check_mp3_meta of tags {unknown}: no equivalent tag name here")
    expect = {name: value_rule(rule, f"{metric.where}.expected.rules.{name}") for name, rule in rules.items()}
    return [{"audio_tags": {"path": metric.result_path(), "expect": expect}}]


_RELATIONS = {"eq": "eq", "ne": "ne", "lt": "lt", "le": "le", "gt": "gt", "ge": "ge"}


def check_pdf_pages(metric: Metric) -> list[Check]:
    rules = metric.rules()
    relation = rules.get("relation", "eq")
    if relation not in _RELATIONS or not isinstance(rules.get("ref_value"), int):
        raise OsworldConfigError(f"{metric.where}.expected.rules", "expected relation (eq, lt, ...) and ref_value (a number)")
    return [{"pdf_pages": {"path": metric.result_path(".pdf"), "pages": {"method": _RELATIONS[relation], "ref": rules["ref_value"]}}}]


def check_list(metric: Metric) -> list[Check]:
    def patterns(value: Any, where: str) -> list[str]:
        if not isinstance(value, list) or not all(isinstance(p, str) for p in value):
            raise OsworldConfigError(where, "expected a list of regexes")
        return value
    rules = expect_unexpect(metric.rules(), f"{metric.where}.expected.rules", patterns)
    return [{"lines_match": {"path": metric.result_path(), **rules}}]


def check_csv(metric: Metric) -> list[Check]:
    rules = expect_unexpect(metric.rules(), f"{metric.where}.expected.rules", records)
    result = metric.result
    name = result.get("path") if isinstance(result, dict) and result.get("type") == "cache_file" else None
    producer = metric.files.cache_producer(name) if isinstance(name, str) else None
    if producer is not None and any("firefox_decrypt" in part for part in producer):
        # OSWorld lists the stored accounts with a downloaded script; the accounts are in prefs.js.
        profiles = next((home_path(p) for p in producer[2:] if p.rstrip("/").endswith(".thunderbird")), ".thunderbird")
        metric.files.drop_producer(name, "thunderbird_accounts reads the accounts from the profile's prefs.js")
        accounts = {k: [{f: v for f, v in r.items() if f in ("url", "user")} for r in rs] for k, rs in rules.items()}
        return [{"thunderbird_accounts": {"profile": profiles, **accounts}}]
    return [{"csv_rows": {"path": metric.result_path(), **rules}}]


def check_json(metric: Metric) -> list[Check]:
    def values(value: Any, where: str) -> list[dict[str, Any]]:
        if not isinstance(value, list):
            raise OsworldConfigError(where, "expected a list of {key: [...], method, ref}")
        out = []
        for i, item in enumerate(value):
            if not isinstance(item, dict) or not isinstance(item.get("key"), list):
                raise OsworldConfigError(f"{where}[{i}]", "expected {key: [path...], method: ..., ref: ...}")
            out.append({"key": item["key"], "rule": value_rule(item, f"{where}[{i}]")})
        return out
    rules = expect_unexpect(metric.rules(), f"{metric.where}.expected.rules", values)
    return [{"json_values": {"path": metric.result_path(".json"), **rules}}]


#: OSWorld metric name -> its conversion.
METRICS: dict[str, Callable[[Metric], list[Check]]] = {
    "compare_csv": compare_csv,
    "check_pdf_pages": check_pdf_pages,
    "check_list": check_list,
    "check_csv": check_csv,
    "check_json": check_json,
    "compare_pdfs": compare_pdfs,
    "compare_pdf_images": compare_pdf_images,
    "compare_archive": compare_archive,
    "compare_htmls": compare_htmls,
    "compare_epub": compare_epub,
    "check_mp3_meta": check_mp3_meta,
}
