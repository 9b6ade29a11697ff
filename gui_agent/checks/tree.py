"""The check tree: every check a task file may write, combined with ``all_of``, ``any_of``
and ``not``, each node a one-key mapping (``all_of: [...]``, ``url_matches: {pattern: ...}``).

:data:`Check` is the union of the combinators and every registered check
(:mod:`gui_agent.checks.registry`); a task file's ``evaluator`` is read into it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, TypeAlias

from pydantic import Field

from gui_agent.checks.registry import LEAF_TYPES
from gui_agent.schema import SingleKey, single_key_union


class AllOfCheck(SingleKey):
    """Passes when every check passes."""

    name: ClassVar[str] = "all_of"
    all_of: list[Check] = Field(min_length=1)


class AnyOfCheck(SingleKey):
    """Passes when at least one check passes."""

    name: ClassVar[str] = "any_of"
    any_of: list[Check] = Field(min_length=1)


class NotCheck(SingleKey):
    """Passes when the check fails (and could be evaluated)."""

    name: ClassVar[str] = "not"
    not_: Check = Field(alias="not")


#: Every check type, combinators first, in the order error messages list them.
CHECK_TYPES: tuple[type[SingleKey], ...] = (AllOfCheck, AnyOfCheck, NotCheck, *(kind.model for kind in LEAF_TYPES))
if TYPE_CHECKING:  # statically any single-key model; pydantic validates through the tagged union below
    Check: TypeAlias = SingleKey
else:
    Check = single_key_union("check", CHECK_TYPES)
for _combinator in (AllOfCheck, AnyOfCheck, NotCheck):
    _combinator.model_rebuild()


def leaves(check: SingleKey) -> list[SingleKey]:
    """The leaf checks of a check tree, in order."""
    if isinstance(check, (AllOfCheck, AnyOfCheck)):
        members = check.all_of if isinstance(check, AllOfCheck) else check.any_of
        return [leaf for member in members for leaf in leaves(member)]
    if isinstance(check, NotCheck):
        return leaves(check.not_)
    return [check]
