"""The file checks OSWorld's file evaluators convert to (PDF text, pages and pixels,
archives, HTML, EPUB, audio tags, mail folders, file_equal's options), each on a real
file the test makes that passes and one that fails for the reason the check names."""

from __future__ import annotations

import subprocess
import tarfile
import zipfile
from pathlib import Path
from typing import Any

import matplotlib
import pytest
import yaml
from PIL import Image

from gui_agent.checks.evaluation import evaluate
from gui_agent.task import load_task_text
from tests.checks.check_helpers import FolderProbe, check, passes

matplotlib.use("Agg")


@pytest.fixture
def probe(tmp_path: Path) -> FolderProbe:
    (tmp_path / "home").mkdir()
    (tmp_path / "task").mkdir()
    return FolderProbe(home=tmp_path / "home", task_dir=tmp_path / "task")


def make_pdf(path: Path, pages: list[str]) -> Path:
    """A real PDF with one page per text (matplotlib's PDF backend, TrueType text PDFium extracts)."""
    import matplotlib.pyplot as plt
    from matplotlib.backends.backend_pdf import PdfPages

    path.parent.mkdir(parents=True, exist_ok=True)
    with matplotlib.rc_context({"pdf.fonttype": 42}), PdfPages(path) as pdf:
        for text in pages:
            figure = plt.figure(figsize=(4, 3))
            figure.text(0.05, 0.5, text)
            pdf.savefig(figure)
            plt.close(figure)
    return path


def test_pdf_pages_counts_real_pages(probe: FolderProbe) -> None:
    make_pdf(probe.home / "one.pdf", ["only page"])
    make_pdf(probe.home / "three.pdf", ["a", "b", "c"])
    assert passes({"pdf_pages": {"path": "one.pdf", "pages": {"method": "eq", "ref": 1}}}, probe)
    report = check({"pdf_pages": {"path": "three.pdf", "pages": {"method": "eq", "ref": 1}}}, probe)
    assert not report["passed"] and report["observed"] == {"pages": 3}


def test_pdf_text_compares_every_pages_text(probe: FolderProbe) -> None:
    make_pdf(probe.task_dir / "gold.pdf", ["Chapter 1 Spectral graphs", "Chapter 2 The Laplacian"])
    make_pdf(probe.home / "same.pdf", ["Chapter 1  Spectral graphs", "Chapter 2 The Laplacian"])  # spacing aside
    make_pdf(probe.home / "other.pdf", ["Chapter 1 Spectral graphs", "Chapter 3 Expanders"])
    assert passes({"pdf_text": {"path": "same.pdf", "expected": "gold.pdf"}}, probe)
    report = check({"pdf_text": {"path": "other.pdf", "expected": "gold.pdf"}}, probe)
    assert not report["passed"] and "Chapter 3 Expanders" in report["reason"], report
    assert 0.6 < report["observed"]["score"] < 1.0, report
    assert passes({"pdf_text": {"path": "other.pdf", "expected": "gold.pdf", "min_score": 0.6}}, probe)
    (probe.home / "fake.pdf").write_text("not a pdf")
    assert "not a PDF" in check({"pdf_text": {"path": "fake.pdf", "expected": "gold.pdf"}}, probe)["error"]
    assert "does not exist" in check({"pdf_text": {"path": "missing.pdf", "expected": "gold.pdf"}}, probe)["reason"]


def reward(spec: dict[str, Any], probe: FolderProbe) -> float:
    """The episode's reward when ``spec`` is the task's whole evaluator."""
    task = load_task_text(yaml.safe_dump({"id": "test.reward", "instruction": "test",
                                          "environment": {"kind": "desktop", "apps": ["calc"]}, "evaluator": spec}))
    return evaluate(task.evaluator, probe).reward  # type: ignore[arg-type]


def test_pdf_text_scores_as_the_reward(probe: FolderProbe) -> None:
    make_pdf(probe.task_dir / "gold.pdf", ["Invoice 243729 total 1200 EUR"])
    make_pdf(probe.home / "close.pdf", ["Invoice 243729 total 1300 EUR"])
    score = reward({"pdf_text": {"path": "close.pdf", "expected": "gold.pdf"}}, probe)
    assert 0.9 < score < 1.0
    assert reward({"pdf_text": {"path": "missing.pdf", "expected": "gold.pdf"}}, probe) == 0.0


def test_pdf_images_compares_rendered_pixels(probe: FolderProbe) -> None:
    receipt = Image.new("RGB", (200, 120), "white")
    receipt.paste((20, 20, 20), (20, 20, 180, 40))
    receipt.save(probe.task_dir / "gold.pdf")
    receipt.save(probe.home / "same.pdf")
    changed = receipt.copy()
    changed.paste((200, 0, 0), (20, 60, 120, 80))
    changed.save(probe.home / "changed.pdf")
    assert passes({"pdf_images": {"path": "same.pdf", "expected": "gold.pdf"}}, probe)
    report = check({"pdf_images": {"path": "changed.pdf", "expected": "gold.pdf"}}, probe)
    assert not report["passed"] and report["observed"]["differing_pixels"] > 100, report
    make_pdf(probe.home / "two.pdf", ["a", "b"])
    assert "2 page(s)" in check({"pdf_images": {"path": "two.pdf", "expected": "gold.pdf"}}, probe)["reason"]


