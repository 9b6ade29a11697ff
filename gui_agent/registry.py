"""What the core finds in other packages: policies and scorers, registered as entry points.

The core (runner, ``gui-agent run`` and ``eval``, the workers) never imports ``models/``:
policies need torch or transformers, and an annotator's laptop records without them. A
package offers its policies by naming them in its ``pyproject.toml``, the way plugins of
pytest or Gymnasium do, and the core looks them up by the spec's prefix::

    [project.entry-points."gui_agent.policies"]
    oracle = "gui_agent.models.policies.specs:ORACLE"        # a PolicyEntry
    my-agent = "my_package.agent:ENTRY"            # your own, once your package is installed

A spec is ``NAME`` or ``NAME:ARGUMENT`` (``random:3``, ``hf:PATH?images=2``); the entry's
``build`` gets the argument ("" when there is none). ``py:package.module:Name`` builds any
importable class or factory with no arguments, without registering anything.

Judges and reward models (``gui-agent eval --judge``, ``--best-of``) come the same way,
from the one :class:`Scorers` registered under ``gui_agent.scorers``.

Entry points are read from the installed distributions' metadata at each call, so there
is no module-level registry to mutate, and a test or a worker process sees what is
installed, nothing else.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib.metadata import entry_points
from typing import Any

from gui_agent.errors import PolicyTaskError
from gui_agent.policy import Policy

#: The entry-point group of policies: name -> :class:`PolicyEntry`.
POLICY_GROUP = "gui_agent.policies"
#: The entry-point group of judges and reward models: one name -> :class:`Scorers`.
SCORER_GROUP = "gui_agent.scorers"

_NOT_INSTALLED = "is gui-agent installed? run scripts/setup.sh (it installs the project into .venv)"


@dataclass(frozen=True)
class PolicyEntry:
    """One kind of policy, as ``--policy NAME[:ARGUMENT]`` names it.

    Attributes:
        name: the spec's prefix (``oracle``, ``hf``).
        summary: one line for ``--help`` and for the error listing known policies.
        build: makes the policy from the text after ``NAME:`` ("" when there is none);
            raises ValueError (or a :class:`~gui_agent.errors.GuiAgentError`) with a
            clear message when the argument is wrong or a dependency is missing.
        check: cheaply refuses an argument that cannot work (a bad option, a missing
            key) without loading anything heavy, so ``gui-agent eval`` fails before any
            worker starts; None when only building can tell.
        refuses_task: ``(argument, task id)`` -> why this policy cannot act on that task
            at all (a scripted oracle without a solver for it), or None when it can try;
            cheap, so ``run`` and ``eval`` refuse such a task before any environment
            starts. None: the policy tries any task.
        observes: argument -> the observations beyond the screenshot this policy needs
            (``a11y_tree`` for a policy that reads the accessibility tree or draws marks),
            so a task run without them is refused before anything starts instead of
            failing at its first step. None: the screenshot is enough.
    """

    name: str
    summary: str
    build: Callable[[str], Policy]
    check: Callable[[str], None] | None = None
    refuses_task: Callable[[str, str], str | None] | None = None
    observes: Callable[[str], frozenset[str]] | None = None


@dataclass(frozen=True)
class Scorers:
    """Judges and reward models: what ``gui-agent eval --judge`` and ``--best-of`` use.

    Attributes:
        check_judge: fail fast on a judge spec that cannot work (loads no weights).
        load_judge: the judge for a spec (a reward-model checkpoint or ``hf:MODEL``).
        check_reward_model: fail fast on a reward-model checkpoint that cannot load.
        best_of_policy: wrap a policy so a reward model picks among N sampled decisions.
    """

    check_judge: Callable[[str], None]
    load_judge: Callable[[str], Any]
    check_reward_model: Callable[[str], None]
    best_of_policy: Callable[[Policy, str, int], Policy]


def policy_entries() -> dict[str, PolicyEntry]:
    """The installed policies by name (each entry point's module is imported; they are light)."""
    found: dict[str, PolicyEntry] = {}
    for point in entry_points(group=POLICY_GROUP):
        entry = point.load()
        if not isinstance(entry, PolicyEntry):
            raise TypeError(f"entry point {point.name} = {point.value!r} in {POLICY_GROUP} is not a PolicyEntry")
        found[point.name] = entry
    return found


def describe_policies() -> str:
    """The known policy specs, one per line, for ``--help`` and error messages."""
    entries = policy_entries()
    lines = [f"  {name:14s} {entries[name].summary}" for name in entries]
    lines.append(f"  {'py:MOD:NAME':14s} any importable class or factory called with no arguments (your own policy)")
    return "\n".join(lines)


def load_policy(spec: str) -> Policy:
    """Build a policy from its spec: ``NAME[:ARGUMENT]`` of an installed entry, or ``py:module:Name``.

    Raises:
        ValueError: an unknown name (the message lists the known ones), a malformed
            ``py:`` spec, or an argument the policy refuses.
    """
    if spec.startswith("py:"):
        return _py_factory(spec)()
    name, _, argument = spec.partition(":")
    entries = policy_entries()
    if not entries:
        raise ValueError(f"no policies are registered ({POLICY_GROUP} entry points); {_NOT_INSTALLED}")
    entry = entries.get(name)
    if entry is None:
        raise ValueError(f"unknown policy {spec!r}; known policies:\n{describe_policies()}")
    return entry.build(argument)


def _py_factory(spec: str) -> Callable[[], Policy]:
    """The class or factory ``py:package.module:Name`` names (the module is imported).

    Raises:
        ValueError: a malformed spec, a module that cannot be imported, or a missing or
            uncallable name; the message names what was looked for and what there is.
    """
    module_name, _, attr = spec[3:].rpartition(":")
    if not module_name or not attr:
        raise ValueError(f"expected py:package.module:Name, got {spec!r}")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        missing = exc.name or module_name
        where = "" if module_name.startswith(missing) else f" (imported by {module_name})"
        raise ValueError(f"--policy {spec}: no module named {missing!r}{where}; "
                         "is its package installed, or its folder on PYTHONPATH?") from None
    except ImportError as exc:
        raise ValueError(f"--policy {spec}: importing {module_name} failed: {exc}") from None
    factory = getattr(module, attr, None)
    if factory is None:
        public = sorted(name for name, value in vars(module).items() if callable(value) and not name.startswith("_")
                        and getattr(value, "__module__", None) == module.__name__)
        raise ValueError(f"--policy {spec}: module {module_name} has no {attr!r}"
                         + (f"; it defines {', '.join(public)}" if public else ""))
    if not callable(factory):
        raise ValueError(f"--policy {spec}: {module_name}.{attr} is not a class or function")
    return factory  # type: ignore[no-any-return]


def check_policy(spec: str, task_ids: Sequence[str] = (), *, observed: Mapping[str, frozenset[str]] | None = None) -> None:
    """Refuse a spec that cannot work, as far as its entry can tell cheaply (see :class:`PolicyEntry`).

    Args:
        spec: the policy spec.
        task_ids: the tasks it is to act on; one it cannot act on at all is refused.
        observed: per task id, the observations beyond the screenshot the run gives it
            (:func:`gui_agent.envs.observe_modes.observed`); a task lacking one the policy
            needs is refused. None: not checked.

    Raises:
        ValueError: an unknown name (listing the known ones).
        PolicyTaskError: the policy cannot act on some of ``task_ids`` (the message names them).
        GuiAgentError: what the entry's ``check`` finds wrong.
    """
    if spec.startswith("py:"):
        _py_factory(spec)  # a misspelt module or name fails here, before any worker starts
        return
    name, _, argument = spec.partition(":")
    entry = policy_entries().get(name)
    if entry is None:
        raise ValueError(f"unknown policy {spec!r}; known policies:\n{describe_policies()}")
    if entry.check is not None:
        entry.check(argument)
    refusals: dict[str, str] = {}
    if entry.refuses_task is not None:
        refusals = {task_id: why for task_id in dict.fromkeys(task_ids) if (why := entry.refuses_task(argument, task_id))}
    if entry.observes is not None and observed is not None and (needed := entry.observes(argument)):
        for task_id in dict.fromkeys(task_ids):
            if task_id not in refusals and (missing := sorted(needed - observed.get(task_id, frozenset()))):
                refusals[task_id] = (f"it observes {', '.join(missing)}, which this run does not give the task "
                                     "(a desktop task, with --observe a11y_tree or observe: {a11y_tree: true} in its file)")
    if refusals:
        raise PolicyTaskError(_refusal_message(spec, refusals, total=len(set(task_ids))))


def _refusal_message(spec: str, refusals: dict[str, str], *, total: int) -> str:
    """One message for the tasks ``spec`` cannot act on: the reason once, the tasks named (the first few)."""
    (first_id, first_why), count = next(iter(refusals.items())), len(refusals)
    if count == 1:
        return f"--policy {spec} cannot act on {first_id}: {first_why}"
    shown = ", ".join(list(refusals)[:5]) + (f" and {count - 5} more" if count > 5 else "")
    return f"--policy {spec} cannot act on {count} of the {total} tasks ({shown}): {first_why}"


def scorers() -> Scorers:
    """The installed judges and reward models.

    Raises:
        ValueError: none is installed, or more than one (say which to keep).
    """
    points = list(entry_points(group=SCORER_GROUP))
    if not points:
        raise ValueError(f"judges and reward models need gui-agent's models package ({SCORER_GROUP} entry points); {_NOT_INSTALLED}")
    if len(points) > 1:
        names = ", ".join(f"{p.name} = {p.value}" for p in points)
        raise ValueError(f"more than one provider of judges and reward models is installed ({names}); keep one")
    provider = points[0].load()
    if not isinstance(provider, Scorers):
        raise TypeError(f"entry point {points[0].name} = {points[0].value!r} in {SCORER_GROUP} is not a Scorers")
    return provider


__all__ = [
    "POLICY_GROUP",
    "SCORER_GROUP",
    "PolicyEntry",
    "Scorers",
    "check_policy",
    "describe_policies",
    "load_policy",
    "policy_entries",
    "scorers",
]
