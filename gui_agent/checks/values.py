"""The ``value`` check: a value read from the environment (a *source*) and one judgement of it.

OSWorld's general metrics (``exact_match``, ``is_in_list``, ``check_include_exclude``,
``fuzzy_match`` ...) judge whatever its getters return: a command's output, the active
tab's URL, a player setting. Here the getter is the check's ``of`` (a source from
:mod:`gui_agent.checks.sources`) and the judgement one of the keys below, so every source
works with every judgement::

    value:
      of: {command_output: {command: [bash, -c, "[ -d ~/Desktop/b ] && echo yes"], strip: false}}
      equals: "yes\\n"

=====================  =====================================================================
judgement              passes when (the OSWorld metric it means)
=====================  =====================================================================
``rule``               the value satisfies a value rule (:mod:`gui_agent.checks.value_rules`)
``equals``             the value equals it, type and all (``exact_match``)
``include`` /          each ``include`` item is in the value and no ``exclude`` item is (a
``exclude``            text's substrings, a list's items; ``check_include_exclude``,
                       ``is_in_list``, ``file_contains``, ``is_in_vm_clickboard``)
``literal``            ``str(value) == str(ref)``, optionally ignoring case; with ``as_list``
                       item by item (``literal_match``)
``fuzzy``              the value's similarity to ``ref`` is at least ``min_ratio``:
                       ``2 * LCS / (len(a) + len(b))``, rapidfuzz's ``fuzz.ratio`` / 100
                       (``fuzzy_match``)
``json_object``        the value (a JSON object, or its text with ``'`` read as ``"``) has
                       ``expected``'s keys with equal values; with ``expect_in_result`` each
                       expected text is in its key's text, or one of its list is in its
                       key's list; ``relative_time`` dates the expectation on the day the
                       check runs (``check_direct_json_object`` with ``rule_relativeTime``)
``set_equals``         the value (a list, or a list's text) has as many items as the list,
                       and the same ones (``check_moved_jpgs``)
``same_as``            the value compares to another source's: ``text`` equal and not empty
                       (``compare_terminal_and_txt``), ``lines`` equal (``diff_text_file``
                       at full score), equal ``no_whitespace`` (``compare_python_pure_text``),
                       ``json_within``: every key of the value's JSON object is in the
                       other's with the same value (``is_included_all_json_objects``),
                       ``values_in``: every value of the other's JSON object is in the
                       value's text (``is_gold_text_included_in_pdf``)
``lines_matching``     exactly ``count`` lines match ``pattern`` (``check_line_number``)
``fuzzy_words``        the text has ``count`` words and their best similarities to
                       ``answers`` average at least ``min_score`` (``fuzzy_place_math``)
``recent_time``        a CSV text's ``HH:MM`` (the end of row 2's field 2) is within
                       ``within_minutes`` of the time now (``compare_time_in_speedtest_results``)
=====================  =====================================================================

OSWorld scores some metrics (a similarity in 0..1) where a check passes or fails: those
judgements take the score they need (``min_ratio``, ``min_score``), and the report shows
the score reached.
"""

from __future__ import annotations

import ast
import csv
import io
import json
import re
from collections.abc import Callable
from datetime import datetime
from typing import Any, ClassVar, Literal

from pydantic import Field, model_validator
from pydantic_core import PydanticCustomError

from gui_agent.checks.family import CheckType
from gui_agent.checks.reports import Report, cut
from gui_agent.checks.sources import Source, read_source
from gui_agent.checks.text_similarity import indel_ratio
from gui_agent.checks.sources.system import relative_days_known, resolve_relative_time
from gui_agent.checks.value_rules import ValueRule, matches
from gui_agent.schema import Regex, SingleKey, StrictModel

# ---------------------------------------------------------------------- judgements' arguments


class LiteralArgs(StrictModel):
    """``str(value) == str(ref)`` (``ignore_case``: both lower-cased); ``as_list``: both lists
    (or tuples) of the same length, equal item by item that way."""

    ref: Any
    as_list: bool = False
    ignore_case: bool = False


class FuzzyArgs(StrictModel):
    """The value's text similarity to ``ref`` is at least ``min_ratio`` (1.0: equal)."""

    ref: str
    min_ratio: float = Field(ge=0.0, le=1.0)


