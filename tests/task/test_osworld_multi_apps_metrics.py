"""What multi_apps configs' file evaluators become: compare_pdfs, compare_pdf_images,
compare_archive, compare_htmls, compare_epub, check_mp3_meta, compare_csv's options and
check_thunderbird_folder, each from a real OSWorld config (trimmed to the function under
test where the rest of the config has no equivalent yet)."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from gui_agent.task.osworld_import import convert_osworld
from tests.paths import FIXTURES


def config(fragment: str) -> dict[str, Any]:
    (path,) = (FIXTURES / "osworld").glob(f"multi_apps-{fragment}*.json")
    return json.loads(path.read_text())


def only(cfg: dict[str, Any], index: int) -> dict[str, Any]:
    """``cfg`` with its evaluator reduced to function ``index`` (with its result, expected, options)."""
    trimmed = copy.deepcopy(cfg)
    evaluator = trimmed["evaluator"]
    for key in ("func", "result", "expected", "options"):
        if isinstance(evaluator.get(key), list):
            evaluator[key] = evaluator[key][index]
    return trimmed


def evaluator(cfg: dict[str, Any]) -> Any:
    conversion = convert_osworld(cfg)
    assert not [u for u in conversion.unsupported if u.startswith("evaluator")], conversion.unsupported
    return conversion.task.model_dump(mode="json", by_alias=True, exclude_unset=True)["evaluator"]


def unsupported(cfg: dict[str, Any]) -> list[str]:
    return [u for u in convert_osworld(cfg).unsupported if u.startswith("evaluator")]


def test_compare_archive_of_pdfs_zipped_by_a_post_step() -> None:
    conversion = convert_osworld(config("5df7b33a"))
    assert conversion.complete, conversion.unsupported
    task = conversion.task.model_dump(mode="json", by_alias=True, exclude_unset=True)
    assert task["evaluator"] == {"archive_equal": {"path": "Desktop/book/book.zip", "expected": "inputs/gold_book.zip",
                                                   "folder": "", "files": "pdf"}}
    assert task["post_steps"] == [{"run_command": {"command": ["/bin/bash", "-c", 'cd "$HOME"/Desktop/book && zip -qr book.zip *.pdf']}}]
    assert evaluator(config("0e5303d4"))["archive_equal"]["folder"] == "lecture_slides"


def test_compare_archive_file_types_and_options() -> None:
    cfg = config("5df7b33a")
    cfg["evaluator"]["options"] = {"file_type": "text", "ignore_blanks": True, "ignore_case": True}
    assert evaluator(cfg)["archive_equal"] | {"files": "text", "ignore_blanks": True, "ignore_case": True} == evaluator(cfg)["archive_equal"]
    cfg["evaluator"]["options"] = {"file_type": "csv", "strict": False}
    assert evaluator(cfg)["archive_equal"]["files"] == "lines" and evaluator(cfg)["archive_equal"]["ignore_blanks"] is True
    cfg["evaluator"]["options"] = {"file_type": "docx"}
    assert "only text, csv and pdf" in unsupported(cfg)[0]
    cfg["evaluator"]["options"] = {"file_type": "pdf", "ignore_blanks": True}
    assert "ignore_blanks" in unsupported(cfg)[0]


def test_compare_pdfs_one_pair_beside_a_docx_check() -> None:
    assert evaluator(config("68a25bd4")) == {"all_of": [
        {"pdf_text": {"path": "paper01.pdf", "expected": "inputs/paper01_Gold.pdf"}},
        {"document_text_equal": {"path": "ans.docx", "expected": "inputs/ans_Gold.docx"}},
    ]}


def test_compare_pdfs_with_result_and_expected_the_other_way_round() -> None:
    """185f29bd names the downloaded gold PDFs as ``result`` and the agent's as ``expected``."""
    checks = evaluator(config("185f29bd"))["all_of"]
    assert len(checks) == 7
    assert checks[0] == {"pdf_text": {"path": "Desktop/Alex Lee.pdf", "expected": "inputs/Alex Lee_Gold.pdf"}}
    assert checks[6] == {"pdf_text": {"path": "Desktop/Sophia Carter.pdf", "expected": "inputs/Sophia Carter_Gold.pdf"}}


def test_compare_pdfs_from_google_drive_has_no_equivalent() -> None:
    reasons = unsupported(config("78aed49a"))
    assert reasons and "googledrive_file" in reasons[0]


def test_compare_pdf_images() -> None:
    assert evaluator(config("a503b07f")) == {"pdf_images": {"path": "Desktop/receipt.pdf", "expected": "inputs/receipt_Gold.pdf"}}


def test_compare_htmls() -> None:
    assert evaluator(only(config("e135df7c"), 1)) == {"html_equal": {
        "path": "Desktop/annual-enterprise-survey-2021-financial-year-provisional.html",
        "expected": "inputs/annual-enterprise-survey-2021-financial-year-provisional_gold.html"}}


def test_compare_epub() -> None:
    assert evaluator(config("42d25c08")) == {"epub_equal": {
        "path": "Documents/Novels/Pass Through/Pass Through.epub", "expected": "inputs/Pass Through Gold.epub"}}


def test_check_mp3_meta_rules_become_audio_tag_rules() -> None:
    checks = evaluator(config("3f05f3b9"))["all_of"]
    assert len(checks) == 5
    assert checks[0] == {"audio_tags": {"path": "Music/Cheng Xiang - Missing You.mp3", "expect": {
        "title": {"method": "eq", "ref": "Missing You"}, "artist": {"method": "eq", "ref": "Cheng Xiang"}}}}
    cfg = config("3f05f3b9")
    cfg["evaluator"]["expected"][0]["rules"]["replaygain_track_gain"] = {"method": "eq", "ref": "1 dB"}
    assert "replaygain_track_gain" in unsupported(cfg)[0]


def test_compare_csv_options() -> None:
    assert evaluator(config("c867c42d"))["all_of"][0] == {"file_equal": {"path": "Desktop/contacts.csv", "expected": "inputs/contacts_gold.csv"}}
    cfg = config("c867c42d")
    cfg["evaluator"]["options"][0] = {"strict": False, "ignore_case": True}
    assert evaluator(cfg)["all_of"][0]["file_equal"] == {
        "path": "Desktop/contacts.csv", "expected": "inputs/contacts_gold.csv", "strip": True, "ignore_case": True}
    cfg["evaluator"]["options"][0] = {"encoding": "latin-1"}
    assert "['encoding'] have no equivalent" in unsupported(cfg)[0]


def test_check_thunderbird_folder_compares_each_folder_file() -> None:
    checks = evaluator(only(config("78aed49a"), 0))["all_of"]
    profile = ".thunderbird/t5q2a5hp.default-release/Mail/Local Folders"
    assert checks == [
        {"mail_folder_equal": {"path": f"{profile}/have_seen", "expected": "inputs/have_seen_gold",
                               "remove_deleted": True, "remove_duplicate": True}},
        {"mail_folder_equal": {"path": f"{profile}/Bills", "expected": "inputs/Bills_gold",
                               "remove_deleted": True, "remove_duplicate": True}},
    ]
    cfg = only(config("78aed49a"), 0)
    cfg["evaluator"]["options"] = {"ignore_attachments": True}
    assert "ignore_attachments" in unsupported(cfg)[0]


@pytest.mark.parametrize("fragment", ["5df7b33a", "68a25bd4", "c867c42d"])
def test_these_multi_apps_configs_convert_completely(fragment: str) -> None:
    conversion = convert_osworld(config(fragment))
    assert conversion.complete, conversion.unsupported
