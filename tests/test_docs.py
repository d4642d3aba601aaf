"""The Markdown documents: every table row belongs to its table (a row after a paragraph is read
as more of the paragraph's text, and the table loses it)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
"""The README and every page of the site, in its subfolders too (docs/rules/gin.md)."""
SEPARATOR = re.compile(r"^\|( *:?-+:? *\|)+ *$")


def stray_rows(text: str) -> list[int]:
    """The line numbers of table rows that no table holds: a row must follow a row, or be a
    header with its separator line under it. Code blocks are skipped."""
    lines = text.split("\n")
    stray = []
    fenced = False
    for i, line in enumerate(lines):
        if line.startswith("```"):
            fenced = not fenced
        if fenced or not line.startswith("|"):
            continue
        after_row = i > 0 and lines[i - 1].startswith("|")
        header = i + 1 < len(lines) and SEPARATOR.match(lines[i + 1]) is not None
        if not (after_row or header):
            stray.append(i + 1)
    return stray


def test_a_row_after_a_paragraph_is_found() -> None:
    text = "| a | b |\n|---|---|\n| 1 | 2 |\n\nSome words.\n| 3 | 4 |\n"
    assert stray_rows(text) == [6]
    assert stray_rows(text.replace("Some words.\n", "")) == [5]  # (a blank line ends a table)
    assert stray_rows(text.replace("\nSome words.\n", "")) == []


def test_the_pages_in_subfolders_are_checked() -> None:
    assert ROOT / "docs" / "rules" / "gin.md" in DOCUMENTS


@pytest.mark.parametrize("path", DOCUMENTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_table_row_is_in_its_table(path: Path) -> None:
    assert stray_rows(path.read_text(encoding="utf-8")) == []
