"""The SQLite-docs truth files (benchmarks/sqlitedocs/): enough of them, read off the installed
docs.html / lang.html (the checks every dev set shares: test_docsite_truth.py)."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest

from pagesift_ui.bench import Truth
from tests.bench.docsite_truth import PLACEHOLDER, SQLITEDOCS

DOCSET = SQLITEDOCS  # the conftest's make_truth fixture loads its make_truth.py
TRUTH_FILES = DOCSET.truth_files


def test_there_are_at_least_eight_queries() -> None:
    assert len(TRUTH_FILES) >= 8, TRUTH_FILES


@pytest.mark.parametrize("path", TRUTH_FILES, ids=lambda p: p.stem)
def test_truth_urls_have_no_query_and_skip_the_table_of_contents(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    truth = Truth.parse(text, str(path))
    assert all("?" not in u for u in truth.urls)
    assert PLACEHOLDER + "docs.html" not in truth.urls, "the table of contents lists them all"
    assert "# source:" in text


@SQLITEDOCS.needs_docs
def test_the_sections_are_the_table_of_contents_of_docs_html(make_truth: ModuleType) -> None:
    sections = make_truth.docs_sections(SQLITEDOCS.docs)
    assert "Extensions" in sections and "Overview Documents" in sections
    assert sections["Tools"] == ["cli.html", "sqlanalyze.html", "rbu.html", "sqldiff.html",
                                 "dbhash.html"]  # the two off-site entries are dropped
    assert sections["Advocacy"] == ["appfileformat.html", "famous.html", "fasterthanfs.html"]
    statements = make_truth.list_pages(SQLITEDOCS.docs)
    assert statements[0] == "lang.html" and "lang_select.html" in statements
    assert "pragma.html" in statements  # pragma.html#syntax, fragment dropped
