"""Locally made inputs for a few imported OSWorld tasks (the real ones are on the internet),
written where the import declares them (``inputs/NAME`` next to the task file).

Each maker writes the task's starting file(s) and, where a check compares with one, a
gold file made the way the task's instruction says. Presentations are passed through a
headless LibreOffice so the gold and the agent's save are written by the same program.
"""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import tarfile
import tempfile
from collections.abc import Callable
from pathlib import Path

import docx
import openpyxl
from pptx import Presentation

WEEKS = [("Week", "Sales", "COGS"), (1, 100, 60), (2, 120, 70), (3, 90, 40)]


def _book(path: Path, rows: list[tuple], edit: Callable[[object], None] | None = None) -> None:
    workbook = openpyxl.Workbook()
    for row in rows:
        workbook.active.append(row)
    if edit is not None:
        edit(workbook.active)
    path.parent.mkdir(parents=True, exist_ok=True)
    workbook.save(path)


def weekly_sales(inputs: Path) -> None:
    """1e8df695: WeeklySales.xlsx, and the gold with Profit = Sales - COGS in D."""
    _book(inputs / "WeeklySales.xlsx", WEEKS)
    _book(inputs / "6_WeeklySales_gt1.xlsx", [(*WEEKS[0], "Profit")] + [(*r, r[1] - r[2]) for r in WEEKS[1:]])


def freeze_headers(inputs: Path) -> None:
    """4188d3a4: a sheet, and the gold with A1:B1 frozen (split at C2)."""
    _book(inputs / "Freeze_row_column.xlsx", WEEKS)
    _book(inputs / "Freeze_row_column_gold.xlsx", WEEKS, lambda ws: setattr(ws, "freeze_panes", "C2"))


def _document(path: Path, paragraphs: list[str]) -> None:
    made = docx.Document()
    for text in paragraphs:
        made.add_paragraph(text)
    path.parent.mkdir(parents=True, exist_ok=True)
    made.save(str(path))


def statutory_declaration(inputs: Path) -> None:
    """ecc2413d: a one-page declaration."""
    _document(inputs / "Sample_Statutory_Declaration.docx", ["Statutory Declaration", "I, the undersigned, declare that..."])


def constitution(inputs: Path) -> None:
    """3ef2b351: a document whose first paragraph, the heading, is left-aligned."""
    _document(inputs / "Constitution_Template_With_Guidelines.docx", ["Constitution of the Club", "Article 1. Name."])


def libreoffice_copy(source: Path, target: Path) -> None:
    """``source`` opened and saved again (as .pptx) by a headless LibreOffice with a profile of its own."""
    with tempfile.TemporaryDirectory() as work:
        subprocess.run(
            ["soffice", "--headless", "--norestore", f"-env:UserInstallation={Path(work, 'profile').as_uri()}",
             "--convert-to", "pptx", "--outdir", str(Path(work, "out")), str(source)],
            check=True, capture_output=True, timeout=120,
        )
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(Path(work, "out", source.stem + ".pptx"), target)


def _deck(path: Path, content: str) -> None:
    made = Presentation()
    intro = made.slides.add_slide(made.slide_layouts[0])
    intro.shapes.title.text = "Lecture 4"
    second = made.slides.add_slide(made.slide_layouts[1])
    second.shapes.title.text = "Agenda"
    if content:
        second.placeholders[1].text = content
    with tempfile.TemporaryDirectory() as work:
        raw = Path(work) / path.name
        made.save(str(raw))
        libreoffice_copy(raw, path)


def page_one(inputs: Path) -> None:
    """73c99fb9: slide 2's content box says "Welcome"; the gold adds a "Page 1" paragraph."""
    _deck(inputs / "109_4.pptx", "Welcome")
    _deck(inputs / "109_4_Gold.pptx", "Welcome\nPage 1")


def monetizing_video(inputs: Path) -> None:
    """a097acff: the presentation to save under another name (the gold is the same file)."""
    _deck(inputs / "Secrets-of-Monetizing-Video.pptx", "Why video pays")


PROFILE = "t5q2a5hp.default-release"


def thunderbird_profile(inputs: Path, name: str = "thunderbird-profile.tar.gz") -> None:
    """A Thunderbird profile archive like OSWorld's: ``.thunderbird/profiles.ini`` and one profile
    with a Local Folders account (unpacked into the home by the task's set-up)."""
    prefs = {
        "mail.accountmanager.accounts": "account1", "mail.accountmanager.localfoldersserver": "server1",
        "mail.account.account1.server": "server1", "mail.server.server1.type": "none",
        "mail.server.server1.hostname": "Local Folders", "mail.server.server1.name": "Local Folders",
        "mail.server.server1.userName": "nobody", "mail.server.server1.directory-rel": "[ProfD]Mail/Local Folders",
    }
    files = {
        ".thunderbird/profiles.ini": f"[Profile0]\nName=default-release\nIsRelative=1\nPath={PROFILE}\nDefault=1\n\n"
                                     "[General]\nStartWithLastProfile=1\nVersion=2\n",
        f".thunderbird/{PROFILE}/prefs.js": "".join(f"user_pref({json.dumps(k)}, {json.dumps(v)});\n" for k, v in prefs.items()),
        f".thunderbird/{PROFILE}/Mail/Local Folders/Inbox": "",
    }
    inputs.mkdir(parents=True, exist_ok=True)
    with tarfile.open(inputs / name, "w:gz") as archive:
        for member, text in files.items():
            data = text.encode()
            info = tarfile.TarInfo(member)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))


#: Imported task id (without ``osworld.<domain>.``) -> its input maker.
MAKERS: dict[str, Callable[[Path], None]] = {
    "1e8df695-bd1b-45b3-b557-e7d599cf7597": weekly_sales,
    "4188d3a4-077d-46b7-9c86-23e1a036f6c1": freeze_headers,
    "ecc2413d-8a48-416e-a3a2-d30106ca36cb": statutory_declaration,
    "3ef2b351-8a84-4ff2-8724-d86eae9b842e": constitution,
    "73c99fb9-f828-43ce-b87a-01dc07faa224": page_one,
    "a097acff-6266-4291-9fbd-137af7ecd439": monetizing_video,
    "2ad9387a-65d8-4e33-ad5b-7580065a27ca": thunderbird_profile,
    "10a730d5-d414-4b40-b479-684bed1ae522": thunderbird_profile,
}
