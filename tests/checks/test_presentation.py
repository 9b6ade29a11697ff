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


def picture_png(color: str = "red", size: tuple[int, int] = (40, 30)) -> io.BytesIO:
    data = io.BytesIO()
    Image.new("RGB", size, color).save(data, format="PNG")
    data.seek(0)
    return data


def test_presentation_equal_pairs_shapes_in_order_and_compares_raw_values(probe: FolderProbe) -> None:
    def extra_box(made: Any) -> None:
        made.slides[1].shapes.add_textbox(Emu(0), Emu(0), Emu(914400), Emu(914400)).text_frame.text = "extra"
    def unbold(made: Any) -> None:
        made.slides[0].shapes.title.text_frame.paragraphs[0].runs[0].font.bold = False
    def indent(made: Any) -> None:
        made.slides[0].shapes.title.text_frame.paragraphs[0].level = 1
    deck(probe.task_dir / "gold.pptx")
    deck(probe.home / "extra.pptx", extra_box)
    deck(probe.home / "unbold.pptx", unbold)
    deck(probe.home / "indent.pptx", indent)
    spec = {"expected": "gold.pptx"}
    assert not passes({"presentation_equal": {"path": "extra.pptx", **spec}}, probe)
    assert passes({"presentation_equal": {"path": "extra.pptx", **spec, "shape_count": False, "bullets": False}}, probe)
    report = check({"presentation_equal": {"path": "extra.pptx", **spec, "shape_count": False}}, probe)  # every paragraph counts
    assert not report["passed"] and "'extra', 'no colour'), expected None" in report["reason"]
    report = check({"presentation_equal": {"path": "unbold.pptx", **spec}}, probe)  # an explicit "not bold" is not an unset bold
    assert not report["passed"] and "font_bold is False, expected None" in report["reason"]
    report = check({"presentation_equal": {"path": "indent.pptx", **spec, "bullets": False}}, probe)
    assert not report["passed"] and "at level 1, expected 0" in report["reason"]
    assert passes({"presentation_equal": {"path": "indent.pptx", **spec, "indent": False, "bullets": False}}, probe)
    report = check({"presentation_equal": {"path": "indent.pptx", **spec, "indent": False}}, probe)  # the bullets list levels too
    assert not report["passed"] and "(level, bullet, text, bullet colour)" in report["reason"]


def test_presentation_equal_colours_are_compared_where_both_are_rgb(probe: FolderProbe) -> None:
    deck(probe.task_dir / "gold.pptx")
    deck(probe.home / "red.pptx", on_slide(0, title_color("FF0000")))
    assert passes({"presentation_equal": {"path": "red.pptx", "expected": "gold.pptx"}}, probe)  # the reference sets none
    deck(probe.task_dir / "black.pptx", on_slide(0, title_color("000000")))
    assert not passes({"presentation_equal": {"path": "red.pptx", "expected": "black.pptx"}}, probe)


def test_presentation_equal_layout_rules(probe: FolderProbe) -> None:
    def place(slide: int, top: int | None = None, height: int | None = None, left: int | None = None) -> Callable[[Any], None]:
        def edit(made: Any) -> None:
            title = made.slides[slide].shapes.title
            title.top, title.height, title.left = (top if top is not None else title.top, height or title.height,
                                                   left if left is not None else title.left)
        return edit
    deck(probe.task_dir / "original.pptx", place(1, top=300000))
    deck(probe.home / "down.pptx", place(1, top=4000000))
    deck(probe.home / "half.pptx", place(1, top=2000000))
    deck(probe.home / "moved0.pptx", place(1, top=4000000), place(0, left=100))
    lower = {"text": "Plan", "lower": True, "min_top": 3600000, "otherwise": "anything"}
    keep = {"same_text": True, "otherwise": "same_geometry"}
    spec = {"expected": "original.pptx", "shapes": False, "layout": [keep, lower]}
    assert passes({"presentation_equal": {"path": "down.pptx", **spec}}, probe)
    report = check({"presentation_equal": {"path": "half.pptx", **spec}}, probe)
    assert not report["passed"] and "has its top at 2000000, above 3600000" in report["reason"]
    assert passes({"presentation_equal": {"path": "moved0.pptx", **spec}}, probe)  # same text: may move
    heights = {"expected": "original.pptx", "shapes": False, "layout": [{"kinds": ["text"], "slide": 1, "same_height": True}]}
    deck(probe.home / "tall.pptx", place(1, top=300000, height=2000000))
    assert passes({"presentation_equal": {"path": "down.pptx", **heights}}, probe)  # moved, but kept its height
    assert not passes({"presentation_equal": {"path": "tall.pptx", **heights}}, probe)
    report = check({"presentation_equal": {"path": "moved0.pptx", **heights}}, probe)  # slide 0 is not selected: it must stay
    assert not report["passed"] and "slide 0 shape 0 (Title 1) left is 100" in report["reason"]