def test_archive_equal_with_pdfs_in_a_folder(probe: FolderProbe, tmp_path: Path) -> None:
    slides = tmp_path / "made" / "lecture_slides"
    for week in range(3):
        make_pdf(slides / f"lecture{week}.pdf", [f"Week {week}: functions and loops"])
    with zipfile.ZipFile(probe.task_dir / "gold.zip", "w") as gold:
        for pdf in sorted(slides.iterdir()):
            gold.write(pdf, f"lecture_slides/{pdf.name}")
    with tarfile.open(probe.home / "slides.tar.gz", "w:gz") as right:  # another format, same files
        right.add(slides, "lecture_slides")
    with zipfile.ZipFile(probe.home / "short.zip", "w") as short:
        for pdf in sorted(slides.iterdir())[:2]:
            short.write(pdf, f"lecture_slides/{pdf.name}")
    make_pdf(slides / "lecture2.pdf", ["Week 2: something else"])
    with zipfile.ZipFile(probe.home / "wrong.zip", "w") as wrong:
        for pdf in sorted(slides.iterdir()):
            wrong.write(pdf, f"lecture_slides/{pdf.name}")
    spec = {"expected": "gold.zip", "folder": "lecture_slides", "files": "pdf"}
    assert passes({"archive_equal": {"path": "slides.tar.gz", **spec}}, probe)
    report = check({"archive_equal": {"path": "short.zip", **spec}}, probe)
    assert not report["passed"] and "missing ['lecture2.pdf']" in report["reason"], report
    report = check({"archive_equal": {"path": "wrong.zip", **spec}}, probe)
    assert not report["passed"] and "lecture2.pdf" in report["reason"] and "something else" in report["reason"], report
    assert 2 / 3 < report["observed"]["score"] < 1.0, report  # two PDFs the same, one partly


def test_archive_equal_text_and_lines_options(probe: FolderProbe) -> None:
    def pack(name: str, files: dict[str, str], where: Path) -> None:
        with zipfile.ZipFile(where / name, "w") as packed:
            for member, text in files.items():
                packed.writestr(member, text)
    pack("gold.zip", {"a.txt": "Hello  World\n", "b.csv": "x,y\n1,2\n"}, probe.task_dir)
    pack("loose.zip", {"a.txt": "hello world", "b.csv": " x,y\n1,2 \n"}, probe.home)
    assert not passes({"archive_equal": {"path": "loose.zip", "expected": "gold.zip"}}, probe)
    assert passes({"archive_equal": {"path": "loose.zip", "expected": "gold.zip", "ignore_case": True, "ignore_blanks": True}}, probe)
    assert not passes({"archive_equal": {"path": "loose.zip", "expected": "gold.zip", "files": "lines"}}, probe)


HTML = """<!DOCTYPE html><html><head><meta charset="utf-8"><title>Survey</title></head>
<body><table border="1"><tr><td>Year</td><td>2021</td></tr>{row}</table></body></html>"""


def test_html_equal(probe: FolderProbe) -> None:
    (probe.task_dir / "gold.html").write_text(HTML.format(row="<tr><td>Value</td><td>728</td></tr>"))
    probe.write("same.html", HTML.format(row="<tr><td>Value</td><td>728</td></tr>"))
    probe.write("changed.html", HTML.format(row="<tr><td>Value</td><td>729</td></tr>"))
    probe.write("cut.html", HTML.format(row=""))
    assert passes({"html_equal": {"path": "same.html", "expected": "gold.html"}}, probe)
    report = check({"html_equal": {"path": "changed.html", "expected": "gold.html"}}, probe)
    assert not report["passed"] and "729" in report["reason"], report
    assert not passes({"html_equal": {"path": "cut.html", "expected": "gold.html"}}, probe)


def make_epub(path: Path, chapters: list[str], identifier: str) -> Path:
    with zipfile.ZipFile(path, "w") as book:
        book.writestr("mimetype", "application/epub+zip")
        book.writestr("toc.ncx", "<ncx>\n<docTitle>Pass Through</docTitle>\n"
                      + "".join(f'<navPoint id="c{i}">ch{i}</navPoint>\n' for i in range(len(chapters))) + "</ncx>\n")
        book.writestr("content.opf", f"<package>\n<dc:title>Pass Through</dc:title>\n<dc:identifier>{identifier}</dc:identifier>\n</package>\n")
        for i, text in enumerate(chapters):
            book.writestr(f"chapter{i}.html", f"<html>\n<body>\n<h1>Chapter {i}</h1>\n<p>{text}</p>\n</body>\n</html>\n")
    return path


