"""``--format grounding``: (screenshot, instruction, box, point) rows for GUI grounding models.

Grounding models (ScreenSpot's benchmarks, SeeClick, OS-Atlas, UGround) learn to point at
the element a phrase names. Their sets are rows of a screenshot, an instruction or element
description, the element's box and a point; the names here are ScreenSpot's (``image``,
``instruction``, ``bbox`` as ``[x1, y1, x2, y2]`` in pixels of the image, ``data_type``,
``data_source``) plus ``point`` ``[x, y]`` and normalized copies of both (0..1), so a
trainer picks the convention its model uses. Rows come from two sources (``source``):

* ``step``: a recorded step whose target is known (a browser step from its page, a desktop
  step from the accessibility tree, :mod:`gui_agent.recorder.desktop_targets`) and whose
  action has a point inside the target's box. The instruction is the step's own (``info.
  instruction``, an annotator's) when there is one, else the action on the element
  (``click the push button "Bold"``); ``task`` keeps the episode's instruction.
* ``element``: every visible, usable element of every keyframe whose tree the step kept
  (``info.a11y_tree``): the rows of the table OSWorld's agents read
  (:func:`gui_agent.envs.desktop.accessibility.linearize.rows`), plus the password fields
  that table leaves out (never their text), described by role and name (``push button "Bold"``), the point at the box's centre. This is synthetic
  grounding data at the scale of the runs, as OS-Atlas and UGround build theirs.

Each row embeds its screenshot (the layout trainers load without a join), so the element
rows of a keyframe are a sample (``--grounding-elements``, default 20, the same in every
run; 0: all). Boxes are clipped to the image; an element with no area left, a step on a blanked
(masked) frame and a point outside its box give no row, counted in :attr:`GroundingEpisode.skipped`.
"""

from __future__ import annotations

import gzip
import random
from collections import Counter
from pathlib import Path
from typing import Any

from datasets import Features, Image, List, Value

from gui_agent.episode.labels import RECORDER
from gui_agent.episode.format import EpisodeMeta, StepRecord

#: Where a step keeps its keyframe's tree (relative to the episode), as the recorder writes it.
TREE_INFO_KEY = "a11y_tree"
#: Elements smaller than this (pixels, either side) are not worth pointing at.
MIN_SIDE = 3
_VERBS = {"click": "click", "double_click": "double-click", "right_click": "right-click", "drag": "drag from",
          "scroll": "scroll over", "move": "move to"}


def grounding_features() -> Features:
    """The ``grounding`` config's columns (see the module docstring)."""
    return Features(
        {
            "image": Image(),
            "instruction": Value("string"),
            "bbox": List(Value("int32"), length=4),
            "point": List(Value("int32"), length=2),
            "bbox_norm": List(Value("float32"), length=4),
            "point_norm": List(Value("float32"), length=2),
            "image_width": Value("int32"),
            "image_height": Value("int32"),
            "source": Value("string"),
            "data_type": Value("string"),
            "data_source": Value("string"),
            "role": Value("string"),
            "name": Value("string"),
            "task": Value("string"),
            "episode_id": Value("string"),
            "step_index": Value("int32"),
            "task_id": Value("string"),
        }
    )


def describe_element(role: str, name: str) -> str:
    """``push button "Bold"``: how an element row names its element."""
    role = role.replace("-", " ").strip() or "element"
    return f'{role} "{name}"' if name else role


def usable_elements(tree: bytes | str) -> list[Any]:
    """The visible, usable elements of a tree (OSWorld's XML): the rows of its agents' table,
    and the password fields (role ``password text``) it leaves out, in document order."""
    from lxml import etree

    from gui_agent.envs.desktop.accessibility.linearize import Row, keeps

    root = etree.fromstring(tree.encode("utf-8") if isinstance(tree, str) else tree)
    st, cp = "{https://accessibility.ubuntu.example.org/ns/state}", "{https://accessibility.ubuntu.example.org/ns/component}"
    found = []
    for node in root.iter():
        if not isinstance(node.tag, str):
            continue
        password = node.tag == "password-text" and node.get("name") and all(
            node.get(st + s) == "true" for s in ("showing", "visible", "enabled"))
        if not (keeps(node) or password) or node.get(cp + "size") is None:
            continue
        try:
            (x, y), (w, h) = (tuple(int(v) for v in node.get(cp + k).strip("()").split(",")) for k in ("screencoord", "size"))
        except ValueError:
            continue
        if w > 0 and h > 0:
            found.append(Row(tag=node.tag, name=node.get("name", ""), text="", klass="", description="", x=x, y=y, width=w, height=h))
    return found


def _image_size(data: bytes) -> tuple[int, int]:
    from io import BytesIO

    from PIL import Image as PILImage

    with PILImage.open(BytesIO(data)) as img:
        return img.size


