"""Checks of presentations (Impress, ``.pptx`` read with python-pptx) and of LibreOffice's
own settings.

They cover what OSWorld's Impress tasks compare: a presentation against a reference
(``compare_pptx_files``: slides, shapes, text, fonts, alignment, backgrounds, notes), a
shape moved toward an edge, a slide transition, backgrounds near a colour, the
orientation, embedded audio or video, and a setting in ``registrymodifications.xcu``.
Slides are numbered from 0. Their judges are in :mod:`gui_agent.checks.presentation.judging`.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field

from gui_agent.checks.value_rules import ValueRule
from gui_agent.envs.desktop.paths import HomePath, TaskPath
from gui_agent.schema import NonBlank, Regex, SingleKey, StrictModel


class PresentationEqualArgs(StrictModel):
    """The presentation matches ``expected`` slide by slide in every aspect left on.

    Aspects: ``slide_count``; per slide ``background`` colour, speaker ``notes``, the
    number of shapes; per shape its position and size (``shapes``, within ``tolerance``
    as a fraction), ``text``, the paragraphs' ``alignment``, the runs' font (``font_name``,
    ``font_size``, ``font_bold``, ``font_italic``, ``font_color``, ``font_underline``,
    ``font_strike``) and table cells.
    """

    path: HomePath
    expected: TaskPath
    slide_count: bool = True
    shapes: bool = True
    text: bool = True
    alignment: bool = True
    font_name: bool = True
    font_size: bool = True
    font_bold: bool = True
    font_italic: bool = True
    font_color: bool = True
    font_underline: bool = True
    font_strike: bool = True
    background: bool = True
    notes: bool = True
    tolerance: float = Field(default=0.005, ge=0, le=1)


class ShapeMovedArgs(StrictModel):
    """On slide ``slide``, the first ``shape`` (a title, table or picture) moved ``toward``
    an edge compared with the ``original`` presentation, and its centre now lies in that
    half of the slide."""

    path: HomePath
    original: TaskPath
    slide: int = Field(strict=True, ge=0)
    shape: Literal["title", "table", "picture"]
    toward: Literal["top", "bottom", "left", "right"]


class SlideTransitionArgs(StrictModel):
    """Slide ``slide`` has a transition of ``type`` (its element name: ``dissolve``, ``fade``, ``push``...)."""

    path: HomePath
    slide: int = Field(default=0, strict=True, ge=0)
    type: NonBlank


class SlideBackgroundArgs(StrictModel):
    """The slides' backgrounds are near ``color`` (hex): their mean similarity (1 minus the
    RGB distance over the largest one; a slide without a solid fill counts 0) is at least
    ``min_similarity``, as OSWorld's ``evaluate_presentation_fill_to_rgb_distance`` scores."""

    path: HomePath
    color: NonBlank
    min_similarity: float = Field(default=0.9, gt=0, le=1)


class SlideOrientationArgs(StrictModel):
    """The slides are ``portrait`` (taller than wide) or ``landscape``."""

    path: HomePath
    orientation: Literal["portrait", "landscape"]


class PresentationMediaArgs(StrictModel):
    """The presentation (or slide ``slide``) embeds ``kind`` media whose file name matches
    ``name_matches``; with ``same_as`` (a file shipped with the task) its bytes are that file's."""

    path: HomePath
    kind: Literal["audio", "video", "any"] = "any"
    slide: int | None = Field(default=None, strict=True, ge=0)
    name_matches: Regex | None = None
    same_as: TaskPath | None = None


class LibreofficeSettingArgs(StrictModel):
    """A LibreOffice setting, as saved in the profile's ``registrymodifications.xcu`` at
    ``path``: the property ``prop`` of the item ``item`` (e.g. ``/org.openoffice.Office.Common/Save/Document``,
    ``AutoSaveTimeIntervall``) satisfies ``value``."""

    path: HomePath = ".config/libreoffice/4/user/registrymodifications.xcu"
    item: NonBlank
    prop: NonBlank
    value: ValueRule


class PresentationEqualCheck(SingleKey):
    name: ClassVar[str] = "presentation_equal"
    presentation_equal: PresentationEqualArgs


class ShapeMovedCheck(SingleKey):
    name: ClassVar[str] = "shape_moved"
    shape_moved: ShapeMovedArgs


class SlideTransitionCheck(SingleKey):
    name: ClassVar[str] = "slide_transition"
    slide_transition: SlideTransitionArgs


class SlideBackgroundCheck(SingleKey):
    name: ClassVar[str] = "slide_background"
    slide_background: SlideBackgroundArgs


class SlideOrientationCheck(SingleKey):
    name: ClassVar[str] = "slide_orientation"
    slide_orientation: SlideOrientationArgs


class PresentationMediaCheck(SingleKey):
    name: ClassVar[str] = "presentation_media"
    presentation_media: PresentationMediaArgs


class LibreofficeSettingCheck(SingleKey):
    name: ClassVar[str] = "libreoffice_setting"
    libreoffice_setting: LibreofficeSettingArgs