def test_epub_equal(probe: FolderProbe) -> None:
    make_epub(probe.task_dir / "gold.epub", ["It rained.", "It stopped."], "uuid-1")
    make_epub(probe.home / "same.epub", ["It rained.", "It stopped."], "uuid-2")  # a fresh identifier is fine
    make_epub(probe.home / "changed.epub", ["It rained.", "It snowed."], "uuid-3")
    make_epub(probe.home / "short.epub", ["It rained."], "uuid-4")
    probe.write("plain.epub", "It rained. It stopped.")
    assert passes({"epub_equal": {"path": "same.epub", "expected": "gold.epub"}}, probe)
    report = check({"epub_equal": {"path": "changed.epub", "expected": "gold.epub"}}, probe)
    assert not report["passed"] and "chapter1.html" in report["reason"] and "snowed" in report["reason"], report
    assert 0 < report["observed"]["score"] < 1, report
    assert "chapter1.html is missing" in check({"epub_equal": {"path": "short.epub", "expected": "gold.epub"}}, probe)["reason"]
    assert "not an EPUB" in check({"epub_equal": {"path": "plain.epub", "expected": "gold.epub"}}, probe)["reason"]


def make_mp3(path: Path, **tags: str) -> Path:
    metadata = [arg for name, value in tags.items() for arg in ("-metadata", f"{name}={value}")]
    subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "anullsrc=r=22050:cl=mono", "-t", "0.3",
                    *metadata, str(path)], check=True, stdin=subprocess.DEVNULL)
    return path


def test_audio_tags(probe: FolderProbe) -> None:
    make_mp3(probe.home / "right.mp3", title="Missing You", artist="Cheng Xiang", track="3")
    make_mp3(probe.home / "blank.mp3")
    spec = {"expect": {"title": {"method": "eq", "ref": "Missing You"}, "artist": {"method": "eq", "ref": "Cheng Xiang"},
                       "tracknumber": {"method": "eq", "ref": "3"}}}
    assert passes({"audio_tags": {"path": "right.mp3", **spec}}, probe)
    report = check({"audio_tags": {"path": "blank.mp3", **spec}}, probe)
    assert not report["passed"] and report["observed"]["tags"]["title"] == "", report


MESSAGE = """From - Mon Jan 29 10:00:00 2024
X-Mozilla-Status: {status}
X-Mozilla-Keys:{keys}
Subject: {subject}
From: billing@example.com

{body}
"""


def mbox(*messages: tuple[str, str, str, str]) -> str:
    return "".join(MESSAGE.format(subject=s, status=st, keys=k, body=b) for s, st, k, b in messages)


def test_mail_folder_equal(probe: FolderProbe) -> None:
    invoice, receipt = ("Invoice", "0001", "", "Total: 12 USD"), ("Receipt", "0001", "", "Paid")
    (probe.task_dir / "gold").write_text(mbox(invoice, receipt))
    probe.write("moved", mbox(receipt, invoice, invoice, ("Old", "0009", "", "deleted")))  # order, repeats, deleted aside
    probe.write("unread", mbox(("Invoice", "0000", " $label1", "Total: 12 USD"), receipt))
    probe.write("edited", mbox(("Invoice", "0001", "", "Total: 13 USD"), receipt))
    assert passes({"mail_folder_equal": {"path": "moved", "expected": "gold"}}, probe)
    assert not passes({"mail_folder_equal": {"path": "moved", "expected": "gold", "remove_deleted": False}}, probe)
    assert not passes({"mail_folder_equal": {"path": "unread", "expected": "gold"}}, probe)
    assert passes({"mail_folder_equal": {"path": "unread", "expected": "gold", "ignore_status": True, "ignore_keys": True}}, probe)
    report = check({"mail_folder_equal": {"path": "edited", "expected": "gold"}}, probe)
    assert not report["passed"] and "'Invoice' is missing or differs" in report["reason"], report


def test_mail_folder_equal_reads_a_saved_message(probe: FolderProbe) -> None:
    (probe.task_dir / "gold.eml").write_text("Subject: Invoice\nFrom: a@example.com\n\nTotal: 12 USD\n")
    probe.write("saved.eml", "Subject: Invoice\r\nFrom: a@example.com\r\n\r\nTotal: 12 USD\r\n")
    probe.write("other.eml", "Subject: Receipt\nFrom: a@example.com\n\nPaid\n")
    assert passes({"mail_folder_equal": {"path": "saved.eml", "expected": "gold.eml"}}, probe)
    assert not passes({"mail_folder_equal": {"path": "other.eml", "expected": "gold.eml"}}, probe)


def test_file_equal_strip_and_ignore_case(probe: FolderProbe) -> None:
    (probe.task_dir / "gold.csv").write_text("Name,Email\nAnn,ann@example.com\n")
    probe.write("loose.csv", "  name,email\nANN,ann@example.com\n\n")
    assert not passes({"file_equal": {"path": "loose.csv", "expected": "gold.csv"}}, probe)
    assert not passes({"file_equal": {"path": "loose.csv", "expected": "gold.csv", "ignore_case": True}}, probe)
    assert passes({"file_equal": {"path": "loose.csv", "expected": "gold.csv", "ignore_case": True, "strip": True}}, probe)
