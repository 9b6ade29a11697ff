"""Checks of presentations (Impress, ``.pptx`` read with python-pptx) and of LibreOffice's
own settings.

They cover what OSWorld's Impress tasks compare: a presentation against a reference
(``compare_pptx_files``: slides, shapes, text, fonts, alignment, indents, bullets,
backgrounds, notes, and its position options as layout rules), a shape moved toward an
edge, a picture stretched over the slide, a slide transition, backgrounds near a colour,
the orientation, embedded audio or video, the slide number's colour, struck-through
text, and LibreOffice's own settings in ``registrymodifications.xcu`` (a setting, the
locale). Slides, shapes and paragraphs are numbered from 0. Their judges are in
:mod:`gui_agent.checks.presentation.judging`.
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import Field, model_validator

from gui_agent.checks.value_rules import ValueRule
from gui_agent.envs.desktop.paths import HomePath, TaskPath
from gui_agent.schema import NonBlank, Regex, SingleKey, StrictModel, exactly_one


ShapeKind = Literal["text", "no_text", "picture", "table", "freeform"]


class LayoutRule(StrictModel):
    """What a pair of shapes (the saved one and the one at the same place in ``expected``)
    must satisfy, position-wise, the way ``compare_pptx_files``' position options judge.

    A pair is *selected* when it is on ``slide`` (any slide when omitted), both shapes are
    of one of ``kinds`` (``text``: a shape holding text; ``no_text``: a picture, table,
    group...; ``picture``, ``table``, ``freeform``), both hold exactly ``text``, and, with
    ``same_text``, both hold text and the same text. A selected pair must satisfy every
    requirement given: ``lower`` / ``higher`` (its top strictly below / above the
    expected shape's), ``further_right`` (its left strictly right of it), ``min_top``,
    ``max_top``, ``min_left`` (in EMU), ``same_size`` (width and height), ``same_height``.
    Any other pair must keep its position and size (``otherwise: same_geometry``, within
    the check's ``tolerance``) or may be anything (``otherwise: anything``).
    """

    slide: int | None = Field(default=None, strict=True, ge=0)
    kinds: list[ShapeKind] | None = Field(default=None, min_length=1)
    text: str | None = None
    same_text: bool = False
    lower: bool = False
    higher: bool = False
    further_right: bool = False
    min_top: int | None = None
    max_top: int | None = None
    min_left: int | None = None
    same_size: bool = False
    same_height: bool = False
    otherwise: Literal["same_geometry", "anything"] = "same_geometry"


class PresentationEqualArgs(StrictModel):
    """The presentation matches ``expected`` slide by slide in every aspect left on, as
    OSWorld's ``compare_pptx_files`` compares them.

    Aspects: ``slide_count``; per slide its ``background`` colour, speaker ``notes`` and
    (``shape_count``) number of shapes; then shape by shape, in order (as many pairs as
    the shorter slide has): their position and size (``shapes``, within ``tolerance`` as
    a fraction), and for two shapes holding text their ``text``, paragraph by paragraph
    the ``alignment``, the text and level (``indent``), and run by run the font
    (``font_name``, ``font_size``, ``font_bold``, ``font_italic``, ``font_color``, compared
    where both runs have an RGB colour, ``font_underline``, ``font_strike``). ``bullets``:
    on a slide with runs compared, every paragraph's level, bullet character, bullet
    colour and text, tables' included. ``layout``: position rules (:class:`LayoutRule`)
    checked for every pair of shapes.
    """

    path: HomePath
    expected: TaskPath
    slide_count: bool = True
    shape_count: bool = True
    shapes: bool = True
    text: bool = True
    alignment: bool = True
    indent: bool = True
    font_name: bool = True
    font_size: bool = True
    font_bold: bool = True
    font_italic: bool = True
    font_color: bool = True
    font_underline: bool = True
    font_strike: bool = True
    bullets: bool = True
    background: bool = True
    notes: bool = True
    tolerance: float = Field(default=0.005, ge=0, le=1)
    layout: list[LayoutRule] = Field(default_factory=list)


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
    """Slide ``slide``'s (first) transition is of ``type``: its element name in the
    presentation namespace (``dissolve``, ``fade``, ``push``...)."""

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


class ImageFillsSlideArgs(StrictModel):
    """The first picture of slide ``slide`` of ``original`` (found in the saved slide by its
    image bytes) now covers the slide and is centred: its width and height are the
    slide's, and its left and top put it in the middle, each within ``tolerance`` EMU
    (OSWorld's ``check_image_stretch_and_center``: half an inch)."""

    path: HomePath
    original: TaskPath
    slide: int = Field(default=0, strict=True, ge=0)
    tolerance: int = Field(default=457200, strict=True, ge=0)


#: Colour families by OSWorld's ``check_page_number_colors``: one channel above both others
#: by more than 50 (red, green, blue), or every channel under 50 (black).
ColorFamily = Literal["red", "green", "blue", "black"]


class SlideNumberColorArgs(StrictModel):
    """The colour of the slide number as the slide master sets it (its slide-number field)
    is ``equals`` (hex, ``FF0000``) or of the family ``like``; with ``shown``, some slide
    also shows a number (a shape whose text is only digits), as OSWorld's
    ``check_slide_numbers_color`` asks."""

    path: HomePath
    equals: NonBlank | None = None
    like: ColorFamily | None = None
    shown: bool = False

    @model_validator(mode="after")
    def _one(self) -> SlideNumberColorArgs:
        exactly_one(self, ("equals", "like"))
        return self


class TextStrikethroughArgs(StrictModel):
    """In each of ``slides``, each of ``shapes`` (by position on the slide), each of
    ``paragraphs``: the first run is struck through (single or double)."""

    path: HomePath
    slides: list[Annotated[int, Field(strict=True, ge=0)]] = Field(min_length=1)
    shapes: list[Annotated[int, Field(strict=True, ge=0)]] = Field(min_length=1)
    paragraphs: list[Annotated[int, Field(strict=True, ge=0)]] = Field(min_length=1)


class SlideBackgroundImageArgs(StrictModel):
    """The picture filling slide ``slide``'s background looks like the image ``expected``
    (a file shipped with the task): their grayscale SSIM, both scaled to the smaller size,
    is at least ``min_score`` (1: the same picture), as OSWorld's ``compare_images`` scores
    the image its ``background_image_in_slide`` getter extracts. The score is the reward."""

    path: HomePath
    slide: int = Field(default=0, strict=True, ge=0)
    expected: TaskPath
    min_score: float = Field(default=1.0, ge=-1.0, le=1.0)


#: The profile's settings file in the episode's home folder.
LIBREOFFICE_SETTINGS_FILE = ".config/libreoffice/4/user/registrymodifications.xcu"


class LibreofficeSettingArgs(StrictModel):
    """A LibreOffice setting, as saved in the profile's ``registrymodifications.xcu`` at
    ``path``: the property ``prop`` of the item ``item`` (e.g. ``/org.openoffice.Office.Common/Save/Document``,
    ``AutoSaveTimeIntervall``) satisfies ``value``. ``item`` may go down into the item's
    nodes (``/org.openoffice.Office.Views/Windows/27414/UserData``). LibreOffice writes a
    setting only once it differs from its default: ``default`` is the value read when
    it has not (none: the check fails)."""

    path: HomePath = LIBREOFFICE_SETTINGS_FILE
    item: NonBlank
    prop: NonBlank
    value: ValueRule
    default: bool | int | str | None = None


class LibreofficeLocaleArgs(StrictModel):
    """LibreOffice's locale (Tools > Options > Language Settings > Languages: the locale
    setting, else the user interface's language), as saved in ``path``, matches one of
    the shell-style ``patterns`` (``en-*``, ``de-DE``), as OSWorld's ``check_libre_locale``."""

    path: HomePath = LIBREOFFICE_SETTINGS_FILE
    patterns: list[NonBlank] = Field(min_length=1)


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


class ImageFillsSlideCheck(SingleKey):
    name: ClassVar[str] = "image_fills_slide"
    image_fills_slide: ImageFillsSlideArgs


class SlideBackgroundImageCheck(SingleKey):
    name: ClassVar[str] = "slide_background_image"
    slide_background_image: SlideBackgroundImageArgs


class SlideNumberColorCheck(SingleKey):
    name: ClassVar[str] = "slide_number_color"
    slide_number_color: SlideNumberColorArgs


class TextStrikethroughCheck(SingleKey):
    name: ClassVar[str] = "text_strikethrough"
    text_strikethrough: TextStrikethroughArgs


class LibreofficeLocaleCheck(SingleKey):
    name: ClassVar[str] = "libreoffice_locale"
    libreoffice_locale: LibreofficeLocaleArgs


class LibreofficeSettingCheck(SingleKey):
    name: ClassVar[str] = "libreoffice_setting"
    libreoffice_setting: LibreofficeSettingArgs
