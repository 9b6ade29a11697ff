"""Document checks that score, as OSWorld's metrics that return a fraction do: how alike
two texts are, how close tab stops sit to the reference's, how alike the references
are. Each report carries ``observed.score`` (0..1, OSWorld's value); the check passes
when the score reaches ``min_score`` (default 1: OSWorld's full marks), and when it is a
task's whole evaluator the episode's reward is that score. Judges:
:mod:`gui_agent.checks.document.scoring`."""

from __future__ import annotations

from typing import Annotated, ClassVar

from pydantic import Field

from gui_agent.envs.desktop.paths import HomePath, TaskPath
from gui_agent.schema import NonBlank, SingleKey, StrictModel

#: ``min_score``: the score a scored check needs to pass (1 = OSWorld's full marks).
MinScore = Annotated[float, Field(gt=0, le=1)]


class DocumentTextSimilarityArgs(StrictModel):
    """Scores how alike the document's text is to ``expected``'s: the Indel similarity
    (rapidfuzz's ``fuzz.ratio``) of the whole texts with every whitespace run as one
    space, or with ``by_paragraph`` the mean over paragraph pairs (0 when the counts
    differ). ``ignore_order`` sorts the paragraphs first, ``delete_empty_lines`` drops
    blank ones, ``ignore_case`` lower-cases (OSWorld's ``compare_docx_files`` with
    ``content_only`` or ``fuzzy_match``)."""

    path: HomePath
    expected: TaskPath
    ignore_case: bool = False
    ignore_order: bool = False
    delete_empty_lines: bool = False
    by_paragraph: bool = False
    min_score: MinScore = 1.0


class TabStopsEqualArgs(StrictModel):
    """Scores the tab stops set on the document's non-blank paragraphs against those of
    ``expected``'s (OSWorld's ``check_tabstops``): 0 when the paragraph counts, a
    paragraph's number of tab stops or any alignment differ (clear tabs and left tabs at
    0 not counted); else 1 less the mean, over paragraphs, of the summed position offsets
    over ``expected``'s text width. ``words_before_tab``: also 0 unless the part of
    every paragraph between tabs at 0-based ``tab_index`` has exactly that many words."""

    path: HomePath
    expected: TaskPath
    words_before_tab: int | None = Field(default=None, strict=True, ge=0)
    tab_index: int = Field(default=0, strict=True)
    min_score: MinScore = 1.0


class ReferencesEqualArgs(StrictModel):
    """Scores the reference list, the non-blank paragraphs after the first paragraph
    reading exactly ``heading``, against ``expected``'s (OSWorld's ``compare_references``):
    1 when neither has the heading, 0 when one has, or the lists differ in length; else
    the mean Indel similarity of the references pair by pair, rescaled so ``base`` scores
    0 and equal lists 1 (below ``base``: 0)."""

    path: HomePath
    expected: TaskPath
    heading: NonBlank = "References"
    base: float = Field(default=0.5, ge=0, lt=1)
    min_score: MinScore = 1.0


class DocumentTextSimilarityCheck(SingleKey):
    name: ClassVar[str] = "document_text_similarity"
    document_text_similarity: DocumentTextSimilarityArgs


class TabStopsEqualCheck(SingleKey):
    name: ClassVar[str] = "tab_stops_equal"
    tab_stops_equal: TabStopsEqualArgs


class ReferencesEqualCheck(SingleKey):
    name: ClassVar[str] = "references_equal"
    references_equal: ReferencesEqualArgs
