"""The check registry: every check a task file may write has one judge, from one table."""

from __future__ import annotations

from typing import Any, ClassVar, get_args

import pytest

from gui_agent.checks.evaluation import evaluate
from gui_agent.checks.registry import CHECKS_BY_ENVIRONMENT, FAMILIES, LEAF_TYPES, check_type
from gui_agent.checks.tree import CHECK_TYPES
from gui_agent.schema import SingleKey, StrictModel
from gui_agent.task.environments import Environment


def test_every_check_is_registered_once_under_the_key_a_task_file_writes() -> None:
    names = [kind.name for kind in LEAF_TYPES]
    assert len(names) == len(set(names)), sorted(n for n in names if names.count(n) > 1)
    for kind in LEAF_TYPES:
        assert list(kind.model.model_fields) == [kind.name], kind.model
        assert callable(kind.judge), kind.name
    assert [t.name for t in CHECK_TYPES[3:]] == names  # the union holds exactly the registered leaves


def test_every_family_registers_checks_for_environments_that_exist() -> None:
    kinds = {get_args(m.model_fields["kind"].annotation)[0] for m in get_args(get_args(Environment)[0])}
    assert set(CHECKS_BY_ENVIRONMENT) == kinds
    for family, types in FAMILIES.items():
        assert types, family
        for kind in types:
            assert kind.environments and kind.environments <= kinds, (family, kind.name, kind.environments)


class _Unregistered(SingleKey):
    name: ClassVar[str] = "unregistered"
    unregistered: StrictModel


def test_a_check_no_family_registers_is_a_programming_error_naming_it() -> None:
    check = _Unregistered(unregistered=StrictModel())
    with pytest.raises(TypeError, match="unregistered"):
        check_type(check)
    probe: Any = object()
    with pytest.raises(TypeError, match="unregistered"):
        evaluate(check, probe)