class JsonObjectArgs(StrictModel):
    """See ``json_object`` in the module docstring; ``relative_time`` is OSWorld's
    ``relativeTime`` (``{from: "next Monday", to: "next Friday"}``)."""

    expected: dict[str, Any]
    expect_in_result: bool = False
    relative_time: dict[str, str] | None = None

    @model_validator(mode="after")
    def _known_days(self) -> JsonObjectArgs:
        if self.relative_time is not None and not relative_days_known(self.relative_time):
            raise PydanticCustomError("relative_time", "relative_time {rt!r} names a day OSWorld's rules do not date",
                                      {"rt": self.relative_time, "key": "relative_time"})
        return self


class SameAsArgs(StrictModel):
    """The value compared with the value of the source ``of``, ``how`` (module docstring)."""

    of: Source
    how: Literal["text", "lines", "no_whitespace", "json_within", "values_in"]


class LinesMatchingArgs(StrictModel):
    """Exactly ``count`` lines of the text match (``re.search``) ``pattern``."""

    pattern: Regex
    count: int = Field(ge=0)


class FuzzyWordsArgs(StrictModel):
    """The text's words (split at blanks): exactly ``count``, each scoring its best
    similarity to one of ``answers``, the scores averaging at least ``min_score``."""

    answers: list[str] = Field(min_length=1)
    count: int = Field(gt=0)
    min_score: float = Field(ge=0.0, le=1.0)


class RecentTimeArgs(StrictModel):
    """The CSV text's row 2, field 2 ends with ``HH:MM`` within ``within_minutes`` of now."""

    within_minutes: float = Field(gt=0)


#: The judgements, in the order the schema's messages list them.
JUDGEMENTS = ("rule", "equals", "include", "literal", "fuzzy", "json_object", "set_equals", "same_as",
              "lines_matching", "fuzzy_words", "recent_time")


class ValueArgs(StrictModel):
    """``of``: the source to read; one judgement of its value (module docstring)."""

    of: Source
    rule: ValueRule | None = None
    equals: Any = None
    include: list[Any] | None = None
    exclude: list[Any] | None = None
    literal: LiteralArgs | None = None
    fuzzy: FuzzyArgs | None = None
    json_object: JsonObjectArgs | None = None
    set_equals: list[Any] | None = None
    same_as: SameAsArgs | None = None
    lines_matching: LinesMatchingArgs | None = None
    fuzzy_words: FuzzyWordsArgs | None = None
    recent_time: RecentTimeArgs | None = None

    @model_validator(mode="after")
    def _one_judgement(self) -> ValueArgs:
        given = [j for j in JUDGEMENTS if self.judged_by(j)]
        if len(given) != 1:
            raise PydanticCustomError(
                "one_of", "a value check needs exactly one judgement: {names} (include and exclude count as one); got {got}",
                {"names": ", ".join(JUDGEMENTS), "got": ", ".join(given) or "none", "key": given[1] if len(given) > 1 else None},
            )
        return self

    def judged_by(self, name: str) -> bool:
        """Whether the judgement ``name`` is the one given (``equals: null`` counts: it expects None)."""
        if name == "equals":
            return "equals" in self.model_fields_set
        if name == "include":
            return self.include is not None or self.exclude is not None
        return getattr(self, name) is not None


class ValueCheck(SingleKey):
    name: ClassVar[str] = "value"
    value: ValueArgs


# ---------------------------------------------------------------------- the judgements
#: ``judge(value, args, probe)`` -> (passed, what was expected or found, in words).
Verdict = tuple[bool, str]


def _contains(value: Any, item: Any) -> bool:
    try:
        return item in value
    except TypeError:  # a number, or a non-text item asked of a text
        return False


def _include(value: Any, args: ValueArgs, probe: Any) -> Verdict:
    if value is None:
        return False, "no value (nothing to look in)"
    absent = [i for i in args.include or [] if not _contains(value, i)]
    present = [e for e in args.exclude or [] if _contains(value, e)]
    problems = [f"{i!r} is not in it" for i in absent] + [f"{e!r} is in it, which must not be" for e in present]
    return not problems, "; ".join(problems) or f"includes {args.include or []!r}, excludes {args.exclude or []!r}"


