"""The PostgreSQL-docs truth files (benchmarks/pgdocs/, the held-out set): enough of them,
from several parts of the manual, read off the chapters' tables of contents (the checks every
dev set shares: test_docsite_truth.py)."""

from __future__ import annotations

from types import ModuleType

import pytest

from tests.bench.docsite_truth import PGDOCS

DOCSET = PGDOCS  # the conftest's make_truth fixture loads its make_truth.py








def test_a_query_with_a_url_word_is_refused(make_truth: ModuleType) -> None:
    spec = make_truth.QuerySpec("fts", "full text search", "textsearch.html", "-")
    with pytest.raises(ValueError, match="'text' is in the URL .*textsearch"):
        make_truth.render(spec, ["textsearch.html", "textsearch-intro.html"], "index.html",
                          "test")


@PGDOCS.needs_docs
def test_the_chapter_table_of_contents_is_what_the_truth_lists(make_truth: ModuleType) -> None:
    assert make_truth.chapter_title(PGDOCS.docs, "wal.html") == (
        "Reliability and the Write-Ahead Log")
    pages = make_truth.toc_pages(PGDOCS.docs, "wal.html")
    assert pages == ["wal.html", "wal-reliability.html", "checksums.html", "wal-intro.html",
                     "wal-async-commit.html", "wal-configuration.html", "wal-internals.html"]
    ddl = make_truth.toc_pages(PGDOCS.docs, "ddl.html")
    assert ddl.count("ddl-constraints.html") == 1  # its sect2 entries are fragments of it


@PGDOCS.needs_docs
def test_a_page_that_is_not_the_named_chapter_is_refused(
        make_truth: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ValueError, match="not a chapter page"):
        make_truth.chapter_title(PGDOCS.docs, "wal-intro.html")
    monkeypatch.setitem(make_truth.TITLES, "ddl.html", "Data Manipulation")
    spec = make_truth.QuerySpec("x", "designing tables", "ddl.html", "-")
    with pytest.raises(ValueError, match="is the chapter 'Data Definition'"):
        make_truth.pages_of(spec, PGDOCS.docs)
