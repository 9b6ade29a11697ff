"""Python call syntax (``name(arg, key=value)``) read with :mod:`ast`, never ``eval``.

pyautogui code, BrowserGym actions and UI-TARS replies all write actions as Python calls.
This module turns such text into :class:`Call` records whose arguments are plain literals
and binds them to a signature, so each format module only has to map names and values.
Model output is untrusted text: nothing here executes it, and anything that is not a
literal (a variable, an expression, ``**kwargs``) is refused with the raw text attached.
"""

from __future__ import annotations

import ast
import re
import inspect
from dataclasses import dataclass, field
from typing import Any

from gui_agent.errors import ActionParseError


@dataclass(frozen=True)
class Symbol:
    """A dotted name used as an argument, e.g. ``pyautogui.easeInQuad``; never resolved."""

    name: str


@dataclass(frozen=True)
class MarkTag:
    """A set-of-marks element named in code, ``tag_12``: OSWorld's ``som`` agent writes
    ``pyautogui.click(tag_12)`` for the centre of mark 12. Never resolved here: the format
    turns it into ``click(mark=12)``, which the environment that drew the marks resolves."""

    number: int


@dataclass(frozen=True)
class Call:
    """One call as written: ``name`` is dotted (``"pyautogui.click"``) or bare (``"click"``)."""

    name: str
    args: tuple[Any, ...]
    kwargs: dict[str, Any] = field(default_factory=dict)
    text: str = ""


def _dotted(node: ast.expr) -> str | None:
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


def _literal(node: ast.expr, raw: str) -> Any:
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        inner = _literal(node.operand, raw)
        if isinstance(inner, (int, float)) and not isinstance(inner, bool):
            return -inner if isinstance(node.op, ast.USub) else inner
    elif isinstance(node, (ast.List, ast.Tuple)):
        values = [_literal(element, raw) for element in node.elts]
        return values if isinstance(node, ast.List) else tuple(values)
    elif isinstance(node, ast.Attribute):
        dotted = _dotted(node)
        if dotted is not None:
            return Symbol(dotted)
    elif isinstance(node, ast.Name):
        tag = re.fullmatch(r"tag_([1-9][0-9]*)", node.id)
        if tag is not None:
            return MarkTag(int(tag.group(1)))
        raise ActionParseError(f"argument {node.id!r} is a variable; only literal values are accepted", raw)
    raise ActionParseError(f"argument {ast.unparse(node)!r} is not a literal value", raw)


def _call_from_node(node: ast.Call, source: str, raw: str) -> Call:
    name = _dotted(node.func)
    if name is None:
        raise ActionParseError(f"cannot tell which function {ast.unparse(node.func)!r} is", raw)
    args: list[Any] = []
    for arg in node.args:
        if isinstance(arg, ast.Starred):
            raise ActionParseError(f"{name}: *arguments are not accepted", raw)
        args.append(_literal(arg, raw))
    kwargs: dict[str, Any] = {}
    for keyword in node.keywords:
        if keyword.arg is None:
            raise ActionParseError(f"{name}: **arguments are not accepted", raw)
        kwargs[keyword.arg] = _literal(keyword.value, raw)
    text = ast.get_source_segment(source, node) or ast.unparse(node)
    return Call(name=name, args=tuple(args), kwargs=kwargs, text=text)


def _syntax_error(exc: SyntaxError, raw: str) -> ActionParseError:
    where = f" (line {exc.lineno})" if exc.lineno else ""
    return ActionParseError(f"not valid Python call syntax: {exc.msg}{where}", raw)


def parse_call(text: str, *, raw: str) -> Call:
    """Parse exactly one call expression, e.g. ``click(start_box='(1,2)')``.

    Args:
        text: the call.
        raw: the complete input it came from, attached to any error.

    Raises:
        ActionParseError: not a single call, or an argument that is not a literal.
    """
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError as exc:
        raise _syntax_error(exc, raw) from None
    if not isinstance(tree.body, ast.Call):
        raise ActionParseError(f"expected a function call, got {text.strip()!r}", raw)
    return _call_from_node(tree.body, text.strip(), raw)


def parse_statements(code: str, *, raw: str, allowed_imports: frozenset[str] = frozenset()) -> list[Call]:
    """Parse a block of code made only of calls, in order.

    ``import m`` is accepted for modules in ``allowed_imports``; a bare string statement
    (a docstring, as UI-TARS' generated code carries) is skipped as a comment. Anything
    else (assignments, loops, other imports) is refused: the formats are call lists, and
    silently skipping a statement would hide what the code really did.

    Raises:
        ActionParseError: invalid syntax or a statement that is not an accepted call.
    """
    try:
        tree = ast.parse(code)
    except SyntaxError as exc:
        raise _syntax_error(exc, raw) from None
    calls: list[Call] = []
    for statement in tree.body:
        if isinstance(statement, ast.Import):
            refused = [alias.name for alias in statement.names if alias.name not in allowed_imports]
            if refused or any(alias.asname for alias in statement.names):
                raise ActionParseError(f"import not allowed here: {ast.unparse(statement)!r}", raw)
            continue
        if isinstance(statement, ast.Expr):
            value = statement.value
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                continue
            if isinstance(value, ast.Call):
                calls.append(_call_from_node(value, code, raw))
                continue
        raise ActionParseError(f"only function calls are accepted, found {ast.unparse(statement)!r}", raw)
    return calls


def signature(*required: str, **optional: Any) -> inspect.Signature:
    """A signature with ``required`` parameters, then ``optional`` ones with their defaults.

    Format modules describe the real functions (pyautogui's, BrowserGym's) this way, in
    the real parameter order, so :func:`bind` accepts exactly the calls the real one does.
    """
    kind = inspect.Parameter.POSITIONAL_OR_KEYWORD
    parameters = [inspect.Parameter(name, kind) for name in required]
    parameters += [inspect.Parameter(name, kind, default=value) for name, value in optional.items()]
    return inspect.Signature(parameters)


def bind(call: Call, signature: inspect.Signature, *, raw: str) -> dict[str, Any]:
    """Match a call's arguments to ``signature`` (the real function's), defaults filled in.

    Binding against the real signature means positional and keyword spellings both work
    and an unknown keyword (a typo, a hallucinated option) is an error, not ignored.

    Raises:
        ActionParseError: missing, surplus or unknown arguments.
    """
    try:
        bound = signature.bind(*call.args, **call.kwargs)
    except TypeError as exc:
        raise ActionParseError(f"{call.name}: {exc}", raw) from None
    bound.apply_defaults()
    return dict(bound.arguments)
