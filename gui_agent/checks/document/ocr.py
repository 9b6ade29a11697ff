"""Reading the text a picture shows, with Tesseract (Debian's ``tesseract-ocr``), for
``ocr_text_contains`` (OSWorld's ``compare_image_text``).

Why Tesseract and not EasyOCR, which OSWorld uses: EasyOCR downloads its models from
the internet the first time it runs; Tesseract's English model comes with its Debian
package. The two engines can read the same picture differently (a lone "ls" may come
out "Ls" from one and "ls" from the other), so a text OSWorld's config chose after
reading EasyOCR's output may need another spelling here. The command runs on the
episode's desktop through the probe, as a person's tool would.
"""

from __future__ import annotations

from gui_agent.checks.document.structure_models import OcrTextContainsArgs, OcrTextContainsCheck
from gui_agent.checks.family import CheckType
from gui_agent.checks.probes import DesktopProbe
from gui_agent.checks.reports import Report, cut, written_file

#: How long one picture may take to read.
OCR_TIMEOUT_S = 60.0


def read_picture_text(probe: DesktopProbe, path: str, language: str) -> str:
    """Tesseract's reading of the picture at the absolute ``path``, its words joined by single spaces.

    Raises:
        RuntimeError: Tesseract is not installed, or could not read the file.
    """
    done = probe.run_command(["tesseract", path, "stdout", "-l", language], timeout_s=OCR_TIMEOUT_S)
    if done.returncode == 127 or ("not found" in done.stderr and not done.stdout):
        raise RuntimeError("tesseract is not installed (Debian: apt-get install tesseract-ocr)")
    if done.returncode != 0:
        raise RuntimeError(f"tesseract could not read {path}: {done.stderr.strip()[-300:]}")
    return " ".join(done.stdout.split())


def _ocr_text_contains(args: OcrTextContainsArgs, probe: DesktopProbe, report: Report) -> None:
    found = written_file(probe, args.path, report)
    if found is None:
        return
    text = read_picture_text(probe, str(found), args.language)
    ok = args.text in text
    report.update(observed={"text": cut(text)}, passed=ok,
                  reason=f"the picture {'shows' if ok else 'does not show'} {args.text!r} (Tesseract read {cut(text[:200])!r})")


#: The OCR check, with its judge.
OCR_CHECKS: tuple[CheckType, ...] = (CheckType(OcrTextContainsCheck, _ocr_text_contains),)

__all__ = ["OCR_CHECKS", "OCR_TIMEOUT_S", "read_picture_text"]