class GroundingEpisode:
    """Builds one episode's grounding rows (call :meth:`rows` per step).

    Args:
        meta: the episode.
        path: its folder (the trees live there).
        task: the (scrubbed) task instruction.
        scrub: the export's scrubber's ``text`` (names and instructions go through it).
        elements: ``element`` rows per keyframe: a sample of its tree's elements, the same
            in every run (seeded by the episode and step); 0: all of them, -1: none.
    """

    def __init__(self, meta: EpisodeMeta, path: Path, task: str, scrub: Any, *, elements: int = 20) -> None:
        self.meta = meta
        self.path = path
        self.task = task
        self.scrub = scrub
        self.elements = elements
        self.skipped: Counter[str] = Counter()
        origin = (RECORDER.get(meta.labels) or {}).get("origin") if isinstance(meta.labels, dict) else None
        self.origin = (int(origin[0]), int(origin[1])) if origin else (0, 0)
        self.data_source = f"{meta.env.kind}:{meta.env.app}" if meta.env.app else str(meta.env.kind)

    def rows(self, step: StepRecord, image: dict[str, Any] | None) -> list[dict[str, Any]]:
        """The rows of ``step`` given its keyframe cell (``{"bytes", "path"}``) or None."""
        if image is None:
            return []
        if step.info.get("masked_frame"):
            self.skipped["masked frame"] += 1
            return []
        size = _image_size(image["bytes"])
        found = []
        target_row = self._step_row(step, image, size)
        if target_row is not None:
            found.append(target_row)
        if self.elements >= 0 and step.info.get(TREE_INFO_KEY):
            found.extend(self._element_rows(step, image, size))
        return found

    def _row(self, step: StepRecord, image: dict[str, Any], size: tuple[int, int], box: tuple[int, int, int, int],
             point: tuple[int, int] | None, **fields: Any) -> dict[str, Any] | None:
        """A row for the screen box ``(x, y, w, h)`` (clipped to the image), or None."""
        width, height = size
        ox, oy = self.origin
        x1, y1 = max(0, box[0] - ox), max(0, box[1] - oy)
        x2, y2 = min(width, box[0] + box[2] - ox), min(height, box[1] + box[3] - oy)
        if x2 - x1 < MIN_SIDE or y2 - y1 < MIN_SIDE:
            self.skipped["box off the image or too small"] += 1
            return None
        px, py = ((x1 + x2) // 2, (y1 + y2) // 2) if point is None else (point[0] - ox, point[1] - oy)
        if not (x1 <= px < x2 and y1 <= py < y2):
            self.skipped["point outside the target's box"] += 1
            return None
        return {
            "image": image, "bbox": [x1, y1, x2, y2], "point": [px, py],
            "bbox_norm": [x1 / width, y1 / height, x2 / width, y2 / height], "point_norm": [px / width, py / height],
            "image_width": width, "image_height": height, "data_source": self.data_source, "task": self.task,
            "episode_id": self.meta.episode_id, "step_index": step.index, "task_id": self.meta.task.id, **fields,
        }

    def _step_row(self, step: StepRecord, image: dict[str, Any], size: tuple[int, int]) -> dict[str, Any] | None:
        target, action = step.target, step.action
        if not target:
            return None
        box = target.get("bbox_screen")
        x, y = action.get("x", action.get("x1")), action.get("y", action.get("y1"))
        if not box or len(box) != 4 or x is None or y is None:
            return None
        role = str(target.get("role") or target.get("tag") or "element")
        name = self.scrub(str(target.get("name") or ""))
        own = step.info.get("instruction")
        verb = _VERBS.get(str(action.get("kind")), str(action.get("kind")))
        instruction = self.scrub(str(own)) if own else f"{verb} the {describe_element(role, name)}"
        return self._row(step, image, size, tuple(int(round(float(v))) for v in box), (int(x), int(y)),  # type: ignore[arg-type]
                         instruction=instruction, source="step", data_type=role, role=role, name=name)

    def _element_rows(self, step: StepRecord, image: dict[str, Any], size: tuple[int, int]) -> list[dict[str, Any]]:
        try:
            tree = gzip.decompress((self.path / str(step.info[TREE_INFO_KEY])).read_bytes())
            elements = usable_elements(tree)
        except Exception:  # noqa: BLE001 - a missing or damaged tree file: the step's pixels stay usable
            self.skipped["unreadable tree"] += 1
            return []
        elements = [e for e in elements if e.name]
        if 0 < self.elements < len(elements):
            picked = set(random.Random(f"{self.meta.episode_id}:{step.index}").sample(range(len(elements)), self.elements))
            elements = [e for i, e in enumerate(elements) if i in picked]
        found = []
        for element in elements:
            role = element.tag.replace("-", " ")
            name = self.scrub(element.name)
            row = self._row(step, image, size, (element.x, element.y, element.width, element.height), None,
                            instruction=describe_element(role, name), source="element", data_type=role, role=role, name=name)
            if row is not None:
                found.append(row)
        return found


__all__ = ["MIN_SIDE", "TREE_INFO_KEY", "GroundingEpisode", "describe_element", "grounding_features"]
