"""The SQLite-docs truth files (benchmarks/sqlitedocs/): well-formed, reproducible from the
installed docs.html / lang.html, and no query word in a truth URL."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType
from urllib.parse import urlsplit

import pytest

from pagesift_ui.bench import Truth
from tests.bench.test_pydocs_truth import load_module

ROOT = Path(__file__).resolve().parents[2]
TRUTH_DIR = ROOT / "benchmarks" / "sqlitedocs"
DOCS = Path("/usr/share/doc/sqlite3")
PLACEHOLDER = "http://127.0.0.1:0/"
TRUTH_FILES = sorted(TRUTH_DIR.glob("*.truth"))
needs_docs = pytest.mark.skipif(
    not (DOCS / "docs.html").is_file(),
    reason=f"the SQLite docs are not installed at {DOCS} (apt-get install sqlite3-doc)",
)


@pytest.fixture(scope="module")
def make_truth() -> ModuleType:
    return load_module("sqlitedocs_make_truth", TRUTH_DIR / "make_truth.py")


def test_there_are_at_least_eight_queries() -> None:
    assert len(TRUTH_FILES) >= 8, TRUTH_FILES


@pytest.mark.parametrize("path", TRUTH_FILES, ids=lambda p: p.stem)
def test_truth_file_parses_with_enough_distinct_urls(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    truth = Truth.parse(text, str(path))
    assert truth.query and truth.seed == PLACEHOLDER + "index.html"
    assert len(truth.urls) >= 3
    assert len(set(truth.urls)) == len(truth.urls), "duplicate URLs"
    assert all(u.startswith(PLACEHOLDER) and "#" not in u and "?" not in u for u in truth.urls)
    assert PLACEHOLDER + "docs.html" not in truth.urls, "the table of contents lists them all"
    assert "# why:" in text and "# source:" in text


@pytest.mark.parametrize("path", TRUTH_FILES, ids=lambda p: p.stem)
def test_no_query_word_is_in_a_truth_url(path: Path) -> None:
    truthcheck = load_module("truthcheck_sqlite", ROOT / "benchmarks" / "truthcheck.py")
    truth = Truth.load(path)
    assert truthcheck.url_word_clashes(truth.query, truth.urls) == []


@needs_docs
@pytest.mark.parametrize("path", TRUTH_FILES, ids=lambda p: p.stem)
def test_every_truth_url_is_an_installed_page(path: Path) -> None:
    for url in Truth.load(path).urls:
        assert (DOCS / urlsplit(url).path.lstrip("/")).is_file(), url


@needs_docs
def test_make_truth_regenerates_the_same_files(make_truth: ModuleType) -> None:
    queries = make_truth.QUERIES
    assert {spec.name for spec in queries} == {p.stem for p in TRUTH_FILES}
    for spec in queries:
        committed = (TRUTH_DIR / f"{spec.name}.truth").read_text(encoding="utf-8")
        assert make_truth.render_spec(spec, DOCS) == committed, spec.name


@needs_docs
def test_the_sections_are_the_table_of_contents_of_docs_html(make_truth: ModuleType) -> None:
    sections = make_truth.docs_sections(DOCS)
    assert "Extensions" in sections and "Overview Documents" in sections
    assert sections["Tools"] == ["cli.html", "sqlanalyze.html", "rbu.html", "sqldiff.html",
                                 "dbhash.html"]  # the two off-site entries are dropped
    assert sections["Advocacy"] == ["appfileformat.html", "famous.html", "fasterthanfs.html"]
    statements = make_truth.list_pages(DOCS)
    assert statements[0] == "lang.html" and "lang_select.html" in statements
    assert "pragma.html" in statements  # pragma.html#syntax, fragment dropped
