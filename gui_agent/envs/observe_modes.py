"""What ``--observe`` (``run`` and ``eval``) adds to a task's observations, in one place.

``run`` sets it on the task it loads; ``eval``'s workers load their task files again, so
they get the kinds as plain data and set them after loading, through the same function.
"""

from __future__ import annotations

from typing import Any, Iterable

#: What ``--observe`` may ask for: the desktop's accessibility tree (with it, the marks a
#: set-of-marks policy draws and a ``click(mark=N)`` names).
OBSERVATIONS = ("a11y_tree",)


def apply_observe(task: Any, kinds: Iterable[str], *, where: str) -> None:
    """Turn on the observations ``kinds`` in ``task``'s environment (in place).

    Raises:
        ValueError: an unknown kind, or a kind this task's environment cannot observe
            (the tree is a desktop's); ``where`` names the task in the message.
    """
    kinds = set(kinds)
    unknown = sorted(kinds - set(OBSERVATIONS))
    if unknown:
        raise ValueError(f"--observe: unknown {', '.join(unknown)}; expected {', '.join(OBSERVATIONS)}")
    if "a11y_tree" in kinds:
        if task.environment.kind != "desktop":
            raise ValueError(f"--observe a11y_tree: {where} is a {task.environment.kind} task; the tree is a desktop's")
        task.environment.observe.a11y_tree = True


def observed(task: Any) -> frozenset[str]:
    """The observations beyond the screenshot that ``task`` gets as it stands (after
    :func:`apply_observe`): what :func:`gui_agent.registry.check_policy` compares with
    what a policy needs."""
    environment = task.environment
    tree = environment.kind == "desktop" and bool(environment.observe.a11y_tree)
    return frozenset({"a11y_tree"}) if tree else frozenset()


__all__ = ["OBSERVATIONS", "apply_observe", "observed"]
