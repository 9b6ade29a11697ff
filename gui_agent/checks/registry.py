"""Every check type a task file may use, from one table per family.

Adding a family is a module declaring its checks with their judges (``CHECKS``, see
:mod:`gui_agent.checks.family`) and one line in :data:`FAMILIES`; adding a check to a
family is its model, its judge and one row in that family's table. The check tree
(:data:`gui_agent.checks.tree.Check`), the task schema's check of which environment can
evaluate what, and the evaluation all read the checks from here and nowhere else.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from gui_agent.checks import answer, browser, chrome, code, files, image, mail, media, spreadsheet, values
from gui_agent.checks.document import judging as document
from gui_agent.checks.family import CheckType
from gui_agent.checks.presentation import judging as presentation
from gui_agent.schema import SingleKey

#: The families, in the order error messages list their checks.
FAMILIES: Mapping[str, tuple[CheckType, ...]] = MappingProxyType({
    "browser": browser.CHECKS,
    "answer": answer.CHECKS,
    "files": files.CHECKS,
    "spreadsheet": spreadsheet.CHECKS,
    "document": document.CHECKS,
    "presentation": presentation.CHECKS,
    "mail": mail.CHECKS,
    "values": values.CHECKS,
    "chrome": chrome.CHECKS,
    "image": image.CHECKS,
    "media": media.CHECKS,
    "code": code.CHECKS,
})
#: Every leaf check type, family by family.
LEAF_TYPES: tuple[CheckType, ...] = tuple(kind for family in FAMILIES.values() for kind in family)
_BY_MODEL: Mapping[type[SingleKey], CheckType] = MappingProxyType({kind.model: kind for kind in LEAF_TYPES})
#: The leaf checks each environment kind can evaluate.
CHECKS_BY_ENVIRONMENT: Mapping[str, frozenset[str]] = MappingProxyType({
    env: frozenset(kind.name for kind in LEAF_TYPES if env in kind.environments)
    for env in sorted({env for kind in LEAF_TYPES for env in kind.environments})
})


def check_type(check: SingleKey) -> CheckType:
    """The registered type of a leaf check (a model some family's ``CHECKS`` lists).

    Raises:
        TypeError: no family registers the check's model (a schema change without a judge).
    """
    try:
        return _BY_MODEL[type(check)]
    except KeyError:
        raise TypeError(f"no judge registered for check {getattr(check, 'name', check)!r}") from None


__all__ = ["CHECKS_BY_ENVIRONMENT", "FAMILIES", "LEAF_TYPES", "check_type"]
