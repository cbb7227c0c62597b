"""The PostgreSQL-docs truth files (benchmarks/pgdocs/, the held-out set): enough of them,
from several parts of the manual, read off the chapters' tables of contents (the checks every
dev set shares: test_docsite_truth.py)."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest

from pagesift_ui.bench import Truth
from tests.bench.docsite_truth import PGDOCS, PLACEHOLDER, ROOT, load_module

DOCSET = PGDOCS  # the conftest's make_truth fixture loads its make_truth.py
TRUTH_FILES = DOCSET.truth_files


def test_there_are_at_least_eight_queries() -> None:
    assert len(TRUTH_FILES) >= 8, TRUTH_FILES


@pytest.mark.parametrize("path", TRUTH_FILES, ids=lambda p: p.stem)
def test_truth_urls_have_no_query_and_skip_the_start_page(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    truth = Truth.parse(text, str(path))
    assert all("?" not in u for u in truth.urls)
    assert PLACEHOLDER + "index.html" not in truth.urls, "the start page lists every chapter"
    assert 5 <= len(truth.urls) <= 25, "a chapter of moderate size"
    assert "# source:" in text


def test_the_queries_are_short_enough_to_be_read_whole(make_truth: ModuleType) -> None:
    for spec in make_truth.QUERIES:
        make_truth.check_length(spec)
    spec = make_truth.QuerySpec("long", " ".join(f"word{i}" for i in range(16)), "wal.html", "-")
    with pytest.raises(ValueError, match="16 or more terms"):
        make_truth.check_length(spec)


def test_the_held_out_set_is_no_tuning_site() -> None:
    """Registered apart from the tuning sites, so no tuning script and no default run of
    run_all.py sees it, and run_all.py reports it apart when asked with --only pgdocs."""
    run_all = load_module("run_all_under_test", ROOT / "benchmarks" / "run_all.py")
    assert "pgdocs" in run_all.HELD_OUT and "pgdocs" not in run_all.SITES
    assert "pgdocs" not in run_all.PARTS  # the default run's parts
    assert run_all.HELD_OUT["pgdocs"].truth_names() == [p.stem for p in TRUTH_FILES]
    run = run_all.Run({"pydocs": [], "pgdocs": []}, {"pydocs": 60.0, "pgdocs": 120.0},
                      {"pgdocs": "memo"})
    held = run.split({"pgdocs"})
    assert list(run.reports) == ["pydocs"] and list(held.reports) == ["pgdocs"]
    assert (run.total_seconds, held.total_seconds, run.memo) == (60.0, 120.0, {})
    assert "pgdocs" not in run_all.summary_json(run, 200)["minutes"]


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
