"""The policy and scorer registry: what pyproject declares is what ``--policy`` finds, and plugins plug in."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
import tomllib

from gui_agent.actions import Done
from gui_agent.envs.base import Observation
from gui_agent.policy import PolicyOutput, TaskContext
from gui_agent.registry import (
    POLICY_GROUP,
    PolicyEntry,
    Scorers,
    check_policy,
    describe_policies,
    load_policy,
    policy_entries,
    scorers,
)
from tests.paths import REPO


class GivesUp:
    """A policy of a third-party package: done at once."""

    name = "gives-up"

    def __init__(self, reason: str = "") -> None:
        self.reason = reason

    def reset(self, task: TaskContext) -> None:
        pass

    def act(self, observation: object) -> PolicyOutput:
        return PolicyOutput(actions=[Done(success=False, answer=self.reason)])


PLUGIN = PolicyEntry("gives-up", "ends every episode at once (a plugin in a test)", GivesUp)
NOT_AN_ENTRY = object()


def _install_plugin(root: Path, entry_points: str) -> None:
    """A distribution's metadata as pip leaves it in site-packages, on ``sys.path``."""
    info = root / "gui_agent_test_plugin-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: gui-agent-test-plugin\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(entry_points)


def test_the_registry_holds_exactly_what_pyproject_declares() -> None:
    declared = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["entry-points"][POLICY_GROUP]
    entries = policy_entries()
    assert set(entries) == set(declared) >= {"oracle", "desktop-oracle", "random", "replay", "pixel", "hf", "openai"}
    assert all(entry.name == name for name, entry in entries.items())
    assert isinstance(scorers(), Scorers)


def test_a_spec_is_built_by_its_entry_with_the_argument() -> None:
    from gui_agent.models.policies.random_policy import RandomPolicy

    def actions(policy) -> list:  # type: ignore[no-untyped-def]
        policy.reset(TaskContext(task_id="t", instruction="click", seed=0))
        screen = Observation(screenshot=np.zeros((48, 64, 3), np.uint8))
        return [policy.act(screen).actions for _ in range(8)]

    assert actions(load_policy("random:7")) == actions(RandomPolicy(seed=7)) != actions(RandomPolicy(seed=8))
    with pytest.raises(ValueError, match="random:SEED needs a whole number"):
        load_policy("random:seven")
    with pytest.raises(ValueError, match="replay needs an episode folder"):
        load_policy("replay")


def test_an_unknown_spec_lists_every_known_one() -> None:
    with pytest.raises(ValueError) as info:
        load_policy("orcale")
    message = str(info.value)
    assert "unknown policy 'orcale'" in message
    for name in ("oracle", "desktop-oracle", "random", "replay", "pixel", "hf", "py:MOD:NAME"):
        assert f"  {name} " in message
    assert message.endswith(describe_policies())


def test_py_specs_build_any_importable_factory() -> None:
    policy = load_policy("py:tests.test_registry:GivesUp")
    assert isinstance(policy, GivesUp)
    with pytest.raises(ValueError, match="expected py:package.module:Name"):
        load_policy("py:GivesUp")
    # A misspelt module or name is bad input with a message, never an ImportError/AttributeError traceback.
    with pytest.raises(ValueError, match="no module named 'no_such_module'"):
        load_policy("py:no_such_module:Thing")
    with pytest.raises(ValueError, match="module tests.test_registry has no 'GivesUpp'; it defines .*GivesUp"):
        load_policy("py:tests.test_registry:GivesUpp")
    with pytest.raises(ValueError, match="has no 'GivesUpp'"):
        check_policy("py:tests.test_registry:GivesUpp")  # what eval runs before any worker starts
    check_policy("py:tests.test_registry:GivesUp")


def test_an_installed_plugin_adds_a_policy_without_touching_the_core(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _install_plugin(tmp_path, f"[{POLICY_GROUP}]\ngives-up = tests.test_registry:PLUGIN\n")
    monkeypatch.setattr(sys, "path", [str(tmp_path), *sys.path])
    assert "gives-up" in policy_entries() and "oracle" in policy_entries()
    policy = load_policy("gives-up:out of scope")
    assert isinstance(policy, GivesUp) and policy.reason == "out of scope"
    assert "ends every episode at once" in describe_policies()


def test_an_entry_that_is_not_a_policy_entry_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _install_plugin(tmp_path, f"[{POLICY_GROUP}]\nbroken = tests.test_registry:NOT_AN_ENTRY\n")
    monkeypatch.setattr(sys, "path", [str(tmp_path), *sys.path])
    with pytest.raises(TypeError, match="broken = 'tests.test_registry:NOT_AN_ENTRY'.*is not a PolicyEntry"):
        load_policy("oracle")
