"""The set-of-marks of a desktop observation: the tree's visible, usable elements, numbered.

The elements are the rows of the linearized table (:mod:`.linearize`) with unnamed images
counted, as OSWorld's ``tag_screenshot`` takes them (``filter_nodes(..., check_image=True)``),
less those whose box on the screenshot shows one colour. See :mod:`gui_agent.envs.marks`.
"""

from __future__ import annotations

import numpy as np

from gui_agent.envs.desktop.accessibility.linearize import rows
from gui_agent.envs.marks import Mark, shows_something


def desktop_marks(tree: str, pixels: np.ndarray) -> list[Mark]:
    """The marks of ``tree`` (OSWorld's XML) on the screenshot ``pixels``, numbered from 1."""
    marks: list[Mark] = []
    for row in rows(tree, images=True):
        if shows_something(pixels, row.x, row.y, row.width, row.height):
            marks.append(Mark(number=len(marks) + 1, role=row.tag, name=row.name, text=row.text,
                              x=row.x, y=row.y, width=row.width, height=row.height))
    return marks


__all__ = ["desktop_marks"]