def test_image_fills_slide(probe: FolderProbe) -> None:
    def picture(left: int, top: int, width: int, height: int, color: str = "red") -> Callable[[Any], None]:
        return on_slide(0, lambda slide: slide.shapes.add_picture(picture_png(color), Emu(left), Emu(top), Emu(width), Emu(height)))
    deck(probe.task_dir / "original.pptx", picture(100000, 100000, 2000000, 1500000))
    size = Presentation(str(probe.task_dir / "original.pptx"))
    width, height = size.slide_width, size.slide_height
    deck(probe.home / "good.pptx", picture(200000, 0, width - 400000, height))  # proportions kept: narrower, centred
    deck(probe.home / "corner.pptx", picture(0, 0, width // 2, height // 2))
    deck(probe.home / "other.pptx", picture(0, 0, width, height, color="blue"))
    spec = {"original": "original.pptx"}
    assert passes({"image_fills_slide": {"path": "good.pptx", **spec}}, probe)
    report = check({"image_fills_slide": {"path": "corner.pptx", **spec}}, probe)
    assert not report["passed"] and "width is" in report["reason"]
    report = check({"image_fills_slide": {"path": "other.pptx", **spec}}, probe)
    assert not report["passed"] and "no longer holds the picture" in report["reason"]


def master_slide_number(color: str | None) -> Callable[[Any], None]:
    """Give the slide master's slide-number placeholder a field coloured ``color`` (as
    LibreOffice saves it: the colour on the field's run properties)."""
    def edit(made: Any) -> None:
        from pptx.oxml.ns import qn

        for placeholder in made.slide_masters[0].placeholders:
            if placeholder.placeholder_format.type == 13:  # slide number
                paragraph = placeholder.text_frame.paragraphs[0]._p
                for child in list(paragraph):
                    if child.tag != qn("a:pPr"):
                        paragraph.remove(child)
                fill = f'<a:solidFill><a:srgbClr val="{color}"/></a:solidFill>' if color else ""
                paragraph.append(etree.fromstring(
                    f'<a:fld xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" id="{{1}}" type="slidenum">'
                    f'<a:rPr lang="en-US">{fill}</a:rPr><a:t>&lt;number&gt;</a:t></a:fld>'))
    return edit


def numbered(made: Any) -> None:
    for index, slide in enumerate(made.slides):
        slide.shapes.add_textbox(Emu(0), Emu(0), Emu(300000), Emu(300000)).text_frame.text = str(index + 1)


def test_slide_number_color(probe: FolderProbe) -> None:
    deck(probe.home / "red.pptx", master_slide_number("FF0000"), numbered)
    deck(probe.home / "darkred.pptx", master_slide_number("C9211E"))
    deck(probe.home / "grey.pptx", master_slide_number("8B8B8B"), numbered)
    assert passes({"slide_number_color": {"path": "red.pptx", "equals": "FF0000", "shown": True}}, probe)
    assert passes({"slide_number_color": {"path": "darkred.pptx", "like": "red"}}, probe)
    assert not passes({"slide_number_color": {"path": "darkred.pptx", "equals": "FF0000"}}, probe)
    report = check({"slide_number_color": {"path": "darkred.pptx", "like": "red", "shown": True}}, probe)
    assert not report["passed"] and "no slide shows a slide number" in report["reason"]
    report = check({"slide_number_color": {"path": "grey.pptx", "like": "red"}}, probe)
    assert not report["passed"] and "#8B8B8B, which is not red" in report["reason"]
    assert not passes({"slide_number_color": {"path": "grey.pptx", "like": "black"}}, probe)


def test_text_strikethrough(probe: FolderProbe) -> None:
    def strike(value: str) -> Callable[[Any], None]:
        def edit(slide: Any) -> None:
            run = slide.shapes.title.text_frame.paragraphs[0].runs[0]
            run.font._element.set("strike", value)
        return on_slide(1, edit)
    deck(probe.home / "struck.pptx", strike("sngStrike"))
    deck(probe.home / "plain.pptx", strike("noStrike"))  # what LibreOffice writes on every run
    spec = {"slides": [1], "shapes": [0], "paragraphs": [0]}
    assert passes({"text_strikethrough": {"path": "struck.pptx", **spec}}, probe)
    assert not passes({"text_strikethrough": {"path": "plain.pptx", **spec}}, probe)
    report = check({"text_strikethrough": {"path": "struck.pptx", **spec, "paragraphs": [0, 3]}}, probe)
    assert not report["passed"] and "paragraph 3: no such paragraph" in report["reason"]


def test_presentation_media_follows_a_link_in_the_home_folder(probe: FolderProbe) -> None:
    song = probe.home / "Desktop" / "song.mp3"
    song.parent.mkdir(parents=True)
    song.write_bytes(b"ID3 not really a song")
    def linked(slide: Any) -> None:
        slide.part.relate_to(song.as_uri(), "http://schemas.openxmlformats.org/officeDocument/2006/relationships/audio", is_external=True)
    deck(probe.home / "linked.pptx", on_slide(0, linked))
    probe.task_dir.mkdir(parents=True, exist_ok=True)
    (probe.task_dir / "song.mp3").write_bytes(song.read_bytes())
    assert passes({"presentation_media": {"path": "linked.pptx", "slide": 0, "kind": "audio", "same_as": "song.mp3"}}, probe)
    assert not passes({"presentation_media": {"path": "linked.pptx", "slide": 1, "kind": "audio"}}, probe)


def test_background_image_is_read_off_the_slide(tmp_path: Path) -> None:
    from gui_agent.checks.presentation.judging import background_image

    picture = picture_png("green").getvalue()
    def backdrop(slide: Any) -> None:
        _, rel_id = slide.part.get_or_add_image_part(io.BytesIO(picture))
        background = etree.fromstring(
            '<p:bg xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" '
            'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" '
            'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">'
            f'<p:bgPr><a:blipFill><a:blip r:embed="{rel_id}"/><a:stretch><a:fillRect/></a:stretch></a:blipFill>'
            '<a:effectLst/></p:bgPr></p:bg>')
        slide._element.cSld.insert(0, background)
    path = deck(tmp_path / "bg.pptx", on_slide(1, backdrop))
    assert background_image(path, 1) == picture
    assert background_image(path, 0) is None


def test_slide_background_image_looks_like_the_reference(probe: FolderProbe) -> None:
    from PIL import ImageDraw

    def drawn(shift: int) -> bytes:
        image = Image.new("RGB", (64, 48), "white")
        ImageDraw.Draw(image).rectangle((10 + shift, 10, 30 + shift, 30), fill="black")
        data = io.BytesIO()
        image.save(data, format="PNG")
        return data.getvalue()
    def backdrop(picture: bytes) -> Callable[[Any], None]:
        def edit(slide: Any) -> None:
            _, rel_id = slide.part.get_or_add_image_part(io.BytesIO(picture))
            slide._element.cSld.insert(0, etree.fromstring(
                '<p:bg xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" '
                'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" '
                'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">'
                f'<p:bgPr><a:blipFill><a:blip r:embed="{rel_id}"/></a:blipFill><a:effectLst/></p:bgPr></p:bg>'))
        return on_slide(1, edit)
    probe.task_dir.mkdir(parents=True)
    (probe.task_dir / "gold.png").write_bytes(drawn(0))
    deck(probe.home / "same.pptx", backdrop(drawn(0)))
    deck(probe.home / "moved.pptx", backdrop(drawn(20)))
    deck(probe.home / "none.pptx")
    spec = {"slide": 1, "expected": "gold.png"}
    assert passes({"slide_background_image": {"path": "same.pptx", **spec}}, probe)
    report = check({"slide_background_image": {"path": "moved.pptx", **spec}}, probe)
    assert not report["passed"] and 0 < report["observed"]["score"] < 1
    assert passes({"slide_background_image": {"path": "moved.pptx", **spec, "min_score": report["observed"]["score"] - 0.001}}, probe)
    report = check({"slide_background_image": {"path": "none.pptx", **spec}}, probe)
    assert not report["passed"] and "has no background picture" in report["reason"]


def test_libreoffice_settings_inside_nodes_and_defaults(probe: FolderProbe) -> None:
    probe.write(".config/libreoffice/4/user/registrymodifications.xcu",
                '<?xml version="1.0" encoding="UTF-8"?><oor:items xmlns:oor="http://openoffice.org/2001/registry" '
                'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">'
                '<item oor:path="/org.openoffice.Office.Views/Windows"><node oor:name="27414" oor:op="replace">'
                '<node oor:name="UserData"><prop oor:name="Data" oor:op="fuse"><value>V2,H,0,AL:(4,16,0/0/154/325,154;325)</value>'
                '</prop></node></node></item>'
                "<item oor:path=\"/org.openoffice.Office.Views/Windows/org.openoffice.Office.Views:WindowType['10366']/UserData\">"
                '<prop oor:name="Data" oor:op="fuse"><value>V2,V,0</value></prop></item>'
                '<item oor:path="/org.openoffice.Setup/L10N"><prop oor:name="ooLocale" oor:op="fuse"><value>en-US</value></prop></item>'
                '<item oor:path="/org.openoffice.Setup/L10N"><prop oor:name="ooSetupSystemLocale" oor:op="fuse"><value>de-DE</value></prop></item>'
                '</oor:items>')
    visible = {"method": "re", "ref": r"^V\d*,V(,|$)"}
    pane = {"item": "/org.openoffice.Office.Views/Windows/27414/UserData", "prop": "Data", "value": visible}
    report = check({"libreoffice_setting": pane}, probe, apps="impress")
    assert not report["passed"] and "V2,H" in report["reason"]
    assert passes({"libreoffice_setting": {**pane, "item": "/org.openoffice.Office.Views/Windows/10366/UserData"}}, probe)
    assert passes({"libreoffice_setting": {**pane, "item": "/org.openoffice.Office.Views/Windows/27415/UserData", "default": "V2,V"}}, probe)
    assert not passes({"libreoffice_setting": {**pane, "item": "/org.openoffice.Office.Views/Windows/27415/UserData"}}, probe)
    assert passes({"libreoffice_locale": {"patterns": ["de-*"]}}, probe)  # the locale setting comes before the UI's language
    assert not passes({"libreoffice_locale": {"patterns": ["en-*", "fr-FR"]}}, probe)
