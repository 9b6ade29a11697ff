"""Set-of-marks: numbered boxes on the screenshot, one per element a policy may act on.

OSWorld's ``som`` observation (``mm_agents/agent.py``'s ``tag_screenshot``, drawn by
``accessibility_tree_wrap/heuristic_retrieve.py``'s ``draw_bounding_boxes``) numbers the
visible, usable elements of the accessibility tree from 1, in document order, leaves out
those whose box shows a single colour (nothing there to see), outlines each box in red
with its number on black at the box's bottom-left, and gives the model the table

    index  tag  name  text

A :class:`Mark` is one such element. An action may name a mark instead of a point
(``click(mark=12)``): the environment that made the marks resolves it to the box's centre.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Iterable

import numpy as np

#: The header of the marks' table, as OSWorld writes it.
TABLE_HEADER = "index\ttag\tname\ttext"



def table_text(text: str) -> str:
    """A text as a cell of OSWorld's tables: ``""`` when empty, quoted (quotes doubled) when it
    holds a quote, else as it is."""
    if not text:
        return '""'
    return f'"{text.replace(chr(34), 2 * chr(34))}"' if '"' in text else text

@dataclass(frozen=True)
class Mark:
    """One numbered element: its number, role (the tree's tag), name, text and box in pixels."""

    number: int
    role: str
    name: str
    text: str
    x: int
    y: int
    width: int
    height: int

    @property
    def center(self) -> tuple[int, int]:
        """The point a ``mark=`` action acts on."""
        return self.x + self.width // 2, self.y + self.height // 2

    def line(self) -> str:
        """The mark as a row of OSWorld's table (text in double quotes when it has some)."""
        return f"{self.number}\t{self.role}\t{self.name}\t{table_text(self.text)}"

    def to_dict(self) -> dict[str, Any]:
        """The mark as JSON data (the step record keeps what the policy saw)."""
        return asdict(self)


def marks_table(marks: Iterable[Mark]) -> str:
    """The table of marks a ``som`` policy reads next to the tagged screenshot."""
    return "\n".join([TABLE_HEADER, *(mark.line() for mark in marks)])


def shows_something(pixels: np.ndarray, x: int, y: int, width: int, height: int) -> bool:
    """False when the box's part on the screen is one colour (OSWorld draws no mark there)."""
    crop = pixels[max(y, 0):max(y + height, 0), max(x, 0):max(x + width, 0)]
    if crop.size == 0:
        return False
    flat = crop.reshape(-1, crop.shape[-1]) if crop.ndim == 3 else crop.reshape(-1, 1)
    return bool((flat != flat[0]).any())


def draw_marks(pixels: np.ndarray, marks: Iterable[Mark]) -> np.ndarray:
    """A copy of the screenshot with each mark's box in red and its number, white on black."""
    from PIL import Image, ImageDraw, ImageFont

    image = Image.fromarray(np.ascontiguousarray(pixels[..., :3]))
    draw = ImageDraw.Draw(image)
    try:
        font: Any = ImageFont.load_default(size=14)  # OSWorld draws at 15 px; the bitmap default is 11
    except (TypeError, OSError):  # a Pillow without FreeType has only the bitmap font
        font = ImageFont.load_default()
    for mark in marks:
        right, bottom = mark.x + mark.width, mark.y + mark.height
        draw.rectangle([(mark.x, mark.y), (right, bottom)], outline="red", width=1)
        label = draw.textbbox((mark.x, bottom), str(mark.number), font=font, anchor="lb")
        draw.rectangle(label, fill="black")
        draw.text((mark.x, bottom), str(mark.number), font=font, anchor="lb", fill="white")
    return np.asarray(image)


def mark_point(marks: list[Mark] | None, number: int) -> tuple[int, int]:
    """The centre of mark ``number`` of the last observation.

    Raises:
        KeyError: no such mark (the message says which exist).
    """
    for mark in marks or ():
        if mark.number == number:
            return mark.center
    if not marks:
        raise KeyError(f"mark {number}: the last observation has no marks (observe the accessibility tree to get them)")
    raise KeyError(f"mark {number}: no such mark in the last observation (marks 1-{len(marks)})")


__all__ = ["TABLE_HEADER", "Mark", "draw_marks", "mark_point", "marks_table", "shows_something"]
