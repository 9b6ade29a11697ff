"""What the policy saw besides the screenshot, as a step record keeps it (``info.observed``).

A step's frame is the screenshot the policy was given; with the accessibility tree or
set-of-marks that is not all it saw. The record keeps the rest, small enough for every step:

* ``marks``: the observation's numbered elements (number, role, name, text, box), so a
  ``click(mark=N)`` in the record can be read back as the element and point it named;
* ``observation`` and ``table``: what an HTTP policy sent as text (its ``observation=``
  mode and the linearized table or table of marks), from the policy's output ``info``.

The tree's XML is not kept: it is large, and the table is what a model read of it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


def observed_info(marks: Sequence[Any] | None, policy_info: Mapping[str, Any] | None) -> dict[str, Any]:
    """The ``observed`` entry of a step's ``info`` (empty when the policy saw only pixels).

    Args:
        marks: the observation's marks (:class:`gui_agent.envs.marks.Mark`), or None.
        policy_info: the policy output's ``info``; its ``observed`` entry, if any, is kept.
    """
    seen: dict[str, Any] = dict((policy_info or {}).get("observed") or {})
    if marks:
        seen["marks"] = [mark.to_dict() for mark in marks]
    return seen


__all__ = ["observed_info"]
