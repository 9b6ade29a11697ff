"""Impress checks (presentation against a reference, moved shapes, transitions,
backgrounds, orientation, embedded media) and the LibreOffice setting check, each on a
file that passes and one that fails, written with python-pptx."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from lxml import etree
from PIL import Image
from pptx import Presentation
from pptx.dml.color import RGBColor
from pptx.util import Emu

from tests.checks.check_helpers import FolderProbe, check, passes


def deck(path: Path, *edits: Callable[[Any], None], titles: tuple[str, ...] = ("Intro", "Plan")) -> Path:
    """Title-only slides named ``titles``, then ``edits`` on the presentation."""
    made = Presentation()
    for title in titles:
        slide = made.slides.add_slide(made.slide_layouts[5])
        slide.shapes.title.text = title
    for edit in edits:
        edit(made)
    path.parent.mkdir(parents=True, exist_ok=True)
    made.save(str(path))
    return path


def on_slide(index: int, fn: Callable[[Any], None]) -> Callable[[Any], None]:
    return lambda made: fn(made.slides[index])


def background(color: str) -> Callable[[Any], None]:
    def edit(slide: Any) -> None:
        slide.background.fill.solid()
        slide.background.fill.fore_color.rgb = RGBColor.from_string(color)
    return edit


def title_color(color: str) -> Callable[[Any], None]:
    def edit(slide: Any) -> None:
        slide.shapes.title.text_frame.paragraphs[0].runs[0].font.color.rgb = RGBColor.from_string(color)
    return edit


@pytest.fixture
def probe(tmp_path: Path) -> FolderProbe:
    return FolderProbe(home=tmp_path / "home", task_dir=tmp_path / "task")


def test_presentation_equal_compares_text_fonts_and_backgrounds(probe: FolderProbe) -> None:
    gold = [on_slide(1, title_color("000000")), on_slide(1, background("FFFF00"))]
    deck(probe.task_dir / "gold.pptx", *gold)
    deck(probe.home / "good.pptx", *gold)
    deck(probe.home / "bad.pptx", on_slide(1, title_color("FF0000")), on_slide(1, background("FFFF00")))
    deck(probe.home / "short.pptx", *gold, titles=("Intro", "Plan", "Extra"))
    assert passes({"presentation_equal": {"path": "good.pptx", "expected": "gold.pptx"}}, probe)
    report = check({"presentation_equal": {"path": "bad.pptx", "expected": "gold.pptx"}}, probe)
    assert not report["passed"] and "font_color is 'FF0000', expected '000000'" in report["reason"]
    assert passes({"presentation_equal": {"path": "bad.pptx", "expected": "gold.pptx", "font_color": False}}, probe)
    assert not passes({"presentation_equal": {"path": "short.pptx", "expected": "gold.pptx"}}, probe)


def test_shape_moved_toward_the_bottom(probe: FolderProbe) -> None:
    def move_title(top_fraction: float) -> Callable[[Any], None]:
        def edit(made: Any) -> None:
            made.slides[1].shapes.title.top = Emu(int(made.slide_height * top_fraction))
        return edit
    deck(probe.task_dir / "original.pptx")
    deck(probe.home / "good.pptx", move_title(0.75))
    deck(probe.home / "bad.pptx", move_title(0.2))
    spec = {"original": "original.pptx", "slide": 1, "shape": "title", "toward": "bottom"}
    assert passes({"shape_moved": {"path": "good.pptx", **spec}}, probe)
    assert not passes({"shape_moved": {"path": "bad.pptx", **spec}}, probe)
    assert passes({"presentation_equal": {"path": "good.pptx", "expected": "original.pptx", "shapes": False}}, probe)


def test_slide_transition(probe: FolderProbe) -> None:
    def dissolve(slide: Any) -> None:
        namespace = "http://schemas.openxmlformats.org/presentationml/2006/main"
        transition = etree.SubElement(slide._element, f"{{{namespace}}}transition")
        etree.SubElement(transition, f"{{{namespace}}}dissolve")
    deck(probe.home / "good.pptx", on_slide(0, dissolve))
    deck(probe.home / "bad.pptx", on_slide(1, dissolve))
    assert passes({"slide_transition": {"path": "good.pptx", "slide": 0, "type": "dissolve"}}, probe)
    report = check({"slide_transition": {"path": "bad.pptx", "slide": 0, "type": "dissolve"}}, probe)
    assert not report["passed"] and "none" in report["reason"]


def test_slide_background_near_a_colour(probe: FolderProbe) -> None:
    def every(color: str) -> Callable[[Any], None]:
        return lambda made: [background(color)(s) for s in made.slides]
    deck(probe.home / "blue.pptx", every("0000F0"))
    deck(probe.home / "red.pptx", every("FF0000"))
    assert passes({"slide_background": {"path": "blue.pptx", "color": "0000FF"}}, probe)
    assert not passes({"slide_background": {"path": "red.pptx", "color": "0000FF"}}, probe)


def test_slide_orientation(probe: FolderProbe) -> None:
    def portrait(made: Any) -> None:
        made.slide_width, made.slide_height = made.slide_height, made.slide_width
    deck(probe.home / "tall.pptx", portrait)
    deck(probe.home / "wide.pptx")
    assert passes({"slide_orientation": {"path": "tall.pptx", "orientation": "portrait"}}, probe)
    assert not passes({"slide_orientation": {"path": "wide.pptx", "orientation": "portrait"}}, probe)


def test_presentation_media(probe: FolderProbe) -> None:
    poster = io.BytesIO()
    Image.new("RGB", (8, 8)).save(poster, format="PNG")
    movie = probe.task_dir / "clip.mp4"
    movie.parent.mkdir(parents=True)
    movie.write_bytes(b"\x00\x00\x00\x18ftypmp42 not really a movie")
    def with_movie(slide: Any) -> None:
        poster.seek(0)
        slide.shapes.add_movie(str(movie), 0, 0, Emu(914400), Emu(914400), poster_frame_image=poster, mime_type="video/mp4")
    deck(probe.home / "good.pptx", on_slide(0, with_movie))
    deck(probe.home / "bad.pptx")
    spec = {"kind": "video", "name_matches": r"\.mp4$"}
    assert passes({"presentation_media": {"path": "good.pptx", **spec}}, probe)
    assert passes({"presentation_media": {"path": "good.pptx", "slide": 0, "same_as": "clip.mp4"}}, probe)
    assert not passes({"presentation_media": {"path": "good.pptx", "slide": 1, **spec}}, probe)
    assert not passes({"presentation_media": {"path": "bad.pptx", **spec}}, probe)


def test_libreoffice_setting(probe: FolderProbe) -> None:
    settings = probe.home / ".config/libreoffice/4/user/registrymodifications.xcu"
    settings.parent.mkdir(parents=True)
    settings.write_text(
        '<?xml version="1.0" encoding="UTF-8"?><oor:items xmlns:oor="http://openoffice.org/2001/registry">'
        '<item oor:path="/org.openoffice.Office.Common/Save/Document"><prop oor:name="AutoSaveTimeIntervall" oor:op="fuse">'
        '<value>3</value></prop></item></oor:items>'
    )
    spec = {"item": "/org.openoffice.Office.Common/Save/Document", "prop": "AutoSaveTimeIntervall"}
    assert passes({"libreoffice_setting": {**spec, "value": {"method": "eq", "ref": 3}}}, probe, apps="impress")
    report = check({"libreoffice_setting": {**spec, "value": {"method": "eq", "ref": 10}}}, probe, apps="impress")
    assert not report["passed"] and "is 3" in report["reason"]
    assert not passes({"libreoffice_setting": {**spec, "prop": "Other", "value": {"method": "eq", "ref": 3}}}, probe)