def _literal(value: Any, args: ValueArgs, probe: Any) -> Verdict:
    spec = args.literal
    assert spec is not None
    fold = (lambda s: str(s).lower()) if spec.ignore_case else str
    if not spec.as_list:
        return fold(value) == fold(spec.ref), f"equals {spec.ref!r} as text" + (" (any case)" if spec.ignore_case else "")
    lists = isinstance(value, (list, tuple)) and isinstance(spec.ref, (list, tuple)) and len(value) == len(spec.ref)
    ok = lists and [fold(v) for v in value] == [fold(r) for r in spec.ref]
    return ok, f"equals {spec.ref!r} item by item as text" + (" (any case)" if spec.ignore_case else "")


def _fuzzy(value: Any, args: ValueArgs, probe: Any) -> Verdict:
    spec = args.fuzzy
    assert spec is not None
    if not isinstance(value, str):
        return False, f"a text similar to {spec.ref!r}, got {type(value).__name__}"
    score = indel_ratio(value, spec.ref)
    return score >= spec.min_ratio, f"similarity {score:.3f} to {cut(spec.ref)!r} (needed {spec.min_ratio:g})"


def _json_value(value: Any) -> Any:
    """A JSON value, or its text as OSWorld reads it (stripped, every ``'`` taken for ``"``)."""
    return json.loads(value.strip().replace("'", '"')) if isinstance(value, str) else value


def _json_object(value: Any, args: ValueArgs, probe: Any) -> Verdict:
    spec = args.json_object
    assert spec is not None
    expected = spec.expected
    if spec.relative_time is not None:
        expected = resolve_relative_time({"relativeTime": spec.relative_time, "expected": expected}, datetime.now())["expected"]
    try:
        found = _json_value(value)
    except ValueError as exc:
        return False, f"a JSON object, but the text is not JSON ({exc})"
    if not isinstance(found, dict):
        return False, f"a JSON object with {expected!r}, got {type(found).__name__}"
    wrong = [key for key, want in expected.items() if not _json_key_ok(found.get(key), want, spec.expect_in_result)]
    how = "containing" if spec.expect_in_result else "with"
    return not wrong, f"a JSON object {how} {cut(repr(expected))}" + (f"; keys not so: {wrong}" if wrong else "")


def _json_key_ok(found: Any, want: Any, expect_in_result: bool) -> bool:
    if not expect_in_result:
        return bool(want == found)
    if isinstance(want, list):
        return isinstance(found, list) and any(w in found for w in want)
    if isinstance(want, str):
        return _contains(found, want)
    return False


def _as_list(value: Any) -> list[Any] | None:
    if isinstance(value, (list, tuple)):
        return list(value)
    if isinstance(value, str):
        try:
            parsed = ast.literal_eval(value.strip())
        except (ValueError, SyntaxError):
            return None
        return list(parsed) if isinstance(parsed, (list, tuple)) else None
    return None


def _set_equals(value: Any, args: ValueArgs, probe: Any) -> Verdict:
    want = args.set_equals or []
    items = _as_list(value)
    if items is None:
        return False, f"a list with {want!r}, got {type(value).__name__}"
    try:
        ok = len(items) == len(want) and set(items) == set(want)
    except TypeError:
        ok = False
    return ok, f"{len(want)} item(s), the same as {want!r}"


