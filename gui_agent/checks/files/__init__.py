"""Checks of files the agent writes, against rules or against expected files shipped with
the task: plain text and data (``plain``), PDFs (``pdf``), archives (``archives``), HTML
pages and EPUB books (``markup``), audio tags (``tags``).

They cover OSWorld's file evaluators: ``compare_csv``, ``check_list``, ``check_csv``,
``check_json``, the sqlite checks, ``check_pdf_pages``, ``compare_pdfs``,
``compare_pdf_images``, ``compare_archive``, ``compare_htmls``, ``compare_epub`` and
``check_mp3_meta``. Paths are relative to the episode's home folder; ``expected`` files
are in the task's folder. ``compare`` holds the text comparisons several checks share.
"""

from __future__ import annotations

from gui_agent.checks.family import CheckType
from gui_agent.checks.files import archives, markup, pdf, plain, tags

#: This family's checks, each with its judge, in the order error messages list them.
CHECKS: tuple[CheckType, ...] = (*plain.CHECKS, *pdf.CHECKS, *archives.CHECKS, *markup.CHECKS, *tags.CHECKS)

__all__ = ["CHECKS"]
