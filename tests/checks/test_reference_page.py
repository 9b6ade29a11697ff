"""docs/checks.md is the registry's own account of every check and source: regenerate it
(``python -m gui_agent.checks.reference > docs/checks.md``) when a check changes."""

from __future__ import annotations

from gui_agent.checks.reference import reference
from gui_agent.checks.registry import LEAF_TYPES
from gui_agent.checks.sources import SOURCES
from tests.paths import REPO


def test_the_page_is_what_the_code_makes() -> None:
    page = (REPO / "docs" / "checks.md").read_text(encoding="utf-8")
    assert page == reference(), "docs/checks.md is stale: python -m gui_agent.checks.reference > docs/checks.md"


def test_every_check_and_source_has_an_entry_that_says_something() -> None:
    page = reference()
    for name in [kind.name for kind in LEAF_TYPES] + [source.name for source in SOURCES]:
        entry = page.split(f"### `{name}`\n", 1)[1].split("###", 1)[0]
        assert "(no description)" not in entry and len(entry.strip()) > 20, name