def _same_as(value: Any, args: ValueArgs, probe: Any) -> Verdict:
    spec = args.same_as
    assert spec is not None
    other = read_source(spec.of, probe)
    if spec.how == "text":
        ok = bool(value) and bool(other) and value == other
        return ok, f"the same text as {spec.of.name} ({len(str(other or ''))} characters), neither empty"
    if spec.how == "lines":
        ok = isinstance(value, str) and isinstance(other, str) and value.splitlines() == other.splitlines()
        return ok, f"the same lines as {spec.of.name}"
    if spec.how == "no_whitespace":
        ok = isinstance(value, str) and isinstance(other, str) and "".join(value.split()) == "".join(other.split())
        return ok, f"the same text as {spec.of.name}, blanks aside"
    theirs = json.loads(other) if isinstance(other, str) else other
    if spec.how == "values_in":
        if not isinstance(theirs, dict) or not isinstance(value, str):
            return False, f"a text and a JSON object in {spec.of.name}, got {type(value).__name__} and {type(theirs).__name__}"
        absent = [k for k, v in theirs.items() if not _contains(value, v)]
        return not absent, f"every value of {spec.of.name} in the text" + (f"; not so for: {absent}" if absent else "")
    mine = json.loads(value) if isinstance(value, str) else value
    if not isinstance(mine, dict) or not isinstance(theirs, dict):
        return False, f"JSON objects on both sides, got {type(mine).__name__} and {type(theirs).__name__}"
    wrong = [k for k in mine if k not in theirs or mine[k] != theirs[k]]
    return not wrong, f"every key in {spec.of.name} with the same value" + (f"; not so: {wrong}" if wrong else "")


def _lines_matching(value: Any, args: ValueArgs, probe: Any) -> Verdict:
    spec = args.lines_matching
    assert spec is not None
    if not isinstance(value, str):
        return False, f"a text, got {type(value).__name__}"
    count = sum(1 for line in value.splitlines() if re.search(spec.pattern, line))
    return count == spec.count, f"{spec.count} line(s) matching {spec.pattern!r}; {count} do"


def _fuzzy_words(value: Any, args: ValueArgs, probe: Any) -> Verdict:
    spec = args.fuzzy_words
    assert spec is not None
    if not isinstance(value, str):
        return False, f"a text, got {type(value).__name__}"
    words = value.split()
    if len(words) != spec.count:
        return False, f"{spec.count} word(s), got {len(words)}"
    score = sum(max(indel_ratio(w, a) for a in spec.answers) for w in words) / spec.count
    return score >= spec.min_score, f"words scoring {score:.3f} against the answers (needed {spec.min_score:g})"


def _recent_time(value: Any, args: ValueArgs, probe: Any) -> Verdict:
    spec = args.recent_time
    assert spec is not None
    rows = list(csv.reader(io.StringIO(value))) if isinstance(value, str) else []
    if len(rows) < 2 or len(rows[1]) < 2:
        return False, "a CSV text with a second row of two fields or more"
    # OSWorld splits the line at commas (no quoting) and compares clock times of one day.
    stamp = value.splitlines()[1].split(",")[1][-5:]
    try:
        then = datetime.strptime(stamp, "%H:%M")
    except ValueError:
        return False, f"a time HH:MM at the end of row 2's field 2, got {stamp!r}"
    now = datetime.strptime(datetime.now().strftime("%H:%M"), "%H:%M")
    minutes = abs((then - now).total_seconds()) / 60
    return minutes < spec.within_minutes, f"{stamp} within {spec.within_minutes:g} min of now ({now:%H:%M}): {minutes:.0f} min"


_JUDGES: dict[str, Callable[[Any, ValueArgs, Any], Verdict]] = {
    "rule": lambda value, args, probe: (matches(value, args.rule), args.rule.describe()),  # type: ignore[union-attr]
    "equals": lambda value, args, probe: (bool(value == args.equals), f"== {args.equals!r}"),
    "include": _include,
    "literal": _literal,
    "fuzzy": _fuzzy,
    "json_object": _json_object,
    "set_equals": _set_equals,
    "same_as": _same_as,
    "lines_matching": _lines_matching,
    "fuzzy_words": _fuzzy_words,
    "recent_time": _recent_time,
}


def _value(args: ValueArgs, probe: Any, report: Report) -> None:
    observed = read_source(args.of, probe)
    report["observed"] = {"value": cut(observed) if isinstance(observed, str) else observed}
    judgement = next(j for j in JUDGEMENTS if args.judged_by(j))
    ok, wanted = _JUDGES[judgement](observed, args, probe)
    report.update(passed=bool(ok), reason=f"{args.of.name}: {cut(str(observed))!r} {'satisfies' if ok else 'does not satisfy'} "
                                          f"{judgement}: {wanted}")


CHECKS: tuple[CheckType, ...] = (CheckType(ValueCheck, _value),)
