"""The SQLite-docs truth files (benchmarks/sqlitedocs/): enough of them, read off the installed
docs.html / lang.html (the checks every dev set shares: test_docsite_truth.py)."""

from __future__ import annotations

from types import ModuleType

from tests.bench.docsite_truth import SQLITEDOCS

DOCSET = SQLITEDOCS  # the conftest's make_truth fixture loads its make_truth.py




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
